//! `--explicit-x64-dtypes` and the batch key `"explicit_x64_dtypes"`: JAX's
//! warnings on stderr with the answer on stdout (exit 0), its `ValueError`
//! (exit 1), defaults, and bad modes. Expected answers and texts come from
//! `conformance/golden/jax_explicit_x64.jsonl` (JAX 0.12.0.1).

use std::path::Path;

use crate::support::{run, run_with_input, stderr, stdout};
use serde_json::{json, Value};

/// JAX's answer to `fn(args)` with x64 off, standard promotion, in `mode`.
fn jax_answer(function: &str, args: Value, mode: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/golden/jax_explicit_x64.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|case| {
            case["fn"] == function
                && case["args"] == args
                && case["x64"] == false
                && case["promotion"] == "standard"
                && case["explicit_x64_dtypes"] == mode
        })
        .unwrap_or_else(|| panic!("no golden case for {function}{args} in {mode}"))["answer"]
        .clone()
}

fn warnings(answer: &Value) -> Vec<&str> {
    answer["warnings"]
        .as_array()
        .map(|w| w.iter().map(|t| t.as_str().unwrap()).collect())
        .unwrap_or_default()
}

#[test]
fn a_warning_goes_to_stderr_and_the_answer_to_stdout() {
    let jax = jax_answer("result_type", json!(["bool", "uint64"]), "warn");
    assert_eq!(jax["ok"]["dtype"], "uint32");
    let expected: String = warnings(&jax)
        .iter()
        .map(|text| format!("warning: {text}\n"))
        .collect();
    assert!(!expected.is_empty());
    for args in [
        &["result-type", "bool", "uint64"][..],
        &[
            "result-type",
            "--explicit-x64-dtypes",
            "warn",
            "bool",
            "uint64",
        ],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert_eq!(stdout(&output), "uint32\n");
        assert_eq!(stderr(&output), expected);
    }
}

#[test]
fn every_warning_is_printed_in_order() {
    let jax = jax_answer(
        "result_type",
        json!([{"dtype": "int64", "weak": false}, "uint64"]),
        "warn",
    );
    let texts = warnings(&jax);
    assert_eq!(texts.len(), 2);
    let output = run(&["result-type", "array:int64", "uint64"]);
    assert_eq!(output.status.code(), Some(0));
    let printed = stderr(&output);
    let lines: Vec<&str> = printed.lines().collect();
    let expected: Vec<String> = texts.iter().map(|t| format!("warning: {t}")).collect();
    assert_eq!(lines, expected);
}

#[test]
fn the_lattice_flag_prints_lattice_result_types_warnings() {
    // `None` after a 64-bit specifier: JAX warns, then raises.
    let jax = jax_answer("lattice_result_type", json!(["uint64", null]), "warn");
    let output = run(&["result-type", "--lattice", "uint64", "None"]);
    assert_eq!(output.status.code(), Some(1));
    let printed = stderr(&output);
    let mut lines = printed.lines();
    assert_eq!(
        lines.next(),
        Some(format!("warning: {}", warnings(&jax)[0]).as_str())
    );
    assert_eq!(
        lines.next(),
        Some(format!("ValueError: {}", jax["error"]["message"].as_str().unwrap()).as_str())
    );
}

#[test]
fn error_refuses_with_jaxs_value_error_and_exit_1() {
    let jax = jax_answer("result_type", json!(["bool", "uint64"]), "error");
    assert_eq!(jax["error"]["type"], "ValueError");
    let output = run(&[
        "result-type",
        "--explicit-x64-dtypes",
        "error",
        "bool",
        "uint64",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        format!(
            "ValueError: {}\n",
            jax["error"]["message"].as_str().unwrap()
        )
    );
}

#[test]
fn allow_keeps_the_dtype_without_a_warning() {
    let jax = jax_answer("result_type", json!(["uint64", "int8"]), "allow");
    assert_eq!(jax, json!({"ok": {"dtype": "float32", "weak": true}}));
    let output = run(&[
        "result-type",
        "--explicit-x64-dtypes",
        "allow",
        "uint64",
        "int8",
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "float32 (weak)\n");
    assert_eq!(stderr(&output), "");
}

#[test]
fn promote_types_ignores_the_mode() {
    for mode in ["warn", "error", "allow"] {
        let jax = jax_answer("promote_types", json!(["bool", "uint64"]), mode);
        let output = run(&["promote", "--explicit-x64-dtypes", mode, "bool", "uint64"]);
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            stdout(&output),
            format!("{}\n", jax["ok"].as_str().unwrap())
        );
        assert_eq!(stderr(&output), "");
    }
}

#[test]
fn batch_answers_carry_warnings_and_take_the_flag_as_default() {
    let requests = [
        json!({"fn": "result_type", "args": ["uint64", "int8"]}),
        json!({"fn": "result_type", "args": ["uint64", "int8"], "explicit_x64_dtypes": "allow"}),
        json!({"fn": "safe_to_cast", "args": ["int64", "int8"]}),
        json!({"fn": "lattice_result_type", "args": ["uint64", null]}),
    ];
    let input: String = requests.iter().map(|r| format!("{r}\n")).collect();
    for default in ["warn", "error", "allow"] {
        let output = run_with_input(&["batch", "--explicit-x64-dtypes", default], &input);
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(stderr(&output), "");
        let answers: Vec<Value> = stdout(&output)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for (request, ours) in requests.iter().zip(&answers) {
            let mode = request["explicit_x64_dtypes"].as_str().unwrap_or(default);
            let function = request["fn"].as_str().unwrap();
            assert_eq!(
                *ours,
                jax_answer(function, request["args"].clone(), mode),
                "{request} with --explicit-x64-dtypes {default}"
            );
        }
    }
}

#[test]
fn an_unknown_mode_names_the_three() {
    let output = run(&["result-type", "--explicit-x64-dtypes", "alow", "int8"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("invalid value 'alow' for '--explicit-x64-dtypes <MODE>'"),
        "{message}"
    );
    assert!(
        message.contains("[possible values: warn, error, allow]"),
        "{message}"
    );
    assert!(message.contains("'allow'"), "{message}");

    let request = json!({"fn": "result_type", "args": ["int8"], "explicit_x64_dtypes": "Warn"});
    let output = run_with_input(&["batch"], format!("{request}\n"));
    let answer: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(answer["error"]["type"], "ValueError");
    assert_eq!(
        answer["error"]["message"],
        "\"explicit_x64_dtypes\" must be \"warn\", \"error\" or \"allow\", not \"Warn\": \
         did you mean \"warn\"?"
    );
    let request = json!({"fn": "result_type", "args": ["int8"], "explicit_x64_dtypes": true});
    let output = run_with_input(&["batch"], format!("{request}\n"));
    let answer: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(
        answer["error"]["message"],
        "\"explicit_x64_dtypes\" must be \"warn\", \"error\" or \"allow\", not true"
    );
}

#[test]
fn the_mode_names_the_policy_and_is_refused_for_lattice_files() {
    let output = run(&["table", "--explicit-x64-dtypes", "allow"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("jax (x64 off, standard, explicit-x64 allow)"));
    let output = run(&["table"]);
    assert!(stdout(&output).contains("jax (x64 off, standard):"));
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/lattices/option-3.toml")
        .display()
        .to_string();
    let output = run(&["check", &file, "--explicit-x64-dtypes", "error"]);
    assert_eq!(output.status.code(), Some(2));
    // Every setting's flag is named, JAX's first.
    assert!(stderr(&output).contains("--x64, --strict, --explicit-x64-dtypes"));
    assert!(stderr(&output).contains("set a built-in policy's options"));
}
