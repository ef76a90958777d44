//! Python's side of an operator, for a framework whose array operators
//! call its own functions (NumPy's `ndarray.__add__` is `np.add`, JAX's
//! `Array.__lt__` is `jnp.less`): what Python does before and after the
//! framework is asked.
//!
//! - `a OP b` with no array is Python's own arithmetic ([`python`]); a
//!   Python number on the left gives way to the array's reflected method,
//!   which calls the function with the operands in the order written.
//! - `b.__rOP__(a)` with an array `b` is the function of `(a, b)`, a
//!   comparison's mirror (`b.__gt__(a)`) the mirrored function of `(b, a)`;
//!   a Python number's reflected method computes in Python when it takes
//!   the other operand's type, returns `NotImplemented` when it does not,
//!   and does not exist for some types (`float.__rand__`).
//! - `a OP= b` of a Python number `a` is `a = a OP b`; of an array, the
//!   framework's own (NumPy's ufunc with `out=a`, JAX rebinding `a`).

use crate::frameworks::python::{self, Number};
use crate::prelude::*;
use crate::types::{ErrorKind, Op, OpForm, Operand, PromotionError, PyScalar, Typed};

/// What a framework's operators do beyond calling its functions.
pub(crate) struct Arrays<F, S> {
    /// The framework's word for its array in messages (`array`).
    pub(crate) array: &'static str,
    /// The framework's function of `op` on operands in this order.
    pub(crate) function: F,
    /// `a OP= b` for an array `a`: the framework's in-place operator.
    pub(crate) inplace: S,
}

impl<F, S> Arrays<F, S>
where
    F: Fn(Op, &[Operand]) -> Option<Result<Typed, PromotionError>>,
    S: Fn(Op, Operand, Operand) -> Option<Result<Typed, PromotionError>>,
{
    /// `op` in `form` (the operator, reflected or in-place one).
    ///
    /// `a OP b` (`operator`) is also what a framework that rebinds `a OP= b`
    /// answers for it.
    pub(crate) fn answer(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        // Two arrays: nothing of Python's to decide first (the path most
        // calls take), and a dtype is as good as an array of it.
        if let &[a, b] = operands {
            if a.is_array_or_dtype() && b.is_array_or_dtype() {
                return match form {
                    OpForm::Operator => (self.function)(op, operands),
                    OpForm::Reflected => self.reflected_function(op, a, b),
                    OpForm::InPlace => (self.inplace)(op, a, b),
                    _ => None,
                };
            }
        }
        // As every operation takes them: a dtype is an array of it, a
        // Python type a scalar of it.
        let arguments = [0, 1].map(|i| operands.get(i).map_or(Operand::NONE, |o| o.as_argument()));
        let operands = &arguments[..operands.len().min(2)];
        match (form, operands) {
            (OpForm::Operator, &[a]) => match python_unary(self.array, op, a) {
                Some(answer) => answer,
                None => (self.function)(op, operands),
            },
            (OpForm::Operator, &[a, b]) => self.operator(op, a, b),
            (OpForm::Reflected, &[a, b]) => self.reflected(op, a, b),
            (OpForm::InPlace, &[a, b]) => match Number::of(a.kind()) {
                // A Python number has no in-place method: `a = a OP b`.
                Some(_) => self.operator(op, a, b),
                None => (self.inplace)(op, a, b),
            },
            _ => None,
        }
    }

    pub(crate) fn operator(
        &self,
        op: Op,
        a: Operand,
        b: Operand,
    ) -> Option<Result<Typed, PromotionError>> {
        match python_operator(self.array, op, a, b) {
            Some(answer) => answer,
            None => (self.function)(op, &[a, b]),
        }
    }

    fn reflected(&self, op: Op, a: Operand, b: Operand) -> Option<Result<Typed, PromotionError>> {
        if let Some(answer) = python_reflected(self.array, op, a, b) {
            return answer;
        }
        self.reflected_function(op, a, b)
    }

    /// `b.__rOP__(a)` of an array `b`: the function of `(a, b)`, or of a
    /// comparison's mirror `(b, a)`.
    fn reflected_function(
        &self,
        op: Op,
        a: Operand,
        b: Operand,
    ) -> Option<Result<Typed, PromotionError>> {
        match mirror(op) {
            Some(mirrored) => (self.function)(mirrored, &[b, a]),
            None => (self.function)(op, &[a, b]),
        }
    }
}

