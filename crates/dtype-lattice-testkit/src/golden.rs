//! The golden data generated from the real libraries
//! (`conformance/golden/*.jsonl`) and the one comparison every test of it
//! uses: the library's golden tests through the batch protocol, and the
//! CLI's through the explorer's `POST /api/batch`.
//!
//! Comparison is exact, with these stated allowances:
//! - numbers compare by value (Python and Rust print floats differently);
//! - a file whose header does not say `"records_warnings": true` was
//!   written with warnings ignored, so an answer's `"warnings"` are not
//!   compared there (`jax_explicit_x64.jsonl` records them, and there they
//!   are compared exactly);
//! - for n-ary calls JAX names the inputs of a `TypePromotionError` in
//!   Python set order, which is unspecified, so the tuple compares as a set;
//! - for `dtype` (name parsing) an input NumPy rejects, or accepts as a
//!   dtype outside our 32, must be rejected, whatever the message;
//! - where a library answered a dtype outside our 32 (recorded as error
//!   type `NotOurs` with the library's name for it, e.g. PyTorch's
//!   `complex32`), ours must be an error that names that dtype;
//! - a `jax.lax` dtype-rule message lists its accepted kinds in any order.
//!
//! A documented deviation (docs/policies.md and docs/supported.md,
//! "deliberate differences") is told apart rather than skipped: the
//! generators record it on the case it concerns (`conformance/golden_io.py`,
//! `with_deviations`), with the answer we give instead, and only that answer
//! is accepted there. An error recorded without a message stands for any
//! message of its type.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/golden")
}

pub struct Case {
    pub line: usize,
    pub request: Value,
    pub expected: Value,
    /// Whether the file recorded the library's warnings.
    pub records_warnings: bool,
    /// The recorded deviation's `{"name", "ours", "why"}`, where we
    /// answer otherwise than the library on purpose.
    pub deviation: Option<Value>,
}

