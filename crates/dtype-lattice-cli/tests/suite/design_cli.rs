//! `check` and `audit` as a user runs them: exit 0 for a (partial) lattice,
//! 1 for anything else, 2 for a bad file or bad usage, with messages that
//! say where and how to fix.

use crate::support::{code, run, stderr, stdout};
use std::path::{Path, PathBuf};

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/lattices")
        .join(format!("{name}.toml"))
        .to_string_lossy()
        .into_owned()
}

/// A lattice file with this text, in a directory of its own.
fn temp_file(name: &str, text: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dtype-lattice-design-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn lattices_exit_0_and_others_exit_1() {
    for args in [
        vec!["check"],
        vec!["check", "--policy", "jax", "--x64", "--strict"],
        vec!["check", "--policy", "array-api"],
    ] {
        let output = run(&args);
        assert_eq!(code(&output), 0, "{args:?}");
        assert!(stdout(&output).contains("lattice"));
    }
    let right = example("not-a-lattice-right");
    let output = run(&["check", &right]);
    assert_eq!(code(&output), 1);
    assert!(stdout(&output).contains("{A, B}: minimal common upper bounds C, D, none least"));
    let output = run(&["check", "--policy", "numpy"]);
    assert_eq!(code(&output), 1);
    // The design notebook's example of NumPy's broken associativity, which the numpy
    // policy reproduces from NumPy 2.5.5's golden answers.
    assert!(stdout(&output).contains(
        "e.g. (uint8 + int8) + float16 = float32 but uint8 + (int8 + float16) = float16"
    ));
}

#[test]
fn a_cycle_exits_1_naming_its_nodes() {
    let path = temp_file(
        "cycle.toml",
        b"name = \"c\"\n[edges]\na = [\"b\"]\nb = [\"a\"]\n",
    );
    let output = run(&["check", path.to_str().unwrap()]);
    assert_eq!(code(&output), 1);
    assert!(stdout(&output).contains("cycle: a -> b -> a"));
    let output = run(&["check", "--format", "json", path.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["cycle"], serde_json::json!(["a", "b"]));
    assert_eq!(report["lattice"], false);
    let output = run(&["audit", path.to_str().unwrap()]);
    assert_eq!(code(&output), 1);
    assert!(stderr(&output).contains("the edges form a cycle: a -> b -> a"));
}

#[test]
fn bad_files_exit_2_with_the_place_and_a_fix() {
    let path = temp_file("typo.toml", b"name = \"t\"\n[dtypes]\nu8 = \"unit8\"\n");
    let shown = path.to_str().unwrap();
    for command in ["check", "audit"] {
        let output = run(&[command, shown]);
        assert_eq!(code(&output), 2);
        assert_eq!(
            stderr(&output),
            format!("error: {shown}:3:6: [dtypes] maps 'u8' to an unknown dtype 'unit8': did you mean 'uint8'?\n")
        );
    }
    let path = temp_file("bytes.toml", b"name = \"\xff\"\n");
    let output = run(&["check", path.to_str().unwrap()]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains(":1:9: byte 8 (0xff) is not UTF-8"));
    let output = run(&["check", "no/such/file.toml"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).starts_with("error: no/such/file.toml: cannot read the file: "));
}

#[test]
fn bad_usage_exits_2() {
    let file = example("option-3");
    for (args, message) in [
        (
            vec!["check", &file, "--x64"],
            "set a built-in policy's options; a lattice file's edges are its own",
        ),
        (
            vec!["check", &file, "--policy", "jax"],
            "cannot be used with",
        ),
        (
            vec!["check", "--policy", "nump"],
            "unknown policy 'nump': did you mean 'numpy'?",
        ),
        (
            vec!["audit", &file, "--strict"],
            "set a built-in policy's options; a lattice file's edges are its own",
        ),
        (vec!["check", "--format", "yaml"], "invalid value 'yaml'"),
    ] {
        let output = run(&args);
        assert_eq!(code(&output), 2, "{args:?}");
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn audit_compares_subjects_side_by_side() {
    let (one, three) = (example("option-1"), example("option-3"));
    let output = run(&["audit", "--policy", "jax", "--x64", &one, &three]);
    assert_eq!(code(&output), 0);
    let text = stdout(&output);
    let header = text.lines().next().unwrap();
    assert!(
        header.contains("jax (x64 on, standard)  option-1  option-3"),
        "{header}"
    );
    assert!(text.lines().any(|l| l.starts_with("wider_than_inputs")));
    let output = run(&["audit", "--format", "json", "--policy", "numpy", &three]);
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (lines[0]["name"].as_str(), lines[1]["name"].as_str()),
        (Some("numpy"), Some("option-3"))
    );
    for line in &lines {
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["name", "pairs", "undefined", "opaque", "criteria"]);
    }
}

/// `--max-examples` past the library's cap is refused with the range, not
/// taken as a reason to list millions of pairs.
#[test]
fn max_examples_is_capped_with_a_message() {
    let output = run(&["check", "--max-examples", "1000000"]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("1000000 is not in 0..=1000"),
        "{}",
        stderr(&output)
    );
}