/// `a OP b` where Python computes it itself, both operands being Python
/// numbers: `Some` of Python's result (no array, so no dtype: an error
/// naming its Python type) or error; `None` where an operand is no Python
/// number. `array` is the framework's word for an array.
pub(crate) fn python_operator(
    array: &'static str,
    op: Op,
    a: Operand,
    b: Operand,
) -> Option<Option<Result<Typed, PromotionError>>> {
    let x = Number::of(a.kind())?;
    let y = Number::of(b.kind())?;
    Some(python::binary(op, Some(x), Some(y)).map(|result| python_computes(array, op, result)))
}

/// `-a`, `abs(a)` of a Python number, as [`python_operator`].
pub(crate) fn python_unary(
    array: &'static str,
    op: Op,
    a: Operand,
) -> Option<Option<Result<Typed, PromotionError>>> {
    let x = Number::of(a.kind())?;
    Some(python::unary(op, Some(x)).map(|result| python_computes(array, op, result)))
}

/// `b.__rOP__(a)` where `b` is a Python number: its method computes in
/// Python when it takes `a`'s type (one no wider than its own; a complex
/// number has no order), returns `NotImplemented` when it does not (an
/// array), and does not exist for some types (`float.__rand__`). `None`
/// where `b` is no Python number.
pub(crate) fn python_reflected(
    array: &'static str,
    op: Op,
    a: Operand,
    b: Operand,
) -> Option<Option<Result<Typed, PromotionError>>> {
    let y = Number::of(b.kind())?;
    let Some(method) = op.operator().and_then(|operator| operator.reflected) else {
        return Some(None);
    };
    let class = y.scalar().name();
    if !has_method(y.scalar(), op) {
        return Some(Some(Err(PromotionError::framework(
            ErrorKind::Attribute,
            format!("type object '{class}' has no attribute '{method}'"),
        ))));
    }
    Some(match Number::of(a.kind()) {
        Some(x)
            if level(x.scalar()) <= level(y.scalar())
                && !(y.scalar() == PyScalar::Complex && is_ordering(op)) =>
        {
            python::binary(op, Some(x), Some(y)).map(|result| python_computes(array, op, result))
        }
        _ => Some(Err(PromotionError::framework(
            ErrorKind::ReturnedNotImplemented,
            format!("{class}.{method} returned NotImplemented"),
        ))),
    })
}

/// Python's own result, which is no array, or Python's error.
fn python_computes(
    array: &'static str,
    op: Op,
    result: Result<PyScalar, PromotionError>,
) -> Result<Typed, PromotionError> {
    let written = written(op);
    Err(result.map_or_else(
        |err| err,
        |scalar| python::no_dtype(array, &written, scalar),
    ))
}

/// How Python writes `op` on `a` and `b`, for messages (`a + b`, `-a`).
fn written(op: Op) -> String {
    let symbol = python::symbol(op).unwrap_or("?");
    match op.arity() {
        1 if op == Op::Abs => "abs(a)".to_owned(),
        1 => format!("{symbol}a"),
        _ => format!("a {symbol} b"),
    }
}

/// The comparison `b.__gt__(a)` stands for in `a < b`, as an operation of
/// `(b, a)`; `None` for an operation whose reflected method keeps it.
pub(crate) fn mirror(op: Op) -> Option<Op> {
    Some(match op {
        Op::Less => Op::Greater,
        Op::LessEqual => Op::GreaterEqual,
        Op::Greater => Op::Less,
        Op::GreaterEqual => Op::LessEqual,
        Op::Equal => Op::Equal,
        Op::NotEqual => Op::NotEqual,
        _ => return None,
    })
}

fn is_ordering(op: Op) -> bool {
    matches!(
        op,
        Op::Less | Op::LessEqual | Op::Greater | Op::GreaterEqual
    )
}

/// A number's place in Python's tower: `bool` is an `int`.
fn level(scalar: PyScalar) -> u8 {
    match scalar {
        PyScalar::Bool | PyScalar::Int => 0,
        PyScalar::Float => 1,
        PyScalar::Complex => 2,
    }
}

/// Whether Python's `scalar` type has `op`'s reflected method: floats and
/// complex numbers have no bitwise ones, complex numbers no `//` or `%`.
fn has_method(scalar: PyScalar, op: Op) -> bool {
    match op {
        Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor => level(scalar) == 0,
        Op::FloorDivide | Op::Remainder => scalar != PyScalar::Complex,
        _ => true,
    }
}
