//! `explain` on every pair of JAX's lattices, in all four configurations,
//! against JAX's own `promote_types` answers (the golden data): the join
//! where JAX promotes, JAX's error where it refuses.

use std::path::Path;

use dtype_lattice::design::explain::Report;
use dtype_lattice::design::Definition;
use dtype_lattice::engine::Bound;
use dtype_lattice::frameworks::jax::{Config, Jax, Promotion};
use serde_json::Value;

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
        let json = report.to_json();
        let answer = &case["answer"];
        if let Some(expected) = answer["ok"].as_str() {
            let join = json["join"].as_str().expect("a join");
            assert_eq!(as_promote_types(join), expected, "{case}");
            assert!(matches!(report.why.bound, Bound::Least(_)));
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
