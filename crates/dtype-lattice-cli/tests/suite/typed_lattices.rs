//! The design tools read what a node stands for from the policy's typed
//! lattice, not from its label: TensorFlow labels its weak types
//! `weak:int32` etc., which label-reading took for opaque nodes (`explain
//! --policy tensorflow-all int8 float` answered the strong float64, `graph`
//! drew five weak nodes as opaque, `audit` filed pairs under "opaque").
//! Expected joins come from TensorFlow's golden data.

use std::fs;

use crate::support::{run, stderr, stdout};
use dtype_lattice::design::Definition;
use dtype_lattice::registry::{by_name, with_lattice, Settings};
use serde_json::Value;

/// The golden answer TensorFlow 2.21 gives for `args` in mode `all`.
fn tensorflow_all(args: &str) -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../conformance/golden/tensorflow_all_result_type.jsonl"
    );
    let text = fs::read_to_string(path).expect("the golden file");
    let args: Value = serde_json::from_str(args).unwrap();
    text.lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|case| case["fn"] == "result_type" && case["args"] == args)
        .unwrap_or_else(|| panic!("no golden case for {args}"))["answer"]["ok"]
        .clone()
}

/// Every built-in policy with a lattice, under every setting that changes
/// it: the policy names the tools take, with their flags.
fn lattice_subjects() -> Vec<Vec<&'static str>> {
    let mut subjects = Vec::new();
    for name in with_lattice() {
        subjects.push(vec!["--policy", name]);
        if name == "jax" {
            subjects.push(vec!["--policy", name, "--x64"]);
            subjects.push(vec!["--policy", name, "--strict"]);
        }
    }
    subjects
}

#[test]
fn explain_joins_int8_and_a_python_float_at_tensorflows_weak_float() {
    let output = run(&[
        "explain",
        "--policy",
        "tensorflow-all",
        "int8",
        "float",
        "--format",
        "json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let expected = tensorflow_all(r#"["int8", "py:float"]"#);
    assert_eq!(
        expected,
        serde_json::json!({"dtype": "float64", "weak": true})
    );
    assert_eq!(report["join"], "weak:float64");
    // `float` is the node where TensorFlow puts a Python float: a weak
    // float32, not the strong float64 its name also spells.
    assert_eq!(report["inputs"][1]["node"], "weak:float32");
}

#[test]
fn result_type_and_explain_agree_on_tensorflows_weak_types() {
    let result = stdout(&run(&[
        "result-type",
        "--policy",
        "tensorflow-all",
        "int8",
        "py:float",
    ]));
    let expected = tensorflow_all(r#"["int8", "py:float"]"#);
    assert_eq!(
        result.trim(),
        format!("{} (weak)", expected["dtype"].as_str().unwrap())
    );
    assert_eq!(expected["weak"], true);
}

#[test]
fn no_built_in_lattice_has_an_opaque_node() {
    for subject in lattice_subjects() {
        let policy_name = subject[1];
        let settings = Settings {
            x64: subject.contains(&"--x64"),
            strict: subject.contains(&"--strict"),
            ..Settings::default()
        };
        let policy = by_name(policy_name, settings).unwrap();
        let definition = Definition::from_policy(policy.as_ref()).unwrap();
        for node in &definition.nodes {
            assert!(
                node.dtype.is_some(),
                "{subject:?}: {} is opaque",
                node.label
            );
        }
        let weak = definition.nodes.iter().filter(|n| n.weak).count();
        let expected_weak = match policy_name {
            "jax" => 3,
            "tensorflow-all" => 5,
            _ => 0,
        };
        assert_eq!(weak, expected_weak, "{subject:?}");
    }
}

#[test]
fn graph_draws_no_opaque_node_and_dashes_every_weak_one() {
    for subject in lattice_subjects() {
        let mut args = vec!["graph", "--format", "dot"];
        args.extend(&subject);
        let dot = stdout(&run(&args));
        assert!(!dot.contains("class=\"opaque"), "{subject:?}");
        if subject[1] == "tensorflow-all" {
            for weak in ["int32", "int64", "float32", "float64", "complex128"] {
                let line = dot
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("\"weak:{weak}\" [")))
                    .unwrap_or_else(|| panic!("no node weak:{weak} in\n{dot}"));
                assert!(line.contains("class=\"weak"), "{line}");
            }
        }
    }
}

#[test]
fn audit_files_no_pair_under_opaque() {
    for subject in lattice_subjects() {
        let mut args = vec!["audit", "--format", "json"];
        args.extend(&subject);
        let output = run(&args);
        let report: Value = serde_json::from_str(stdout(&output).lines().next().unwrap()).unwrap();
        assert_eq!(report["opaque"], serde_json::json!([]), "{subject:?}");
    }
}
