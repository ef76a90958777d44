//! tinygrad's forms beside its operators: the methods that are its
//! functions (`ops.rs`), `abs(x)`, the reflected and in-place operators,
//! and `x[...] = v`.
//!
//! A Tensor's reflected method promotes as its operator does, with the
//! operands in the order written ([`Arrays`]). `x OP= b` is
//! `x.assign(x.OP(b))`: the result must have `x`'s dtype (a weak result
//! first joined with it), or `assign` raises; a weak tensor (`Tensor(2)`)
//! is cloned into a strong one of its stored dtype first, and tinygrad has
//! no `__imod__`, so `x %= b` rebinds `x` to `x % b`. `x[...] = v` takes a
//! Python number as `Tensor(v, dtype=x.dtype)`, and a tensor only of `x`'s
//! dtype (a weak one joined with it first).

use super::{graph, least_upper, node_of_label, ops, Tinygrad, Value, WEAK_FLOAT, WEAK_INT};
use crate::frameworks::common::Arrays;
use crate::frameworks::python::{self, Number};
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Op, OpForm, Operand, OperandKind, PromotionError, Typed};

/// `op` in `form`, a form other than its batch default.
pub(super) fn operation_as(
    tinygrad: Tinygrad,
    op: Op,
    form: OpForm,
    operands: &[Operand],
) -> Option<Result<Typed, PromotionError>> {
    if form == OpForm::Function {
        return ops::function(tinygrad, op, operands);
    }
    let arrays = Arrays {
        array: "tensor",
        function: |op, operands: &[Operand]| Some(operator(tinygrad, op, operands)),
        inplace: |op, a, b| Some(inplace(tinygrad, op, a, b)),
    };
    arrays.answer(op, form, operands)
}

/// `a OP b`: the batch default but for `abs(x)`, which a Tensor refuses,
/// having no `__abs__`.
fn operator(tinygrad: Tinygrad, op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
    match operands {
        [x] if op == Op::Abs => {
            let class = match tinygrad.value(x)? {
                Value::Tensor(_) => "Tensor",
                Value::Python(x) => super::python_class(&x),
            };
            Err(PromotionError::framework(
                ErrorKind::Type,
                format!("bad operand type for abs(): '{class}'"),
            ))
        }
        _ => ops::operation(tinygrad, op, operands),
    }
}

/// `a OP= b` for a tensor (or `None`) `a`.
fn inplace(tinygrad: Tinygrad, op: Op, a: Operand, b: Operand) -> Result<Typed, PromotionError> {
    let computed = ops::operation(tinygrad, op, &[a, b]);
    let Value::Tensor(target) = tinygrad.value(&a)? else {
        // `None OP= b`: Python's `a = a OP b`.
        return computed;
    };
    if op == Op::Remainder {
        return computed;
    }
    let result = node_of(computed?);
    // `assign` clones a weak tensor into a strong one of its stored dtype.
    let target = strong(tinygrad, target);
    let stored = if is_weak(result) {
        least_upper([target, result]).expect("two nodes")
    } else {
        result
    };
    if stored != target {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            format!("assign dtype mismatch {} != {}", repr(target), repr(stored)),
        ));
    }
    Ok(tinygrad.node_type(target))
}

/// `target[...] = value`.
pub(super) fn assign(
    tinygrad: Tinygrad,
    target: Operand,
    value: Operand,
) -> Result<Typed, PromotionError> {
    let (target, value) = (target.as_argument(), value.as_argument());
    let Value::Tensor(node) = tinygrad.value(&target)? else {
        return Err(python::no_item_assignment(Number::of(target.kind())));
    };
    let given = tinygrad.value(&value)?;
    if is_weak(node) {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            "cannot setitem into a weak tensor; it has no storage",
        ));
    }
    match given {
        Value::Tensor(v) => {
            let v = if is_weak(v) {
                least_upper([node, v]).expect("two nodes")
            } else {
                v
            };
            if v != node {
                return Err(PromotionError::framework(
                    ErrorKind::Runtime,
                    format!(
                        "setitem dtype mismatch: self.dtype={} != v.dtype={}",
                        repr(node),
                        repr(v)
                    ),
                ));
            }
        }
        Value::Python(v) => {
            if let OperandKind::PyComplex { .. } | OperandKind::PyType(crate::PyScalar::Complex) =
                v.kind()
            {
                return Err(PromotionError::framework(
                    ErrorKind::Runtime,
                    format!(
                        "can't create Tensor from {} with type <class 'complex'>",
                        super::python_repr(&v)
                    ),
                ));
            }
        }
    }
    Ok(tinygrad.node_type(node))
}

