//! Promotion errors, as typed values whose text is the reference library's.
//!
//! Every error knows the Python exception class the reference raises
//! ([`PromotionError::python_type`]) and displays exactly its message, so
//! programs can match on the variant and people see the familiar text.
//!
//! ```
//! use dtype_lattice::Policy;
//! use dtype_lattice::{frameworks::jax::Jax, DType, PromotionError};
//!
//! let err = Jax::default().promote_types(DType::Int4, DType::Int8).unwrap_err();
//! assert_eq!(err.python_type(), "TypePromotionError");
//! assert!(matches!(err, PromotionError::NoPromotionPath { .. }));
//! assert!(err.to_string().starts_with("Input dtypes ('int4', 'int8') have no available implicit dtype promotion path."));
//! ```

use core::fmt;
use core::ops::Deref;

use crate::prelude::*;
use crate::types::DType;
use crate::types::TypeSpec;

/// Why promotion failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PromotionError {
    /// The inputs have no common upper bound in the lattice
    /// (`TypePromotionError`).
    NoPromotionPath {
        /// The distinct inputs, in the order the message names them.
        inputs: TypeList,
        /// Which explanation the message gives.
        reason: NoPathReason,
    },
    /// `result_type` was called with nothing (`ValueError`).
    NoOperands,
    /// `lattice_result_type` was called with nothing (`ValueError`; JAX's
    /// message is the one Python gives for unpacking an empty result).
    NothingToJoin,
    /// `lattice_result_type` was given `None`, which only `result_type`
    /// reads as the default float type (`ValueError`).
    NoneOperand,
    /// An error of a framework's own checks (NumPy, PyTorch, TensorFlow,
    /// the Array API, `jax.lax`): its kind, which names the exception class
    /// the framework raises, and the framework's exact message. Match on
    /// the kind, never on the message.
    Framework {
        /// What kind of error the framework raises.
        kind: ErrorKind,
        /// The framework's message.
        message: String,
    },
    /// JAX with x64 off and `jax_explicit_x64_dtypes=error` refuses a
    /// 64-bit dtype given as a specifier, or reached by joining 64-bit
    /// arrays (`ValueError`). Under `warn` the same request truncates it to
    /// 32 bits with a warning.
    ExplicitX64Refused {
        /// The 64-bit dtype requested.
        dtype: DType,
    },
    /// The framework's module has no such dtype (`AttributeError`, as
    /// `jnp.complex32` raises): [`Framework`](Self::Framework)'s error,
    /// held without a message, so that answering it allocates nothing.
    NoSuchDType {
        /// The module, as Python names it: `jax.numpy`.
        module: &'static str,
        /// The dtype it lacks.
        dtype: DType,
    },
    /// A Python `int` does not fit the default integer dtype when it is
    /// made an array (`OverflowError`).
    IntOverflow {
        /// The Python value.
        value: i128,
        /// The default integer dtype it had to fit.
        dtype: DType,
    },
}

/// The distinct types a [`PromotionError::NoPromotionPath`] names, in the
/// order they were first added: a list with room for every type there is
/// (32 dtypes and 4 Python types), kept inline, so that building the error
/// allocates nothing. It reads as a slice.
///
/// ```
/// use dtype_lattice::{DType, PyScalar, TypeList, TypeSpec};
/// let list: TypeList = [DType::Int8, DType::UInt8, DType::Int8].map(TypeSpec::from).into_iter().collect();
/// assert_eq!(list[..], [TypeSpec::DType(DType::Int8), TypeSpec::DType(DType::UInt8)]);
/// assert_eq!(list.len(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeList {
    len: u8,
    // Past `len`, always the filler `new` puts there, so the derived
    // comparisons and hash see only the list.
    types: [TypeSpec; TypeList::CAPACITY],
}

impl TypeList {
    /// How many distinct types there are, and so the most a list holds.
    pub const CAPACITY: usize = TypeSpec::COUNT;

    /// An empty list.
    pub const fn new() -> TypeList {
        TypeList {
            len: 0,
            types: [TypeSpec::DType(DType::Bool); TypeList::CAPACITY],
        }
    }

    /// The list of `a` and `b`, or of `a` alone if they are the same.
    //
    // Fixed offsets only, unlike `insert`, so that the compiler can keep a
    // list built inline out of memory until it is used.
    pub(crate) fn pair(a: TypeSpec, b: TypeSpec) -> TypeList {
        let mut list = TypeList::new();
        list.types[0] = a;
        if a != b {
            list.types[1] = b;
            list.len = 2;
        } else {
            list.len = 1;
        }
        list
    }

