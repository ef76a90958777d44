//! PyTorch 2.15's type promotion: `torch.promote_types`,
//! `torch.result_type` and `torch.add`.
//!
//! `promote_types` over the twelve dtypes of PyTorch's promotion table
//! (bool, uint8, the signed integers, bfloat16, the IEEE floats, complex64
//! and complex128) is a lattice, built here with the
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
//! [`add`](Torch::add) is `torch.add` on the CPU: the promotion of
//! `result_type`, then each input cast to the result and the addition run,
//! where PyTorch has no code for some dtypes it promotes to:
//!
//! ```
//! use dtype_lattice::frameworks::torch::Torch;
//! use dtype_lattice::{DType, Operand, Policy, Typed};
//!
//! let x = Operand::dtype(DType::UInt16);
//! assert_eq!(Torch.result_type(&[x, x]), Ok(Typed::strong(DType::UInt16)));
//! let err = Torch.add(&[x, x]).unwrap().unwrap_err();
//! assert_eq!(err.python_type(), "NotImplementedError");
//! assert_eq!(err.to_string(), "\"add_stub\" not implemented for 'UInt16'");
//! ```

use std::sync::OnceLock;

use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
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
    ("float16", &["float32"]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("complex64", &["complex128"]),
    ("complex128", &[]),
];