/// The node a result stands for: its dtype's, or a weak type's.
fn node_of(typed: Typed) -> usize {
    match (typed.weak, typed.dtype.is_integer()) {
        (true, true) => node_of_label(WEAK_INT),
        (true, false) => node_of_label(WEAK_FLOAT),
        (false, _) => node_of_label(typed.dtype.name()),
    }
}

fn is_weak(node: usize) -> bool {
    matches!(graph().poset.label(node), WEAK_INT | WEAK_FLOAT)
}

/// A weak node's stored dtype (`DEFAULT_INT`, `DEFAULT_FLOAT`), strong;
/// any other node itself.
fn strong(tinygrad: Tinygrad, node: usize) -> usize {
    if is_weak(node) {
        node_of_label(tinygrad.node_type(node).dtype.name())
    } else {
        node
    }
}

/// tinygrad's `repr` of a node's dtype (`dtypes.char` for `int8`).
fn repr(node: usize) -> String {
    let label = graph().poset.label(node);
    let name = match DType::from_name(label) {
        Ok(DType::UInt8) => "uchar",
        Ok(DType::UInt16) => "ushort",
        Ok(DType::UInt32) => "uint",
        Ok(DType::UInt64) => "ulong",
        Ok(DType::Int8) => "char",
        Ok(DType::Int16) => "short",
        Ok(DType::Int32) => "int",
        Ok(DType::Int64) => "long",
        Ok(DType::Float8E4M3Fn) => "fp8e4m3",
        Ok(DType::Float8E5M2) => "fp8e5m2",
        Ok(DType::Float8E4M3Fnuz) => "fp8e4m3fnuz",
        Ok(DType::Float8E5M2Fnuz) => "fp8e5m2fnuz",
        Ok(DType::Float16) => "half",
        Ok(DType::Float32) => "float",
        Ok(DType::Float64) => "double",
        _ => label,
    };
    format!("dtypes.{name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Policy;

    fn inplace(op: Op, a: Operand, b: Operand) -> String {
        match Tinygrad::default().operation_as(op, OpForm::InPlace, &[a, b]) {
            Some(Ok(typed)) => typed.to_string(),
            Some(Err(err)) => format!("{}: {err}", err.python_type()),
            None => "not modelled".to_owned(),
        }
    }

    // A weak tensor is zero-dimensional, so the golden data has no
    // in-place rows for it (a shape-(2,) operand does not broadcast into
    // it); each measured with tinygrad 0.14.0 (DEV=PYTHON).
    #[test]
    fn a_weak_tensor_in_place_is_cloned_into_its_stored_dtype() {
        let (weak_int, weak_float) = (
            Operand::array(DType::Int32, true),
            Operand::array(DType::Float32, true),
        );
        assert_eq!(inplace(Op::Add, weak_int, Operand::py_int(2)), "int32");
        assert_eq!(
            inplace(Op::Add, weak_int, Operand::py_float(2.5)),
            "RuntimeError: assign dtype mismatch dtypes.int != dtypes.weakfloat"
        );
        assert_eq!(inplace(Op::FloorDivide, weak_int, weak_int), "int32");
        assert_eq!(
            inplace(Op::Remainder, weak_int, Operand::py_int(2)),
            "int32 (weak)"
        );
        assert_eq!(inplace(Op::Add, weak_float, Operand::py_int(2)), "float32");
    }

    #[test]
    fn none_takes_any_assignment_and_gives_way_in_place() {
        let x = Operand::array(DType::Int8, false);
        let t = Tinygrad::default();
        assert_eq!(
            t.assign(x, Operand::NONE),
            Some(Ok(Typed::strong(DType::Int8)))
        );
        assert_eq!(
            inplace(Op::Add, Operand::NONE, x),
            "RuntimeError: Could not infer dtype of None with type <class 'NoneType'>"
        );
    }
}
