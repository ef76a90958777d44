//! Reading an [`Operand`] from the command line's notation (and a Python
//! number literal, which the batch protocol's JSON numbers use too).

use core::fmt;
use core::str::FromStr;

use super::{Operand, PyScalar, TypeSpec};
use crate::prelude::*;
use crate::types::{DType, ParseDTypeError};

impl FromStr for Operand {
    type Err = ParseOperandError;

    /// The command-line notation: a dtype name (a specifier), `int`
    /// `float` `complex` or `i*` `f*` `c*` (Python scalar types),
    /// `weak:DTYPE` / `array:DTYPE` (arrays), `0d:DTYPE` (a
    /// zero-dimensional array) or `0d:DTYPE=VALUE` (one holding a value,
    /// `0d:int64=300`, which NumPy 1 reads), `py:int` `py:float` `py:complex` `py:bool`
    /// (Python scalar types, the only way to write Python's `bool` type), an
    /// integer, float or complex literal (`2`, `2.5`, `1j`, `2+3j`,
    /// `(2-3j)`), `True` / `False` (Python values) or `None`.
    fn from_str(s: &str) -> Result<Operand, ParseOperandError> {
        let array = |name: &str, weak: bool| {
            DType::from_name(name)
                .map(|dtype| Operand::array(dtype, weak))
                .map_err(|source| ParseOperandError::DType {
                    input: s.to_owned(),
                    source,
                })
        };
        if let Some(name) = s.strip_prefix("weak:") {
            return array(name, true);
        }
        if let Some(name) = s.strip_prefix("array:") {
            return array(name, false);
        }
        if let Some(rest) = s.strip_prefix("0d:") {
            // `0d:DTYPE=VALUE`: the value it holds (which NumPy 1 reads).
            let (name, value) = match rest.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (rest, None),
            };
            let dtype = DType::from_name(name).map_err(|source| ParseOperandError::DType {
                input: s.to_owned(),
                source,
            })?;
            return match value {
                None => Ok(Operand::zero_dim(dtype)),
                Some("True") => Ok(Operand::zero_dim_holding(dtype, Operand::py_bool(true))),
                Some("False") => Ok(Operand::zero_dim_holding(dtype, Operand::py_bool(false))),
                Some(value) => parse_number(value)
                    .map(|value| Operand::zero_dim_holding(dtype, value))
                    .map_err(|_| ParseOperandError::Number {
                        input: s.to_owned(),
                    }),
            };
        }
        if let Some(name) = s.strip_prefix("py:") {
            return PyScalar::from_name(name)
                .filter(|_| !name.ends_with('*'))
                .map(Operand::py_type)
                .ok_or_else(|| ParseOperandError::PyType {
                    input: s.to_owned(),
                });
        }
        match s {
            "True" => return Ok(Operand::py_bool(true)),
            "False" => return Ok(Operand::py_bool(false)),
            "None" => return Ok(Operand::NONE),
            _ => {}
        }
        if looks_numeric(s) {
            return parse_number(s);
        }
        s.parse::<TypeSpec>().map(Operand::from)
    }
}

fn looks_numeric(s: &str) -> bool {
    let s = s.strip_prefix('(').unwrap_or(s);
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

impl Operand {
    /// A Python number literal as Python reads it: digits (with a sign) are
    /// an `int`, of up to 128 bits; a number ending in `j` (or `J`) a
    /// `complex`, written as Python writes one (`1j`, `-1.5e3j`, `2+3j`,
    /// `(2-3j)`, the parentheses optional); anything else a finite `float`.
    /// The command line's notation and the batch protocol's JSON numbers
    /// both read numbers with this.
    ///
    /// ```
    /// use dtype_lattice::Operand;
    /// assert_eq!(Operand::python_number("-12"), Ok(Operand::py_int(-12)));
    /// assert_eq!(Operand::python_number("2.5e3"), Ok(Operand::py_float(2500.0)));
    /// assert_eq!(Operand::python_number("1j"), Ok(Operand::py_complex(0.0, 1.0)));
    /// assert_eq!(Operand::python_number("(2-3j)"), Ok(Operand::py_complex(2.0, -3.0)));
    /// assert!(Operand::python_number("1e400").is_err());
    /// ```
    pub fn python_number(s: &str) -> Result<Operand, ParseOperandError> {
        parse_number(s)
    }
}

fn parse_number(s: &str) -> Result<Operand, ParseOperandError> {
    let bad = || ParseOperandError::Number {
        input: s.to_owned(),
    };
    let unwrapped = s
        .strip_prefix('(')
        .and_then(|inner| inner.strip_suffix(')'));
    if let Some(imaginary) = unwrapped.unwrap_or(s).strip_suffix(['j', 'J']) {
        return parse_complex(imaginary).ok_or_else(bad);
    }
    if unwrapped.is_some() {
        return Err(bad());
    }
    if s.bytes()
        .all(|b| b.is_ascii_digit() || b == b'-' || b == b'+')
    {
        return s.parse::<i128>().map(Operand::py_int).map_err(|_| bad());
    }
    match s.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(Operand::py_float(value)),
        _ => Err(bad()),
    }
}

/// The parts of `REAL+IMAGj` or `IMAGj` with the `j` taken off: the real
/// part ends at the last sign that does not follow an exponent's `e`.
fn parse_complex(text: &str) -> Option<Operand> {
    let finite = |part: &str| {
        // Rust reads "inf" and "nan", which Python's literals do not have.
        let digits = part.strip_prefix(['-', '+']).unwrap_or(part);
        let plain = digits.starts_with(|c: char| c.is_ascii_digit() || c == '.');
        part.parse::<f64>().ok().filter(|v| plain && v.is_finite())
    };
    let bytes = text.as_bytes();
    let split = (1..bytes.len())
        .rev()
        .find(|&i| matches!(bytes[i], b'+' | b'-') && !matches!(bytes[i - 1], b'e' | b'E'));
    match split {
        Some(at) => Some(Operand::py_complex(
            finite(&text[..at])?,
            finite(&text[at..])?,
        )),
        None => Some(Operand::py_complex(0.0, finite(text)?)),
    }
}

/// Text that is not an operand.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseOperandError {
    /// The dtype name in it is unknown.
    DType {
        /// The whole operand text.
        input: String,
        /// What was wrong with the dtype name.
        source: ParseDTypeError,
    },
    /// `py:` is followed by something other than `int`, `float`,
    /// `complex` or `bool`.
    PyType {
        /// The whole operand text.
        input: String,
    },
    /// It looks like a number but is not a Python int, finite float or
    /// complex literal with finite parts.
    Number {
        /// The whole operand text.
        input: String,
    },
}

impl fmt::Display for ParseOperandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseOperandError::DType { input, source } => {
                write!(f, "bad operand '{}': {source}", input.escape_debug())
            }
            ParseOperandError::PyType { input } => write!(
                f,
                "bad operand '{}': after 'py:' write int, float, complex or bool",
                input.escape_debug()
            ),
            ParseOperandError::Number { input } => write!(
                f,
                "bad operand '{}': not an integer (up to 128 bits), a finite float or a \
                 complex literal such as 1j or 2+3j",
                input.escape_debug()
            ),
        }
    }
}

impl core::error::Error for ParseOperandError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ParseOperandError::DType { source, .. } => Some(source),
            ParseOperandError::Number { .. } | ParseOperandError::PyType { .. } => None,
        }
    }
}
