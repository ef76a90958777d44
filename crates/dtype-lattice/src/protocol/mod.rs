//! The batch protocol (feature `json`): one JSON request in, one JSON answer
//! out. The command line's `batch`, the explorer's `POST /api/batch` and the
//! Python package all answer through [`answer_line`], so they answer alike.
//!
//! A request is `{"fn": F, "args": [...], "x64": bool, "promotion":
//! "standard"|"strict", "policy": NAME}` (all but `fn` optional); the answer
//! is `{"ok": V}` or `{"error": {"type": T, "message": M}}` where T names the
//! Python exception the framework raises. A line that is not a valid request
//! gets an error answer too, and a stream goes on. The README lists the
//! functions and argument forms.
//!
//! ```
//! use dtype_lattice::policy::Settings;
//! use dtype_lattice::protocol::answer_line;
//!
//! let request = r#"{"fn": "promote_types", "args": ["int8", "uint8"]}"#;
//! assert_eq!(answer_line(request, Settings::default()), r#"{"ok":"int16"}"#);
//! let request = r#"{"fn": "result_type", "args": ["int8", 2.5], "policy": "numpy"}"#;
//! assert_eq!(
//!     answer_line(request, Settings::default()),
//!     r#"{"ok":{"dtype":"float64","weak":false}}"#
//! );
//! ```

use std::io::{self, BufRead, Read, Write};

use serde_json::{json, Map, Number, Value};

use crate::frameworks::jax::{Jax, Promotion};
use crate::policy::{self, Policy, Settings};
use crate::types::hierarchy::{isdtype, issubdtype, AbstractType, ArrayApiKind, Scalar};
use crate::types::{
    DType, ErrorKind, InfoError, Operand, ParseOperandError, PromotionError, TypeSpec, Typed,
};

/// An error answer: the kind of Python exception and its message.
#[derive(Debug)]
struct Failure {
    kind: ErrorKind,
    message: String,
}

impl Failure {
    fn value(message: impl Into<String>) -> Failure {
        Failure {
            kind: ErrorKind::Value,
            message: message.into(),
        }
    }

    fn type_error(message: impl Into<String>) -> Failure {
        Failure {
            kind: ErrorKind::Type,
            message: message.into(),
        }
    }
}

impl From<InfoError> for Failure {
    fn from(err: InfoError) -> Failure {
        Failure {
            kind: err.kind(),
            message: err.to_string(),
        }
    }
}

impl From<PromotionError> for Failure {
    fn from(err: PromotionError) -> Failure {
        Failure {
            kind: err.kind(),
            message: err.to_string(),
        }
    }
}

type Answer = Result<Value, Failure>;

/// The longest request line answered; a longer one gets an error answer
/// and is skipped without being held in memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads requests from `input` and writes one answer line per line;
/// `defaults` applies where a request gives no `x64` or `promotion`.
///
/// Memory stays bounded by [`MAX_LINE_BYTES`] whatever the input: lines are
/// read one at a time, and an over-long line is consumed in chunks and
/// answered with an error.
pub fn run(mut input: impl BufRead, mut output: impl Write, defaults: Settings) -> io::Result<()> {
    let mut line = Vec::new();
    while let Some(complete) = read_line(&mut input, &mut line)? {
        let answer = if !complete {
            encode(Err(Failure::value(format!(
                "request line is longer than {MAX_LINE_BYTES} bytes; split the batch or shorten the request"
            ))))
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => answer_value(text.trim_end_matches(['\n', '\r']), defaults),
                Err(err) => encode(Err(Failure::value(format!(
                    "request line is not UTF-8 ({err}); send JSON text"
                )))),
            }
        };
        serde_json::to_writer(&mut output, &answer)?;
        output.write_all(b"\n")?;
    }
    output.flush()
}

