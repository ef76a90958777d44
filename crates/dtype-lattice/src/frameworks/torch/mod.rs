//! PyTorch 2.15's type promotion: `torch.promote_types`,
//! `torch.result_type`, and the operations of [`Op`]
//! (`torch.add`, `torch.true_divide`, `torch.eq`, `torch.sqrt`, ...).
//!
//! `promote_types` over the thirteen dtypes of PyTorch's promotion table
//! (bool, uint8, the signed integers, bfloat16, the IEEE floats, complex32,
//! complex64 and complex128) is a lattice, built here with the
//! [lattice engine](crate::engine). PyTorch refuses what lies outside it,
//! each with its own message: float8 types promote with nothing, the
//! "barebones" unsigned types (uint1..uint4, uint16, uint32, uint64) only
//! with floating-point types, and the sub-byte signed integers trip an
//! internal assertion.
//!
//! ```
//! use dtype_lattice::frameworks::torch::Torch;
//! use dtype_lattice::{DType, Policy, Typed};
//!
//! assert_eq!(Torch.promote_types(DType::UInt8.into(), DType::Int8.into()), Ok(DType::Int16));
//! assert_eq!(Torch.promote_types(DType::Int64.into(), DType::Float16.into()), Ok(DType::Float16));
//! let err = Torch.promote_types(DType::UInt16.into(), DType::Int32.into()).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote \
//!      UInt16 and Int"
//! );
//! ```
//!
//! `result_type` sorts its two operands into three tiers: tensors with
//! dimensions, zero-dimensional tensors, and Python scalars ("wrapped
//! numbers"). Each tier is promoted on its own; a lower tier then counts only
//! if its category (bool < integer < floating < complex) is higher:
//!
//! ```
//! use dtype_lattice::frameworks::torch::Torch;
//! use dtype_lattice::{DType, Operand, Policy, Typed};
//!
//! let (x, zero_dim) = (Operand::dtype(DType::Int8), Operand::zero_dim(DType::Int64));
//! assert_eq!(Torch.result_type(&[x, zero_dim]), Ok(Typed::strong(DType::Int8)));
//! assert_eq!(Torch.result_type(&[x, Operand::py_float(2.5)]), Ok(Typed::strong(DType::Float32)));
//! let f16 = Operand::zero_dim(DType::Float16);
//! assert_eq!(Torch.result_type(&[x, f16]), Ok(Typed::strong(DType::Float16)));
//! ```
//!
//! [`operation`](Torch::operation) is the PyTorch function of an [`Op`]
//! (`torch.add`, `torch.sub`, `torch.eq`, ...) on the CPU: PyTorch's
//! argument parser (`args.rs`), then the function's own checks, the
//! promotion of `result_type`, each input cast to it and the kernel run,
//! which PyTorch has for some of the dtypes it promotes to only (the rules
//! per operation are in `ops.rs`):
//!
//! ```
//! use dtype_lattice::frameworks::torch::Torch;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let x = Operand::dtype(DType::UInt16);
//! assert_eq!(Torch.result_type(&[x, x]), Ok(Typed::strong(DType::UInt16)));
//! let err = Torch.operation(Op::Add, &[x, x]).unwrap().unwrap_err();
//! assert_eq!(err.python_type(), "NotImplementedError");
//! assert_eq!(err.to_string(), "\"add_stub\" not implemented for 'UInt16'");
//! assert_eq!(Torch.operation(Op::Multiply, &[x, x]), Some(Ok(Typed::strong(DType::UInt16))));
//! ```

use crate::prelude::*;

mod args;
mod array_ops;
mod combinations;
mod forms;
mod kernels;
mod ops;

use crate::once::Once;
use args::Type;

use crate::frameworks::python;
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::types::ErrorKind;
use crate::types::Op;
use crate::types::OpForm;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{ArrayCall, ArrayOp, Outcome};
use crate::types::{DType, Kind};
use crate::types::{Operand, OperandKind, PyScalar, TypeSpec};

