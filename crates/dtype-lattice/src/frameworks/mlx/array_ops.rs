//! MLX's operations on whole arrays (`mx.sum`, `mx.matmul`, `mx.where`,
//! ...), on the CPU.
//!
//! MLX has no `dtype=` on them and reports no accumulator. Its reductions
//! widen small integers as NumPy does, but to 32 bits: `sum` and `prod` of
//! `bool` and of integers narrower than 32 bits are `int32` (`uint32` for
//! the unsigned ones), `cumsum` widens `bool` only (to `int32`), `cumprod`
//! nothing; `mean`, `var` and `std` of `bool` and integers are `float32`,
//! `var`/`std` of `complex64` its real part; `argmax`/`argmin` are
//! `uint32`. The contractions promote their two arrays by MLX's table and
//! refuse a result that is not a float ("Only inexact types are
//! supported"); `where`, `clip`, `concatenate` and `stack` promote as
//! `mx.add` does, Python scalars taking the dtype of the array beside them.
//!
//! ```
//! use dtype_lattice::frameworks::mlx::Mlx;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let x = Operand::array(DType::Int8, false);
//! let sum = Mlx.array_op(&ArrayCall::new(ArrayOp::Sum), &[x]).unwrap().unwrap();
//! assert_eq!(sum.result().dtype, DType::Int32);
//! let err = Mlx.array_op(&ArrayCall::new(ArrayOp::Matmul), &[x, x]).unwrap().unwrap_err();
//! assert!(err.to_string().starts_with("[matmul] Only inexact types are supported"));
//! ```

use super::ops::beside;
use super::{array_dtype, promote, scalar_array, value_error, Mlx};
use crate::frameworks::common::array_ops::counted;
use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Kind, Operand, OperandKind, Outcome, PromotionError,
};

/// MLX's function for each operation; `None` for `dot`, which MLX lacks.
fn function(op: ArrayOp) -> Option<&'static str> {
    Some(match op {
        ArrayOp::Dot => return None,
        ArrayOp::FullLike => "mx.full(x.shape, value)",
        ArrayOp::Tensordot => "mx.tensordot",
        ArrayOp::Einsum => "mx.einsum",
        other => other.name(),
    })
}

/// The dtype of one operand as MLX makes it an array on its own.
fn own(operand: &Operand, op: ArrayOp) -> Result<DType, PromotionError> {
    let argument = operand.as_argument();
    if matches!(argument.kind(), OperandKind::None) {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!("mx.{op} takes arrays and Python scalars, not None"),
        ));
    }
    match array_dtype(&argument)? {
        Some(dtype) => Ok(dtype),
        None => scalar_array(&argument, None),
    }
}

/// `x` and `y` as `mx.add` makes them arrays: a Python scalar beside the
/// other's dtype.
fn pair(x: &Operand, y: &Operand, op: ArrayOp) -> Result<DType, PromotionError> {
    let (x, y) = (x.as_argument(), y.as_argument());
    for operand in [&x, &y] {
        if matches!(operand.kind(), OperandKind::None) {
            return own(operand, op);
        }
    }
    let (a, b) = beside(&x, &y, array_dtype(&x)?, array_dtype(&y)?)?;
    promote(a, b)
}

/// A reduction's result for an input of `dtype`.
fn reduced(op: ArrayOp, dtype: DType) -> DType {
    let small = dtype == DType::Bool || (dtype.is_integer() && dtype.bits() < 32);
    let unsigned = dtype.kind() == Kind::Unsigned;
    match op {
        ArrayOp::Sum | ArrayOp::Prod if small && unsigned => DType::UInt32,
        ArrayOp::Sum | ArrayOp::Prod if small => DType::Int32,
        ArrayOp::CumSum if dtype == DType::Bool => DType::Int32,
        ArrayOp::Mean | ArrayOp::Var | ArrayOp::Std
            if dtype == DType::Bool || dtype.is_integer() =>
        {
            DType::Float32
        }
        ArrayOp::Var | ArrayOp::Std if dtype.kind() == Kind::Complex => dtype.real_part(),
        ArrayOp::ArgMax | ArrayOp::ArgMin => DType::UInt32,
        ArrayOp::Any | ArrayOp::All => DType::Bool,
        _ => dtype,
    }
}

impl Mlx {
    /// `mx.<function>` of `call` on `operands`.
    pub(super) fn mlx_array_op(
        &self,
        call: ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        let name = function(call.op())?;
        Some(answer(name, call, operands).map(|d| Outcome::of(crate::types::Typed::strong(d))))
    }
}

