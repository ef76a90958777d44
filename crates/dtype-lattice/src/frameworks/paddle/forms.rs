//! PaddlePaddle's forms beside the Tensor operators it answers by default:
//! its functions (`paddle.add(x, y)` ...), the reflected methods, `x OP=
//! b` and `x[...] = v`, measured on PaddlePaddle 3.3.1 (CPU).
//!
//! On two tensors a function is its operator. A Python number is another
//! matter: most functions are C++ bindings that take tensors only
//! (`ValueError: (InvalidArgument) add(): argument 'y' (position 1) must be
//! Tensor, but got int`), while a few convert it in Python first, each its
//! own way: `paddle.pow` sends an int or float to the `pow` kernel of the
//! tensor's dtype, `paddle.equal` and `paddle.remainder` make it a tensor
//! of the tensor's dtype (`full`), `paddle.floor_divide` a tensor of its
//! own (`paddle.to_tensor`: `int64`, `float32`, `complex64`).
//!
//! A Tensor has no in-place operators, so `x OP= b` is `x = x OP b`.

use super::kernels::{self, Stop, POW, SET_VALUE, SET_VALUE_WITH_TENSOR};
use super::methods::{self, never_returns, not_a_tensor, pow_never_returns};
use super::ops::{self, binary_call, binary_rule, tensors, unary_call, unary_rule};
use super::promotion::Tensor;
use super::{form, Form, Paddle};
use crate::frameworks::common::operators::{mirror, python_reflected};
use crate::frameworks::python::{self, Number};
use crate::policy::Policy;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, Op, OpForm, Operand, PromotionError, Typed};

/// `op` in `form`, a form other than the operator.
pub(super) fn operation_as(
    paddle: &Paddle,
    op: Op,
    form_: OpForm,
    operands: &[Operand],
) -> Option<Result<Typed, PromotionError>> {
    let answer = match form_ {
        OpForm::Function => function(op, operands),
        OpForm::Reflected => reflected(op, operands),
        // No `__iadd__`: Python's `x = x + b`.
        OpForm::InPlace => return paddle.operation(op, operands),
        _ => return None,
    };
    Some(answer.map_err(Stop::error).map(Typed::strong))
}

/// The operands as Paddle reads them, as many as `op` takes.
fn read(op: Op, operands: &[Operand]) -> Result<Vec<Form>, Stop> {
    if operands.len() != op.arity() {
        return Err(Stop::Error(ops::arity(op, operands.len())));
    }
    Ok(operands.iter().map(form).collect::<Result<_, _>>()?)
}

/// `paddle.<function>(...)`.
fn function(op: Op, operands: &[Operand]) -> Result<DType, Stop> {
    let forms = read(op, operands)?;
    if let (Some(rule), &[x]) = (unary_rule(op), &forms[..]) {
        return match x {
            Form::Tensor(_) => unary_call(rule, x),
            other => Err(Stop::Error(not_a_tensor(rule.kernel.name, 0, other))),
        };
    }
    let (Some(rule), &[x, y]) = (binary_rule(op), &forms[..]) else {
        return Err(Stop::Error(ops::arity(op, operands.len())));
    };
    let name = rule.kernel.name;
    // What the Python wrapper makes of `y` before the C++ call.
    let y = match (op, y) {
        (Op::Power, Form::Number(Number::Complex { .. }) | Form::None) => {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "y must be scalar, Tensor(in dygraph mode), Value(in pir mode) but \
                     received: <class '{}'>",
                    class(y)
                ),
            )))
        }
        (Op::Power, Form::Number(number)) => return pow(x, number),
        (Op::Equal, Form::None) => {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::Type,
                "Type of input args must be float, bool, complex, int or Tensor, but received \
                 type <class 'NoneType'>",
            )))
        }
        (Op::Equal, Form::Number(Number::Complex { .. })) => zero_dim(DType::Complex64),
        (Op::Equal | Op::Remainder, Form::Number(number))
            if !matches!(number, Number::Complex { .. }) =>
        {
            // `paddle.full([], y, dtype=x.dtype)`.
            let Form::Tensor(x) = x else {
                return Err(Stop::Error(PromotionError::framework(
                    ErrorKind::Attribute,
                    format!("'{}' object has no attribute 'dtype'", class(x)),
                )));
            };
            zero_dim(kernels::FULL.run(x.dtype)?)
        }
        // `paddle.to_tensor(y)`.
        (Op::FloorDivide, Form::Number(number)) => zero_dim(match number {
            Number::Bool(_) => DType::Bool,
            Number::Int(_) => DType::Int64,
            Number::Float(_) => DType::Float32,
            Number::Complex { .. } => DType::Complex64,
        }),
        _ => y,
    };
    match (x, y) {
        (Form::Tensor(x), Form::Tensor(y)) => tensors(rule, x, y),
        (Form::Tensor(_), other) => Err(Stop::Error(not_a_tensor(name, 1, other))),
        (other, _) => Err(Stop::Error(not_a_tensor(name, 0, other))),
    }
}

