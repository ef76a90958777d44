//! MLX's operators, in-place operators and assignment (`mx.array`'s
//! nanobind methods in `python/src/array.cpp`), measured on MLX 0.32.4.
//!
//! An arithmetic or comparison operator is its function (`x + 2` is
//! `mx.add(x, 2)`, `2 + x` `x.__radd__(2)`, `2 < x` `x.__gt__(2)`); the
//! bitwise ones refuse an inexact dtype on either side before the function
//! runs (`ValueError: Floating point types not allowed with bitwise and.`),
//! and an array has no `__rand__`, `__ror__` or `__rxor__`, so `2 & x` is
//! Python's `TypeError`. `x OP= b` rebinds `x` to `x OP b` (`int8 += 2.5`
//! is `float32`), but `x /= b` refuses an `x` that is neither float nor
//! complex. `x[...] = v` replaces `x` by `v`: `x` takes an array's dtype,
//! or a Python number's made beside `x`. `None` is nanobind's `TypeError`
//! of the method.

use super::{array_dtype, is_floating, ops, scalar_array};
use crate::frameworks::common::operators::{
    mirror, python_operator, python_reflected, python_unary,
};
use crate::frameworks::python::{self, Number};
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, Op, OpForm, Operand, PromotionError, Typed};

/// `op` in `form`: the operator, reflected or in-place one.
pub(super) fn operation_as(
    op: Op,
    form: OpForm,
    operands: &[Operand],
) -> Option<Result<Typed, PromotionError>> {
    let operator = op.operator()?;
    let arguments: Vec<Operand> = operands.iter().map(|o| o.as_argument()).collect();
    Some(match (form, &arguments[..]) {
        (OpForm::Operator, &[a]) => match python_unary("array", op, a) {
            Some(answer) => answer?,
            // `-None`: Python's own refusal.
            None if a.is_none() => Err(python::unary(op, None)?.err()?),
            None => ops::operation(op, &[a]),
        },
        (OpForm::Operator, &[a, b]) => {
            if let Some(answer) = python_operator("array", op, a, b) {
                return answer;
            }
            match array_dtype(&a) {
                Err(err) => Err(err),
                Ok(Some(_)) => own(op, operator.method, a, b, Bitwise::Operator),
                // `2 + x`: `int.__add__` declines, `x.__radd__(2)` runs.
                Ok(None) => reflected(op, a, b, &OpForm::Operator),
            }
        }
        (OpForm::Reflected, &[a, b]) => {
            if let Some(answer) = python_reflected("array", op, a, b) {
                return answer;
            }
            reflected(op, a, b, &OpForm::Reflected)
        }
        (OpForm::InPlace, &[a, b]) => {
            if let Some(answer) = python_operator("array", op, a, b) {
                return answer;
            }
            match array_dtype(&a) {
                Err(err) => Err(err),
                Ok(Some(dtype)) => inplace(op, dtype, a, b),
                Ok(None) => reflected(op, a, b, &OpForm::InPlace),
            }
        }
        _ => return None,
    })
}

/// Which bitwise message a method gives (the in-place `^=` words it
/// without "with").
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bitwise {
    Operator,
    InPlace,
}

/// `a.method(b)` of the array `a`.
fn own(
    op: Op,
    method: &str,
    a: Operand,
    b: Operand,
    bitwise: Bitwise,
) -> Result<Typed, PromotionError> {
    let x = array_dtype(&a)?.expect("an array");
    array_dtype(&b)?;
    if b.is_none() {
        return Err(incompatible(method, op));
    }
    if let Some(name) = bitwise_name(op) {
        let y = scalar_array(&b, Some(x))?;
        if inexact(x) || inexact(y) {
            let with = if bitwise == Bitwise::InPlace && op == Op::BitwiseXor {
                ""
            } else {
                "with "
            };
            return Err(PromotionError::framework(
                ErrorKind::Value,
                format!("Floating point types not allowed {with}bitwise {name}."),
            ));
        }
    }
    ops::operation(op, &[a, b])
}

