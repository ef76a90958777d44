//! `tf.experimental.numpy` (tnp) under NumPy behaviour (policy
//! `tensorflow-numpy`, `tensorflow_numpy_behavior` legacy, safe or all):
//! its functions bring their operands to one dtype in Python, each in its
//! own way ([`Promote`]), and then call the TensorFlow function of
//! [`ops`](super::ops) on tensors of that dtype.
//!
//! Where they take NumPy's `result_type` (`np_dtypes._result_type`),
//! `prefer_float32` makes a Python float NumPy's float32 and a complex
//! complex64 first. Where they take `np_utils.result_type`, that is auto
//! dtype conversion's in modes safe and all, `np_dtypes._result_type` in
//! mode legacy, which also gives the default dtypes of Python scalars
//! (int64, float64) and of `result_type(float)` (float64).
//!
//! * The binary arithmetic, bitwise and `maximum` functions (`_bin_op`)
//!   take NumPy's `result_type` of the operands' dtypes and Python scalars
//!   (`np_utils._result_type_binary`; a `WeakTensor` counts as its dtype),
//!   falling back to TensorFlow's auto dtype conversion only where NumPy
//!   raises `ValueError`; two bools go to a function of their own.
//! * The comparisons (`_comparison`) take auto dtype conversion's result
//!   type (`np_utils.result_type`), and `less` and the like compare bools
//!   as int32.
//! * `logical_and` converts both operands to bool.
//! * The unary functions (`_scalar`) make their operand an array as it is
//!   (a Python scalar by its weak type) and `sqrt`, `exp`, `floor` cast
//!   what is not a NumPy float or complex to `result_type(float)`.
//!
//! Converting an operand to a dtype is `tnp.array(x, dtype)`: a tensor is
//! cast (`Cast`, which lacks many pairs of the narrow dtypes), a Python
//! scalar converted with the dtype as a hint, then cast.

use super::convert::casts;
use super::kernels::{self, cpp_name};
use super::{auto_typed, known, Mode, TensorFlow, Value};
use crate::frameworks::common::OpTable;
use crate::frameworks::numpy::Numpy;
use crate::policy::Policy;
use crate::prelude::*;
use crate::types::{
    DType, ErrorKind, Kind, Op, Operand, PromotionError, PyScalar, TypeSpec, Typed,
};

/// How a tnp function brings its operands to one dtype.
#[derive(Clone, Copy)]
enum Promote {
    /// `_bin_op`: NumPy's result type; two bools as [`OnBool`] says.
    Binary(OnBool),
    /// `maximum`: `tf.nn.relu` of a non-bool tensor beside a Python int
    /// or float equal to zero (its fast path for `maximum(x, 0)`), else
    /// `Binary(OnBool::Logical)`.
    Maximum,
    /// `_comparison`: auto dtype conversion's result type, bools compared
    /// as int32 where `cast_bool_to_int` is set.
    Comparison { bool_as_int32: bool },
    /// `_logical_binary_op`: both operands converted to bool.
    Logical,
    /// `_scalar`: the operand as an array, cast to a float first where
    /// `promote_to_float` is set and it is not NumPy's float or complex.
    Unary { to_float: bool },
}

/// What a `_bin_op` function does with two bool tensors.
#[derive(Clone, Copy)]
enum OnBool {
    /// Calls the TensorFlow function on them as they are.
    Call,
    /// A logical function instead (`logical_or` for `add` and `maximum`,
    /// `logical_and` for `multiply`): a bool.
    Logical,
    /// Casts them to this dtype first and answers that call's dtype.
    Cast(DType),
    /// `true_divide`: casts them to `result_type(float)` first.
    Float,
    /// The bitwise functions: through int8, and the result cast back to
    /// bool.
    ThroughInt8,
}

