//! tinygrad's operations on whole tensors (`x.sum()`, `a.matmul(b)`,
//! `c.where(x, y)`, ...), and the dtype its reductions accumulate in.
//!
//! tinygrad's `sum` casts to `sum_acc_dtype` before it reduces: integers
//! to at least `int32` (`uint32` if unsigned), floats to at least
//! `float32`; a `float16`, `bfloat16` or float8 sum is cast back, so it
//! computes in `float32` and returns its own dtype. `cumsum` sums so too;
//! `mean`, `var` and `std` accumulate in that dtype and answer the input's
//! float, or `float32` for integers and `bool` (not `DEFAULT_FLOAT`);
//! `prod`, `cumprod`, `max` and `min` keep the input's dtype, `argmax` is
//! `int32`. A contraction multiplies in the operands' promotion and sums
//! in its `sum_acc_dtype` (`dtype=` both accumulates in and answers it);
//! `matmul` and `dot` cast back to the promotion, `einsum` answers the sum's
//! dtype. `where`, `clip`, `cat` and `stack` promote as `x + y` does
//! (weak results included); `full_like` keeps the tensor's dtype (or
//! `dtype=`), converting the value with Python's `int`, `float` or `bool`.
//!
//! ```
//! use dtype_lattice::frameworks::tinygrad::Tinygrad;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let half = Operand::array(DType::Float16, false);
//! let sum = Tinygrad::default().array_op(&ArrayCall::new(ArrayOp::Sum), &[half]).unwrap().unwrap();
//! assert_eq!(sum.to_string(), "float16 (computes in float32)");
//! let int8 = Operand::array(DType::Int8, false);
//! let sum = Tinygrad::default().array_op(&ArrayCall::new(ArrayOp::Sum), &[int8]).unwrap().unwrap();
//! assert_eq!(sum.result().dtype, DType::Int32);
//! ```

use super::{dtype_node, least_upper, node_of_label, scalar_type, Tinygrad, Value};
use crate::frameworks::common::array_ops::counted;
use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Family, Kind, Operand, Outcome, PromotionError, PyScalar,
    Typed,
};

/// The Tensor method of each operation; `None` for `tensordot`, which
/// tinygrad lacks.
fn method(op: ArrayOp) -> Option<&'static str> {
    Some(match op {
        ArrayOp::Tensordot => return None,
        ArrayOp::Concatenate => "cat",
        ArrayOp::Einsum => "Tensor.einsum",
        other => other.name(),
    })
}

/// The operations that take `dtype=`.
fn takes_dtype(op: ArrayOp) -> bool {
    matches!(
        op,
        ArrayOp::Sum
            | ArrayOp::Prod
            | ArrayOp::Matmul
            | ArrayOp::Dot
            | ArrayOp::Einsum
            | ArrayOp::FullLike
    )
}

/// The `AttributeError` of a method called on a Python value.
fn no_method(operand: &Operand, name: &str) -> PromotionError {
    let class = scalar_type(operand).map_or("NoneType", PyScalar::name);
    PromotionError::framework(
        ErrorKind::Attribute,
        format!("'{class}' object has no attribute '{name}'"),
    )
}

impl Tinygrad {
    /// `x.<method>(...)` of `call` on `operands`.
    pub(super) fn tinygrad_array_op(
        self,
        call: ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        let name = method(call.op())?;
        Some(self.answer(name, call, operands))
    }

