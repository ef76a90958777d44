//! TensorFlow's tensor operators (`tensor_math_operator_overrides.py`),
//! which are not its functions:
//!
//! - `a OP b` with a tensor `a` is `binary_op_wrapper`: the operands
//!   promoted by `maybe_promote_tensors` (nothing without NumPy behaviour
//!   or under auto dtype conversion; NumPy's `result_type` in mode
//!   legacy), then the operator's function: `tf.add`'s and the others',
//!   but `*` on a bool tensor is computed in int32 and cast back to bool,
//!   and `&`, `|`, `^` of a bool tensor are the logical functions. Where
//!   that raises `TypeError` or `ValueError` and `b` is a tensor, `b`'s
//!   reflected method is tried, and its failure gives way to the first.
//! - `b.__rOP__(a)` (a Python scalar on the left of a tensor) is
//!   `r_binary_op_wrapper`: without NumPy behaviour `a` is converted to
//!   `b`'s dtype first (so `1 / x` divides two int8 tensors where
//!   `tf.math.truediv(1, x)` refuses int32 and int8), then the function of
//!   `(a, b)`.
//! - The comparisons call the generated functions after
//!   `maybe_promote_tensors`; `==` is `gen_math_ops.equal`, which auto
//!   dtype conversion wraps as `tf.equal` is.
//! - `-x` and `abs(x)` are `tf.negative` and `tf.abs`.
//! - A tensor has no in-place operators, so `x += y` rebinds `x` to
//!   `x + y`, and no item assignment.

use super::convert::{self, requested_dtype};
use super::tnp::cast;
use super::{kernels, Mode, TensorFlow, Value};
use crate::frameworks::common::operators::{mirror, python_reflected};
use crate::frameworks::common::Arrays;
use crate::frameworks::python::{self, Number};
use crate::types::{DType, ErrorKind, Op, OpForm, Operand, PromotionError, Typed};

impl TensorFlow {
    /// `op` in `form` (the operator, reflected or in-place one).
    pub(super) fn operation_in(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        if let Err(err) = self.refuse_tnp_off() {
            return Some(Err(err));
        }
        let arrays = Arrays {
            array: "tensor",
            function: |op, operands: &[Operand]| Some(self.written(op, operands)),
            // No `__iadd__`: Python rebinds `x` to `x + y`.
            inplace: |op, a, b| Some(self.written(op, &[a, b])),
        };
        match (form, operands) {
            (OpForm::Reflected, &[a, b]) => Some(self.reflected_form(op, a, b)),
            _ => arrays.answer(op, form, operands),
        }
    }

    /// `x[...] = v`: a tensor is immutable.
    pub(super) fn assign_to(&self, target: Operand) -> Result<Typed, PromotionError> {
        self.refuse_tnp_off()?;
        if let Some(number) = Number::of(target.as_argument().kind()) {
            return Err(python::no_item_assignment(Some(number)));
        }
        let class = match self.values(&[target])?[..] {
            [Value::Tensor { weak: true, .. }] => "EagerWeakTensor",
            _ => "tensorflow.python.framework.ops.EagerTensor",
        };
        Err(PromotionError::framework(
            ErrorKind::Type,
            format!("'{class}' object does not support item assignment"),
        ))
    }

    /// `a OP b` (`-a`, `abs(a)`) where a tensor takes part: `a`'s method,
    /// or with a Python scalar `a`, `b`'s reflected one (a comparison's
    /// mirror).
    fn written(&self, op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let values = self.values(operands)?;
        match values[..] {
            [x] => self.unary_operator(op, x),
            [a @ Value::Tensor { .. }, b] => self.method(op, a, b),
            // `None` beside a Python number: neither has the method.
            [a, b] if !matches!(b, Value::Tensor { .. }) => {
                Err(python::unsupported(op, class_of(a), class_of(b)))
            }
            [a, b] => match mirror(op) {
                Some(mirrored) => self.method(mirrored, b, a),
                None => self.reflected_method(op, b, a),
            },
            _ => Err(PromotionError::framework(
                ErrorKind::Type,
                format!("{op} takes {} operands, not {}", op.arity(), values.len()),
            )),
        }
    }

    /// `b.__rOP__(a)` called directly: a Python number's own, or the
    /// tensor's (a comparison's mirror).
    fn reflected_form(&self, op: Op, a: Operand, b: Operand) -> Result<Typed, PromotionError> {
        let (a, b) = (a.as_argument(), b.as_argument());
        if let Some(Some(answer)) = python_reflected("tensor", op, a, b) {
            return answer;
        }
        let values = self.values(&[a, b])?;
        if !matches!(values[1], Value::Tensor { .. }) {
            let method = op.operator().and_then(|x| x.reflected).unwrap_or("?");
            return Err(PromotionError::framework(
                ErrorKind::Attribute,
                format!(
                    "type object '{}' has no attribute '{method}'",
                    class_of(values[1])
                ),
            ));
        }
        match mirror(op) {
            Some(mirrored) => self.method(mirrored, values[1], values[0]),
            None => self.reflected_method(op, values[1], values[0]),
        }
    }

    /// `-x` and `abs(x)`: `tf.negative` and `tf.abs` (a `WeakTensor`'s
    /// result weak).
    fn unary_operator(&self, op: Op, x: Value) -> Result<Typed, PromotionError> {
        self.call_values(op, &[x], &[x])
    }