/// PyTorch's promotion table, as "dtype -> dtypes it promotes to": every
/// integer promotes to every floating-point type, so int64 sits below both
/// 16-bit floats, whose join is float32.
const LATTICE: &[(&str, &[&str])] = &[
    ("bool", &["uint8", "int8"]),
    ("uint8", &["int16"]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &["bfloat16", "float16"]),
    ("bfloat16", &["float32"]),
    ("float16", &["float32", "complex32"]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("complex32", &["complex64"]),
    ("complex64", &["complex128"]),
    ("complex128", &[]),
];

/// The dtypes PyTorch has, with the names its C++ messages give them.
const DTYPES: [(DType, &str); 27] = [
    (DType::Bool, "Bool"),
    (DType::UInt1, "UInt1"),
    (DType::UInt2, "UInt2"),
    (DType::UInt4, "UInt4"),
    (DType::UInt8, "Byte"),
    (DType::UInt16, "UInt16"),
    (DType::UInt32, "UInt32"),
    (DType::UInt64, "UInt64"),
    (DType::Int1, "Int1"),
    (DType::Int2, "Int2"),
    (DType::Int4, "Int4"),
    (DType::Int8, "Char"),
    (DType::Int16, "Short"),
    (DType::Int32, "Int"),
    (DType::Int64, "Long"),
    (DType::Float8E8M0Fnu, "Float8_e8m0fnu"),
    (DType::Float8E4M3Fn, "Float8_e4m3fn"),
    (DType::Float8E4M3Fnuz, "Float8_e4m3fnuz"),
    (DType::Float8E5M2, "Float8_e5m2"),
    (DType::Float8E5M2Fnuz, "Float8_e5m2fnuz"),
    (DType::BFloat16, "BFloat16"),
    (DType::Float16, "Half"),
    (DType::Float32, "Float"),
    (DType::Float64, "Double"),
    (DType::Complex32, "ComplexHalf"),
    (DType::Complex64, "ComplexFloat"),
    (DType::Complex128, "ComplexDouble"),
];

/// PyTorch's C++ name of one of its dtypes.
fn scalar_type_name(dtype: DType) -> &'static str {
    DTYPES
        .iter()
        .find(|(d, _)| *d == dtype)
        .map_or("Undefined", |(_, name)| name)
}

/// PyTorch 2.15.0's promotion, on the CPU with its default dtype float32.
///
/// Operands of [`result_type`](Torch::result_type): a dtype or a strong
/// array is a tensor with dimensions, [`Operand::zero_dim`] a
/// zero-dimensional tensor, Python scalars and their types are wrapped
/// numbers. `torch.result_type` takes exactly two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Torch;

/// `torch.result_type`'s signatures.
const RESULT_TYPE: args::Parser = args::Parser {
    name: "result_type",
    signatures: &[
        args::signature(&[(Type::Tensor, "tensor"), (Type::Tensor, "other")], false),
        args::signature(&[(Type::Number, "scalar"), (Type::Tensor, "tensor")], false),
        args::signature(&[(Type::Tensor, "tensor"), (Type::Number, "other")], false),
        args::signature(
            &[(Type::Number, "scalar1"), (Type::Number, "scalar2")],
            false,
        ),
    ],
    numbers_as_tensors: false,
};

/// The three tiers `torch.result_type` keeps; `None` is PyTorch's
/// `Undefined` (no operand in that tier).
#[derive(Clone, Copy, Default)]
struct Tiers {
    dim: Option<DType>,
    zero_dim: Option<DType>,
    wrapped: Option<DType>,
}

