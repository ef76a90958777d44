//! NumPy's type promotion: NumPy 2.5.5 with ml_dtypes 0.6.0 ([`Numpy`]),
//! NumPy 1.26's value-based casting ([`Numpy1`]), and the NumPy 1.x table
//! that JAX's design notebook prints ([`NumpyLegacy`]).
//!
//! NumPy 2 follows NEP 50: arrays (of any shape, zero-dimensional ones
//! included) and NumPy scalars are strongly typed, Python's `int`, `float`
//! and `complex` are weak (they take the other operand's type where its kind
//! holds them). Promotion is not a lattice: each dtype *class* is asked in
//! turn for a common type, NumPy's own dtypes answer from a table built on
//! safe casts, and ml_dtypes' types answer from the casts ml_dtypes
//! registers. So the answer can depend on grouping:
//!
//! ```
//! use dtype_lattice::frameworks::numpy::Numpy;
//! use dtype_lattice::{DType, Policy, Typed};
//!
//! let np = Numpy;
//! let (i8, u8, f16) = (DType::Int8, DType::UInt8, DType::Float16);
//! let promote = |a: DType, b: DType| np.promote_types(a.into(), b.into());
//! assert_eq!(promote(promote(i8, u8)?, f16)?, DType::Float32);
//! assert_eq!(promote(i8, promote(u8, f16)?)?, DType::Float16);
//! # Ok::<(), dtype_lattice::PromotionError>(())
//! ```
//!
//! Python scalars are weak; `promote_types` reads Python's types as NumPy's
//! `np.dtype(int)` does, as 64-bit dtypes:
//!
//! ```
//! use dtype_lattice::frameworks::numpy::Numpy;
//! use dtype_lattice::{DType, Operand, Policy, PyScalar, Typed};
//!
//! let x = Operand::dtype(DType::UInt8); // a uint8 array
//! assert_eq!(Numpy.result_type(&[x, Operand::py_int(2)]), Ok(Typed::strong(DType::UInt8)));
//! assert_eq!(Numpy.result_type(&[x, Operand::py_float(2.5)]), Ok(Typed::strong(DType::Float64)));
//! assert_eq!(Numpy.promote_types(DType::UInt8.into(), PyScalar::Int.into()), Ok(DType::Int64));
//! ```
//!
//! Errors carry NumPy's exception type and text:
//!
//! ```
//! use dtype_lattice::frameworks::numpy::Numpy;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let err = Numpy.promote_types(DType::BFloat16.into(), DType::Float16.into()).unwrap_err();
//! assert_eq!(err.python_type(), "DTypePromotionError");
//! // `np.result_type` does not check values; the operation does.
//! let x = Operand::dtype(DType::UInt8);
//! assert_eq!(Numpy.result_type(&[x, Operand::py_int(300)]), Ok(Typed::strong(DType::UInt8)));
//! let err = Numpy.operation(Op::Add, &[x, Operand::py_int(300)]).unwrap().unwrap_err();
//! assert_eq!(err.to_string(), "Python integer 300 out of bounds for uint8");
//! ```

mod array_ops;
mod casts;
mod forms;
mod legacy;
pub(crate) mod ops;
mod promotion;
mod user_loops;
mod value_based;

pub use legacy::NumpyLegacy;
pub use value_based::Numpy1;

use crate::frameworks::common::DTypeSet;
use crate::frameworks::python;
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::prelude::*;
use crate::types::DType;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{ArrayCall, ArrayOp, Outcome};
use crate::types::{Op, OpForm, Operand, OperandKind, PyScalar, TypeSpec};
use promotion::{common_pair, promote_sequence, Class};

/// NumPy 2.5.5's promotion (NEP 50) with ml_dtypes 0.6.0 imported.
///
/// Operands of [`result_type`](Numpy::result_type): a dtype (or an array of
/// it, with dimensions or without: NumPy 2 treats them alike), Python
/// scalars and their types (weak), `None` (NumPy's default float64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Numpy;

impl Numpy {
    /// `np.result_type(*operands)`.
    ///
    /// One operand is its own dtype; a Python int alone is `int64`, or
    /// `uint64` if only that holds it. A Python int that neither holds makes
    /// NumPy answer `object`, which is not one of the 32 dtypes: that is an
    /// error here. A weakly-typed array (JAX's notion) is an error too.
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let (i4, u4) = (Operand::dtype(DType::Int4), Operand::dtype(DType::UInt4));
    /// assert!(Numpy.result_type(&[i4, u4]).is_err());
    /// // A Python int reconciles them, by way of int8 and uint8.
    /// assert_eq!(Numpy.result_type(&[i4, u4, Operand::py_int(1)]), Ok(Typed::strong(DType::Int16)));
    /// assert_eq!(Numpy.result_type(&[Operand::py_int(1 << 63)]), Ok(Typed::strong(DType::UInt64)));
    /// ```
    fn result_dtype(&self, operands: &[Operand]) -> Result<DType, PromotionError> {
        match operands {
            [] => Err(PromotionError::framework(
                ErrorKind::Value,
                "at least one array or dtype is required",
            )),
            [single] => alone(single),
            _ => {
                let classes = operands
                    .iter()
                    .map(operand_class)
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(promote_sequence(&classes)?.default_dtype())
            }
        }
    }

