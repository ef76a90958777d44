//! `jax.numpy`'s reductions, contractions and combinations: the result's
//! type and the type the reduction runs in.
//!
//! `jax/_src/numpy/reductions.py` decides a reduction's types before it
//! calls `lax`: a result type (the input's, `dtype=`, or the input made
//! inexact or widened), and a computation type, the result's except that
//! `float16` and `bfloat16` are summed in `float32` where no `dtype=` was
//! given ([`upcast_f16`]). Contractions (`tensor_contractions.py`,
//! `einsum.py`) take the operands' result type, or
//! `preferred_element_type`, and hand both operands unconverted to
//! `lax.dot_general`, whose own rule ([`dot_general`]) picks the wider
//! operand and refuses a narrower integer accumulator. `where`, `clip` and
//! `concatenate` promote as the elementwise functions do; `full_like`
//! takes the array's type or `dtype=` and converts the fill value to it.
//!
//! ```
//! use dtype_lattice::frameworks::jax::{Config, Jax};
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand};
//! let jax = Jax::default();
//! let half = Operand::array(DType::Float16, false);
//! let mean = jax.array_op(&ArrayCall::new(ArrayOp::Mean), &[half]).unwrap();
//! assert_eq!(mean.to_string(), "float16 (computes in float32)");
//! let int8 = Operand::array(DType::Int8, false);
//! let sum = jax.array_op(&ArrayCall::new(ArrayOp::Sum), &[int8]).unwrap();
//! assert_eq!(sum.result().dtype, DType::Int32); // the default integer with x64 off
//! ```

use super::lax::{self, NUMBER};
use super::ops::{argument_of, lacked_dtype, to_inexact};
use super::promotion::lacks;
use super::Jax;
use crate::frameworks::common::array_ops::counted;
use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Kind, Op, Operand, OperandKind, Outcome, PromotionError,
    PyScalar, Typed, MAX_SEQUENCE,
};

/// `jnp.<op>(*operands, dtype=..., promote_integers=...)`.
pub(super) fn array_op(
    jax: &Jax,
    call: ArrayCall,
    operands: &[Operand],
) -> Result<Outcome, PromotionError> {
    let op = call.op();
    let operands = counted(call, operands)?;
    if matches!(op, ArrayOp::CumSum | ArrayOp::CumProd) && call.promote_integers().is_some() {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!("{op}() got an unexpected keyword argument 'promote_integers'"),
        ));
    }
    // On the stack: `counted` bounds the operands by `MAX_SEQUENCE`, and
    // an answer allocates nothing.
    let mut read = [Operand::NONE; MAX_SEQUENCE];
    for (slot, &operand) in read.iter_mut().zip(operands) {
        *slot = argument_of(jax, operand);
    }
    let args = &read[..operands.len()];
    if let Some(position) = args.iter().position(|o| o.is_none()) {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "{op} requires ndarray or scalar arguments, got <class 'NoneType'> at position \
                 {position}."
            ),
        ));
    }
    if let Some(dtype) = args.iter().find_map(|o| lacked_dtype(jax, o)) {
        return Err(lacks(dtype));
    }
    let dtype = call.dtype().map(|d| user_dtype(jax, d)).transpose()?;
    let promote_integers = call.promote_integers().unwrap_or(true);
    match op {
        ArrayOp::Matmul | ArrayOp::Dot | ArrayOp::Tensordot | ArrayOp::Einsum => {
            contraction(jax, args[0], args[1], dtype)
        }
        ArrayOp::Where => Ok(Outcome::of(jax.result_type(&args[1..])?)),
        ArrayOp::Concatenate | ArrayOp::Stack => Ok(Outcome::of(jax.result_type(args)?)),
        ArrayOp::Clip => clip(jax, args).map(Outcome::of),
        ArrayOp::FullLike => {
            full_like(jax.dtype_and_weak_type(args[0]).dtype, args[1], dtype).map(Outcome::of)
        }
        _ => reduction(
            jax,
            op,
            jax.dtype_and_weak_type(args[0]).dtype,
            dtype,
            promote_integers,
        ),
    }
}

