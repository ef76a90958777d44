//! NumPy's ufuncs where a dtype of ml_dtypes takes part.
//!
//! ml_dtypes' types are "legacy user dtypes" to NumPy: ml_dtypes registers
//! a loop per ufunc for each type (`PyUFunc_RegisterLoopForType`) and its
//! casts, and NumPy's ufunc type resolvers hand any call with such an
//! operand to the legacy linear search (`PyUFunc_DefaultTypeResolver`) in
//! place of promotion: the loops of each ml_dtypes operand's type, in the
//! operands' order, then NumPy's own loops, the first to which every operand
//! casts safely. So `int4 + uint4` runs the `int8` loop although the two have
//! no common dtype, and `bfloat16 + 2.5` the `float32` one. The one ufunc
//! here that never gets there is `logical_and`, whose promoter casts every
//! input to `bool` first.
//!
//! Then NumPy converts each Python scalar to the loop's type: an integer
//! loop's bounds (`int4 + 300` runs `int8`: "Python integer 300 out of
//! bounds for int8"), ml_dtypes' conversion for its own loops.

use super::promotion::{common_pair, Class};
use super::{array_dtype, casts, check_python_int, operand_class};
use crate::types::{DType, ErrorKind, Kind, Op, Operand, OperandKind, PromotionError};

/// The loop ml_dtypes registers for `op` and `dtype`, on and to `dtype`
/// (a comparison's to `bool`), as ml_dtypes 0.6.0's sources register them:
/// its floats have one for every ufunc here but the bitwise ones, its
/// integers for `add`, `subtract`, `multiply`, `floor_divide` and
/// `remainder` only.
pub(super) fn own_loop(op: Op, dtype: DType) -> Option<DType> {
    if !dtype.is_ml_dtypes() {
        return None;
    }
    let registered = if dtype.is_inexact() {
        !matches!(op, Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor)
    } else {
        matches!(
            op,
            Op::Add | Op::Subtract | Op::Multiply | Op::FloorDivide | Op::Remainder
        )
    };
    registered.then_some(dtype)
}

/// The type of the loop NumPy's legacy search finds for `op` on
/// `operands` (arrays and Python scalars), `numpy_loops` being the ufunc's
/// own loops in NumPy's order; `None` where none takes them.
pub(super) fn search(
    op: Op,
    operands: &[Operand],
    numpy_loops: impl Iterator<Item = DType>,
) -> Option<DType> {
    let own = operands
        .iter()
        .filter_map(array_dtype)
        .filter_map(|dtype| own_loop(op, dtype));
    first_taking(own.chain(numpy_loops), operands)
}

/// The first of `loops` every operand casts to safely: the legacy search
/// of a ufunc for which ml_dtypes registers no loop (`matmul`, `clip`),
/// whose candidates are NumPy's own loops alone.
pub(super) fn first_taking(
    mut loops: impl Iterator<Item = DType>,
    operands: &[Operand],
) -> Option<DType> {
    loops.find(|&to| operands.iter().all(|operand| casts_to(operand, to)))
}

/// Whether the loop search lets `operand` into a loop of type `to`
/// (`PyArray_CanCastArrayTo` under `casting="safe"`): an array (or a
/// Python bool, which NumPy reads as a `bool` array) by NumPy's safe casts.
fn casts_to(operand: &Operand, to: DType) -> bool {
    match operand_class(operand) {
        Ok(Class::DType(from)) => casts::can_cast_safely(from, to),
        Ok(class) => python_scalar_casts_to(class, to),
        Err(_) => false,
    }
}

/// `can_cast_pyscalar_scalar_to`: a Python scalar goes into any of
/// NumPy's complex loops, into its float loops unless complex, into its
/// integer loops if an int. Into another type, NumPy casts from the type
/// the scalar would take beside it (their common DType's, or the scalar's
/// default `int64`, `float64`, `complex128` where there is none): a Python
/// int goes into `bfloat16`'s loop (its common DType with `bfloat16` is
/// `bfloat16`, by way of `uint8`) but not into `int4`'s (with which it makes
/// `int8`).
fn python_scalar_casts_to(class: Class, to: DType) -> bool {
    if casts::is_builtin(to) {
        return match to.kind() {
            Kind::Complex => true,
            Kind::Float => class != Class::PyComplex,
            Kind::Signed | Kind::Unsigned => class == Class::PyInt,
            Kind::Bool => false,
        };
    }
    let from = common_pair(class, Class::DType(to)).unwrap_or(class);
    casts::can_cast_safely(from.default_dtype(), to)
}

/// NumPy's conversion of the Python scalars among `operands` to a loop of
/// type `dtype`.
pub(super) fn convert_scalars(operands: &[Operand], dtype: DType) -> Result<(), PromotionError> {
    for operand in operands {
        if let OperandKind::PyInt(value) = operand.kind() {
            if casts::is_builtin(dtype) {
                check_python_int(value, dtype)?;
            } else {
                set_item(dtype, operand.kind())?;
            }
        }
    }
    Ok(())
}

/// ml_dtypes' `setitem` of a Python scalar into an array of its `dtype`:
/// ml_dtypes reads an int as a C `long` and a float as a C `double`; its
/// floats refuse what they cannot read with a `TypeError`, its integers let
/// an int wrap but check a float's range (with a message that names `int4`
/// whatever the type).
pub(super) fn set_item(dtype: DType, value: OperandKind) -> Result<(), PromotionError> {
    let integer = dtype.is_integer();
    let refused = |got: &str| {
        PromotionError::framework(ErrorKind::Type, format!("expected number, got {got}"))
    };
    match value {
        OperandKind::PyInt(value) if i64::try_from(value).is_err() => Err(if integer {
            PromotionError::framework(
                ErrorKind::Overflow,
                "Python int too large to convert to C long",
            )
        } else {
            refused("int")
        }),
        OperandKind::PyFloat(value) if integer && value.is_nan() => Err(PromotionError::framework(
            ErrorKind::Value,
            "cannot convert float NaN to integer",
        )),
        OperandKind::PyFloat(value) if integer && value.is_infinite() => {
            Err(PromotionError::framework(
                ErrorKind::Overflow,
                "cannot convert float infinity to integer",
            ))
        }
        OperandKind::PyFloat(value) if integer => {
            let info = dtype.iinfo().map_err(|_| refused("float"))?;
            let (min, max) = (info.min as f64, info.max as f64);
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(PromotionError::framework(
                    ErrorKind::Overflow,
                    "out of range value cannot be converted to int4",
                ))
            }
        }
        OperandKind::PyComplex { .. } => Err(refused("complex")),
        _ => Ok(()),
    }
}