/// The dtypes PyTorch has, with the names its C++ messages give them.
const DTYPES: [(DType, &str); 26] = [
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
        for operand in operands {
            if let Some(dtype) = tensor_dtype(operand)? {
                known(dtype)?;
            }
        }
        let [a, b] = operands else {
            return Err(invalid_arguments(operands, false));
        };
        if [a, b].iter().any(|o| o.is_none()) {
            return Err(invalid_arguments(operands, true));
        }
        let (a, b) = read(a, b)?;
        self.promote_tiers(a, b).map_err(|stop| match stop {
            NoDType::Error(err) => err,
            NoDType::HalfComplex(parts) => not_ours(half_complex(parts).0),
        })
    }

    /// `torch.add(a, b)` on the CPU: [`result_type`](Torch::result_type)'s
    /// promotion, after `torch.add`'s own argument checks; then each input is
    /// cast to the result and the kernel runs, and PyTorch has neither casts
    /// for the sub-byte integers nor an addition for the "barebones"
    /// unsigned types, float8 types and bfloat16's complex type.
    ///
    /// ```
    /// use dtype_lattice::frameworks::torch::Torch;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let add = |a, b| Torch.add(&[a, b]).unwrap();
    /// let x = Operand::dtype(DType::Int8);
    /// assert_eq!(add(x, Operand::py_float(2.5)), Ok(Typed::strong(DType::Float32)));
    /// let err = add(x, Operand::zero_dim(DType::Int4)).unwrap_err();
    /// assert_eq!(err.to_string(), "\"copy_\" not implemented for 'Int4'");
    /// let err = add(Operand::NONE, x).unwrap_err();
    /// assert_eq!(err.to_string(), "add(): argument 'input' (position 1) must be Tensor, not NoneType");
    /// ```
    fn add_dtype(&self, operands: &[Operand]) -> Result<DType, PromotionError> {
        for operand in operands {
            if let Some(dtype) = tensor_dtype(operand)? {
                known(dtype)?;
            }
        }
        let [a, b] = operands else {
            return Err(add_arguments(operands));
        };
        for (operand, parameter, position) in [(a, "input", 1), (b, "other", 2)] {
            if operand.is_none() {
                return Err(PromotionError::Framework {
                    kind: ErrorKind::Type,
                    message: format!(
                        "add(): argument '{parameter}' (position {position}) must be Tensor, \
                         not NoneType"
                    ),
                });
            }
        }
        let (a, b) = read(a, b)?;
        let result = match self.promote_tiers(a, b) {
            Ok(result) => result,
            Err(NoDType::Error(err)) => return Err(err),
            // The inputs (16-bit floats, complex numbers) all cast to these;
            // the kernel adds float16 parts only.
            Err(NoDType::HalfComplex(DType::Float16)) => return Err(not_ours("complex32")),
            Err(NoDType::HalfComplex(parts)) => {
                return Err(not_implemented("add_stub", half_complex(parts).1))
            }
        };
        for (slot, dtype) in [a, b] {
            let from = match slot {
                Slot::Wrapped => wrapped_storage(dtype),
                Slot::Dim | Slot::ZeroDim => dtype,
            };
            if from != result {
                // `copy_` checks the dtype it casts to before the one it
                // casts from (measured: int1 into uint1 names UInt1).
                for end in [result, from] {
                    if end.is_sub_byte_integer() {
                        return Err(not_implemented("copy_", scalar_type_name(end)));
                    }
                }
            }
        }
        // The kernel covers exactly the dtypes of the promotion table
        // (measured), as PyTorch dispatches it over its classic types.
        if lattice().node_of(Typed::strong(result)).is_none() {
            return Err(not_implemented("add_stub", scalar_type_name(result)));
        }
        Ok(result)
    }

    /// The promotion of two operands read into their tiers.
    fn promote_tiers(&self, a: Tiered, b: Tiered) -> Result<DType, NoDType> {
        let mut tiers = Tiers::default();
        for (slot, dtype) in [a, b] {
            let tier = match slot {
                Slot::Dim => &mut tiers.dim,
                Slot::ZeroDim => &mut tiers.zero_dim,
                Slot::Wrapped => &mut tiers.wrapped,
            };
            *tier = self.promote_skip_undefined(*tier, Some(dtype))?;
        }
        let lower = self.combine_categories(tiers.zero_dim, tiers.wrapped)?;
        let result = self.combine_categories(tiers.dim, lower)?;
        // An operand sits in some tier, and combining keeps a defined tier.
        Ok(result.expect("two operands leave a tier defined"))
    }

    /// `promoteTypes` in PyTorch's `c10/core/ScalarType.cpp`, in its order
    /// of checks.
    fn promote(&self, a: DType, b: DType) -> Result<DType, PromotionError> {
        if a == b {
            return Ok(a);
        }
        let refuse = |what: &str| PromotionError::Framework {
            kind: ErrorKind::Runtime,
            message: format!(
                "Promotion for {what} is not supported, attempted to promote {} and {}",
                scalar_type_name(a),
                scalar_type_name(b)
            ),
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
            lattice
                .node_of(Typed::strong(dtype))
                .ok_or_else(|| PromotionError::Framework {
                    kind: ErrorKind::Runtime,
                    message: format!(
                        "{side} != -1 INTERNAL ASSERT FAILED at \
                     \"/__w/pytorch/pytorch/c10/core/ScalarType.cpp\":{line}, please report a \
                     bug to PyTorch. "
                    ),
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

/// Why promotion gives no dtype of the 32.
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

/// `torch.promote_types` reads Python's types as dtypes.
fn python_dtype(scalar: PyScalar) -> DType {
    match scalar {
        PyScalar::Bool => DType::Bool,
        PyScalar::Int => DType::Int64,
        PyScalar::Float => DType::Float64,
        PyScalar::Complex => DType::Complex128,
    }
}

/// The dtype a wrapped Python scalar counts as: floats and complex numbers
/// take the default dtypes (float32, complex64).
fn wrapped_dtype(scalar: PyScalar) -> DType {
    match scalar {
        PyScalar::Float => DType::Float32,
        PyScalar::Complex => DType::Complex64,
        other => python_dtype(other),
    }
}

/// The type of the Scalar PyTorch reads a Python int into: int64, or
/// uint64 above int64's range; beyond both, Python's OverflowError.
fn scalar_int_type(value: i128) -> Result<DType, PromotionError> {
    let overflow = |message: &str| PromotionError::Framework {
        kind: ErrorKind::Overflow,
        message: message.to_owned(),
    };
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
        other => Err(NoDType::Error(PromotionError::Framework {
            kind: ErrorKind::Runtime,
            message: format!("Unknown Complex ScalarType for {}", scalar_type_name(other)),
        })),
    }
}

/// The Python and C++ names of the complex type whose parts are a 16-bit
/// float.
fn half_complex(parts: DType) -> (&'static str, &'static str) {
    if parts == DType::BFloat16 {
        ("bcomplex32", "BComplex32")
    } else {
        ("complex32", "ComplexHalf")
    }
}

/// PyTorch's error for a dtype `operation` has no code for on the CPU.
fn not_implemented(operation: &str, scalar_type: &str) -> PromotionError {
    PromotionError::Framework {
        kind: ErrorKind::NotImplemented,
        message: format!("\"{operation}\" not implemented for '{scalar_type}'"),
    }
}

/// PyTorch answers a complex dtype with 16-bit parts, which is not one of
/// the 32.
fn not_ours(torch_name: &str) -> PromotionError {
    PromotionError::Framework {
        kind: ErrorKind::Value,
        message: format!(
            "torch gives {torch_name} here, a dtype dtype-lattice does not model (it has no \
             complex type with 16-bit parts)"
        ),
    }
}

/// The Python class name PyTorch's argument parser reports for an operand.
fn python_class(operand: &Operand) -> &'static str {
    match operand.kind() {
        OperandKind::DType(_) | OperandKind::ZeroDim(_) | OperandKind::Array { .. } => "Tensor",
        OperandKind::PyType(scalar) => scalar.name(),
        OperandKind::PyInt(_) => "int",
        OperandKind::PyFloat(_) => "float",
        OperandKind::PyComplex { .. } => "complex",
        OperandKind::PyBool(_) => "bool",
        OperandKind::None => "NoneType",
    }
}

/// The `TypeError` of PyTorch's argument parser when no signature of
/// `torch.result_type` matches; with two operands it says, per signature,
/// which of them (`!marked!`) do not fit.
fn invalid_arguments(operands: &[Operand], explain: bool) -> PromotionError {
    const SIGNATURES: [(&str, [bool; 2]); 4] = [
        ("(Tensor tensor, Tensor other)", [true, true]),
        ("(Number scalar, Tensor tensor)", [false, true]),
        ("(Tensor tensor, Number other)", [true, false]),
        ("(Number scalar1, Number scalar2)", [false, false]),
    ];
    let classes: Vec<&str> = operands.iter().map(python_class).collect();
    let mut message = format!(
        "result_type() received an invalid combination of arguments - got ({}), but expected \
         one of:\n",
        classes.join(", ")
    );
    for (signature, tensors) in SIGNATURES {
        message.push_str(&format!(" * {signature}\n"));
        if explain {
            let marked: Vec<String> = classes
                .iter()
                .zip(tensors)
                .map(|(&class, tensor)| {
                    // As measured: the explanation marks every Python
                    // number, even where the parameter is a Number.
                    if tensor && class == "Tensor" {
                        class.to_owned()
                    } else {
                        format!("!{class}!")
                    }
                })
                .collect();
            message.push_str(&format!(
                "      didn't match because some of the arguments have invalid types: ({})\n",
                marked.join(", ")
            ));
        }
    }
    PromotionError::Framework {
        kind: ErrorKind::Type,
        message,
    }
}

/// `torch.add`'s `TypeError` for a call without exactly two arguments.
fn add_arguments(operands: &[Operand]) -> PromotionError {
    let message = if operands.len() > 2 {
        format!(
            "add() takes 2 positional arguments but {} were given",
            operands.len()
        )
    } else {
        let classes: Vec<&str> = operands.iter().map(python_class).collect();
        format!(
            "add() received an invalid combination of arguments - got ({}), but expected \
             (Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)",
            classes.join(", ")
        )
    };
    PromotionError::Framework {
        kind: ErrorKind::Type,
        message,
    }
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
            TypeSpec::Python(scalar) => Ok(python_dtype(scalar)),
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

    fn add(&self, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(self.add_dtype(operands).map(Typed::strong))
    }
}

/// The promotion table's lattice, each node its dtype. Built once.
fn lattice() -> &'static TypedLattice {
    static LATTICE_ONCE: OnceLock<TypedLattice> = OnceLock::new();
    LATTICE_ONCE.get_or_init(|| {
        TypedLattice::of_dtypes(LATTICE).expect("PyTorch's table is a lattice (tested)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lattice_is_the_table_over_its_twelve_dtypes() {
        let lattice = lattice();
        assert_eq!(lattice.len(), LATTICE.len());
        for (name, _) in LATTICE {
            let dtype = DType::from_name(name).unwrap();
            assert!(known(dtype).is_ok(), "{name}");
        }
    }
}