impl Torch {
    /// `torch.result_type(a, b)`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::torch::Torch;
    /// use dtype_lattice::{DType, Operand, Policy, PyScalar, Typed};
    /// let x = Operand::dtype(DType::UInt8);
    /// assert_eq!(Torch.result_type(&[x, Operand::py_int(300)]), Ok(Typed::strong(DType::UInt8)));
    /// assert_eq!(Torch.result_type(&[x, PyScalar::Complex.into()]), Ok(Typed::strong(DType::Complex64)));
    /// assert_eq!(Torch.result_type(&[x]).unwrap_err().python_type(), "TypeError");
    /// ```
    fn result_dtype(&self, operands: &[Operand]) -> Result<DType, PromotionError> {
        // As Python runs the call: the arguments are built (a dtype PyTorch
        // lacks fails there), matched against the signatures, read (a Python
        // int must fit a 64-bit Scalar), and only then promoted.
        check_tensors(operands)?;
        args::parse(&RESULT_TYPE, operands)?;
        let [a, b] = operands else {
            unreachable!("every signature of torch.result_type takes two arguments")
        };
        let (a, b) = read(a, b)?;
        self.promote_tiers(a, b)?.dtype()
    }

    /// The promotion of two operands read into their tiers.
    fn promote_tiers(&self, a: Tiered, b: Tiered) -> Result<ScalarType, PromotionError> {
        self.promote_all_tiers(&[a, b])
    }

    /// `torch.result_type`'s state over any number of operands, as
    /// `torch.where` and `torch.clamp` keep it.
    fn promote_all_tiers(&self, operands: &[Tiered]) -> Result<ScalarType, PromotionError> {
        let mut tiers = Tiers::default();
        for &(slot, dtype) in operands {
            let tier = match slot {
                Slot::Dim => &mut tiers.dim,
                Slot::ZeroDim => &mut tiers.zero_dim,
                Slot::Wrapped => &mut tiers.wrapped,
            };
            *tier = self.promote_skip_undefined(*tier, Some(dtype))?;
        }
        let combined = self
            .combine_categories(tiers.zero_dim, tiers.wrapped)
            .and_then(|lower| self.combine_categories(tiers.dim, lower));
        match combined {
            Ok(Some(result)) => Ok(ScalarType::of(result)),
            Ok(None) => Err(PromotionError::framework(
                ErrorKind::Type,
                "result_type needs at least one operand",
            )),
            Err(NoDType::Error(err)) => Err(err),
            Err(NoDType::HalfComplex(parts)) => Ok(ScalarType::HalfComplex(parts)),
        }
    }

    /// `promoteTypes` in PyTorch's `c10/core/ScalarType.cpp`, in its order
    /// of checks.
    fn promote(&self, a: DType, b: DType) -> Result<DType, PromotionError> {
        if a == b {
            return Ok(a);
        }
        let refuse = |what: &str| {
            PromotionError::framework(
                ErrorKind::Runtime,
                format!(
                    "Promotion for {what} is not supported, attempted to promote {} and {}",
                    scalar_type_name(a),
                    scalar_type_name(b)
                ),
            )
        };
        if is_float8(a) || is_float8(b) {
            return Err(refuse("Float8 Types"));
        }
        if is_barebones_unsigned(a) || is_barebones_unsigned(b) {
            return match (is_floating(a), is_floating(b)) {
                (true, _) => Ok(a),
                (_, true) => Ok(b),
                _ => Err(refuse("uint16, uint32, uint64 types")),
            };
        }
        let lattice = lattice();
        let index = |dtype: DType, side: &str, line: u32| {
            lattice.node_of(Typed::strong(dtype)).ok_or_else(|| {
                PromotionError::framework(
                    ErrorKind::Runtime,
                    format!(
                        "{side} != -1 INTERNAL ASSERT FAILED at \
                     \"/__w/pytorch/pytorch/c10/core/ScalarType.cpp\":{line}, please report a \
                     bug to PyTorch. "
                    ),
                )
            })
        };
        let (a, b) = (index(a, "ix_a", 103)?, index(b, "ix_b", 105)?);
        let joined = lattice
            .join(a, b)
            .expect("every pair of PyTorch's table has a join (tested)");
        Ok(lattice
            .node_type(joined)
            .expect("every node is a dtype")
            .dtype)
    }

