//! PaddlePaddle's contractions and combinations on the CPU:
//! `paddle.matmul`, `dot`, `tensordot`, `einsum`, `where`, `clip`,
//! `concat`, `stack`, `full_like`, measured on PaddlePaddle 3.3.1.
//!
//! None promotes but `where`. Each runs one kernel of one dtype `T` (the
//! kernel key), chosen by the C++ API from its tensors: `matmul` the second
//! tensor's (the first's with a complex one, as the elementwise kernels
//! do, [`kernels::key`]), `dot`, `einsum` and `stack` the first's. Where `T`
//! is complex, the other tensors are cast to it first (but `bool`, `int32`
//! and `int64`, and only from the types `CastDataType` takes); then the
//! kernel reads every tensor as `T`, and one of another dtype fails
//! ("The type of data we are trying to retrieve (int32) does not match the
//! type of data (bool)"). `matmul`'s integer kernels cast both tensors to
//! `float32` and the product back to the first's dtype, so a `float32`
//! first tensor passes. `concat` asks one dtype of all its tensors first.
//! `where` promotes its two values by Paddle's table (Python numbers made
//! tensors first), `clip` takes Python numbers (an integer tensor with a
//! float bound computes in `float32`), `full_like` the fill value in
//! `dtype=` or the tensor's dtype, checked against that dtype's range.
//!
//! ```
//! use dtype_lattice::frameworks::paddle::Paddle;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy, Typed};
//! let ask = |op, operands: &[Operand]| Paddle.array_op(&ArrayCall::new(op), operands).unwrap();
//! let (f32, i32) = (Operand::dtype(DType::Float32), Operand::dtype(DType::Int32));
//! assert_eq!(ask(ArrayOp::Matmul, &[f32, i32]).unwrap().result(), Typed::strong(DType::Float32));
//! let err = ask(ArrayOp::Matmul, &[i32, f32]).unwrap_err();
//! assert!(err.to_string().starts_with("(InvalidArgument) The type of data we are trying to retrieve (float32)"));
//! let clip = ask(ArrayOp::Clip, &[i32, Operand::py_float(2.5)]).unwrap();
//! assert_eq!(clip.result(), Typed::strong(DType::Float32));
//! let full = ask(ArrayOp::FullLike, &[Operand::dtype(DType::UInt8), Operand::py_int(-1)]);
//! assert!(full.unwrap_err().to_string().contains("the range should between 0.000000 and 255.000000"));
//! ```

use super::array_ops::{too_many_arguments, unexpected};
use super::kernels::{self, run_inputs, wrong_data, Stop};
use super::kernels::{CLIP, CONCAT, DOT, EINSUM, FULL_LIKE, MATMUL, STACK, WHERE};
use super::methods::not_a_tensor;
use super::promotion::{common, Tensor, ZeroDim};
use super::{form, known, Form};
use crate::float;
use crate::frameworks::common::array_ops::counted;
use crate::frameworks::python::{class_name, Number};
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Family, Kind, Operand, Outcome, PromotionError, Typed,
};

use crate::prelude::*;
use DType::{Float32 as F32, Int32 as I32, Int64 as I64};

/// `paddle.<function>` of `operands` on the CPU, for an operation other
/// than a reduction.
pub(super) fn array_op(call: ArrayCall, operands: &[Operand]) -> Result<Outcome, PromotionError> {
    let operands = counted(call, operands)?;
    let forms = operands
        .iter()
        .map(form)
        .collect::<Result<Vec<Form>, _>>()?;
    let dtype = call.dtype().map(known).transpose()?;
    let answer = match (call.op(), forms.as_slice()) {
        (op, &[x, y]) if op.family() == Family::Contraction => contraction(op, x, y, dtype),
        (ArrayOp::Where, &[condition, x, y]) => select(condition, x, y),
        (ArrayOp::Clip, [x, bounds @ ..]) => clip(*x, bounds),
        (ArrayOp::Concatenate, forms) => concat(forms),
        (ArrayOp::Stack, forms) => {
            tensors("stack", forms).and_then(|dtypes| run_inputs(&STACK, dtypes[0], &dtypes))
        }
        (ArrayOp::FullLike, &[x, value]) => full_like(x, value, dtype),
        (op, _) => Err(Stop::Error(PromotionError::framework(
            ErrorKind::Type,
            format!("{op} is a reduction: paddle's reductions answer it"),
        ))),
    };
    answer
        .map_err(Stop::error)
        .map(|dtype| Outcome::of(Typed::strong(dtype)))
}

