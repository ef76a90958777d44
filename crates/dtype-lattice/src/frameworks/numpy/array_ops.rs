//! NumPy's reductions, contractions and the functions that combine arrays,
//! as NumPy 2.5.5 with ml_dtypes 0.6.0 types their results, and NumPy
//! 1.26 ([`Rules::Numpy1`]) where it differs.
//!
//! Each is one of NumPy's own rules, read from its sources and checked
//! against `array_ops_numpy.jsonl`:
//!
//! - `sum`, `prod`, `cumsum`, `cumprod` (`np.add.reduce`, ...) accumulate
//!   `bool` and NumPy's integers narrower than its default in `int64` or
//!   `uint64`; ml_dtypes' integers keep their type (NumPy's check is on its
//!   own integer type numbers).
//! - `mean`, `var`, `std` divide NumPy's integers and `bool` in `float64`;
//!   `var` and `std` of a complex array are real.
//! - `dtype=` casts the input to it and answers it; between two of
//!   ml_dtypes' types the reduction's ufunc finds no loop.
//! - `initial=` (`sum`, `prod`, `max`, `min`) never changes the type: NumPy
//!   converts it to the reduction's type, which can fail (`np.max(int8,
//!   initial=300)` is an `OverflowError`, a complex initial of a real type a
//!   `TypeError`). `where=` changes no type either (not modelled: `np.max`
//!   and `np.min` with a mask and no `initial` are a `ValueError`).
//! - `max`, `min` run `np.maximum`'s loops (an ml_dtypes integer takes the
//!   `int8` loop: ml_dtypes registers none for it), `argmax` answers
//!   `int64`, `any` and `all` `bool`.
//! - `matmul` is a ufunc for which ml_dtypes registers no loop (`bfloat16 @
//!   bfloat16` is `float32`); `dot` and `tensordot` promote and call the
//!   type's own dot function, which every ml_dtypes type has (`bfloat16`
//!   stays); `einsum` promotes and takes NumPy's own types only.
//! - `where`, `concatenate`, `stack` answer `np.result_type`; `clip` is a
//!   ufunc like `matmul` over its three operands; `full_like` answers the
//!   array's type or `dtype=`, the fill value cast to it.
//!
//! NumPy 1.26 differs where a Python scalar takes part: `where`, `clip`
//! promote it by its value (`np.where(c, int8_array, 300)` is `int16`,
//! `np.clip(uint8_array, -1, 3)` is `int16`, no bound dropped), and a
//! Python int is never checked against a type's bounds (`full_like` and
//! `initial=` wrap it), only read as a C `long`.
//!
//! ```
//! use dtype_lattice::frameworks::numpy::Numpy;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let x = |dtype| Operand::array(dtype, false);
//! let answer = |op, operands: &[Operand]| {
//!     Numpy.array_op(&ArrayCall::new(op), operands).unwrap().map(|o| o.result().dtype)
//! };
//! assert_eq!(answer(ArrayOp::Sum, &[x(DType::Int8)]), Ok(DType::Int64));
//! assert_eq!(answer(ArrayOp::Sum, &[x(DType::Int4)]), Ok(DType::Int4));
//! assert_eq!(answer(ArrayOp::Var, &[x(DType::Complex64)]), Ok(DType::Float32));
//! let bf16 = x(DType::BFloat16);
//! assert_eq!(answer(ArrayOp::Matmul, &[bf16, bf16]), Ok(DType::Float32));
//! assert_eq!(answer(ArrayOp::Dot, &[bf16, bf16]), Ok(DType::BFloat16));
//! ```

use super::forms::{dtype_repr, same_kind};
use super::promotion::{common_pair, Class};
use super::value_based::numpy1_dtype;
use super::{alone, casts, check_known, check_python_int, ops, read_as_c_long, Numpy, Numpy1};
use crate::frameworks::common::array_ops::counted;
use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Kind, Op, Operand, OperandKind, Outcome, PromotionError,
    Typed,
};

/// Whose rules: NumPy 2's (NEP 50), or NumPy 1.26's value-based ones.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Rules {
    Numpy2,
    Numpy1,
}