/// `paddle.pow(x, y)` of a Python int, float or bool `y`: the `pow` kernel
/// of `x`'s own dtype.
fn pow(x: Form, exponent: Number) -> Result<DType, Stop> {
    let Form::Tensor(x) = x else {
        return Err(Stop::Error(not_a_tensor(POW.name, 0, x)));
    };
    let dtype = POW.run(x.dtype)?;
    match exponent {
        Number::Int(value) if pow_never_returns(dtype, value) => {
            Err(Stop::Error(never_returns(value, x.dtype, dtype)))
        }
        _ => Ok(dtype),
    }
}

fn zero_dim(dtype: DType) -> Form {
    Form::Tensor(Tensor {
        dtype,
        zero_dim: true,
    })
}

/// The class Python names for a value that is no tensor.
fn class(form: Form) -> &'static str {
    match form {
        Form::Number(number) => number.scalar().name(),
        Form::Tensor(_) => "Tensor",
        Form::None => "NoneType",
    }
}

/// `b.__rOP__(a)`: with a Python number `a`, what `a OP b` calls; with a
/// tensor, `__radd__`, `__rmul__` and the comparisons compute `b OP a`
/// (their mirror), the others `a OP b`; the bitwise ones make a Python int
/// a tensor and refuse anything else.
fn reflected(op: Op, operands: &[Operand]) -> Result<DType, Stop> {
    let operator = op.operator().expect("a binary operator");
    let method = operator.reflected.unwrap_or(operator.method);
    if let [a, b] = *operands {
        let (a, b) = (a.as_argument(), b.as_argument());
        if let Some(Some(answer)) = python_reflected("tensor", op, a, b) {
            return answer.map(|typed| typed.dtype).map_err(Stop::Error);
        }
    }
    let forms = read(op, operands)?;
    let (Some(rule), &[a, b]) = (binary_rule(op), &forms[..]) else {
        return Err(Stop::Error(ops::arity(op, operands.len())));
    };
    let Form::Tensor(b) = b else {
        return Err(Stop::Error(PromotionError::framework(
            ErrorKind::Attribute,
            format!("type object '{}' has no attribute '{method}'", class(b)),
        )));
    };
    match (op, a) {
        (Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor, a) => {
            let a = methods::reflected_bitwise(b, a)?;
            tensors(rule, a, b)
        }
        (_, Form::Tensor(a)) => match mirror(op) {
            Some(mirrored) => tensors(binary_rule(mirrored).unwrap_or(rule), b, a),
            None if matches!(op, Op::Add | Op::Multiply) => tensors(rule, b, a),
            None => tensors(rule, a, b),
        },
        (_, a) => binary_call(rule, a, Form::Tensor(b)),
    }
}

/// `target[...] = value`: the `set_value` kernel of the target's dtype (its
/// `set_value_with_tensor` for a tensor value), which casts the value; a
/// complex number into a real tensor other than `bool` ends the process.
pub(super) fn assign(target: Operand, value: Operand) -> Result<Typed, PromotionError> {
    let Form::Tensor(tensor) = form(&target)? else {
        return Err(python::no_item_assignment(Number::of(
            target.as_argument().kind(),
        )));
    };
    let dtype = tensor.dtype;
    let kernel = match form(&value)? {
        Form::Tensor(_) => &SET_VALUE_WITH_TENSOR,
        Form::Number(_) => &SET_VALUE,
        Form::None => {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                "(InvalidArgument) Value type error. The assign value allows Tensor, \
                 numpy.ndarray, integer, float, complex or bool, but received None. (at \
                 /paddle/paddle/fluid/pybind/slice_utils.h:999)\n",
            ))
        }
    };
    kernel.run(dtype).map_err(Stop::error)?;
    let complex_into_real = matches!(form(&value)?, Form::Number(Number::Complex { .. }))
        && dtype.kind() != Kind::Complex
        && dtype != DType::Bool;
    if complex_into_real {
        return Err(PromotionError::framework(
            ErrorKind::DoesNotReturn,
            format!(
                "x[...] = {value} with x a tensor of {dtype} ends the process in PaddlePaddle \
                 3.3.1: pybind11 cannot cast the complex number to the tensor's C++ type, and \
                 the uncaught cast_error aborts (SIGABRT)"
            ),
        ));
    }
    Ok(Typed::strong(dtype))
}