/// What Python raises reading `attribute` of a number or `None`.
fn no_attribute(form: Form, attribute: &str) -> Stop {
    let value = match form {
        Form::Number(number) => Some(number),
        _ => None,
    };
    Stop::Error(PromotionError::framework(
        ErrorKind::Attribute,
        format!(
            "'{}' object has no attribute '{attribute}'",
            class_name(value)
        ),
    ))
}

/// `paddle.matmul(x, y)` (`paddle.tensordot(x, y, 1)` reshapes and calls
/// it), `paddle.dot(x, y)`, `paddle.einsum("ij,jk->ik", x, y)`.
fn contraction(op: ArrayOp, x: Form, y: Form, dtype: Option<DType>) -> Result<DType, Stop> {
    if dtype.is_some() {
        return Err(Stop::Error(match op {
            ArrayOp::Matmul | ArrayOp::Dot => too_many_arguments(),
            _ => unexpected(op.name(), "dtype"),
        }));
    }
    let (name, kernel) = match op {
        ArrayOp::Dot => ("dot", &DOT),
        ArrayOp::Einsum => ("einsum", &EINSUM),
        _ => ("matmul", &MATMUL),
    };
    let mut dtypes = [F32; 2];
    for (position, (slot, form)) in dtypes.iter_mut().zip([x, y]).enumerate() {
        *slot = match (op, form) {
            (_, Form::Tensor(tensor)) => tensor.dtype,
            (ArrayOp::Tensordot, other) => return Err(no_attribute(other, "dtype")),
            (ArrayOp::Einsum, other) => return Err(no_attribute(other, "shape")),
            (_, other) => return Err(Stop::Error(not_a_tensor(name, position, other))),
        };
    }
    let [x, y] = dtypes;
    if kernel.name != "matmul" {
        return run_inputs(kernel, x, &dtypes);
    }
    let key = kernels::key(x, y);
    if matches!(key, I32 | I64) {
        // The integer kernels cast both tensors to float32 (reading each
        // as the key's type, unless already float32), then the product to
        // the first tensor's dtype.
        kernel.run(key)?;
        if x != key && x != F32 {
            return Err(Stop::Error(wrong_data(key, x)));
        }
        return Ok(x);
    }
    run_inputs(kernel, key, &dtypes)
}

/// The tensor `paddle.to_tensor` makes of a Python number (`where`'s
/// `np.isscalar` values): `int64`, `float32` (the default dtype),
/// `complex64`, `bool`.
fn to_tensor(form: Form) -> Form {
    let dtype = match form {
        Form::Number(Number::Bool(_)) => DType::Bool,
        Form::Number(Number::Int(_)) => I64,
        Form::Number(Number::Float(_)) => F32,
        Form::Number(Number::Complex { .. }) => DType::Complex64,
        other => return other,
    };
    Form::Tensor(Tensor {
        dtype,
        zero_dim: true,
    })
}

/// `paddle.where(condition, x, y)`: Python numbers made tensors, a `bool`
/// condition, then `x` and `y` promoted as `paddle.maximum`'s tensors
/// are (both floats or one complex, else `TypeError`), into the `where`
/// kernel.
fn select(condition: Form, x: Form, y: Form) -> Result<DType, Stop> {
    let value = |form: Form| -> Result<Option<Tensor>, Stop> {
        match to_tensor(form) {
            Form::Tensor(tensor) => Ok(Some(tensor)),
            _ => Ok(None),
        }
    };
    let (x, y) = match (value(x)?, value(y)?) {
        (Some(x), Some(y)) => (x, y),
        (None, None) => {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::Type,
                "paddle.where(condition) without x and y is paddle.nonzero(condition, \
                 as_tuple=True): a tuple of tensors, no dtype"
                    .to_owned(),
            )))
        }
        _ => {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::Value,
                "either both or neither of x and y should be given".to_owned(),
            )))
        }
    };
    match condition {
        Form::Tensor(tensor) if tensor.dtype != DType::Bool => {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::Value,
                format!(
                    "The `condition` is expected to be a boolean Tensor, but got a Tensor with \
                     dtype {}",
                    printed(tensor.dtype)
                ),
            )))
        }
        Form::Tensor(_) => {}
        other => return Err(no_attribute(other, "shape")),
    }
    let dtype = common(x, y, ZeroDim::AsTensor)?;
    WHERE.run(dtype)
}

