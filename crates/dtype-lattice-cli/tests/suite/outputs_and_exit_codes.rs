//! Outputs that stay valid and exit codes that do not lie, whatever the
//! labels and wherever standard output goes: DOT with labels holding
//! control characters, error messages that never carry a raw control
//! character, a failed write (a full disk, a closed descriptor) reported
//! with exit 2, a closed pipe still quiet, and `-` reading a lattice file
//! from standard input. Runs the built binary.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::support::run_with_input;

const BIN: &str = env!("CARGO_BIN_EXE_dtype-lattice");

fn run(args: &[&str]) -> Output {
    run_with_input(args, b"")
}

/// Runs a shell command line with `$0` set to the binary.
fn shell(shell: &str, line: &str) -> Output {
    Command::new(shell)
        .args(["-c", line, BIN])
        .output()
        .expect("the shell runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// No control character but line breaks and tabs.
fn assert_no_controls(what: &str, text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\t'))
        .collect();
    assert!(bad.is_empty(), "{what} holds raw {bad:?}: {text:?}");
}

/// A lattice file in the system's temporary directory, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("dtype-lattice-{}-{name}.toml", std::process::id()));
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Labels that differ only by characters DOT cannot hold as they are, or
/// by the escapes those are written as; `\u{..}` here is TOML's escape.
const ODD_LABELS: [&str; 13] = [
    "ab",
    "a\\u0000b",
    "a\\rb",
    "a\\nb",
    "a\\tb",
    "a\\u0001b",
    "a\\u007Fb",
    "a\\u0085b",
    "a\\\\b",
    "a\\\\u{0}b",
    "a\\\"b",
    "a&b",
    "a&amp;b",
];

/// A chain through the odd labels, and one label too long for a single
/// Graphviz string.
fn odd_file() -> String {
    let long = "x".repeat(20_000);
    let mut labels: Vec<String> = ODD_LABELS.iter().map(|l| format!("\"{l}\"")).collect();
    labels.push(format!("\"{long}\""));
    let mut text = String::from("name = \"odd \\u0007\\r\\nname\"\n[edges]\n");
    for pair in labels.windows(2) {
        text += &format!("{} = [{}]\n", pair[0], pair[1]);
    }
    text
}

/// The IDs of the node statements of `graph --format dot` (the text
/// between the first quote and the quote before ` [class=`).
fn dot_node_ids(dot: &str) -> Vec<String> {
    dot.lines()
        .filter(|line| line.contains(" [class=\""))
        .map(|line| {
            let line = line.trim_start();
            let end = line.find(" [class=").unwrap();
            line[..end].to_owned()
        })
        .collect()
}

#[test]
fn dot_keeps_labels_that_differ_only_by_control_characters_apart() {
    let file = TempFile::new("odd", &odd_file());
    let output = run(&["graph", "--format", "dot", file.path()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let dot = text(&output.stdout);
    assert_no_controls("DOT", &dot);
    let ids = dot_node_ids(&dot);
    assert_eq!(ids.len(), ODD_LABELS.len() + 1);
    let distinct: BTreeSet<&String> = ids.iter().collect();
    assert_eq!(distinct.len(), ids.len(), "{ids:#?}");
    // The documented escapes.
    for id in [
        r#""a\u{0}b""#,
        r#""a\u{d}b""#,
        r#""a\u{a}b""#,
        r#""a\u{7f}b""#,
        r#""a\u{85}b""#,
        r#""a\\b""#,
        r#""a\\u{0}b""#,
        r#""a\"b""#,
    ] {
        assert!(ids.contains(&id.to_owned()), "no {id} in {ids:#?}");
    }
    // What people see: the control character as its escape, `&` as it is.
    assert!(dot.contains(r#"label="a\\u{0}b""#), "{dot}");
    assert!(dot.contains(r#"label="a&amp;amp;b""#), "{dot}");
    // The long label is cut into pieces DOT joins.
    assert!(ids.iter().any(|id| id.contains("\" + \"")));
    graphviz_reads(&dot, ids.len());
}

/// Graphviz, when installed, reads the DOT and finds every node.
fn graphviz_reads(dot: &str, nodes: usize) {
    let Ok(mut child) = Command::new("dot")
        .arg("-Tplain")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        eprintln!("graphviz is not installed: DOT checked without it");
        return;
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(dot.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let plain = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        plain.lines().filter(|l| l.starts_with("node ")).count(),
        nodes,
        "{plain}"
    );
}

#[test]
fn error_messages_carry_no_raw_control_characters() {
    // An operand, a subcommand, a flag value: the user's text comes back
    // escaped.
    for args in [
        &["promote", "\u{1b}[31mred", "int8"][..],
        &["promote", "int8", "a\rb"],
        &["\u{1b}]0;title\u{7}"],
        &["table", "--policy", "x\u{1b}[2J"],
        &["result-type", "int8", "\u{9b}31m"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(!stderr.is_empty());
        assert_no_controls("stderr", &stderr);
    }
    let stderr = text(&run(&["promote", "a\rb", "int8"]).stderr);
    assert!(stderr.contains("a\\rb"), "{stderr}");
    // A graph that is not a lattice, named and labelled with escape
    // sequences: its error names them escaped.
    let cycle = "name = \"\\u001b]0;pwned\\u0007\"\n[edges]\n\"\\u001b[31m\" = [\"b\"]\nb = [\"\\u001b[31m\"]\n";
    let output = run_with_input(&["graph", "-"], cycle.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("\\u{1b}[31m -> b"), "{stderr}");
    assert_no_controls("stderr", &stderr);
}

/// Standard output on /dev/full: every write fails with ENOSPC.
fn full() -> Option<Stdio> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()?;
    Some(Stdio::from(file))
}

#[test]
fn a_failed_write_exits_2_and_says_why() {
    if !Path::new("/dev/full").exists() {
        eprintln!("no /dev/full here");
        return;
    }
    for args in [
        &["--help"][..],
        &["--version"],
        &["promote", "--help"],
        &["promote", "int8", "int8"],
        &["table", "--all"],
        &["graph", "--format", "dot"],
    ] {
        let output = Command::new(BIN)
            .args(args)
            .stdout(full().unwrap())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("error: cannot write the output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_closed_standard_output_exits_2_and_says_why() {
    for command in ["promote int8 int8", "--help", "--version", "table --all"] {
        let output = shell("sh", &format!("exec \"$0\" {command} >&-"));
        assert_eq!(output.status.code(), Some(2), "{command}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("error: cannot write the output: Bad file descriptor"),
            "{command}: {stderr}"
        );
    }
    // /dev/null is a place to write, not a closed descriptor.
    let output = shell("sh", "exec \"$0\" promote int8 int8 >/dev/null");
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty());
}

#[test]
fn a_closed_pipe_stays_quiet() {
    for command in ["table --all", "--help", "table --all --format html"] {
        let output = shell(
            "bash",
            &format!("\"$0\" {command} | head -1 >/dev/null; echo \"${{PIPESTATUS[0]}}\""),
        );
        assert_eq!(text(&output.stdout).trim(), "0", "{command}");
        assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
    }
}

fn example(name: &str) -> String {
    format!(
        "{}/../../examples/lattices/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn a_dash_reads_the_lattice_file_from_standard_input() {
    for name in ["option-3.toml", "not-a-lattice-left.toml", "jax.toml"] {
        let path = example(name);
        let contents = std::fs::read(&path).unwrap();
        for command in [&["check"][..], &["audit"], &["graph", "--format", "dot"]] {
            let from_file = run(&[command, &[path.as_str()]].concat());
            let from_stdin = run_with_input(&[command, &["-"]].concat(), &contents);
            assert_eq!(from_stdin.status.code(), from_file.status.code(), "{name}");
            assert_eq!(text(&from_stdin.stdout), text(&from_file.stdout), "{name}");
            assert_eq!(text(&from_stdin.stderr), text(&from_file.stderr), "{name}");
        }
    }
    let output = run_with_input(
        &["explain", "int8", "uint8", "-"],
        std::fs::read(example("jax.toml")).unwrap(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("int16"));
    // Errors name standard input.
    let output = run_with_input(&["check", "-"], b"name = \"x\"\n[edges]\na = \"b\"\n");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "error: <stdin>:3:5: `edges.a` must be an array of node labels, such as [\"int16\", \"float16\"]\n"
    );
    // Standard input can be read once.
    let option = example("option-3.toml");
    let output = run_with_input(&["audit", "-", option.as_str(), "-"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("- (standard input) may be given once"));
}

#[test]
fn reports_carry_no_raw_control_characters_whatever_the_labels() {
    let file = TempFile::new("reports", &odd_file());
    for args in [
        vec!["check", file.path()],
        vec!["check", "--format", "json", file.path()],
        vec!["audit", file.path()],
        vec!["explain", "ab", "a\\b", file.path()],
        vec!["explain", "--format", "json", "ab", "a\\b", file.path()],
        vec!["graph", file.path()],
        vec!["graph", "--format", "dot", file.path()],
    ] {
        let output = run(&args);
        assert!(
            output.status.code().is_some_and(|code| code <= 1),
            "{args:?}: {output:?}"
        );
        assert_no_controls(&format!("{args:?} stdout"), &text(&output.stdout));
        assert_no_controls(&format!("{args:?} stderr"), &text(&output.stderr));
    }
}
