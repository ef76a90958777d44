//! Python's own arithmetic, where no framework runs: an operator between
//! two Python numbers (`2 - True`, `2 ** -1`), or a Python number and
//! `None`, is computed by Python itself, and its result is a Python number
//! with no dtype, or Python's error.
//!
//! A framework's operator reaches this only when neither operand is one of
//! its arrays; the framework's policy words the no-dtype answer. Rules as
//! CPython 3.12 states them (`Objects/longobject.c`, `floatobject.c`,
//! `complexobject.c`): `bool` computes as `int` except in the bitwise
//! operators, `/` always gives a float (a complex with a complex operand),
//! `//` and `%` refuse complex numbers, an integer power with a negative
//! exponent is a float, a negative float to a non-integer power is a
//! complex, and dividing by zero is a `ZeroDivisionError`. Overflow
//! (`10.0 ** 400`) is not modelled: it depends on values, not on types.

use crate::float;
use crate::types::{DType, ErrorKind, Op, OperandKind, PromotionError, PyScalar};

/// The dtype a framework reads a Python type as where it has 64-bit
/// dtypes (`np.dtype(int)`, `torch.promote_types(int, ...)`,
/// `astype(int)` in Paddle): `bool`, `int64`, `float64`, `complex128`.
pub(crate) fn dtype_64(scalar: PyScalar) -> DType {
    match scalar {
        PyScalar::Bool => DType::Bool,
        PyScalar::Int => DType::Int64,
        PyScalar::Float => DType::Float64,
        PyScalar::Complex => DType::Complex128,
    }
}

/// A Python number as an operator takes it: its type and value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    Bool(bool),
    Int(i128),
    Float(f64),
    Complex { real: f64, imag: f64 },
}

impl Number {
    /// The number an operand is, if it is a Python number with a value.
    pub(crate) fn of(operand: OperandKind) -> Option<Number> {
        Some(match operand {
            OperandKind::PyBool(value) => Number::Bool(value),
            OperandKind::PyInt(value) => Number::Int(value),
            OperandKind::PyFloat(value) => Number::Float(value),
            OperandKind::PyComplex { real, imag } => Number::Complex { real, imag },
            _ => return None,
        })
    }

    /// Its Python type.
    pub(crate) fn scalar(self) -> PyScalar {
        match self {
            Number::Bool(_) => PyScalar::Bool,
            Number::Int(_) => PyScalar::Int,
            Number::Float(_) => PyScalar::Float,
            Number::Complex { .. } => PyScalar::Complex,
        }
    }

    /// The value as a real number (a complex's real part).
    pub(crate) fn real(self) -> f64 {
        match self {
            Number::Bool(value) => f64::from(u8::from(value)),
            Number::Int(value) => value as f64,
            Number::Float(value) => value,
            Number::Complex { real, .. } => real,
        }
    }

    fn is_zero(self) -> bool {
        match self {
            Number::Complex { real, imag } => real == 0.0 && imag == 0.0,
            other => other.real() == 0.0,
        }
    }
}

/// The Python class name of a number or of `None`, as Python's messages
/// print it.
pub(crate) fn class_name(value: Option<Number>) -> &'static str {
    value.map_or("NoneType", |number| number.scalar().name())
}

/// The operator Python writes for `op`, if `op` is one (`abs()` for the
/// builtin, as Python's messages name it).
pub(crate) fn symbol(op: Op) -> Option<&'static str> {
    op.operator().map(|operator| match operator.symbol {
        "abs" => "abs()",
        symbol => symbol,
    })
}

/// Whether `op` is an ordering comparison, which Python refuses for
/// complex numbers and `None`.
fn is_ordering(op: Op) -> bool {
    matches!(
        op,
        Op::Less | Op::LessEqual | Op::Greater | Op::GreaterEqual
    )
}

/// The `TypeError` Python raises for `x[...] = v` where `x` is a Python
/// number, which holds no items.
pub(crate) fn no_item_assignment(target: Option<Number>) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Type,
        format!(
            "'{}' object does not support item assignment",
            class_name(target)
        ),
    )
}

/// The `TypeError` Python raises when no operand implements binary `op`
/// for these classes.
pub(crate) fn unsupported(op: Op, left: &str, right: &str) -> PromotionError {
    let symbol = symbol(op).unwrap_or("?");
    let message = if is_ordering(op) {
        format!("'{symbol}' not supported between instances of '{left}' and '{right}'")
    } else {
        let symbol = if op == Op::Power {
            "** or pow()"
        } else {
            symbol
        };
        format!("unsupported operand type(s) for {symbol}: '{left}' and '{right}'")
    };
    PromotionError::framework(ErrorKind::Type, message)
}

