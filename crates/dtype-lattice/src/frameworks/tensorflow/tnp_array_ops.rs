//! `tf.experimental.numpy`'s operations on whole arrays (`tnp.sum`,
//! `tnp.matmul`, `tnp.where`, ...), policy `tensorflow-numpy`.
//!
//! Each function brings its operands to a dtype in Python, then calls the
//! TensorFlow function whose kernel data [`array_ops`](super::array_ops)
//! holds. The dtype comes from one of two places: `np_utils.result_type`
//! (auto dtype conversion's in modes safe and all, NumPy's in mode
//! legacy; `where`, `clip`, `concatenate`, `stack`, `einsum`), or
//! `_bin_op`'s NumPy result type (`matmul`, `dot`, `tensordot`), as for
//! the elementwise functions of [`tnp`](super::tnp). Converting an operand
//! to it is `tnp.array(x, dtype)`: a tensor cast, which lacks many pairs of
//! the narrow dtypes.
//!
//! The reductions (`_reduce`) widen: `sum` and `prod` of `bool` and of
//! NumPy's integers narrower than `int32` under auto dtype conversion (than
//! `int64` in mode legacy) to that width, signedness kept; `mean`, `var`,
//! `std` of them to `result_type(float)`; `cumsum` and `cumprod` of any
//! integer to NumPy's `promote_types(x, int)`, which auto dtype conversion
//! reads as a Python type (`np.dtype('int64') == int`): `int32`.
//!
//! ```
//! use dtype_lattice::frameworks::tensorflow::{Api, Mode, TensorFlow};
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let tnp = TensorFlow::new(Mode::Safe).with_api(Api::Tnp);
//! let x = Operand::array(DType::Int8, false);
//! let sum = tnp.array_op(&ArrayCall::new(ArrayOp::Sum), &[x]).unwrap().unwrap();
//! assert_eq!(sum.result().dtype, DType::Int32);
//! let legacy = TensorFlow::new(Mode::Legacy).with_api(Api::Tnp);
//! let sum = legacy.array_op(&ArrayCall::new(ArrayOp::Sum), &[x]).unwrap().unwrap();
//! assert_eq!(sum.result().dtype, DType::Int64);
//! ```

use super::array_ops::{
    reduction_kernel, renumbered, tensor, ALL, ANY, BROADCAST_TO, CONCAT_V2, EINSUM, PACK,
};
use super::tnp::cast;
use super::{known, Mode, TensorFlow, Value};
use crate::frameworks::common::array_ops::counted;
use crate::frameworks::numpy::Numpy;
use crate::policy::Policy;
use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Kind, Operand, Outcome, PromotionError, TypeSpec, Typed,
};

/// How `_reduce` widens a `bool` or integer input given no `dtype=`.
#[derive(Clone, Copy, PartialEq)]
enum Widen {
    /// `_TO_INT_`: to the default integer's width, signedness kept.
    ToInt,
    /// `_TO_FLOAT`: to `result_type(float)`.
    ToFloat,
    /// Not at all.
    No,
}

/// `_reduce`'s arguments for a function: how it widens, and the `bool`
/// reduction it calls instead where `dtype=bool` (or, for `max`/`min`,
/// where the input is `bool`).
struct Reduce {
    widen: Widen,
    on_bool: Option<&'static super::kernels::Kernel>,
    keeps_bool: bool,
}

fn reduce_args(op: ArrayOp) -> Option<Reduce> {
    let (widen, on_bool, keeps_bool) = match op {
        ArrayOp::Sum => (Widen::ToInt, Some(&ANY), false),
        ArrayOp::Prod => (Widen::ToInt, Some(&ALL), false),
        ArrayOp::Mean | ArrayOp::Var | ArrayOp::Std => (Widen::ToFloat, None, false),
        ArrayOp::Max => (Widen::No, Some(&ANY), true),
        ArrayOp::Min => (Widen::No, Some(&ALL), true),
        _ => return None,
    };
    Some(Reduce {
        widen,
        on_bool,
        keeps_bool,
    })
}

/// The functions that read `dtype=`; `einsum` takes `**kwargs` and reads
/// only `casting` and `optimize`, so it ignores one.
fn reads_dtype(op: ArrayOp) -> bool {
    matches!(
        op,
        ArrayOp::Sum
            | ArrayOp::Prod
            | ArrayOp::CumSum
            | ArrayOp::CumProd
            | ArrayOp::Mean
            | ArrayOp::Var
            | ArrayOp::FullLike
            | ArrayOp::Einsum
    )
}

