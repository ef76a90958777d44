//! The batch protocol (feature `json`): one JSON request in, one JSON answer
//! out. The command line's `batch`, the explorer's `POST /api/batch` and the
//! Python package all answer through [`answer_line`], so they answer alike.
//!
//! A request is `{"fn": F, "args": [...], "x64": bool, "promotion":
//! "standard"|"strict", "explicit_x64_dtypes": "warn"|"error"|"allow",
//! "policy": NAME}` (all but `fn` optional); the answer is `{"ok": V}` or
//! `{"error": {"type": T, "message": M}}` where T names the Python exception
//! the framework raises, with `"warnings": [TEXT, ...]` after either when
//! the framework warned (JAX's `UserWarning`s for 64-bit dtypes requested
//! without x64). A line that is not a valid request
//! (an unknown key included) gets an error answer too, and a stream goes on;
//! a blank line gets none. Error messages quote a request's text at most
//! once, cut to 64 characters. The README lists the functions and argument
//! forms.
//!
//! ```
//! use dtype_lattice::registry::Settings;
//! use dtype_lattice::protocol::answer_line;
//!
//! let request = r#"{"fn": "promote_types", "args": ["int8", "uint8"]}"#;
//! assert_eq!(answer_line(request, Settings::default()), r#"{"ok":"int16"}"#);
//! let request = r#"{"fn": "result_type", "args": ["int8", 2.5], "policy": "numpy"}"#;
//! assert_eq!(
//!     answer_line(request, Settings::default()),
//!     r#"{"ok":{"dtype":"float64","weak":false}}"#
//! );
//! let request = r#"{"fn": "result_type", "args": ["bool", "uint64"], "explicit_x64_dtypes": "allow"}"#;
//! assert_eq!(
//!     answer_line(request, Settings::default()),
//!     r#"{"ok":{"dtype":"uint64","weak":false}}"#
//! );
//! let request = r#"{"fn": "result_type", "args": ["bool", "uint64"]}"#;
//! assert!(answer_line(request, Settings::default()).starts_with(
//!     r#"{"ok":{"dtype":"uint32","weak":false},"warnings":["Explicitly requested dtype uint64 "#
//! ));
//! ```

use std::io::{self, BufRead, Read, Write};

use serde_json::{json, Map, Number, Value};

use crate::frameworks::jax::{ExplicitX64, Jax, Promotion};
use crate::policy::Policy;
use crate::registry::{self, Settings};
use crate::types::hierarchy::{isdtype, issubdtype, AbstractType, ArrayApiKind, Scalar};
use crate::types::{
    DType, ErrorKind, InfoError, Operand, ParseOperandError, PromotionError, TypeSpec, Typed,
    Warning,
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

/// The longest request line answered, counted without its `"\n"` or
/// `"\r\n"` terminator; a longer one gets an error answer and is skipped
/// without being held in memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What a request gets for the fields it leaves out: JAX's settings
/// (`x64`, `promotion`, `explicit_x64_dtypes`) and the policy (`None`:
/// JAX). A [`Settings`]
/// converts into defaults with JAX as the policy.
///
/// ```
/// use dtype_lattice::protocol::{answer_line, Defaults};
///
/// let numpy = Defaults { policy: Some("numpy".into()), ..Defaults::default() };
/// let request = r#"{"fn": "result_type", "args": ["int8", 2.5]}"#;
/// assert_eq!(answer_line(request, numpy), r#"{"ok":{"dtype":"float64","weak":false}}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Defaults {
    /// `x64`, `promotion` and `explicit_x64_dtypes`.
    pub settings: Settings,
    /// `policy`, as a registry name or alias; `None` for JAX.
    pub policy: Option<String>,
}

impl From<Settings> for Defaults {
    fn from(settings: Settings) -> Defaults {
        Defaults {
            settings,
            policy: None,
        }
    }
}

