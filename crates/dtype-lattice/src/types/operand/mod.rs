//! What promotion functions take (documented on [`Operand`]).

use core::fmt;
use core::str::FromStr;

use crate::prelude::*;
use crate::types::DType;

/// Python's built-in scalar types, which array libraries treat specially.
//
// The discriminants continue `DType`'s: the byte a `TypeSpec`
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

/// One input of `result_type`: a dtype specifier, an array, a Python
/// scalar type or a Python scalar value.
///
/// Plain data, built by constructor functions and read through
/// [`kind`](Operand::kind), the form as an enum to `match` on:
///
/// ```
/// use dtype_lattice::{DType, Operand, OperandKind, PyScalar};
///
/// let x = Operand::array(DType::Int8, false);
/// assert_eq!(x.kind(), OperandKind::Array { dtype: DType::Int8, weak: false });
/// assert_eq!(Operand::py_int(2).kind(), OperandKind::PyInt(2));
/// // Conversions: from a form, a dtype (a specifier) or a Python type.
/// assert_eq!(Operand::from(OperandKind::PyFloat(2.5)), Operand::py_float(2.5));
/// assert_eq!(Operand::from(DType::Int8), Operand::dtype(DType::Int8));
/// assert_eq!(Operand::from(PyScalar::Int), Operand::py_type(PyScalar::Int));
/// ```
///
/// Why not the enum itself: `result_type` reads every operand on the
/// dispatch path of an operation, and a form held as a number is read
/// with one table load, where an enum's variant takes a jump whose cost
/// shows when call sites pass varied forms (BENCHMARKS.md, "What was
/// tried on the hot path").
///
/// [`TypeSpec`] is what `promote_types` compares: a dtype, or one of Python's
/// scalar types. [`Operand`] is one input of `result_type`: a dtype
/// specifier, an array (a dtype with JAX's *weak* flag), a Python scalar
/// type, or a Python scalar value.
///
/// Both parse from the notation the command-line tool uses:
///
/// ```
/// use dtype_lattice::{DType, Operand, PyScalar, TypeSpec};
///
/// assert_eq!("int8".parse(), Ok(Operand::dtype(DType::Int8)));
/// assert_eq!("weak:int16".parse(), Ok(Operand::array(DType::Int16, true)));
/// assert_eq!("array:bfloat16".parse(), Ok(Operand::array(DType::BFloat16, false)));
/// assert_eq!("float".parse(), Ok(Operand::py_type(PyScalar::Float)));
/// assert_eq!("f*".parse(), Ok(Operand::py_type(PyScalar::Float)));
/// assert_eq!("2".parse(), Ok(Operand::py_int(2)));
/// assert_eq!("2+3j".parse(), Ok(Operand::py_complex(2.0, 3.0)));
/// assert_eq!("0d:int8".parse(), Ok(Operand::zero_dim(DType::Int8)));
/// assert_eq!("py:int".parse(), Ok(Operand::py_type(PyScalar::Int)));
/// assert_eq!("bool".parse(), Ok(Operand::dtype(DType::Bool)));
/// assert_eq!("py:bool".parse(), Ok(Operand::py_type(PyScalar::Bool)));
/// assert_eq!("i*".parse(), Ok(TypeSpec::Python(PyScalar::Int)));
/// ```
#[derive(Clone, Copy)]
pub struct Operand {
    /// The form and, where it has one, the type, as one number (see
    /// [`code`]); `result_type` indexes its tables with it.
    code: u8,
    /// A Python value's bits, little-endian: an `int`'s 16 bytes, a
    /// `float`'s first 8, a `complex`'s real part then its imaginary part,
    /// a `bool`'s first byte. Zero for other forms.
    value: [u8; 16],
}

/// The numbering of [`Operand::code`]: a range of [`DType::COUNT`] per
/// form of dtype (by [`DType::index`]), then Python's types, then the
/// values.
mod code {
    use crate::DType;

    const N: u8 = DType::COUNT as u8;
    pub const DTYPE: u8 = 0;
    pub const ZERO_DIM: u8 = N;
    pub const STRONG_ARRAY: u8 = 2 * N;
    pub const WEAK_ARRAY: u8 = 3 * N;
    pub const PY_TYPE: u8 = 4 * N;
    pub const PY_BOOL: u8 = PY_TYPE + 4;
    pub const PY_INT: u8 = PY_BOOL + 1;
    pub const PY_FLOAT: u8 = PY_BOOL + 2;
    pub const PY_COMPLEX: u8 = PY_BOOL + 3;
    pub const NONE: u8 = PY_BOOL + 4;
}

