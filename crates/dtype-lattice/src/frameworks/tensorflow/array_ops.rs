//! TensorFlow's operations on whole arrays (`tf.reduce_sum`,
//! `tf.linalg.matmul`, `tf.where`, ...), policy `tensorflow`.
//!
//! TensorFlow promotes nothing here either: each function converts a
//! Python scalar to the dtype of the tensor beside it, and its kernel
//! takes one type `T`, so a reduction answers its input's own dtype (the
//! sum of `int8` is `int8`, with no wider accumulator), and two tensors of
//! different dtypes are refused by the kernel ("cannot compute ConcatV2 as
//! input #1(zero-based) was expected to be a int8 tensor but is a int16
//! tensor"). The kernels' registrations (which types `T` may be, which
//! have a CPU kernel) are data here, as TensorFlow 2.21 prints them; where
//! oneDNN rewrites a node (`_MklMatMul` for `float32`, `float16` and
//! `bfloat16`), a mismatch names the rewritten node, as TensorFlow's
//! default x86 build does.
//!
//! Under NumPy behaviour's auto dtype conversion (modes safe and all)
//! `weak_tensor_ops` wraps `tf.linalg.matmul` (so `tf.tensordot`),
//! `math_ops.minimum` and `math_ops.maximum` (so `tf.clip_by_value`):
//! their operands are promoted first; the others answer as without it.
//!
//! ```
//! use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let tf = TensorFlow::new(Mode::Off);
//! let x = Operand::array(DType::Int8, false);
//! let sum = tf.array_op(&ArrayCall::new(ArrayOp::Sum), &[x]).unwrap().unwrap();
//! assert_eq!(sum.result().dtype, DType::Int8);
//! let y = Operand::array(DType::Int16, false);
//! let err = tf.array_op(&ArrayCall::new(ArrayOp::Stack), &[x, y]).unwrap().unwrap_err();
//! assert!(err.to_string().starts_with("cannot compute Pack as input #1(zero-based)"));
//! ```

use super::convert::to_tensor;
use super::kernels::{cpp_name, kernel, Devices, Inputs, Kernel, Output, MAXIMUM, MINIMUM};
use super::{TensorFlow, Value};
use crate::frameworks::common::array_ops::counted;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Kind, Operand, Outcome, PromotionError, Typed,
};

use crate::prelude::*;
use DType::{BFloat16 as BF16, Float16 as F16, Float32 as F32};

/// The types the reductions `Sum`, `Prod`, `Mean`, `Cumsum` and `Cumprod`
/// register, as the refusal prints them and as `Op<...>` prints them.
macro_rules! summable {
    (names) => {
        "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, \
         bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64"
    };
    (enums) => {
        "DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_COMPLEX64, DT_INT64, \
         DT_QINT8, DT_QUINT8, DT_QINT32, DT_BFLOAT16, DT_QINT16, DT_QUINT16, DT_UINT16, \
         DT_COMPLEX128, DT_HALF, DT_UINT32, DT_UINT64"
    };
}

/// The types `Max`, `Min`, `ArgMax` and `ArgMin` register (the last two
/// `bool` besides).
macro_rules! ordered {
    (names) => {
        "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, \
         uint64, qint8, quint8, qint32, qint16, quint16"
    };
    (enums) => {
        "DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_INT64, DT_BFLOAT16, \
         DT_UINT16, DT_HALF, DT_UINT32, DT_UINT64, DT_QINT8, DT_QUINT8, DT_QINT32, DT_QINT16, \
         DT_QUINT16"
    };
}

/// A reduction `input:T, reduction_indices:Tidx -> output:T`.
macro_rules! reduction {
    ($name:literal, $types:ident) => {
        registered(
            $name,
            $types!(names),
            concat!(
                "Op<name=",
                $name,
                "; signature=input:T, reduction_indices:Tidx -> output:T; \
                 attr=keep_dims:bool,default=false; attr=T:type,allowed=[",
                $types!(enums),
                "]; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>"
            ),
        )
    };
}

