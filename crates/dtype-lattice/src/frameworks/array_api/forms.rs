//! array-api-strict's operators, in-place operators and assignment: each
//! `Array.__op__` checks its own dtype's category, reads the other operand
//! (a Python scalar must suit the array, `_promote_scalar`; an array must
//! be of the category), promotes by the standard's table, and an in-place
//! operator refuses a result other than its own dtype; then NumPy computes
//! on the two arrays. `x[...] = v` refuses a value that does not promote to
//! the array's dtype.

use super::ops::{self, category_and_output, Category};
use super::{form, known, promote_scalar, ArrayApi, Form};
use crate::frameworks::common::operators::{
    mirror, python_operator, python_reflected, python_unary,
};
use crate::frameworks::numpy::ops::select_loop;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Op, OpForm, Operand, PromotionError, Typed};

/// Whose special method runs.
#[derive(Clone, Copy)]
enum Method {
    /// `a.__op__(b)`.
    Own,
    /// `b.__rop__(a)`, or a comparison's mirror.
    Reflected,
    /// `a.__iop__(b)`.
    InPlace,
}

/// `op` in `form`: the operator, reflected or in-place one.
pub(super) fn operation_as(
    api: &ArrayApi,
    op: Op,
    form_: OpForm,
    operands: &[Operand],
) -> Option<Result<Typed, PromotionError>> {
    let arguments: Vec<Operand> = operands.iter().map(|o| o.as_argument()).collect();
    if form_ == OpForm::Function {
        // `xp.add`, beside the policy's `+`: a function as the others are.
        return Some(ops::operation(api, op, &arguments));
    }
    let operator = op.operator()?;
    Some(match (form_, &arguments[..]) {
        (OpForm::Operator, &[a]) => {
            if let Some(answer) = python_unary("array", op, a) {
                return answer;
            }
            unary(op, operator.method, a)
        }
        (OpForm::Operator, &[a, b]) => {
            if let Some(answer) = python_operator("array", op, a, b) {
                return answer;
            }
            match form(&a) {
                Ok(Form::Array(_)) => call(api, op, Method::Own, a, b),
                // A Python scalar gives way to the array's reflected method.
                _ => call(api, op, Method::Reflected, a, b),
            }
        }
        (OpForm::Reflected, &[a, b]) => {
            if let Some(answer) = python_reflected("array", op, a, b) {
                return answer;
            }
            call(api, op, Method::Reflected, a, b)
        }
        (OpForm::InPlace, &[a, b]) => {
            if let Some(answer) = python_operator("array", op, a, b) {
                return answer;
            }
            match form(&a) {
                Ok(Form::Array(_)) => call(api, op, Method::InPlace, a, b),
                _ => call(api, op, Method::Reflected, a, b),
            }
        }
        _ => return None,
    })
}

/// `-a`, `abs(a)`: numeric arrays only.
fn unary(op: Op, method: &str, a: Operand) -> Result<Typed, PromotionError> {
    let (category, output) = category_and_output(op);
    let Form::Array(dtype) = form(&a)? else {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!("bad operand type for {method}"),
        ));
    };
    known(dtype)?;
    allowed(category, dtype, method)?;
    Ok(Typed::strong(output.of(dtype)))
}

/// The special method `method` of the array among `a` and `b`.
fn call(
    api: &ArrayApi,
    op: Op,
    method: Method,
    a: Operand,
    b: Operand,
) -> Result<Typed, PromotionError> {
    let operator = op.operator().expect("a binary operator");
    let (own, other, name, op) = match method {
        Method::Own => (a, b, operator.method, op),
        Method::InPlace => (a, b, operator.inplace.unwrap_or(operator.method), op),
        Method::Reflected => (
            b,
            a,
            operator.reflected.unwrap_or(operator.method),
            mirror(op).unwrap_or(op),
        ),
    };
    let written = [a, b];
    let (own, other) = (form(&own)?, form(&other)?);
    // Python looks both dtypes up before the call.
    for side in [own, other] {
        if let Form::Array(dtype) = side {
            known(dtype)?;
        }
    }
    let Form::Array(dtype) = own else {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!("unsupported operand type(s) for {}", operator.symbol),
        ));
    };
    let (category, output) = category_and_output(op);
    let other_dtype = match other {
        Form::None => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                "Expected Array or Python scalar; got <class 'NoneType'>",
            ))
        }
        Form::Scalar(scalar, value) => {
            allowed(category, dtype, name)?;
            promote_scalar(dtype, scalar, value)?
        }
        Form::Array(other) => {
            allowed(category, dtype, name)?;
            allowed(category, other, name)?;
            other
        }
    };
    let promoted = api.join(dtype, other_dtype)?;
    if let Method::InPlace = method {
        if promoted != dtype {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "Cannot perform {name} with dtypes array_api_strict.{dtype} and \
                     array_api_strict.{other_dtype}"
                ),
            ));
        }
    }
    // NumPy computes on the two arrays: `__pow__` through `xp.pow` (which
    // refuses a negative integer exponent), the rest by the ufunc's loops
    // (none for a complex `//` or `%`); in place, into `a`.
    let computed = match op {
        Op::Power => ops::operation(api, Op::Power, &written)?.dtype,
        _ => output.of(select_loop(op, promoted)?),
    };
    Ok(Typed::strong(match method {
        Method::InPlace => dtype,
        _ => computed,
    }))
}

fn allowed(category: Category, dtype: DType, method: &str) -> Result<(), PromotionError> {
    if category.contains(dtype) {
        return Ok(());
    }
    Err(PromotionError::framework(
        ErrorKind::Type,
        format!("Only {} dtypes are allowed in {method}", category.name()),
    ))
}

/// `target[...] = value`: the value read as an operator reads it, then
/// its promotion with the array's dtype must be that dtype.
pub(super) fn assign(
    api: &ArrayApi,
    target: Operand,
    value: Operand,
) -> Result<Typed, PromotionError> {
    let (own, other) = (form(&target.as_argument())?, form(&value.as_argument())?);
    let Form::Array(dtype) = own else {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            "object does not support item assignment",
        ));
    };
    known(dtype)?;
    let other = match other {
        Form::Scalar(scalar, value) => promote_scalar(dtype, scalar, value)?,
        Form::Array(other) => known(other)?,
        Form::None => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                "Expected Array or Python scalar; got <class 'NoneType'>",
            ))
        }
    };
    if api.join(dtype, other)? != dtype {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "mismatched dtypes: self.dtype = array_api_strict.{dtype} and other.dtype = \
                 array_api_strict.{other}"
            ),
        ));
    }
    Ok(Typed::strong(dtype))
}
