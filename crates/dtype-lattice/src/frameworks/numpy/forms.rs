//! NumPy's operators, in-place operators and assignment: an `ndarray`'s
//! operators call the ufuncs ([`Arrays`]), `a OP= b` runs the ufunc with
//! `out=a` under `same_kind` casting, and `a[...] = v` casts the value as
//! NumPy converts one element. NumPy 1.26 does the same around its own
//! ufuncs (value-based), so each function takes the ufuncs it wraps.

use super::array_ops::int_of_float;
use super::{array_dtype, casts, check_python_int, ops, read_as_c_long, user_loops};
use crate::frameworks::common::Arrays;
use crate::frameworks::python::{self, Number};
use crate::prelude::*;
use crate::types::{
    DType, ErrorKind, Kind, Op, OpForm, Operand, OperandKind, PromotionError, Typed,
};

/// A ufunc call's result type.
pub(super) type Ufunc = fn(Op, &[Operand]) -> Result<Typed, PromotionError>;

/// A NumPy's ufuncs as its operators call them: NumPy 2's ([`NUMPY2`]) or
/// NumPy 1's.
#[derive(Clone, Copy)]
pub(super) struct Ufuncs {
    /// `a OP b` once Python has handed it to the array.
    pub(super) call: Ufunc,
    /// The type of the loop `call` picks for a negative integer power,
    /// which the loop then refuses (`a **= -1` checks the cast first).
    pub(super) power_loop: Ufunc,
}

/// NumPy 2's ufuncs, whose loop a Python int's value does not choose.
pub(super) const NUMPY2: Ufuncs = Ufuncs {
    call: ops::operation,
    power_loop: |op, operands| match *operands {
        [a, _] => ops::operation(op, &[a, Operand::py_int(1)]),
        _ => ops::operation(op, operands),
    },
};

/// `op` in `form`: the operator, reflected or in-place one, around the
/// ufuncs `ufuncs`.
pub(super) fn operation_as(
    op: Op,
    form: OpForm,
    operands: &[Operand],
    ufuncs: Ufuncs,
) -> Option<Result<Typed, PromotionError>> {
    let arrays = Arrays {
        array: "array",
        function: |op, operands: &[Operand]| Some(operator(op, operands, ufuncs.call)),
        inplace: |op, a, b| Some(inplace(op, a, b, ufuncs)),
    };
    arrays.answer(op, form, operands)
}

/// `ndarray.__op__`: the ufunc, but for `a ** 2`, which NumPy computes as
/// `np.square(a)` (its fast path for a Python int 2): `square` has no
/// boolean loop, so a boolean array's square is `int8`, not `power`'s
/// `int64`.
fn operator(op: Op, operands: &[Operand], ufunc: Ufunc) -> Result<Typed, PromotionError> {
    match operands {
        [a, b] if squares(op, *a, *b) => Ok(Typed::strong(DType::Int8)),
        _ => ufunc(op, operands),
    }
}

fn squares(op: Op, a: Operand, b: Operand) -> bool {
    op == Op::Power
        && array_dtype(&a) == Some(DType::Bool)
        && matches!(b.kind(), OperandKind::PyInt(2))
}

/// `a OP= b`: the ufunc with `out=a`, its result cast back to `a`'s dtype
/// under `same_kind` casting, which NumPy checks before the loop runs (so
/// `bool **= -1` is refused for its cast, not its negative power).
fn inplace(op: Op, a: Operand, b: Operand, ufuncs: Ufuncs) -> Result<Typed, PromotionError> {
    let computed = operator(op, &[a, b], ufuncs.call);
    let Some(to) = array_dtype(&a) else {
        return computed;
    };
    let negative_power = op == Op::Power && matches!(b.kind(), OperandKind::PyInt(v) if v < 0);
    let loop_result = match &computed {
        // The loop NumPy chose, before the loop refused the value.
        Err(_) if negative_power => (ufuncs.power_loop)(op, &[a, b]),
        other => other.clone(),
    };
    let result = loop_result?;
    if !same_kind(result.dtype, to) {
        let name = if squares(op, a, b) {
            "square"
        } else {
            ops::ufunc_name(op)
        };
        return Err(PromotionError::framework(
            ErrorKind::UFuncType,
            format!(
                "Cannot cast ufunc '{name}' output from {} to {} with casting rule \
                 'same_kind'",
                dtype_repr(result.dtype),
                dtype_repr(to)
            ),
        ));
    }
    computed.map(|_| Typed::strong(to))
}

