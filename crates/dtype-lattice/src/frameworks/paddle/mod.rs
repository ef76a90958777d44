//! PaddlePaddle 3.3's type promotion, in dynamic mode (Paddle's default) on
//! the CPU: `x + y`, which is also `paddle.add(x, y)` for two tensors.
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
//! [`result_type`](Paddle::result_type) is that promotion; [`add`](Paddle::add)
//! is `x + y` on the CPU, where the CPU wheel has no kernel for several
//! dtypes it promotes to (`float16`, `bfloat16`, `uint16`..`uint64`, the
//! float8 types):
//!
//! ```
//! use dtype_lattice::frameworks::paddle::Paddle;
//! use dtype_lattice::{DType, Operand, Policy, Typed};
//!
//! let x = Operand::dtype(DType::Float16);
//! assert_eq!(Paddle.result_type(&[x, x]), Ok(Typed::strong(DType::Float16)));
//! let err = Paddle.add(&[x, x]).unwrap().unwrap_err();
//! assert_eq!(err.python_type(), "RuntimeError");
//! assert!(err.to_string().starts_with(
//!     "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), float16) of kernel `add` is not registered."
//! ));
//! ```

use crate::policy::{Policy, TypedLattice};
use crate::types::{DType, ErrorKind, Kind, PromotionError, Typed};
use crate::types::{Operand, OperandKind, PyScalar, TypeSpec};

/// Paddle's dtypes among the 32 (`paddle.uint16` is a dtype of its own,
/// though Paddle prints it as `paddle.bfloat16`).
const DTYPES: [DType; 17] = [
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
];

/// The dtypes of `phi::promoteTypes`, in the order of `DataTypeToNum`.
const TABLE_DTYPES: [DType; 12] = [
    DType::UInt8,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
    DType::Bool,
    DType::BFloat16,
];

/// `_promoteTypesLookup`, by position in [`TABLE_DTYPES`].
#[rustfmt::skip]
const TABLE: [[u8; 12]; 12] = {
    // The names of Paddle's source, as positions in `TABLE_DTYPES`.
    const U1: u8 = 0;
    const I1: u8 = 1;
    const I2: u8 = 2;
    const I4: u8 = 3;
    const I8: u8 = 4;
    const F2: u8 = 5;
    const F4: u8 = 6;
    const F8: u8 = 7;
    const C4: u8 = 8;
    const C8: u8 = 9;
    const B1: u8 = 10;
    const BF: u8 = 11;
    [
        // u1  i1  i2  i4  i8  f2  f4  f8  c4  c8  b1  bf
        [U1, I2, I2, I4, I8, F2, F4, F8, C4, C8, U1, BF], // u1
        [I2, I1, I2, I4, I8, F2, F4, F8, C4, C8, I1, BF], // i1
        [I2, I2, I2, I4, I8, F2, F4, F8, C4, C8, I2, BF], // i2
        [I4, I4, I4, I4, I8, F2, F4, F8, C4, C8, I4, BF], // i4
        [I8, I8, I8, I8, I8, F2, F4, F8, C4, C8, I8, BF], // i8
        [F2, F2, F2, F2, F2, F2, F4, F8, C4, C8, F2, F4], // f2
        [F4, F4, F4, F4, F4, F4, F4, F8, C4, C8, F4, F4], // f4
        [F8, F8, F8, F8, F8, F8, F8, F8, C8, C8, F8, F8], // f8
        [C4, C4, C4, C4, C4, C4, C4, C8, C4, C8, C4, C4], // c4
        [C8, C8, C8, C8, C8, C8, C8, C8, C8, C8, C8, C8], // c8
        [U1, I1, I2, I4, I8, F2, F4, F8, C4, C8, B1, BF], // b1
        [BF, BF, BF, BF, BF, F4, F4, F8, C4, C8, BF, BF], // bf
    ]
};

/// The CPU kernels an addition may need, with the dtypes each has, in the
/// order Paddle's `NotFound` error lists them (measured, stable from run to
/// run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    /// `add`: the addition of two tensors.
    Add,
    /// `scale`: `Tensor.__add__` of a Python int or float.
    Scale,
    /// `full`: the tensor `Tensor.__add__` makes of a Python bool or
    /// complex, in the dtype of the tensor beside it.
    Full,
}