/// `dtypes.check_and_canonicalize_user_dtype`: a `dtype=` as JAX reads
/// it, 64 bits truncated with x64 off (or refused, or kept, as
/// `jax_explicit_x64_dtypes` says).
pub(super) fn user_dtype(jax: &Jax, dtype: DType) -> Result<DType, PromotionError> {
    if !super::lattice::is_jax_dtype(dtype) {
        return Err(lacks(dtype));
    }
    let read = jax.config.requested(dtype);
    if jax.config.refuses() && jax.canonicalize_dtype(dtype) != dtype {
        return Err(PromotionError::ExplicitX64Refused { dtype });
    }
    Ok(read)
}

/// `_upcast_f16`: the half-precision floats are summed in `float32`.
fn upcast_f16(dtype: DType) -> DType {
    match dtype {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        other => other,
    }
}

/// `_promote_integer_dtype`: `bool` and the integers narrower than the
/// default integer of their signedness widened to it. NumPy's `iinfo`,
/// which it asks for the width, knows no sub-byte integer.
fn promote_integer(jax: &Jax, dtype: DType) -> Result<DType, PromotionError> {
    let default = match dtype.kind() {
        Kind::Bool => return Ok(jax.default_dtype(PyScalar::Int)),
        Kind::Unsigned => jax.default_uint_dtype(),
        Kind::Signed => jax.default_dtype(PyScalar::Int),
        Kind::Float | Kind::Complex => return Ok(dtype),
    };
    if dtype.is_sub_byte_integer() {
        return Err(invalid_integer());
    }
    Ok(if dtype.bits() < default.bits() {
        default
    } else {
        dtype
    })
}

/// NumPy's `iinfo` of an `ml_dtypes` sub-byte integer.
fn invalid_integer() -> PromotionError {
    PromotionError::framework(ErrorKind::Value, "Invalid integer data type 'V'.")
}

/// A reduction's result (never weak: JAX casts it last) and the type its
/// `lax` reduction runs in.
fn reduced(result: DType, computes: DType) -> Outcome {
    Outcome::new(Typed::strong(result), Some(computes))
}

/// The reductions of an array of `input` (its dtype as JAX reads it).
fn reduction(
    jax: &Jax,
    op: ArrayOp,
    input: DType,
    dtype: Option<DType>,
    promote_integers: bool,
) -> Result<Outcome, PromotionError> {
    let default_int = jax.default_dtype(PyScalar::Int);
    match op {
        // `_cast_to_numeric` first: `bool` becomes `int32`, whatever x64
        // says (`promote_dtypes_numeric`).
        ArrayOp::Sum | ArrayOp::Prod => Ok(match dtype {
            Some(dtype) => reduced(dtype, dtype),
            None => {
                let numeric = if input == DType::Bool {
                    DType::Int32
                } else {
                    input
                };
                let result = if promote_integers {
                    promote_integer(jax, numeric)?
                } else {
                    numeric
                };
                reduced(result, upcast_f16(result))
            }
        }),
        // An explicit `bool` accumulates as the default integer: `lax`
        // has no cumulative sum of booleans.
        ArrayOp::CumSum | ArrayOp::CumProd => Ok(match dtype {
            Some(DType::Bool) => reduced(DType::Bool, promote_integer(jax, DType::Bool)?),
            Some(dtype) => reduced(dtype, dtype),
            None if input == DType::Bool => reduced(default_int, default_int),
            None => reduced(input, input),
        }),
        ArrayOp::Mean => {
            let (result, computes) = match dtype {
                Some(dtype) => (dtype, dtype),
                None => {
                    let result = jax.canonicalize_dtype(to_inexact(input));
                    (result, upcast_f16(result))
                }
            };
            divides(computes)?;
            Ok(reduced(result, computes))
        }
        ArrayOp::Var => var(jax, input, dtype),
        ArrayOp::Std => {
            if let Some(dtype) = dtype.filter(|d| !d.is_inexact()) {
                return Err(PromotionError::framework(
                    ErrorKind::Value,
                    format!("dtype argument to jnp.std must be inexact; got {dtype}"),
                ));
            }
            let var = var(jax, input, dtype)?;
            if !lax::takes(lax::INEXACT, var.result().dtype) {
                return Err(lax::refused("sqrt", lax::INEXACT, var.result().dtype, None));
            }
            Ok(var)
        }
        ArrayOp::Max | ArrayOp::Min => Ok(reduced(input, input)),
        ArrayOp::ArgMax | ArrayOp::ArgMin => {
            argmax_compares(op, input)?;
            Ok(reduced(default_int, input))
        }
        ArrayOp::Any | ArrayOp::All => Ok(reduced(DType::Bool, DType::Bool)),
        _ => unreachable!("{op} is no reduction"),
    }
}