/// A cumulative reduction `x:T, axis:Tidx -> out:T`.
macro_rules! cumulative {
    ($name:literal) => {
        registered(
            $name,
            summable!(names),
            concat!(
                "Op<name=",
                $name,
                "; signature=x:T, axis:Tidx -> out:T; attr=exclusive:bool,default=false; \
                 attr=reverse:bool,default=false; attr=T:type,allowed=[",
                summable!(enums),
                "]; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>"
            ),
        )
    };
}

/// `ArgMax` or `ArgMin`, whose `Tidx` and `output_type` lists differ.
macro_rules! arg {
    ($name:literal, $tidx:literal, $output:literal) => {
        registered(
            $name,
            concat!(ordered!(names), ", bool"),
            concat!(
                "Op<name=",
                $name,
                "; signature=input:T, dimension:Tidx -> output:output_type; \
                 attr=T:type,allowed=[",
                ordered!(enums),
                ", DT_BOOL]; attr=Tidx:type,default=DT_INT32,allowed=[",
                $tidx,
                "]; attr=output_type:type,default=DT_INT64,allowed=[",
                $output,
                "]>"
            ),
        )
    };
}

const fn registered(name: &'static str, names: &'static str, op: &'static str) -> Kernel {
    Kernel {
        inputs: Inputs::Attr(None),
        registration: Some((names, op)),
        ..kernel(name, "", &[], "")
    }
}

const SUM: Kernel = reduction!("Sum", summable);
const PROD: Kernel = reduction!("Prod", summable);
const MEAN: Kernel = reduction!("Mean", summable);
const MAX: Kernel = reduction!("Max", ordered);
const MIN: Kernel = reduction!("Min", ordered);
const CUMSUM: Kernel = cumulative!("Cumsum");
const CUMPROD: Kernel = cumulative!("Cumprod");
const ARGMAX: Kernel = arg!(
    "ArgMax",
    "DT_INT16, DT_INT32, DT_INT64",
    "DT_INT16, DT_UINT16, DT_INT32, DT_INT64"
);
const ARGMIN: Kernel = arg!("ArgMin", "DT_INT32, DT_INT64", "DT_INT32, DT_INT64");

const fn all_bool(name: &'static str) -> Kernel {
    Kernel {
        inputs: Inputs::Fixed(DType::Bool),
        output: Output::Bool,
        ..kernel(name, "", &[], "")
    }
}
pub(super) const ANY: Kernel = all_bool("Any");
pub(super) const ALL: Kernel = all_bool("All");

/// The types oneDNN's `_MklMatMul` and `_MklEinsum` take.
const MKL: &[DType] = &[F32, F16, BF16];

const MATMUL: Kernel = Kernel {
    devices: Devices::Listed(&[
        "device='XLA_CPU_JIT'; T in [DT_FLOAT, DT_DOUBLE, DT_INT32, DT_COMPLEX64, DT_INT64, \
         DT_BFLOAT16, DT_COMPLEX128, DT_HALF]",
        "device='CPU'; T in [DT_INT64]",
        "device='CPU'; T in [DT_INT32]",
        "device='CPU'; T in [DT_INT16]",
        "device='CPU'; T in [DT_DOUBLE]",
        "device='CPU'; T in [DT_FLOAT]",
        "device='CPU'; T in [DT_BFLOAT16]",
        "device='CPU'; T in [DT_HALF]",
        "device='CPU'; T in [DT_COMPLEX128]",
        "device='CPU'; T in [DT_COMPLEX64]",
    ]),
    node_attrs: ", grad_a=false, grad_b=false, transpose_a=false, transpose_b=false",
    mkl: MKL,
    ..registered(
        "MatMul",
        "bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, complex64, \
         complex128",
        "Op<name=MatMul; signature=a:T, b:T -> product:T; attr=transpose_a:bool,default=false; \
         attr=transpose_b:bool,default=false; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, \
         DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64, \
         DT_COMPLEX64, DT_COMPLEX128]; attr=grad_a:bool,default=false; \
         attr=grad_b:bool,default=false>",
    )
};

