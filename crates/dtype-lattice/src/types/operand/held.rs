//! The value a zero-dimensional array holds, which NumPy 1 promotes by.
//!
//! NumPy 1 promoted a 0-d array beside arrays with dimensions by its
//! *value* (`np.min_scalar_type`), as it did a Python scalar:
//! `int8_array + np.array(300)` was `int16`. Every other framework reads a
//! 0-d array by its dtype alone, so the value rides in the operand's value
//! bytes, which the other forms of a dtype leave zero, while its code stays
//! [`Operand::zero_dim`]'s: the tables every policy indexes by code see a
//! 0-d array, and only a policy that asks for the value ([`Operand::held`])
//! reads it. A 0-d array given no value holds 0, the value NumPy 1 promotes
//! as the smallest type of the array's kind.

use super::{code, Operand, OperandKind};
use crate::types::{DType, Kind};

impl Operand {
    /// A zero-dimensional array of `dtype` holding `value` (a Python
    /// value, such as NumPy's `.item()` gives: `py_int`, `py_float`,
    /// `py_complex` or `py_bool`), converted to the dtype's kind as NumPy
    /// stores it: a float's integer part in an integer array, a complex's
    /// real part in a real one, truthiness in a bool one. Any other
    /// `value` (a type, `None`) holds 0, as [`Operand::zero_dim`] does.
    /// Only NumPy 1 (`numpy1`) reads the value; every other policy answers
    /// as for [`Operand::zero_dim`].
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::{Numpy, Numpy1};
    /// use dtype_lattice::{DType, Operand, OperandKind, Policy};
    ///
    /// let big = Operand::zero_dim_holding(DType::Int64, Operand::py_int(300));
    /// assert_eq!(big.kind(), OperandKind::ZeroDim(DType::Int64));
    /// assert_eq!(big.held(), Some(OperandKind::PyInt(300)));
    /// assert_eq!(big.to_string(), "0d:int64=300");
    /// let int8 = Operand::array(DType::Int8, false);
    /// let result = |policy: &dyn Policy| policy.result_type(&[int8, big]).map(|t| t.dtype);
    /// assert_eq!(result(&Numpy1), Ok(DType::Int16)); // by its value
    /// assert_eq!(result(&Numpy::default()), Ok(DType::Int64)); // NEP 50: by its dtype
    /// ```
    pub fn zero_dim_holding(dtype: DType, value: Operand) -> Operand {
        let mut operand = Operand::zero_dim(dtype);
        let (real, imag) = match value.kind() {
            OperandKind::PyBool(value) => (Number::Int(i128::from(value)), 0.0),
            OperandKind::PyInt(value) => (Number::Int(value), 0.0),
            OperandKind::PyFloat(value) => (Number::Float(value), 0.0),
            OperandKind::PyComplex { real, imag } => (Number::Float(real), imag),
            _ => return operand,
        };
        operand.value = match dtype.kind() {
            Kind::Bool => Operand::py_bool(real.as_f64() != 0.0 || imag != 0.0).value,
            Kind::Signed | Kind::Unsigned => Operand::py_int(real.as_int()).value,
            Kind::Float => Operand::py_float(real.as_f64()).value,
            Kind::Complex => Operand::py_complex(real.as_f64(), imag).value,
        };
        operand
    }

    /// The value a zero-dimensional array holds, as the Python value of its
    /// dtype's kind (`PyInt` for an integer array, `PyFloat`, `PyComplex`,
    /// `PyBool`); 0 where none was given. `None` for every other form.
    ///
    /// ```
    /// use dtype_lattice::{DType, Operand, OperandKind};
    /// assert_eq!(Operand::zero_dim(DType::Float32).held(), Some(OperandKind::PyFloat(0.0)));
    /// assert_eq!(Operand::array(DType::Float32, false).held(), None);
    /// ```
    pub fn held(self) -> Option<OperandKind> {
        let OperandKind::ZeroDim(dtype) = self.kind() else {
            return None;
        };
        let form = match dtype.kind() {
            Kind::Bool => code::PY_BOOL,
            Kind::Signed | Kind::Unsigned => code::PY_INT,
            Kind::Float => code::PY_FLOAT,
            Kind::Complex => code::PY_COMPLEX,
        };
        Some(
            Operand {
                code: form,
                value: self.value,
            }
            .kind(),
        )
    }

    /// Whether this is a zero-dimensional array holding a value other than
    /// 0 (the notation then writes it: `0d:int64=300`).
    pub(super) fn holds_nonzero(self) -> bool {
        matches!(self.kind(), OperandKind::ZeroDim(_)) && self.value != [0; 16]
    }
}

/// A real number as given: an int keeps all its digits.
#[derive(Clone, Copy)]
enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    fn as_f64(self) -> f64 {
        match self {
            Number::Int(value) => value as f64,
            Number::Float(value) => value,
        }
    }

    /// The integer part; a non-finite float holds 0 (NumPy's cast of one to
    /// an integer type is undefined), a huge one saturates.
    fn as_int(self) -> i128 {
        match self {
            Number::Int(value) => value,
            Number::Float(value) if value.is_finite() => value as i128,
            Number::Float(_) => 0,
        }
    }
}