/// The UTF-8 byte-order mark, which [`run`] skips at the start of its input.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Reads requests from `input` and writes one answer line per request
/// line, in order; `defaults` applies where a request gives no `x64`,
/// `promotion` or `policy`.
///
/// Lines end with `"\n"` or `"\r\n"`. A blank line (empty, or only
/// spaces, tabs and carriage returns) gets no answer, and a UTF-8
/// byte-order mark at the start of the input is skipped.
///
/// Memory stays bounded by [`MAX_LINE_BYTES`] whatever the input: lines are
/// read one at a time, and a line whose content (without its terminator)
/// is longer is consumed in chunks and answered with an error.
///
/// ```
/// use dtype_lattice::registry::Settings;
/// use dtype_lattice::protocol::run;
///
/// let input = "\u{feff}{\"fn\": \"dtype\", \"args\": [\"f4\"]}\r\n\r\n{\"fn\": \"dtype\", \"args\": [\"?\"]}\n";
/// let mut output = Vec::new();
/// run(input.as_bytes(), &mut output, Settings::default()).unwrap();
/// assert_eq!(output, b"{\"ok\":\"float32\"}\n{\"ok\":\"bool\"}\n");
/// ```
pub fn run(
    mut input: impl BufRead,
    mut output: impl Write,
    defaults: impl Into<Defaults>,
) -> io::Result<()> {
    let defaults = defaults.into();
    let mut line = Vec::new();
    let mut first = true;
    while let Some(complete) = read_line(&mut input, &mut line, first)? {
        first = false;
        let answer = if !complete {
            encode(Err(Failure::value(format!(
                "request line is longer than {MAX_LINE_BYTES} bytes; split the batch or shorten the request"
            ))))
        } else if line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
            continue;
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => answer_value(text, &defaults),
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

/// Reads one line's content into `line`: without its `"\n"` or `"\r\n"`
/// terminator, and on the `first` line without a byte-order mark. `None`
/// at the end of input, `Some(false)` if the content is longer than
/// [`MAX_LINE_BYTES`] (then `line` is left empty and the rest of the line
/// is skipped), else `Some(true)`.
fn read_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    first: bool,
) -> io::Result<Option<bool>> {
    line.clear();
    // Room for the longest content with a byte-order mark and "\r\n", so
    // that whether a line fits does not depend on its terminator.
    let limit = (BOM.len() + MAX_LINE_BYTES + 2) as u64;
    let read = Read::take(&mut *input, limit).read_until(b'\n', line)?;
    if read == 0 {
        return Ok(None);
    }
    let terminated = line.ends_with(b"\n");
    if terminated {
        line.pop();
    }
    if line.ends_with(b"\r") {
        line.pop();
    }
    if first && line.starts_with(BOM) {
        line.drain(..BOM.len());
    }
    if line.len() <= MAX_LINE_BYTES {
        return Ok(Some(true));
    }
    line.clear();
    if terminated {
        return Ok(Some(false));
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
    Ok(Some(false))
}

/// The answer to one request (a line of JSON text, without its newline),
/// as one line of JSON text; `defaults` applies where the request gives no
/// `x64`, `promotion` or `policy`.
pub fn answer_line(line: &str, defaults: impl Into<Defaults>) -> String {
    answer_value(line, &defaults.into()).to_string()
}

fn answer_value(line: &str, defaults: &Defaults) -> Value {
    match serde_json::from_str::<Value>(line) {
        Ok(request) => {
            let mut warnings = Vec::new();
            let answer = evaluate(&request, defaults, &mut warnings);
            let mut value = encode(answer);
            if !warnings.is_empty() {
                let texts = warnings.into_iter().map(|w| Value::from(w.message));
                value["warnings"] = Value::Array(texts.collect());
            }
            value
        }
        Err(err) => encode(Err(Failure::value(format!(
            "request is not valid JSON: {}",
            json_error(&err)
        )))),
    }
}

/// serde_json's message with the place stated once: "at column C" in a
/// one-line request, "at line L column C" otherwise.
fn json_error(err: &serde_json::Error) -> String {
    let message = err.to_string();
    if err.line() == 0 {
        return message;
    }
    // serde_json ends its message with " at line L column C".
    let place = format!(" at line {} column {}", err.line(), err.column());
    let what = message.strip_suffix(&place).unwrap_or(&message);
    if err.line() == 1 {
        format!("{what} at column {}", err.column())
    } else {
        format!("{what} at line {} column {}", err.line(), err.column())
    }
}

/// At most this many characters of a request go into an error message.
const QUOTE_CHARS: usize = 64;

/// The longest string read as a dtype, operand, kind or policy name; a
/// longer one is refused before it is parsed, since parse errors quote
/// their input in full.
const MAX_NAME_BYTES: usize = 256;

/// `text` cut to its first [`QUOTE_CHARS`] characters, with its length in
/// characters if it was longer.
fn cut(text: &str) -> (&str, Option<usize>) {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => (text, None),
        Some((end, _)) => (&text[..end], Some(text.chars().count())),
    }
}

/// Request text quoted between `mark`s for an error message, escaped and
/// cut: `'int9'`, or `'xxxx...' (1048000 characters)`.
fn quote(text: &str, mark: char) -> String {
    let (start, length) = cut(text);
    let mut quoted = String::with_capacity(start.len() + 2);
    quoted.push(mark);
    for c in start.chars() {
        match c {
            '\'' | '"' if c != mark => quoted.push(c),
            _ => quoted.extend(c.escape_debug()),
        }
    }
    if let Some(length) = length {
        quoted.push_str("...");
        quoted.push(mark);
        quoted.push_str(&format!(" ({length} characters)"));
    } else {
        quoted.push(mark);
    }
    quoted
}

/// A JSON value from a request for an error message: its JSON text, cut.
fn show(value: &Value) -> String {
    let text = value.to_string();
    match cut(&text) {
        (start, Some(length)) => format!("{start}... ({length} characters)"),
        (_, None) => text,
    }
}

/// `text` if it is short enough to be a `what` name, else a `ValueError`
/// that quotes it cut.
fn short_name<'a>(text: &'a str, what: &str) -> Result<&'a str, Failure> {
    if text.len() <= MAX_NAME_BYTES {
        return Ok(text);
    }
    Err(Failure::value(format!(
        "{what} {} is not a name: a name is at most {MAX_NAME_BYTES} bytes",
        quote(text, '\'')
    )))
}