/// What `tf.linalg.matmul` calls where one operand is `bfloat16` and the
/// other neither `bfloat16` nor an 8-bit integer: its `Ta` and `Tb` are
/// `float` or `bfloat16`, its product `float`.
const SPARSE_MATMUL: Kernel = registered(
    "SparseMatMul",
    "float, bfloat16",
    "Op<name=SparseMatMul; signature=a:Ta, b:Tb -> product:float; \
     attr=transpose_a:bool,default=false; attr=transpose_b:bool,default=false; \
     attr=a_is_sparse:bool,default=false; attr=b_is_sparse:bool,default=false; \
     attr=Ta:type,default=DT_FLOAT,allowed=[DT_FLOAT, DT_BFLOAT16]; \
     attr=Tb:type,default=DT_FLOAT,allowed=[DT_FLOAT, DT_BFLOAT16]>",
);

pub(super) const EINSUM: Kernel = Kernel {
    inputs: Inputs::Attr(None),
    devices: Devices::Listed(&[
        "device='XLA_CPU_JIT'; T in [DT_FLOAT, DT_DOUBLE, DT_INT32, DT_COMPLEX64, DT_INT64, \
         DT_BFLOAT16, DT_COMPLEX128, DT_HALF, DT_UINT64]",
        "device='CPU'; T in [DT_INT64]",
        "device='CPU'; T in [DT_INT32]",
        "device='CPU'; T in [DT_HALF]",
        "device='CPU'; T in [DT_FLOAT]",
        "device='CPU'; T in [DT_DOUBLE]",
        "device='CPU'; T in [DT_COMPLEX64]",
        "device='CPU'; T in [DT_COMPLEX128]",
        "device='CPU'; T in [DT_BFLOAT16]",
    ]),
    node_before: "N=2, ",
    // The equation of two matrices, as the golden data calls it.
    node_attrs: ", equation=\"ij,jk->ik\"",
    mkl: MKL,
    ..kernel("Einsum", "", &[], "")
};

/// The XLA line of the listings of the ops that move any type.
macro_rules! xla_any {
    ($before:literal) => {
        concat!(
            "device='XLA_CPU_JIT'; ",
            $before,
            "T in [DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_COMPLEX64, \
             DT_INT64, DT_BOOL, DT_QINT8, DT_QUINT8, DT_QINT32, DT_BFLOAT16, DT_UINT16, \
             DT_COMPLEX128, DT_HALF, DT_UINT32, DT_UINT64, DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, \
             DT_FLOAT8_E4M3FNUZ, DT_FLOAT8_E4M3B11FNUZ, DT_FLOAT8_E5M2FNUZ, DT_INT4, DT_UINT4]"
        )
    };
}

/// The CPU lines, in the registry's order, of the ops that move the
/// usual types (after those each lists first).
macro_rules! cpu_usual {
    ($($first:expr),*) => {
        &[
            $($first,)*
            "device='CPU'; T in [DT_BOOL]",
            "device='CPU'; T in [DT_COMPLEX128]",
            "device='CPU'; T in [DT_COMPLEX64]",
            "device='CPU'; T in [DT_DOUBLE]",
            "device='CPU'; T in [DT_FLOAT]",
            "device='CPU'; T in [DT_BFLOAT16]",
            "device='CPU'; T in [DT_HALF]",
            "device='CPU'; T in [DT_INT32]",
            "device='CPU'; T in [DT_INT8]",
            "device='CPU'; T in [DT_UINT8]",
            "device='CPU'; T in [DT_INT16]",
            "device='CPU'; T in [DT_UINT16]",
            "device='CPU'; T in [DT_UINT32]",
            "device='CPU'; T in [DT_INT64]",
            "device='CPU'; T in [DT_UINT64]",
        ]
    };
}

