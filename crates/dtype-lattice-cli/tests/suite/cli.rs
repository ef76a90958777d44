//! The `dtype-lattice` binary as a user runs it: outputs, exit codes and
//! messages. Expected answers come from JAX: its documentation's table and
//! the golden data generated from JAX 0.10.2.

use std::path::Path;

use crate::support::{run, run_with_input, stderr, stdout};
use serde_json::Value;

/// The answer JAX gave to a request, from the golden data.
fn jax_answer(file: &str, request: &Value) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/golden")
        .join(file);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|case| {
            ["fn", "args", "x64", "promotion"]
                .iter()
                .all(|k| case[k] == request[k])
        })
        .unwrap_or_else(|| panic!("no golden case for {request}"))["answer"]
        .clone()
}

#[test]
fn table_x64_is_the_documentation_table() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/docs/type_promotion_table_x64.csv");
    let output = run(&["table", "--x64", "--format", "csv"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output), std::fs::read_to_string(docs).unwrap());
}

#[test]
fn table_formats_agree_on_the_cells() {
    let json: Value =
        serde_json::from_str(&stdout(&run(&["table", "--all", "--format", "json"]))).unwrap();
    // Every dtype (complex32 too, which JAX refuses) and i*, f*, c*.
    assert_eq!(json["labels"].as_array().unwrap().len(), 36);
    let text = stdout(&run(&["table", "--all"]));
    // The table, then its caption (and, with short labels, the legend)
    // after a blank line.
    assert_eq!(text.lines().take_while(|l| !l.is_empty()).count(), 37);
    assert!(text.contains("jax (x64 off, standard): the result type of each pair"));
    // int4 with int8 fails in JAX (see the golden data): `-` and null.
    let request = serde_json::json!({
        "fn": "lattice_result_type", "args": ["int4", "int8"], "x64": false, "promotion": "standard"
    });
    assert!(jax_answer("lattice_result_type.jsonl", &request)
        .get("error")
        .is_some());
    let labels: Vec<&str> = json["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let (int4, int8) = (
        labels.iter().position(|&l| l == "int4").unwrap(),
        labels.iter().position(|&l| l == "int8").unwrap(),
    );
    assert_eq!(json["rows"][int4][int8], Value::Null);
    let markdown = stdout(&run(&["table", "--format", "markdown"]));
    assert_eq!(markdown.lines().take_while(|l| !l.is_empty()).count(), 20);
    let html = stdout(&run(&["table", "--format", "html"]));
    assert_eq!(html.matches("<tr>").count(), 19);
    // The legend says what each short label stands for, once each.
    assert_eq!(json["legend"].as_array().unwrap().len(), 0); // --all: names
    let short: Value = serde_json::from_str(&stdout(&run(&["table", "--format", "json"]))).unwrap();
    let legend = short["legend"].as_array().unwrap();
    assert_eq!(legend.len(), 15); // the docs' 15 dtypes
    assert!(legend.contains(&serde_json::json!({"label": "bf", "dtype": "bfloat16"})));
    assert!(markdown.contains("Labels: b1 bool, u1 uint8,"));
    assert!(html.contains("<caption>jax (x64 off, standard): "));
}

#[test]
fn promote_prints_jax_answer_or_its_error() {
    for (a, b, x64) in [
        ("int8", "uint8", false),
        ("bfloat16", "float16", false),
        ("uint32", "int32", false),
        ("uint32", "int32", true),
        ("int", "float", false),
        ("float8_e4m3fn", "float32", false),
        ("int4", "int8", true),
    ] {
        let request = serde_json::json!({
            "fn": "promote_types", "args": [a, b], "x64": x64, "promotion": "standard"
        });
        let expected = jax_answer("promote_types.jsonl", &request);
        let mut args = vec!["promote", a, b];
        if x64 {
            args.push("--x64");
        }
        let output = run(&args);
        match expected.get("ok") {
            Some(dtype) => {
                assert_eq!(output.status.code(), Some(0));
                assert_eq!(stdout(&output).trim(), dtype.as_str().unwrap());
            }
            None => {
                assert_eq!(output.status.code(), Some(1), "{a} {b}");
                let message = expected["error"]["message"].as_str().unwrap();
                assert_eq!(
                    stderr(&output).trim(),
                    format!("TypePromotionError: {message}")
                );
            }
        }
    }
}

