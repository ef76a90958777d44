//! What promotion functions take: types, and the operands of an operation.
//!
//! [`TypeSpec`] is what `promote_types` compares: a dtype, or one of Python's
//! scalar types. [`Operand`] is one input of `result_type`: a dtype
//! specifier, an array (a dtype with JAX's *weak* flag), a Python scalar
//! type, or a Python scalar value.
//!
//! Both parse from the notation the command-line tool uses:
//!
//! ```
//! use dtype_lattice::{DType, Operand, PyScalar, TypeSpec};
//!
//! assert_eq!("int8".parse(), Ok(Operand::DType(DType::Int8)));
//! assert_eq!("weak:int16".parse(), Ok(Operand::Array { dtype: DType::Int16, weak: true }));
//! assert_eq!("array:bfloat16".parse(), Ok(Operand::Array { dtype: DType::BFloat16, weak: false }));
//! assert_eq!("float".parse(), Ok(Operand::PyType(PyScalar::Float)));
//! assert_eq!("f*".parse(), Ok(Operand::PyType(PyScalar::Float)));
//! assert_eq!("2".parse(), Ok(Operand::PyInt(2)));
//! assert_eq!("0d:int8".parse(), Ok(Operand::ZeroDim(DType::Int8)));
//! assert_eq!("py:int".parse(), Ok(Operand::PyType(PyScalar::Int)));
//! assert_eq!("bool".parse(), Ok(Operand::DType(DType::Bool)));
//! assert_eq!("py:bool".parse(), Ok(Operand::PyType(PyScalar::Bool)));
//! assert_eq!("i*".parse(), Ok(TypeSpec::Python(PyScalar::Int)));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::dtype::{DType, ParseDTypeError};

/// Python's built-in scalar types, which array libraries treat specially.
//
// The discriminants continue `DType`'s (0 to 31): the byte a `TypeSpec`
// holds then names its type whichever the variant, so reading it is one
// load with no branch on the variant (see `TypeSpec::index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PyScalar {
    /// `bool`
    Bool = DType::COUNT as u8,
    /// `int`
    Int,
    /// `float`
    Float,
    /// `complex`
    Complex,
}

impl PyScalar {
    /// The four types, in declaration order.
    pub const ALL: [PyScalar; 4] = [
        PyScalar::Bool,
        PyScalar::Int,
        PyScalar::Float,
        PyScalar::Complex,
    ];

    /// The Python name: `bool`, `int`, `float` or `complex`.
    pub const fn name(self) -> &'static str {
        match self {
            PyScalar::Bool => "bool",
            PyScalar::Int => "int",
            PyScalar::Float => "float",
            PyScalar::Complex => "complex",
        }
    }

    /// The short label of the weak type in JAX's documents: `i*`, `f*`,
    /// `c*` (`bool` has no weak form and is labelled `b1`).
    pub const fn label(self) -> &'static str {
        match self {
            PyScalar::Bool => "b1",
            PyScalar::Int => "i*",
            PyScalar::Float => "f*",
            PyScalar::Complex => "c*",
        }
    }

    /// Parses `int`, `float`, `complex`, `bool` or the labels `i*`, `f*`,
    /// `c*`.
    pub fn from_name(name: &str) -> Option<PyScalar> {
        Some(match name {
            "bool" => PyScalar::Bool,
            "int" | "i*" => PyScalar::Int,
            "float" | "f*" => PyScalar::Float,
            "complex" | "c*" => PyScalar::Complex,
            _ => return None,
        })
    }
}

impl fmt::Display for PyScalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// A type as `promote_types` takes it: a dtype, or a Python scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeSpec {
    /// A dtype.
    DType(DType),
    /// A Python scalar type; `bool` means the `bool` dtype.
    Python(PyScalar),
}

impl TypeSpec {
    /// How many types there are: the dtypes, then Python's four.
    pub const COUNT: usize = DType::COUNT + PyScalar::ALL.len();