/// The answer where Python computes `written` (`x - y`, `-x`) itself, no
/// `array` of the framework (its name for one: `tensor`) taking part: the
/// result is a Python number of type `result`, which has no dtype.
pub(crate) fn no_dtype(array: &str, written: &str, result: PyScalar) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        format!(
            "no {array} takes part, so Python computes {written} itself: the result is a Python \
             {} and no {array}, so it has no dtype",
            result.name()
        ),
    )
}

/// The numeric tower's wider type, `bool` computing as `int`.
fn wider(a: PyScalar, b: PyScalar) -> PyScalar {
    a.max(b).max(PyScalar::Int)
}

/// The type of Python's `a OP b`, or Python's error; `None` where `op` is
/// no Python operator (a framework's function decides). `None` operands
/// are Python's `None`.
pub(crate) fn binary(
    op: Op,
    a: Option<Number>,
    b: Option<Number>,
) -> Option<Result<PyScalar, PromotionError>> {
    symbol(op)?;
    if matches!(op, Op::Equal | Op::NotEqual) {
        return Some(Ok(PyScalar::Bool));
    }
    let (Some(x), Some(y)) = (a, b) else {
        return Some(Err(unsupported(op, class_name(a), class_name(b))));
    };
    let complex = x.scalar() == PyScalar::Complex || y.scalar() == PyScalar::Complex;
    let refuses = match op {
        Op::FloorDivide | Op::Remainder => complex,
        _ if is_ordering(op) => complex,
        Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor => {
            x.scalar().max(y.scalar()) > PyScalar::Int
        }
        _ => false,
    };
    if refuses {
        return Some(Err(unsupported(op, class_name(a), class_name(b))));
    }
    Some(match op {
        _ if is_ordering(op) => Ok(PyScalar::Bool),
        Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor => Ok(x.scalar().max(y.scalar())),
        Op::TrueDivide => divide(x, y),
        Op::FloorDivide | Op::Remainder => floor_divide(op, x, y),
        Op::Power => power(x, y),
        _ => Ok(wider(x.scalar(), y.scalar())),
    })
}

/// `x / y`: a float, or a complex beside a complex.
fn divide(x: Number, y: Number) -> Result<PyScalar, PromotionError> {
    let result = wider(wider(x.scalar(), y.scalar()), PyScalar::Float);
    if y.is_zero() {
        let message = match result {
            PyScalar::Complex => "complex division by zero",
            _ if x.scalar() == PyScalar::Float || y.scalar() == PyScalar::Float => {
                "float division by zero"
            }
            _ => "division by zero",
        };
        return Err(PromotionError::framework(ErrorKind::ZeroDivision, message));
    }
    Ok(result)
}

/// `x // y` and `x % y` of real numbers.
fn floor_divide(op: Op, x: Number, y: Number) -> Result<PyScalar, PromotionError> {
    let result = wider(x.scalar(), y.scalar());
    if y.is_zero() {
        let message = match (result, op) {
            (PyScalar::Float, Op::FloorDivide) => "float floor division by zero",
            (PyScalar::Float, _) => "float modulo",
            (_, Op::FloorDivide) => "integer division or modulo by zero",
            _ => "integer modulo by zero",
        };
        return Err(PromotionError::framework(ErrorKind::ZeroDivision, message));
    }
    Ok(result)
}

/// `x ** y`.
fn power(x: Number, y: Number) -> Result<PyScalar, PromotionError> {
    match wider(x.scalar(), y.scalar()) {
        PyScalar::Complex => {
            let exponent_bad = match y {
                Number::Complex { real, imag } => imag != 0.0 || real < 0.0,
                real => real.real() < 0.0,
            };
            if x.is_zero() && exponent_bad {
                return Err(PromotionError::framework(
                    ErrorKind::ZeroDivision,
                    "0.0 to a negative or complex power",
                ));
            }
            complex_power(x, y)
        }
        tower => {
            let exponent = y.real();
            if x.is_zero() && exponent < 0.0 {
                return Err(PromotionError::framework(
                    ErrorKind::ZeroDivision,
                    "0.0 cannot be raised to a negative power",
                ));
            }
            let fractional = exponent.is_finite() && exponent != float::floor(exponent);
            if tower == PyScalar::Int && exponent >= 0.0 {
                // An integer power stays an int, of any size.
                return Ok(PyScalar::Int);
            }
            if x.real() < 0.0 && fractional {
                // Python hands a negative base's fractional power to complex.
                return complex_power(x, y);
            }
            let (base, power) = (x.real(), y.real());
            if base.is_finite() && power.is_finite() && float::powf(base, power).is_infinite() {
                return Err(PromotionError::framework(
                    ErrorKind::Overflow,
                    "(34, 'Numerical result out of range')",
                ));
            }
            Ok(PyScalar::Float)
        }
    }
}

