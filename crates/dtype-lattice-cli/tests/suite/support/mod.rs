//! What the command line's test binaries share (each uses some of it):
//! running the built binary, the explorer's server and a raw HTTP client
//! (`serve`), reading a diff report, and the golden data and its judge
//! (`golden`, from the workspace's testkit).
#![allow(dead_code)]

pub use dtype_lattice_testkit::golden;
pub mod serve;

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

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

/// The (row, column) cells a `diff --format json` report lists.
pub fn diff_cells(report: &Value) -> BTreeSet<(String, String)> {
    report["differences"]
        .as_array()
        .expect("a diff report lists its differences")
        .iter()
        .map(|d| {
            let label = |key: &str| d[key].as_str().expect("a cell label").to_owned();
            (label("row"), label("column"))
        })
        .collect()
}