    /// Adds `spec` at the end unless the list has it already. (A list of
    /// distinct types never outgrows the number of types, so there is
    /// always room.)
    pub fn insert(&mut self, spec: TypeSpec) {
        if !self.contains(&spec) {
            if let Some(slot) = self.types.get_mut(usize::from(self.len)) {
                *slot = spec;
                self.len += 1;
            }
        }
    }
}

impl Default for TypeList {
    fn default() -> TypeList {
        TypeList::new()
    }
}

impl Deref for TypeList {
    type Target = [TypeSpec];

    fn deref(&self) -> &[TypeSpec] {
        &self.types[..usize::from(self.len)]
    }
}

impl FromIterator<TypeSpec> for TypeList {
    /// The distinct types of `specs`, in the order they first appear.
    fn from_iter<I: IntoIterator<Item = TypeSpec>>(specs: I) -> TypeList {
        let mut list = TypeList::new();
        for spec in specs {
            list.insert(spec);
        }
        list
    }
}

impl<'a> IntoIterator for &'a TypeList {
    type Item = &'a TypeSpec;
    type IntoIter = core::slice::Iter<'a, TypeSpec>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for TypeList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// What kind of error a framework raises: one value per Python exception
/// class the modelled frameworks raise from promotion.
///
/// ```
/// use dtype_lattice::Policy;
/// use dtype_lattice::frameworks::numpy::Numpy;
/// use dtype_lattice::{DType, ErrorKind};
///
/// let err = Numpy.promote_types(DType::BFloat16.into(), DType::Float16.into()).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::DTypePromotion);
/// assert_eq!(err.kind().python_type(), "DTypePromotionError");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// JAX's `TypePromotionError`: no implicit promotion path.
    TypePromotion,
    /// NumPy's `DTypePromotionError`.
    DTypePromotion,
    /// `ValueError`.
    Value,
    /// `TypeError`.
    Type,
    /// `OverflowError`: a Python int that does not fit.
    Overflow,
    /// `NotImplementedError`.
    NotImplemented,
    /// `AttributeError`: a framework module without that dtype.
    Attribute,
    /// `RuntimeError` (PyTorch).
    Runtime,
    /// TensorFlow's `InvalidArgumentError`.
    InvalidArgument,
    /// `SystemError` (TensorFlow, converting a negative int to uint64).
    System,
    /// NumPy's `UFuncTypeError`, a `TypeError`: a ufunc with no loop for
    /// the input types.
    UFuncType,
    /// TensorFlow's `NotFoundError`: an op with no kernel for a dtype on
    /// the device.
    NotFound,
    /// TensorFlow's `UnimplementedError`: a kernel without the case (the
    /// CPU `Cast` kernel lacks many pairs of the narrow dtypes).
    Unimplemented,
    /// `ZeroDivisionError`: Python's own arithmetic on two Python scalars
    /// dividing by zero.
    ZeroDivision,
    /// `OSError` (PaddlePaddle's `PD_THROW`, a dispatch over dtypes that
    /// has no case for the dtype).
    OS,
    /// No exception at all: the framework's call does not return (the
    /// frameworks' generators kill it after a time and record a hang). Its
    /// Python class is dtype-lattice's own `DoesNotReturnError`, a
    /// `RuntimeError`; docs/policies.md lists the calls.
    DoesNotReturn,
    /// No exception either: a special method called directly returned
    /// `NotImplemented` (`int.__radd__` of an array), where Python itself
    /// would go on to the other operand. Recorded as `NotImplemented`; its
    /// Python class is dtype-lattice's own `ReturnedNotImplemented`, a
    /// `TypeError`.
    ReturnedNotImplemented,
}

