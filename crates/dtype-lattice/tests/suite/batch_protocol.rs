//! The batch protocol's rough edges: a byte-order mark, blank lines, unknown
//! request keys, where a JSON error is, how much of a bad input an error
//! quotes, and the line limit for CRLF and LF lines alike.
//!
//! Promotion answers expected here come from `conformance/golden` (JAX's
//! own answers) or are the answer `answer_line` gives the same request
//! without the edge around it.

use std::io::Cursor;

use dtype_lattice::protocol::{answer_line, run, MAX_LINE_BYTES};
use dtype_lattice::registry::Settings;
use serde_json::{json, Value};

/// From `promote_types.jsonl`: JAX answers `int16`.
const INT8_UINT8: &str = r#"{"fn": "promote_types", "args": ["int8", "uint8"]}"#;
/// From `promote_types.jsonl`: JAX answers `float16`.
const INT16_FLOAT16: &str = r#"{"fn": "promote_types", "args": ["int16", "float16"]}"#;
/// From `names.jsonl`: NumPy reads `f4` as `float32`.
const F4: &str = r#"{"fn": "dtype", "args": ["f4"]}"#;

/// The answer lines `run` writes for `input`, as text.
fn run_lines(input: &[u8]) -> Vec<String> {
    let mut output = Vec::new();
    run(Cursor::new(input), &mut output, Settings::default()).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "{text:?}");
    text.lines().map(str::to_owned).collect()
}

/// The answers to `input`, parsed.
fn run_parsed(input: &[u8]) -> Vec<Value> {
    run_lines(input).iter().map(|line| parse(line)).collect()
}

fn parse(line: &str) -> Value {
    serde_json::from_str(line).unwrap()
}

fn answer(request: &str) -> Value {
    parse(&answer_line(request, Settings::default()))
}

/// The error an answer holds: its type and message.
fn error(answer: &Value) -> (String, String) {
    let error = &answer["error"];
    match (error["type"].as_str(), error["message"].as_str()) {
        (Some(kind), Some(message)) => (kind.to_owned(), message.to_owned()),
        _ => panic!("not an error answer: {answer}"),
    }
}

// 1. A byte-order mark.

#[test]
fn a_byte_order_mark_before_the_first_request_is_skipped() {
    for terminator in ["\n", "\r\n", ""] {
        let input = format!("\u{feff}{INT8_UINT8}{terminator}");
        let answers = run_lines(input.as_bytes());
        assert_eq!(answers.len(), 1, "{terminator:?}");
        assert_eq!(parse(&answers[0]), json!({"ok": "int16"}));
        assert_eq!(answers[0], answer_line(INT8_UINT8, Settings::default()));
    }
    // Before a blank first line: nothing to answer, and the next line is
    // answered as usual.
    let input = format!("\u{feff}\r\n{F4}\n");
    assert_eq!(
        run_lines(input.as_bytes()),
        [answer_line(F4, Settings::default())]
    );
}

#[test]
fn a_byte_order_mark_elsewhere_is_not_json() {
    let input = format!("{F4}\n\u{feff}{F4}\n");
    let answers = run_lines(input.as_bytes());
    assert_eq!(answers.len(), 2);
    assert_eq!(parse(&answers[0]), json!({"ok": "float32"}));
    let (kind, message) = error(&parse(&answers[1]));
    assert_eq!(kind, "ValueError");
    assert!(
        message.starts_with("request is not valid JSON: "),
        "{message}"
    );
    assert!(message.ends_with(" at column 1"), "{message}");
}

// 2. Blank lines.

#[test]
fn blank_lines_get_no_answer_and_the_order_is_kept() {
    let input = format!("\n{INT8_UINT8}\n\n   \n\r\n\r\r\n\t \r\n{F4}\r\n \n{INT16_FLOAT16}\n\n\t");
    let answers = run_parsed(input.as_bytes());
    assert_eq!(
        answers,
        [
            json!({"ok": "int16"}),
            json!({"ok": "float32"}),
            json!({"ok": "float16"})
        ]
    );
}