fn answer(name: &str, call: ArrayCall, operands: &[Operand]) -> Result<DType, PromotionError> {
    let operands = counted(call, operands)?;
    let op = call.op();
    if let (Some(_), false) = (call.dtype(), op == ArrayOp::FullLike) {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "{name}() got an unexpected keyword argument 'dtype' (MLX's takes none; cast \
                 the result with astype)"
            ),
        ));
    }
    match op.family() {
        crate::types::Family::Reduction => Ok(reduced(op, own(&operands[0], op)?)),
        crate::types::Family::Contraction => {
            let (a, b) = (own(&operands[0], op)?, own(&operands[1], op)?);
            let promoted = promote(a, b)?;
            if promoted.kind() == Kind::Float || promoted.kind() == Kind::Complex {
                return Ok(promoted);
            }
            Err(value_error(&format!(
                "[matmul] Only inexact types are supported but {a} and {b} were provided which \
                 results in {promoted}, which is not a floating point type."
            )))
        }
        crate::types::Family::Combination => combine(op, call, operands),
    }
}

fn combine(op: ArrayOp, call: ArrayCall, operands: &[Operand]) -> Result<DType, PromotionError> {
    match op {
        ArrayOp::Where => pair(&operands[1], &operands[2], op),
        // `mx.clip(a, a_min, a_max)`: each bound made an array beside
        // `a`, then `minimum(maximum(a, a_min), a_max)`; a bound of `None`
        // is no bound.
        ArrayOp::Clip => {
            let a = own(&operands[0], op)?;
            operands[1..].iter().try_fold(a, |joined, bound| {
                let bound = bound.as_argument();
                if bound.is_none() {
                    return Ok(joined);
                }
                let dtype = match array_dtype(&bound)? {
                    Some(dtype) => dtype,
                    None => scalar_array(&bound, Some(a))?,
                };
                promote(joined, dtype)
            })
        }
        ArrayOp::Concatenate | ArrayOp::Stack => {
            let first = own(&operands[0], op)?;
            operands[1..]
                .iter()
                .try_fold(first, |joined, next| promote(joined, own(next, op)?))
        }
        // `mx.full(shape, value, dtype)`: `dtype` only guides the value's
        // conversion (a float beside an integer dtype stays `float32`); an
        // array keeps its own.
        _ => {
            let value = operands[1].as_argument();
            own(&value, op)?;
            match array_dtype(&value)? {
                Some(dtype) => Ok(dtype),
                None => scalar_array(&value, call.dtype()),
            }
        }
    }
}

/// How MLX answers `op`, in words.
pub(super) fn describe(op: ArrayOp) -> Option<String> {
    let name = function(op)?;
    let rule = match op {
        ArrayOp::Sum | ArrayOp::Prod => {
            "bool and integers narrower than 32 bits widen to int32 (uint32 if unsigned); the \
             others keep their dtype; no dtype="
        }
        ArrayOp::CumSum => "bool becomes int32; the others keep their dtype",
        ArrayOp::Mean => "bool and integers are float32; floats keep their dtype",
        ArrayOp::Var | ArrayOp::Std => {
            "bool and integers are float32; floats keep their dtype; complex64 is float32"
        }
        ArrayOp::ArgMax | ArrayOp::ArgMin => "uint32",
        ArrayOp::Any | ArrayOp::All => "bool",
        ArrayOp::Matmul | ArrayOp::Tensordot | ArrayOp::Einsum => {
            "the two arrays promoted by MLX's table; a result that is not a float is a \
             ValueError (only inexact types)"
        }
        ArrayOp::FullLike => {
            "the value's dtype (an array's own; a Python scalar's, with dtype= only guiding its \
             conversion), not x's"
        }
        ArrayOp::Clip => "the array and each bound promoted, a Python bound beside the array",
        ArrayOp::Where | ArrayOp::Concatenate | ArrayOp::Stack => {
            "the values promoted as mx.add promotes them"
        }
        _ => "the input's dtype",
    };
    Some(format!("{name}: {rule}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_of_none_is_no_bound() {
        let x = Operand::array(DType::Int8, false);
        let clip = ArrayCall::new(ArrayOp::Clip);
        let clipped = answer("clip", clip, &[x, Operand::NONE, Operand::py_float(2.5)]);
        assert_eq!(clipped, Ok(DType::Float32));
        let err = answer("clip", clip, &[Operand::NONE, x]).unwrap_err();
        assert_eq!(err.python_type(), "TypeError");
    }
}