    fn promote_skip_undefined(
        &self,
        a: Option<DType>,
        b: Option<DType>,
    ) -> Result<Option<DType>, PromotionError> {
        match (a, b) {
            (Some(a), Some(b)) => self.promote(a, b).map(Some),
            (a, b) => Ok(a.or(b)),
        }
    }

    /// `combine_categories` in PyTorch's `TypeProperties.cpp`: the higher
    /// tier's dtype, unless the lower tier's category is higher.
    fn combine_categories(
        &self,
        higher: Option<DType>,
        lower: Option<DType>,
    ) -> Result<Option<DType>, NoDType> {
        let is = |dtype: Option<DType>, test: fn(DType) -> bool| dtype.is_some_and(test);
        let is_complex = |dtype: DType| dtype.kind() == Kind::Complex;
        if is(higher, is_complex) {
            return Ok(higher);
        }
        if is(lower, is_complex) {
            return match higher {
                Some(higher) if is_floating(higher) => to_complex(higher).map(Some),
                _ => Ok(lower),
            };
        }
        if is(higher, is_floating) {
            return Ok(higher);
        }
        if higher == Some(DType::Bool) || is(lower, is_floating) {
            return Ok(self.promote_skip_undefined(higher, lower)?);
        }
        Ok(higher.or(lower))
    }
}

/// Why promotion gives no dtype of ours.
enum NoDType {
    /// PyTorch raises this error.
    Error(PromotionError),
    /// PyTorch gives the complex type whose parts are this 16-bit float.
    HalfComplex(DType),
}

impl From<PromotionError> for NoDType {
    fn from(err: PromotionError) -> NoDType {
        NoDType::Error(err)
    }
}

/// A type PyTorch computes in: a dtype, or a complex type whose parts are
/// a 16-bit float (`complex32`, which is [`DType::Complex32`] too, and
/// `bcomplex32`, which no operand of ours has), which only PyTorch has and
/// its kernels list apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScalarType {
    /// A dtype other than `complex32`.
    DType(DType),
    /// The complex type whose parts are this 16-bit float.
    HalfComplex(DType),
}

impl ScalarType {
    /// The type a dtype is computed in: `complex32` is the half complex
    /// type of `float16` parts, so that there is one spelling of it.
    fn of(dtype: DType) -> ScalarType {
        match dtype {
            DType::Complex32 => ScalarType::HalfComplex(DType::Float16),
            other => ScalarType::DType(other),
        }
    }

    /// PyTorch's C++ name of it, as its kernels' messages give it.
    fn name(self) -> &'static str {
        match self {
            ScalarType::DType(dtype) => scalar_type_name(dtype),
            ScalarType::HalfComplex(DType::BFloat16) => "BComplex32",
            ScalarType::HalfComplex(_) => "ComplexHalf",
        }
    }

    /// The dtype of a result in it, or the error that it is none of ours.
    fn dtype(self) -> Result<DType, PromotionError> {
        match self {
            ScalarType::DType(dtype) => Ok(dtype),
            ScalarType::HalfComplex(DType::BFloat16) => Err(not_ours("bcomplex32")),
            ScalarType::HalfComplex(_) => Ok(DType::Complex32),
        }
    }
}

/// The tiers of `update_result_type_state`.
#[derive(Clone, Copy)]
enum Slot {
    Dim,
    ZeroDim,
    Wrapped,
}

/// An operand as PyTorch promotes it: its tier, and the dtype it counts as
/// there.
type Tiered = (Slot, DType);