impl Operand {
    /// Python's `None`, which `result_type` reads as the default float
    /// dtype.
    pub const NONE: Operand = Operand::with_code(code::NONE);

    const fn with_code(code: u8) -> Operand {
        Operand {
            code,
            value: [0; 16],
        }
    }

    /// A dtype specifier such as `jnp.int8` or `'float32'` (canonicalized
    /// under JAX's x64 setting).
    pub const fn dtype(dtype: DType) -> Operand {
        Operand::with_code(code::DTYPE + dtype as u8)
    }

    /// A zero-dimensional array of a dtype, for frameworks that promote
    /// those differently from arrays with dimensions (PyTorch). JAX and
    /// NumPy 2 treat it as a strongly-typed array.
    pub const fn zero_dim(dtype: DType) -> Operand {
        Operand::with_code(code::ZERO_DIM + dtype as u8)
    }

    /// An array of a dtype with JAX's `weak_type` flag (never
    /// canonicalized).
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType, Operand, Typed};
    /// let weak_int16 = Operand::array(DType::Int16, true);
    /// assert_eq!(Jax::default().lattice_result_type(&[weak_int16]), Ok(Typed::weak(DType::Int16)));
    /// ```
    pub const fn array(dtype: DType, weak: bool) -> Operand {
        let form = if weak {
            code::WEAK_ARRAY
        } else {
            code::STRONG_ARRAY
        };
        Operand::with_code(form + dtype as u8)
    }

    /// A Python scalar type: `int`, `float`, `complex` or `bool`.
    pub const fn py_type(scalar: PyScalar) -> Operand {
        // `PyScalar`'s discriminants continue `DType`'s.
        Operand::with_code(code::PY_TYPE + (scalar as u8 - DType::COUNT as u8))
    }

    /// A Python `int` value; its value matters when it does not fit the
    /// default integer dtype.
    pub const fn py_int(value: i128) -> Operand {
        Operand {
            code: code::PY_INT,
            value: value.to_le_bytes(),
        }
    }

    /// A Python `float` value.
    pub const fn py_float(value: f64) -> Operand {
        let [a, b, c, d, e, f, g, h] = value.to_bits().to_le_bytes();
        Operand {
            code: code::PY_FLOAT,
            value: [a, b, c, d, e, f, g, h, 0, 0, 0, 0, 0, 0, 0, 0],
        }
    }

    /// A Python `complex` value, `real + imag*1j`.
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType, Operand, Policy, Typed};
    /// let x = [Operand::dtype(DType::Float32), Operand::py_complex(0.0, 1.0)];
    /// assert_eq!(Jax::default().result_type(&x), Ok(Typed::strong(DType::Complex64)));
    /// ```
    pub const fn py_complex(real: f64, imag: f64) -> Operand {
        let [a, b, c, d, e, f, g, h] = real.to_bits().to_le_bytes();
        let [i, j, k, l, m, n, o, p] = imag.to_bits().to_le_bytes();
        Operand {
            code: code::PY_COMPLEX,
            value: [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p],
        }
    }

    /// A Python `bool` value.
    pub const fn py_bool(value: bool) -> Operand {
        let mut operand = Operand::with_code(code::PY_BOOL);
        operand.value[0] = value as u8;
        operand
    }
    /// The operand as an operation takes it: a dtype specifier stands for
    /// a strongly-typed array of that dtype, a Python type for a scalar of
    /// it (`True`, `2`, `2.0`, `2j`, as `py:TYPE` is written); the rest is
    /// itself. `result-type --op true_divide int32 int32` divides two int32
    /// arrays.
    ///
    /// ```
    /// use dtype_lattice::{DType, Operand, PyScalar};
    /// assert_eq!(Operand::dtype(DType::Int8).as_argument(), Operand::array(DType::Int8, false));
    /// assert_eq!(Operand::py_type(PyScalar::Int).as_argument(), Operand::py_int(2));
    /// ```
    pub fn as_argument(self) -> Operand {
        match self.kind() {
            OperandKind::DType(dtype) => Operand::array(dtype, false),
            OperandKind::PyType(PyScalar::Bool) => Operand::py_bool(true),
            OperandKind::PyType(PyScalar::Int) => Operand::py_int(2),
            OperandKind::PyType(PyScalar::Float) => Operand::py_float(2.0),
            OperandKind::PyType(PyScalar::Complex) => Operand::py_complex(0.0, 2.0),
            _ => self,
        }
    }

    /// The operand's form, to `match` on.
    ///
    /// ```
    /// use dtype_lattice::{Operand, OperandKind};
    /// let describe = |operand: Operand| match operand.kind() {
    ///     OperandKind::PyInt(value) => format!("the Python int {value}"),
    ///     OperandKind::Array { dtype, weak: true } => format!("a weak {dtype} array"),
    ///     _ => operand.to_string(),
    /// };
    /// assert_eq!(describe(Operand::py_int(-3)), "the Python int -3");
    /// assert_eq!(describe("weak:int8".parse().unwrap()), "a weak int8 array");
    /// assert_eq!(describe(Operand::NONE), "None");
    /// ```
    pub const fn kind(self) -> OperandKind {
        const fn at(code: u8, base: u8) -> DType {
            DType::ALL[(code - base) as usize]
        }
        match self.code {
            0..code::ZERO_DIM => OperandKind::DType(at(self.code, code::DTYPE)),
            code::ZERO_DIM..code::STRONG_ARRAY => {
                OperandKind::ZeroDim(at(self.code, code::ZERO_DIM))
            }
            code::STRONG_ARRAY..code::WEAK_ARRAY => OperandKind::Array {
                dtype: at(self.code, code::STRONG_ARRAY),
                weak: false,
            },
            code::WEAK_ARRAY..code::PY_TYPE => OperandKind::Array {
                dtype: at(self.code, code::WEAK_ARRAY),
                weak: true,
            },
            code::PY_TYPE..code::PY_BOOL => {
                OperandKind::PyType(PyScalar::ALL[(self.code - code::PY_TYPE) as usize])
            }
            code::PY_BOOL => OperandKind::PyBool(self.value[0] != 0),
            code::PY_INT => OperandKind::PyInt(i128::from_le_bytes(self.value)),
            code::PY_FLOAT => OperandKind::PyFloat(self.half(0)),
            code::PY_COMPLEX => OperandKind::PyComplex {
                real: self.half(0),
                imag: self.half(1),
            },
            _ => OperandKind::None,
        }
    }

    /// The float held in the first (0) or second (1) half of the value.
    const fn half(self, which: usize) -> f64 {
        let v = self.value;
        let o = which * 8;
        f64::from_bits(u64::from_le_bytes([
            v[o],
            v[o + 1],
            v[o + 2],
            v[o + 3],
            v[o + 4],
            v[o + 5],
            v[o + 6],
            v[o + 7],
        ]))
    }

    /// The form and, where it has one, the type, as one number below
    /// [`Operand::CODES`] (values do not matter).
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        self.code
    }

    /// How many codes there are.
    pub(crate) const CODES: usize = code::NONE as usize + 1;

    /// One operand of each code, in the order of the codes.
    pub(crate) fn each_code() -> impl Iterator<Item = Operand> {
        (0..Operand::CODES).map(|code| Operand::with_code(code as u8))
    }

    /// Whether this is a dtype or an array of one (of any form): no
    /// Python value or type, so nothing Python computes itself.
    #[inline(always)]
    pub(crate) const fn is_array_or_dtype(self) -> bool {
        self.code < code::PY_TYPE
    }

    /// Whether this is Python's `None`.
    #[inline(always)]
    pub(crate) const fn is_none(self) -> bool {
        self.code == code::NONE
    }
}

