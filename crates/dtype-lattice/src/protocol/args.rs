//! A request's arguments read as the library's values, and answers
//! written as JSON. Every message quotes request text cut and escaped.

use serde_json::{json, Number, Value};

use super::ErrorAnswer;
use crate::prelude::*;
use crate::text::{cut, quote};
use crate::types::hierarchy::{AbstractType, ArrayApiKind, Scalar};
use crate::types::{DType, Operand, Outcome, ParseOperandError, TypeSpec, Typed};

pub(super) type Answer = Result<Value, ErrorAnswer>;

/// The longest string read as a dtype, operand, kind or policy name; a
/// longer one is refused before it is parsed, since parse errors quote
/// their input in full.
const MAX_NAME_BYTES: usize = 256;

/// A JSON value from a request for an error message: its JSON text, cut.
pub(super) fn show(value: &Value) -> String {
    let text = value.to_string();
    match cut(&text) {
        (start, Some(length)) => format!("{start}... ({length} characters)"),
        (_, None) => text,
    }
}

/// `text` if it is short enough to be a `what` name, else a `ValueError`
/// that quotes it cut.
pub(super) fn short_name<'a>(text: &'a str, what: &str) -> Result<&'a str, ErrorAnswer> {
    if text.len() <= MAX_NAME_BYTES {
        return Ok(text);
    }
    Err(ErrorAnswer::value(format!(
        "{what} {} is not a name: a name is at most {MAX_NAME_BYTES} bytes",
        quote(text, '\'')
    )))
}

pub(super) fn exactly<const N: usize>(args: &[Value]) -> Result<&[Value; N], ErrorAnswer> {
    args.try_into().map_err(|_| {
        ErrorAnswer::type_error(format!("expected {N} argument(s), got {}", args.len()))
    })
}

/// A name string, no longer than [`MAX_NAME_BYTES`]; `what` says what it
/// names.
fn name<'a>(value: &'a Value, what: &str) -> Result<&'a str, ErrorAnswer> {
    let text = value.as_str().ok_or_else(|| {
        ErrorAnswer::type_error(format!(
            "expected a {what} name string, got {}",
            show(value)
        ))
    })?;
    short_name(text, what)
}

pub(super) fn dtype(value: &Value) -> Result<DType, ErrorAnswer> {
    DType::from_name(name(value, "dtype")?).map_err(|err| ErrorAnswer::type_error(err.to_string()))
}

pub(super) fn type_spec(value: &Value) -> Result<TypeSpec, ErrorAnswer> {
    name(value, "type")?.parse().map_err(operand_error)
}

/// A parse error's message, quoting the input once: where the whole text
/// is the unknown dtype name, the dtype error alone says it.
fn operand_error(err: ParseOperandError) -> ErrorAnswer {
    let message = match &err {
        ParseOperandError::DType { input, source } if source.input() == input => source.to_string(),
        _ => err.to_string(),
    };
    ErrorAnswer::type_error(message)
}

pub(super) fn operands(args: &[Value]) -> Result<Vec<Operand>, ErrorAnswer> {
    args.iter().map(operand).collect()
}

/// An operand: a string in the command line's notation, an array object,
/// a JSON number or boolean (a Python scalar value), `{"complex": [REAL,
/// IMAG]}` (a Python complex value; JSON has no complex numbers), or `null`
/// (`None`).
pub(super) fn operand(value: &Value) -> Result<Operand, ErrorAnswer> {
    match value {
        Value::String(text) => short_name(text, "operand")?.parse().map_err(operand_error),
        Value::Object(object) if object.contains_key("complex") => complex(object),
        Value::Object(array) => {
            let weak = match array.get("weak") {
                None => false,
                Some(Value::Bool(weak)) => *weak,
                Some(_) => {
                    return Err(ErrorAnswer::type_error(
                        "an array's \"weak\" must be true or false",
                    ))
                }
            };
            let dtype = dtype(array.get("dtype").ok_or_else(|| {
                ErrorAnswer::type_error(
                    "an array operand needs \"dtype\": {\"dtype\": NAME, \"weak\": BOOL}",
                )
            })?)?;
            Ok(Operand::array(dtype, weak))
        }
        Value::Number(number) => python_number(number),
        Value::Bool(value) => Ok(Operand::py_bool(*value)),
        Value::Null => Ok(Operand::NONE),
        Value::Array(_) => Err(ErrorAnswer::type_error(format!(
            "a list is not an operand: {}",
            show(value)
        ))),
    }
}

/// `{"complex": [REAL, IMAG]}`, both parts finite JSON numbers.
fn complex(object: &serde_json::Map<String, Value>) -> Result<Operand, ErrorAnswer> {
    let bad = || {
        ErrorAnswer::type_error(format!(
            "a complex operand is {{\"complex\": [REAL, IMAG]}} with two finite numbers, not {}",
            show(&Value::Object(object.clone()))
        ))
    };
    let part = |value: &Value| value.as_f64().filter(|v| v.is_finite());
    match object.get("complex") {
        Some(Value::Array(parts)) if object.len() == 1 && parts.len() == 2 => {
            match (part(&parts[0]), part(&parts[1])) {
                (Some(real), Some(imag)) => Ok(Operand::py_complex(real, imag)),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

/// A JSON number as Python reads it. Its text is kept exactly as sent, so
/// it may be long: a long one that is not a number Python reads is quoted
/// cut.
fn python_number(number: &Number) -> Result<Operand, ErrorAnswer> {
    let text = number.to_string();
    Operand::python_number(&text).map_err(|err| {
        if text.len() <= MAX_NAME_BYTES {
            ErrorAnswer::value(err.to_string())
        } else {
            ErrorAnswer::value(format!(
                "number {} is not an integer (up to 128 bits) or a finite float",
                quote(&text, '\'')
            ))
        }
    })
}

pub(super) fn kind_spec(value: &Value) -> Result<ArrayApiKind, ErrorAnswer> {
    ArrayApiKind::from_name(name(value, "kind")?).map_err(|err| ErrorAnswer::value(err.to_string()))
}

pub(super) fn scalar(value: &Value) -> Result<Scalar, ErrorAnswer> {
    let name = name(value, "type")?;
    if let Some(category) = AbstractType::from_name(name) {
        return Ok(Scalar::Abstract(category));
    }
    dtype(value).map(Scalar::DType)
}

pub(super) fn typed(result: Typed) -> Answer {
    Ok(json!({ "dtype": result.dtype.name(), "weak": result.weak }))
}

/// An [`Outcome`]: the result as [`typed`] writes it, with
/// `"computes_in"` where the framework computes in another type.
pub(super) fn outcome(answer: Outcome) -> Answer {
    let mut value = typed(answer.result())?;
    if let Some(dtype) = answer.computes_apart() {
        value["computes_in"] = Value::from(dtype.name());
    }
    Ok(value)
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

pub(super) fn finfo(dtype: DType) -> Answer {
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
        "iexp": info.iexp,
        "maxexp": info.maxexp,
        "minexp": info.minexp,
        "precision": info.precision,
        "dtype": info.dtype.name(),
    }))
}

pub(super) fn iinfo(dtype: DType) -> Answer {
    let info = dtype.iinfo()?;
    let exact =
        |v: i128| Value::Number(v.to_string().parse().expect("an integer is a JSON number"));
    Ok(json!({ "bits": info.bits, "min": exact(info.min), "max": exact(info.max) }))
}