const fn mover(name: &'static str, listing: &'static [&'static str]) -> Kernel {
    Kernel {
        inputs: Inputs::Attr(None),
        devices: Devices::Listed(listing),
        ..kernel(name, "", &[], "")
    }
}

/// `tf.where`'s op: the condition is input #0.
const SELECT_V2: Kernel = Kernel {
    first_input: 1,
    ..mover(
        "SelectV2",
        cpu_usual!(
            xla_any!(""),
            "device='CPU'; T in [DT_VARIANT]",
            "device='CPU'; T in [DT_RESOURCE]",
            "device='CPU'; T in [DT_STRING]"
        ),
    )
};

pub(super) const CONCAT_V2: Kernel = Kernel {
    node_before: "N=2, ",
    node_attrs: ", Tidx=DT_INT32",
    node_name: "concat",
    ..mover(
        "ConcatV2",
        cpu_usual!(
            xla_any!("Tidx in [DT_INT32, DT_INT64]; "),
            "device='DEFAULT'; T in [DT_INT32]",
            "device='CPU'; T in [DT_QINT32]",
            "device='CPU'; T in [DT_QINT16]",
            "device='CPU'; T in [DT_QUINT16]",
            "device='CPU'; T in [DT_QINT8]",
            "device='CPU'; T in [DT_QUINT8]",
            "device='CPU'; T in [DT_FLOAT8_E4M3FN]",
            "device='CPU'; T in [DT_FLOAT8_E5M2]",
            "device='CPU'; T in [DT_STRING]"
        ),
    )
};

pub(super) const PACK: Kernel = Kernel {
    node_before: "N=2, ",
    node_attrs: ", axis=0",
    node_name: "stack",
    ..mover(
        "Pack",
        cpu_usual!(
            xla_any!(""),
            "device='CPU'; T in [DT_FLOAT8_E4M3FN]",
            "device='CPU'; T in [DT_FLOAT8_E5M2]",
            "device='CPU'; T in [DT_QUINT16]",
            "device='CPU'; T in [DT_QINT16]",
            "device='CPU'; T in [DT_QINT32]",
            "device='CPU'; T in [DT_QUINT8]",
            "device='CPU'; T in [DT_QINT8]",
            "device='CPU'; T in [DT_VARIANT]",
            "device='CPU'; T in [DT_RESOURCE]",
            "device='CPU'; T in [DT_STRING]"
        ),
    )
};

/// `Fill`'s CPU lines, two per type (`index_type` int64, then int32).
macro_rules! fill_cpu {
    ($($t:ident),*) => {
        &[
            xla_any!("index_type in [DT_INT32, DT_INT64]; "),
            $(
                concat!("device='CPU'; T in [DT_", stringify!($t), "]; index_type in [DT_INT64]"),
                concat!("device='CPU'; T in [DT_", stringify!($t), "]; index_type in [DT_INT32]"),
            )*
            "device='DEFAULT'; T in [DT_INT32]; index_type in [DT_INT32]",
        ]
    };
}

const FILL: Kernel = Kernel {
    node_attrs: ", index_type=DT_INT32",
    ..mover(
        "Fill",
        fill_cpu!(
            UINT4, INT4, QINT32, QINT16, QINT8, QUINT16, QUINT8, VARIANT, RESOURCE, STRING, BOOL,
            COMPLEX128, COMPLEX64, DOUBLE, FLOAT, BFLOAT16, HALF, INT32, INT8, UINT8, INT16,
            UINT16, UINT32, INT64, UINT64
        ),
    )
};

/// What `tnp.full_like` broadcasts its fill value with.
pub(super) const BROADCAST_TO: Kernel = Kernel {
    node_attrs: ", Tidx=DT_INT32",
    ..mover(
        "BroadcastTo",
        cpu_usual!(
            xla_any!("Tidx in [DT_INT32, DT_INT64]; "),
            "device='CPU'; T in [DT_FLOAT8_E4M3FN]",
            "device='CPU'; T in [DT_FLOAT8_E5M2]",
            "device='CPU'; T in [DT_VARIANT]",
            "device='CPU'; T in [DT_RESOURCE]",
            "device='CPU'; T in [DT_STRING]"
        ),
    )
};

/// What `tf.<function>` each operation is, for the descriptions.
fn function(op: ArrayOp) -> Option<&'static str> {
    Some(match op {
        ArrayOp::Sum => "tf.reduce_sum",
        ArrayOp::Prod => "tf.reduce_prod",
        ArrayOp::CumSum => "tf.math.cumsum",
        ArrayOp::CumProd => "tf.math.cumprod",
        ArrayOp::Mean => "tf.reduce_mean",
        ArrayOp::Var => "tf.math.reduce_variance",
        ArrayOp::Std => "tf.math.reduce_std",
        ArrayOp::Max => "tf.reduce_max",
        ArrayOp::Min => "tf.reduce_min",
        ArrayOp::ArgMax => "tf.argmax",
        ArrayOp::ArgMin => "tf.argmin",
        ArrayOp::Any => "tf.reduce_any",
        ArrayOp::All => "tf.reduce_all",
        ArrayOp::Matmul => "tf.linalg.matmul",
        ArrayOp::Tensordot => "tf.tensordot",
        ArrayOp::Einsum => "tf.einsum",
        ArrayOp::Where => "tf.where",
        ArrayOp::Clip => "tf.clip_by_value",
        ArrayOp::Concatenate => "tf.concat",
        ArrayOp::Stack => "tf.stack",
        ArrayOp::FullLike => "tf.fill",
        ArrayOp::Dot => return None,
    })
}

