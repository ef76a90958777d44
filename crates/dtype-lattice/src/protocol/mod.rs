//! The batch protocol (feature `json`): one JSON request in, one JSON answer
//! out. The command line's `batch` and the explorer's `POST /api/batch`
//! answer through [`answer_line`], so they answer alike; the Python package
//! calls the same [`Policy`](crate::Policy) methods directly, and its tests
//! read the same golden files.
//!
//! A request is `{"fn": F, "args": [...], "policy": NAME}` with any of the
//! [settings](crate::registry::SETTINGS) by name (`"x64": true`, `"strict":
//! true`, `"explicit_x64_dtypes": "allow"`; `"promotion": "standard" |
//! "strict"` is kept as another name for `strict`), all but `fn` optional,
//! the policy JAX when none is named; the answer is `{"ok": V}` or
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
//!
//! # Files
//!
//! `mod.rs` holds `answer_line` (one request line in, one answer out) and
//! `run` (a stream of lines, from a `BufRead` to a `Write`; it needs the
//! `std` feature, `answer_line` does not); `request.rs`
//! what a request asks; `args.rs` how its arguments read.

#[cfg(feature = "std")]
use std::io::{self, BufRead, Read, Write};

use serde_json::{json, Value};

use crate::prelude::*;

use crate::registry::Settings;
use crate::types::{ErrorKind, InfoError, PromotionError};

mod args;
mod request;

/// An error answer: the kind of Python exception and its message.
#[derive(Debug)]
pub(crate) struct ErrorAnswer {
    kind: ErrorKind,
    message: String,
}

impl ErrorAnswer {
    pub(crate) fn value(message: impl Into<String>) -> ErrorAnswer {
        ErrorAnswer {
            kind: ErrorKind::Value,
            message: message.into(),
        }
    }

    pub(crate) fn type_error(message: impl Into<String>) -> ErrorAnswer {
        ErrorAnswer {
            kind: ErrorKind::Type,
            message: message.into(),
        }
    }
}

impl From<InfoError> for ErrorAnswer {
    fn from(err: InfoError) -> ErrorAnswer {
        ErrorAnswer {
            kind: err.kind(),
            message: err.to_string(),
        }
    }
}

impl From<PromotionError> for ErrorAnswer {
    fn from(err: PromotionError) -> ErrorAnswer {
        ErrorAnswer {
            kind: err.kind(),
            message: err.to_string(),
        }
    }
}

/// The longest request line answered, counted without its `"\n"` or
/// `"\r\n"` terminator; a longer one gets an error answer and is skipped
/// without being held in memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What a request gets for the fields it leaves out: the settings and the
/// policy (`None`: the registry's first, JAX). A [`Settings`] converts into
/// defaults with JAX as the policy.
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
    /// The [settings](crate::registry::SETTINGS).
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
#[cfg(feature = "std")]
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
#[cfg(feature = "std")]
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
            encode(Err(ErrorAnswer::value(format!(
                "request line is longer than {MAX_LINE_BYTES} bytes; split the batch or shorten the request"
            ))))
        } else if line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
            continue;
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => answer_value(text, &defaults),
                Err(err) => encode(Err(ErrorAnswer::value(format!(
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
#[cfg(feature = "std")]
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
            let answer = request::evaluate(&request, defaults, &mut warnings);
            let mut value = encode(answer);
            if !warnings.is_empty() {
                let texts = warnings.into_iter().map(|w| Value::from(w.message));
                value["warnings"] = Value::Array(texts.collect());
            }
            value
        }
        Err(err) => encode(Err(ErrorAnswer::value(format!(
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

fn encode(answer: Result<Value, ErrorAnswer>) -> Value {
    match answer {
        Ok(value) => json!({ "ok": value }),
        Err(failure) => json!({
            "error": { "type": failure.kind.python_type(), "message": failure.message }
        }),
    }
}