impl ErrorKind {
    /// The Python exception class's name, as the framework prints it.
    pub const fn python_type(self) -> &'static str {
        match self {
            ErrorKind::TypePromotion => "TypePromotionError",
            ErrorKind::DTypePromotion => "DTypePromotionError",
            ErrorKind::Value => "ValueError",
            ErrorKind::Type => "TypeError",
            ErrorKind::Overflow => "OverflowError",
            ErrorKind::NotImplemented => "NotImplementedError",
            ErrorKind::Attribute => "AttributeError",
            ErrorKind::Runtime => "RuntimeError",
            ErrorKind::InvalidArgument => "InvalidArgumentError",
            ErrorKind::System => "SystemError",
            ErrorKind::UFuncType => "UFuncTypeError",
            ErrorKind::NotFound => "NotFoundError",
            ErrorKind::Unimplemented => "UnimplementedError",
            ErrorKind::ZeroDivision => "ZeroDivisionError",
            ErrorKind::OS => "OSError",
            ErrorKind::DoesNotReturn => "DoesNotReturnError",
            ErrorKind::ReturnedNotImplemented => "NotImplemented",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.python_type())
    }
}

/// The explanation a [`PromotionError::NoPromotionPath`] gives: the first
/// that applies, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoPathReason {
    /// Strict promotion is on.
    Strict,
    /// An input is an 8-bit float.
    Float8,
    /// An input is a 6-bit float.
    Float6,
    /// An input is a 4-bit float.
    Float4,
    /// An input is a 1-, 2- or 4-bit integer.
    SubByteInteger,
    /// Any other missing path.
    General,
}

impl NoPathReason {
    /// The family's short name, as JSON reports give it: `strict`,
    /// `float8`, `float6`, `float4`, `sub_byte_integer` or `general`.
    pub const fn family(self) -> &'static str {
        match self {
            NoPathReason::Strict => "strict",
            NoPathReason::Float8 => "float8",
            NoPathReason::Float6 => "float6",
            NoPathReason::Float4 => "float4",
            NoPathReason::SubByteInteger => "sub_byte_integer",
            NoPathReason::General => "general",
        }
    }

    /// What the family covers, in a phrase for people.
    pub const fn summary(self) -> &'static str {
        match self {
            NoPathReason::Strict => "strict promotion allows only weak types to promote",
            NoPathReason::Float8 => "8-bit floats do not promote implicitly",
            NoPathReason::Float6 => "6-bit floats do not promote implicitly",
            NoPathReason::Float4 => "4-bit floats do not promote implicitly",
            NoPathReason::SubByteInteger => "1-, 2- and 4-bit integers do not promote implicitly",
            NoPathReason::General => "no implicit promotion path",
        }
    }

    /// The explanation that applies to these inputs under the given mode.
    pub fn for_inputs(strict: bool, inputs: &[TypeSpec]) -> NoPathReason {
        let dtypes = || {
            inputs.iter().filter_map(|input| match input {
                TypeSpec::DType(dtype) => Some(*dtype),
                TypeSpec::Python(_) => None,
            })
        };
        let has_float = |bits| dtypes().any(|d| d.is_small_float() && d.bits() == bits);
        if strict {
            NoPathReason::Strict
        } else if has_float(8) {
            NoPathReason::Float8
        } else if has_float(6) {
            NoPathReason::Float6
        } else if has_float(4) {
            NoPathReason::Float4
        } else if dtypes().any(DType::is_sub_byte_integer) {
            NoPathReason::SubByteInteger
        } else {
            NoPathReason::General
        }
    }
}

impl PromotionError {
    /// A framework's own error: the exception class it raises and its
    /// exact message ([`PromotionError::Framework`]).
    ///
    /// ```
    /// use dtype_lattice::{ErrorKind, PromotionError};
    /// let err = PromotionError::framework(ErrorKind::Value, "Integers to negative integer powers are not allowed.");
    /// assert_eq!(err.python_type(), "ValueError");
    /// assert_eq!(err.to_string(), "Integers to negative integer powers are not allowed.");
    /// ```
    pub fn framework(kind: ErrorKind, message: impl Into<String>) -> PromotionError {
        PromotionError::Framework {
            kind,
            message: message.into(),
        }
    }

    /// The `AttributeError` a framework's module gives for a dtype it does
    /// not have (`getattr(torch, "float8_e3m4")`).
    pub(crate) fn no_attribute(module: &str, dtype: &str) -> PromotionError {
        PromotionError::Framework {
            kind: ErrorKind::Attribute,
            message: format!("module '{module}' has no attribute '{dtype}'"),
        }
    }

    /// What kind of error this is: the exception class the reference
    /// raises, as a value to match on.
    pub fn kind(&self) -> ErrorKind {
        match self {
            PromotionError::NoPromotionPath { .. } => ErrorKind::TypePromotion,
            PromotionError::NoOperands
            | PromotionError::NothingToJoin
            | PromotionError::NoneOperand
            | PromotionError::ExplicitX64Refused { .. } => ErrorKind::Value,
            PromotionError::IntOverflow { .. } => ErrorKind::Overflow,
            PromotionError::NoSuchDType { .. } => ErrorKind::Attribute,
            PromotionError::Framework { kind, .. } => *kind,
        }
    }