    /// `np.can_cast(from, to, casting="safe")`: NumPy's safe casts, and
    /// those ml_dtypes registers (which are not all value-preserving:
    /// ml_dtypes marks casts among its small floats safe both ways).
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy;
    /// use dtype_lattice::{DType, Policy, Typed};
    /// assert_eq!(Numpy.can_cast(DType::Int16, DType::Float32), Some(true));
    /// assert_eq!(Numpy.can_cast(DType::Float16, DType::BFloat16), Some(false));
    /// ```
    fn safe_cast(&self, from: DType, to: DType) -> bool {
        casts::can_cast_safely(from, to)
    }
}

/// The dtypes modelled under NumPy, with ml_dtypes': all but `complex32`.
const DTYPES: DTypeSet = DTypeSet::of(&DType::ALL).without(DTypeSet::of(&[DType::Complex32]));

/// A dtype the policy models under NumPy. ml_dtypes 0.6.0 registers a
/// `complex32` of its own (`np.dtype("complex32")`, with rules of its own:
/// no common dtype with float16), which is not modelled: refused, naming it.
fn known(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(dtype) {
        Ok(dtype)
    } else {
        Err(PromotionError::framework(
            ErrorKind::NotImplemented,
            format!(
                "{dtype} under NumPy is ml_dtypes' {dtype}, whose promotion dtype-lattice does \
                 not model; the policy torch models PyTorch's"
            ),
        ))
    }
}

/// Every operand's dtype is one NumPy has.
fn check_known(operands: &[Operand]) -> Result<(), PromotionError> {
    operands
        .iter()
        .filter_map(array_dtype)
        .try_for_each(|dtype| known(dtype).map(drop))
}

/// The dtype NumPy makes of a type given to `promote_types`.
fn spec_dtype(spec: TypeSpec) -> DType {
    match spec {
        TypeSpec::DType(dtype) => dtype,
        TypeSpec::Python(scalar) => python::dtype_64(scalar),
    }
}

/// The dtype of an operand that is an array or a dtype.
fn array_dtype(operand: &Operand) -> Option<DType> {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => Some(dtype),
        _ => None,
    }
}

/// The DType class NumPy promotes an operand as.
fn operand_class(operand: &Operand) -> Result<Class, PromotionError> {
    Ok(match operand.kind() {
        OperandKind::DType(dtype) | OperandKind::ZeroDim(dtype) => Class::DType(known(dtype)?),
        OperandKind::Array { dtype, weak: false } => Class::DType(known(dtype)?),
        OperandKind::Array { dtype, weak: true } => return Err(weak_array(dtype)),
        OperandKind::PyType(PyScalar::Bool) | OperandKind::PyBool(_) => Class::DType(DType::Bool),
        OperandKind::PyType(PyScalar::Int) | OperandKind::PyInt(_) => Class::PyInt,
        OperandKind::PyType(PyScalar::Float) | OperandKind::PyFloat(_) => Class::PyFloat,
        OperandKind::PyType(PyScalar::Complex) | OperandKind::PyComplex { .. } => Class::PyComplex,
        OperandKind::None => Class::DType(DType::Float64),
    })
}

/// The dtype of one operand on its own: a Python int's by its value.
fn alone(operand: &Operand) -> Result<DType, PromotionError> {
    let OperandKind::PyInt(value) = operand.kind() else {
        return Ok(operand_class(operand)?.default_dtype());
    };
    if i64::try_from(value).is_ok() {
        Ok(DType::Int64)
    } else if u64::try_from(value).is_ok() {
        Ok(DType::UInt64)
    } else {
        Err(PromotionError::framework(
            ErrorKind::Value,
            format!(
                "NumPy gives the Python int {value} the object dtype, as it fits neither int64 \
                 nor uint64; dtype-lattice models numeric dtypes only"
            ),
        ))
    }
}

pub(crate) fn weak_array(dtype: DType) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        format!(
            "weak:{dtype} is a weakly-typed array, which only JAX has; write {dtype} for an \
             array, or a Python scalar for a weak operand"
        ),
    )
}

/// NumPy's conversion of a Python int to an integer dtype. NumPy reads the
/// int as a C `long` (for `uint32` and `uint64`, a non-negative int as an
/// `unsigned long long`) before checking the dtype's bounds, so a value
/// beyond what it can read fails with Python's own message.
pub(crate) fn check_python_int(value: i128, dtype: DType) -> Result<(), PromotionError> {
    let Ok(info) = dtype.iinfo().map(|info| (info.min, info.max)) else {
        return Ok(());
    };
    if dtype == DType::Bool || (info.0..=info.1).contains(&value) {
        return Ok(());
    }
    read_as_c_long(value, dtype)?;
    Err(PromotionError::framework(
        ErrorKind::Overflow,
        format!("Python integer {value} out of bounds for {dtype}"),
    ))
}