/// `argmax` and `argmin` compare with `gt` and `lt`, which refuse
/// complex arrays; JAX traces the call (its shape and index type) and
/// raises when it lowers it, which is when a user's program sees it.
pub(super) fn argmax_compares(op: ArrayOp, input: DType) -> Result<(), PromotionError> {
    let compare = if op == ArrayOp::ArgMax { "gt" } else { "lt" };
    if lax::takes(lax::ORDERED, input) {
        Ok(())
    } else {
        Err(lax::refused(compare, lax::ORDERED, input, Some(0)))
    }
}

/// `mean` divides the sum by the count in the computation type, and
/// `lax.div` takes no booleans.
fn divides(computes: DType) -> Result<(), PromotionError> {
    if lax::takes(NUMBER, computes) {
        Ok(())
    } else {
        Err(lax::refused("div", NUMBER, computes, Some(0)))
    }
}

/// `jnp.var`: `_var_promote_types`, the mean and the sum of squares in
/// the computation type, then the result where the count is positive
/// else NaN: `_where` promotes the result with a Python float, so an
/// integer `dtype=` gives a weak float and a sub-byte one no result.
fn var(jax: &Jax, input: DType, dtype: Option<DType>) -> Result<Outcome, PromotionError> {
    let (result, computes) = match dtype {
        Some(dtype) => {
            if input.kind() == Kind::Complex && dtype.kind() != Kind::Complex {
                return Err(PromotionError::framework(
                    ErrorKind::Value,
                    "jax.numpy.var does not yet support real dtype parameters when computing the \
                     variance of an array of complex values. The semantics of numpy.var seem \
                     unclear in this case. Please comment on \
                     https://github.com/jax-ml/jax/issues/2283 if this behavior is important to \
                     you.",
                ));
            }
            (dtype, dtype)
        }
        None if !input.is_inexact() => {
            let inexact = jax.canonicalize_dtype(to_inexact(input));
            (inexact, inexact)
        }
        None => (input.real_part(), input),
    };
    let computes = upcast_f16(computes);
    divides(computes)?;
    let nan = Operand::py_float(f64::NAN);
    let result = jax.result_type(&[Operand::array(result, false), nan])?;
    Ok(Outcome::new(result, Some(computes)))
}

/// The contractions: the operands' result type, or
/// `preferred_element_type`, as `lax.dot_general`'s accumulator, which is
/// the result's type.
fn contraction(
    jax: &Jax,
    a: Operand,
    b: Operand,
    preferred: Option<DType>,
) -> Result<Outcome, PromotionError> {
    let result = match preferred {
        Some(dtype) => Typed::strong(dtype),
        None => jax.result_type(&[a, b])?,
    };
    dot_general(
        jax.dtype_and_weak_type(a).dtype,
        jax.dtype_and_weak_type(b).dtype,
        Some(result.dtype),
    )?;
    Ok(Outcome::new(result, Some(result.dtype)))
}

/// `lax.dot_general`'s dtype rule (XLA's `HigherPrecisionType`, then
/// `MaybeUpcast`): the operand with the greater (complex, `maxexp`,
/// `nmant`, width, signed) wins, two different types alike in all of
/// these are refused, and a non-float winner refuses a narrower
/// `preferred_element_type`. The result is the preferred type, else the
/// winner.
pub(super) fn dot_general(
    lhs: DType,
    rhs: DType,
    preferred: Option<DType>,
) -> Result<DType, PromotionError> {
    let winner = match properties(lhs).cmp(&properties(rhs)) {
        core::cmp::Ordering::Greater => lhs,
        core::cmp::Ordering::Less => rhs,
        core::cmp::Ordering::Equal if lhs == rhs => lhs,
        core::cmp::Ordering::Equal => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!("lax.dot_general argument type error: {lhs}, {rhs}"),
            ))
        }
    };
    let Some(preferred) = preferred else {
        return Ok(winner);
    };
    if winner != preferred && winner.kind() != Kind::Float && width(preferred) < width(winner) {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "`preferred_element_type` must not be narrower than the original type, got \
                 preferred_element_type of {preferred} for result type of {winner}."
            ),
        ));
    }
    Ok(preferred)
}