/// Reads one line into `line` (at most [`MAX_LINE_BYTES`] of it): `None` at
/// the end of input, `Some(false)` if the line was too long (the rest of it
/// is skipped).
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    let read = Read::take(&mut *input, limit).read_until(b'\n', line)?;
    if read == 0 {
        return Ok(None);
    }
    if line.len() <= MAX_LINE_BYTES || line.ends_with(b"\n") {
        return Ok(Some(true));
    }
    // Too long: skip to the end of the line without keeping it.
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                break;
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
    line.clear();
    Ok(Some(false))
}

/// The answer to one request (a line of JSON text, without its newline),
/// as one line of JSON text; `defaults` applies where the request gives no
/// `x64` or `promotion`.
pub fn answer_line(line: &str, defaults: Settings) -> String {
    answer_value(line, defaults).to_string()
}

fn answer_value(line: &str, defaults: Settings) -> Value {
    match serde_json::from_str::<Value>(line) {
        Ok(request) => encode(evaluate(&request, defaults)),
        Err(err) => encode(Err(Failure::value(format!(
            "request is not valid JSON: {err}"
        )))),
    }
}

fn encode(answer: Answer) -> Value {
    match answer {
        Ok(value) => json!({ "ok": value }),
        Err(failure) => json!({
            "error": { "type": failure.kind.python_type(), "message": failure.message }
        }),
    }
}

fn evaluate(request: &Value, defaults: Settings) -> Answer {
    let request = request.as_object().ok_or_else(|| {
        Failure::type_error("a request must be a JSON object with \"fn\" and \"args\"")
    })?;
    let name = match request.get("fn") {
        Some(Value::String(name)) => name.as_str(),
        _ => {
            return Err(Failure::type_error(
                "\"fn\" must be a string naming the function",
            ))
        }
    };
    let args = match request.get("args") {
        Some(Value::Array(args)) => args.as_slice(),
        None => &[],
        Some(_) => return Err(Failure::type_error("\"args\" must be a list")),
    };
    let settings = settings(request, defaults)?;
    let jax = Jax::new(settings.jax());
    if matches!(name, "add" | "can_cast") {
        // Asked of JAX, these get the answer every policy gives.
        if matches!(request.get("policy"), None | Some(Value::Null)) {
            return evaluate_policy(&jax, name, args);
        }
    }
    match request.get("policy") {
        None | Some(Value::Null) => {}
        Some(Value::String(policy)) if policy == "jax" => {
            if matches!(name, "add" | "can_cast") {
                return evaluate_policy(&jax, name, args);
            }
        }
        Some(Value::String(policy)) => {
            let policy =
                policy::by_name(policy, settings).map_err(|err| Failure::value(err.to_string()))?;
            return evaluate_policy(policy.as_ref(), name, args);
        }
        Some(other) => {
            return Err(Failure::type_error(format!(
                "\"policy\" must be a policy name, not {other}"
            )))
        }
    }
    match name {
        "promote_types" => {
            let [a, b] = exactly(args)?;
            Ok(dtype_value(
                jax.promote_types(type_spec(a)?, type_spec(b)?)?,
            ))
        }
        "lattice_result_type" => typed(jax.lattice_result_type(&operands(args)?)?),
        "asarray" => {
            let [value] = exactly(args)?;
            typed(jax.asarray(operand(value)?)?)
        }
        "result_type" => typed(jax.result_type(&operands(args)?)?),
        "dtype" => {
            let [d] = exactly(args)?;
            Ok(dtype_value(dtype(d)?))
        }
        "canonicalize_dtype" => {
            let [d] = exactly(args)?;
            Ok(dtype_value(jax.canonicalize_dtype(dtype(d)?)))
        }
        "safe_to_cast" => {
            let [input, output] = exactly(args)?;
            Ok(Value::Bool(
                jax.safe_to_cast(operand(input)?, dtype(output)?)?,
            ))
        }
        "isdtype" => {
            let [d, kinds] = exactly(args)?;
            let kinds = match kinds {
                Value::Array(list) => list.iter().map(kind_spec).collect::<Result<Vec<_>, _>>()?,
                single => vec![kind_spec(single)?],
            };
            Ok(Value::Bool(isdtype(dtype(d)?, &kinds)))
        }
        "issubdtype" => {
            let [a, b] = exactly(args)?;
            Ok(Value::Bool(issubdtype(scalar(a)?, scalar(b)?)))
        }
        "finfo" => {
            let [d] = exactly(args)?;
            finfo(dtype(d)?)
        }
        "iinfo" => {
            let [d] = exactly(args)?;
            iinfo(dtype(d)?)
        }
        "itemsize_bits" => {
            let [d] = exactly(args)?;
            Ok(Value::from(dtype(d)?.itemsize_bits()))
        }
        other => Err(unknown_fn(other)),
    }
}