/// The kernel of a reduction that runs one.
pub(super) fn reduction_kernel(op: ArrayOp) -> Option<&'static Kernel> {
    Some(match op {
        ArrayOp::Sum => &SUM,
        ArrayOp::Prod => &PROD,
        ArrayOp::CumSum => &CUMSUM,
        ArrayOp::CumProd => &CUMPROD,
        ArrayOp::Mean | ArrayOp::Var | ArrayOp::Std => &MEAN,
        ArrayOp::Max => &MAX,
        ArrayOp::Min => &MIN,
        ArrayOp::ArgMax => &ARGMAX,
        ArrayOp::ArgMin => &ARGMIN,
        ArrayOp::Any => &ANY,
        ArrayOp::All => &ALL,
        _ => return None,
    })
}

pub(super) fn tensor(dtype: DType) -> Value {
    Value::Tensor { dtype, weak: false }
}

impl TensorFlow {
    /// `tf.<function>` of `call` on `operands`; `None` for `dot`, which
    /// TensorFlow does not have.
    pub(super) fn tf_array_op(
        &self,
        call: ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        let name = function(call.op())?;
        Some(self.tf_call(name, call, operands).map(Outcome::of))
    }

    fn tf_call(
        &self,
        name: &str,
        call: ArrayCall,
        operands: &[Operand],
    ) -> Result<Typed, PromotionError> {
        self.refuse_tnp_off()?;
        let values = self.values(counted(call, operands)?)?;
        if call.dtype().is_some() {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "{name}() got an unexpected keyword argument 'dtype' (TensorFlow's functions \
                     take none; cast the result with tf.cast)"
                ),
            ));
        }
        let op = call.op();
        if let Some(kernel) = reduction_kernel(op) {
            return self.reduce(op, kernel, values[0]);
        }
        match op {
            ArrayOp::Matmul | ArrayOp::Tensordot => self.matmul(values[0], values[1]),
            ArrayOp::Einsum => self.run_generated(&EINSUM, &values).map(Typed::strong),
            ArrayOp::Where => self.select(&values).map(Typed::strong),
            ArrayOp::Clip => self.clip_by_value(&values),
            ArrayOp::Concatenate | ArrayOp::Stack => {
                let kernel = if op == ArrayOp::Stack {
                    &PACK
                } else {
                    &CONCAT_V2
                };
                // The node prints the number of its inputs.
                self.run_generated(kernel, &values)
                    .map(Typed::strong)
                    .map_err(|err| renumbered(err, values.len()))
            }
            _ => self.fill(values[1]).map(Typed::strong),
        }
    }

    /// A reduction: its kernel on the tensor (under auto dtype conversion
    /// a Python scalar's weak type), `tf.math.reduce_variance` refusing an
    /// integer mean and answering a complex one's real part.
    pub(super) fn reduce(
        &self,
        op: ArrayOp,
        kernel: &Kernel,
        value: Value,
    ) -> Result<Typed, PromotionError> {
        let typed = match value {
            Value::Tensor { weak: false, .. } => {
                Typed::strong(self.run_generated(kernel, &[value])?)
            }
            _ if self.mode().converts() => {
                let typed = self.auto_result_type(&[value])?;
                if !matches!(value, Value::Tensor { .. }) {
                    self.constant(value, Some(typed.dtype))?;
                }
                Typed {
                    dtype: self.run_generated(kernel, &[tensor(typed.dtype)])?,
                    weak: typed.weak,
                }
            }
            _ => Typed::strong(self.run_generated(kernel, &[value])?),
        };
        Ok(match op {
            ArrayOp::ArgMax | ArrayOp::ArgMin => Typed::strong(DType::Int64),
            ArrayOp::Var | ArrayOp::Std if typed.dtype.is_integer() => {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "Input must be either real or complex. Received integer type <dtype: \
                         '{}'>.",
                        typed.dtype
                    ),
                ))
            }
            ArrayOp::Var | ArrayOp::Std if typed.dtype.kind() == Kind::Complex => Typed {
                dtype: typed.dtype.real_part(),
                ..typed
            },
            _ => typed,
        })
    }

    /// `tf.linalg.matmul(a, b)` (and `tf.tensordot`, which reshapes and
    /// calls it): under auto dtype conversion both promoted first.
    fn matmul(&self, a: Value, b: Value) -> Result<Typed, PromotionError> {
        self.wrapped(&[a, b], true, |values| {
            self.plain_matmul(values[0], values[1])
        })
    }

    pub(super) fn plain_matmul(&self, a: Value, b: Value) -> Result<DType, PromotionError> {
        let x = self.hinted(a, None)?;
        let y = self.hinted(b, Some(x))?;
        let small = |d: DType| matches!(d, DType::Int8 | DType::UInt8);
        let sparse = x != y && ((x == BF16 && !small(y)) || (y == BF16 && !small(x)));
        if !sparse {
            return MATMUL.run(&[x, y], &[a, b], true);
        }
        for (attr, dtype) in [("Ta", x), ("Tb", y)] {
            if !matches!(dtype, F32 | BF16) {
                return Err(SPARSE_MATMUL.not_allowed(attr, dtype, true));
            }
        }
        Ok(F32)
    }

    /// `tf.where(condition, x, y)`: a `bool` condition, then `SelectV2` on
    /// `x` and `y` as its fast path converts them.
    pub(super) fn select(&self, values: &[Value]) -> Result<DType, PromotionError> {
        match values[0] {
            Value::Tensor { dtype, .. } if dtype != DType::Bool => {
                return Err(PromotionError::framework(
                    ErrorKind::InvalidArgument,
                    format!(
                        "cannot compute SelectV2 as input #0(zero-based) was expected to be a \
                         bool tensor but is a {} tensor [Op:SelectV2] name: ",
                        cpp_name(dtype)
                    ),
                ))
            }
            Value::Tensor { .. } => {}
            scalar => {
                to_tensor(scalar, Some(DType::Bool))?;
            }
        }
        self.run_generated(&SELECT_V2, &values[1..])
    }

    /// `tf.clip_by_value(t, clip_value_min, clip_value_max)`:
    /// `maximum(minimum(t, max), min)`, each promoting under auto dtype
    /// conversion to a result that is never weak (`weak_tensor_ops` counts
    /// them among the comparisons). Both bounds are required.
    pub(super) fn clip_by_value(&self, values: &[Value]) -> Result<Typed, PromotionError> {
        let [t, low, high] = values else {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                if self.mode().converts() {
                    "missing a required argument: 'clip_value_max'"
                } else {
                    "Missing required positional argument"
                }
                .to_owned(),
            ));
        };
        let t = tensor(self.hinted(*t, None)?);
        let lower = self.wrapped(&[t, *high], false, |v| self.run_generated(&MINIMUM, v))?;
        self.wrapped(&[tensor(lower.dtype), *low], false, |v| {
            self.run_generated(&MAXIMUM, v)
        })
    }

    /// `tf.fill(tf.shape(x), value)`: a Python scalar's own dtype; an
    /// array is no scalar.
    fn fill(&self, value: Value) -> Result<DType, PromotionError> {
        let dtype = match value {
            Value::Tensor { dtype, .. } => {
                FILL.check_type(dtype, true)?;
                // The golden data's arrays are 2 by 2.
                return Err(PromotionError::framework(
                    ErrorKind::InvalidArgument,
                    "{{function_node __wrapped__Fill_device_/job:localhost/replica:0/task:0/\
                     device:CPU:0}} value must represent a scalar, got shape [2,2] [Op:Fill] \
                     name: "
                        .to_owned(),
                ));
            }
            scalar => to_tensor(scalar, None)?,
        };
        FILL.check_type(dtype, true)?;
        Ok(dtype)
    }

    /// A function `weak_tensor_ops` wraps under auto dtype conversion:
    /// `run` on the operands promoted to one dtype (Python scalars
    /// converted to it), or on them as they are where the promotion falls
    /// back to the old semantics; without it, `run` on them as they are.
    /// The result is weak where the promotion is and `weak` allows.
    pub(super) fn wrapped(
        &self,
        values: &[Value],
        weak: bool,
        run: impl Fn(&[Value]) -> Result<DType, PromotionError>,
    ) -> Result<Typed, PromotionError> {
        if !self.mode().converts() {
            return run(values).map(Typed::strong);
        }
        let promoted = match self.auto_result_type(values) {
            Err(PromotionError::Framework {
                kind: ErrorKind::NotImplemented,
                ..
            }) => return run(values).map(Typed::strong),
            other => other?,
        };
        for &value in values {
            if !matches!(value, Value::Tensor { .. }) {
                self.constant(value, Some(promoted.dtype))?;
            }
        }
        let tensors = vec![tensor(promoted.dtype); values.len()];
        Ok(Typed {
            dtype: run(&tensors)?,
            weak: weak && promoted.weak,
        })
    }
}