/// The tier an operand joins and the dtype it counts as there: a wrapped
/// float or complex counts as PyTorch's default dtype of its kind, a
/// wrapped int as the Scalar type it is read into. `None` was refused
/// before.
fn tier(operand: &Operand) -> Result<Tiered, PromotionError> {
    Ok(match operand.kind() {
        OperandKind::DType(dtype) | OperandKind::Array { dtype, .. } => (Slot::Dim, dtype),
        OperandKind::ZeroDim(dtype) => (Slot::ZeroDim, dtype),
        OperandKind::PyType(scalar) => (Slot::Wrapped, wrapped_dtype(scalar)),
        OperandKind::PyInt(value) => (Slot::Wrapped, scalar_int_type(value)?),
        OperandKind::PyFloat(_) => (Slot::Wrapped, DType::Float32),
        OperandKind::PyComplex { .. } => (Slot::Wrapped, wrapped_dtype(PyScalar::Complex)),
        OperandKind::PyBool(_) | OperandKind::None => (Slot::Wrapped, DType::Bool),
    })
}

/// Both operands in their tiers. PyTorch reads the second argument first
/// (measured with two ints it cannot read).
fn read(a: &Operand, b: &Operand) -> Result<(Tiered, Tiered), PromotionError> {
    let b = tier(b)?;
    Ok((tier(a)?, b))
}

/// The dtype of the tensor PyTorch wraps a Python number in, which it casts
/// from: a float and a complex number are held in 64-bit parts, though they
/// promote as the default dtypes.
fn wrapped_storage(promoted_as: DType) -> DType {
    match promoted_as {
        DType::Float32 => DType::Float64,
        DType::Complex64 => DType::Complex128,
        other => other,
    }
}

/// A dtype PyTorch has, or the error `getattr(torch, name)` gives.
fn known(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.iter().any(|(d, _)| *d == dtype) {
        Ok(dtype)
    } else {
        Err(PromotionError::no_attribute("torch", dtype.name()))
    }
}

/// The dtype of a tensor operand, `None` for scalars; a weakly-typed array
/// (which only JAX has) is an error.
fn tensor_dtype(operand: &Operand) -> Result<Option<DType>, PromotionError> {
    match operand.kind() {
        OperandKind::Array { dtype, weak: true } => {
            Err(crate::frameworks::numpy::weak_array(dtype))
        }
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => Ok(Some(dtype)),
        _ => Ok(None),
    }
}

/// The tensors of a call are built before it is made: each must be of a
/// dtype PyTorch has.
fn check_tensors(operands: &[Operand]) -> Result<(), PromotionError> {
    for operand in operands {
        if let Some(dtype) = tensor_dtype(operand)? {
            known(dtype)?;
        }
    }
    Ok(())
}

/// The dtype a wrapped Python scalar counts as: floats and complex numbers
/// take the default dtypes (float32, complex64).
fn wrapped_dtype(scalar: PyScalar) -> DType {
    match scalar {
        PyScalar::Float => DType::Float32,
        PyScalar::Complex => DType::Complex64,
        other => python::dtype_64(other),
    }
}

/// The type of the Scalar PyTorch reads a Python int into: int64, or
/// uint64 above int64's range; beyond both, Python's OverflowError.
fn scalar_int_type(value: i128) -> Result<DType, PromotionError> {
    let overflow =
        |message: &str| PromotionError::framework(ErrorKind::Overflow, message.to_owned());
    if i64::try_from(value).is_ok() {
        Ok(DType::Int64)
    } else if u64::try_from(value).is_ok() {
        Ok(DType::UInt64)
    } else if value < 0 {
        Err(overflow("can't convert negative int to unsigned"))
    } else {
        Err(overflow("int too big to convert"))
    }
}

fn is_float8(dtype: DType) -> bool {
    dtype.is_small_float() && dtype.bits() == 8
}

/// uint1..uint7, uint16, uint32, uint64: the unsigned types PyTorch has
/// "barebones" support for.
fn is_barebones_unsigned(dtype: DType) -> bool {
    dtype.kind() == Kind::Unsigned && dtype != DType::UInt8
}

/// `isFloatingType`: the real floats, float8 types included.
fn is_floating(dtype: DType) -> bool {
    dtype.kind() == Kind::Float
}