/// The library versions each generator's golden data comes from: its
/// pinned requirements (`conformance/requirements*.txt`). TensorFlow and
/// PyTorch pin their own NumPy, which need not be the newest.
const PINNED: &[(&str, &[(&str, &str)])] = &[
    ("conformance/generate_jax.py", JAX),
    ("conformance/generate_jax_nary.py", JAX),
    ("conformance/generate_jax_lax.py", JAX),
    ("conformance/generate_jax_explicit_x64.py", JAX),
    ("conformance/generate_ops_jax.py", JAX),
    ("conformance/generate_forms_jax.py", JAX),
    ("conformance/generate_array_ops_jax.py", JAX),
    (
        "conformance/generate_numpy.py",
        &[
            ("numpy", "2.5.5"),
            ("ml_dtypes", "0.6.0"),
            ("array_api_strict", "2.6.1"),
        ],
    ),
    ("conformance/generate_numpy1.py", &[("numpy", "1.26.4")]),
    (
        "conformance/generate_ops_numpy.py",
        &[
            ("numpy", "2.5.5"),
            ("ml_dtypes", "0.6.0"),
            ("array_api_strict", "2.6.1"),
        ],
    ),
    (
        "conformance/generate_forms_numpy.py",
        &[
            ("numpy", "2.5.5"),
            ("ml_dtypes", "0.6.0"),
            ("array_api_strict", "2.6.1"),
        ],
    ),
    (
        "conformance/generate_array_ops_numpy.py",
        &[
            ("numpy", "2.5.5"),
            ("ml_dtypes", "0.6.0"),
            ("array_api_strict", "2.6.1"),
        ],
    ),
    (
        "conformance/generate_ops_numpy_ml_dtypes.py",
        &[("numpy", "2.5.5"), ("ml_dtypes", "0.6.0")],
    ),
    (
        "conformance/generate_torch.py",
        &[("torch", "2.15.0+cu132")],
    ),
    (
        "conformance/generate_ops_torch.py",
        &[("torch", "2.15.0+cu132")],
    ),
    (
        "conformance/generate_forms_torch.py",
        &[("torch", "2.15.0+cu132")],
    ),
    (
        "conformance/generate_array_ops_torch.py",
        &[("torch", "2.15.0+cu132")],
    ),
    (
        "conformance/generate_tensorflow.py",
        &[
            ("tensorflow", "2.21.0"),
            ("numpy", "2.4.6"),
            ("ml_dtypes", "0.6.0"),
        ],
    ),
    (
        "conformance/generate_ops_tensorflow.py",
        &[
            ("tensorflow", "2.21.0"),
            ("numpy", "2.4.6"),
            ("ml_dtypes", "0.6.0"),
        ],
    ),
    (
        "conformance/generate_forms_tensorflow.py",
        &[
            ("tensorflow", "2.21.0"),
            ("numpy", "2.4.6"),
            ("ml_dtypes", "0.6.0"),
        ],
    ),
    (
        "conformance/generate_array_ops_tensorflow.py",
        &[
            ("tensorflow", "2.21.0"),
            ("numpy", "2.4.6"),
            ("ml_dtypes", "0.6.0"),
        ],
    ),
    (
        "conformance/generate_array_ops_tensorflow_numpy.py",
        &[
            ("tensorflow", "2.21.0"),
            ("numpy", "2.4.6"),
            ("ml_dtypes", "0.6.0"),
        ],
    ),
    ("conformance/generate_mlx.py", &[("mlx", "0.32.4")]),
    ("conformance/generate_ops_mlx.py", &[("mlx", "0.32.4")]),
    (
        "conformance/generate_array_ops_mlx.py",
        &[("mlx", "0.32.4")],
    ),
    ("conformance/generate_forms_mlx.py", &[("mlx", "0.32.4")]),
    (
        "conformance/generate_paddle.py",
        &[("paddlepaddle", "3.3.1")],
    ),
    (
        "conformance/generate_ops_paddle.py",
        &[("paddlepaddle", "3.3.1")],
    ),
    (
        "conformance/generate_forms_paddle.py",
        &[("paddlepaddle", "3.3.1")],
    ),
    (
        "conformance/generate_array_ops_paddle.py",
        &[("paddlepaddle", "3.3.1")],
    ),
    ("conformance/generate_keras.py", KERAS),
    ("conformance/generate_ops_keras.py", KERAS),
    ("conformance/generate_array_ops_keras.py", KERAS),
    (
        "conformance/generate_tinygrad.py",
        &[("tinygrad", "0.14.0")],
    ),
    (
        "conformance/generate_array_ops_tinygrad.py",
        &[("tinygrad", "0.14.0")],
    ),
    (
        "conformance/generate_ops_tinygrad.py",
        &[("tinygrad", "0.14.0")],
    ),
    (
        "conformance/generate_forms_tinygrad.py",
        &[("tinygrad", "0.14.0")],
    ),
];

/// JAX's generators: `requirements-jax12.txt` (Python 3.12).
const JAX: &[(&str, &str)] = &[
    ("jax", "0.12.0.1"),
    ("jaxlib", "0.12.0.1"),
    ("numpy", "2.5.5"),
    ("ml_dtypes", "0.6.0"),
];

/// Keras's generators: `requirements-keras.txt` (Python 3.12).
const KERAS: &[(&str, &str)] = &[
    ("keras", "3.15.1"),
    ("jax", "0.12.0.1"),
    ("jaxlib", "0.12.0.1"),
    ("tensorflow-cpu", "2.21.0"),
    ("numpy", "2.5.5"),
    ("ml_dtypes", "0.6.0"),
];

/// Reads a golden file; checks its header records the pinned versions
/// (those of `"calls_from"` too, the generator an op table's call lines
/// were recorded by).
pub fn load(name: &str) -> Vec<Case> {
    let path = golden_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().expect("header line")).unwrap();
    check_pins(name, &header["header"]);
    if let Some(calls_from) = header["header"].get("calls_from") {
        check_pins(name, calls_from);
    }
    let records_warnings = header["header"]["records_warnings"] == true;
    if header["header"]["format"] == "op-table" {
        return op_table(name, &header["header"], lines);
    }
    lines
        .enumerate()
        .map(|(i, line)| call_line(name, i + 2, line, records_warnings))
        .collect()
}