/// A `ConcatV2` or `Pack` error of `count` inputs, where the kernel's
/// node prints two.
pub(super) fn renumbered(err: PromotionError, count: usize) -> PromotionError {
    match err {
        PromotionError::Framework { kind, message } if count != 2 => PromotionError::framework(
            kind,
            message.replacen("[N=2, ", &format!("[N={count}, "), 1),
        ),
        other => other,
    }
}

/// How `tf.<function>` answers `op`, in words.
pub(super) fn describe(op: ArrayOp) -> Option<String> {
    let name = function(op)?;
    let rule = match op.family() {
        _ if matches!(op, ArrayOp::ArgMax | ArrayOp::ArgMin) => {
            "its kernel takes bool, integers and real floats; the index is int64"
        }
        _ if matches!(op, ArrayOp::Any | ArrayOp::All) => "a bool tensor only; bool",
        _ if matches!(op, ArrayOp::Var | ArrayOp::Std) => {
            "the input's dtype, computed in it (no wider accumulator); an integer input is a \
             TypeError, a complex one answers its real part's dtype"
        }
        crate::types::Family::Reduction => {
            "the input's dtype, accumulated in it (no wider accumulator); the kernel refuses \
             bool and the narrow types"
        }
        _ if op == ArrayOp::FullLike => {
            "modelled as tf.fill(tf.shape(x), value), what TensorFlow programs write for it: \
             the value's own dtype (int32, float32, complex128, bool), not x's"
        }
        _ if matches!(op, ArrayOp::Matmul | ArrayOp::Tensordot | ArrayOp::Clip) => {
            "one dtype for every operand, Python scalars converted to the tensor's; two \
             tensors of different dtypes are refused by the kernel, unless NumPy behaviour's \
             auto dtype conversion (safe or all) promotes them first"
        }
        _ => {
            "one dtype for every operand, Python scalars converted to the first tensor's; two \
             tensors of different dtypes are refused by the kernel in every mode"
        }
    };
    Some(format!("{name}: {rule}"))
}
