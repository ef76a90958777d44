//! The Python Array API standard's type promotion, as array-api-strict
//! 2.6.1 implements it (API version 2025.12).
//!
//! The standard defines promotion only within a kind: booleans alone,
//! integers (signed and unsigned mix only where a signed type holds both),
//! and floating-point types with complex ones. That is a (partial) lattice,
//! built here with the [lattice engine](crate::engine); promotion across
//! kinds is undefined and array-api-strict refuses it. Python scalars join
//! arrays of their own kind (an `int` also joins floating-point arrays, a
//! `complex` makes a real float array complex) and must fit an integer
//! array's dtype.
//!
//! ```
//! use dtype_lattice::frameworks::array_api::ArrayApi;
//! use dtype_lattice::{DType, Operand, Policy, Typed};
//!
//! let xp = ArrayApi::default();
//! assert_eq!(xp.promote_types(DType::UInt8.into(), DType::Int8.into()), Ok(DType::Int16));
//! let err = xp.promote_types(DType::Int8.into(), DType::Float32.into()).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "array_api_strict.int8 and array_api_strict.float32 cannot be type promoted together"
//! );
//! let x = Operand::dtype(DType::Float32);
//! assert_eq!(xp.result_type(&[x, Operand::py_int(2)]), Ok(Typed::strong(DType::Float32)));
//! let err = xp.result_type(&[Operand::dtype(DType::UInt8), Operand::py_int(300)]).unwrap_err();
//! assert_eq!(err.python_type(), "OverflowError");
//! ```
//!
//! [`operation(Op::Add)`](ArrayApi::operation) is the `+` operator, which checks more than
//! `result_type`: it takes numeric arrays only, so booleans cannot be added.
//!
//! ```
//! use dtype_lattice::frameworks::array_api::ArrayApi;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let xp = ArrayApi;
//! let x = Operand::dtype(DType::Bool);
//! assert_eq!(xp.result_type(&[x, x]), Ok(Typed::strong(DType::Bool)));
//! let err = xp.operation(Op::Add, &[x, x]).unwrap().unwrap_err();
//! assert_eq!(err.to_string(), "Only numeric dtypes are allowed in __add__");
//! ```

use crate::once::Once;

use crate::frameworks::common::DTypeSet;
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::prelude::*;
use crate::types::DType;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{ArrayCall, ArrayOp, Outcome};
use crate::types::{Op, OpForm, Operand, OperandKind, PyScalar, TypeSpec};

mod array_ops;
mod forms;
mod ops;

