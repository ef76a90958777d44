//! Running the built binary, for the test files that drive it (each uses
//! some of these helpers).
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dtype-lattice"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the binary with `input` on standard input.
pub fn run_with_input(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dtype-lattice"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The tool may stop reading early; a closed pipe here is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_ref());
    child.wait_with_output().unwrap()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 errors")
}