#[test]
fn only_blank_lines_get_no_answers() {
    for input in ["", "\n", "\r\n", " \t \n\n\r\n\r", "\u{feff}\n\n"] {
        assert!(run_lines(input.as_bytes()).is_empty(), "{input:?}");
    }
}

#[test]
fn a_line_with_other_whitespace_or_a_lone_bom_later_is_not_blank() {
    // A form feed is not JSON whitespace, and a byte-order mark after the
    // first line is content: each gets an error answer.
    let input = format!("{F4}\n\x0c\n\u{feff}\n{F4}\n");
    let answers = run_parsed(input.as_bytes());
    assert_eq!(answers.len(), 4);
    assert_eq!(error(&answers[1]).0, "ValueError");
    assert_eq!(error(&answers[2]).0, "ValueError");
    assert_eq!(answers[3], json!({"ok": "float32"}));
}

// 3. Unknown request keys.

/// The keys a request may have, as errors list them: JAX's settings with
/// the old `promotion` among them, then the other frameworks' settings in
/// the table's order.
fn known_keys() -> String {
    // Each setting's name, then its other batch names.
    let others: Vec<&str> = dtype_lattice::registry::SETTINGS[3..]
        .iter()
        .flat_map(|s| std::iter::once(s.name).chain(s.batch_aliases.iter().map(|(a, _)| *a)))
        .collect();
    let mut keys =
        "fn, args, policy, form, dtype, promote_integers, initial, x64, strict, promotion, explicit_x64_dtypes"
            .to_owned();
    for name in others {
        keys.push_str(", ");
        keys.push_str(name);
    }
    keys
}

#[test]
fn an_unknown_key_is_an_error_naming_the_nearest_known_key() {
    let (kind, message) = error(&answer(
        r#"{"fn": "promote_types", "args": ["int8", "int8"], "polcy": "numpy"}"#,
    ));
    assert_eq!(kind, "TypeError");
    assert_eq!(
        message,
        format!(
            "unknown request key 'polcy': did you mean 'policy'? (known: {})",
            known_keys()
        )
    );
    for (key, meant) in [
        ("fun", "fn"),
        ("arg", "args"),
        ("X64", "x64"),
        ("promtion", "promotion"),
    ] {
        let request = json!({"fn": "promote_types", "args": ["int8", "uint8"], key: true});
        let (kind, message) = error(&answer(&request.to_string()));
        assert_eq!(kind, "TypeError");
        assert!(
            message.starts_with(&format!(
                "unknown request key '{key}': did you mean '{meant}'? (known: "
            )),
            "{message}"
        );
    }
}

#[test]
fn initial_is_a_keyword_of_the_reductions_that_take_it() {
    let (kind, message) = error(&answer(
        r#"{"fn": "max", "args": ["int8"], "policy": "numpy", "initial": 300}"#,
    ));
    assert_eq!(kind, "OverflowError");
    assert_eq!(message, "Python integer 300 out of bounds for int8");
    let (kind, message) = error(&answer(
        r#"{"fn": "mean", "args": ["int8"], "policy": "numpy", "initial": 1}"#,
    ));
    assert_eq!(kind, "TypeError");
    assert!(message.starts_with("mean takes no initial="), "{message}");
    let (kind, message) = error(&answer(
        r#"{"fn": "add", "args": ["int8", "int8"], "policy": "numpy", "initial": 1}"#,
    ));
    assert_eq!(kind, "TypeError");
    assert!(message.starts_with("add takes no initial="), "{message}");
}