/// Each operation's way, in [`Op`]'s order.
const PROMOTE: OpTable<Promote> = OpTable::new([
    (Op::Add, Promote::Binary(OnBool::Logical)),
    (Op::Subtract, Promote::Binary(OnBool::Call)),
    (Op::Multiply, Promote::Binary(OnBool::Logical)),
    (Op::TrueDivide, Promote::Binary(OnBool::Float)),
    (Op::FloorDivide, Promote::Binary(OnBool::Cast(DType::Int8))),
    (Op::Remainder, Promote::Binary(OnBool::Cast(DType::Int8))),
    (Op::Power, Promote::Binary(OnBool::Call)),
    (Op::Maximum, Promote::Maximum),
    (
        Op::Equal,
        Promote::Comparison {
            bool_as_int32: false,
        },
    ),
    (
        Op::NotEqual,
        Promote::Comparison {
            bool_as_int32: false,
        },
    ),
    (
        Op::Less,
        Promote::Comparison {
            bool_as_int32: true,
        },
    ),
    (
        Op::LessEqual,
        Promote::Comparison {
            bool_as_int32: true,
        },
    ),
    (
        Op::Greater,
        Promote::Comparison {
            bool_as_int32: true,
        },
    ),
    (
        Op::GreaterEqual,
        Promote::Comparison {
            bool_as_int32: true,
        },
    ),
    (Op::BitwiseAnd, Promote::Binary(OnBool::ThroughInt8)),
    (Op::BitwiseOr, Promote::Binary(OnBool::ThroughInt8)),
    (Op::BitwiseXor, Promote::Binary(OnBool::ThroughInt8)),
    (Op::LogicalAnd, Promote::Logical),
    (Op::Negative, Promote::Unary { to_float: false }),
    (Op::Abs, Promote::Unary { to_float: false }),
    (Op::Sign, Promote::Unary { to_float: false }),
    (Op::Sqrt, Promote::Unary { to_float: true }),
    (Op::Exp, Promote::Unary { to_float: true }),
    (Op::Floor, Promote::Unary { to_float: true }),
]);

/// `_bin_op`'s rule in words, `then` the function it calls.
fn binary_rule(then: &str, on_bool: OnBool) -> String {
    let bools = match on_bool {
        OnBool::Call => String::new(),
        OnBool::Logical => "; two bools go to a logical function: bool".to_owned(),
        OnBool::Cast(to) => format!("; two bools are cast to {to} first"),
        OnBool::Float => "; two bools are cast to result_type(float) first".to_owned(),
        OnBool::ThroughInt8 => "; two bools go through int8 and the result back to bool".to_owned(),
    };
    format!(
        "NumPy's result_type of the operands' dtypes and Python scalars (a WeakTensor as its \
         dtype; auto dtype conversion's where NumPy raises ValueError), each operand cast or \
         converted to it, {then}{bools}"
    )
}

/// `tnp.<op>`'s rule in words under `mode`, for `explain --op`.
pub(super) fn describe(mode: Mode, op: Op) -> String {
    let legacy = !mode.converts();
    let function = super::function_name(op);
    let then = format!("then {function} on tensors of that dtype");
    let rule = match PROMOTE[op] {
        Promote::Maximum => format!(
            "tf.nn.relu of a non-bool tensor beside a Python int or float equal to 0 (its fast \
             path for maximum(x, 0)), otherwise as the other arithmetic: {}",
            binary_rule(&then, OnBool::Logical)
        ),
        Promote::Binary(on_bool) => binary_rule(&then, on_bool),
        Promote::Comparison { bool_as_int32 } => format!(
            "{}, each operand cast or converted to it{}, {then}",
            if legacy {
                "NumPy's result_type (np_dtypes._result_type)"
            } else {
                "auto dtype conversion's result type"
            },
            if bool_as_int32 {
                " (bools compared as int32)"
            } else {
                ""
            }
        ),
        Promote::Logical => format!("both operands cast or converted to bool, {then}"),
        Promote::Unary { to_float } if legacy => format!(
            "the operand as an array (a Python scalar as NumPy's result_type makes it: int64, \
             float64){}, then {function}",
            if to_float {
                ", cast to result_type(float) (float64) unless a NumPy float or complex"
            } else {
                ""
            }
        ),
        Promote::Unary { to_float } => format!(
            "the operand as an array (a Python scalar as its weak type){}, then {function} with \
             NumPy behaviour's unary wrapper (a weak operand keeps its result weak)",
            if to_float {
                ", cast to result_type(float) (float32) unless a NumPy float or complex"
            } else {
                ""
            }
        ),
    };
    format!("tnp.{}: {rule}", op.name())
}

