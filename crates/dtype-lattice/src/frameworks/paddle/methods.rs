//! `paddle.Tensor`'s operator methods with a Python number or `None` on the
//! other side (`paddle/fluid/pybind/eager_math_op_patch.cc`, and
//! `paddle/tensor/logic.py` for the bitwise operators), measured on
//! PaddlePaddle 3.3.1.
//!
//! Each C++ method first casts the tensor: a Python `float` casts an
//! integer or `bool` tensor to `float32`, a Python `int` a `bool` tensor to
//! `int64` (division casts integers to `float32` for an `int` too), a
//! Python `complex` a real tensor to the table's join with `complex64`.
//! Then an `int` or `float` goes to a kernel of the tensor and a C double
//! ([`OnNumber`]), or becomes a tensor of the tensor's dtype (`full`); a
//! `bool` or `complex` always becomes a tensor (`full`, [`ComplexFull`]),
//! and the two tensors go to the operation's kernel as two tensors would.

use super::kernels::{self, Stop};
use super::promotion::{is_complex, is_int, promote, Tensor};
use super::Form;
use crate::frameworks::python::Number;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, PromotionError};

/// What a method does with a Python `int` or `float`, once it has cast
/// the tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OnNumber {
    /// `scale` of the tensor (`CallScalarFunction`'s "add", "sub", "mul"),
    /// the number read as a C double.
    Scale,
    /// `CallScalarFunction`'s "div": a dispatch over the floating and
    /// complex dtypes ([`divides`]), then `div_scale`.
    Divide,
    /// `pow` of the tensor (`CallScalarFunction`'s "pow"), the number read
    /// as a C double.
    Power,
    /// A tensor of the tensor's dtype made by `full` (an `int` read as a C
    /// `int64_t`), then the operation of two tensors.
    Full,
}

/// The tensor `full` makes of a Python `complex`.
#[derive(Clone, Copy, Debug)]
pub(super) struct ComplexFull {
    /// `complex64`, or else the (cast) tensor's dtype.
    pub(super) complex64: bool,
    /// Its shape: the tensor's, `[1]` (`false`), or `[]` (`true`).
    pub(super) zero_dim: Option<bool>,
}

/// One of `Tensor`'s C++ operator methods.
#[derive(Clone, Copy, Debug)]
pub(super) struct Method {
    /// Python's name, which CPython's `SystemError` prints ([`paddle_name`]
    /// gives Paddle's).
    pub(super) python: &'static str,
    pub(super) on_number: OnNumber,
    /// Whether an `int` casts an integer tensor to `float32` as a `float`
    /// does (division).
    pub(super) int_as_float: bool,
    pub(super) complex: ComplexFull,
}

