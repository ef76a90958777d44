//! Every case of the golden data generated from real JAX
//! (`conformance/generate_jax.py`), answered through the batch interface and
//! compared with what JAX said.
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
//!   `complex32`), ours must be an error that names that dtype.
//!
//! One documented deviation is checked for what it is rather than skipped:
//! where JAX's `result_type` raises `KeyError` for a weak sub-byte integer
//! result, we answer the default integer dtype of that signedness.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dtype_lattice::registry::Settings;
use serde_json::Value;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/golden")
}

struct Case {
    line: usize,
    request: Value,
    expected: Value,
}

/// The library versions each generator's golden data comes from: its
/// pinned requirements (`conformance/requirements*.txt`). TensorFlow and
/// PyTorch pin their own NumPy, which need not be the newest.
const PINNED: &[(&str, &[(&str, &str)])] = &[
    ("conformance/generate_jax.py", JAX),
    ("conformance/generate_jax_nary.py", JAX),
    ("conformance/generate_jax_lax.py", JAX),
    ("conformance/generate_jax_explicit_x64.py", JAX),
    (
        "conformance/generate_numpy.py",
        &[
            ("numpy", "2.5.5"),
            ("ml_dtypes", "0.6.0"),
            ("array_api_strict", "2.6.1"),
        ],
    ),
    (
        "conformance/generate_torch.py",
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
];

/// JAX's generators: `requirements-jax12.txt` (Python 3.12).
const JAX: &[(&str, &str)] = &[
    ("jax", "0.12.0.1"),
    ("jaxlib", "0.12.0.1"),
    ("numpy", "2.5.5"),
    ("ml_dtypes", "0.6.0"),
];

/// A golden file's cases, and whether it records warnings.
struct Golden {
    cases: Vec<Case>,
    records_warnings: bool,
}

/// Reads a golden file; checks its header records the versions its
/// generator pins.
fn load(name: &str) -> Golden {
    let path = golden_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().expect("header line")).unwrap();
    let versions = header["header"]["versions"].as_object().expect("versions");
    assert!(!versions.is_empty(), "{name}: no library versions recorded");
    let generator = header["header"]["generator"].as_str().unwrap_or_default();
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
    let records_warnings = header["header"]["records_warnings"] == true;
    let cases = lines
        .enumerate()
        .map(|(i, line)| {
            let mut request: Value = serde_json::from_str(line).unwrap();
            let expected = request
                .as_object_mut()
                .and_then(|object| object.remove("answer"))
                .unwrap_or_else(|| panic!("{name}:{}: no answer", i + 2));
            Case {
                line: i + 2,
                request,
                expected,
            }
        })
        .collect();
    Golden {
        cases,
        records_warnings,
    }
}