/// `x ** y` in complex numbers (neither zero to a bad power): Python's
/// `_Py_c_pow` (its repeated multiplication for a small integer power
/// overflows alike), an `OverflowError` where a part of the result is
/// infinite.
fn complex_power(x: Number, y: Number) -> Result<PyScalar, PromotionError> {
    let parts = |n: Number| match n {
        Number::Complex { real, imag } => (real, imag),
        real => (real.real(), 0.0),
    };
    let ((a, b), (c, d)) = (parts(x), parts(y));
    if (c == 0.0 && d == 0.0) || (a == 0.0 && b == 0.0) {
        return Ok(PyScalar::Complex);
    }
    let magnitude = float::hypot(a, b);
    let angle = float::atan2(b, a);
    let mut length = float::powf(magnitude, c);
    let mut phase = angle * c;
    if d != 0.0 {
        length /= float::exp(angle * d);
        phase += d * float::ln(magnitude);
    }
    let finite = [a, b, c, d].iter().all(|part| part.is_finite());
    let overflows = [length * float::cos(phase), length * float::sin(phase)]
        .iter()
        .any(|part| part.is_infinite());
    if finite && overflows {
        return Err(PromotionError::framework(
            ErrorKind::Overflow,
            "complex exponentiation",
        ));
    }
    Ok(PyScalar::Complex)
}

/// The type of Python's unary `op` on `a`, or Python's error; `None` where
/// `op` is no Python operator.
pub(crate) fn unary(op: Op, a: Option<Number>) -> Option<Result<PyScalar, PromotionError>> {
    let Some(x) = a else {
        let message = match op {
            Op::Negative => "bad operand type for unary -: 'NoneType'",
            Op::Abs => "bad operand type for abs(): 'NoneType'",
            _ => return None,
        };
        return Some(Err(PromotionError::framework(ErrorKind::Type, message)));
    };
    Some(Ok(match (op, x.scalar()) {
        (Op::Abs, PyScalar::Complex) => PyScalar::Float,
        (Op::Negative | Op::Abs, scalar) => scalar.max(PyScalar::Int),
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(op: Op, a: Number, b: Number) -> Result<PyScalar, String> {
        binary(op, Some(a), Some(b))
            .unwrap()
            .map_err(|e| e.to_string())
    }

    #[test]
    fn powers_follow_the_exponent_and_the_base() {
        let (int, float) = (Number::Int, Number::Float);
        assert_eq!(of(Op::Power, int(2), int(3)), Ok(PyScalar::Int));
        assert_eq!(
            of(Op::Power, Number::Bool(true), int(-1)),
            Ok(PyScalar::Float)
        );
        assert_eq!(of(Op::Power, int(-1), float(2.5)), Ok(PyScalar::Complex));
        assert_eq!(of(Op::Power, float(-2.0), float(2.0)), Ok(PyScalar::Float));
        assert_eq!(
            of(Op::Power, int(0), int(-1)),
            Err("0.0 cannot be raised to a negative power".into())
        );
    }

    #[test]
    fn python_refuses_what_its_types_lack() {
        let c = Number::Complex {
            real: 0.0,
            imag: 2.0,
        };
        assert_eq!(
            of(Op::FloorDivide, Number::Int(2), c),
            Err("unsupported operand type(s) for //: 'int' and 'complex'".into())
        );
        assert_eq!(
            of(Op::Less, c, Number::Int(2)),
            Err("'<' not supported between instances of 'complex' and 'int'".into())
        );
        assert_eq!(
            of(Op::BitwiseAnd, Number::Bool(true), Number::Bool(false)),
            Ok(PyScalar::Bool)
        );
        assert_eq!(
            of(Op::Remainder, Number::Float(2.5), Number::Int(0)),
            Err("float modulo".into())
        );
        assert_eq!(
            binary(Op::Equal, None, Some(c)).unwrap(),
            Ok(PyScalar::Bool)
        );
        assert!(binary(Op::Maximum, None, None).is_none());
    }
}