impl Kernel {
    fn name(self) -> &'static str {
        match self {
            Kernel::Add => "add",
            Kernel::Scale => "scale",
            Kernel::Full => "full",
        }
    }

    fn dtypes(self) -> &'static str {
        match self {
            Kernel::Add => {
                "int16, float64, complex128, int32, uint8, float32, complex64, bool, int64, int8"
            }
            Kernel::Scale => {
                "int16, float64, complex128, float16, float32, complex64, int32, uint8, bfloat16, \
                 bool, int64, int8"
            }
            Kernel::Full => {
                "int64, bool, int8, bfloat16, uint8, int32, complex64, float8_e5m2, float32, \
                 int16, float8_e4m3fn, float64, float16, complex128"
            }
        }
    }

    /// `dtype`, if the CPU has this kernel for it.
    fn run(self, dtype: DType) -> Result<DType, Stop> {
        if self.dtypes().split(", ").any(|name| name == dtype.name()) {
            Ok(dtype)
        } else {
            Err(Stop::NoKernel(self, dtype))
        }
    }
}

/// Why Paddle gives no dtype.
enum Stop {
    /// Paddle raises this error while promoting.
    Error(PromotionError),
    /// Paddle promoted to this dtype, and the CPU has no such kernel for it.
    NoKernel(Kernel, DType),
}

impl From<PromotionError> for Stop {
    fn from(err: PromotionError) -> Stop {
        Stop::Error(err)
    }
}

impl Stop {
    /// The error `x + y` raises.
    fn error(self) -> PromotionError {
        match self {
            Stop::Error(err) => err,
            Stop::NoKernel(kernel, dtype) => PromotionError::Framework {
                kind: ErrorKind::Runtime,
                message: format!(
                    "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dtype}) of kernel \
                     `{}` is not registered. Selected wrong DataType `{dtype}`. Paddle support \
                     following DataTypes: {}.\n  [Hint: Expected kernel_iter == \
                     iter->second.end() && kernel_key.backend() == Backend::CPU != true, but \
                     received kernel_iter == iter->second.end() && kernel_key.backend() == \
                     Backend::CPU:1 == true:1.] (at \
                     /paddle/paddle/phi/core/kernel_factory.cc:317)\n",
                    kernel.name(),
                    kernel.dtypes()
                ),
            },
        }
    }

    /// The dtype Paddle promoted to, kernels aside.
    fn kernels_aside(self) -> Result<DType, PromotionError> {
        match self {
            Stop::Error(err) => Err(err),
            Stop::NoKernel(_, dtype) => Ok(dtype),
        }
    }
}

fn type_error(message: String) -> PromotionError {
    PromotionError::Framework {
        kind: ErrorKind::Type,
        message,
    }
}

/// `phi::promoteTypes`: the table, or `DataTypeToNum`'s error for a dtype
/// outside it (`x` is looked up first).
fn promote(x: DType, y: DType) -> Result<DType, PromotionError> {
    let num = |dtype: DType| {
        TABLE_DTYPES
            .iter()
            .position(|&d| d == dtype)
            .ok_or_else(|| {
                type_error(format!(
                    "(InvalidType) Invalid enum data type for type promote {dtype}. (at \
                     /paddle/paddle/phi/common/type_promotion.h:46)\n"
                ))
            })
    };
    let row = num(x)?;
    Ok(TABLE_DTYPES[usize::from(TABLE[row][num(y)?])])
}

/// `is_support_int`: the integers of the table (`bool` is not one).
fn is_int(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64
    )
}

/// `is_support_float`: the floats of the table.
fn is_float(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Float16 | DType::Float32 | DType::Float64 | DType::BFloat16
    )
}

/// `is_support_complex`.
fn is_complex(dtype: DType) -> bool {
    dtype.kind() == Kind::Complex
}

/// `is_common_dtype_for_scalar`: both integers, both floats or both complex.
fn same_category(x: DType, y: DType) -> bool {
    (is_int(x) && is_int(y)) || (is_float(x) && is_float(y)) || (is_complex(x) && is_complex(y))
}