impl Rules {
    /// `np.result_type(*operands)` of this NumPy.
    fn result_dtype(self, operands: &[Operand]) -> Result<DType, PromotionError> {
        match self {
            Rules::Numpy2 => Numpy.result_dtype(operands),
            Rules::Numpy1 => Numpy1.result_dtype(operands),
        }
    }

    /// Every operand's dtype is one this NumPy has.
    fn check_known(self, operands: &[Operand]) -> Result<(), PromotionError> {
        match self {
            Rules::Numpy2 => check_known(operands),
            Rules::Numpy1 => operands
                .iter()
                .filter_map(super::array_dtype)
                .try_for_each(|dtype| numpy1_dtype(dtype).map(drop)),
        }
    }
}

/// `np.<function>(*operands, dtype=...)`'s result under `rules`.
pub(super) fn array_op(
    call: ArrayCall,
    operands: &[Operand],
    rules: Rules,
) -> Result<Outcome, PromotionError> {
    let operands: Vec<Operand> = counted(call, operands)?
        .iter()
        .map(|o| o.as_argument())
        .collect();
    rules.check_known(&operands)?;
    if let Some(to) = call.dtype() {
        if rules == Rules::Numpy1 {
            numpy1_dtype(to)?;
        }
    }
    let dtype = match (call.op(), operands.as_slice()) {
        (ArrayOp::Matmul | ArrayOp::Dot | ArrayOp::Tensordot | ArrayOp::Einsum, &[a, b]) => {
            contract(call, array(a)?, array(b)?)?
        }
        (ArrayOp::Where, &[_, x, y]) if rules == Rules::Numpy1 => rules.result_dtype(&[x, y])?,
        (ArrayOp::Where, &[_, x, y]) => promoted(&[x, y])?,
        (ArrayOp::Clip, &[_, _]) => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                "clip() missing 1 required positional argument: 'a_max'",
            ))
        }
        // NumPy 1's clip ufunc: no bound dropped, the three promoted by value.
        (ArrayOp::Clip, &[x, lower, upper]) if rules == Rules::Numpy1 => {
            ops::select_loop(Op::Maximum, rules.result_dtype(&[x, lower, upper])?)?
        }
        (ArrayOp::Clip, &[x, lower, upper]) => clip(x, lower, upper)?,
        (ArrayOp::Concatenate | ArrayOp::Stack, all) => rules.result_dtype(all)?,
        (ArrayOp::FullLike, &[a, fill]) => {
            let to = call.dtype().unwrap_or(array(a)?);
            match rules {
                // `copyto` of a 0-d array of the fill value, cast unsafely.
                Rules::Numpy1 => to,
                Rules::Numpy2 => full_like(to, fill)?,
            }
        }
        (op, &[x]) => {
            let dtype = reduce(call, op, array(x)?)?;
            if let Some(value) = call.initial() {
                initial(value, dtype, rules)?;
            }
            dtype
        }
        // `counted` lets through only the numbers above.
        (op, all) => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!("np.{op} was given {} operands", all.len()),
            ))
        }
    };
    Ok(Outcome::of(Typed::strong(dtype)))
}

/// The dtype of the array NumPy makes of an operand (`np.asarray`): an
/// array's own, a Python scalar's by its value.
fn array(operand: Operand) -> Result<DType, PromotionError> {
    if operand.kind() == OperandKind::None {
        return Err(PromotionError::framework(
            ErrorKind::Value,
            "NumPy makes an object array of None, which dtype-lattice does not model; pass an \
             array or a Python number",
        ));
    }
    alone(&operand)
}

/// The reduction's ufunc, named in NumPy's error where `dtype=` has no cast.
fn reducing_ufunc(op: ArrayOp) -> &'static str {
    match op {
        ArrayOp::Prod | ArrayOp::CumProd => "multiply",
        _ => "add",
    }
}