/// `toComplexType`: the complex type whose parts are `dtype`.
fn to_complex(dtype: DType) -> Result<DType, NoDType> {
    match dtype {
        DType::Float32 => Ok(DType::Complex64),
        DType::Float64 => Ok(DType::Complex128),
        DType::Float16 | DType::BFloat16 => Err(NoDType::HalfComplex(dtype)),
        other => Err(NoDType::Error(PromotionError::framework(
            ErrorKind::Runtime,
            format!("Unknown Complex ScalarType for {}", scalar_type_name(other)),
        ))),
    }
}

/// PyTorch's error for a dtype `operation` has no code for on the CPU.
fn not_implemented(operation: &str, scalar_type: &str) -> PromotionError {
    PromotionError::framework(
        ErrorKind::NotImplemented,
        format!("\"{operation}\" not implemented for '{scalar_type}'"),
    )
}

/// PyTorch answers `bcomplex32` (complex with bfloat16 parts), which is
/// none of ours: PyTorch has no `torch.bcomplex32` to make a tensor of.
fn not_ours(torch_name: &str) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        format!(
            "torch gives {torch_name} here, a dtype dtype-lattice does not model (PyTorch has \
             no tensors of it)"
        ),
    )
}

impl Policy for Torch {
    fn name(&self) -> String {
        "torch".to_owned()
    }