/// An operand as `x + y` sees it.
#[derive(Clone, Copy)]
enum Form {
    /// A tensor: its dtype, and whether it has no dimensions.
    Tensor { dtype: DType, zero_dim: bool },
    /// A Python scalar of this type.
    Scalar(PyScalar),
    /// `None`.
    None,
}

impl Form {
    fn python_class(self) -> &'static str {
        match self {
            Form::Tensor { .. } => "Tensor",
            Form::Scalar(scalar) => scalar.name(),
            Form::None => "NoneType",
        }
    }
}

/// The one place an operand's kind is read. A weakly-typed array (only JAX
/// has them) is an error.
fn form(operand: &Operand) -> Result<Form, PromotionError> {
    Ok(match operand.kind() {
        OperandKind::Array { dtype, weak: true } => {
            return Err(crate::frameworks::numpy::weak_array(dtype))
        }
        OperandKind::DType(dtype) | OperandKind::Array { dtype, .. } => Form::Tensor {
            dtype,
            zero_dim: false,
        },
        OperandKind::ZeroDim(dtype) => Form::Tensor {
            dtype,
            zero_dim: true,
        },
        OperandKind::PyType(scalar) => Form::Scalar(scalar),
        OperandKind::PyInt(_) => Form::Scalar(PyScalar::Int),
        OperandKind::PyFloat(_) => Form::Scalar(PyScalar::Float),
        OperandKind::PyComplex { .. } => Form::Scalar(PyScalar::Complex),
        OperandKind::PyBool(_) => Form::Scalar(PyScalar::Bool),
        OperandKind::None => Form::None,
    })
}

/// A dtype Paddle has, or the error `getattr(paddle, name)` gives.
fn known(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(&dtype) {
        Ok(dtype)
    } else {
        Err(PromotionError::no_attribute("paddle", dtype.name()))
    }
}

/// The dtype Paddle reads a Python type as (`astype(int)` is `int64`).
fn python_dtype(scalar: PyScalar) -> DType {
    match scalar {
        PyScalar::Bool => DType::Bool,
        PyScalar::Int => DType::Int64,
        PyScalar::Float => DType::Float64,
        PyScalar::Complex => DType::Complex128,
    }
}

/// PaddlePaddle 3.3.1 in dynamic mode on the CPU.
///
/// Operands of [`result_type`](Paddle::result_type) and
/// [`add`](Paddle::add), exactly two (`x + y`): a dtype or a strong array
/// is a tensor with dimensions, [`Operand::zero_dim`] a tensor without;
/// Python scalars and `None` are what Python passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Paddle;

impl Paddle {
    /// `x + y`: Python looks both operands up (a dtype Paddle lacks fails
    /// there), then `Tensor.__add__` (or `__radd__`, when `x` is no
    /// tensor) runs.
    fn plus(&self, operands: &[Operand]) -> Result<DType, Stop> {
        let [x, y] = operands else {
            return Err(Stop::Error(type_error(format!(
                "x + y takes two operands, not {}",
                operands.len()
            ))));
        };
        let (x, y) = (form(x)?, form(y)?);
        for side in [x, y] {
            if let Form::Tensor { dtype, .. } = side {
                known(dtype)?;
            }
        }
        match (x, y) {
            (
                Form::Tensor { dtype, zero_dim },
                Form::Tensor {
                    dtype: y,
                    zero_dim: y_0d,
                },
            ) => tensors((dtype, zero_dim), (y, y_0d)),
            (Form::Tensor { dtype, .. }, other) | (other, Form::Tensor { dtype, .. }) => {
                with_scalar(dtype, other)
            }
            (Form::Scalar(a), Form::Scalar(b)) => Err(Stop::Error(PromotionError::Framework {
                kind: ErrorKind::Value,
                message: format!(
                    "Python adds two Python scalars itself: the sum is a Python {} and no \
                     tensor, so it has no dtype",
                    match a.max(b) {
                        PyScalar::Bool => PyScalar::Int,
                        wider => wider,
                    }
                ),
            })),
            (x, y) => Err(Stop::Error(type_error(format!(
                "unsupported operand type(s) for +: '{}' and '{}'",
                x.python_class(),
                y.python_class()
            )))),
        }
    }
}