/// A dtype as Python prints it (`paddle.uint16` as the `bfloat16` it
/// stands for in Paddle's older API).
fn printed(dtype: DType) -> String {
    match dtype {
        DType::UInt16 => "paddle.bfloat16".to_owned(),
        other => format!("paddle.{other}"),
    }
}

/// A bound or fill value as Paddle's C++ `Scalar` takes it.
#[derive(Clone, Copy)]
struct Scalar {
    /// Its value as a real number (a complex's real part).
    value: f64,
    /// Whether Python holds it as a `float`.
    float: bool,
}

impl Scalar {
    fn of(number: Number) -> Scalar {
        Scalar {
            value: number.real(),
            float: matches!(number, Number::Float(_)),
        }
    }
}

/// The `Scalar` of a tensor: one element only (the golden data's
/// tensors with dimensions are 2 by 2, of ones).
fn scalar_of_tensor(tensor: Tensor) -> Result<Scalar, Stop> {
    if tensor.zero_dim {
        return Ok(Scalar {
            value: 1.0,
            float: false,
        });
    }
    Err(Stop::Error(PromotionError::framework(
        ErrorKind::Value,
        "(InvalidArgument) The Scalar only supports Tensor with 1 element, but now Tensor has \
         `4` elements\n  [Hint: Expected tensor_in.numel() == 1, but received \
         tensor_in.numel():4 != 1:1.] (at /paddle/paddle/phi/api/lib/scalar.cc:27)\n"
            .to_owned(),
    )))
}

/// `tensor.item(0)`: the Python number of its first element (a one).
fn item(tensor: Tensor) -> Result<Scalar, Stop> {
    let float = match tensor.dtype {
        DType::Float8E4M3Fn | DType::Float8E5M2 => {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::NotImplemented,
                format!(
                    "(Unimplemented) Unsupported tensor data type: {} (at \
                     /paddle/paddle/fluid/pybind/eager_method.cc:1907)\n",
                    tensor.dtype
                ),
            )))
        }
        // `uint16` reads as the bfloat16 it holds.
        DType::UInt16 => true,
        dtype => dtype.kind() == Kind::Float,
    };
    Ok(Scalar { value: 1.0, float })
}

/// `paddle.clip(x, min, max)` in dynamic mode: a missing bound is the
/// range of `x`'s dtype; an `int32` or `int64` `x` takes a tensor bound's
/// first element (`item`) and is cast to `float32` for a float bound; the
/// `clip` kernel, which refuses `min > max`.
fn clip(x: Form, bounds: &[Form]) -> Result<DType, Stop> {
    let x = match x {
        Form::Tensor(tensor) => tensor.dtype,
        other => return Err(no_attribute(other, "dtype")),
    };
    let integer = matches!(x, I32 | I64);
    let mut scalars: [Option<Scalar>; 2] = [None; 2];
    if integer {
        for (slot, bound) in scalars.iter_mut().zip(bounds) {
            if let Form::Tensor(tensor) = *bound {
                *slot = Some(item(tensor)?);
            }
        }
    }
    // What Python left, C++ reads as Scalars.
    for (slot, bound) in scalars.iter_mut().zip(bounds) {
        if slot.is_none() {
            *slot = match *bound {
                Form::Number(number) => Some(Scalar::of(number)),
                Form::Tensor(tensor) => Some(scalar_of_tensor(tensor)?),
                Form::None => None,
            };
        }
    }
    let float = scalars.iter().flatten().any(|s| s.float);
    let x = if integer && float { F32 } else { x };
    CLIP.run(x)?;
    let (low, high) = match x {
        I32 => (-(float::powi(2.0, 31)), float::powi(2.0, 31) - 1.0 - 128.0),
        I64 => (
            -(float::powi(2.0, 63)),
            float::powi(2.0, 63) - 1.0 - float::powi(2.0, 39),
        ),
        DType::Float64 => (f64::MIN, f64::MAX),
        _ => (f64::from(f32::MIN), f64::from(f32::MAX)),
    };
    let as_kernel = |value: f64| {
        if matches!(x, I32 | I64) {
            float::trunc(value)
        } else {
            value
        }
    };
    let min = as_kernel(scalars[0].map_or(low, |s| s.value));
    let max = as_kernel(scalars[1].map_or(high, |s| s.value));
    if min > max {
        return Err(Stop::Error(PromotionError::framework(
            ErrorKind::Value,
            format!(
                "(InvalidArgument) max should be greater than or equal to min. But received min \
                 = {min:.6}, max = {max:.6}\n  [Hint: Expected min_ <= max_, but received \
                 min_:{min} > max_:{max}.] (at \
                 /paddle/paddle/phi/kernels/impl/clip_kernel_impl.h:49)\n"
            ),
        )));
    }
    Ok(x)
}