/// The functions answered without a policy: JAX's and the dtype facts.
const JAX_FNS: &[&str] = &[
    "promote_types",
    "lattice_result_type",
    "result_type",
    "asarray",
    "canonicalize_dtype",
    "safe_to_cast",
    "isdtype",
    "issubdtype",
    "finfo",
    "iinfo",
    "itemsize_bits",
    "dtype",
];

fn unknown_fn(name: &str) -> Failure {
    Failure::value(format!(
        "unknown fn {name:?}: expected one of {}, and with a \"policy\" add and can_cast",
        JAX_FNS.join(", ")
    ))
}

/// The functions a policy other than JAX answers: every policy
/// `promote_types` and `result_type`, those that model them `add` and
/// `can_cast`; the rest are JAX's own.
fn evaluate_policy(policy: &dyn Policy, name: &str, args: &[Value]) -> Answer {
    let not_modelled = || {
        Failure::value(format!(
            "policy {} does not model fn {name:?}; every policy answers promote_types and \
             result_type, and add and can_cast where it models them",
            policy.name()
        ))
    };
    match name {
        "promote_types" => {
            let [a, b] = exactly(args)?;
            Ok(dtype_value(
                policy.promote_types(type_spec(a)?, type_spec(b)?)?,
            ))
        }
        "result_type" => typed(policy.result_type(&operands(args)?)?),
        "add" => typed(policy.add(&operands(args)?).ok_or_else(not_modelled)??),
        "can_cast" => {
            let [from, to] = exactly(args)?;
            let answer = policy
                .can_cast(dtype(from)?, dtype(to)?)
                .ok_or_else(not_modelled)?;
            Ok(Value::Bool(answer))
        }
        other if JAX_FNS.contains(&other) => Err(Failure::value(format!(
            "fn {other:?} is JAX's (or a dtype fact, the same for every policy): send it \
             without \"policy\"; policy {} answers promote_types and result_type, and add and \
             can_cast where it models them",
            policy.name()
        ))),
        other => Err(unknown_fn(other)),
    }
}

fn settings(request: &Map<String, Value>, defaults: Settings) -> Result<Settings, Failure> {
    let x64 = match request.get("x64") {
        None | Some(Value::Null) => defaults.x64,
        Some(Value::Bool(x64)) => *x64,
        Some(_) => return Err(Failure::type_error("\"x64\" must be true or false")),
    };
    let strict = match request.get("promotion") {
        None | Some(Value::Null) => defaults.strict,
        Some(Value::String(s)) if s == Promotion::Standard.name() => false,
        Some(Value::String(s)) if s == Promotion::Strict.name() => true,
        Some(other) => {
            return Err(Failure::value(format!(
                "\"promotion\" must be \"standard\" or \"strict\", not {other}"
            )))
        }
    };
    Ok(Settings { x64, strict })
}

fn exactly<const N: usize>(args: &[Value]) -> Result<&[Value; N], Failure> {
    args.try_into()
        .map_err(|_| Failure::type_error(format!("expected {N} argument(s), got {}", args.len())))
}

