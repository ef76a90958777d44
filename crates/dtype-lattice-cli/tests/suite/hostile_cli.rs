//! Hostile command lines: unknown subcommands, flags, dtypes and policies
//! exit 2 with a message that quotes the input and suggests a spelling;
//! promotion errors exit 1; a closed output pipe ends quietly.

use std::io::Read;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dtype-lattice"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn misspellings_exit_2_quoting_the_input_and_suggesting() {
    for (args, quoted, suggestion) in [
        (&["tabel"][..], "tabel", "table"),
        (&["table", "--x46"], "--x46", "--x64"),
        (&["table", "--format", "htm"], "htm", "html"),
        (&["promote", "int8", "unit8"], "unit8", "uint8"),
        (
            &["promote", "--policy", "jaxx", "int8", "int8"],
            "jaxx",
            "jax",
        ),
        (&["result-type", "weak:flot32"], "flot32", "float32"),
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = stderr(&output);
        assert!(message.contains(quoted), "{args:?}: {message}");
        assert!(message.contains(suggestion), "{args:?}: {message}");
    }
}

#[test]
fn garbage_arguments_exit_2() {
    for args in [
        &["result-type"][..],
        &["result-type", "py:long"],
        &["result-type", "0d:"],
        &["result-type", "--", "-1e999"],
        &["promote", "int8"],
        &["promote", "\u{1F600}", "int8"],
    ] {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!stderr(&output).is_empty());
    }
}

#[test]
fn promotion_errors_exit_1() {
    let output = run(&["promote", "int4", "int8"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).starts_with("TypePromotionError: Input dtypes ('int4', 'int8')"));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dtype-lattice"))
        .args(["table", "--all", "--format", "html"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then hang up, as `| head -c 1` does.
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    stdout.read_exact(&mut byte).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{:?}", output.status);
    assert_eq!(stderr(&output), "");
}
