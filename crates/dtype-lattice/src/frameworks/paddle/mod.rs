//! PaddlePaddle 3.3's type promotion, in dynamic mode (Paddle's default) on
//! the CPU: `x + y`, which is also `paddle.add(x, y)` for two tensors, and
//! the other operations of [`Op`] (`paddle/ops.rs`).
//!
//! Paddle has no `result_type` or `promote_types`: it promotes inside the
//! operations, by a 12 x 12 table (`phi::promoteTypes` in
//! `paddle/phi/common/type_promotion.h`, PyTorch's table over the same
//! twelve dtypes) and rules around it, which make it no lattice:
//!
//! - two tensors of different dtypes promote only when both are
//!   floating-point or either is complex; any other pair, `uint8` with
//!   `int8` or `int32` with `float32`, is a `TypeError`;
//! - a zero-dimensional tensor beside a tensor with dimensions of its own
//!   category (integer, floating, complex) takes that tensor's dtype, and
//!   across categories (`bool` is in none) the table decides;
//! - a Python scalar is added by `Tensor.__add__` in C++: a `float` casts
//!   an integer or `bool` tensor to `float32`, an `int` a `bool` tensor to
//!   `int64`, a `complex` a real tensor to the table's join with
//!   `complex64`; otherwise the tensor's dtype stands. Paddle reads a Python
//!   int as a C `double`, so no int is out of range.
//!
//! ```
//! use dtype_lattice::frameworks::paddle::Paddle;
//! use dtype_lattice::{DType, Operand, Policy, Typed};
//!
//! let rt = |a, b| Paddle.result_type(&[a, b]);
//! let (x, f) = (Operand::dtype(DType::Int8), Operand::dtype(DType::Float32));
//! assert_eq!(rt(x, f).unwrap_err().python_type(), "TypeError");
//! assert_eq!(rt(x, Operand::zero_dim(DType::Int64)), Ok(Typed::strong(DType::Int8)));
//! assert_eq!(rt(x, Operand::zero_dim(DType::Float64)), Ok(Typed::strong(DType::Float64)));
//! assert_eq!(rt(x, Operand::py_float(2.5)), Ok(Typed::strong(DType::Float32)));
//! assert_eq!(rt(Operand::dtype(DType::Float16), f), Ok(Typed::strong(DType::Float32)));
//! ```
//!
//! [`result_type`](Paddle::result_type) is that promotion; [`operation(Op::Add)`](Paddle::operation)
//! is `x + y` on the CPU, where the CPU wheel has no kernel for several
//! dtypes it promotes to (`float16`, `bfloat16`, `uint16`..`uint64`, the
//! float8 types). [`operation`](Paddle::operation) answers every
//! operation as its Python call does, kernels and all:
//!
//! ```
//! use dtype_lattice::frameworks::paddle::Paddle;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let x = Operand::dtype(DType::Float16);
//! assert_eq!(Paddle.result_type(&[x, x]), Ok(Typed::strong(DType::Float16)));
//! let err = Paddle.operation(Op::Add, &[x, x]).unwrap().unwrap_err();
//! assert_eq!(err.python_type(), "RuntimeError");
//! assert!(err.to_string().starts_with(
//!     "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), float16) of kernel `add` is not registered."
//! ));
//! let i = Operand::dtype(DType::Int32);
//! assert_eq!(Paddle.operation(Op::TrueDivide, &[i, i]), Some(Ok(Typed::strong(DType::Float32))));
//! let err = Paddle.operation(Op::Less, &[i, Operand::dtype(DType::Int64)]).unwrap().unwrap_err();
//! assert_eq!(err.python_type(), "TypeError");
//! ```

mod array_ops;
mod combine;
mod forms;
mod kernels;
mod methods;
mod ops;
mod promotion;

use self::kernels::Stop;
use self::promotion::{common, Tensor, ZeroDim};
use crate::frameworks::common::DTypeSet;
use crate::frameworks::python::{self, Number};
use crate::policy::{Policy, TypedLattice};
use crate::prelude::*;
use crate::types::{ArrayCall, ArrayOp, Outcome};
use crate::types::{DType, Op, OpForm, Operand, OperandKind, PromotionError, TypeSpec, Typed};