fn string(value: &Value) -> Result<&str, Failure> {
    value
        .as_str()
        .ok_or_else(|| Failure::type_error(format!("expected a name string, got {value}")))
}

fn dtype(value: &Value) -> Result<DType, Failure> {
    let name = string(value)?;
    DType::from_name(name).map_err(|err| Failure::type_error(err.to_string()))
}

fn type_spec(value: &Value) -> Result<TypeSpec, Failure> {
    string(value)?
        .parse()
        .map_err(|err: ParseOperandError| Failure::type_error(err.to_string()))
}

fn operands(args: &[Value]) -> Result<Vec<Operand>, Failure> {
    args.iter().map(operand).collect()
}

/// An operand: a string in the command line's notation, an array object,
/// a JSON number or boolean (a Python scalar value), or `null` (`None`).
fn operand(value: &Value) -> Result<Operand, Failure> {
    match value {
        Value::String(text) => text
            .parse()
            .map_err(|err: ParseOperandError| Failure::type_error(err.to_string())),
        Value::Object(array) => {
            let weak = match array.get("weak") {
                None => false,
                Some(Value::Bool(weak)) => *weak,
                Some(_) => {
                    return Err(Failure::type_error(
                        "an array's \"weak\" must be true or false",
                    ))
                }
            };
            let dtype = dtype(array.get("dtype").ok_or_else(|| {
                Failure::type_error(
                    "an array operand needs \"dtype\": {\"dtype\": NAME, \"weak\": BOOL}",
                )
            })?)?;
            Ok(Operand::array(dtype, weak))
        }
        Value::Number(number) => python_number(number),
        Value::Bool(value) => Ok(Operand::py_bool(*value)),
        Value::Null => Ok(Operand::NONE),
        Value::Array(_) => Err(Failure::type_error(format!(
            "a list is not an operand: {value}"
        ))),
    }
}

fn python_number(number: &Number) -> Result<Operand, Failure> {
    Operand::python_number(&number.to_string()).map_err(|err| Failure::value(err.to_string()))
}

fn kind_spec(value: &Value) -> Result<ArrayApiKind, Failure> {
    ArrayApiKind::from_name(string(value)?).map_err(|err| Failure::value(err.to_string()))
}

fn scalar(value: &Value) -> Result<Scalar, Failure> {
    let name = string(value)?;
    if let Some(category) = AbstractType::from_name(name) {
        return Ok(Scalar::Abstract(category));
    }
    dtype(value).map(Scalar::DType)
}

fn dtype_value(dtype: DType) -> Value {
    Value::from(dtype.name())
}

fn typed(result: Typed) -> Answer {
    Ok(json!({ "dtype": result.dtype.name(), "weak": result.weak }))
}

/// A float as JSON: a number, or `"nan"` / `"inf"` / `"-inf"`.
fn float(value: f64) -> Value {
    if value.is_nan() {
        Value::from("nan")
    } else if value.is_infinite() {
        Value::from(if value > 0.0 { "inf" } else { "-inf" })
    } else {
        Value::from(value)
    }
}

fn finfo(dtype: DType) -> Answer {
    let info = dtype.finfo()?;
    Ok(json!({
        "bits": info.bits,
        "eps": float(info.eps),
        "epsneg": float(info.epsneg),
        "max": float(info.max),
        "min": float(info.min),
        "tiny": float(info.tiny),
        "smallest_subnormal": float(info.smallest_subnormal),
        "resolution": float(info.resolution),
        "nmant": info.nmant,
        "nexp": info.nexp,
        "maxexp": info.maxexp,
        "minexp": info.minexp,
        "precision": info.precision,
        "dtype": info.dtype.name(),
    }))
}

fn iinfo(dtype: DType) -> Answer {
    let info = dtype.iinfo()?;
    let exact =
        |v: i128| Value::Number(v.to_string().parse().expect("an integer is a JSON number"));
    Ok(json!({ "bits": info.bits, "min": exact(info.min), "max": exact(info.max) }))
}