impl TensorFlow {
    /// `tnp.<op>(*operands)`.
    pub(super) fn tnp_op(&self, op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let values = self.values(operands)?;
        if values.len() != op.arity() {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "tnp.{} takes {} operand(s), not {}",
                    op.name(),
                    op.arity(),
                    values.len()
                ),
            ));
        }
        match PROMOTE[op] {
            Promote::Binary(on_bool) => self.binary(op, on_bool, &values),
            Promote::Maximum => match values[..] {
                // `nn_ops.relu` of the tensor, through its fast path.
                [Value::Tensor { dtype, weak: false }, Value::Int(0)]
                | [Value::Tensor { dtype, weak: false }, Value::Float(0.0)]
                    if dtype != DType::Bool =>
                {
                    kernels::RELU
                        .run(&[dtype], &values[..1], true)
                        .map(Typed::strong)
                }
                _ => self.binary(op, OnBool::Logical, &values),
            },
            Promote::Comparison { bool_as_int32 } => {
                let dtype = if self.mode().converts() {
                    self.auto_result_type(&values)?.dtype
                } else {
                    self.np_dtypes_result_type(&values)?
                };
                self.convert_all(op, &values, dtype)?;
                let dtype = if bool_as_int32 && dtype == DType::Bool {
                    DType::Int32
                } else {
                    dtype
                };
                self.call_on(op, dtype, &values).map(Typed::strong)
            }
            Promote::Logical => {
                self.convert_all(op, &values, DType::Bool)?;
                self.call_on(op, DType::Bool, &values).map(Typed::strong)
            }
            Promote::Unary { to_float } => self.scalar(op, values[0], to_float),
        }
    }

    /// `_bin_op`: both operands converted to NumPy's result type, then
    /// the function.
    fn binary(&self, op: Op, on_bool: OnBool, values: &[Value]) -> Result<Typed, PromotionError> {
        let dtype = self.numpy_result_type(values)?;
        self.convert_all(op, values, dtype)?;
        self.bin_op(op, on_bool, dtype, values).map(Typed::strong)
    }

    /// `np_utils._result_type_binary`: NumPy's `result_type` of the
    /// operands' dtypes (a `WeakTensor`'s as a strong one) and Python
    /// scalars; where NumPy raises `ValueError`, `np_utils.result_type`
    /// (auto dtype conversion's in modes safe and all; in mode legacy the
    /// same NumPy `result_type`, which raises again).
    pub(super) fn numpy_result_type(&self, values: &[Value]) -> Result<DType, PromotionError> {
        match self.np_dtypes_result_type(values) {
            Err(err) if err.python_type() == "ValueError" && self.mode().converts() => {
                Ok(self.auto_result_type(values)?.dtype)
            }
            other => other,
        }
    }

    /// `np_dtypes._result_type`: NumPy's `result_type` of the operands'
    /// dtypes and Python scalars, a Python float or complex first made
    /// NumPy's float32 or complex64 where `prefer_float32` is set.
    pub(super) fn np_dtypes_result_type(&self, values: &[Value]) -> Result<DType, PromotionError> {
        let as_numpy: Vec<Operand> = values
            .iter()
            .map(|&value| match value {
                Value::Tensor { dtype, .. } => Operand::dtype(dtype),
                Value::Float(_) if self.prefer_float32() => Operand::dtype(DType::Float32),
                Value::Complex { .. } if self.prefer_float32() => Operand::dtype(DType::Complex64),
                _ => value.operand(),
            })
            .collect();
        Numpy.result_type(&as_numpy).map(|typed| typed.dtype)
    }

    /// `tnp.result_type(a, b)` of two types in mode legacy: NumPy's, a
    /// Python type its NumPy dtype (`float` is float64 whatever
    /// `prefer_float32` says, which converts only values).
    pub(super) fn legacy_promote_types(
        &self,
        a: TypeSpec,
        b: TypeSpec,
    ) -> Result<DType, PromotionError> {
        let numpy = |spec: TypeSpec| -> Result<Operand, PromotionError> {
            Ok(Operand::dtype(match spec {
                TypeSpec::DType(dtype) => known(dtype)?,
                TypeSpec::Python(PyScalar::Bool) => DType::Bool,
                TypeSpec::Python(PyScalar::Int) => DType::Int64,
                TypeSpec::Python(PyScalar::Float) => DType::Float64,
                TypeSpec::Python(PyScalar::Complex) => DType::Complex128,
            }))
        };
        Numpy
            .result_type(&[numpy(a)?, numpy(b)?])
            .map(|typed| typed.dtype)
    }

    /// `tnp.result_type(*operands)` in mode legacy: `np_dtypes._result_type`
    /// of the tensors' dtypes and the Python scalars.
    pub(super) fn legacy_result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let values = self.values(operands)?;
        self.np_dtypes_result_type(&values).map(Typed::strong)
    }

    /// `result_type(float)`, the float `true_divide` and the unary float
    /// functions cast to: auto dtype conversion's in modes safe and all
    /// (a weak float32), NumPy's float64 in mode legacy (`prefer_float32`
    /// makes floats float32, not the type `float`).
    pub(super) fn float_type(&self) -> Result<DType, PromotionError> {
        if self.mode().converts() {
            return Ok(self.auto_result_type(&[Value::Float(0.0)])?.dtype);
        }
        Ok(DType::Float64)
    }

    /// `tnp.array(value, dtype)` of every operand of `op`, in order.
    fn convert_all(&self, op: Op, values: &[Value], dtype: DType) -> Result<(), PromotionError> {
        for (position, &value) in values.iter().enumerate() {
            self.first_uint64_failure(op, position, value, dtype)?;
            self.tnp_array(value, dtype)?;
        }
        Ok(())
    }

    /// `tnp.array(value, dtype)`: a tensor cast; a Python scalar converted
    /// with `dtype` as a hint, then cast.
    pub(super) fn tnp_array(&self, value: Value, dtype: DType) -> Result<(), PromotionError> {
        let from = match value {
            Value::Tensor { dtype: from, .. } => from,
            _ => self.hinted(value, Some(dtype))?,
        };
        cast(from, dtype)
    }

    /// The function `_bin_op` calls on two tensors of `dtype`.
    fn bin_op(
        &self,
        op: Op,
        on_bool: OnBool,
        dtype: DType,
        held: &[Value],
    ) -> Result<DType, PromotionError> {
        if dtype != DType::Bool {
            return self.call_on(op, dtype, held);
        }
        match on_bool {
            OnBool::Call => self.call_on(op, dtype, held),
            OnBool::Logical => Ok(DType::Bool),
            OnBool::Cast(to) => self.call_on(op, to, held),
            OnBool::Float => self.call_on(op, self.float_type()?, held),
            OnBool::ThroughInt8 => self.call_on(op, DType::Int8, held).map(|_| DType::Bool),
        }
    }

    /// `_scalar`: `tnp.asarray(value)` (a tensor as it is, a Python scalar
    /// by its weak type), cast to `result_type(float)` where `to_float`
    /// asks and it is not NumPy's float or complex, then the function
    /// with NumPy behaviour's unary wrapper, which keeps a weak operand
    /// weak.
    fn scalar(&self, op: Op, value: Value, to_float: bool) -> Result<Typed, PromotionError> {
        let mut typed = if self.mode().converts() {
            auto_typed(value)?
        } else {
            Typed::strong(self.np_dtypes_result_type(&[value])?)
        };
        if !matches!(value, Value::Tensor { .. }) {
            self.hinted(value, Some(typed.dtype))?;
        }
        let inexact = matches!(typed.dtype.kind(), Kind::Float | Kind::Complex)
            && !typed.dtype.is_ml_dtypes();
        if to_float && !inexact {
            let float = self.float_type()?;
            cast(typed.dtype, float)?;
            typed.dtype = float;
        }
        self.call_op(op, &[Operand::array(typed.dtype, typed.weak)])
    }
}