/// Two tensors, `(dtype, zero-dimensional)`, as `add_ad_func` promotes them
/// (`NeedTypePromotion`, then `GetPromoteDtype`), then the `add` kernel.
fn tensors((x, x_0d): (DType, bool), (y, y_0d): (DType, bool)) -> Result<DType, Stop> {
    let result = if x == y {
        x
    } else if x_0d || y_0d {
        if !same_category(x, y) || (x_0d && y_0d) {
            promote(x, y)?
        } else if x_0d {
            y
        } else {
            x
        }
    } else if (is_float(x) && is_float(y)) || is_complex(x) || is_complex(y) {
        promote(x, y)?
    } else {
        return Err(Stop::Error(type_error(format!(
            "(InvalidType) Type promotion only support calculations between floating-point \
             numbers and between complex and real numbers. But got different data type x: {x}, \
             y: {y}. (at /paddle/paddle/phi/common/type_promotion.h:220)\n"
        ))));
    };
    Kernel::Add.run(result)
}

/// `Tensor.__add__` of a tensor of `dtype` with a Python scalar or `None`.
fn with_scalar(dtype: DType, other: Form) -> Result<DType, Stop> {
    // `_supported_int_dtype_`: the tensors a Python float casts to float32.
    let int_like = is_int(dtype) || dtype == DType::Bool;
    match other {
        Form::Scalar(PyScalar::Float) => {
            Kernel::Scale.run(if int_like { DType::Float32 } else { dtype })
        }
        Form::Scalar(PyScalar::Int) => Kernel::Scale.run(if dtype == DType::Bool {
            DType::Int64
        } else {
            dtype
        }),
        Form::Scalar(PyScalar::Complex) => {
            let dtype = if is_complex(dtype) {
                dtype
            } else {
                promote(dtype, DType::Complex64)?
            };
            Kernel::Add.run(Kernel::Full.run(dtype)?)
        }
        Form::Scalar(PyScalar::Bool) => Kernel::Add.run(Kernel::Full.run(dtype)?),
        Form::None | Form::Tensor { .. } => Err(Stop::Error(type_error(
            "(InvalidType) __add__(): argument (position 1) must be int, float, bool or Tensor, \
             but got NoneType (at /paddle/paddle/fluid/pybind/eager_utils.cc:2508)\n"
                .to_owned(),
        ))),
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
        let dtype = |spec| match spec {
            TypeSpec::DType(dtype) => known(dtype),
            TypeSpec::Python(scalar) => Ok(python_dtype(scalar)),
        };
        let a = dtype(a)?;
        let b = dtype(b)?;
        tensors((a, false), (b, false)).or_else(Stop::kernels_aside)
    }

    /// The dtype `x + y` promotes to, kernels aside: where the CPU lacks
    /// the kernel, the dtype Paddle promoted to all the same.
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.plus(operands)
            .or_else(Stop::kernels_aside)
            .map(Typed::strong)
    }

    /// Paddle's rules are a table and rules around it, not a lattice.
    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(&dtype)
    }

    /// `x + y` on the CPU: the promotion, then the kernels.
    fn add(&self, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(self.plus(operands).map_err(Stop::error).map(Typed::strong))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_symmetric_over_dtypes_paddle_has() {
        for (a, row) in TABLE.iter().enumerate() {
            assert_eq!(usize::from(row[a]), a);
            for (b, &cell) in row.iter().enumerate() {
                assert_eq!(cell, TABLE[b][a]);
            }
        }
        for dtype in TABLE_DTYPES {
            assert!(known(dtype).is_ok());
        }
    }

    #[test]
    fn every_kernel_lists_dtypes_paddle_has() {
        for kernel in [Kernel::Add, Kernel::Scale, Kernel::Full] {
            for name in kernel.dtypes().split(", ") {
                let dtype = DType::from_name(name).unwrap();
                assert!(known(dtype).is_ok(), "{name}");
            }
        }
    }
}