/// The `TypeError` of a `dtype=` the function does not take; under auto
/// dtype conversion `weak_tensor_ops`' wrapper of `std` and `matmul`
/// leaves the function's name out.
fn unexpected_dtype(op: ArrayOp, mode: Mode) -> PromotionError {
    let name = match op {
        ArrayOp::Std | ArrayOp::Matmul if mode.converts() => String::new(),
        other => format!("{}()", other.name()),
    };
    PromotionError::framework(
        ErrorKind::Type,
        format!("{name} got an unexpected keyword argument 'dtype'")
            .trim_start()
            .to_owned(),
    )
}

impl TensorFlow {
    /// `tnp.<function>` of `call` on `operands`.
    pub(super) fn tnp_array_op(
        &self,
        call: ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        Some(self.tnp_array_call(call, operands).map(Outcome::of))
    }

    fn tnp_array_call(
        &self,
        call: ArrayCall,
        operands: &[Operand],
    ) -> Result<Typed, PromotionError> {
        self.refuse_tnp_off()?;
        let values = self.values(counted(call, operands)?)?;
        let op = call.op();
        let dtype = call.dtype().map(known).transpose()?;
        if dtype.is_some() && !reads_dtype(op) {
            return Err(unexpected_dtype(op, self.mode()));
        }
        if let Some(args) = reduce_args(op) {
            if op == ArrayOp::Var && dtype.is_some() {
                return self.var_as(values[0], dtype);
            }
            return self.tnp_reduce(op, &args, values[0], dtype);
        }
        let strong = |dtype| Ok(Typed::strong(dtype));
        match op {
            ArrayOp::CumSum | ArrayOp::CumProd => self.cumulative(op, values[0], dtype),
            ArrayOp::ArgMax | ArrayOp::ArgMin => {
                let x = self.as_array(values[0], None)?;
                self.reduce(op, reduction_kernel(op).unwrap_or(&ANY), tensor(x))
            }
            ArrayOp::Any | ArrayOp::All => {
                self.as_array(values[0], Some(DType::Bool))?;
                strong(DType::Bool)
            }
            // Under auto dtype conversion `weak_tensor_ops` wraps
            // `tnp.matmul` too: its operands are promoted first.
            ArrayOp::Matmul => self.wrapped(&values, true, |values| self.tnp_dot(op, values)),
            ArrayOp::Dot | ArrayOp::Tensordot => self.tnp_dot(op, &values).map(Typed::strong),
            ArrayOp::Einsum => {
                let d = self.promote_dtype(&values)?;
                self.run_generated(&EINSUM, &[tensor(d), tensor(d)])
                    .map(Typed::strong)
            }
            ArrayOp::Where => {
                self.as_array(values[0], Some(DType::Bool))?;
                let d = self.promote_dtype(&values[1..])?;
                self.select(&[tensor(DType::Bool), tensor(d), tensor(d)])
                    .map(Typed::strong)
            }
            ArrayOp::Clip => self.tnp_clip(&values),
            ArrayOp::Concatenate | ArrayOp::Stack => {
                let d = self.promote_dtype(&values)?;
                let kernel = if op == ArrayOp::Stack {
                    &PACK
                } else {
                    &CONCAT_V2
                };
                self.run_generated(kernel, &vec![tensor(d); values.len()])
                    .map(Typed::strong)
                    .map_err(|err| renumbered(err, values.len()))
            }
            _ => {
                // `full_like`: the array's dtype (`np_utils.result_type`
                // of it) or `dtype=`, the fill value converted to it.
                let d = match dtype {
                    Some(d) => d,
                    None => self.np_utils_result_type(&values[..1])?,
                };
                self.as_array(values[1], Some(d))?;
                BROADCAST_TO.check_type(d, true)?;
                strong(d)
            }
        }
    }

    /// `_bin_op`'s NumPy result type of the two, each cast to it, then
    /// TensorFlow's `MatMul`, whose refusal `tnp.matmul` re-raises as a
    /// `ValueError`.
    fn tnp_dot(&self, op: ArrayOp, values: &[Value]) -> Result<DType, PromotionError> {
        let d = self.numpy_result_type(values)?;
        self.convert_each(values, d)?;
        match self.plain_matmul(tensor(d), tensor(d)) {
            Err(PromotionError::Framework {
                kind: ErrorKind::InvalidArgument,
                message,
            }) if op == ArrayOp::Matmul => {
                Err(PromotionError::framework(ErrorKind::Value, message))
            }
            other => other,
        }
    }

