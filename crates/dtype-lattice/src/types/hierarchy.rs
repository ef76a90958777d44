//! NumPy's hierarchy of scalar types, and the Array API's dtype kinds.
//!
//! [`issubdtype`] follows NumPy's abstract scalar classes
//! (`generic > number > integer > signedinteger`, ...), with JAX's
//! extensions placed where JAX places them: `bfloat16` and the small floats
//! under `floating`, the sub-byte integers under their integer branch, and
//! `bool` under `generic` alone. [`isdtype`] is the Array API's
//! kind test, as `jax.numpy.isdtype` implements it.
//!
//! ```
//! use dtype_lattice::hierarchy::{isdtype, issubdtype, AbstractType, ArrayApiKind};
//! use dtype_lattice::DType;
//!
//! assert!(issubdtype(DType::BFloat16, AbstractType::Floating));
//! assert!(issubdtype(DType::Int4, AbstractType::SignedInteger));
//! assert!(!issubdtype(DType::Bool, AbstractType::Number));
//! assert!(issubdtype(AbstractType::Floating, AbstractType::Inexact));
//! assert!(isdtype(DType::UInt2, &[ArrayApiKind::Integral]));
//! assert!(!isdtype(DType::Complex64, &[ArrayApiKind::RealFloating]));
//! ```

use core::fmt;

use crate::prelude::*;
use crate::types::{DType, Kind};

/// One of NumPy's abstract scalar classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbstractType {
    /// `np.generic`: every dtype.
    Generic,
    /// `np.number`: every dtype but `bool`.
    Number,
    /// `np.integer`.
    Integer,
    /// `np.signedinteger`.
    SignedInteger,
    /// `np.unsignedinteger`.
    UnsignedInteger,
    /// `np.inexact`: real and complex floats.
    Inexact,
    /// `np.floating`.
    Floating,
    /// `np.complexfloating`.
    ComplexFloating,
}

impl AbstractType {
    /// Every category, root first.
    pub const ALL: [AbstractType; 8] = [
        AbstractType::Generic,
        AbstractType::Number,
        AbstractType::Integer,
        AbstractType::SignedInteger,
        AbstractType::UnsignedInteger,
        AbstractType::Inexact,
        AbstractType::Floating,
        AbstractType::ComplexFloating,
    ];

    /// NumPy's class name without `np.`: `generic`, `signedinteger`, ...
    pub const fn name(self) -> &'static str {
        match self {
            AbstractType::Generic => "generic",
            AbstractType::Number => "number",
            AbstractType::Integer => "integer",
            AbstractType::SignedInteger => "signedinteger",
            AbstractType::UnsignedInteger => "unsignedinteger",
            AbstractType::Inexact => "inexact",
            AbstractType::Floating => "floating",
            AbstractType::ComplexFloating => "complexfloating",
        }
    }

    /// The category with this name.
    pub fn from_name(name: &str) -> Option<AbstractType> {
        AbstractType::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The category directly above this one; `None` for `generic`.
    pub const fn parent(self) -> Option<AbstractType> {
        Some(match self {
            AbstractType::Generic => return None,
            AbstractType::Number => AbstractType::Generic,
            AbstractType::Integer | AbstractType::Inexact => AbstractType::Number,
            AbstractType::SignedInteger | AbstractType::UnsignedInteger => AbstractType::Integer,
            AbstractType::Floating | AbstractType::ComplexFloating => AbstractType::Inexact,
        })
    }

    /// The innermost category a dtype belongs to.
    pub const fn of(dtype: DType) -> AbstractType {
        match dtype.kind() {
            Kind::Bool => AbstractType::Generic,
            Kind::Signed => AbstractType::SignedInteger,
            Kind::Unsigned => AbstractType::UnsignedInteger,
            Kind::Float => AbstractType::Floating,
            Kind::Complex => AbstractType::ComplexFloating,
        }
    }

    /// `self` is `other` or lies below it.
    fn within(self, other: AbstractType) -> bool {
        let mut current = Some(self);
        while let Some(category) = current {
            if category == other {
                return true;
            }
            current = category.parent();
        }
        false
    }
}

impl fmt::Display for AbstractType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A node of the scalar hierarchy: a concrete dtype or an abstract category.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// A dtype.
    DType(DType),
    /// An abstract class.
    Abstract(AbstractType),
}

impl From<DType> for Scalar {
    fn from(dtype: DType) -> Self {
        Scalar::DType(dtype)
    }
}

impl From<AbstractType> for Scalar {
    fn from(category: AbstractType) -> Self {
        Scalar::Abstract(category)
    }
}