    /// `a.__op__(b)` of a tensor `a`: `binary_op_wrapper`, or for a
    /// comparison the generated function after `maybe_promote_tensors`.
    fn method(&self, op: Op, a: Value, b: Value) -> Result<Typed, PromotionError> {
        if op.is_comparison() {
            let promoted = self.maybe_promote([a, b], false)?;
            return match op {
                // `gen_math_ops.equal`, wrapped by auto dtype conversion.
                Op::Equal => self.call_values(op, &promoted, &[a, b]),
                _ => self
                    .call_unwrapped(op, &promoted, &[a, b])
                    .map(Typed::strong),
            };
        }
        let first = self
            .maybe_promote([a, b], false)
            .and_then(|promoted| self.function(op, promoted, [a, b]));
        match first {
            Err(err) if is_type_or_value(&err) && matches!(b, Value::Tensor { .. }) => {
                match self.reflected_method(op, b, a) {
                    Err(second) if !is_type_or_value(&second) => Err(second),
                    Err(_) => Err(err),
                    ok => ok,
                }
            }
            // `hasattr(type(y), "__ror__")` holds for every class, `type`
            // having `__ror__` (for `int | str`), and then
            // `getattr(y, "__ror__")` fails on a float or complex.
            Err(err) if is_type_or_value(&err) && op == Op::BitwiseOr => match b {
                Value::Float(_) | Value::Complex { .. } => {
                    let class = if matches!(b, Value::Float(_)) {
                        "float"
                    } else {
                        "complex"
                    };
                    Err(PromotionError::framework(
                        ErrorKind::Attribute,
                        format!("'{class}' object has no attribute '__ror__'"),
                    ))
                }
                _ => Err(err),
            },
            // A Python number's reflected method returns NotImplemented,
            // or it has none: the first error stands.
            other => other,
        }
    }

    /// `b.__rOP__(a)` of a tensor `b`: `r_binary_op_wrapper`, which
    /// promotes with `force_same_dtype` and calls the function of `(a, b)`.
    fn reflected_method(&self, op: Op, b: Value, a: Value) -> Result<Typed, PromotionError> {
        let [y, x] = self.maybe_promote([b, a], true)?;
        self.function(op, [x, y], [a, b])
    }

    /// `maybe_promote_tensors`: nothing under auto dtype conversion; in
    /// mode legacy every operand cast or converted to NumPy's result type;
    /// without NumPy behaviour, nothing, or with `force_same_dtype` the
    /// second converted to the first's dtype.
    fn maybe_promote(&self, values: [Value; 2], force: bool) -> Result<[Value; 2], PromotionError> {
        let tensor = |dtype| Value::Tensor { dtype, weak: false };
        match self.mode() {
            Mode::Safe | Mode::All => Ok(values),
            Mode::Off if !force => Ok(values),
            Mode::Off => {
                let Value::Tensor { dtype, .. } = values[0] else {
                    return Ok(values);
                };
                let converted = match values[1] {
                    Value::Tensor { dtype: other, .. } if other != dtype => {
                        return Err(requested_dtype("x: ", dtype, other))
                    }
                    Value::Tensor { .. } => dtype,
                    value => convert::to_tensor(value, Some(dtype))?,
                };
                Ok([values[0], tensor(converted)])
            }
            Mode::Legacy => {
                let dtype = self.np_dtypes_result_type(&values)?;
                let mut promoted = values;
                for value in &mut promoted {
                    match *value {
                        Value::Tensor { dtype: from, .. } => cast(from, dtype)?,
                        other => {
                            convert::to_tensor(other, Some(dtype))?;
                        }
                    }
                    *value = tensor(dtype);
                }
                Ok(promoted)
            }
        }
    }

    /// The function an arithmetic or bitwise operator calls on `(x, y)`
    /// once promoted: TensorFlow's, but `*` of a bool tensor in int32
    /// (cast back to bool), and `&`, `|`, `^` of a bool `x` logical. The
    /// tensors hold `held`, the values they were made of.
    fn function(
        &self,
        op: Op,
        [x, y]: [Value; 2],
        held: [Value; 2],
    ) -> Result<Typed, PromotionError> {
        let is_bool = |v: Value| {
            matches!(
                v,
                Value::Tensor {
                    dtype: DType::Bool,
                    ..
                }
            )
        };
        match op {
            Op::Multiply if is_bool(x) || is_bool(y) => {
                for value in [x, y] {
                    let from = convert::to_tensor(value, None)?;
                    cast(from, DType::Int32)?;
                }
                Ok(Typed::strong(DType::Bool))
            }
            Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor => {
                let dtype = match x {
                    Value::Tensor { dtype, .. } => dtype,
                    other => return Err(no_dtype_attribute(other)),
                };
                if dtype != DType::Bool {
                    return self.call_unwrapped(op, &[x, y], &held).map(Typed::strong);
                }
                // `logical_xor` starts with `logical_or`.
                let kernel = match op {
                    Op::BitwiseAnd => &kernels::LOGICAL_AND,
                    _ => &kernels::LOGICAL_OR,
                };
                self.run_generated(kernel, &[x, y]).map(Typed::strong)
            }
            _ => self.call_values(op, &[x, y], &held),
        }
    }
}

fn is_type_or_value(err: &PromotionError) -> bool {
    matches!(err.python_type(), "TypeError" | "ValueError")
}

/// `and_(x, y)` reads `x.dtype`, which a Python scalar lacks.
fn no_dtype_attribute(value: Value) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Attribute,
        format!("'{}' object has no attribute 'dtype'", class_of(value)),
    )
}

/// The Python class of a value.
fn class_of(value: Value) -> &'static str {
    match value {
        Value::Bool(_) => "bool",
        Value::Int(_) => "int",
        Value::Float(_) => "float",
        Value::Complex { .. } => "complex",
        Value::None => "NoneType",
        Value::Tensor { weak: true, .. } => "EagerWeakTensor",
        Value::Tensor { .. } => "EagerTensor",
    }
}
