//! PaddlePaddle's CPU kernels, as data: the dtypes each kernel of the CPU
//! wheel is registered for, in the order its `NotFound` error lists them
//! (measured: the same on every run), and how a kernel picks its dtype when
//! its inputs differ.
//!
//! Paddle has no kernel for several dtypes it computes in: `add` has none
//! for `float16` or `bfloat16` on the CPU though `subtract` has `bfloat16`,
//! no arithmetic kernel has `uint16`..`uint64` or the float8 types, `sqrt`
//! has no integers. A missing kernel is a `RuntimeError` whose message
//! starts `(NotFound)`.

use crate::types::{DType, ErrorKind, Kind, PromotionError};

use crate::prelude::*;
use DType::{
    BFloat16 as BF16, Bool, Complex128 as C128, Complex64 as C64, Float16 as F16, Float32 as F32,
    Float64 as F64, Float8E4M3Fn as E4M3, Float8E5M2 as E5M2, Int16 as I16, Int32 as I32,
    Int64 as I64, Int8 as I8, UInt8 as U8,
};

/// One kernel of the CPU wheel: its name and its registered dtypes.
#[derive(Debug)]
pub(super) struct Kernel {
    pub(super) name: &'static str,
    dtypes: &'static [DType],
}

pub(super) const fn kernel(name: &'static str, dtypes: &'static [DType]) -> Kernel {
    Kernel { name, dtypes }
}

/// `scale`'s and `div_scale`'s dtypes.
const SCALE_DTYPES: &[DType] = &[I16, F64, C128, F16, F32, C64, I32, U8, BF16, Bool, I64, I8];
/// The comparisons' dtypes.
const COMPARE_DTYPES: &[DType] = SCALE_DTYPES;
/// The bitwise kernels' dtypes.
const BITWISE_DTYPES: &[DType] = &[I16, I32, U8, Bool, I64, I8];

pub(super) static ADD: Kernel = kernel("add", &[I16, F64, C128, I32, U8, F32, C64, Bool, I64, I8]);
/// `x * a + b` of a tensor and Python numbers (`Tensor.__add__` of an int).
pub(super) static SCALE: Kernel = kernel("scale", SCALE_DTYPES);
/// A tensor filled with one value (`Tensor.__add__` of a bool).
pub(super) static FULL: Kernel = kernel("full", FULL_DTYPES);
/// `full`'s dtypes, which `concat` has too (the float8 types among them).
const FULL_DTYPES: &[DType] = &[
    I64, Bool, I8, BF16, U8, I32, C64, E5M2, F32, I16, E4M3, F64, F16, C128,
];
pub(super) static SUBTRACT: Kernel =
    kernel("subtract", &[I64, I16, F64, C128, F32, C64, I32, BF16]);
pub(super) static MULTIPLY: Kernel =
    kernel("multiply", &[I64, F64, C128, F32, C64, I32, BF16, Bool]);
pub(super) static DIVIDE: Kernel = kernel(
    "divide",
    &[I16, F64, C128, I32, U8, F32, C64, Bool, I64, I8],
);
/// A tensor divided by a Python number.
pub(super) static DIV_SCALE: Kernel = kernel("div_scale", SCALE_DTYPES);
pub(super) static FLOOR_DIVIDE: Kernel = kernel(
    "floor_divide",
    &[I16, F64, F16, F32, I32, U8, BF16, I64, I8],
);
pub(super) static REMAINDER: Kernel = kernel("remainder", &[I32, I64, F64, C128, F32, C64]);
/// A tensor to the power of a tensor.
pub(super) static ELEMENTWISE_POW: Kernel =
    kernel("elementwise_pow", &[I64, F64, C128, F32, C64, I32, BF16]);