fn encode(answer: Answer) -> Value {
    match answer {
        Ok(value) => json!({ "ok": value }),
        Err(failure) => json!({
            "error": { "type": failure.kind.python_type(), "message": failure.message }
        }),
    }
}

/// The keys a request may have.
const KEYS: &[&str] = &[
    "fn",
    "args",
    "x64",
    "promotion",
    "explicit_x64_dtypes",
    "policy",
];

/// The answer to a request; the warnings its call issues (even if it then
/// fails) go to `warnings`.
fn evaluate(request: &Value, defaults: &Defaults, warnings: &mut Vec<Warning>) -> Answer {
    let request = request.as_object().ok_or_else(|| {
        Failure::type_error("a request must be a JSON object with \"fn\" and \"args\"")
    })?;
    if let Some(key) = request.keys().find(|key| !KEYS.contains(&key.as_str())) {
        let suggestion = crate::types::nearest(key, KEYS.iter().copied())
            .map(|known| format!(": did you mean '{known}'?"))
            .unwrap_or_default();
        return Err(Failure::type_error(format!(
            "unknown request key {}{suggestion} (known: {})",
            quote(key, '\''),
            KEYS.join(", ")
        )));
    }
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
    let settings = settings(request, defaults.settings)?;
    let jax = Jax::new(settings.jax());
    // JAX (the default) answers its own functions and the dtype facts here;
    // every other policy, and `add` and `can_cast` of any, go through the
    // `Policy` trait, so that they get the answer every policy gives.
    let policy = match request.get("policy") {
        None | Some(Value::Null) => defaults.policy.as_deref(),
        Some(Value::String(policy)) => Some(policy.as_str()),
        Some(other) => {
            return Err(Failure::type_error(format!(
                "\"policy\" must be a policy name, not {}",
                show(other)
            )))
        }
    };
    match policy {
        None | Some("jax") => {}
        Some(policy) => {
            let policy = registry::by_name(short_name(policy, "policy")?, settings)
                .map_err(|err| Failure::value(err.to_string()))?;
            return evaluate_policy(policy.as_ref(), name, args, warnings);
        }
    }
    match name {
        "add" | "can_cast" => evaluate_policy(&jax, name, args, warnings),
        "promote_types" => {
            let [a, b] = exactly(args)?;
            Ok(dtype_value(
                jax.promote_types(type_spec(a)?, type_spec(b)?)?,
            ))
        }
        "lattice_result_type" => {
            let operands = operands(args)?;
            *warnings = jax.lattice_result_type_warnings(&operands);
            typed(jax.lattice_result_type(&operands)?)
        }
        "asarray" => {
            let [value] = exactly(args)?;
            typed(jax.asarray(operand(value)?)?)
        }
        "result_type" => {
            let operands = operands(args)?;
            *warnings = jax.result_type_warnings(&operands);
            typed(jax.result_type(&operands)?)
        }
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
            let (input, output) = (operand(input)?, dtype(output)?);
            *warnings = jax.safe_to_cast_warnings(input, output);
            Ok(Value::Bool(jax.safe_to_cast(input, output)?))
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
        "unknown fn {}: expected one of {}, and with a \"policy\" add and can_cast",
        quote(name, '"'),
        JAX_FNS.join(", ")
    ))
}