#[test]
fn an_unknown_key_far_from_any_known_key_suggests_nothing() {
    let (kind, message) = error(&answer(r#"{"fn": "dtype", "args": ["f4"], "id": 7}"#));
    assert_eq!(kind, "TypeError");
    assert_eq!(
        message,
        format!("unknown request key 'id' (known: {})", known_keys())
    );
}

#[test]
fn tnp_is_a_policy_and_the_retired_api_key_says_so() {
    let tnp = r#"{"fn": "floor_divide", "args": ["bool", "bool"], "policy": "tensorflow-numpy", "tensorflow_numpy_behavior": "safe"}"#;
    assert_eq!(answer(tnp), json!({"ok": {"dtype": "int8", "weak": false}}));
    // The preset's own value agrees with it; another contradicts it.
    let preset = r#"{"fn": "promote_types", "args": ["int8", "uint8"], "policy": "tensorflow-all", "tensorflow_numpy_behavior": "all"}"#;
    assert_eq!(answer(preset), json!({"ok": "int16"}));
    let (kind, message) = error(&answer(
        r#"{"fn": "promote_types", "args": ["int8", "uint8"], "policy": "tensorflow-all", "tensorflow_numpy_behavior": "safe"}"#,
    ));
    assert_eq!(kind, "ValueError");
    assert!(
        message.starts_with("tensorflow-all is tensorflow with tensorflow_numpy_behavior=all"),
        "{message}"
    );
    for key in ["api", "tensorflow_api"] {
        let request = format!(
            r#"{{"fn": "add", "args": ["bool", "bool"], "policy": "tensorflow-safe", "{key}": "tnp"}}"#
        );
        let (kind, message) = error(&answer(&request));
        assert_eq!(kind, "TypeError");
        assert!(
            message.starts_with(&format!("the request key '{key}' is retired: tf.experimental.numpy is the policy \"tensorflow-numpy\"")),
            "{message}"
        );
    }
    // With NumPy behaviour off, tensorflow-numpy refuses and names the fix.
    let (kind, message) = error(&answer(
        r#"{"fn": "add", "args": ["bool", "bool"], "policy": "tnp"}"#,
    ));
    assert_eq!(kind, "NotImplementedError");
    assert!(
        message.contains("tensorflow_numpy_behavior=safe"),
        "{message}"
    );
}

#[test]
fn known_keys_alone_are_answered() {
    let request = r#"{"fn": "promote_types", "args": ["int8", "uint8"], "x64": false, "promotion": "standard", "explicit_x64_dtypes": "warn", "policy": "jax"}"#;
    assert_eq!(answer(request), json!({"ok": "int16"}));
}

// 4. Where a JSON error is.

#[test]
fn a_json_error_names_its_column_once() {
    // `x` is the 8th character.
    let (kind, message) = error(&answer(r#"{"fn": x}"#));
    assert_eq!(kind, "ValueError");
    assert_eq!(
        message,
        "request is not valid JSON: expected value at column 8"
    );
    // The same line in a stream: still column 8, whatever line of the
    // stream it is on.
    let input = format!("{F4}\n\n{}\n", r#"{"fn": x}"#);
    let answers = run_lines(input.as_bytes());
    assert_eq!(answers.len(), 2);
    assert_eq!(error(&parse(&answers[1])).1, message);
}

#[test]
fn a_json_error_in_a_request_of_several_lines_names_line_and_column() {
    // `x` is the 7th character of the request's second line.
    let (_, message) = error(&answer("{\n\"fn\": x}"));
    assert_eq!(
        message,
        "request is not valid JSON: expected value at line 2 column 7"
    );
}

#[test]
fn json_error_messages_state_the_place_once() {
    for request in [
        "{",
        "not json",
        r#"{"fn": "dtype",}"#,
        "[1, 2",
        r#"{"a" 1}"#,
        "{} {}",
    ] {
        let (kind, message) = error(&answer(request));
        assert_eq!(kind, "ValueError");
        assert_eq!(message.matches("column").count(), 1, "{message}");
        assert!(!message.contains("line"), "{message}");
        let column: usize = message.rsplit(' ').next().unwrap().parse().unwrap();
        assert!((1..=request.len() + 1).contains(&column), "{message}");
    }
}

// 5. Bad input is quoted once, cut.

/// Checks that `message` quotes `input` at most once and cut: no more than
/// its first 64 characters, followed by "..." and its length; returns the
/// message.
fn assert_quoted_cut<'a>(message: &'a str, input: &str) -> &'a str {
    let start: String = input.chars().take(64).collect();
    let longer: String = input.chars().take(65).collect();
    let shown: String = message.chars().take(1_000).collect();
    assert!(message.len() < 1_000, "{} bytes: {shown}", message.len());
    assert_eq!(message.matches(&start).count(), 1, "{message}");
    assert!(!message.contains(&longer), "{message}");
    assert!(message.contains(&format!("{start}...")), "{message}");
    assert!(
        message.contains(&format!("{} characters", input.chars().count())),
        "{message}"
    );
    message
}

#[test]
fn a_long_fn_name_is_quoted_once_and_cut() {
    let name = "f".repeat(1_000_000);
    let request = json!({"fn": name, "args": []}).to_string();
    let (kind, message) = error(&answer(&request));
    assert_eq!(kind, "ValueError");
    let message = assert_quoted_cut(&message, &name);
    assert!(
        message.starts_with(&format!(
            "unknown fn \"{}...\" (1000000 characters): ",
            &name[..64]
        )),
        "{message}"
    );
}

#[test]
fn a_long_name_is_refused_before_it_is_parsed() {
    let long = "x".repeat(1_000_000);
    let requests = [
        json!({"fn": "promote_types", "args": ["int8", long]}),
        json!({"fn": "dtype", "args": [long]}),
        json!({"fn": "finfo", "args": [long]}),
        json!({"fn": "result_type", "args": ["int8", long]}),
        json!({"fn": "result_type", "args": [{"dtype": long, "weak": true}]}),
        json!({"fn": "safe_to_cast", "args": ["int8", long]}),
        json!({"fn": "isdtype", "args": ["int8", long]}),
        json!({"fn": "isdtype", "args": ["int8", ["integral", long]]}),
        json!({"fn": "issubdtype", "args": [long, "integer"]}),
        json!({"fn": "promote_types", "args": ["int8", "int8"], "policy": long}),
    ];
    for request in requests {
        let (kind, message) = error(&answer(&request.to_string()));
        assert_eq!(kind, "ValueError", "{message}");
        assert!(message.contains(" is not a name"), "{message}");
        assert_quoted_cut(&message, &long);
    }
}

#[test]
fn a_name_of_up_to_256_bytes_is_parsed() {
    // 256 bytes: parsed, and an unknown dtype, quoted once.
    let name = "x".repeat(256);
    let (kind, message) = error(&answer(&json!({"fn": "dtype", "args": [name]}).to_string()));
    assert_eq!(kind, "TypeError");
    assert!(message.starts_with("unknown dtype '"), "{message}");
    assert_eq!(message.matches(&name).count(), 1, "{message}");
    // 257 bytes: refused as too long to be a name.
    let name = "x".repeat(257);
    let (kind, message) = error(&answer(&json!({"fn": "dtype", "args": [name]}).to_string()));
    assert_eq!(kind, "ValueError");
    assert_quoted_cut(&message, &name);
}

#[test]
fn a_short_bad_name_is_quoted_once() {
    for request in [
        json!({"fn": "promote_types", "args": ["int8", "unit8"]}),
        json!({"fn": "result_type", "args": ["int8", "unit8"]}),
        json!({"fn": "dtype", "args": ["unit8"]}),
    ] {
        let (kind, message) = error(&answer(&request.to_string()));
        assert_eq!(kind, "TypeError", "{message}");
        assert_eq!(message.matches("unit8").count(), 1, "{message}");
        assert!(message.contains("did you mean 'uint8'?"), "{message}");
    }
}

#[test]
fn long_json_values_are_shown_once_and_cut() {
    let long = "p".repeat(1_000_000);
    let list: Vec<u32> = vec![1; 300_000];
    let cases = [
        (
            json!({"fn": "dtype", "args": ["f4"], "promotion": long}),
            format!("\"{long}\""),
        ),
        (
            json!({"fn": "dtype", "args": ["f4"], "policy": list}),
            json!(list).to_string(),
        ),
        (
            json!({"fn": "result_type", "args": [list]}),
            json!(list).to_string(),
        ),
        (
            json!({"fn": "dtype", "args": [list]}),
            json!(list).to_string(),
        ),
        (
            json!({"fn": "promote_types", "args": ["int8", "int8"], long.clone(): 1}),
            long.clone(),
        ),
    ];
    for (request, shown) in cases {
        let (kind, message) = error(&answer(&request.to_string()));
        assert!(
            ["ValueError", "TypeError"].contains(&kind.as_str()),
            "{message}"
        );
        assert_quoted_cut(&message, &shown);
    }
}

#[test]
fn a_long_number_that_python_cannot_read_is_quoted_once_and_cut() {
    let digits = "9".repeat(100_000);
    let request = format!(r#"{{"fn": "result_type", "args": ["int8", {digits}]}}"#);
    let (kind, message) = error(&answer(&request));
    assert_eq!(kind, "ValueError");
    assert_quoted_cut(&message, &digits);
    // A short one keeps the library's message, which quotes it once.
    let digits = "9".repeat(40);
    let request = format!(r#"{{"fn": "result_type", "args": [{digits}]}}"#);
    let (kind, message) = error(&answer(&request));
    assert_eq!(kind, "ValueError");
    assert_eq!(message.matches(&digits).count(), 1, "{message}");
}

#[test]
fn a_long_request_stream_stays_in_order() {
    // Long bad requests between good ones: each answered, in order.
    let long = json!({"fn": "z".repeat(500_000), "args": []}).to_string();
    let input = format!("{INT8_UINT8}\n{long}\n{F4}\n");
    let answers = run_parsed(input.as_bytes());
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[0], json!({"ok": "int16"}));
    assert_eq!(error(&answers[1]).0, "ValueError");
    assert_eq!(answers[2], json!({"ok": "float32"}));
}

// 6. The line limit, for CRLF and LF lines alike.

/// `F4` padded with spaces to `length` bytes.
fn padded(length: usize) -> String {
    let mut line = F4.to_owned();
    line.push_str(&" ".repeat(length - F4.len()));
    line
}

fn is_over_long(answer: &Value) -> bool {
    let (kind, message) = error(answer);
    kind == "ValueError"
        && message.starts_with("request line is longer than ")
        && message.contains(&MAX_LINE_BYTES.to_string())
}

#[test]
fn a_line_of_exactly_the_limit_is_answered_with_either_terminator() {
    for terminator in ["\n", "\r\n"] {
        let line = padded(MAX_LINE_BYTES);
        assert_eq!(line.len(), MAX_LINE_BYTES);
        let input = format!("{line}{terminator}{INT8_UINT8}{terminator}");
        let answers = run_parsed(input.as_bytes());
        assert_eq!(
            answers,
            [json!({"ok": "float32"}), json!({"ok": "int16"})],
            "{terminator:?}"
        );
    }
}

#[test]
fn a_line_one_byte_over_the_limit_is_refused_with_either_terminator() {
    for terminator in ["\n", "\r\n"] {
        let line = padded(MAX_LINE_BYTES + 1);
        let input = format!("{line}{terminator}{INT8_UINT8}{terminator}");
        let answers = run_parsed(input.as_bytes());
        assert_eq!(answers.len(), 2, "{terminator:?}");
        assert!(is_over_long(&answers[0]), "{terminator:?}: {}", answers[0]);
        assert_eq!(answers[1], json!({"ok": "int16"}), "{terminator:?}");
    }
}

#[test]
fn the_limit_holds_for_a_last_line_without_terminator_and_after_a_bom() {
    let line = padded(MAX_LINE_BYTES);
    let answers = run_lines(line.as_bytes());
    assert_eq!(answers.len(), 1);
    assert_eq!(parse(&answers[0]), json!({"ok": "float32"}));

    let line = padded(MAX_LINE_BYTES + 1);
    let answers = run_lines(line.as_bytes());
    assert_eq!(answers.len(), 1);
    assert!(is_over_long(&parse(&answers[0])), "{}", answers[0]);

    // The byte-order mark is not content.
    for terminator in ["\n", "\r\n"] {
        let input = format!("\u{feff}{}{terminator}", padded(MAX_LINE_BYTES));
        let answers = run_lines(input.as_bytes());
        assert_eq!(answers.len(), 1);
        assert_eq!(
            parse(&answers[0]),
            json!({"ok": "float32"}),
            "{terminator:?}"
        );
    }
}

#[test]
fn lines_far_over_the_limit_are_refused_with_either_terminator() {
    for terminator in ["\n", "\r\n"] {
        for extra in [2, 3, 4, 5, 1_000_000] {
            let line = padded(MAX_LINE_BYTES + extra);
            let input = format!("{line}{terminator}{F4}{terminator}");
            let answers = run_parsed(input.as_bytes());
            assert_eq!(answers.len(), 2, "{terminator:?} +{extra}");
            assert!(is_over_long(&answers[0]), "{terminator:?} +{extra}");
            assert_eq!(
                answers[1],
                json!({"ok": "float32"}),
                "{terminator:?} +{extra}"
            );
        }
    }
}

/// The form of an operation is one field, checked before any policy is
/// asked: an unknown form, a form Python lacks for the operation, and an
/// assignment (no "fn") each answer with the fix, and a form the policy
/// does not model says so.
#[test]
fn the_form_field_asks_an_operation_as_written() {
    let ask = |request: &str| -> Value {
        serde_json::from_str(&answer_line(request, Settings::default())).unwrap()
    };
    let message = |answer: &Value| answer["error"]["message"].as_str().unwrap().to_owned();
    let unknown = ask(r#"{"fn": "add", "form": "operater", "args": ["int8", "int8"]}"#);
    assert!(
        message(&unknown).contains("did you mean 'operator'?"),
        "{unknown}"
    );
    let no_operator = ask(r#"{"fn": "maximum", "form": "operator", "args": ["int8", "int8"]}"#);
    assert_eq!(
        message(&no_operator),
        "maximum has no Python operator: ask for its function (form 'function')"
    );
    let not_an_op = ask(r#"{"fn": "result_type", "form": "operator", "args": ["int8"]}"#);
    assert!(
        message(&not_an_op).contains("not of fn \"result_type\""),
        "{not_an_op}"
    );
    let setitem_with_op = ask(r#"{"fn": "add", "form": "setitem", "args": ["int8", 2]}"#);
    assert!(message(&setitem_with_op).starts_with("setitem is the assignment"));
    // The function form is what "fn" alone has always answered.
    let plain = ask(r#"{"fn": "true_divide", "args": ["int32", "int32"]}"#);
    let function = ask(r#"{"fn": "true_divide", "form": "function", "args": ["int32", "int32"]}"#);
    assert_eq!(plain, function);
    assert_eq!(plain["ok"]["dtype"], "float32");
    // A policy that has always answered the operator (PaddlePaddle's
    // `x + y`) answers it for "operator" too.
    let paddle = r#""policy": "paddle", "args": ["float16", "float32"]"#;
    let default = ask(&format!(r#"{{"fn": "add", {paddle}}}"#));
    let operator = ask(&format!(r#"{{"fn": "add", "form": "operator", {paddle}}}"#));
    assert_eq!(default, operator);
    assert_eq!(default["ok"]["dtype"], "float32");
    // A form a policy lacks by design names the policy that answers it:
    // Keras's `x[...] = v` is on the backend's tensors.
    let keras = ask(r#"{"form": "setitem", "policy": "keras", "args": ["int8", 2]}"#);
    assert_eq!(keras["error"]["type"], "ValueError");
    assert!(
        message(&keras).ends_with("ask policy 'tensorflow' for it"),
        "{keras}"
    );
}