/// A reduction of an array of `x`.
fn reduce(call: ArrayCall, op: ArrayOp, x: DType) -> Result<DType, PromotionError> {
    if let Some(to) = call.dtype() {
        // The reduction's legacy type resolution finds a cast to or from
        // NumPy's own types, but none between two of ml_dtypes' (measured:
        // not even those `astype` has).
        if x != to && !casts::is_builtin(x) && !casts::is_builtin(to) {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "No loop matching the specified signature and casting was found for ufunc {}",
                    reducing_ufunc(op)
                ),
            ));
        }
        // `var` subtracts the mean, of the same type here.
        if matches!(op, ArrayOp::Var | ArrayOp::Std) && x == DType::Bool && to == DType::Bool {
            return ops::call_on(Op::Subtract, DType::Bool, None);
        }
        return Ok(to);
    }
    // NumPy's own integers and bool, by their scalar type: ml_dtypes'
    // integers are not `np.integer`.
    let numpy_integral =
        casts::is_builtin(x) && matches!(x.kind(), Kind::Bool | Kind::Signed | Kind::Unsigned);
    Ok(match op {
        ArrayOp::Sum | ArrayOp::Prod | ArrayOp::CumSum | ArrayOp::CumProd if numpy_integral => {
            if x.kind() == Kind::Unsigned {
                DType::UInt64
            } else {
                DType::Int64
            }
        }
        ArrayOp::Mean | ArrayOp::Var | ArrayOp::Std if numpy_integral => DType::Float64,
        ArrayOp::Var | ArrayOp::Std if x.kind() == Kind::Complex => x.real_part(),
        ArrayOp::Max | ArrayOp::Min => ops::call_on(Op::Maximum, x, None)?,
        ArrayOp::ArgMax | ArrayOp::ArgMin => DType::Int64,
        ArrayOp::Any | ArrayOp::All => DType::Bool,
        _ => x,
    })
}

/// NumPy's conversion of `initial=` to the reduction's type `to`, as it
/// packs a Python scalar into an array of it: `int()` of the value and
/// the Python int's bounds for NumPy's integers (NumPy 1: only read as a
/// C `long`, then wrapped), `float()` for its floats, anything for `bool`
/// and the complex types; ml_dtypes' types take any real number, but that
/// their integers refuse a float past their range (an `int4` sum wraps an
/// int 300, refuses a float 7.9).
fn initial(value: Operand, to: DType, rules: Rules) -> Result<(), PromotionError> {
    let refuse = |kind, message: &str| Err(PromotionError::framework(kind, message));
    let complex = matches!(value.kind(), OperandKind::PyComplex { .. });
    if to == DType::Bool || to.kind() == Kind::Complex {
        return Ok(());
    }
    let builtin = casts::is_builtin(to);
    if complex {
        return refuse(
            ErrorKind::Type,
            match (builtin, to.kind()) {
                (false, _) => "expected number, got complex",
                (true, Kind::Float) => {
                    "float() argument must be a string or a real number, not 'complex'"
                }
                (true, _) => {
                    "int() argument must be a string, a bytes-like object or a real number, \
                     not 'complex'"
                }
            },
        );
    }
    if to.kind() == Kind::Float {
        return Ok(());
    }
    if !builtin {
        // ml_dtypes' integers: a float is range-checked as it is (its
        // message names int4 whatever the type), an int wraps.
        return match (value.kind(), to.iinfo()) {
            (OperandKind::PyFloat(f), Ok(info))
                if f.is_finite() && (f < info.min as f64 || f > info.max as f64) =>
            {
                refuse(
                    ErrorKind::Overflow,
                    "out of range value cannot be converted to int4",
                )
            }
            (OperandKind::PyFloat(f), _) if !f.is_finite() => int_of_float(f).map(|_| ()),
            _ => Ok(()),
        };
    }
    let int = match value.kind() {
        OperandKind::PyBool(b) => i128::from(b),
        OperandKind::PyInt(i) => i,
        OperandKind::PyFloat(f) => int_of_float(f)?,
        // A Python number is all `with_initial` keeps.
        _ => return Ok(()),
    };
    match rules {
        Rules::Numpy2 => check_python_int(int, to),
        Rules::Numpy1 => read_as_c_long(int, to),
    }
}

/// Python's `int()` of a float.
pub(super) fn int_of_float(f: f64) -> Result<i128, PromotionError> {
    if f.is_nan() {
        return Err(PromotionError::framework(
            ErrorKind::Value,
            "cannot convert float NaN to integer",
        ));
    }
    if f.is_infinite() {
        return Err(PromotionError::framework(
            ErrorKind::Overflow,
            "cannot convert float infinity to integer",
        ));
    }
    // Saturating: past i128 it is past every bound all the same.
    Ok(crate::float::trunc(f) as i128)
}

