//! `jax.lax`'s reductions, contractions and combinations: no promotion,
//! no `dtype=` but `dot`'s `preferred_element_type` and `full_like`'s.
//!
//! Each operation is the `lax` function of [`FUNCTIONS`]; `mean`, `var`,
//! `std`, `matmul` and `einsum` have none (`jax.numpy` composes them), so
//! the policy answers `None` for them. A reduction keeps its operand's
//! type (`argmax` answers the default integer), and refuses the classes
//! its primitive does not take; `select`, `clamp`, `concatenate` and
//! `stack` take operands of one dtype; `dot` and `dot_general` follow
//! [`dot_general`](super::super::array_ops) as `jax.numpy`'s contractions
//! reach it, with the wider operand's type where no
//! `preferred_element_type` is given. `full_like` takes a scalar fill
//! value (`lax.full` refuses an array's shape).
//!
//! ```
//! use dtype_lattice::frameworks::jax::lax::JaxLax;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let lax = JaxLax::default();
//! let (a, b) = (Operand::dtype(DType::Int8), Operand::dtype(DType::Float16));
//! let dot = lax.array_op(&ArrayCall::new(ArrayOp::Dot), &[a, b]).unwrap().unwrap();
//! assert_eq!(dot.result().dtype, DType::Float16); // no promotion: dot_general's wider operand
//! assert!(lax.array_op(&ArrayCall::new(ArrayOp::Mean), &[a]).is_none());
//! let fill = lax.array_op(&ArrayCall::new(ArrayOp::FullLike), &[a, b]).unwrap();
//! assert!(fill.unwrap_err().to_string().contains("scalar fill_value"));
//! ```

use super::super::array_ops::{argmax_compares, dot_general, full_like, user_dtype};
use super::{primitives, JaxLax};
use crate::frameworks::common::array_ops::counted;
use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Operand, OperandKind, Outcome, PromotionError, PyScalar,
    Typed,
};

/// The `lax` function of each operation that has one.
pub(super) const FUNCTIONS: &[(ArrayOp, &str)] = &[
    (ArrayOp::Sum, "reduce_sum"),
    (ArrayOp::Prod, "reduce_prod"),
    (ArrayOp::CumSum, "cumsum"),
    (ArrayOp::CumProd, "cumprod"),
    (ArrayOp::Max, "reduce_max"),
    (ArrayOp::Min, "reduce_min"),
    (ArrayOp::ArgMax, "argmax"),
    (ArrayOp::ArgMin, "argmin"),
    (ArrayOp::Any, "reduce_or"),
    (ArrayOp::All, "reduce_and"),
    (ArrayOp::Dot, "dot"),
    (ArrayOp::Tensordot, "dot_general"),
    (ArrayOp::Where, "select"),
    (ArrayOp::Clip, "clamp"),
    (ArrayOp::Concatenate, "concatenate"),
    (ArrayOp::Stack, "stack"),
    (ArrayOp::FullLike, "full_like"),
];

/// The `lax` function's name, if `op` has one.
pub(super) fn function(op: ArrayOp) -> Option<&'static str> {
    FUNCTIONS.iter().find(|(o, _)| *o == op).map(|(_, f)| *f)
}

/// `lax.<function>(*operands)`; `None` where `lax` has no function.
pub(super) fn array_op(
    lax: &JaxLax,
    call: ArrayCall,
    operands: &[Operand],
) -> Option<Result<Outcome, PromotionError>> {
    let name = function(call.op())?;
    Some(answer(lax, name, call, operands))
}

