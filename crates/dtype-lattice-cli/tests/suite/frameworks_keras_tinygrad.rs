//! The command line over the `keras` and `tinygrad` policies and their
//! settings: tables in every setting, promote, result-type and check
//! (their batch answers are the library's golden test).
//!
//! Expected values come only from the golden data written by
//! `conformance/generate_keras.py` (Keras 3.15.1) and
//! `conformance/generate_tinygrad.py` (tinygrad 0.14.0).

use crate::support::{golden_operand, run, succeeds, table_cell};
use std::collections::BTreeMap;

use crate::support::golden::golden_dir;
use serde_json::Value;

/// The answers of a golden file's calls of `f` under `settings` (a call
/// line without a setting is one at its default), by their arguments'
/// JSON: the lines at the defaults, then those naming these settings.
fn answers(file: &str, f: &str, settings: &[(&str, &str)]) -> BTreeMap<String, Value> {
    let text = std::fs::read_to_string(golden_dir().join(file)).unwrap();
    let mut at_defaults = BTreeMap::new();
    let mut named = BTreeMap::new();
    for line in text.lines().skip(1) {
        let call: Value = serde_json::from_str(line).unwrap();
        if call["fn"] != f {
            continue;
        }
        let names: Vec<&(&str, &str)> = settings
            .iter()
            .filter(|(name, _)| call.get(*name).is_some())
            .collect();
        let key = call["args"].to_string();
        if names.is_empty() {
            at_defaults.insert(key, call["answer"].clone());
        } else if names.len() == settings.len()
            && settings.iter().all(|(name, value)| call[*name] == *value)
        {
            named.insert(key, call["answer"].clone());
        }
    }
    at_defaults.extend(named);
    assert!(!at_defaults.is_empty(), "{file} {f} {settings:?}");
    at_defaults
}

/// `table` of a policy with these settings, cell by cell against the
/// golden `result_type` answers.
fn check_table(policy: &str, file: &str, settings: &[(&str, &str)]) {
    let answers = answers(file, "result_type", settings);
    let mut args = vec![
        "table", "--policy", policy, "--format", "csv", "--labels", "names",
    ];
    let flags: Vec<(String, &str)> = settings
        .iter()
        .map(|(name, value)| (format!("--{}", name.replace('_', "-")), *value))
        .collect();
    for (flag, value) in &flags {
        args.push(flag);
        args.push(value);
    }
    let csv = succeeds(&args);
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let headings = &rows[0][1..];
    assert_eq!(headings.len(), 18);
    for row in &rows[1..] {
        for (column, ours) in headings.iter().zip(&row[1..]) {
            let key = serde_json::json!([golden_operand(row[0]), golden_operand(column)]);
            let expected = answers
                .get(&key.to_string())
                .unwrap_or_else(|| panic!("no golden result_type {key} {settings:?}"));
            assert_eq!(*ours, table_cell(expected), "{policy} {settings:?} {key}");
        }
    }
}

#[test]
fn keras_tables_are_the_measured_answers_on_every_backend_and_floatx() {
    for backend in ["tensorflow", "jax", "numpy"] {
        for floatx in ["float32", "float16", "bfloat16", "float64"] {
            check_table(
                "keras",
                "keras_result_type.jsonl",
                &[("keras_backend", backend), ("floatx", floatx)],
            );
        }
    }
}

#[test]
fn tinygrad_tables_are_the_measured_answers_at_every_default() {
    for float in ["float32", "float16", "bfloat16", "float64"] {
        for int in ["int32", "int64"] {
            check_table(
                "tinygrad",
                "tinygrad_result_type.jsonl",
                &[
                    ("tinygrad_default_float", float),
                    ("tinygrad_default_int", int),
                ],
            );
        }
    }
}

#[test]
fn promote_takes_the_settings_and_reports_the_frameworks_errors() {
    let keras = answers(
        "keras_result_type.jsonl",
        "result_type",
        &[("keras_backend", "numpy"), ("floatx", "float32")],
    );
    let expected = &keras[r#"["int64","int64"]"#];
    let ours = succeeds(&[
        "promote",
        "--policy",
        "keras",
        "--keras-backend",
        "numpy",
        "int64",
        "int64",
    ]);
    assert_eq!(ours.trim(), expected["ok"]["dtype"]);
    let output = run(&["promote", "--policy", "keras", "int4", "int8"]);
    assert_eq!(output.status.code(), Some(1));
    let expected = &keras[r#"["int4","int8"]"#]["error"];
    crate::support::assert_prints_error(&output, expected);
    let tinygrad = answers("tinygrad_promote_types.jsonl", "promote_types", &[]);
    let ours = succeeds(&["promote", "--policy", "tg", "float8_e4m3fn", "float8_e5m2"]);
    assert_eq!(
        ours.trim(),
        tinygrad[r#"["float8_e4m3fn","float8_e5m2"]"#]["ok"]
    );
}

#[test]
fn a_bad_setting_value_is_refused_naming_it() {
    let output = run(&[
        "promote", "--policy", "keras", "--floatx", "float8", "int8", "int8",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("float8"));
    let output = run(&[
        "promote",
        "--policy",
        "tinygrad",
        "--tinygrad-default-int",
        "int8",
        "int8",
        "int8",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("int8"));
}

/// `check` reads each graph as written: tinygrad's has six pairs of
/// distinct float8 types with two minimal upper bounds; Keras's is a
/// lattice, whose joins its rules then cut (which `explain` says).
#[test]
fn check_reads_the_written_graphs() {
    let output = run(&["check", "--policy", "tinygrad"]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("ambiguous pairs: 6"), "{text}");
    assert!(
        text.contains(
            "{float8_e4m3fn, float8_e5m2}: minimal common upper bounds float16, bfloat16"
        ),
        "{text}"
    );
    let output = run(&["check", "--policy", "keras"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).ends_with("a lattice\n"));
    // The golden keras_result_type answers uint32 with int8 on the NumPy
    // backend as int32; the graph joins them at int64.
    let output = run(&[
        "explain",
        "--policy",
        "keras",
        "--keras-backend",
        "numpy",
        "--format",
        "json",
        "uint32",
        "int8",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["join"], "int64");
    assert_eq!(report["rules_answer"]["dtype"], "int32");
}