/// The first step of NumPy's conversion of a Python int to the integer
/// type `dtype`: reading it as a C `long` (for `uint32` and `uint64`, a
/// non-negative int as an `unsigned long long`). NumPy 1 stops there and
/// wraps the value into the type.
pub(crate) fn read_as_c_long(value: i128, dtype: DType) -> Result<(), PromotionError> {
    let readable = i64::try_from(value).is_ok()
        || matches!(dtype, DType::UInt32 | DType::UInt64) && u64::try_from(value).is_ok();
    if readable {
        return Ok(());
    }
    Err(PromotionError::framework(
        ErrorKind::Overflow,
        "Python int too large to convert to C long",
    ))
}

impl Policy for Numpy {
    fn name(&self) -> String {
        "numpy".to_owned()
    }

    /// `np.promote_types(a, b)`. Python's types stand for `np.dtype(int)`
    /// and so on: `int64`, `float64`, `complex128` (and `bool`).
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy;
    /// use dtype_lattice::{DType, Policy, Typed};
    /// assert_eq!(Numpy.promote_types(DType::Int64.into(), DType::UInt64.into()), Ok(DType::Float64));
    /// assert_eq!(Numpy.promote_types(DType::Float8E5M2.into(), DType::UInt16.into()), Ok(DType::Float32));
    /// ```
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        let (a, b) = (known(spec_dtype(a))?, known(spec_dtype(b))?);
        Ok(common_pair(Class::DType(a), Class::DType(b))?.default_dtype())
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_dtype(operands).map(Typed::strong)
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn is_native(&self, dtype: DType) -> bool {
        !dtype.is_ml_dtypes() && DTYPES.contains(dtype)
    }

    fn can_cast(&self, from: DType, to: DType) -> Option<bool> {
        (DTYPES.contains(from) && DTYPES.contains(to)).then(|| self.safe_cast(from, to))
    }

    /// `np.<ufunc>(*operands).dtype` (`ops.rs`): promotion, then the first
    /// loop the result casts to safely.
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let x = |dtype| Operand::array(dtype, false);
    /// assert_eq!(Numpy.operation(Op::TrueDivide, &[x(DType::Int32), x(DType::Int32)]), Some(Ok(Typed::strong(DType::Float64))));
    /// assert_eq!(Numpy.operation(Op::Sqrt, &[x(DType::Int8)]), Some(Ok(Typed::strong(DType::Float16))));
    /// assert_eq!(Numpy.operation(Op::Sqrt, &[x(DType::Int16)]), Some(Ok(Typed::strong(DType::Float32))));
    /// let err = Numpy.operation(Op::Power, &[x(DType::Int8), Operand::py_int(-1)]).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "Integers to negative integer powers are not allowed.");
    /// // A Python int is converted to the promoted dtype, and must fit it.
    /// let x0 = Operand::zero_dim(DType::Int8);
    /// assert_eq!(Numpy.operation(Op::Add, &[x0, Operand::py_int(127)]), Some(Ok(Typed::strong(DType::Int8))));
    /// let err = Numpy.operation(Op::Add, &[Operand::py_int(-129), x0]).unwrap().unwrap_err();
    /// assert_eq!(err.python_type(), "OverflowError");
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        if let Err(err) = check_known(operands) {
            return Some(Err(err));
        }
        Some(ops::operation(op, operands))
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(ops::describe(op))
    }

    /// `np.sum(x, dtype=...)`, `np.matmul(a, b)`, `np.where(c, x, y)` ...
    /// (`array_ops.rs`): every operation NumPy has.
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        Some(array_ops::array_op(
            *call,
            operands,
            array_ops::Rules::Numpy2,
        ))
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        Some(array_ops::describe(op, array_ops::Rules::Numpy2))
    }

    /// `a / b` and `2 / x` (the ufuncs, Python's own arithmetic between
    /// two Python numbers), `b.__rtruediv__(a)`, and `a /= b` (the ufunc
    /// cast back under `same_kind`).
    ///
    /// ```
    /// use dtype_lattice::frameworks::numpy::Numpy;
    /// use dtype_lattice::{DType, Op, OpForm, Operand, Policy, Typed};
    /// let x = Operand::dtype(DType::Int8);
    /// let iadd = |b| Numpy.operation_as(Op::Add, OpForm::InPlace, &[x, b]).unwrap();
    /// assert_eq!(iadd(Operand::dtype(DType::Int64)), Ok(Typed::strong(DType::Int8)));
    /// let err = iadd(Operand::py_float(0.5)).unwrap_err();
    /// assert_eq!(err.to_string(), "Cannot cast ufunc 'add' output from dtype('float64') to \
    ///     dtype('int8') with casting rule 'same_kind'");
    /// ```
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        if let Err(err) = check_known(operands) {
            return Some(Err(err));
        }
        forms::operation_as(op, form, operands, forms::NUMPY2)
    }

    /// `a[...] = v`: the array keeps its dtype; a Python int must fit it.
    fn assign(&self, target: Operand, value: Operand) -> Option<Result<Typed, PromotionError>> {
        if let Err(err) = check_known(&[target, value]) {
            return Some(Err(err));
        }
        Some(forms::assign(target, value, forms::IntConversion::Checked))
    }
}
