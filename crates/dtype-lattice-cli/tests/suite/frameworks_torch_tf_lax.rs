//! The command line over the `torch`, `tensorflow`, `tensorflow-safe`,
//! `tensorflow-all` and `jax-lax` policies: tables, diffs, promote and
//! result-type (their lattices and batch routing are the library's test of
//! the same name).
//!
//! Expected values come only from the golden data written by
//! `conformance/generate_torch.py` (PyTorch 2.15.0),
//! `conformance/generate_tensorflow.py` (TensorFlow 2.21.0) and
//! `conformance/generate_jax_lax.py` (JAX 0.10.2).

use crate::support::{golden_operand, run, succeeds, table_cell};
use std::collections::BTreeSet;

use crate::support::golden::{answer, answers as golden};
use serde_json::{json, Value};

#[test]
fn table_shows_each_policys_measured_answers() {
    let answers = golden(&[
        "torch_result_type.jsonl",
        "ops_tensorflow.jsonl",
        "tensorflow_safe_result_type.jsonl",
        "tensorflow_all_result_type.jsonl",
        "ops_jax_lax.jsonl",
    ]);
    for (policy, f) in [
        ("torch", "result_type"),
        ("tensorflow", "add"),
        ("tensorflow-safe", "result_type"),
        ("tensorflow-all", "result_type"),
        ("jax-lax", "add"),
    ] {
        let csv = succeeds(&[
            "table", "--policy", policy, "--format", "csv", "--labels", "names",
        ]);
        let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
        let headings = &rows[0][1..];
        assert_eq!(headings.len(), 18);
        for row in &rows[1..] {
            for (column, ours) in headings.iter().zip(&row[1..]) {
                let args = json!([golden_operand(row[0]), golden_operand(column)]);
                let expected = table_cell(answer(&answers, f, policy, &args));
                assert_eq!(*ours, expected, "{policy} {args}");
            }
        }
    }
}

#[test]
fn diff_torch_numpy_lists_the_cells_the_golden_answers_differ_in() {
    let answers = golden(&["torch_promote_types.jsonl", "numpy_promote_types.jsonl"]);
    let report: Value = serde_json::from_str(&succeeds(&[
        "diff", "torch", "numpy", "--format", "json", "--labels", "names",
    ]))
    .unwrap();
    let headings = [
        "bool",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int8",
        "int16",
        "int32",
        "int64",
        "bfloat16",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ];
    let python = ["int", "float", "complex"];
    let mut expected = BTreeSet::new();
    for a in headings.iter().chain(&python) {
        for b in headings.iter().chain(&python) {
            let args = json!([a, b]);
            let ok = |policy| answer(&answers, "promote_types", policy, &args).get("ok");
            // NumPy has bfloat16 only through ml_dtypes; PyTorch has it.
            if ok("torch") != ok("numpy") || *a == "bfloat16" || *b == "bfloat16" {
                expected.insert((golden_label(a), golden_label(b)));
            }
        }
    }
    let listed = crate::support::diff_cells(&report);
    assert_eq!(listed, expected);
    assert_eq!(report["count"], expected.len());
}

#[test]
fn promote_and_result_type_commands_take_the_new_policies() {
    let answers = golden(&[
        "tensorflow_all_promote_types.jsonl",
        "torch_result_type.jsonl",
    ]);
    let expected = answer(
        &answers,
        "promote_types",
        "tensorflow-all",
        &json!(["int8", "uint8"]),
    );
    assert_eq!(
        succeeds(&["promote", "--policy", "tensorflow-all", "int8", "uint8"]).trim(),
        expected["ok"]
    );
    let expected = answer(
        &answers,
        "result_type",
        "torch",
        &json!(["int8", "0d:int64"]),
    );
    assert_eq!(
        succeeds(&["result-type", "--policy", "torch", "int8", "0d:int64"]).trim(),
        expected["ok"]["dtype"]
    );
    let output = run(&["promote", "--policy", "torch", "float8_e5m2", "float32"]);
    assert_eq!(output.status.code(), Some(1));
    let expected = answer(
        &golden(&["torch_promote_types.jsonl"]),
        "promote_types",
        "torch",
        &json!(["float8_e5m2", "float32"]),
    )["error"]
        .clone();
    crate::support::assert_prints_error(&output, &expected);
}

#[test]
fn a_misspelt_policy_gets_the_nearest_name() {
    for (typo, meant) in [
        ("tensorflow_all", "tensorflow-all"),
        ("torhc", "torch"),
        ("jax_lax", "jax-lax"),
        ("tensorflow-saef", "tensorflow-safe"),
    ] {
        let output = run(&["table", "--policy", typo]);
        assert_eq!(output.status.code(), Some(2));
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(
            message.contains(&format!("unknown policy '{typo}': did you mean '{meant}'?")),
            "{message}"
        );
    }
}

/// The diff's heading of a golden `promote_types` argument.
fn golden_label(name: &str) -> String {
    match name {
        "int" => "i*".to_owned(),
        "float" => "f*".to_owned(),
        "complex" => "c*".to_owned(),
        dtype => dtype.to_owned(),
    }
}