/// Paddle's name of a method in its own messages: `__radd__` and
/// `__rmul__` are `__add__`'s and `__mul__`'s C functions, names and all,
/// and division is `__div__` and `__rdiv__`.
fn paddle_name(python: &'static str) -> &'static str {
    match python {
        "__radd__" => "__add__",
        "__rmul__" => "__mul__",
        "__truediv__" => "__div__",
        "__rtruediv__" => "__rdiv__",
        other => other,
    }
}

/// Whether `CallScalarFunction`'s "div" dispatches on `dtype`: the
/// floating and complex dtypes (the float8 ones too); another is an
/// `OSError` (`PD_THROW`). Integer tensors never reach it: division casts
/// them to `float32` first.
fn divides(dtype: DType) -> bool {
    matches!(dtype.kind(), Kind::Float | Kind::Complex)
}

/// The other operand of a method: a tensor, or what the method makes of a
/// Python number before the operation's kernel.
pub(super) enum Other {
    /// Two tensors for the operation (the method's, cast, first).
    Tensors(Tensor, Tensor),
    /// The dtype a kernel of the tensor and a C double computed in.
    Computed(DType),
}

/// `tensor.method(other)` up to the operation's kernel of two tensors.
pub(super) fn call(method: &Method, tensor: Tensor, other: Form) -> Result<Other, Stop> {
    let number = match other {
        Form::Tensor(other) => return Ok(Other::Tensors(tensor, other)),
        Form::None => {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::Type,
                format!(
                "(InvalidType) {}(): argument (position 1) must be int, float, bool or Tensor, \
                 but got NoneType (at /paddle/paddle/fluid/pybind/eager_utils.cc:2508)\n",
                paddle_name(method.python)
            ),
            )))
        }
        Form::Number(number) => number,
    };
    let full = |dtype: DType, zero_dim: bool| -> Result<Tensor, Stop> {
        kernels::FULL.run(dtype)?;
        Ok(Tensor { dtype, zero_dim })
    };
    match number {
        Number::Int(_) | Number::Float(_) => {
            let given = tensor.dtype;
            let tensor = Tensor {
                dtype: cast_for_number(method, tensor.dtype, number),
                ..tensor
            };
            let dtype = tensor.dtype;
            match method.on_number {
                OnNumber::Scale => Ok(Other::Computed(kernels::SCALE.run(dtype)?)),
                OnNumber::Divide if !divides(dtype) => Err(Stop::Error(PromotionError::framework(
                    ErrorKind::OS,
                    format!(
                        "function \"CallScalarFunction\" is not implemented for data type \
                         `{dtype}`\n  [/paddle/paddle/fluid/pybind/eager_math_op_patch.cc:196]"
                    ),
                ))),
                OnNumber::Divide => Ok(Other::Computed(kernels::DIV_SCALE.run(dtype)?)),
                OnNumber::Power => {
                    let dtype = kernels::POW.run(dtype)?;
                    match number {
                        Number::Int(exponent) if pow_never_returns(dtype, exponent) => {
                            Err(Stop::Error(never_returns(exponent, given, dtype)))
                        }
                        _ => Ok(Other::Computed(dtype)),
                    }
                }
                OnNumber::Full => {
                    if let Number::Int(value) = number {
                        if i64::try_from(value).is_err() {
                            return Err(Stop::Error(PromotionError::framework(
                                ErrorKind::System,
                                format!(
                                    "<method '{}' of 'Tensor' objects> returned a result with \
                                     an exception set",
                                    method.python
                                ),
                            )));
                        }
                    }
                    Ok(Other::Tensors(tensor, full(dtype, tensor.zero_dim)?))
                }
            }
        }
        Number::Bool(_) => Ok(Other::Tensors(tensor, full(tensor.dtype, tensor.zero_dim)?)),
        Number::Complex { .. } => {
            let dtype = if is_complex(tensor.dtype) {
                tensor.dtype
            } else {
                promote(tensor.dtype, DType::Complex64)?
            };
            let tensor = Tensor { dtype, ..tensor };
            let made = if method.complex.complex64 {
                DType::Complex64
            } else {
                dtype
            };
            let zero_dim = method.complex.zero_dim.unwrap_or(tensor.zero_dim);
            Ok(Other::Tensors(tensor, full(made, zero_dim)?))
        }
    }
}

/// The dtype a method casts its tensor to before a Python `int` or
/// `float` (`_supported_int_dtype_`: the integers and `bool`).
fn cast_for_number(method: &Method, dtype: DType, number: Number) -> DType {
    let int_like = is_int(dtype) || dtype == DType::Bool;
    match number {
        Number::Float(_) if int_like => DType::Float32,
        Number::Int(_) if int_like && method.int_as_float => DType::Float32,
        Number::Int(_) if dtype == DType::Bool => DType::Int64,
        _ => dtype,
    }
}

/// Whether the CPU's `pow` kernel of an integer `dtype` loops for ever on
/// the Python int `exponent`: it reads the exponent, a C double, as the
/// dtype's C integer, and never ends on a negative one. An exponent past
/// the integer's range converts to its most negative value on x86-64
/// (measured: `int32 ** 2**31` and `int64 ** 2**63` hang too).
pub(super) fn pow_never_returns(dtype: DType, exponent: i128) -> bool {
    let bits = match dtype {
        DType::Int32 => 31,
        DType::Int64 => 63,
        _ => return false,
    };
    let exponent = exponent as f64;
    exponent < 0.0 || exponent >= crate::float::powi(2.0, bits)
}