impl PartialEq for Operand {
    /// Equal forms with equal values, as [`OperandKind`] compares them
    /// (so `py_float(f64::NAN)` is not equal to itself), and for 0-d
    /// arrays the same value held ([`Operand::held`], bit for bit).
    fn eq(&self, other: &Operand) -> bool {
        let zero_dim = (code::ZERO_DIM..code::STRONG_ARRAY).contains(&self.code);
        self.kind() == other.kind() && (!zero_dim || self.value == other.value)
    }
}

impl fmt::Debug for Operand {
    /// As its [`kind`](Operand::kind).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind().fmt(f)
    }
}

/// The form of an [`Operand`], as [`Operand::kind`] gives it and
/// `Operand::from` takes it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum OperandKind {
    /// A dtype specifier; see [`Operand::dtype`].
    DType(DType),
    /// A zero-dimensional array; see [`Operand::zero_dim`].
    ZeroDim(DType),
    /// An array of a dtype, weakly typed or not; see [`Operand::array`].
    Array {
        /// The array's dtype.
        dtype: DType,
        /// JAX's `weak_type` flag.
        weak: bool,
    },
    /// A Python scalar type; see [`Operand::py_type`].
    PyType(PyScalar),
    /// A Python `int` value; see [`Operand::py_int`].
    PyInt(i128),
    /// A Python `float` value.
    PyFloat(f64),
    /// A Python `complex` value; see [`Operand::py_complex`].
    PyComplex {
        /// The real part.
        real: f64,
        /// The imaginary part.
        imag: f64,
    },
    /// A Python `bool` value.
    PyBool(bool),
    /// Python's `None`; see [`Operand::NONE`].
    None,
}