/// A tensor to the power of a Python number.
pub(super) static POW: Kernel = kernel("pow", &[I32, I64, F64, C128, F32, C64]);
pub(super) static MAXIMUM: Kernel = kernel("maximum", &[I64, F64, F32, I32, BF16]);
pub(super) static EQUAL: Kernel = kernel("equal", COMPARE_DTYPES);
pub(super) static NOT_EQUAL: Kernel = kernel("not_equal", COMPARE_DTYPES);
pub(super) static LESS_THAN: Kernel = kernel("less_than", COMPARE_DTYPES);
pub(super) static LESS_EQUAL: Kernel = kernel("less_equal", COMPARE_DTYPES);
pub(super) static GREATER_THAN: Kernel = kernel("greater_than", COMPARE_DTYPES);
pub(super) static GREATER_EQUAL: Kernel = kernel("greater_equal", COMPARE_DTYPES);
pub(super) static BITWISE_AND: Kernel = kernel("bitwise_and", BITWISE_DTYPES);
pub(super) static BITWISE_OR: Kernel = kernel("bitwise_or", BITWISE_DTYPES);
pub(super) static BITWISE_XOR: Kernel = kernel("bitwise_xor", BITWISE_DTYPES);
pub(super) static LOGICAL_AND: Kernel = kernel(
    "logical_and",
    &[I32, I16, F64, C128, F32, C64, Bool, I64, I8],
);
pub(super) static ABS: Kernel = kernel("abs", &[I32, I64, F64, C128, F32, C64]);
pub(super) static SIGN: Kernel = kernel("sign", &[I16, F64, C128, I32, U8, F32, C64, I64, I8]);
pub(super) static SQRT: Kernel = kernel("sqrt", &[F64, C128, F32, C64]);
pub(super) static EXP: Kernel = kernel("exp", &[I32, I64, F64, C128, F16, F32, C64]);
/// `x[...] = v` of a Python number, and of a tensor.
pub(super) static SET_VALUE: Kernel = kernel("set_value", SET_VALUE_DTYPES);
pub(super) static SET_VALUE_WITH_TENSOR: Kernel = kernel("set_value_with_tensor", SET_VALUE_DTYPES);
const SET_VALUE_DTYPES: &[DType] = &[I16, F64, C128, F16, F32, C64, I32, U8, BF16, Bool, I64, I8];
pub(super) static FLOOR: Kernel = kernel("floor", &[I16, F64, F16, F32, I32, U8, BF16, I64, I8]);
pub(super) static MATMUL: Kernel = kernel("matmul", &[I32, I64, F64, C128, F32, C64]);
pub(super) static DOT: Kernel = kernel("dot", &[I32, I64, F64, C128, F32, C64]);
pub(super) static EINSUM: Kernel = kernel("einsum", &[F64, C128, F32, C64]);
pub(super) static WHERE: Kernel = kernel("where", &[I32, I64, F64, C128, F32, C64, Bool]);
pub(super) static CLIP: Kernel = kernel("clip", &[I32, I64, F64, F32]);
pub(super) static CONCAT: Kernel = kernel("concat", FULL_DTYPES);
pub(super) static STACK: Kernel = kernel("stack", SCALE_DTYPES);
pub(super) static FULL_LIKE: Kernel = kernel("full_like", SCALE_DTYPES);

impl Kernel {
    /// `dtype`, if the CPU has this kernel for it.
    pub(super) fn run(&'static self, dtype: DType) -> Result<DType, Stop> {
        if self.dtypes.contains(&dtype) {
            Ok(dtype)
        } else {
            Err(Stop::NoKernel(self, dtype))
        }
    }

    /// The registered dtypes, as Paddle lists them.
    pub(super) fn dtypes(&self) -> String {
        let names: Vec<&str> = self.dtypes.iter().map(|d| d.name()).collect();
        names.join(", ")
    }
}

/// Why Paddle gives no dtype.
#[derive(Debug)]
pub(super) enum Stop {
    /// Paddle raises this error before any kernel is missing.
    Error(PromotionError),
    /// Paddle computes in this dtype, and the CPU has no such kernel.
    NoKernel(&'static Kernel, DType),
}

impl From<PromotionError> for Stop {
    fn from(err: PromotionError) -> Stop {
        Stop::Error(err)
    }
}

impl Stop {
    /// The error the call raises.
    pub(super) fn error(self) -> PromotionError {
        match self {
            Stop::Error(err) => err,
            Stop::NoKernel(kernel, dtype) => PromotionError::framework(
                ErrorKind::Runtime,
                format!(
                    "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dtype}) of kernel \
                     `{}` is not registered. Selected wrong DataType `{dtype}`. Paddle support \
                     following DataTypes: {}.\n  [Hint: Expected kernel_iter == \
                     iter->second.end() && kernel_key.backend() == Backend::CPU != true, but \
                     received kernel_iter == iter->second.end() && kernel_key.backend() == \
                     Backend::CPU:1 == true:1.] (at \
                     /paddle/paddle/phi/core/kernel_factory.cc:317)\n",
                    kernel.name,
                    kernel.dtypes()
                ),
            ),
        }
    }