/// Checks that a header records the versions its generator pins.
fn check_pins(name: &str, header: &Value) {
    let versions = header["versions"].as_object().expect("versions");
    assert!(!versions.is_empty(), "{name}: no library versions recorded");
    let generator = header["generator"].as_str().unwrap_or_default();
    let Some((_, pins)) = PINNED.iter().find(|(g, _)| *g == generator) else {
        panic!("{name}: written by {generator:?}, which has no pinned versions here");
    };
    for (library, version) in versions {
        let pinned = pins.iter().find(|(l, _)| l == library).map(|(_, v)| *v);
        assert_eq!(
            version.as_str(),
            pinned,
            "{name}: {library} is not the pinned version"
        );
    }
}

/// One call line: the request, without its answer and deviation.
fn call_line(name: &str, line: usize, text: &str, records_warnings: bool) -> Case {
    let mut request: Value = serde_json::from_str(text).unwrap();
    let object = request.as_object_mut().expect("a call line is an object");
    let expected = object
        .remove("answer")
        .unwrap_or_else(|| panic!("{name}:{line}: no answer"));
    let deviation = object.remove("deviation");
    in_todays_vocabulary(&mut request);
    Case {
        line,
        request,
        expected,
        records_warnings,
        deviation,
    }
}

/// A recorded request's policy and settings in the names the library takes
/// today. The golden files are never rewritten, and the TensorFlow ones
/// predate the policy `tensorflow-numpy`: they spell a call of
/// `tf.experimental.numpy` as `"api": "tnp"` beside the preset of its NumPy
/// behaviour (`tensorflow-safe`, `tensorflow-all`), which is
/// `tensorflow-numpy` with `tensorflow_numpy_behavior` `safe` or `all`.
pub fn in_todays_vocabulary(request: &mut Value) {
    let Some(object) = request.as_object_mut() else {
        return;
    };
    if let Some(api) = object.remove("api") {
        assert_eq!(api, "tnp", "the only recorded api besides tf's own");
        // The preset's settings, as the library's table has them.
        let policy = object
            .get("policy")
            .and_then(Value::as_str)
            .unwrap_or("jax");
        let preset = dtype_lattice::registry::resolve(policy)
            .ok()
            .and_then(|named| named.preset())
            .unwrap_or_else(|| panic!("tnp was recorded under a preset only, not {policy:?}"));
        object.insert("policy".into(), "tensorflow-numpy".into());
        for (setting, value) in preset.settings {
            object.insert((*setting).into(), (*value).into());
        }
    }
}