/// A contraction of arrays of `a` and `b`.
fn contract(call: ArrayCall, a: DType, b: DType) -> Result<DType, PromotionError> {
    let op = call.op();
    let pair = [Operand::array(a, false), Operand::array(b, false)];
    match (op, call.dtype()) {
        (ArrayOp::Dot | ArrayOp::Tensordot, Some(_)) => Err(PromotionError::framework(
            ErrorKind::Type,
            format!("{op}() got an unexpected keyword argument 'dtype'"),
        )),
        (ArrayOp::Dot | ArrayOp::Tensordot, None) => {
            // `PyArray_ObjectType` falls back to `object` where the two
            // have no common type.
            Numpy.result_dtype(&pair).map_err(|_| {
                PromotionError::framework(
                    ErrorKind::Value,
                    format!(
                        "np.{op} of {a} and {b} answers an array of object dtype (they have no \
                         common type), which dtype-lattice does not model"
                    ),
                )
            })
        }
        (ArrayOp::Matmul, None) => ops::call_unregistered("matmul", Op::Add, &pair),
        (ArrayOp::Matmul, Some(to)) => {
            unmodelled_dtype(op, to)?;
            // The `to, to -> to` loop, each input cast under the ufunc's
            // default `same_kind`.
            for (i, from) in [a, b].into_iter().enumerate() {
                if !same_kind(from, to) {
                    return Err(PromotionError::framework(
                        ErrorKind::UFuncType,
                        format!(
                            "Cannot cast ufunc 'matmul' input {i} from {} to {} with casting \
                             rule 'same_kind'",
                            dtype_repr(from),
                            dtype_repr(to)
                        ),
                    ));
                }
            }
            Ok(to)
        }
        (_, None) => einsum_type(Numpy.result_dtype(&pair)?),
        (_, Some(to)) => {
            unmodelled_dtype(op, to)?;
            // einsum's default casting is `safe`.
            for (i, from) in [a, b].into_iter().enumerate() {
                if !casts::can_cast_safely(from, to) {
                    return Err(PromotionError::framework(
                        ErrorKind::Type,
                        format!(
                            "Iterator operand {i} dtype could not be cast from {} to {} \
                             according to the rule 'safe'",
                            dtype_repr(from),
                            dtype_repr(to)
                        ),
                    ));
                }
            }
            einsum_type(to)
        }
    }
}

/// einsum computes in NumPy's own types only.
fn einsum_type(dtype: DType) -> Result<DType, PromotionError> {
    if casts::is_builtin(dtype) {
        Ok(dtype)
    } else {
        Err(PromotionError::framework(
            ErrorKind::Type,
            "invalid data type for einsum",
        ))
    }
}

/// An ml_dtypes type as a contraction's `dtype=` goes through NumPy's
/// ufunc resolution paths that the policy does not model.
fn unmodelled_dtype(op: ArrayOp, dtype: DType) -> Result<(), PromotionError> {
    if casts::is_builtin(dtype) {
        return Ok(());
    }
    Err(PromotionError::framework(
        ErrorKind::NotImplemented,
        format!(
            "np.{op}(..., dtype={dtype}) with ml_dtypes' {dtype} is not modelled by \
             dtype-lattice; NumPy's own dtypes are"
        ),
    ))
}

/// `np.clip(x, lower, upper)`: the `clip` ufunc, but that for an array of
/// NumPy's own integers a Python int bound at or past the type's limit on
/// its side is dropped first (so `clip(uint8, -1, 3)` converts no -1).
fn clip(x: Operand, lower: Operand, upper: Operand) -> Result<DType, PromotionError> {
    let limits = alone(&x)
        .ok()
        .filter(|&dtype| casts::is_builtin(dtype) && dtype.is_integer())
        .and_then(|dtype| dtype.iinfo().ok());
    let past =
        |bound: Operand, beyond: &dyn Fn(i128, (i128, i128)) -> bool| match (bound.kind(), &limits)
        {
            (OperandKind::PyInt(value), Some(info)) => beyond(value, (info.min, info.max)),
            _ => false,
        };
    let mut operands = vec![x];
    if !past(lower, &|v, (min, _)| v <= min) {
        operands.push(lower);
    }
    if !past(upper, &|v, (_, max)| v >= max) {
        operands.push(upper);
    }
    ops::call_unregistered("clip", Op::Maximum, &operands)
}

