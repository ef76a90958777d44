//! What people type: tips for a misplaced argument, a drawing written to a
//! file named for its format, completions and a man page from the
//! argument definitions, and dtypes spelled as the ecosystems print them.

use crate::support::{run, run_with_input, stderr, stdout};

#[test]
fn promote_with_three_types_points_to_result_type() {
    let output = run(&["promote", "int8", "int16", "int32"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("result-type takes any number of operands"));
}

#[test]
fn flag_tips_name_only_the_subcommands_own_flags() {
    // `batch` has no --policy (other subcommands do): no tip for it.
    let output = run(&["batch", "--polic", "numpy"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!stderr(&output).contains("tip: the nearest flag is '--policy'"));
    let output = run(&["table", "--x46"]);
    assert_eq!(
        stderr(&output)
            .matches("tip: the nearest flag is '--x64'")
            .count(),
        1
    );
}

#[test]
fn graph_writes_the_format_its_file_name_asks_for() {
    let dir = std::env::temp_dir().join(format!("dtype-lattice-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, format) in [
        ("lattice.svg", "svg"),
        ("lattice.dot", "dot"),
        ("lattice.GV", "dot"),
    ] {
        let path = dir.join(name);
        let output = run(&["graph", "--x64", "-o", path.to_str().unwrap()]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(output.stdout.is_empty());
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            written,
            stdout(&run(&["graph", "--x64", "--format", format])),
            "{name}"
        );
    }
    let output = run(&["graph", "-o", dir.join("lattice.png").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains(".svg, .dot or .gv"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn completions_and_the_man_page_cover_every_subcommand() {
    let command = <dtype_lattice_cli::Cli as clap::CommandFactory>::command();
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout(&run(&["completions", shell]));
        for name in &names {
            assert!(script.contains(name), "{shell}: {name}");
        }
    }
    let page = stdout(&run(&["man"]));
    assert!(page.starts_with(".ie") || page.contains(".TH dtype-lattice 1"));
    for name in &names {
        assert!(page.contains(&name.replace('-', "\\-")), "man: {name}");
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn dtypes_spelled_as_the_ecosystems_print_them_are_taken() {
    // int8 with uint8 is int16 in JAX (conformance/golden/promote_types.jsonl).
    for (a, b) in [
        ("np.int8", "uint8"),
        ("jnp.int8", "numpy.uint8"),
        ("dtype('int8')", "<class 'numpy.uint8'>"),
        ("torch.int8", "tf.uint8"),
    ] {
        let output = run(&["promote", a, b]);
        assert_eq!(
            stdout(&output).trim(),
            "int16",
            "{a} {b}: {}",
            stderr(&output)
        );
    }
    let output = run(&["promote", "Int8", "uint8"]);
    assert!(stderr(&output).contains("did you mean 'int8'?"));
}

/// Runs `batch` with `input` on standard input.
fn batch(args: &[&str], input: &str) -> std::process::Output {
    let args: Vec<&str> = std::iter::once("batch")
        .chain(args.iter().copied())
        .collect();
    run_with_input(&args, input)
}

#[test]
fn batch_policy_sets_the_default_for_requests_without_one() {
    // uint64 with int64: NumPy float64, JAX (x64 off) int32, per the golden
    // files numpy_result_type.jsonl and result_type.jsonl.
    let without = r#"{"fn": "result_type", "args": ["uint64", "int64"]}"#;
    let as_jax = r#"{"fn": "result_type", "args": ["uint64", "int64"], "policy": "jax"}"#;
    let output = batch(&["--policy", "np"], &format!("{without}\n{as_jax}\n"));
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["ok"]["dtype"], "float64");
    assert_eq!(lines[1]["ok"]["dtype"], "int32");
    let output = batch(&[], &format!("{without}\n"));
    assert!(stdout(&output).contains("int32"));
    let output = batch(&["--policy", "nmpy"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("did you mean 'numpy'?"));
}

#[test]
fn batch_help_documents_the_request_fields() {
    let help = stdout(&run(&["batch", "--help"]));
    for field in [
        "\"fn\"",
        "\"args\"",
        "\"x64\"",
        "\"strict\"",
        "\"promotion\"",
        "\"policy\"",
        "add",
        "can_cast",
    ] {
        assert!(help.contains(field), "{field}");
    }
}

#[test]
fn html_tables_are_standalone_pages_or_fragments() {
    let page = stdout(&run(&[
        "table", "--x64", "--diff", "numpy", "--format", "html",
    ]));
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<style>") && page.contains(include_str!("../../web/table.css")));
    assert!(page.trim_end().ends_with("</html>"));
    let fragment = stdout(&run(&[
        "table",
        "--x64",
        "--diff",
        "numpy",
        "--format",
        "html",
        "--fragment",
    ]));
    assert!(fragment.starts_with("<table id=\"types\">"));
    assert!(!fragment.contains("<style>"));
    // The page holds the fragment whole.
    assert!(page.contains(&fragment));
}

#[test]
fn complex_literals_are_read_as_python_reads_them() {
    // Each spelling answers as the batch protocol's JSON form of the same
    // value, whose answers the golden files check against the libraries.
    for (literal, json) in [
        ("1j", "[0, 1]"),
        ("2+3j", "[2, 3]"),
        ("(2-3j)", "[2, -3]"),
        ("-1.5j", "[0, -1.5]"),
        ("-2+3J", "[-2, 3]"),
    ] {
        for dtype in ["int8", "bfloat16", "float64"] {
            let cli = run(&["result-type", "--x64", dtype, literal]);
            assert_eq!(cli.status.code(), Some(0), "{literal}: {}", stderr(&cli));
            let request = format!(
                r#"{{"fn": "result_type", "args": ["{dtype}", {{"complex": {json}}}], "x64": true}}"#
            );
            let answer = stdout(&batch(&[], &request));
            let (dtype_out, weak) = (stdout(&cli).trim().to_owned(), answer.contains("true"));
            let expected_cli = if weak {
                format!("{} (weak)", json_dtype(&answer))
            } else {
                json_dtype(&answer)
            };
            assert_eq!(dtype_out, expected_cli, "{dtype} {literal}");
        }
    }
    let output = run(&["result-type", "float32", "2+j"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("'2+j'"), "{}", stderr(&output));
    assert!(stderr(&output).contains("complex literal such as 1j or 2+3j"));
}

fn json_dtype(answer: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(answer.trim()).unwrap();
    value["ok"]["dtype"].as_str().unwrap().to_owned()
}