impl From<OperandKind> for Operand {
    fn from(kind: OperandKind) -> Self {
        match kind {
            OperandKind::DType(dtype) => Operand::dtype(dtype),
            OperandKind::ZeroDim(dtype) => Operand::zero_dim(dtype),
            OperandKind::Array { dtype, weak } => Operand::array(dtype, weak),
            OperandKind::PyType(scalar) => Operand::py_type(scalar),
            OperandKind::PyInt(value) => Operand::py_int(value),
            OperandKind::PyFloat(value) => Operand::py_float(value),
            OperandKind::PyComplex { real, imag } => Operand::py_complex(real, imag),
            OperandKind::PyBool(value) => Operand::py_bool(value),
            OperandKind::None => Operand::NONE,
        }
    }
}

impl From<Operand> for OperandKind {
    fn from(operand: Operand) -> Self {
        operand.kind()
    }
}

impl From<DType> for Operand {
    fn from(dtype: DType) -> Self {
        Operand::dtype(dtype)
    }
}

impl From<PyScalar> for Operand {
    fn from(scalar: PyScalar) -> Self {
        Operand::py_type(scalar)
    }
}

impl From<TypeSpec> for Operand {
    fn from(spec: TypeSpec) -> Self {
        match spec {
            TypeSpec::DType(dtype) => Operand::dtype(dtype),
            TypeSpec::Python(scalar) => Operand::py_type(scalar),
        }
    }
}

/// A float as Python's `repr` of a complex writes its parts: `2`, not `2.0`.
struct Part(f64);

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:?}", self.0);
        f.write_str(text.strip_suffix(".0").unwrap_or(&text))
    }
}

impl fmt::Display for Operand {
    /// Writes the notation [`Operand::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            OperandKind::DType(dtype) => write!(f, "{dtype}"),
            OperandKind::Array { dtype, weak: true } => write!(f, "weak:{dtype}"),
            OperandKind::Array { dtype, weak: false } => write!(f, "array:{dtype}"),
            OperandKind::ZeroDim(dtype) => match self.held() {
                Some(value) if self.holds_nonzero() => {
                    write!(f, "0d:{dtype}={}", Operand::from(value))
                }
                _ => write!(f, "0d:{dtype}"),
            },
            OperandKind::PyType(PyScalar::Bool) => write!(f, "py:bool"),
            OperandKind::PyType(scalar) => write!(f, "{scalar}"),
            OperandKind::PyInt(value) => write!(f, "{value}"),
            OperandKind::PyFloat(value) => write!(f, "{value:?}"),
            // Python's repr, parentheses when there is a real part.
            OperandKind::PyComplex { real, imag } if real == 0.0 && real.is_sign_positive() => {
                write!(f, "{}j", Part(imag))
            }
            OperandKind::PyComplex { real, imag } => {
                let sign = if imag.is_sign_negative() { "" } else { "+" };
                write!(f, "({}{sign}{}j)", Part(real), Part(imag))
            }
            OperandKind::PyBool(true) => write!(f, "True"),
            OperandKind::PyBool(false) => write!(f, "False"),
            OperandKind::None => write!(f, "None"),
        }
    }
}

mod held;
mod parse;

pub use parse::ParseOperandError;

#[cfg(test)]
mod tests;