    /// `np_utils.result_type(*values)`: auto dtype conversion's in modes
    /// safe and all, `np_dtypes._result_type` in mode legacy.
    fn np_utils_result_type(&self, values: &[Value]) -> Result<DType, PromotionError> {
        if self.mode().converts() {
            return Ok(self.auto_result_type(values)?.dtype);
        }
        self.np_dtypes_result_type(values)
    }

    /// `tnp.asarray(value, dtype)`: a tensor as it is or cast to `dtype`,
    /// a Python scalar converted to `dtype` or its own result type.
    fn as_array(&self, value: Value, dtype: Option<DType>) -> Result<DType, PromotionError> {
        match (value, dtype) {
            (Value::Tensor { dtype: from, .. }, None) => Ok(from),
            (_, Some(to)) => self.tnp_array(value, to).map(|()| to),
            (_, None) => {
                let to = self.np_utils_result_type(&[value])?;
                self.tnp_array(value, to).map(|()| to)
            }
        }
    }

    /// Every value converted to `dtype` (a tensor of it stays).
    fn convert_each(&self, values: &[Value], dtype: DType) -> Result<(), PromotionError> {
        values
            .iter()
            .try_for_each(|&value| self.tnp_array(value, dtype))
    }

    /// `_promote_dtype(*values)`: `np_utils.result_type` of them, each
    /// converted to it.
    fn promote_dtype(&self, values: &[Value]) -> Result<DType, PromotionError> {
        let dtype = self.np_utils_result_type(values)?;
        self.convert_each(values, dtype)?;
        Ok(dtype)
    }

    /// `_reduce(tf_fn, a, dtype=dtype, ...)`.
    fn tnp_reduce(
        &self,
        op: ArrayOp,
        args: &Reduce,
        value: Value,
        dtype: Option<DType>,
    ) -> Result<Typed, PromotionError> {
        let mut x = self.as_array(value, dtype)?;
        if let Some(kernel) = args.on_bool {
            if dtype == Some(DType::Bool) || (args.keeps_bool && x == DType::Bool) {
                return self.run_generated(kernel, &[tensor(x)]).map(Typed::strong);
            }
        }
        let numpy_integer = x == DType::Bool || (x.is_integer() && !x.is_ml_dtypes());
        if dtype.is_none() && numpy_integer {
            let to = match args.widen {
                Widen::ToInt => Some(self.default_width(x)),
                Widen::ToFloat => Some(self.float_type()?),
                Widen::No => None,
            };
            if let Some(to) = to {
                cast(x, to)?;
                x = to;
            }
        }
        let kernel = reduction_kernel(op).unwrap_or(&ANY);
        self.reduce(op, kernel, tensor(x))
    }

    /// `_TO_INT_`'s widening of `bool` or a NumPy integer: to 32 bits
    /// under auto dtype conversion, to `np.int_`'s 64 in mode legacy,
    /// unsigned staying unsigned (`bool` counts as signed).
    fn default_width(&self, x: DType) -> DType {
        let bits = if self.mode().converts() { 32 } else { 64 };
        if x.bits() >= bits && x != DType::Bool {
            return x;
        }
        match (x.kind() == Kind::Unsigned, bits) {
            (true, 32) => DType::UInt32,
            (true, _) => DType::UInt64,
            (false, 32) => DType::Int32,
            (false, _) => DType::Int64,
        }
    }

    /// `tnp.var(a, dtype=d)`: reduced in `np_utils.result_type(a, d)`,
    /// the result cast to `d`.
    fn var_as(&self, value: Value, dtype: Option<DType>) -> Result<Typed, PromotionError> {
        let Some(d) = dtype else {
            return Err(unexpected_dtype(ArrayOp::Var, self.mode()));
        };
        let working = self.np_utils_result_type(&[value, tensor(d)])?;
        let x = self.as_array(value, Some(working))?;
        let var = self.reduce(
            ArrayOp::Var,
            reduction_kernel(ArrayOp::Var).unwrap_or(&ANY),
            tensor(x),
        )?;
        cast(var.dtype, d)?;
        Ok(Typed::strong(d))
    }