/// The calls of an op-table file (`conformance/golden_ops.py`), as the
/// call lines of the other files: each row's answers lined up with the
/// header's operands (those of the row's settings where the header's
/// `operands_at` lists them), errors numbered in lines of their own, and
/// the call lines the file carries after its rows. A row's other keys go
/// into each request as they are: its settings, and the keywords of the
/// operations on whole arrays (`"dtype"`, `"promote_integers"`,
/// `"initial"`, which the batch protocol reads).
fn op_table<'a>(name: &str, header: &Value, lines: impl Iterator<Item = &'a str>) -> Vec<Case> {
    let mut errors: Vec<Value> = Vec::new();
    let mut cases = Vec::new();
    for (i, line) in lines.enumerate() {
        let mut row: Value = serde_json::from_str(line).unwrap();
        let row = row.as_object_mut().unwrap();
        if row.contains_key("answer") {
            // The call lines were recorded by the generator of `calls_from`.
            let records_warnings = header["calls_from"]["records_warnings"] == true;
            cases.push(call_line(name, i + 2, line, records_warnings));
            continue;
        }
        if let Some(number) = row.get("error") {
            assert_eq!(
                number.as_u64(),
                Some(errors.len() as u64),
                "{name}:{}",
                i + 2
            );
            errors.push(serde_json::json!({ "type": row["type"], "message": row["message"] }));
            continue;
        }
        let answers = row.remove("answers").expect("a row has answers");
        let first = row.remove("a");
        // The operations on whole arrays: the type each call computes in
        // (`"computes"`, lined up with `answers`), and operands placed
        // before the first and after the row's own (`where`'s condition,
        // `clip`'s upper bound).
        let computes = row.remove("computes");
        let mut list = |key: &str| match row.remove(key) {
            Some(Value::Array(list)) => list,
            None => Vec::new(),
            Some(other) => panic!("{name}:{}: {key} is a list, not {other}", i + 2),
        };
        let (before, after) = (list("before"), list("after"));
        let mut deviations: BTreeMap<u64, Value> = row
            .remove("deviations")
            .and_then(|list| list.as_array().cloned())
            .unwrap_or_default()
            .into_iter()
            .map(|deviation| (deviation["at"].as_u64().expect("at"), deviation))
            .collect();
        // `"over": "arrays"`: the header's list of arrays alone.
        let operands = match row.remove("over") {
            Some(Value::String(key)) => header[&key]
                .as_array()
                .unwrap_or_else(|| panic!("{name}:{}: the header has no {key}", i + 2)),
            Some(other) => panic!("{name}:{}: over names a header list, not {other}", i + 2),
            None => operands_of(header, row),
        };
        for (at, (operand, answer)) in operands.iter().zip(answers.as_array().unwrap()).enumerate()
        {
            let mut request = Value::Object(row.clone());
            let mut args = before.clone();
            args.extend(first.iter().cloned());
            args.push(operand.clone());
            args.extend(after.iter().cloned());
            request["args"] = Value::Array(args);
            in_todays_vocabulary(&mut request);
            let mut expected = match answer {
                Value::Number(k) => {
                    serde_json::json!({ "error": errors[k.as_u64().unwrap() as usize] })
                }
                Value::String(typed) => {
                    let (dtype, weak) = match typed.strip_suffix(" (weak)") {
                        Some(dtype) => (dtype, true),
                        None => (typed.as_str(), false),
                    };
                    serde_json::json!({ "ok": { "dtype": dtype, "weak": weak } })
                }
                other => panic!(
                    "{name}:{}: an answer is a dtype or an error, not {other}",
                    i + 2
                ),
            };
            if let (Some(ok), Some(computes)) = (
                expected.get_mut("ok"),
                computes.as_ref().map(|list| &list[at]),
            ) {
                // Recorded for every answer; the library writes it only
                // where it differs from the result, and `null` says that
                // the file holds ours to writing none.
                ok["computes_in"] = if computes.is_string() && *computes != ok["dtype"] {
                    computes.clone()
                } else {
                    Value::Null
                };
            }
            cases.push(Case {
                line: i + 2,
                request,
                expected,
                records_warnings: false,
                deviation: deviations.remove(&(at as u64)),
            });
        }
        assert!(
            deviations.is_empty(),
            "{name}:{}: a deviation at no answer",
            i + 2
        );
    }
    cases
}

/// The operands a row's answers line up with: the entry of the header's
/// `operands_at` whose settings are the row's, else the header's
/// `operands` (tinygrad's weak tensors depend on its settings).
fn operands_of<'h>(header: &'h Value, row: &serde_json::Map<String, Value>) -> &'h Vec<Value> {
    let at_settings = |entry: &&Value| {
        let entry = entry
            .as_object()
            .expect("an operands_at entry is an object");
        entry
            .iter()
            .all(|(key, value)| key == "operands" || row.get(key) == Some(value))
    };
    let chosen = header["operands_at"]
        .as_array()
        .and_then(|entries| entries.iter().find(at_settings))
        .map_or(&header["operands"], |entry| &entry["operands"]);
    chosen.as_array().expect("the header lists the operands")
}