/// The answer for a call that does not return.
pub(super) fn never_returns(exponent: i128, given: DType, dtype: DType) -> PromotionError {
    let cast = if given == dtype {
        String::new()
    } else {
        format!(" (cast to {dtype})")
    };
    PromotionError::framework(
        ErrorKind::DoesNotReturn,
        format!(
            "x ** {exponent} with x a tensor of {given} does not return in PaddlePaddle 3.3.1: \
             Tensor.__pow__ runs the CPU's pow kernel for {dtype}{cast}, which loops for ever on \
             an exponent negative as a C integer of that width; on a tensor with no elements the \
             same call answers {dtype}"
        ),
    )
}

/// `number & tensor` (`__rand__`, and `__ror__`, `__rxor__`, in Python):
/// `paddle.to_tensor(number, dtype=tensor.dtype)` of an `int` or `bool`,
/// which is then the first tensor; anything else is a `TypeError` whose
/// operator is `|` whichever the method (Paddle's text).
pub(super) fn reflected_bitwise(tensor: Tensor, other: Form) -> Result<Tensor, PromotionError> {
    let value = match other {
        Form::Number(Number::Bool(value)) => i128::from(value),
        Form::Number(Number::Int(value)) => value,
        _ => {
            let class = match other {
                Form::Number(number) => number.scalar().name(),
                Form::Tensor(_) => "Tensor",
                Form::None => "NoneType",
            };
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!("unsupported operand type(s) for |: '{class}' and 'Tensor'"),
            ));
        }
    };
    // NumPy makes the value an array first: past int64 and uint64 it is
    // an array of objects.
    if !(i128::from(i64::MIN)..=i128::from(u64::MAX)).contains(&value) {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            "dtype must be any of [bool, float16, uint16, float32, float64, int8, int16, int32, \
             int64, uint8, complex64, complex128, bfloat16], but received object"
                .to_owned(),
        ));
    }
    match tensor.dtype {
        DType::UInt32 | DType::UInt64 => Err(PromotionError::framework(
            ErrorKind::Value,
            "(InvalidArgument) Input object type error or incompatible array data type. \
             tensor.set() supports array with bool, float16, float32, float64, int8, int16, \
             int32, int64, uint8 or uint16, please check your input or input array data type. \
             (at /paddle/paddle/fluid/pybind/tensor_py.h:566)\n"
                .to_owned(),
        )),
        DType::Float8E4M3Fn | DType::Float8E5M2 => Err(PromotionError::framework(
            ErrorKind::Type,
            format!("data type '{}' not understood", tensor.dtype),
        )),
        dtype => Ok(Tensor {
            dtype,
            zero_dim: true,
        }),
    }
}

/// `paddle.<function>(...)`'s refusal of an argument that is no tensor.
pub(super) fn not_a_tensor(function: &str, position: usize, got: Form) -> PromotionError {
    let (class, line) = match got {
        Form::Number(number) => (number.scalar().name(), 1526),
        _ => ("None", 1512),
    };
    PromotionError::framework(
        ErrorKind::Value,
        format!(
            "(InvalidArgument) {function}(): argument '{}' (position {position}) must be Tensor, \
             but got {class} (at /paddle/paddle/fluid/pybind/eager_utils.cc:{line})\n",
            ["x", "y"][position.min(1)]
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_integer_pow_kernel_hangs_on_what_reads_negative() {
        assert!(pow_never_returns(DType::Int32, -1));
        assert!(pow_never_returns(DType::Int32, 1 << 31));
        assert!(!pow_never_returns(DType::Int32, (1 << 31) - 1));
        assert!(!pow_never_returns(DType::Int64, 1 << 62));
        assert!(pow_never_returns(DType::Int64, 1 << 63));
        assert!(!pow_never_returns(DType::Float32, -1));
    }
}