    /// `tnp.cumsum(a, dtype=d)` and `tnp.cumprod`: the input cast to `d`;
    /// without it, an integer (of TensorFlow's, sub-byte ones included)
    /// cast to NumPy's `promote_types(x, int)` where that differs, which
    /// `np_utils.result_type` reads under auto dtype conversion as the
    /// Python type it equals (`int64` as `int`: `int32`; `float64` as
    /// `float`: `float32`).
    fn cumulative(
        &self,
        op: ArrayOp,
        value: Value,
        dtype: Option<DType>,
    ) -> Result<Typed, PromotionError> {
        let mut x = self.as_array(value, dtype)?;
        if dtype.is_none() && x.is_integer() {
            let promoted =
                Numpy.promote_types(TypeSpec::DType(x), TypeSpec::DType(DType::Int64))?;
            if promoted != x {
                let to = if self.mode().converts() {
                    match promoted {
                        DType::Float64 => self.float_type()?,
                        _ => DType::Int32,
                    }
                } else {
                    self.np_dtypes_result_type(&[tensor(promoted)])?
                };
                cast(x, to)?;
                x = to;
            }
        }
        let kernel = reduction_kernel(op).unwrap_or(&ANY);
        self.reduce(op, kernel, tensor(x))
    }

    /// `tnp.clip(a, a_min, a_max)`: all three promoted
    /// (`_promote_dtype`), then `tf.clip_by_value`. `a_max` is required.
    fn tnp_clip(&self, values: &[Value]) -> Result<Typed, PromotionError> {
        if values.len() < 3 {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                "clip() missing 1 required positional argument: 'a_max'".to_owned(),
            ));
        }
        if values[1..].contains(&Value::None) {
            return Err(PromotionError::framework(
                ErrorKind::NotImplemented,
                "tnp.clip with a None bound is tnp.minimum or tnp.maximum of the other, which is \
                 not modelled here; pass both bounds"
                    .to_owned(),
            ));
        }
        let d = self.promote_dtype(values)?;
        self.clip_by_value(&[tensor(d); 3])
    }
}

/// How `tnp.<function>` answers `op`, in words.
pub(super) fn describe(op: ArrayOp) -> String {
    let rule = match op {
        ArrayOp::Sum | ArrayOp::Prod => {
            "dtype= (the input cast to it; bool: tnp.any/tnp.all's reduction) or the input's \
             dtype, bool and NumPy's integers narrower than 32 bits widened to int32 or uint32 \
             under auto dtype conversion (narrower than 64 bits to int64 or uint64 in mode \
             legacy), then TensorFlow's reduction kernel in it"
        }
        ArrayOp::Mean | ArrayOp::Var | ArrayOp::Std => {
            "dtype= (mean; var reduces in the promotion of the input and dtype= and casts the \
             result to dtype=; std takes none) or the input's dtype, bool and NumPy's integers \
             cast to result_type(float) (float32 under auto dtype conversion, float64 in mode \
             legacy), then TensorFlow's kernel: var and std of a complex input answer its \
             real part"
        }
        ArrayOp::CumSum | ArrayOp::CumProd => {
            "dtype= (the input cast to it) or the input's dtype, an integer cast to NumPy's \
             promote_types(x, int) where that differs (read as Python's int or float under \
             auto dtype conversion: int32, float32), then TensorFlow's kernel"
        }
        ArrayOp::Max | ArrayOp::Min => "the input's dtype (bool through tnp.any/tnp.all)",
        ArrayOp::ArgMax | ArrayOp::ArgMin => "int64, TensorFlow's kernel taking the input",
        ArrayOp::Any | ArrayOp::All => "bool, the input cast to bool first",
        ArrayOp::Matmul => {
            "under auto dtype conversion the two promoted first (weak_tensor_ops wraps it); \
             then NumPy's result type of the two (as tnp's arithmetic), each cast to it, and \
             TensorFlow's MatMul kernel, whose refusals are re-raised as ValueError; no dtype="
        }
        ArrayOp::Dot | ArrayOp::Tensordot => {
            "NumPy's result type of the two (as tnp's arithmetic), each cast to it, then \
             TensorFlow's MatMul kernel (its registration and CPU kernels refuse bool, the \
             narrow types and more); no dtype="
        }
        ArrayOp::Einsum => {
            "np_utils.result_type of the two, each cast to it, then TensorFlow's Einsum kernel; \
             a dtype= is accepted and ignored"
        }
        ArrayOp::FullLike => {
            "dtype= or the array's dtype, the fill value converted to it, then BroadcastTo's \
             kernel"
        }
        _ => {
            "np_utils.result_type of the operands (auto dtype conversion's in modes safe and \
             all, NumPy's in mode legacy), each converted to it, then TensorFlow's kernel \
             (clip wants both bounds)"
        }
    };
    format!("tnp.{}: {rule}", op.name())
}