    /// `torch.promote_types(a.into(), b.into())`. Python's types stand for the dtypes
    /// PyTorch makes of them: `int64`, `float64`, `complex128`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::torch::Torch;
    /// use dtype_lattice::{DType, Policy, PyScalar, Typed};
    /// assert_eq!(Torch.promote_types(DType::Int8.into(), PyScalar::Float.into()), Ok(DType::Float64));
    /// assert!(Torch.promote_types(DType::Float8E5M2.into(), DType::Float32.into()).is_err());
    /// ```
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        let dtype = |spec| match spec {
            TypeSpec::DType(dtype) => known(dtype),
            TypeSpec::Python(scalar) => Ok(python::dtype_64(scalar)),
        };
        let a = dtype(a)?;
        let b = dtype(b)?;
        self.promote(a, b)
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_dtype(operands).map(Typed::strong)
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        Some(lattice())
    }

    fn is_native(&self, dtype: DType) -> bool {
        known(dtype).is_ok()
    }

    /// The function of PyTorch 2.15 that is NumPy's `op` (`torch.sub`,
    /// `torch.true_divide`, `torch.eq`, `torch.neg`, ...; the table is in
    /// `ops.rs`), on the CPU: its argument parser, then the promotion of
    /// [`result_type`](Torch::result_type), the operation's own rule, the
    /// casts to the promoted type and the kernel for it, which PyTorch has
    /// for some dtypes only. A dtype specifier is a tensor, a Python type a
    /// number of it.
    ///
    /// ```
    /// use dtype_lattice::frameworks::torch::Torch;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let x = Operand::dtype(DType::Int8);
    /// let op = |op, operands: &[Operand]| Torch.operation(op, operands).unwrap();
    /// assert_eq!(op(Op::TrueDivide, &[x, x]), Ok(Typed::strong(DType::Float32)));
    /// assert_eq!(op(Op::Less, &[x, Operand::py_float(2.5)]), Ok(Typed::strong(DType::Bool)));
    /// assert_eq!(op(Op::Abs, &[Operand::dtype(DType::Complex64)]), Ok(Typed::strong(DType::Float32)));
    /// let err = op(Op::BitwiseAnd, &[x, Operand::py_float(2.5)]).unwrap_err();
    /// assert_eq!(err.to_string(), "\"bitwise_and_cpu\" not implemented for 'Float'");
    /// let err = op(Op::Power, &[x, Operand::py_int(-1)]).unwrap_err();
    /// assert_eq!(err.to_string(), "Integers to negative integer powers are not allowed.");
    /// let err = op(Op::Maximum, &[x, Operand::py_int(2)]).unwrap_err();
    /// assert_eq!(err.to_string(), "maximum(): argument 'other' (position 2) must be Tensor, not int");
    /// ```
    ///
    /// Addition:
    /// ```
    /// use dtype_lattice::frameworks::torch::Torch;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let add = |a, b| Torch.operation(Op::Add, &[a, b]).unwrap();
    /// let x = Operand::dtype(DType::Int8);
    /// assert_eq!(add(x, Operand::py_float(2.5)), Ok(Typed::strong(DType::Float32)));
    /// let err = add(x, Operand::zero_dim(DType::Int4)).unwrap_err();
    /// assert_eq!(err.to_string(), "\"copy_\" not implemented for 'Int4'");
    /// let err = add(Operand::NONE, x).unwrap_err();
    /// assert_eq!(err.to_string(), "add(): argument 'input' (position 1) must be Tensor, not NoneType");
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(ops::operation(self, op, operands))
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(ops::describe(op))
    }

    /// `a OP b`, `b.__rOP__(a)` and `a OP= b` on PyTorch's tensors: the
    /// operator falls back to the tensor's reflected method where a
    /// Python number is on the left (`1 < x` is `x.__gt__(1)`, which
    /// `torch.lt(1, x)` refuses), `1 / x` is `x.reciprocal() * 1`, and an
    /// in-place operator keeps `a`'s dtype, refusing a common dtype it
    /// cannot be cast to.
    ///
    /// ```
    /// use dtype_lattice::frameworks::torch::Torch;
    /// use dtype_lattice::{DType, Op, OpForm, Operand, Policy, Typed};
    /// let x = Operand::dtype(DType::Int64);
    /// let one = Operand::py_int(1);
    /// let less = Torch.operation_as(Op::Less, OpForm::Operator, &[one, x]);
    /// assert_eq!(less, Some(Ok(Typed::strong(DType::Bool))));
    /// assert!(Torch.operation(Op::Less, &[one, x]).unwrap().is_err());
    /// let iadd = Torch.operation_as(Op::Add, OpForm::InPlace, &[x, Operand::py_float(0.5)]);
    /// assert_eq!(
    ///     iadd.unwrap().unwrap_err().to_string(),
    ///     "result type Float can't be cast to the desired output type Long"
    /// );
    /// ```
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        forms::operation_as(self, op, form, operands)
    }

    /// `x[...] = v`: a tensor value is copied into `x`'s dtype, a Python
    /// number must fit it.
    ///
    /// ```
    /// use dtype_lattice::frameworks::torch::Torch;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let x = Operand::dtype(DType::Int8);
    /// assert_eq!(Torch.assign(x, Operand::py_float(2.5)), Some(Ok(Typed::strong(DType::Int8))));
    /// let err = Torch.assign(x, Operand::py_int(300)).unwrap().unwrap_err();
    /// assert_eq!(err.to_string(), "value cannot be converted to type int8_t without overflow");
    /// ```
    fn assign(&self, target: Operand, value: Operand) -> Option<Result<Typed, PromotionError>> {
        Some(forms::assign(target, value))
    }

    /// PyTorch's reductions, contractions and combinations (`array_ops.rs`).
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        Some(array_ops::array_op(self, *call, operands))
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        Some(array_ops::describe(op))
    }

    /// PyTorch's opmath type (`array_ops.rs`).
    fn computes_in(&self, op: Op, operands: &[Operand]) -> Option<DType> {
        array_ops::computes_in(self, op, operands)
    }
}

/// The promotion table's lattice, each node its dtype. Built once.
fn lattice() -> &'static TypedLattice {
    static LATTICE_ONCE: Once<TypedLattice> = Once::new();
    LATTICE_ONCE.get_or_init(|| {
        TypedLattice::of_dtypes(LATTICE).expect("PyTorch's table is a lattice (tested)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lattice_is_the_table_over_its_thirteen_dtypes() {
        let lattice = lattice();
        assert_eq!(lattice.len(), LATTICE.len());
        for (name, _) in LATTICE {
            let dtype = DType::from_name(name).unwrap();
            assert!(known(dtype).is_ok(), "{name}");
        }
    }
}
