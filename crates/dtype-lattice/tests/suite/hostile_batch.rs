//! Hostile input to `batch`: every non-blank line gets exactly one answer,
//! in order, whatever it holds, and memory stays bounded by the line limit.

use std::io::Cursor;

use dtype_lattice::protocol::{self, MAX_LINE_BYTES};
use dtype_lattice::registry::Settings;
use proptest::prelude::*;
use serde_json::Value;

/// Runs `input` through batch mode and returns the parsed answer lines.
fn answers(input: &[u8]) -> Vec<Value> {
    let mut output = Vec::new();
    protocol::run(Cursor::new(input), &mut output, Settings::default()).unwrap();
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn is_answer(value: &Value) -> bool {
    let object = value.as_object().unwrap();
    object.len() == 1
        && (object.contains_key("ok")
            || (value["error"]["type"].is_string() && value["error"]["message"].is_string()))
}

/// Whether a line (without its "\n") is blank by the protocol's rule: after
/// a terminating "\r", and on the first line a byte-order mark, nothing but
/// spaces, tabs and carriage returns.
fn is_blank(line: &[u8], first: bool) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = match line.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) if first => rest,
        _ => line,
    };
    line.iter().all(|b| b" \t\r".contains(b))
}

fn error_type(value: &Value) -> &str {
    value["error"]["type"].as_str().unwrap_or("(ok)")
}

proptest! {
    #[test]
    fn arbitrary_bytes_get_one_answer_per_non_blank_line(lines in proptest::collection::vec(
        prop_oneof![
            3 => proptest::collection::vec(
                any::<u8>().prop_filter("no newline", |&b| b != b'\n'), 0..200),
            1 => proptest::collection::vec(proptest::sample::select(b" \t\r".to_vec()), 0..4),
        ], 1..20)
    ) {
        let input: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
        let answers = answers(&input);
        let non_blank = lines.iter().enumerate().filter(|(i, l)| !is_blank(l, *i == 0)).count();
        prop_assert_eq!(answers.len(), non_blank);
        prop_assert!(answers.iter().all(is_answer));
    }

    #[test]
    fn arbitrary_json_requests_get_an_answer(
        function in prop_oneof![
            Just("promote_types"), Just("result_type"), Just("lattice_result_type"), Just("asarray"),
            Just("safe_to_cast"), Just("isdtype"), Just("issubdtype"), Just("finfo"), Just("iinfo"),
            Just("itemsize_bits"), Just("canonicalize_dtype"), Just("dtype"), Just("nope")
        ],
        args in proptest::collection::vec(prop_oneof![
            any::<String>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            any::<bool>().prop_map(Value::from),
            Just(Value::Null),
            Just(serde_json::json!({"dtype": "int8", "weak": "yes"})),
            Just(serde_json::json!([["int8"]])),
        ], 0..4),
        x64 in prop_oneof![Just(Value::Bool(true)), Just(Value::from("yes")), Just(Value::Null)],
        policy in prop_oneof![Just(Value::Null), Just(Value::from("jax")), Just(Value::from("np")), Just(Value::from(3))],
    ) {
        let request = serde_json::json!({"fn": function, "args": args, "x64": x64, "policy": policy});
        let answers = answers(format!("{request}\n").as_bytes());
        prop_assert_eq!(answers.len(), 1);
        prop_assert!(is_answer(&answers[0]));
    }
}

#[test]
fn malformed_requests_each_get_their_own_error() {
    let lines = [
        "not json",
        "[1, 2]",
        r#"{"args": ["int8"]}"#,
        r#"{"fn": 3}"#,
        r#"{"fn": "promote_types", "args": "int8"}"#,
        r#"{"fn": "promote_types", "args": []}"#,
        r#"{"fn": "promote_types", "args": ["int8", "uint8"], "x64": "yes"}"#,
        r#"{"fn": "promote_types", "args": ["int8", "uint8"], "promotion": "lenient"}"#,
        r#"{"fn": "promote_types", "args": ["int8", "uint8"], "policy": "nonesuch"}"#,
        r#"{"fn": "frobnicate", "args": []}"#,
        r#"{"fn": "result_type", "args": [{"dtype": "int8", "weak": 1}]}"#,
        r#"{"fn": "result_type", "args": [{"weak": true}]}"#,
        r#"{"fn": "result_type", "args": [[1]]}"#,
        r#"{"fn": "result_type", "args": [1e999]}"#,
        r#"{"fn": "result_type", "args": [123456789012345678901234567890123456789012345678901234567890]}"#,
        r#"{"fn": "promote_types", "args": ["int8", "uint8"], "polcy": "numpy"}"#,
        "{",
        r#"{"fn": "promote_types", "args": ["int8", "uint8"]} x"#,
        r#"{"fn": "promote_types", "args": ["int8", "uint8"]}"#,
    ];
    // Blank lines between them get no answer; every other line gets its own.
    let input: String = lines
        .iter()
        .map(|line| format!("{line}\n\n \t\r\n"))
        .collect();
    let answers = answers(input.as_bytes());
    assert_eq!(answers.len(), lines.len());
    let (last, errors) = answers.split_last().unwrap();
    for (line, answer) in lines.iter().zip(errors) {
        assert!(
            ["ValueError", "TypeError"].contains(&error_type(answer)),
            "{line}: {answer}"
        );
    }
    assert_eq!(last["ok"], "int16");
}

#[test]
fn a_line_over_the_limit_is_answered_and_skipped() {
    let mut input = vec![b'['; 10 * 1024 * 1024];
    input.extend_from_slice(b"\n{\"fn\": \"dtype\", \"args\": [\"f4\"]}\n");
    let answers = answers(&input);
    assert_eq!(answers.len(), 2);
    let message = answers[0]["error"]["message"].as_str().unwrap();
    assert!(message.contains(&MAX_LINE_BYTES.to_string()), "{message}");
    assert_eq!(answers[1]["ok"], "float32");
}

#[test]
fn deep_nesting_and_non_utf8_are_errors_not_crashes() {
    let deep = format!("{}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    let mut input = deep.into_bytes();
    input.extend_from_slice(b"\xff\xfe\xfd\n{\"fn\":\"dtype\",\"args\":[\"?\"]}");
    let answers = answers(&input);
    assert_eq!(answers.len(), 3);
    assert_eq!(error_type(&answers[0]), "ValueError");
    assert_eq!(error_type(&answers[1]), "ValueError");
    assert_eq!(answers[2]["ok"], "bool");
}

#[test]
fn a_hundred_thousand_lines_stream_in_order() {
    let dtypes = ["int8", "uint8", "float16", "bfloat16"];
    let input: String = (0..100_000)
        .map(|i| format!("{{\"fn\":\"dtype\",\"args\":[\"{}\"]}}\n", dtypes[i % 4]))
        .collect();
    let answers = answers(input.as_bytes());
    assert_eq!(answers.len(), 100_000);
    for (i, answer) in answers.iter().enumerate() {
        assert_eq!(answer["ok"], dtypes[i % 4]);
    }
}