/// `np.result_type(*operands)`, each Python int then converted to it.
fn promoted(operands: &[Operand]) -> Result<DType, PromotionError> {
    let dtype = Numpy.result_dtype(operands)?;
    converted(operands, dtype)?;
    Ok(dtype)
}

/// NumPy's conversion of the Python ints among `operands` to `dtype`: by
/// way of the type NumPy discovers for the int beside it (for ml_dtypes'
/// `int4`, `int8`: its common type with a Python int), whose bounds it
/// must be within where that is one of NumPy's integers.
fn converted(operands: &[Operand], dtype: DType) -> Result<(), PromotionError> {
    let discovered =
        common_pair(Class::PyInt, Class::DType(dtype)).map_or(dtype, Class::default_dtype);
    for operand in operands {
        if let OperandKind::PyInt(value) = operand.kind() {
            if casts::is_builtin(discovered) {
                check_python_int(value, discovered)?;
            }
        }
    }
    Ok(())
}

/// `np.full_like(a, fill, dtype=...)`: `np.copyto(res, fill,
/// casting="unsafe")` into an array of `to`.
fn full_like(to: DType, fill: Operand) -> Result<DType, PromotionError> {
    match fill.kind() {
        OperandKind::Array { dtype, .. } | OperandKind::ZeroDim(dtype)
            if !casts::has_cast(dtype, to) =>
        {
            Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "Cannot cast array data from {} to {} according to the rule 'unsafe'",
                    dtype_repr(dtype),
                    dtype_repr(to)
                ),
            ))
        }
        _ => converted(&[fill], to).map(|()| to),
    }
}

/// How NumPy (`rules`) types `op`, in words.
pub(super) fn describe(op: ArrayOp, rules: Rules) -> String {
    if rules == Rules::Numpy1 {
        if let Some(text) = describe_numpy1(op) {
            return format!("np.{op}: {text}");
        }
    }
    let text = match op {
        ArrayOp::Sum | ArrayOp::Prod => {
            "bool and NumPy's integers accumulate in int64 (unsigned: uint64), every other type \
             in itself (ml_dtypes' integers too); dtype= is the result wherever NumPy has a \
             cast to it; initial= is converted to the result's type and changes no type (a \
             Python int out of its bounds, or a complex for a real type, is an error)"
        }
        ArrayOp::CumSum | ArrayOp::CumProd => {
            "bool and NumPy's integers accumulate in int64 (unsigned: uint64), every other type \
             in itself (ml_dtypes' integers too); dtype= is the result wherever NumPy has a \
             cast to it"
        }
        ArrayOp::Mean => {
            "bool and NumPy's integers divide in float64, every other type in itself; dtype= \
             is the result wherever NumPy has a cast to it"
        }
        ArrayOp::Var | ArrayOp::Std => {
            "bool and NumPy's integers in float64, a complex type's real part, every other \
             type itself; dtype= is the result wherever NumPy has a cast to it"
        }
        ArrayOp::Max | ArrayOp::Min => {
            "np.maximum's loop for the type (ml_dtypes' integers take int8's); initial= is \
             converted to it and changes no type (np.max(int8, initial=300) is an OverflowError)"
        }
        ArrayOp::ArgMax | ArrayOp::ArgMin => "int64, the index type",
        ArrayOp::Any | ArrayOp::All => "bool",
        ArrayOp::Matmul => {
            "a ufunc: np.result_type, then the first loop it casts to safely; with an ml_dtypes \
             operand the legacy search among NumPy's own loops (bfloat16 @ bfloat16 is \
             float32); dtype= is the loop, each input cast to it under same_kind"
        }
        ArrayOp::Dot | ArrayOp::Tensordot => {
            "np.result_type of the two, computed by the type's own dot (bfloat16 stays \
             bfloat16); no dtype="
        }
        ArrayOp::Einsum => {
            "np.result_type of the operands, or dtype= with each operand cast to it safely; \
             NumPy's own types only"
        }
        ArrayOp::Where | ArrayOp::Concatenate | ArrayOp::Stack => {
            "np.result_type of the values (Python scalars weak, ints converted to it)"
        }
        ArrayOp::Clip => {
            "a ufunc over the array and both bounds (both required), typed as matmul is: \
             promotion, or the legacy loop search with an ml_dtypes operand"
        }
        ArrayOp::FullLike => {
            "the array's type or dtype=; the fill value is cast to it unsafely (a Python int \
             must fit NumPy's integer types)"
        }
    };
    format!("np.{op}: {text}")
}