/// `b`'s reflected method of `a`, where `a` is no array (Python's fallback
/// for `a OP b`, or `a OP= b`) or the form asked for: MLX has none for the
/// bitwise operators.
fn reflected(op: Op, a: Operand, b: Operand, form: &OpForm) -> Result<Typed, PromotionError> {
    let operator = op.operator().expect("a binary operator");
    let method = operator.reflected.unwrap_or(operator.method);
    array_dtype(&a)?;
    if array_dtype(&b)?.is_none() {
        // No array at all: `None OP 2`, Python's own refusal.
        return Err(
            python::binary(op, Number::of(a.kind()), Number::of(b.kind()))
                .and_then(Result::err)
                .unwrap_or_else(|| python::unsupported(op, class(&a), class(&b))),
        );
    }
    if bitwise_name(op).is_some() {
        return Err(match form {
            OpForm::Reflected => PromotionError::framework(
                ErrorKind::Attribute,
                format!("type object 'array' has no attribute '{method}'"),
            ),
            OpForm::InPlace => augmented(op, class(&a)),
            _ => python::unsupported(op, class(&a), "mlx.core.array"),
        });
    }
    if a.is_none() {
        return Err(incompatible(method, op));
    }
    match mirror(op) {
        Some(mirrored) => ops::operation(mirrored, &[b, a]),
        None => ops::operation(op, &[a, b]),
    }
}

/// `a OP= b` of an array `a`: `a OP b`, but `/=` keeps to inexact arrays.
fn inplace(op: Op, dtype: DType, a: Operand, b: Operand) -> Result<Typed, PromotionError> {
    let method = op
        .operator()
        .and_then(|operator| operator.inplace)
        .expect("an operation with an in-place form");
    if b.is_none() {
        array_dtype(&b)?;
        return Err(incompatible(method, op));
    }
    if op == Op::TrueDivide && !inexact(dtype) {
        array_dtype(&b)?;
        return Err(PromotionError::framework(
            ErrorKind::Value,
            "In place division cannot cast to non-floating point type.",
        ));
    }
    own(op, method, a, b, Bitwise::InPlace)
}

/// `x[...] = v`: `x` replaced by `v`, a Python number made an array beside
/// `x`.
pub(super) fn assign(target: Operand, value: Operand) -> Result<Typed, PromotionError> {
    let (target, value) = (target.as_argument(), value.as_argument());
    let Some(dtype) = array_dtype(&target)? else {
        return Err(python::no_item_assignment(Number::of(target.kind())));
    };
    array_dtype(&value)?;
    if value.is_none() {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "__setitem__(): incompatible function arguments. The following argument types \
                 are supported:\n    1. __setitem__(self, arg0: object | None, arg1: {OTHER}, /) \
                 -> None\n\nInvoked with types: mlx.core.array, ellipsis, NoneType"
            ),
        ));
    }
    scalar_array(&value, Some(dtype)).map(Typed::strong)
}

/// The types nanobind lists for an operator's other operand.
const OTHER: &str =
    "bool | int | float | mlx.core.array | ndarray[writable=False] | complex | mlx.core.ArrayLike";

/// nanobind's `TypeError` for `None` as an operator's other operand.
fn incompatible(method: &str, op: Op) -> PromotionError {
    let returns = if matches!(op, Op::Equal | Op::NotEqual) {
        "mlx.core.array | bool"
    } else {
        "mlx.core.array"
    };
    PromotionError::framework(
        ErrorKind::Type,
        format!(
            "{method}(): incompatible function arguments. The following argument types are \
             supported:\n    1. {method}(self, other: {OTHER}) -> {returns}\n\nInvoked with \
             types: mlx.core.array, NoneType"
        ),
    )
}

/// Python's `TypeError` for `a &= b` where neither side has the method.
fn augmented(op: Op, left: &str) -> PromotionError {
    let symbol = python::symbol(op).unwrap_or("?");
    PromotionError::framework(
        ErrorKind::Type,
        format!("unsupported operand type(s) for {symbol}=: '{left}' and 'mlx.core.array'"),
    )
}

fn bitwise_name(op: Op) -> Option<&'static str> {
    match op {
        Op::BitwiseAnd => Some("and"),
        Op::BitwiseOr => Some("or"),
        Op::BitwiseXor => Some("xor"),
        _ => None,
    }
}

/// `issubdtype(dtype, inexact)`: the floats and complex64.
fn inexact(dtype: DType) -> bool {
    is_floating(dtype) || dtype.kind() == Kind::Complex
}

/// The class name Python prints for an operand.
fn class(operand: &Operand) -> &'static str {
    super::python_class(operand)
}