/// `dot_general`'s `type_properties` of a dtype.
fn properties(dtype: DType) -> (bool, i32, i32, u32, bool) {
    let (maxexp, nmant) = dtype
        .finfo()
        .map_or((-1, -1), |info| (info.maxexp, info.nmant));
    (
        dtype.kind() == Kind::Complex,
        maxexp,
        nmant,
        width(dtype),
        dtype.kind() != Kind::Unsigned,
    )
}

/// `_bit_width`: a complex type's part's, `bool`'s one.
fn width(dtype: DType) -> u32 {
    dtype.real_part().bits()
}

/// `jnp.clip(x, lo[, hi])`: complex values refused, then
/// `maximum(lo, x)` and `minimum(hi, ...)`, which promote as
/// `jnp.maximum` does.
fn clip(jax: &Jax, args: &[Operand]) -> Result<Typed, PromotionError> {
    if args
        .iter()
        .any(|&o| jax.dtype_and_weak_type(o).dtype.kind() == Kind::Complex)
    {
        return Err(PromotionError::framework(
            ErrorKind::Value,
            "Clip received a complex value either through the input or the min/max keywords. \
             Complex values have no ordering and cannot be clipped. Please convert to a real \
             value or array by taking the real or imaginary components via jax.numpy.real/imag \
             respectively.",
        ));
    }
    let mut clipped = args[0];
    for &bound in &args[1..] {
        let typed = jax.operation(Op::Maximum, &[bound, clipped])?;
        clipped = Operand::array(typed.dtype, typed.weak);
    }
    Ok(jax.dtype_and_weak_type(clipped))
}

/// `jnp.full_like(a, fill, dtype)`: `dtype=` or the array's type, never
/// weak; the fill value is converted to it by Python's `int()` or
/// `float()`, which refuse a complex number (`ml_dtypes`' types in words
/// of their own); `bool()` and a complex type take one.
/// `lax.full_like` alike.
pub(super) fn full_like(
    array: DType,
    fill: Operand,
    dtype: Option<DType>,
) -> Result<Typed, PromotionError> {
    let dtype = dtype.unwrap_or(array);
    if matches!(fill.kind(), OperandKind::PyComplex { .. }) {
        let refusal = match dtype.kind() {
            Kind::Bool | Kind::Complex => None,
            _ if dtype.is_ml_dtypes() => Some("expected number, got complex"),
            Kind::Signed | Kind::Unsigned => Some(
                "int() argument must be a string, a bytes-like object or a real number, not \
                 'complex'",
            ),
            Kind::Float => {
                Some("float() argument must be a string or a real number, not 'complex'")
            }
        };
        if let Some(message) = refusal {
            return Err(PromotionError::framework(ErrorKind::Type, message));
        }
    }
    Ok(Typed::strong(dtype))
}