/// The standard's promotion lattice, as "dtype -> dtypes it promotes to".
const LATTICE: &[(&str, &[&str])] = &[
    ("bool", &[]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &[]),
    ("uint8", &["uint16", "int16"]),
    ("uint16", &["uint32", "int32"]),
    ("uint32", &["uint64", "int64"]),
    ("uint64", &[]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("complex64", &["complex128"]),
    ("complex128", &[]),
];

/// The dtypes array-api-strict has: the lattice's nodes.
const DTYPES: DTypeSet = DTypeSet::of(&[
    DType::Bool,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
]);

/// The Array API's promotion rules, as array-api-strict 2.6.1 applies them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArrayApi;

impl ArrayApi {
    /// `xp.result_type(*operands)`: the arrays' and dtypes' promotion from
    /// left to right, then each Python scalar against the result.
    fn result_dtype(&self, operands: &[Operand]) -> Result<DType, PromotionError> {
        let mut dtypes = Vec::new();
        let mut scalars = Vec::new();
        let mut none = false;
        for operand in operands {
            match form(operand)? {
                Form::Array(dtype) => dtypes.push(dtype),
                Form::Scalar(scalar, value) => scalars.push((scalar, value)),
                Form::None => none = true,
            }
        }
        // As Python evaluates the arguments: every dtype is looked up first,
        // then result_type rejects what is neither array, dtype nor scalar.
        for &dtype in &dtypes {
            known(dtype)?;
        }
        if none {
            return Err(not_an_input());
        }
        let Some((&first, rest)) = dtypes.split_first() else {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                "at least one array or dtype is required",
            ));
        };
        let mut result = rest
            .iter()
            .try_fold(first, |so_far, &dtype| self.join(so_far, dtype))?;
        for (scalar, value) in scalars {
            result = promote_scalar(result, scalar, value)?;
        }
        Ok(result)
    }

    /// `a + b` (`a.__add__(b)`, or `b.__radd__(a)` when `a` is a Python
    /// scalar): only numeric arrays, and Python scalars only as `result_type`
    /// takes them. Two Python scalars Python adds itself, into no array.
    ///
    /// ```
    /// use dtype_lattice::frameworks::array_api::ArrayApi;
    /// use dtype_lattice::{DType, Op, Operand, Policy, PyScalar, Typed};
    /// let x = Operand::dtype(DType::Float32);
    /// let add = |a, b| ArrayApi.operation(Op::Add, &[a, b]).unwrap();
    /// assert_eq!(add(PyScalar::Complex.into(), x), Ok(Typed::strong(DType::Complex64)));
    /// let err = add(Operand::py_int(2), Operand::dtype(DType::Bool)).unwrap_err();
    /// assert_eq!(err.to_string(), "Only numeric dtypes are allowed in __radd__");
    /// let err = add(Operand::dtype(DType::Int8), Operand::py_int(128)).unwrap_err();
    /// assert_eq!(err.python_type(), "OverflowError");
    /// ```
    fn plus(&self, a: Operand, b: Operand) -> Result<DType, PromotionError> {
        let (a, b) = (form(&a)?, form(&b)?);
        // Python evaluates both operands, looking their dtypes up, before
        // it adds.
        for side in [a, b] {
            if let Form::Array(dtype) = side {
                known(dtype)?;
            }
        }
        match (a, b) {
            (Form::Array(dtype), other) => self.operator(dtype, other, "__add__"),
            // A Python scalar, or None, has no `__add__` for an array, so
            // Python asks the array's `__radd__`.
            (other, Form::Array(dtype)) => self.operator(dtype, other, "__radd__"),
            (Form::Scalar(a, _), Form::Scalar(b, _)) => Err(python_adds(a, b)),
            (a, b) => Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "unsupported operand type(s) for +: '{}' and '{}'",
                    a.python_class(),
                    b.python_class()
                ),
            )),
        }
    }

    /// `Array.__add__` or `Array.__radd__` (`op`) of an array of `dtype`
    /// with `other`, in array-api-strict's order of checks.
    fn operator(&self, dtype: DType, other: Form, op: &str) -> Result<DType, PromotionError> {
        let numeric = |dtype: DType| {
            if dtype == DType::Bool {
                Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!("Only numeric dtypes are allowed in {op}"),
                ))
            } else {
                Ok(dtype)
            }
        };
        match other {
            // `_check_type_device` looks at the other operand before the
            // array's own dtype.
            Form::None => Err(PromotionError::framework(
                ErrorKind::Type,
                "Expected Array or Python scalar; got <class 'NoneType'>".to_owned(),
            )),
            Form::Array(other) => {
                numeric(dtype)?;
                self.join(dtype, numeric(other)?)
            }
            Form::Scalar(scalar, value) => {
                numeric(dtype)?;
                promote_scalar(dtype, scalar, value)
            }
        }
    }

    pub(super) fn join(&self, a: DType, b: DType) -> Result<DType, PromotionError> {
        lattice()
            .join_types(Typed::strong(a), Typed::strong(b))
            .map(|joined| joined.dtype)
            .ok_or_else(|| {
                PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                    "array_api_strict.{a} and array_api_strict.{b} cannot be type promoted together"
                ),
                )
            })
    }
}

/// What an operand is to array-api-strict: an array (a dtype stands for one,
/// and zero-dimensional arrays promote as any other), a Python scalar with
/// an int's value where it has one, or `None`.
#[derive(Clone, Copy)]
pub(super) enum Form {
    Array(DType),
    Scalar(PyScalar, Option<i128>),
    None,
}