/// Paddle's dtypes among the 32 (`paddle.uint16` is a dtype of its own,
/// though Paddle prints it as `paddle.bfloat16`).
const DTYPES: DTypeSet = DTypeSet::of(&[
    DType::Bool,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::Float8E4M3Fn,
    DType::Float8E5M2,
    DType::BFloat16,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
]);

/// An operand as an operation sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    Tensor(Tensor),
    /// A Python number, with its value.
    Number(Number),
    /// `None`.
    None,
}

/// The one place an operand's kind is read, as the operation takes it
/// ([`Operand::as_argument`]: a dtype is a tensor with dimensions, a Python
/// type a number of it). Python builds every operand before the call, so a
/// dtype Paddle lacks fails here; so does a weakly-typed array (only JAX
/// has them).
fn form(operand: &Operand) -> Result<Form, PromotionError> {
    let tensor = |dtype, zero_dim| -> Result<Form, PromotionError> {
        Ok(Form::Tensor(Tensor {
            dtype: known(dtype)?,
            zero_dim,
        }))
    };
    match operand.as_argument().kind() {
        OperandKind::Array { dtype, weak: true } => {
            Err(crate::frameworks::numpy::weak_array(dtype))
        }
        OperandKind::DType(dtype) | OperandKind::Array { dtype, .. } => tensor(dtype, false),
        OperandKind::ZeroDim(dtype) => tensor(dtype, true),
        OperandKind::None => Ok(Form::None),
        other => Ok(Number::of(other).map_or(Form::None, Form::Number)),
    }
}

/// A dtype Paddle has, or the error `getattr(paddle, name)` gives.
fn known(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(dtype) {
        Ok(dtype)
    } else {
        Err(PromotionError::no_attribute("paddle", dtype.name()))
    }
}

/// PaddlePaddle 3.3.1 in dynamic mode on the CPU.
///
/// Operands of [`result_type`](Paddle::result_type),
/// [`operation(Op::Add)`](Paddle::operation) and [`operation`](Paddle::operation): a dtype or a
/// strong array is a tensor with dimensions, [`Operand::zero_dim`] a tensor
/// without; Python scalars and `None` are what Python passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Paddle;

impl Paddle {
    /// `op` of `operands` as Python calls it; where the CPU lacks a
    /// kernel, [`Stop::NoKernel`] with the dtype Paddle computes in.
    fn call(&self, op: Op, operands: &[Operand]) -> Result<DType, Stop> {
        if operands.len() != op.arity() {
            return Err(Stop::Error(ops::arity(op, operands.len())));
        }
        let mut forms = [Form::None; 2];
        for (slot, operand) in forms.iter_mut().zip(operands) {
            *slot = form(operand)?;
        }
        ops::operation(op, &forms[..operands.len()])
    }
}

impl Policy for Paddle {
    fn name(&self) -> String {
        "paddle".to_owned()
    }