#[test]
fn result_type_reads_every_operand_form() {
    // x_int16 + 2 under JAX's defaults.
    let request = serde_json::json!({
        "fn": "result_type", "args": [{"dtype": "int16", "weak": false}, 2], "x64": false,
        "promotion": "standard"
    });
    let expected = jax_answer("result_type.jsonl", &request);
    let output = run(&["result-type", "array:int16", "2"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output).trim(),
        expected["ok"]["dtype"].as_str().unwrap()
    );

    let request = serde_json::json!({
        "fn": "result_type", "args": [{"dtype": "int16", "weak": true}], "x64": false,
        "promotion": "standard"
    });
    let expected = jax_answer("result_type.jsonl", &request);
    assert_eq!(expected["ok"]["weak"], true);
    let output = run(&["result-type", "weak:int16"]);
    assert_eq!(
        stdout(&output).trim(),
        format!("{} (weak)", expected["ok"]["dtype"].as_str().unwrap())
    );
}

#[test]
fn exit_codes() {
    assert_eq!(run(&["promote", "int8", "flaot32"]).status.code(), Some(2));
    let output = run(&["promote", "int8", "flaot32"]);
    assert!(stderr(&output).contains("'flaot32'"));
    assert!(stderr(&output).contains("did you mean 'float32'"));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(run(&["table", "--format", "yaml"]).status.code(), Some(2));
    assert_eq!(
        run(&["result-type", "--strict", "float32", "int32"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(run(&["result-type", "weak:nope"]).status.code(), Some(2));
}

#[test]
fn batch_answers_each_line_in_order_and_survives_bad_lines() {
    let requests = [
        r#"{"fn": "promote_types", "args": ["int8", "uint8"]}"#,
        "this is not json",
        r#"{"fn": "no_such_fn", "args": []}"#,
        r#"{"fn": "result_type", "args": [{"dtype": "int16", "weak": false}, 2], "x64": true}"#,
        r#"{"fn": "result_type", "args": []}"#,
    ];
    let strict = run_with_input(&["batch", "--strict"], &(requests[0].to_owned() + "\n"));
    assert_eq!(
        serde_json::from_str::<Value>(&stdout(&strict)).unwrap()["error"]["type"],
        "TypePromotionError"
    );
    let output = run_with_input(&["batch"], &(requests.join("\n") + "\n"));
    assert!(output.status.success());
    let answers: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), requests.len());
    let golden = |file, line: &str| {
        let mut request: Value = serde_json::from_str(line).unwrap();
        request["x64"] = request.get("x64").cloned().unwrap_or(Value::Bool(false));
        request["promotion"] = Value::from("standard");
        jax_answer(file, &request)
    };
    assert_eq!(answers[0], golden("promote_types.jsonl", requests[0]));
    assert_eq!(answers[1]["error"]["type"], "ValueError");
    assert_eq!(answers[2]["error"]["type"], "ValueError");
    assert_eq!(answers[3], golden("result_type.jsonl", requests[3]));
    assert_eq!(answers[4], golden("result_type.jsonl", requests[4]));
}

#[test]
fn result_type_flags_may_follow_the_operands() {
    // Flags after the operands are flags, not operands; negative numbers
    // stay operands.
    let before = run(&["result-type", "--policy", "numpy", "int8", "-300"]);
    let after = run(&["result-type", "int8", "-300", "--policy", "numpy"]);
    assert_eq!(after.status.code(), before.status.code());
    assert_eq!(stdout(&after), stdout(&before));
    assert_eq!(stderr(&after), stderr(&before));
    assert_eq!(after.status.code(), Some(0));
}

#[test]
fn the_table_caption_says_what_64_bit_types_become_without_x64() {
    // JAX canonicalizes uint64 to uint32 with x64 off, and keeps it with x64
    // on (conformance/golden/canonicalize_dtype.jsonl).
    for (x64, kept) in [(false, "uint32"), (true, "uint64")] {
        let request = serde_json::json!({
            "fn": "canonicalize_dtype", "args": ["uint64"], "x64": x64, "promotion": "standard"
        });
        assert_eq!(jax_answer("canonicalize_dtype.jsonl", &request)["ok"], kept);
    }
    assert!(stdout(&run(&["table"])).contains("u8 gives uint32"));
    assert!(!stdout(&run(&["table", "--x64"])).contains(" gives "));
}