impl Form {
    /// The name of the operand's Python class, as Python's errors give it.
    fn python_class(self) -> &'static str {
        match self {
            Form::Array(_) => "Array",
            Form::Scalar(scalar, _) => scalar.name(),
            Form::None => "NoneType",
        }
    }
}

/// The one place an operand's kind is read, so that a new kind of operand
/// needs one arm here. A weakly-typed array (only JAX has them) is an error.
pub(super) fn form(operand: &Operand) -> Result<Form, PromotionError> {
    Ok(match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, weak: false } => Form::Array(dtype),
        OperandKind::Array { dtype, weak: true } => {
            return Err(crate::frameworks::numpy::weak_array(dtype))
        }
        OperandKind::PyType(scalar) => Form::Scalar(scalar, None),
        OperandKind::PyInt(value) => Form::Scalar(PyScalar::Int, Some(value)),
        OperandKind::PyFloat(_) => Form::Scalar(PyScalar::Float, None),
        OperandKind::PyComplex { .. } => Form::Scalar(PyScalar::Complex, None),
        OperandKind::PyBool(_) => Form::Scalar(PyScalar::Bool, None),
        OperandKind::None => Form::None,
    })
}

/// The Python type of the sum of two Python scalars: `bool + bool` is an
/// `int`, and otherwise the wider of the two (`PyScalar` is ordered as
/// Python's numeric tower).
fn python_sum(a: PyScalar, b: PyScalar) -> PyScalar {
    match a.max(b) {
        PyScalar::Bool => PyScalar::Int,
        wider => wider,
    }
}

/// The answer where Python adds two Python scalars itself: no array, so no
/// dtype; the message names the sum's Python type.
pub(crate) fn python_adds(a: PyScalar, b: PyScalar) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        format!(
            "Python adds two Python scalars itself: the sum is a Python {} and no array, so it \
             has no dtype",
            python_sum(a, b)
        ),
    )
}

/// A dtype array-api-strict has, or the error looking it up gives.
pub(super) fn known(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(dtype) {
        return Ok(dtype);
    }
    Err(PromotionError::no_attribute(
        "array_api_strict",
        dtype.name(),
    ))
}

fn not_an_input() -> PromotionError {
    PromotionError::framework(
        ErrorKind::Type,
        "result_type() inputs must be Array API arrays, dtypes, or scalars",
    )
}

/// A Python scalar against arrays of dtype `dtype`: it must be of a kind
/// the dtype holds, and an int must fit an integer dtype. A complex scalar
/// makes a real float dtype complex.
pub(super) fn promote_scalar(
    dtype: DType,
    scalar: PyScalar,
    value: Option<i128>,
) -> Result<DType, PromotionError> {
    let inexact = dtype.is_inexact();
    match scalar {
        PyScalar::Bool if dtype != DType::Bool => Err(PromotionError::framework(
            ErrorKind::Type,
            "Python bool scalars can only be promoted with bool arrays",
        )),
        PyScalar::Int if dtype == DType::Bool => Err(PromotionError::framework(
            ErrorKind::Type,
            "Python int scalars cannot be promoted with bool arrays",
        )),
        PyScalar::Int => {
            let fits = |v: i128| dtype.iinfo().map_or(true, |i| (i.min..=i.max).contains(&v));
            if value.is_none_or(fits) {
                Ok(dtype)
            } else {
                Err(PromotionError::framework(
                    ErrorKind::Overflow,
                    "Python int scalars must be within the bounds of the dtype for \
                     integer arrays",
                ))
            }
        }
        PyScalar::Float if !inexact => Err(PromotionError::framework(
            ErrorKind::Type,
            "Python float scalars can only be promoted with floating-point arrays.",
        )),
        PyScalar::Complex if !inexact => Err(PromotionError::framework(
            ErrorKind::Type,
            "Python complex scalars can only be promoted with floating-point arrays.",
        )),
        PyScalar::Complex => Ok(match dtype {
            DType::Float32 => DType::Complex64,
            DType::Float64 => DType::Complex128,
            complex => complex,
        }),
        PyScalar::Bool | PyScalar::Float => Ok(dtype),
    }
}