/// `jnp.issubdtype(a, b)`: whether `a` is `b` or lies below it in the
/// scalar hierarchy. A dtype is below only the categories that contain it;
/// nothing is below a dtype but itself.
pub fn issubdtype(a: impl Into<Scalar>, b: impl Into<Scalar>) -> bool {
    match (a.into(), b.into()) {
        (a, Scalar::DType(b)) => a == Scalar::DType(b),
        (Scalar::DType(a), Scalar::Abstract(b)) => AbstractType::of(a).within(b),
        (Scalar::Abstract(a), Scalar::Abstract(b)) => a.within(b),
    }
}

/// One kind that [`isdtype`] accepts: a named kind or a dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayApiKind {
    /// `'bool'`.
    Bool,
    /// `'signed integer'`.
    SignedInteger,
    /// `'unsigned integer'`.
    UnsignedInteger,
    /// `'integral'`: signed or unsigned.
    Integral,
    /// `'real floating'`.
    RealFloating,
    /// `'complex floating'`.
    ComplexFloating,
    /// `'numeric'`: everything but `bool`.
    Numeric,
    /// A dtype: matches only itself.
    DType(DType),
}

impl ArrayApiKind {
    /// The named kinds, as the Array API spells them.
    pub const NAMED: [(&'static str, ArrayApiKind); 7] = [
        ("bool", ArrayApiKind::Bool),
        ("signed integer", ArrayApiKind::SignedInteger),
        ("unsigned integer", ArrayApiKind::UnsignedInteger),
        ("integral", ArrayApiKind::Integral),
        ("real floating", ArrayApiKind::RealFloating),
        ("complex floating", ArrayApiKind::ComplexFloating),
        ("numeric", ArrayApiKind::Numeric),
    ];

    /// Parses a kind as `jnp.isdtype` does: one of the [named
    /// kinds](Self::NAMED), else anything NumPy reads as a dtype (so
    /// `"float"` is `float64`).
    ///
    /// ```
    /// use dtype_lattice::hierarchy::ArrayApiKind;
    /// use dtype_lattice::DType;
    /// assert_eq!(ArrayApiKind::from_name("integral"), Ok(ArrayApiKind::Integral));
    /// assert_eq!(ArrayApiKind::from_name("f4"), Ok(ArrayApiKind::DType(DType::Float32)));
    /// let err = ArrayApiKind::from_name("integer").unwrap_err();
    /// assert!(err.to_string().starts_with("Unrecognized kind='integer' expected one of ['bool', "));
    /// ```
    pub fn from_name(name: &str) -> Result<ArrayApiKind, UnknownKind> {
        if let Some(&(_, kind)) = ArrayApiKind::NAMED.iter().find(|(n, _)| *n == name) {
            return Ok(kind);
        }
        DType::from_name(name)
            .map(ArrayApiKind::DType)
            .map_err(|_| UnknownKind {
                kind: name.to_owned(),
            })
    }

    /// Whether `dtype` is of this kind.
    pub fn matches(self, dtype: DType) -> bool {
        let kind = dtype.kind();
        match self {
            ArrayApiKind::Bool => kind == Kind::Bool,
            ArrayApiKind::SignedInteger => kind == Kind::Signed,
            ArrayApiKind::UnsignedInteger => kind == Kind::Unsigned,
            ArrayApiKind::Integral => dtype.is_integer(),
            ArrayApiKind::RealFloating => kind == Kind::Float,
            ArrayApiKind::ComplexFloating => kind == Kind::Complex,
            ArrayApiKind::Numeric => kind != Kind::Bool,
            ArrayApiKind::DType(other) => dtype == other,
        }
    }
}

/// `jnp.isdtype(dtype, kinds)`: whether `dtype` is of any of the kinds.
pub fn isdtype(dtype: DType, kinds: &[ArrayApiKind]) -> bool {
    kinds.iter().any(|kind| kind.matches(dtype))
}

/// A kind [`ArrayApiKind::from_name`] does not know; displays JAX's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind {
    kind: String,
}

impl UnknownKind {
    /// The kind as given.
    pub fn kind(&self) -> &str {
        &self.kind
    }
}

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Unrecognized kind=")?;
        write_python_repr(f, &self.kind)?;
        write!(f, " expected one of [")?;
        for (i, (name, _)) in ArrayApiKind::NAMED.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "'{name}'")?;
        }
        write!(f, "], or a compatible input for jnp.dtype()")
    }
}

impl core::error::Error for UnknownKind {}

/// Writes a string as Python's `repr()` does: single quotes unless the
/// text holds a single quote and no double quote, with backslash escapes
/// for the quote, backslash and control characters.
fn write_python_repr(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    write!(f, "{quote}")?;
    for c in text.chars() {
        match c {
            '\\' => write!(f, "\\\\")?,
            '\n' => write!(f, "\\n")?,
            '\r' => write!(f, "\\r")?,
            '\t' => write!(f, "\\t")?,
            c if c == quote => write!(f, "\\{c}")?,
            c if (c as u32) < 0x20 || c as u32 == 0x7f => write!(f, "\\x{:02x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    write!(f, "{quote}")
}
