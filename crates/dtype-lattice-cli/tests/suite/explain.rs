//! `explain A B` on the command line: what it prints for a failed pair, its
//! input names and exit codes (its joins against JAX's golden answers are
//! the library's test `explain_golden`).

use serde_json::Value;

use crate::support::{run, stderr, stdout};

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
    assert!(stderr(&output).contains("defined by rules, not by a lattice"));
    let output = run(&["explain", "int8", "uint8", "--format", "yaml"]);
    assert_eq!(output.status.code(), Some(2));
}

/// Under a policy, `explain A B` explains what `result-type A B` answers
/// (the library's `cells_join_at_the_table_answer` checks every pair of
/// every policy with a lattice), or refuses with the reason where the
/// policy promotes a Python scalar by a rule rather than at a node.
#[test]
fn explain_agrees_with_result_type_or_refuses_with_the_reason() {
    for policy in ["array-api", "torch"] {
        let explain = run(&["explain", "--policy", policy, "uint8", "int"]);
        assert_eq!(explain.status.code(), Some(2), "{policy}");
        assert!(
            stderr(&explain).contains("promotes Python's int by a rule"),
            "{policy}: {}",
            stderr(&explain)
        );
        let result = run(&["result-type", "--policy", policy, "uint8", "int"]);
        assert_eq!(stdout(&result).trim(), "uint8", "{policy}");
    }
    // JAX without x64 keeps no uint64: the pair is explained as uint32.
    let explain = run(&["explain", "--format", "json", "uint64", "int8"]);
    let json: Value = serde_json::from_str(&stdout(&explain)).unwrap();
    let result = run(&["result-type", "uint64", "int8"]);
    assert_eq!(json["join"], stdout(&result).trim());
    assert_eq!(json["inputs"][0]["input"], "uint32");
}