/// The functions a policy other than JAX answers: every policy
/// `promote_types` and `result_type`, those that model them `add` and
/// `can_cast`; the rest are JAX's own.
fn evaluate_policy(
    policy: &dyn Policy,
    name: &str,
    args: &[Value],
    warnings: &mut Vec<Warning>,
) -> Answer {
    let not_modelled = || {
        Failure::value(format!(
            "policy {} does not model fn {}; every policy answers promote_types and \
             result_type, and add and can_cast where it models them",
            policy.name(),
            quote(name, '"')
        ))
    };
    match name {
        "promote_types" => {
            let [a, b] = exactly(args)?;
            Ok(dtype_value(
                policy.promote_types(type_spec(a)?, type_spec(b)?)?,
            ))
        }
        "result_type" => {
            let operands = operands(args)?;
            *warnings = policy.result_type_warnings(&operands);
            typed(policy.result_type(&operands)?)
        }
        "add" => typed(policy.add(&operands(args)?).ok_or_else(not_modelled)??),
        "can_cast" => {
            let [from, to] = exactly(args)?;
            let answer = policy
                .can_cast(dtype(from)?, dtype(to)?)
                .ok_or_else(not_modelled)?;
            Ok(Value::Bool(answer))
        }
        other if JAX_FNS.contains(&other) => Err(Failure::value(format!(
            "fn {} is JAX's (or a dtype fact, the same for every policy): send it \
             without \"policy\"; policy {} answers promote_types and result_type, and add and \
             can_cast where it models them",
            quote(other, '"'),
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
                "\"promotion\" must be \"standard\" or \"strict\", not {}",
                show(other)
            )))
        }
    };
    let explicit_x64 = match request.get("explicit_x64_dtypes") {
        None | Some(Value::Null) => defaults.explicit_x64,
        Some(value) => explicit_x64(value)?,
    };
    Ok(Settings {
        x64,
        strict,
        explicit_x64,
    })
}

/// A `jax_explicit_x64_dtypes` mode by name; the error names the three.
fn explicit_x64(value: &Value) -> Result<ExplicitX64, Failure> {
    let text = value.as_str();
    if let Some(Ok(mode)) = text.map(str::parse) {
        return Ok(mode);
    }
    let names = ExplicitX64::ALL.map(ExplicitX64::name);
    let near = text
        .and_then(|text| crate::types::nearest(text, names.into_iter()))
        .map(|near| format!(": did you mean \"{near}\"?"))
        .unwrap_or_default();
    Err(Failure::value(format!(
        "\"explicit_x64_dtypes\" must be \"warn\", \"error\" or \"allow\", not {}{near}",
        show(value)
    )))
}

fn exactly<const N: usize>(args: &[Value]) -> Result<&[Value; N], Failure> {
    args.try_into()
        .map_err(|_| Failure::type_error(format!("expected {N} argument(s), got {}", args.len())))
}

/// A name string, no longer than [`MAX_NAME_BYTES`]; `what` says what it
/// names.
fn name<'a>(value: &'a Value, what: &str) -> Result<&'a str, Failure> {
    let text = value.as_str().ok_or_else(|| {
        Failure::type_error(format!(
            "expected a {what} name string, got {}",
            show(value)
        ))
    })?;
    short_name(text, what)
}

fn dtype(value: &Value) -> Result<DType, Failure> {
    DType::from_name(name(value, "dtype")?).map_err(|err| Failure::type_error(err.to_string()))
}

fn type_spec(value: &Value) -> Result<TypeSpec, Failure> {
    name(value, "type")?.parse().map_err(operand_error)
}

/// A parse error's message, quoting the input once: where the whole text
/// is the unknown dtype name, the dtype error alone says it.
fn operand_error(err: ParseOperandError) -> Failure {
    let message = match &err {
        ParseOperandError::DType { input, source } if source.input() == input => source.to_string(),
        _ => err.to_string(),
    };
    Failure::type_error(message)
}

fn operands(args: &[Value]) -> Result<Vec<Operand>, Failure> {
    args.iter().map(operand).collect()
}

/// An operand: a string in the command line's notation, an array object,
/// a JSON number or boolean (a Python scalar value), `{"complex": [REAL,
/// IMAG]}` (a Python complex value; JSON has no complex numbers), or `null`
/// (`None`).
fn operand(value: &Value) -> Result<Operand, Failure> {
    match value {
        Value::String(text) => short_name(text, "operand")?.parse().map_err(operand_error),
        Value::Object(object) if object.contains_key("complex") => complex(object),
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
            "a list is not an operand: {}",
            show(value)
        ))),
    }
}

/// `{"complex": [REAL, IMAG]}`, both parts finite JSON numbers.
fn complex(object: &serde_json::Map<String, Value>) -> Result<Operand, Failure> {
    let bad = || {
        Failure::type_error(format!(
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
fn python_number(number: &Number) -> Result<Operand, Failure> {
    let text = number.to_string();
    Operand::python_number(&text).map_err(|err| {
        if text.len() <= MAX_NAME_BYTES {
            Failure::value(err.to_string())
        } else {
            Failure::value(format!(
                "number {} is not an integer (up to 128 bits) or a finite float",
                quote(&text, '\'')
            ))
        }
    })
}

fn kind_spec(value: &Value) -> Result<ArrayApiKind, Failure> {
    ArrayApiKind::from_name(name(value, "kind")?).map_err(|err| Failure::value(err.to_string()))
}

fn scalar(value: &Value) -> Result<Scalar, Failure> {
    let name = name(value, "type")?;
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
        "iexp": info.iexp,
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