    /// Every type, in the order of [`index`](Self::index): the dtypes in
    /// the order of [`DType::ALL`], then Python's in the order of
    /// [`PyScalar::ALL`].
    ///
    /// ```
    /// use dtype_lattice::{DType, PyScalar, TypeSpec};
    /// assert_eq!(TypeSpec::ALL[0], TypeSpec::DType(DType::ALL[0]));
    /// assert_eq!(TypeSpec::ALL[DType::COUNT], TypeSpec::Python(PyScalar::Bool));
    /// ```
    pub const ALL: [TypeSpec; TypeSpec::COUNT] = {
        let mut all = [TypeSpec::DType(DType::Bool); TypeSpec::COUNT];
        let mut i = 0;
        while i < DType::COUNT {
            all[i] = TypeSpec::DType(DType::ALL[i]);
            i += 1;
        }
        while i < TypeSpec::COUNT {
            all[i] = TypeSpec::Python(PyScalar::ALL[i - DType::COUNT]);
            i += 1;
        }
        all
    };

    /// The type's position in [`ALL`](Self::ALL), for tables indexed by
    /// type. Reading it is one load: both variants keep the number in the
    /// same byte.
    ///
    /// ```
    /// use dtype_lattice::{DType, PyScalar, TypeSpec};
    /// for spec in TypeSpec::ALL {
    ///     assert_eq!(TypeSpec::ALL[spec.index()], spec);
    /// }
    /// assert_eq!(TypeSpec::DType(DType::Int8).index(), DType::Int8.index());
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        // Both arms read the same byte (see `PyScalar`'s discriminants), so
        // the compiler merges them into one load.
        match self {
            TypeSpec::DType(dtype) => dtype as usize,
            TypeSpec::Python(scalar) => scalar as usize,
        }
    }
}

impl From<DType> for TypeSpec {
    fn from(dtype: DType) -> Self {
        TypeSpec::DType(dtype)
    }
}

impl From<PyScalar> for TypeSpec {
    fn from(scalar: PyScalar) -> Self {
        TypeSpec::Python(scalar)
    }
}

impl FromStr for TypeSpec {
    type Err = ParseOperandError;

    /// Python's `int`, `float`, `complex` (or `i*`, `f*`, `c*`) first, so
    /// `"int"` is the Python type, not NumPy's alias for `int64`; then any
    /// dtype name. `"bool"` is the `bool` dtype (write `py:bool` for
    /// Python's type, which JAX treats the same).
    fn from_str(s: &str) -> Result<TypeSpec, ParseOperandError> {
        let python = PyScalar::from_name(s.strip_prefix("py:").unwrap_or(s));
        if let Some(scalar) = python.filter(|&p| p != PyScalar::Bool || s.starts_with("py:")) {
            return Ok(TypeSpec::Python(scalar));
        }
        Ok(TypeSpec::DType(DType::from_name(s).map_err(|source| {
            ParseOperandError::DType {
                input: s.to_owned(),
                source,
            }
        })?))
    }
}

impl fmt::Display for TypeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeSpec::DType(dtype) => dtype.fmt(f),
            TypeSpec::Python(scalar) => scalar.fmt(f),
        }
    }
}

/// One input of `result_type`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Operand {
    /// A dtype specifier such as `jnp.int8` or `'float32'` (canonicalized
    /// under JAX's x64 setting).
    DType(DType),
    /// A zero-dimensional array of a dtype, for frameworks that promote
    /// those differently from arrays with dimensions (PyTorch). JAX and
    /// NumPy 2 treat it as a strongly-typed array.
    ZeroDim(DType),
    /// An array of a dtype, weakly typed or not (never canonicalized).
    Array {
        /// The array's dtype.
        dtype: DType,
        /// JAX's `weak_type` flag.
        weak: bool,
    },
    /// A Python scalar type: `int`, `float`, `complex` or `bool`.
    PyType(PyScalar),
    /// A Python `int` value; its value matters when it does not fit the
    /// default integer dtype.
    PyInt(i128),
    /// A Python `float` value.
    PyFloat(f64),
    /// A Python `bool` value.
    PyBool(bool),
    /// Python's `None`, which `result_type` reads as the default float
    /// dtype.
    None,
}

impl From<DType> for Operand {
    fn from(dtype: DType) -> Self {
        Operand::DType(dtype)
    }
}

impl From<PyScalar> for Operand {
    fn from(scalar: PyScalar) -> Self {
        Operand::PyType(scalar)
    }
}

impl From<TypeSpec> for Operand {
    fn from(spec: TypeSpec) -> Self {
        match spec {
            TypeSpec::DType(dtype) => Operand::DType(dtype),
            TypeSpec::Python(scalar) => Operand::PyType(scalar),
        }
    }
}

impl FromStr for Operand {
    type Err = ParseOperandError;