/// JSON equality with numbers compared by value.
fn same(a: &Value, b: &Value) -> bool {
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
fn with_sorted_inputs(message: &str) -> String {
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

/// Whether `actual` is the documented answer where JAX raised `KeyError`:
/// a weak default integer of the right signedness.
fn is_key_error_deviation(jax: &Value, ours: &Value, x64: bool) -> bool {
    if jax["error"]["type"] != "KeyError" {
        return false;
    }
    let defaults = if x64 {
        ["int64", "uint64"]
    } else {
        ["int32", "uint32"]
    };
    ours["ok"]["weak"] == true && defaults.iter().any(|d| ours["ok"]["dtype"] == *d)
}

/// Runs every case of a file; returns how many were checked and how many
/// matched only as the documented deviation.
fn check_file(name: &str) -> (usize, usize) {
    let Golden {
        cases,
        records_warnings,
    } = load(name);
    let mut failures = Vec::new();
    let mut deviations = 0;
    for case in &cases {
        let mut ours = protocol_answer(&case.request);
        if !records_warnings {
            if let Some(answer) = ours.as_object_mut() {
                answer.remove("warnings");
            }
        }
        let function = case.request["fn"].as_str().unwrap_or_default();
        let ok = if same(&ours, &case.expected) {
            true
        } else if function == "dtype" {
            case.expected.get("error").is_some() && ours.get("error").is_some()
        } else if case.expected["error"]["type"] == "NotOurs" {
            let name = case.expected["error"]["message"].as_str().unwrap_or("?");
            ours["error"]["message"]
                .as_str()
                .is_some_and(|message| message.contains(&format!(" {name} ")))
        } else if is_type_promotion_error(&case.expected) && is_type_promotion_error(&ours) {
            let message =
                |v: &Value| with_sorted_inputs(v["error"]["message"].as_str().unwrap_or(""));
            function != "promote_types"
                && message(&ours) == message(&case.expected)
                && ours.get("warnings") == case.expected.get("warnings")
        } else if case.expected["error"]["type"] == "TypeError"
            && ours["error"]["type"] == "TypeError"
        {
            let message =
                |v: &Value| with_sorted_kinds(v["error"]["message"].as_str().unwrap_or(""));
            message(&ours) == message(&case.expected)
        } else if is_key_error_deviation(&case.expected, &ours, case.request["x64"] == true)
            && ours.get("warnings") == case.expected.get("warnings")
        {
            deviations += 1;
            true
        } else {
            false
        };
        if !ok {
            failures.push(format!(
                "{name}:{}: {}\n    jax:  {}\n    ours: {}",
                case.line, case.request, case.expected, ours
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from JAX; the first ones:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(!cases.is_empty(), "{name} has no cases");
    (cases.len(), deviations)
}

/// Checks a file; `deviations` is how many of its cases JAX answered with
/// the `KeyError` we deliberately do not copy (counted in the file itself).
fn check(name: &str) {
    let text = std::fs::read_to_string(golden_dir().join(name)).unwrap();
    let key_errors = text.matches(r#""type":"KeyError""#).count();
    let (cases, deviations) = check_file(name);
    assert_eq!(
        deviations, key_errors,
        "{name}: every KeyError, and only those, deviates"
    );
    assert!(cases > deviations);
}

macro_rules! golden {
    ($($test:ident => $file:literal;)*) => {
        $(
            #[test]
            fn $test() {
                check($file);
            }
        )*
    };
}

golden! {
    promote_types => "promote_types.jsonl";
    lattice_result_type => "lattice_result_type.jsonl";
    result_type => "result_type.jsonl";
    asarray => "asarray.jsonl";
    canonicalize_dtype => "canonicalize_dtype.jsonl";
    safe_to_cast => "safe_to_cast.jsonl";
    isdtype => "isdtype.jsonl";
    issubdtype => "issubdtype.jsonl";
    finfo => "finfo.jsonl";
    iinfo => "iinfo.jsonl";
    itemsize_bits => "itemsize_bits.jsonl";
    names => "names.jsonl";
    numpy_promote_types => "numpy_promote_types.jsonl";
    numpy_result_type => "numpy_result_type.jsonl";
    array_api_promote_types => "array_api_promote_types.jsonl";
    array_api_result_type => "array_api_result_type.jsonl";
    array_api_add => "array_api_add.jsonl";
    numpy_add => "numpy_add.jsonl";
    numpy_can_cast => "numpy_can_cast.jsonl";
    torch_promote_types => "torch_promote_types.jsonl";
    torch_result_type => "torch_result_type.jsonl";
    torch_add => "torch_add.jsonl";
    tensorflow_add => "tensorflow_add.jsonl";
    tensorflow_safe_result_type => "tensorflow_safe_result_type.jsonl";
    tensorflow_all_result_type => "tensorflow_all_result_type.jsonl";
    tensorflow_safe_promote_types => "tensorflow_safe_promote_types.jsonl";
    tensorflow_all_promote_types => "tensorflow_all_promote_types.jsonl";
    jax_lax_add => "jax_lax_add.jsonl";
    result_type_nary => "result_type_nary.jsonl";
    jax_explicit_x64 => "jax_explicit_x64.jsonl";
}

/// The label JAX's documentation gives a result, by the rule of the code
/// that generated its table: `kind + itemsize` in bytes, `bf` for bfloat16,
/// the Python type (`i*`, `f*`, `c*`) for a weak result.
fn docs_label(answer: &Value) -> String {
    let Some(ok) = answer.get("ok") else {
        return "-".to_owned();
    };
    let name = ok["dtype"].as_str().unwrap();
    let dtype: dtype_lattice::DType = name.parse().unwrap();
    let kind = dtype.kind().code();
    if ok["weak"] == true {
        return format!("{}*", if kind == 'u' { 'i' } else { kind });
    }
    if dtype == dtype_lattice::DType::BFloat16 {
        return "bf".to_owned();
    }
    format!("{kind}{}", dtype.itemsize_bits() / 8)
}

/// `dtype-lattice table` in each configuration, cell for cell against the
/// documentation table regenerated by real JAX.
#[test]
fn docs_table_matches_the_cli_table() {
    let cases = load("docs_table.jsonl").cases;
    let mut expected: BTreeMap<(bool, bool), Vec<String>> = BTreeMap::new();
    for case in &cases {
        let key = (
            case.request["x64"] == true,
            case.request["promotion"] == "strict",
        );
        expected
            .entry(key)
            .or_default()
            .push(docs_label(&case.expected));
    }
    assert_eq!(expected.len(), 4);
    for ((x64, strict), cells) in expected {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_dtype-lattice"));
        command.args(["table", "--format", "csv"]);
        if x64 {
            command.arg("--x64");
        }
        if strict {
            command.arg("--strict");
        }
        let output = command.output().unwrap();
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        let ours: Vec<String> = text
            .lines()
            .skip(1)
            .flat_map(|row| {
                row.split(',')
                    .skip(1)
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(ours, cells, "table x64={x64} strict={strict}");
    }
}

/// The batch protocol's answer to one request, as the CLI's `batch` gives it.
fn protocol_answer(request: &Value) -> Value {
    let line = dtype_lattice::protocol::answer_line(&request.to_string(), Settings::default());
    serde_json::from_str(&line).expect("an answer is JSON")
}
