//! The NumPy table of JAX's type promotion design notebook (JEP 9407,
//! "Appendix: Example Type Promotion Tables"): NumPy 1.x, which had no
//! bfloat16 and promoted Python scalars by value. The notebook's table adds
//! zeros (`np.add` of a one-element array or a Python `0`, `0.0`, `0j`), so
//! "by value" is "as a zero", which is what this reproduces.

use super::value_based::{self, numpy1_dtype, promote};
use super::weak_array;
use crate::frameworks::python;
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::prelude::*;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{DType, Kind};
use crate::types::{Operand, OperandKind, PyScalar, TypeSpec};

/// NumPy 1.x as the JAX design notebook tabulates it.
///
/// Arrays promote by NumPy's table (the same as NumPy 2's for NumPy's own
/// dtypes). A Python scalar whose kind (boolean < integer < inexact, where
/// float and complex count as one) is no higher than every array's becomes
/// the smallest type holding zero (`uint8` usable as `int8`, `float16`,
/// `complex64`); otherwise it is `int64`, `float64` or `complex128`. Python
/// values count as their type, as in the table (NumPy 1.x looked at the
/// value; this policy is the table). ml_dtypes' types do not exist here, and
/// zero-dimensional arrays (which NumPy 1.x promoted by value) are not in the
/// table: both are errors.
///
/// ```
/// use dtype_lattice::frameworks::numpy::NumpyLegacy;
/// use dtype_lattice::{DType, Operand, Policy, PyScalar, Typed};
///
/// let legacy = NumpyLegacy;
/// let int8 = Operand::dtype(DType::Int8);
/// assert_eq!(legacy.result_type(&[int8, PyScalar::Int.into()]), Ok(Typed::strong(DType::Int8)));
/// assert_eq!(legacy.result_type(&[int8, PyScalar::Float.into()]), Ok(Typed::strong(DType::Float64)));
/// let f16 = Operand::dtype(DType::Float16);
/// assert_eq!(legacy.result_type(&[f16, PyScalar::Complex.into()]), Ok(Typed::strong(DType::Complex64)));
/// assert_eq!(legacy.promote_types(DType::UInt8.into(), PyScalar::Int.into()), Ok(DType::Int64));
/// let err = legacy.promote_types(DType::BFloat16.into(), DType::Float32.into()).unwrap_err();
/// assert_eq!(err.to_string(), "data type 'bfloat16' not understood");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NumpyLegacy;

/// An operand as NumPy 1.x saw it.
#[derive(Clone, Copy)]
enum Input {
    Array(DType),
    Scalar(PyScalar),
}

impl NumpyLegacy {
    /// The dtype of `np.add` on these operands in the notebook's table.
    fn result_dtype(&self, operands: &[Operand]) -> Result<DType, PromotionError> {
        let inputs = operands.iter().map(input).collect::<Result<Vec<_>, _>>()?;
        let level = |kind: Kind| match kind {
            Kind::Bool => 0,
            Kind::Unsigned | Kind::Signed => 1,
            Kind::Float | Kind::Complex => 2,
        };
        let array_level = inputs
            .iter()
            .filter_map(|input| match input {
                Input::Array(dtype) => Some(level(dtype.kind())),
                Input::Scalar(_) => None,
            })
            .max();
        let scalar_level = inputs
            .iter()
            .filter_map(|input| match input {
                Input::Scalar(scalar) => Some(level(python::dtype_64(*scalar).kind())),
                Input::Array(_) => None,
            })
            .max();
        let as_zero = array_level.is_some() && array_level >= scalar_level;
        // Each input as a dtype, and whether it is a zero read as uint8
        // (which NumPy 1.x treats as int8 next to a signed or inexact type).
        let typed = inputs.iter().map(|&input| match input {
            Input::Array(dtype) => (dtype, false),
            Input::Scalar(PyScalar::Int) if as_zero => (DType::UInt8, true),
            Input::Scalar(PyScalar::Float) if as_zero => (DType::Float16, false),
            Input::Scalar(PyScalar::Complex) if as_zero => (DType::Complex64, false),
            Input::Scalar(scalar) => (python::dtype_64(scalar), false),
        });
        typed
            .reduce(|(a, a_zero), (b, b_zero)| (promote(a, a_zero, b, b_zero), a_zero && b_zero))
            .map(|(dtype, _)| dtype)
            .ok_or_else(|| {
                PromotionError::framework(
                    ErrorKind::Value,
                    "at least one array or dtype is required",
                )
            })
    }
}

fn input(operand: &Operand) -> Result<Input, PromotionError> {
    Ok(match operand.kind() {
        OperandKind::DType(dtype) | OperandKind::Array { dtype, weak: false } => {
            Input::Array(numpy1_dtype(dtype)?)
        }
        OperandKind::Array { dtype, weak: true } => return Err(weak_array(dtype)),
        OperandKind::ZeroDim(dtype) => {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                format!(
                    "0d:{dtype}: the numpy-legacy table has arrays and Python scalars only \
                     (NumPy 1.x promoted zero-dimensional arrays by value); use the policy numpy1 for NumPy 1.26 or \
                     numpy for NumPy 2"
                ),
            ))
        }
        OperandKind::PyType(PyScalar::Bool) | OperandKind::PyBool(_) => Input::Array(DType::Bool),
        OperandKind::PyType(scalar) => Input::Scalar(scalar),
        OperandKind::PyInt(_) => Input::Scalar(PyScalar::Int),
        OperandKind::PyFloat(_) => Input::Scalar(PyScalar::Float),
        OperandKind::PyComplex { .. } => Input::Scalar(PyScalar::Complex),
        OperandKind::None => Input::Array(DType::Float64),
    })
}

impl Policy for NumpyLegacy {
    fn name(&self) -> String {
        "numpy-legacy".to_owned()
    }

    /// `np.promote_types(a, b)` in NumPy 1.x: Python's types are `int64`,
    /// `float64` and `complex128`.
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        value_based::promote_types(a, b)
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_dtype(operands).map(Typed::strong)
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn is_native(&self, dtype: DType) -> bool {
        numpy1_dtype(dtype).is_ok()
    }
}