    fn answer(
        self,
        name: &str,
        call: ArrayCall,
        operands: &[Operand],
    ) -> Result<Outcome, PromotionError> {
        let operands = counted(call, operands)?;
        let op = call.op();
        if call.dtype().is_some() && !takes_dtype(op) {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!("Tensor.{name}() got an unexpected keyword argument 'dtype'"),
            ));
        }
        let dtype = match call.dtype() {
            Some(dtype) => Some(self.node_type(dtype_node(dtype)?).dtype),
            None => None,
        };
        // Every operand is looked up before the call runs.
        let mut nodes = Vec::with_capacity(operands.len());
        for operand in operands {
            nodes.push(match self.value(operand)? {
                Value::Tensor(node) => Some(node),
                Value::Python(_) => None,
            });
        }
        let Some(first) = nodes[0] else {
            return Err(no_method(&operands[0], name));
        };
        match op.family() {
            Family::Reduction => Ok(self.reduce(op, first, dtype)),
            Family::Contraction => {
                let Some(second) = nodes[1] else {
                    return Err(PromotionError::framework(
                        ErrorKind::Type,
                        format!("Tensor.{name} takes two tensors, not a Python value"),
                    ));
                };
                Ok(self.contract(op, first, second, dtype))
            }
            Family::Combination => self.combine(op, operands, first, dtype).map(Outcome::of),
        }
    }

    /// `sum_acc_dtype`: the dtype a sum of `node` accumulates in.
    fn sum_acc(self, node: usize) -> DType {
        let strong = self.node_type(node).dtype;
        let floor = match strong.kind() {
            Kind::Unsigned => DType::UInt32,
            Kind::Signed | Kind::Bool => DType::Int32,
            _ => DType::Float32,
        };
        let floor = node_of_label(floor.name());
        self.node_type(least_upper([node, floor]).unwrap_or(floor))
            .dtype
    }

    /// `sum`'s result: the accumulator, cast back for the floats narrower
    /// than `float32`.
    fn summed(self, node: usize) -> Outcome {
        let own = self.node_type(node);
        let acc = self.sum_acc(node);
        let narrow = !own.weak && own.dtype.kind() == Kind::Float && own.dtype.bits() < 32;
        Outcome::new(
            Typed::strong(if narrow { own.dtype } else { acc }),
            Some(acc),
        )
    }

    fn reduce(self, op: ArrayOp, node: usize, dtype: Option<DType>) -> Outcome {
        // `_reduce` reduces the stored dtype of a weak tensor.
        let own = self.node_type(node).dtype;
        match (op, dtype) {
            (ArrayOp::Sum, Some(dtype)) => Outcome::new(Typed::strong(dtype), Some(dtype)),
            (ArrayOp::Prod, Some(dtype)) => Outcome::of(Typed::strong(dtype)),
            (ArrayOp::Sum | ArrayOp::CumSum, _) => self.summed(node),
            (ArrayOp::Mean | ArrayOp::Var | ArrayOp::Std, _) => Outcome::new(
                Typed::strong(if own.kind() == Kind::Float {
                    own
                } else {
                    DType::Float32
                }),
                Some(self.sum_acc(node)),
            ),
            (ArrayOp::ArgMax | ArrayOp::ArgMin, _) => Outcome::of(Typed::strong(DType::Int32)),
            (ArrayOp::Any | ArrayOp::All, _) => Outcome::of(Typed::strong(DType::Bool)),
            _ => Outcome::of(Typed::strong(own)),
        }
    }

    /// `(x * w).sum(dtype=dtype)`, cast back to the promotion by `matmul`
    /// and `dot`.
    fn contract(self, op: ArrayOp, a: usize, b: usize, dtype: Option<DType>) -> Outcome {
        if let Some(dtype) = dtype {
            return Outcome::new(Typed::strong(dtype), Some(dtype));
        }
        let promoted = least_upper([a, b]).unwrap_or(a);
        let summed = self.summed(promoted);
        if op == ArrayOp::Einsum {
            return summed;
        }
        Outcome::new(self.node_type(promoted), summed.computes_in())
    }

    fn combine(
        self,
        op: ArrayOp,
        operands: &[Operand],
        first: usize,
        dtype: Option<DType>,
    ) -> Result<Typed, PromotionError> {
        use crate::policy::Policy;
        match op {
            ArrayOp::Where => self.result_type(&operands[1..]),
            // `clamp`: `maximum(min_)`, then `minimum(max_)`, each a
            // promotion of two.
            ArrayOp::Clip => {
                let mut joined = self.operand_node(&operands[0])?;
                // A bound of `None` is no bound.
                for bound in operands[1..].iter().filter(|b| !b.is_none()) {
                    let node = self.operand_node(bound)?;
                    joined = least_upper([joined, node]).unwrap_or(joined);
                }
                Ok(self.node_type(joined))
            }
            ArrayOp::Concatenate | ArrayOp::Stack => self.result_type(operands),
            _ => {
                let target = dtype.unwrap_or(self.node_type(first).dtype);
                fill(target, &operands[1])?;
                Ok(Typed::strong(target))
            }
        }
    }
}

/// `dt.const(value)`: Python's `bool`, `int` or `float` of the value.
fn fill(target: DType, value: &Operand) -> Result<(), PromotionError> {
    let class = match scalar_type(value) {
        Some(PyScalar::Complex) => "complex",
        Some(_) => return Ok(()),
        None if value.is_none() => "NoneType",
        None => "Tensor",
    };
    let message = match target.kind() {
        Kind::Bool if class == "Tensor" => "__bool__ on Tensor is not defined".to_owned(),
        Kind::Bool => return Ok(()),
        Kind::Float => {
            format!("float() argument must be a string or a real number, not '{class}'")
        }
        _ => format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{class}'"
        ),
    };
    Err(PromotionError::framework(ErrorKind::Type, message))
}

/// How tinygrad answers `op`, in words.
pub(super) fn describe(op: ArrayOp) -> Option<String> {
    let name = method(op)?;
    let rule = match op {
        ArrayOp::Sum | ArrayOp::CumSum => {
            "accumulates in sum_acc_dtype (integers at least int32, uint32 if unsigned; floats \
             at least float32) and answers it, but float16, bfloat16 and float8 cast back to \
             their own; sum's dtype= both accumulates in and answers it"
        }
        ArrayOp::Mean | ArrayOp::Var | ArrayOp::Std => {
            "accumulates in sum_acc_dtype; a float input's own dtype, float32 for bool and \
             integers"
        }
        ArrayOp::ArgMax | ArrayOp::ArgMin => "int32",
        ArrayOp::Any | ArrayOp::All => "bool",
        ArrayOp::Matmul | ArrayOp::Dot => {
            "the operands' promotion, summed in its sum_acc_dtype; dtype= accumulates in and \
             answers it"
        }
        ArrayOp::Einsum => "the sum's dtype of the operands' promotion; dtype= answers it",
        ArrayOp::Where | ArrayOp::Clip | ArrayOp::Concatenate | ArrayOp::Stack => {
            "the operands promoted as x + y (weak results included)"
        }
        ArrayOp::FullLike => {
            "the tensor's dtype (or dtype=), the value converted by Python's int, float or bool"
        }
        _ => "the input's dtype (stored dtype of a weak tensor)",
    };
    Some(format!("Tensor.{name}: {rule}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;

    #[test]
    fn int8_contractions_compute_in_int32_and_answer_int8() {
        let x = Operand::array(DType::Int8, false);
        let tinygrad = Tinygrad::default();
        let matmul = tinygrad
            .array_op(&ArrayCall::new(ArrayOp::Matmul), &[x, x])
            .unwrap()
            .unwrap();
        assert_eq!(matmul.to_string(), "int8 (computes in int32)");
        let clip = ArrayCall::new(ArrayOp::Clip);
        let clipped = tinygrad.array_op(&clip, &[x, Operand::NONE, Operand::py_int(3)]);
        assert_eq!(
            clipped.unwrap().unwrap().result(),
            Typed::strong(DType::Int8)
        );
    }
}