    /// The message family of a missing promotion path (JAX's
    /// `TypePromotionError`); `None` for any other error.
    pub fn no_path_reason(&self) -> Option<NoPathReason> {
        match self {
            PromotionError::NoPromotionPath { reason, .. } => Some(*reason),
            _ => None,
        }
    }

    /// The name of the Python exception class the reference raises:
    /// [`kind`](Self::kind)`().python_type()`.
    pub fn python_type(&self) -> &'static str {
        self.kind().python_type()
    }
}

/// Writes `inputs` as Python prints a tuple of their `str()`: dtypes by
/// name in single quotes, Python types as `"<class 'int'>"`.
fn write_python_tuple(f: &mut fmt::Formatter<'_>, inputs: &[TypeSpec]) -> fmt::Result {
    write!(f, "(")?;
    for (i, input) in inputs.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        match input {
            TypeSpec::DType(dtype) => write!(f, "'{dtype}'")?,
            TypeSpec::Python(scalar) => write!(f, "\"<class '{scalar}'>\"")?,
        }
    }
    if inputs.len() == 1 {
        write!(f, ",")?;
    }
    write!(f, ")")
}

impl fmt::Display for PromotionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromotionError::NoPromotionPath { inputs, reason } => {
                write!(f, "Input dtypes ")?;
                write_python_tuple(f, inputs)?;
                write!(f, " have no available implicit dtype promotion path")?;
                let narrow = |f: &mut fmt::Formatter<'_>, what: &str, cast_to: &str| {
                    write!(
                        f,
                        ". To avoid unintended promotion, {what} do not support implicit \
                         promotion. If you'd like your inputs to be promoted to another type, \
                         you can do so explicitly using e.g. x.astype('{cast_to}')"
                    )
                };
                match reason {
                    NoPathReason::Strict => write!(
                        f,
                        " when jax_numpy_dtype_promotion=strict. Try explicitly casting inputs \
                         to the desired output type, or set jax_numpy_dtype_promotion=standard."
                    ),
                    NoPathReason::Float8 => narrow(f, "8-bit floats", "float32"),
                    NoPathReason::Float6 => narrow(f, "6-bit floats", "float32"),
                    NoPathReason::Float4 => narrow(f, "4-bit floats", "float32"),
                    NoPathReason::SubByteInteger => {
                        narrow(f, "1-bit, 2-bit and 4-bit integers", "int32")
                    }
                    NoPathReason::General => write!(
                        f,
                        ". Try explicitly casting inputs to the desired output type."
                    ),
                }
            }
            PromotionError::NoOperands => write!(f, "at least one array or dtype is required"),
            PromotionError::NothingToJoin => {
                write!(f, "not enough values to unpack (expected 2, got 0)")
            }
            PromotionError::NoneOperand => write!(f, "Invalid argument to dtype: None."),
            PromotionError::Framework { message, .. } => write!(f, "{message}"),
            // JAX's text, down to the missing space after "options." and
            // the old flag name `allow_explicit_x64_dtypes`.
            PromotionError::ExplicitX64Refused { dtype } => write!(
                f,
                "Explicitly requested dtype {dtype} requested in dtype is not available. To \
                 enable more dtypes, set the jax_enable_x64 or allow_explicit_x64_dtypes \
                 configuration options.See https://github.com/jax-ml/jax#current-gotchas for \
                 more."
            ),
            PromotionError::NoSuchDType { module, dtype } => {
                write!(f, "module '{module}' has no attribute '{dtype}'")
            }
            PromotionError::IntOverflow { value, dtype } => {
                write!(f, "Python int {value} too large to convert to {dtype}")
            }
        }
    }
}

impl core::error::Error for PromotionError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_list_holds_every_type_once_in_first_seen_order() {
        let every = TypeSpec::ALL;
        assert_eq!(every.len(), TypeList::CAPACITY);
        // Every type twice, the second time in reverse: each kept once, in
        // the order first seen.
        let list: TypeList = every.iter().chain(every.iter().rev()).copied().collect();
        assert_eq!(list[..], every[..]);
        assert_eq!(format!("{:?}", TypeList::new()), "[]");
    }
}