/// Where NumPy 1.26 types `op` otherwise than NumPy 2, in words; NumPy
/// 1.26 has no ml_dtypes.
fn describe_numpy1(op: ArrayOp) -> Option<&'static str> {
    Some(match op {
        ArrayOp::Sum | ArrayOp::Prod => {
            "bool and the integers accumulate in int64 (unsigned: uint64), every other type in \
             itself; dtype= is the result; initial= changes no type: int() of it is read as a \
             C long and wrapped into an integer type (a complex for a real type, or a float \
             past a C long, is an error)"
        }
        ArrayOp::Max | ArrayOp::Min => {
            "np.maximum's loop for the type; initial= changes no type: int() of it is read as \
             a C long and wrapped into an integer type (a complex for a real type is an error)"
        }
        ArrayOp::Where => {
            "np.result_type of the two values, NumPy 1's: a Python scalar by its value where \
             its kind is no higher than the array's (np.where(c, int8, 300) is int16)"
        }
        ArrayOp::Concatenate | ArrayOp::Stack => "np.result_type of the arrays",
        ArrayOp::Clip => {
            "the clip ufunc over the array and both bounds (both required): NumPy 1's \
             np.result_type of the three, Python scalars by their value (clip(uint8, -1, 3) is \
             int16), then the first loop it casts to safely"
        }
        ArrayOp::FullLike => {
            "the array's type or dtype=; the fill value is cast to it unsafely (a Python int \
             wraps)"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each checked against NumPy 2.5.5 with ml_dtypes 0.6.0 (and in
    // array_ops_numpy.jsonl).

    #[test]
    fn a_reduction_to_a_type_without_a_cast_has_no_loop() {
        let sum = ArrayCall::new(ArrayOp::Sum)
            .with_dtype(DType::BFloat16)
            .unwrap();
        let int4 = Operand::array(DType::Int4, false);
        let err = array_op(sum, &[int4], Rules::Numpy2).unwrap_err();
        assert_eq!(
            err.to_string(),
            "No loop matching the specified signature and casting was found for ufunc add"
        );
    }

    #[test]
    fn initial_is_converted_to_the_reductions_type() {
        let int8 = Operand::array(DType::Int8, false);
        let with = |op, value| ArrayCall::new(op).with_initial(value).unwrap();
        let sum = array_op(
            with(ArrayOp::Sum, Operand::py_int(300)),
            &[int8],
            Rules::Numpy2,
        )
        .unwrap();
        assert_eq!(sum.result().dtype, DType::Int64);
        let err = array_op(
            with(ArrayOp::Max, Operand::py_int(300)),
            &[int8],
            Rules::Numpy2,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "Python integer 300 out of bounds for int8");
        let err = array_op(
            with(ArrayOp::Min, Operand::py_float(f64::NAN)),
            &[int8],
            Rules::Numpy2,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "cannot convert float NaN to integer");
    }

    #[test]
    fn clip_wants_both_bounds_and_converts_python_ints_to_its_loop() {
        let clip = ArrayCall::new(ArrayOp::Clip);
        let uint1 = Operand::array(DType::UInt1, false);
        let err = array_op(
            clip,
            &[uint1, Operand::py_int(300), Operand::py_int(3)],
            Rules::Numpy2,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "Python integer 300 out of bounds for int8");
        assert!(array_op(clip, &[uint1, Operand::py_int(2)], Rules::Numpy2).is_err());
    }
}