impl Policy for ArrayApi {
    fn name(&self) -> String {
        "array-api".to_owned()
    }

    /// The promotion of two dtypes (`xp.result_type(a, b)`; the standard has
    /// no `promote_types`). Python's types are not dtypes to
    /// array-api-strict and are refused.
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        // Python looks up both dtypes (`xp.float16` fails) before the call.
        let dtype = |spec| match spec {
            TypeSpec::DType(dtype) => known(dtype).map(Some),
            TypeSpec::Python(_) => Ok(None),
        };
        match (dtype(a)?, dtype(b)?) {
            (Some(a), Some(b)) => self.join(a, b),
            _ => Err(not_an_input()),
        }
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_dtype(operands).map(Typed::strong)
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        Some(lattice())
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(dtype)
    }

    /// The standard's function of the operation in array-api-strict
    /// (`ops.rs`): its dtype category first, then promotion; `add` is the
    /// operator `+`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::array_api::ArrayApi;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let x = Operand::array(DType::Int32, false);
    /// let err = ArrayApi.operation(Op::TrueDivide, &[x, x]).unwrap().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "Only floating-point dtypes are allowed in divide(...). Got array_api_strict.int32 and \
    ///      array_api_strict.int32."
    /// );
    /// assert_eq!(ArrayApi.operation(Op::Less, &[x, Operand::py_int(2)]), Some(Ok(Typed::strong(DType::Bool))));
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        match op {
            // The policy's addition is `+`, the operator users write.
            Op::Add => Some(match *operands {
                [a, b] => self.plus(a, b).map(Typed::strong),
                _ => Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!("the + operator takes two operands, not {}", operands.len()),
                )),
            }),
            _ => Some(ops::operation(self, op, operands)),
        }
    }

    /// `+` for addition (`Array.__add__`, which checks more than
    /// `xp.add`); the functions for the rest.
    fn default_form(&self, op: Op) -> OpForm {
        match op {
            Op::Add => OpForm::Operator,
            _ => OpForm::Function,
        }
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(ops::describe(op))
    }

    /// `xp.sum(x, dtype=...)`, `xp.matmul(a, b)`, `xp.clip(x, lo, hi)` ...
    /// (`array_ops.rs`): the category checks of array-api-strict's
    /// functions, then NumPy's rules; `None` for `dot` and `einsum`, which
    /// it does not have.
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        array_ops::array_op(self, *call, operands)
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        array_ops::describe(op)
    }

    /// `a - b` and `2 - x` (`Array.__sub__`, `__rsub__`: the dtype checks
    /// of the special methods), `b.__rsub__(a)`, and `a -= b`, which
    /// refuses a result that is not `a`'s dtype.
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        forms::operation_as(self, op, form, operands)
    }

    /// `x[...] = v`: the value must promote to `x`'s dtype.
    fn assign(&self, target: Operand, value: Operand) -> Option<Result<Typed, PromotionError>> {
        Some(forms::assign(self, target, value))
    }
}

/// The promotion table's lattice, each node its dtype. Built once.
fn lattice() -> &'static TypedLattice {
    static LATTICE_ONCE: Once<TypedLattice> = Once::new();
    LATTICE_ONCE.get_or_init(|| {
        TypedLattice::of_dtypes(LATTICE).expect("the Array API lattice is a lattice (tested)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lattice_has_exactly_the_library_dtypes() {
        let lattice = lattice();
        assert_eq!(lattice.len(), DTYPES.iter().count());
        for dtype in DTYPES.iter() {
            assert!(lattice.node_of(Typed::strong(dtype)).is_some(), "{dtype}");
        }
    }
}