/// `op` in words, for `explain`.
pub(super) fn describe(op: ArrayOp) -> String {
    let rule = match op {
        ArrayOp::Sum | ArrayOp::Prod => {
            "bool is made int32 (whatever x64 says); then dtype= if given, else the input's type \
             with promote_integers=True (the default) widening integers narrower than the \
             default integer of their signedness (sub-byte integers refused: NumPy's iinfo \
             knows none); float16 and bfloat16 are summed in float32 where no dtype= is given"
        }
        ArrayOp::CumSum | ArrayOp::CumProd => {
            "dtype= if given (bool accumulated in the default integer), else the input's type, \
             bool made the default integer; no promote_integers keyword"
        }
        ArrayOp::Mean => {
            "dtype= if given, else the input made inexact (integers of up to 32 bits float32, \
             1- and 2-bit integers stay); float16 and bfloat16 summed in float32 where no \
             dtype= is given; lax.div refuses a bool computation"
        }
        ArrayOp::Var | ArrayOp::Std => {
            "computed in dtype= (complex input takes only a complex one) or the input (made \
             inexact), float16 and bfloat16 in float32; the result is dtype=, or the input's \
             real part, promoted with a Python float (NaN where the count is not positive), so \
             an integer dtype= gives a weak float; std takes only an inexact dtype="
        }
        ArrayOp::Max | ArrayOp::Min => "the input's type",
        ArrayOp::ArgMax | ArrayOp::ArgMin => {
            "the default integer, comparing in the input's type (complex refused)"
        }
        ArrayOp::Any | ArrayOp::All => "bool: the input is made bool first",
        ArrayOp::Matmul | ArrayOp::Dot | ArrayOp::Tensordot | ArrayOp::Einsum => {
            "preferred_element_type (dtype=) if given, else the operands' result type; \
             lax.dot_general accumulates in it and refuses one narrower than the wider non-float \
             operand, and two different operand types alike in kind, exponent, mantissa, width \
             and sign"
        }
        ArrayOp::Where => "the result type of the two values (the condition made bool)",
        ArrayOp::Clip => {
            "complex values refused; then jnp.maximum(lo, x) and jnp.minimum(hi, ...), each \
             promoting as the elementwise functions do"
        }
        ArrayOp::Concatenate | ArrayOp::Stack => "the result type of the arrays",
        ArrayOp::FullLike => {
            "dtype= if given, else the array's type, never weak; the fill value converted to it \
             (a complex one only to bool or complex)"
        }
    };
    format!("jnp.{op}: {rule}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::jax::{Config, ExplicitX64};
    use crate::Policy;

    fn sum_as(explicit_x64: ExplicitX64, dtype: DType) -> Result<Outcome, PromotionError> {
        let jax = Jax::new(Config {
            explicit_x64,
            ..Config::default()
        });
        let call = ArrayCall::new(ArrayOp::Sum).with_dtype(dtype).unwrap();
        jax.array_op(&call, &[Operand::array(DType::Int8, false)])
    }

    #[test]
    fn a_64_bit_dtype_with_x64_off_is_what_jax_explicit_x64_dtypes_says() {
        let truncated = sum_as(ExplicitX64::Warn, DType::Int64).unwrap();
        assert_eq!(truncated.result(), Typed::strong(DType::Int32));
        let kept = sum_as(ExplicitX64::Allow, DType::Int64).unwrap();
        assert_eq!(kept.result(), Typed::strong(DType::Int64));
        let refused = sum_as(ExplicitX64::Error, DType::Int64).unwrap_err();
        assert_eq!(refused.python_type(), "ValueError");
        assert_eq!(
            sum_as(ExplicitX64::Error, DType::Int16)
                .unwrap()
                .result()
                .dtype,
            DType::Int16
        );
    }

    #[test]
    fn dot_general_picks_the_wider_operand_and_refuses_a_narrower_integer_accumulator() {
        assert_eq!(
            dot_general(DType::Int8, DType::Float16, None),
            Ok(DType::Float16)
        );
        assert_eq!(
            dot_general(DType::Int8, DType::UInt8, None),
            Ok(DType::Int8)
        );
        let err = dot_general(DType::Int32, DType::Int32, Some(DType::Int8)).unwrap_err();
        assert!(err.to_string().contains("must not be narrower"), "{err}");
        let err = dot_general(DType::Float8E5M2, DType::Float8E5M2Fnuz, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "lax.dot_general argument type error: float8_e5m2, float8_e5m2fnuz"
        );
    }

    #[test]
    fn every_operation_is_described_and_answered() {
        let jax = Jax::default();
        let x = Operand::array(DType::Float32, false);
        for op in ArrayOp::ALL {
            assert!(jax.describe_array_op(op).is_some(), "{op}");
            let operands = vec![x; *op.operands().start()];
            assert!(
                Policy::array_op(&jax, &ArrayCall::new(op), &operands).is_some(),
                "{op}"
            );
        }
    }
}
