//! JAX's operators, in-place operators and assignment: an `Array`'s
//! operators call the `jax.numpy` functions ([`Arrays`]), `a OP= b` rebinds
//! `a` to `a OP b` and `a[...] = v` is refused, JAX's arrays being
//! immutable.

use super::{ops, promotion, Jax};
use crate::frameworks::common::Arrays;
use crate::frameworks::python::{self, Number};
use crate::types::{ErrorKind, Op, OpForm, Operand, PromotionError, Typed};

/// JAX's `TypeError` for `x[...] = v`.
const IMMUTABLE: &str = "JAX arrays are immutable and do not support in-place item assignment. \
     Instead of x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: \
     https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html";

/// `op` in `form`: the operator, reflected or in-place one.
pub(super) fn operation_as(
    jax: &Jax,
    op: Op,
    form: OpForm,
    operands: &[Operand],
) -> Option<Result<Typed, PromotionError>> {
    let function = |op, operands: &[Operand]| Some(Jax::operation(jax, op, operands));
    let arrays = Arrays {
        array: "array",
        function,
        inplace: |op, a, b| function(op, &[a, b]),
    };
    arrays.answer(op, form, operands)
}

/// `x[...] = v`: a dtype JAX lacks first, then JAX's refusal (Python's
/// own where `x` is a Python number).
pub(super) fn assign(jax: &Jax, target: Operand, value: Operand) -> PromotionError {
    if let Some(dtype) = [target, value]
        .iter()
        .find_map(|o| ops::lacked_dtype(jax, o))
    {
        return promotion::lacks(dtype);
    }
    match Number::of(target.kind()) {
        Some(number) => python::no_item_assignment(Some(number)),
        None => PromotionError::framework(ErrorKind::Type, IMMUTABLE),
    }
}