/// The tensors of `concat`'s or `stack`'s list, which takes nothing else
/// (and, as `counted` lets through, at least one).
fn tensors(name: &str, forms: &[Form]) -> Result<Vec<DType>, Stop> {
    if forms.is_empty() {
        return Err(Stop::Error(PromotionError::framework(
            ErrorKind::Type,
            format!("paddle.{name} of no tensors"),
        )));
    }
    forms
        .iter()
        .map(|form| match form {
            Form::Tensor(tensor) => Ok(tensor.dtype),
            _ => Err(Stop::Error(PromotionError::framework(
                ErrorKind::Value,
                format!(
                    "(InvalidArgument) {name}(): argument 'x' (position 0) must be list of \
                     Tensors\n  [Hint: Expected PyObject_TypeCheck(((PyObject*)((tensor_obj))), \
                     (p_tensor_type)) == true, but received \
                     PyObject_TypeCheck(((PyObject*)((tensor_obj))), (p_tensor_type)):0 != \
                     true:1.] (at /paddle/paddle/fluid/pybind/eager_utils.cc:1571)\n"
                ),
            ))),
        })
        .collect()
}

/// `paddle.concat([a, b, ...])`: one dtype for every tensor, then the
/// `concat` kernel of it.
fn concat(forms: &[Form]) -> Result<DType, Stop> {
    let dtypes = tensors("concat", forms)?;
    let first = dtypes[0];
    if let Some((i, other)) = dtypes.iter().enumerate().find(|(_, &d)| d != first) {
        return Err(Stop::Error(PromotionError::framework(
            ErrorKind::Value,
            format!(
                "(InvalidArgument) The data_type of input tensor in list isn't consistent, the \
                 first tensor is {first}, but {i}th tensor is {other}. (at \
                 /paddle/paddle/phi/api/lib/kernel_dispatch.cc:133)\n"
            ),
        )));
    }
    CONCAT.run(first)
}

/// What `full_like`'s kernel checks a fill value of a real dtype against:
/// C++'s `typeid(T).name()`, `numeric_limits<T>`'s lowest and max, and
/// whether the comparison is in `double` (`float64`) rather than `float`.
fn full_range(dtype: DType) -> Option<(&'static str, f64, f64)> {
    Some(match dtype {
        DType::Bool => ("b", 0.0, 1.0),
        DType::UInt8 => ("h", 0.0, 255.0),
        DType::Int8 => ("a", -128.0, 127.0),
        DType::Int16 => ("s", -32768.0, 32767.0),
        I32 => ("i", f64::from(i32::MIN), f64::from(i32::MAX)),
        I64 => ("l", -(float::powi(2.0, 63)), float::powi(2.0, 63)),
        DType::Float16 => ("N3phi5dtype7float16E", -65504.0, 65504.0),
        DType::BFloat16 => ("N3phi5dtype8bfloat16E", -BF16_MAX, BF16_MAX),
        F32 => ("f", f64::from(f32::MIN), f64::from(f32::MAX)),
        DType::Float64 => ("d", f64::MIN, f64::MAX),
        _ => return None,
    })
}

/// `bfloat16`'s largest finite value.
const BF16_MAX: f64 = 3.389_531_389_251_535_5e38;

