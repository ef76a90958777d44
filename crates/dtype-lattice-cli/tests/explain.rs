//! `explain A B`: its joins and errors against JAX's own answers (the golden
//! `promote_types` data from JAX 0.10.2), its input names and exit codes.

mod support;

use std::path::Path;

use dtype_lattice::design::Definition;
use dtype_lattice::frameworks::jax::{Config, Jax, Promotion};
use dtype_lattice_cli::explain::{failure, render, Format, Report};
use serde_json::Value;
use support::{run, stderr, stdout};

fn golden(file: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/golden")
        .join(file);
    let text = std::fs::read_to_string(path).expect("golden data is committed");
    text.lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).expect("golden lines are JSON"))
        .collect()
}

fn config(case: &Value) -> Config {
    Config {
        x64: case["x64"] == true,
        promotion: if case["promotion"] == "strict" {
            Promotion::Strict
        } else {
            Promotion::Standard
        },
        ..Config::default()
    }
}

/// JAX's `promote_types` reports a weak join as its 64-bit dtype.
fn as_promote_types(label: &str) -> &str {
    match label {
        "i*" => "int64",
        "f*" => "float64",
        "c*" => "complex128",
        dtype => dtype,
    }
}

#[test]
fn every_pair_explains_to_jaxs_answer() {
    let cases = golden("promote_types.jsonl");
    assert_eq!(cases.len(), 35 * 35 * 4);
    for case in cases {
        let jax = Jax::new(config(&case));
        let definition = Definition::from_policy(&jax).unwrap();
        let poset = definition.poset().unwrap();
        let [a, b] = [0, 1].map(|i| case["args"][i].as_str().unwrap());
        let report = Report::new(&definition, &poset, Some(&jax), [a, b]).unwrap();
        let json: Value = serde_json::from_str(&render(&report, Format::Json)).unwrap();
        let answer = &case["answer"];
        if let Some(expected) = answer["ok"].as_str() {
            let join = json["join"].as_str().expect("a join");
            assert_eq!(as_promote_types(join), expected, "{case}");
            assert!(failure(&report).is_none());
            for input in json["inputs"].as_array().unwrap() {
                assert_eq!(input["path"].as_array().unwrap().last().unwrap(), join);
            }
        } else {
            assert_eq!(json["outcome"], "no_upper_bound", "{case}");
            assert_eq!(json["common_upper_bounds"], serde_json::json!([]));
            assert_eq!(
                json["error"]["message"], answer["error"]["message"],
                "{case}"
            );
            assert_eq!(json["error"]["type"], answer["error"]["type"], "{case}");
        }
    }
}

#[test]
fn a_failed_promotion_prints_what_promote_prints() {
    for args in [
        &["int4", "int8"][..],
        &["float8_e4m3fn", "float32"],
        &["--strict", "int32", "float32"],
        &["--x64", "uint2", "int8"],
    ] {
        let explain = run(&[&["explain"][..], args].concat());
        let promote = run(&[&["promote"][..], args].concat());
        assert_eq!(explain.status.code(), Some(1), "{args:?}");
        assert_eq!(promote.status.code(), Some(1), "{args:?}");
        assert!(stderr(&promote).starts_with("TypePromotionError: "));
        assert_eq!(stderr(&explain), stderr(&promote), "{args:?}");
        assert!(stdout(&explain).contains("have no common upper bound"));
    }
}

#[test]
fn a_join_is_shown_with_its_paths() {
    let output = run(&["explain", "int8", "uint8"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let promoted = stdout(&run(&["promote", "int8", "uint8"]));
    assert!(text.contains(&format!("join: {promoted}")), "{text}");
    assert!(text.contains(&format!("    int8 -> {promoted}")));
    assert!(text.contains(&format!("    uint8 -> {promoted}")));
    assert!(stderr(&output).is_empty());
}

#[test]
fn inputs_are_labels_aliases_or_python_types() {
    let output = run(&["explain", "--x64", "i1", "float", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["inputs"][0]["input"], "i1");
    assert_eq!(json["inputs"][0]["node"], "int8");
    assert_eq!(json["inputs"][1]["node"], "f*");
    assert_eq!(json["outcome"], "join");
    assert_eq!(json["inputs"][1]["path"], serde_json::json!(["f*"]));
}

#[test]
fn unknown_inputs_and_policies_without_a_lattice_exit_2() {
    let output = run(&["explain", "unit8", "int8"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no node 'unit8'"));
    assert!(stderr(&output).contains("did you mean 'uint8'?"));
    let output = run(&["explain", "--policy", "numpy", "int8", "uint8"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("not defined by a lattice"));
    let output = run(&["explain", "int8", "uint8", "--format", "yaml"]);
    assert_eq!(output.status.code(), Some(2));
}