    /// The dtype Paddle computes in, kernels aside.
    pub(super) fn kernels_aside(self) -> Result<DType, PromotionError> {
        match self {
            Stop::Error(err) => Err(err),
            Stop::NoKernel(_, dtype) => Ok(dtype),
        }
    }
}

/// `phi::DataType` in its declaration order (`phi/common/data_type.h`),
/// from 1 (0 is `UNDEFINED`); `None` is `PSTRING`. Paddle's messages print
/// a dtype's place here as its number.
const PHI_ORDER: [Option<DType>; 18] = [
    Some(Bool),
    Some(U8),
    Some(I8),
    Some(DType::UInt16),
    Some(I16),
    Some(DType::UInt32),
    Some(I32),
    Some(DType::UInt64),
    Some(I64),
    Some(F32),
    Some(F64),
    Some(C64),
    Some(C128),
    None,
    Some(F16),
    Some(BF16),
    Some(E4M3),
    Some(E5M2),
];

fn phi_number(dtype: DType) -> usize {
    PHI_ORDER
        .iter()
        .position(|&d| d == Some(dtype))
        .map_or(0, |i| i + 1)
}

/// The dtype a kernel of several tensors runs in
/// (`KernelKeyParser::AssignKernelKeySet`): the last input's, unless one
/// is complex (`PromoteTypes` of the inputs' set): then `complex128` where
/// the set has it or `float64`, else `complex64`.
pub(super) fn key(x: DType, y: DType) -> DType {
    let has = |dtype| x == dtype || y == dtype;
    if has(C128) || (has(C64) && has(F64)) {
        C128
    } else if has(C64) {
        C64
    } else {
        y
    }
}

/// The error a kernel of `kernel` dtype raises reading an input that
/// holds `held` (`DenseTensor::data<T>`): the kernels that do not promote
/// meet it.
pub(super) fn wrong_data(kernel: DType, held: DType) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        format!(
            "(InvalidArgument) The type of data we are trying to retrieve ({kernel}) does not \
             match the type of data ({held}) currently contained in the container.\n  [Hint: \
             Expected dtype() == phi::CppTypeToDataType<T>::Type(), but received dtype():{} != \
             phi::CppTypeToDataType<T>::Type():{}.] (at \
             /paddle/paddle/phi/core/dense_tensor.cc:153)\n",
            phi_number(held),
            phi_number(kernel)
        ),
    )
}

/// A kernel of `key` dtype on `inputs`, as Paddle's generated API runs
/// one (`PrepareData`, then the kernel): the kernel must exist; where
/// `key` is complex, each input of another dtype but `bool`, `int32` and
/// `int64` (`NeedTransformDataType`) is cast to it first, which
/// `CastDataType` can do only from the types it dispatches on; then the
/// kernel reads every input as `key` and fails on the first that holds
/// another dtype.
pub(super) fn run_inputs(
    kernel: &'static Kernel,
    key: DType,
    inputs: &[DType],
) -> Result<DType, Stop> {
    kernel.run(key)?;
    let transformed = |input: DType| {
        input != key && key.kind() == Kind::Complex && !matches!(input, Bool | I32 | I64)
    };
    for &input in inputs.iter().filter(|&&d| transformed(d)) {
        if !matches!(input, F32 | F64 | I16 | U8 | F16 | BF16) {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::NotImplemented,
                format!(
                    "(Unimplemented) Data type ({input}) is not supported when casting data \
                     type. (at /paddle/paddle/phi/api/lib/data_transform.cc:111)\n"
                ),
            )));
        }
    }
    match inputs.iter().find(|&&d| d != key && !transformed(d)) {
        Some(&held) => Err(Stop::Error(wrong_data(key, held))),
        None => Ok(key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phi_numbers_are_the_enums() {
        assert_eq!(phi_number(Bool), 1);
        assert_eq!(phi_number(C128), 13);
        assert_eq!(phi_number(F16), 15);
        assert_eq!(phi_number(E5M2), 18);
    }

    #[test]
    fn a_complex_key_casts_the_inputs_it_can() {
        assert_eq!(run_inputs(&DOT, C64, &[C64, U8]).unwrap(), C64);
        let err = run_inputs(&DOT, C64, &[C64, DType::UInt16])
            .unwrap_err()
            .error();
        assert_eq!(err.python_type(), "NotImplementedError");
        let err = run_inputs(&DOT, C64, &[C64, I32]).unwrap_err().error();
        assert!(err.to_string().contains("retrieve (complex64)"));
        let err = run_inputs(&DOT, F32, &[F32, C64]).unwrap_err().error();
        assert!(err.to_string().contains("retrieve (float32)"));
    }

    #[test]
    fn a_complex_input_decides_the_key() {
        assert_eq!(key(F32, Bool), Bool);
        assert_eq!(key(C64, Bool), C64);
        assert_eq!(key(F64, C64), C128);
    }
}