    /// What two tensors with dimensions of these dtypes promote to under
    /// `x + y`, kernels aside. Python's types stand for the dtypes Paddle
    /// reads them as: `int64`, `float64`, `complex128`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::paddle::Paddle;
    /// use dtype_lattice::{DType, Policy, PyScalar};
    /// assert_eq!(Paddle.promote_types(DType::BFloat16.into(), DType::Float16.into()), Ok(DType::Float32));
    /// assert_eq!(Paddle.promote_types(DType::Int8.into(), DType::Complex64.into()), Ok(DType::Complex64));
    /// let err = Paddle.promote_types(DType::UInt8.into(), DType::Int8.into()).unwrap_err();
    /// assert!(err.to_string().ends_with("But got different data type x: uint8, y: int8. (at /paddle/paddle/phi/common/type_promotion.h:220)\n"));
    /// assert_eq!(Paddle.promote_types(PyScalar::Float.into(), DType::Float32.into()), Ok(DType::Float64));
    /// ```
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        let tensor = |spec| -> Result<Tensor, PromotionError> {
            Ok(Tensor {
                dtype: match spec {
                    TypeSpec::DType(dtype) => known(dtype)?,
                    TypeSpec::Python(scalar) => python::dtype_64(scalar),
                },
                zero_dim: false,
            })
        };
        common(tensor(a)?, tensor(b)?, ZeroDim::AsScalar)
    }

    /// The dtype `x + y` promotes to, kernels aside: where the CPU lacks
    /// the kernel, the dtype Paddle promoted to all the same.
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.call(Op::Add, operands)
            .or_else(Stop::kernels_aside)
            .map(Typed::strong)
    }

    /// Paddle's rules are a table and rules around it, not a lattice.
    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(dtype)
    }

    /// `op` as Python calls it on the CPU (`ops.rs`): `x - y`, `x < y`,
    /// `paddle.maximum(x, y)`, `paddle.sqrt(x)`, ...: the promotion, then
    /// the kernels; where the CPU has no kernel for the dtype, Paddle's
    /// `RuntimeError`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::paddle::Paddle;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let x = |dtype| Operand::dtype(dtype);
    /// assert_eq!(Paddle.operation(Op::Sqrt, &[x(DType::Int16)]), Some(Ok(Typed::strong(DType::Float32))));
    /// assert_eq!(Paddle.operation(Op::Multiply, &[Operand::py_int(2), x(DType::BFloat16)]), Some(Ok(Typed::strong(DType::BFloat16))));
    /// let err = Paddle.operation(Op::Power, &[x(DType::Int32), Operand::py_int(-1)]).unwrap().unwrap_err();
    /// assert_eq!(err.python_type(), "DoesNotReturnError");
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(
            self.call(op, operands)
                .map_err(Stop::error)
                .map(Typed::strong),
        )
    }

    /// The Tensor operators where Python has one (`x + y`, `-x`,
    /// `abs(x)`), as the golden data records them; the functions
    /// (`paddle.maximum`, `paddle.sqrt`) for the rest.
    fn default_form(&self, op: Op) -> OpForm {
        match op.operator() {
            Some(_) => OpForm::Operator,
            None => OpForm::Function,
        }
    }

    /// Paddle's reductions (`array_ops.rs`), contractions and
    /// combinations (`combine.rs`).
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        array_ops::array_op(*call, operands)
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        array_ops::describe(op)
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(ops::describe(op))
    }

    /// Paddle's functions beside the operators (`forms.rs`): on two
    /// tensors the operator's answer, but a Python number is refused by
    /// most (`paddle.add(x, 1)`), read its own way by `paddle.pow`,
    /// `paddle.equal`, `paddle.remainder` and `paddle.floor_divide`; the
    /// reflected methods; `x OP= b`, which rebinds `x` (a Tensor has no
    /// in-place operators).
    ///
    /// ```
    /// use dtype_lattice::frameworks::paddle::Paddle;
    /// use dtype_lattice::{DType, Op, OpForm, Operand, Policy, Typed};
    /// let x = Operand::dtype(DType::Int8);
    /// assert_eq!(Paddle.operation(Op::Add, &[x, Operand::py_int(1)]), Some(Ok(Typed::strong(DType::Int8))));
    /// let function = Paddle.operation_as(Op::Add, OpForm::Function, &[x, Operand::py_int(1)]).unwrap();
    /// assert!(function.unwrap_err().to_string().starts_with(
    ///     "(InvalidArgument) add(): argument 'y' (position 1) must be Tensor, but got int"
    /// ));
    /// let floor = Paddle.operation_as(Op::FloorDivide, OpForm::Function, &[x, Operand::py_int(2)]);
    /// assert_eq!(floor, Some(Ok(Typed::strong(DType::Int64))));
    /// ```
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        forms::operation_as(self, op, form, operands)
    }

    /// `x[...] = v`: the `set_value` kernels of `x`'s dtype, which cast the
    /// value; a complex number into a real tensor other than `bool` ends
    /// the process (`DoesNotReturnError`).
    ///
    /// ```
    /// use dtype_lattice::frameworks::paddle::Paddle;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let x = Operand::dtype(DType::Int8);
    /// assert_eq!(Paddle.assign(x, Operand::dtype(DType::Float64)), Some(Ok(Typed::strong(DType::Int8))));
    /// let err = Paddle.assign(x, Operand::py_complex(0.0, 2.0)).unwrap().unwrap_err();
    /// assert_eq!(err.python_type(), "DoesNotReturnError");
    /// ```
    fn assign(&self, target: Operand, value: Operand) -> Option<Result<Typed, PromotionError>> {
        Some(forms::assign(target, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_dtypes_paddle_has() {
        for dtype in promotion::TABLE_DTYPES {
            assert!(known(dtype).is_ok());
        }
    }
}