/// `paddle.full_like(x, value, dtype=...)`: a number (or a tensor of one
/// element), in `dtype=` or `x`'s dtype, whose `full_like` kernel refuses
/// a finite value outside the dtype's range.
fn full_like(x: Form, value: Form, dtype: Option<DType>) -> Result<DType, Stop> {
    let fill =
        match value {
            Form::Number(number) => Ok(number),
            Form::Tensor(tensor) => Err(tensor),
            Form::None => return Err(Stop::Error(PromotionError::framework(
                ErrorKind::Type,
                "The fill_value should be int, float, bool, complex, np.number, string numeric \
                 value or Tensor, but received <class 'NoneType'>."
                    .to_owned(),
            ))),
        };
    let x = match x {
        Form::Tensor(tensor) => tensor.dtype,
        other => return Err(no_attribute(other, "dtype")),
    };
    let dtype = dtype.unwrap_or(x);
    let value = match fill {
        Ok(Number::Int(int)) if i64::try_from(int).is_err() => {
            return Err(Stop::Error(PromotionError::framework(
                ErrorKind::System,
                "<built-in function full_like> returned a result with an exception set".to_owned(),
            )))
        }
        Ok(number) => number.real(),
        Err(tensor) => scalar_of_tensor(tensor)?.value,
    };
    FULL_LIKE.run(dtype)?;
    let Some((name, lowest, max)) = full_range(dtype) else {
        return Ok(dtype);
    };
    // The kernel compares in double for `double`, else in float.
    let common = |v: f64| {
        if dtype == DType::Float64 {
            v
        } else {
            f64::from(v as f32)
        }
    };
    let (v, lowest, max) = (common(value), common(lowest), common(max));
    if value.is_finite() && (v < lowest || v > max) {
        return Err(Stop::Error(PromotionError::framework(
            ErrorKind::Value,
            format!(
                "(InvalidArgument) The filled value is out of range for target type, current \
                 kernel type is {name}, the range should between {lowest:.6} and {max:.6}, but \
                 now value is {v:.6}.\n  [Hint: Expected is_out_range == false, but received \
                 is_out_range:1 != false:0.] (at /paddle/paddle/phi/kernels/cpu/full_kernel.cc:84)\n"
            ),
        )));
    }
    Ok(dtype)
}

/// How `paddle.<function>` answers `op`, in words.
pub(super) fn describe(op: ArrayOp) -> String {
    let rule =
        match op {
            ArrayOp::Matmul | ArrayOp::Tensordot => format!(
            "no promotion: the kernel `matmul` ({}) runs in the second tensor's dtype (complex \
             where either is: the other cast to it, but bool, int32 and int64, which fail); the \
             first tensor must hold that dtype (ValueError), except that the integer kernels \
             cast a float32 first tensor and return the first tensor's dtype",
            MATMUL.dtypes()
        ),
            ArrayOp::Dot | ArrayOp::Einsum => {
                format!(
            "no promotion: the kernel `{}` ({}) runs in the first tensor's dtype; where it is \
             complex the second is cast to it (but bool, int32 and int64), else the second must \
             hold it (ValueError)",
            if op == ArrayOp::Dot { "dot" } else { "einsum" },
            if op == ArrayOp::Dot { DOT.dtypes() } else { EINSUM.dtypes() }
        )
            }
            ArrayOp::Where => format!(
            "Python numbers become tensors (int64, float32, complex64, bool); x and y promote by \
             Paddle's table only when both are floats or one is complex, else TypeError; then \
             the kernel `where` ({})",
            WHERE.dtypes()
        ),
            ArrayOp::Clip => format!(
                "bounds are Python numbers (a tensor bound of an int32 or int64 x is its first \
             element; of another x, a tensor of one element); an int32 or int64 x with a float \
             bound is cast to float32; the kernel `clip` ({}) in x's dtype, which is the result; \
             min > max is a ValueError",
                CLIP.dtypes()
            ),
            ArrayOp::Concatenate => format!(
                "every tensor of one dtype (ValueError otherwise), the kernel `concat` ({}) of it",
                CONCAT.dtypes()
            ),
            ArrayOp::Stack => format!(
            "no promotion: the kernel `stack` ({}) runs in the first tensor's dtype; where it is \
             complex the others are cast to it (but bool, int32 and int64), else each must hold \
             it (ValueError)",
            STACK.dtypes()
        ),
            _ => format!(
            "dtype= if given, else x's dtype; the fill value a Python number (or a tensor of one \
             element), which the kernel `full_like` ({}) refuses outside a real dtype's range",
            FULL_LIKE.dtypes()
        ),
        };
    let name = match op {
        ArrayOp::Concatenate => "concat",
        other => other.name(),
    };
    format!("paddle.{name} (PaddlePaddle 3.3.1, CPU): {rule}; no computation type said")
}