/// `tf.cast` of a tensor of `from` to `to`: nothing to do for one dtype,
/// the CPU `Cast` kernel's error where it lacks the pair.
pub(crate) fn cast(from: DType, to: DType) -> Result<(), PromotionError> {
    if from == to || casts(from, to) {
        return Ok(());
    }
    let (from, to) = (cpp_name(from), cpp_name(to));
    Err(PromotionError::framework(
        ErrorKind::Unimplemented,
        format!(
            "{{{{function_node __wrapped__Cast_device_/job:localhost/replica:0/task:0/device:CPU:0}}}} \
             Cast {from} to {to} is not supported [Op:Cast] name: "
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::tensorflow::{Api, Mode};

    fn tnp(op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let tf = TensorFlow::new(Mode::All).with_api(Api::Tnp);
        tf.operation(op, operands)
            .expect("tnp answers every operation")
    }

    // Beyond the golden data (whose Python scalars have no zero), each
    // checked against TensorFlow 2.21: `maximum(x, 0)` is `tf.nn.relu(x)`.
    #[test]
    fn maximum_with_a_zero_is_relu() {
        let int8 = Operand::dtype(DType::Int8);
        for zero in [Operand::py_int(0), Operand::py_float(0.0)] {
            assert_eq!(
                tnp(Op::Maximum, &[int8, zero]),
                Ok(Typed::strong(DType::Int8))
            );
        }
        // Not for a bool tensor, a WeakTensor or a Python False.
        let bool_ = Operand::dtype(DType::Bool);
        assert_eq!(
            tnp(Op::Maximum, &[bool_, Operand::py_float(0.0)]),
            Ok(Typed::strong(DType::Float64))
        );
        assert_eq!(
            tnp(Op::Maximum, &[bool_, Operand::py_bool(false)]),
            Ok(Typed::strong(DType::Bool))
        );
        let weak = Operand::array(DType::Int32, true);
        assert_eq!(
            tnp(Op::Maximum, &[weak, Operand::py_float(0.0)]),
            Ok(Typed::strong(DType::Float64))
        );
        let complex = Operand::dtype(DType::Complex64);
        assert_eq!(
            tnp(Op::Maximum, &[complex, Operand::py_int(0)])
                .unwrap_err()
                .to_string(),
            "Value for attr 'T' of complex64 is not in the list of allowed values: float, double, \
             int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, qint8\n\t; \
             NodeDef: {{node Relu}}; Op<name=Relu; signature=features:T -> activations:T; \
             attr=T:type,allowed=[DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, \
             DT_INT64, DT_BFLOAT16, DT_UINT16, DT_HALF, DT_UINT32, DT_UINT64, DT_QINT8]> \
             [Op:Relu] name: "
        );
    }
}
