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

use dtype_lattice::{DType, Kind};
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
    // Written from a thread while the answers are read here: an input
    // whose answers outgrow the pipe would otherwise block both sides. The
    // tool may stop reading early; a closed pipe here is fine.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_ref().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().expect("the writer does not panic");
    output
}

/// Runs the binary, which must succeed, and returns what it printed.
pub fn succeeds(args: &[&str]) -> String {
    let output = run(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// The exit code.
pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

/// The golden data's spelling of a table heading: the weak types `i*`,
/// `f*`, `c*` are Python's scalar types.
pub fn golden_operand(heading: &str) -> String {
    match heading {
        "i*" => "py:int".to_owned(),
        "f*" => "py:float".to_owned(),
        "c*" => "py:complex".to_owned(),
        name => name.to_owned(),
    }
}

/// A golden answer as the table writes it: the dtype name, its Python
/// type for a weak result, `-` for an error.
pub fn table_cell(answer: &Value) -> String {
    let Some(ok) = answer.get("ok") else {
        return "-".to_owned();
    };
    let name = ok["dtype"].as_str().expect("a dtype name");
    if ok["weak"] != true {
        return name.to_owned();
    }
    match name.parse::<DType>().expect("one of the 32 dtypes").kind() {
        Kind::Complex => "c*",
        Kind::Float => "f*",
        _ => "i*",
    }
    .to_owned()
}

/// Asserts that the command failed with the golden `error` as the
/// command line prints it: `Type: message`.
pub fn assert_prints_error(output: &Output, error: &Value) {
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim(),
        format!(
            "{}: {}",
            error["type"].as_str().expect("an error type"),
            error["message"].as_str().expect("an error message")
        )
    );
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