    /// The command-line notation: a dtype name (a specifier), `int`
    /// `float` `complex` or `i*` `f*` `c*` (Python scalar types),
    /// `weak:DTYPE` / `array:DTYPE` (arrays), `0d:DTYPE` (a
    /// zero-dimensional array), `py:int` `py:float` `py:complex` `py:bool`
    /// (Python scalar types, the only way to write Python's `bool` type), an
    /// integer or float literal,
    /// `True` / `False` (Python values) or `None`.
    fn from_str(s: &str) -> Result<Operand, ParseOperandError> {
        let array = |name: &str, weak: bool| {
            DType::from_name(name)
                .map(|dtype| Operand::Array { dtype, weak })
                .map_err(|source| ParseOperandError::DType {
                    input: s.to_owned(),
                    source,
                })
        };
        if let Some(name) = s.strip_prefix("weak:") {
            return array(name, true);
        }
        if let Some(name) = s.strip_prefix("array:") {
            return array(name, false);
        }
        if let Some(name) = s.strip_prefix("0d:") {
            return DType::from_name(name)
                .map(Operand::ZeroDim)
                .map_err(|source| ParseOperandError::DType {
                    input: s.to_owned(),
                    source,
                });
        }
        if let Some(name) = s.strip_prefix("py:") {
            return PyScalar::from_name(name)
                .filter(|_| !name.ends_with('*'))
                .map(Operand::PyType)
                .ok_or_else(|| ParseOperandError::PyType {
                    input: s.to_owned(),
                });
        }
        match s {
            "True" => return Ok(Operand::PyBool(true)),
            "False" => return Ok(Operand::PyBool(false)),
            "None" => return Ok(Operand::None),
            _ => {}
        }
        if looks_numeric(s) {
            return parse_number(s);
        }
        s.parse::<TypeSpec>().map(Operand::from)
    }
}

fn looks_numeric(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

fn parse_number(s: &str) -> Result<Operand, ParseOperandError> {
    let bad = || ParseOperandError::Number {
        input: s.to_owned(),
    };
    if s.bytes()
        .all(|b| b.is_ascii_digit() || b == b'-' || b == b'+')
    {
        return s.parse::<i128>().map(Operand::PyInt).map_err(|_| bad());
    }
    match s.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(Operand::PyFloat(value)),
        _ => Err(bad()),
    }
}

impl fmt::Display for Operand {
    /// Writes the notation [`Operand::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::DType(dtype) => write!(f, "{dtype}"),
            Operand::Array { dtype, weak: true } => write!(f, "weak:{dtype}"),
            Operand::Array { dtype, weak: false } => write!(f, "array:{dtype}"),
            Operand::ZeroDim(dtype) => write!(f, "0d:{dtype}"),
            Operand::PyType(PyScalar::Bool) => write!(f, "py:bool"),
            Operand::PyType(scalar) => write!(f, "{scalar}"),
            Operand::PyInt(value) => write!(f, "{value}"),
            Operand::PyFloat(value) => write!(f, "{value:?}"),
            Operand::PyBool(true) => write!(f, "True"),
            Operand::PyBool(false) => write!(f, "False"),
            Operand::None => write!(f, "None"),
        }
    }
}

/// Text that is not an operand.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseOperandError {
    /// The dtype name in it is unknown.
    DType {
        /// The whole operand text.
        input: String,
        /// What was wrong with the dtype name.
        source: ParseDTypeError,
    },
    /// `py:` is followed by something other than `int`, `float`,
    /// `complex` or `bool`.
    PyType {
        /// The whole operand text.
        input: String,
    },
    /// It looks like a number but is not a Python int or finite float.
    Number {
        /// The whole operand text.
        input: String,
    },
}

impl fmt::Display for ParseOperandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseOperandError::DType { input, source } => {
                write!(f, "bad operand '{}': {source}", input.escape_debug())
            }
            ParseOperandError::PyType { input } => write!(
                f,
                "bad operand '{}': after 'py:' write int, float, complex or bool",
                input.escape_debug()
            ),
            ParseOperandError::Number { input } => write!(
                f,
                "bad operand '{}': not an integer (up to 128 bits) or a finite float",
                input.escape_debug()
            ),
        }
    }
}

impl std::error::Error for ParseOperandError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParseOperandError::DType { source, .. } => Some(source),
            ParseOperandError::Number { .. } | ParseOperandError::PyType { .. } => None,
        }
    }
}