/// `np.can_cast(from, to, casting="same_kind")`: a safe cast, or a cast
/// (where there is one at all) to
/// a kind no lower in NumPy's order of `dtype.kind`: bool, unsigned,
/// signed, float, complex, then the `'V'` that ml_dtypes gives all its
/// types but `float8_e5m2` (so any of NumPy's dtypes casts to `bfloat16`
/// or `int4` under `same_kind`, and neither casts back but safely).
pub(super) fn same_kind(from: DType, to: DType) -> bool {
    let order = |dtype: DType| match dtype.numpy_kind() {
        'b' => 0,
        'u' => 1,
        'i' => 2,
        'f' => 4,
        'c' => 5,
        _ => 8,
    };
    casts::can_cast_safely(from, to) || casts::has_cast(from, to) && order(from) <= order(to)
}

/// A dtype's `repr`, as NumPy's messages print it: `dtype('int8')`, and
/// ml_dtypes' `dtype(bfloat16)`.
pub(super) fn dtype_repr(dtype: DType) -> String {
    if dtype.is_ml_dtypes() {
        format!("dtype({dtype})")
    } else {
        format!("dtype('{dtype}')")
    }
}

/// How a Python number is stored into an integer array.
#[derive(Clone, Copy)]
pub(super) enum IntConversion {
    /// NumPy 2: a Python int must be within the type's bounds.
    Checked,
    /// NumPy 1: `int()` of the number, read as a C `long`, wraps into the
    /// type (`int8_array[...] = 300` stores 44; `1e300` is too large for
    /// a `long`).
    Wrapping,
}

/// `target[...] = value`: an array's values are cast whatever their dtype;
/// a Python number is converted as `ints` says, and a complex number has
/// no integer or float value.
pub(super) fn assign(
    target: Operand,
    value: Operand,
    ints: IntConversion,
) -> Result<Typed, PromotionError> {
    let Some(dtype) = array_dtype(&target) else {
        return Err(python::no_item_assignment(Number::of(target.kind())));
    };
    if let Some(from) = array_dtype(&value).filter(|&from| !casts::has_cast(from, dtype)) {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "Cannot cast {} from {} to {} according to the rule 'unsafe'",
                match value.kind() {
                    OperandKind::ZeroDim(_) => "scalar",
                    _ => "array data",
                },
                dtype_repr(from),
                dtype_repr(dtype)
            ),
        ));
    }
    if dtype.is_ml_dtypes() {
        user_loops::set_item(dtype, value.kind())?;
        return Ok(Typed::strong(dtype));
    }
    match value.kind() {
        OperandKind::PyInt(value) if dtype.is_integer() => match ints {
            IntConversion::Checked => check_python_int(value, dtype)?,
            IntConversion::Wrapping => read_as_c_long(value, dtype)?,
        },
        OperandKind::PyFloat(value) if dtype.is_integer() => {
            if let IntConversion::Wrapping = ints {
                read_as_c_long(int_of_float(value)?, dtype)?;
            }
        }
        OperandKind::PyComplex { .. } if dtype.is_integer() => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                "int() argument must be a string, a bytes-like object or a real number, not \
                 'complex'",
            ))
        }
        OperandKind::PyComplex { .. } if dtype.kind() == Kind::Float => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                "float() argument must be a string or a real number, not 'complex'",
            ))
        }
        _ => {}
    }
    Ok(Typed::strong(dtype))
}