/// JSON equality with numbers compared by value.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.to_string(), y.to_string());
            match (x.parse::<i128>(), y.parse::<i128>()) {
                (Ok(x), Ok(y)) => x == y,
                _ => x.parse::<f64>().ok() == y.parse::<f64>().ok(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A `TypePromotionError` message with its input tuple sorted, so messages
/// that differ only in Python's set order compare equal.
pub fn with_sorted_inputs(message: &str) -> String {
    let (Some(start), Some(end)) = (message.find("Input dtypes ("), message.find(") have no"))
    else {
        return message.to_owned();
    };
    let start = start + "Input dtypes (".len();
    let mut inputs: Vec<&str> = message[start..end]
        .split(", ")
        .map(|s| s.trim_end_matches(','))
        .collect();
    inputs.sort_unstable();
    format!(
        "{}{}{}",
        &message[..start],
        inputs.join(", "),
        &message[end..]
    )
}

/// A `jax.lax` dtype-rule message with its list of accepted kinds sorted:
/// JAX builds the list from a set of NumPy type objects, whose order
/// changes from process to process (0.10.2 and 0.12.0.1 wrote different
/// orders).
fn with_sorted_kinds(message: &str) -> String {
    const LIST: &str = "are subtypes of ";
    let Some(start) = message.find(LIST).map(|at| at + LIST.len()) else {
        return message.to_owned();
    };
    let body = message[start..].trim_end_matches('.');
    let mut kinds: Vec<&str> = body.split(", ").collect();
    kinds.sort_unstable();
    format!("{}{}.", &message[..start], kinds.join(", "))
}

fn is_type_promotion_error(answer: &Value) -> bool {
    answer["error"]["type"] == "TypePromotionError"
}

/// Whether `ours` is the answer a recorded deviation says we give. The
/// record names an error's type alone where its message is ours to word
/// (a call that never returned has no exception to copy).
fn is_recorded_deviation(deviation: Option<&Value>, ours: &Value) -> bool {
    let Some(instead) = deviation.map(|deviation| &deviation["ours"]) else {
        return false;
    };
    let any_message = instead["error"].is_object() && instead["error"].get("message").is_none();
    if any_message {
        instead["error"]["type"] == ours["error"]["type"]
    } else {
        same(instead, ours)
    }
}

/// How an answer compares with the golden one.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The same (within the stated allowances).
    Same,
    /// The answer the case's recorded deviation says we give.
    Deviation,
    /// Different.
    Differs,
}

/// Compares `ours` with a case's recorded answer, with the allowances the
/// module names.
pub fn judge(case: &Case, ours: &Value) -> Verdict {
    let mut ours = ours.clone();
    if !case.records_warnings {
        if let Some(answer) = ours.as_object_mut() {
            answer.remove("warnings");
        }
    }
    // A file that recorded no computation type (every file before the
    // operations on whole arrays) is not held to ours; `null` is "none
    // apart from the result".
    let mut expected = case.expected.clone();
    match expected["ok"].get("computes_in") {
        None => {
            if let Some(ok) = ours.get_mut("ok").and_then(Value::as_object_mut) {
                ok.remove("computes_in");
            }
        }
        Some(Value::Null) => {
            if let Some(ok) = expected.get_mut("ok").and_then(Value::as_object_mut) {
                ok.remove("computes_in");
            }
        }
        Some(_) => {}
    }

    let ours = &ours;
    let same_warnings = ours.get("warnings") == expected.get("warnings");
    let function = case.request["fn"].as_str().unwrap_or_default();
    let same_answer = if same(ours, &expected) {
        true
    } else if function == "dtype" {
        expected.get("error").is_some() && ours.get("error").is_some()
    } else if expected["error"]["type"] == "NotOurs" {
        let name = expected["error"]["message"].as_str().unwrap_or("?");
        ours["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains(&format!(" {name} ")))
    } else if is_type_promotion_error(&expected) && is_type_promotion_error(ours) {
        let message = |v: &Value| with_sorted_inputs(v["error"]["message"].as_str().unwrap_or(""));
        function != "promote_types" && message(ours) == message(&expected) && same_warnings
    } else if expected["error"]["type"] == "TypeError" && ours["error"]["type"] == "TypeError" {
        let message = |v: &Value| {
            without_shapes(&with_sorted_kinds(
                v["error"]["message"].as_str().unwrap_or(""),
            ))
        };
        message(ours) == message(&expected)
    } else {
        false
    };
    if same_answer {
        Verdict::Same
    } else if is_recorded_deviation(case.deviation.as_ref(), ours) {
        Verdict::Deviation
    } else {
        Verdict::Differs
    }
}

/// A message with each array shape JAX prints written `[...]` or `(...)`,
/// as the library writes it: it knows no shapes. Shapes are those of an
/// abstract value (`int8[2]`, `int8[3,4]`) and Python's tuples
/// (`fill_value.shape (2, 2)`); scalars (`~int32[]`, `()`) keep theirs.
fn without_shapes(message: &str) -> String {
    let abstract_values = delimited_shapes(message, ('[', ']'), |c| c.is_ascii_digit() || c == ',');
    delimited_shapes(&abstract_values, ('(', ')'), |c| {
        c.is_ascii_digit() || c == ',' || c == ' '
    })
}

/// `message` with every innermost `open ... close` whose inside is a
/// shape (`of` each character, one digit at least) written
/// `open...close`.
fn delimited_shapes(message: &str, (open, close): (char, char), of: fn(char) -> bool) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find(open) {
        let (before, after) = rest.split_at(start);
        out.push_str(before);
        let inner = &after[1..];
        let Some(end) = inner.find(close) else {
            out.push_str(after);
            return out;
        };
        let inside = &inner[..end];
        if inside.contains(open) {
            // An outer pair: its inner ones are read on the next turn.
            out.push(open);
            rest = inner;
            continue;
        }
        if inside.chars().any(|c| c.is_ascii_digit()) && inside.chars().all(of) {
            out.extend([open, '.', '.', '.', close]);
        } else {
            out.push_str(&after[..end + 2]);
        }
        rest = &inner[end + 1..];
    }
    out.push_str(rest);
    out
}

/// `(fn, policy, args, x64)` of a golden call line, and its answer.
pub type Answers = BTreeMap<(String, String, String, bool), Value>;

/// The answers of the golden calls of `files` (an op table's cells and
/// call lines alike), by call.
pub fn answers(files: &[&str]) -> Answers {
    let mut answers = Answers::new();
    for file in files {
        for case in load(file) {
            let call = &case.request;
            let key = (
                call["fn"].as_str().unwrap().to_owned(),
                call["policy"].as_str().unwrap().to_owned(),
                call["args"].to_string(),
                call["x64"] == true,
            );
            answers.insert(key, case.expected);
        }
    }
    assert!(!answers.is_empty());
    answers
}

/// The answer to one call without x64.
pub fn answer<'a>(answers: &'a Answers, f: &str, policy: &str, args: &Value) -> &'a Value {
    let key = (f.to_owned(), policy.to_owned(), args.to_string(), false);
    answers
        .get(&key)
        .unwrap_or_else(|| panic!("no golden {f} {policy} {args}"))
}

#[cfg(test)]
mod tests {
    use super::without_shapes;

    #[test]
    fn shapes_are_written_without_their_sizes() {
        assert_eq!(
            without_shapes("got fill_value.shape (2, 2). (Tip: jnp.where (3,) ~int32[] int8[3,4])"),
            "got fill_value.shape (...). (Tip: jnp.where (...) ~int32[] int8[...])"
        );
        assert_eq!(
            without_shapes("shape () and (a (4,) [x"),
            "shape () and (a (...) [x"
        );
    }
}