fn answer(
    lax: &JaxLax,
    name: &str,
    call: ArrayCall,
    operands: &[Operand],
) -> Result<Outcome, PromotionError> {
    let op = call.op();
    let operands = counted(call, operands)?;
    let takes_dtype = matches!(op, ArrayOp::Dot | ArrayOp::Tensordot | ArrayOp::FullLike);
    let unexpected = match (call.dtype(), call.promote_integers()) {
        (Some(_), _) if !takes_dtype => Some("dtype"),
        (_, Some(_)) => Some("promote_integers"),
        _ => None,
    };
    if let Some(keyword) = unexpected {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!("{name}() got an unexpected keyword argument '{keyword}'"),
        ));
    }
    if op == ArrayOp::Clip && operands.len() == 2 {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            "clamp() missing 1 required positional argument: 'max'",
        ));
    }
    let mut arrays = Vec::with_capacity(operands.len());
    for (position, operand) in operands.iter().enumerate() {
        arrays.push(lax.array(name, operand, position)?);
    }
    let dtype = call.dtype().map(|d| user_dtype(&lax.jax, d)).transpose()?;
    let default_int = lax.jax.default_dtype(PyScalar::Int);
    let input = arrays[0].dtype;
    let reduced = |result: DType| Outcome::new(Typed::strong(result), Some(input));
    match op {
        ArrayOp::Sum | ArrayOp::Prod | ArrayOp::CumSum | ArrayOp::CumProd => {
            // Their dtype rule names the class `number` as such.
            if !primitives::takes(primitives::NUMBER, input) {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "{name} does not accept dtype {input}. Accepted dtypes are subtypes of \
                         number."
                    ),
                ));
            }
            Ok(reduced(input))
        }
        ArrayOp::Max | ArrayOp::Min => Ok(reduced(input)),
        ArrayOp::ArgMax | ArrayOp::ArgMin => {
            argmax_compares(op, input)?;
            Ok(reduced(default_int))
        }
        // The logical reductions take bool and the integers of a byte or
        // more.
        ArrayOp::Any | ArrayOp::All => {
            if input != DType::Bool && (!input.is_integer() || input.is_sub_byte_integer()) {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!("logical reduction requires operand dtype bool or int, got {input}."),
                ));
            }
            Ok(reduced(input))
        }
        ArrayOp::Dot | ArrayOp::Tensordot => {
            let winner = dot_general(input, arrays[1].dtype, dtype)?;
            Ok(Outcome::new(Typed::strong(winner), Some(winner)))
        }
        ArrayOp::FullLike => {
            // `lax.full` takes a scalar: an array fill value is refused for
            // its shape whatever the dtypes (`jnp.full_like` broadcasts it).
            if matches!(
                operands[1].kind(),
                OperandKind::DType(_) | OperandKind::Array { .. }
            ) {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    "full must be called with scalar fill_value, got fill_value.shape (...).",
                ));
            }
            full_like(input, operands[1], dtype).map(Outcome::of)
        }
        // `select_n(pred, on_false, on_true)` names the cases in that order.
        ArrayOp::Where => same(name, Some("where"), &[arrays[2], arrays[1]]),
        ArrayOp::Clip => same(name, None, &[arrays[1], arrays[0], arrays[2]]),
        ArrayOp::Concatenate => same(name, Some("concatenate"), &arrays),
        _ => same(name, None, &arrays),
    }
}

/// The operands' one dtype, weak where every one is; or `lax`'s refusal,
/// naming them in `arrays`' order and the `jax.numpy` function that
/// promotes (`tip`).
fn same(name: &str, tip: Option<&str>, arrays: &[Typed]) -> Result<Outcome, PromotionError> {
    let first = arrays[0].dtype;
    if arrays.iter().all(|a| a.dtype == first) {
        return Ok(Outcome::of(Typed {
            dtype: first,
            weak: arrays.iter().all(|a| a.weak),
        }));
    }
    let names: Vec<String> = arrays.iter().map(|a| a.dtype.to_string()).collect();
    let tip = tip.map_or(String::new(), |f| {
        format!(
            " (Tip: jnp.{f} is a similar function that does automatic type promotion on inputs)."
        )
    });
    Err(PromotionError::framework(
        ErrorKind::Type,
        format!(
            "lax.{name} requires arguments to have the same dtypes, got {}.{tip}",
            names.join(", ")
        ),
    ))
}

/// `op` in words; `None` where `lax` has no function for it.
pub(super) fn describe(op: ArrayOp) -> Option<String> {
    let name = function(op)?;
    let rule = match op {
        ArrayOp::Sum | ArrayOp::Prod | ArrayOp::CumSum | ArrayOp::CumProd => {
            "the operand's type, a number (bool refused); no dtype="
        }
        ArrayOp::Max | ArrayOp::Min => "the operand's type",
        ArrayOp::ArgMax | ArrayOp::ArgMin => {
            "index_dtype int: the default integer (complex refused)"
        }
        ArrayOp::Any | ArrayOp::All => {
            "the operand's type: bool or an integer of a byte or more (a bitwise reduction)"
        }
        ArrayOp::Dot | ArrayOp::Tensordot => {
            "preferred_element_type (dtype=) if given, else the operand greater in (complex, \
             exponent, mantissa, width, signed); two different types alike in all of these are \
             refused, and so is an accumulator narrower than a non-float operand"
        }
        ArrayOp::FullLike => {
            "dtype= or the array's type; the fill value, a scalar (an array is refused for its \
             shape), converted to it"
        }
        _ => "operands of one dtype (a Python scalar a weak array of its default dtype)",
    };
    Some(format!("lax.{name}: {rule}"))
}
