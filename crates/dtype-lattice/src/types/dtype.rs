//! The 33 dtypes, their names and kinds (documented on [`DType`]).

use core::fmt;
use core::str::FromStr;

use crate::prelude::*;
use crate::text::nearest;

macro_rules! dtypes {
    ($($variant:ident = $name:literal, $kind:ident, $bits:literal;)*) => {
        /// One of the 33 dtypes: the 32 JAX knows, in JAX's order, then
        /// PyTorch's `complex32` (`torch.chalf`), which only PyTorch has.
        ///
        /// The discriminant is the dtype's position in [`DType::ALL`].
        ///
        /// [`DType`] lists JAX's in JAX's own order (booleans, unsigned integers,
        /// signed integers, real floats from narrowest format to widest, complex),
        /// then `complex32`. That order is also each dtype's
        /// [`index`](DType::index), which the promotion tables use directly.
        ///
        /// Names are parsed the way NumPy (with `ml_dtypes` loaded) parses them:
        /// full names (`"int16"`, `"bfloat16"`), NumPy's aliases (`"short"`,
        /// `"double"`), array-protocol codes (`"i2"`, `"f4"`, `"c8"`), one-letter
        /// type characters (`"h"`, `"e"`, `"?"`), and byte-order prefixes for a
        /// native-order dtype (`"<i2"`, `"=f8"`, `"|b1"`).
        ///
        /// ```
        /// use dtype_lattice::DType;
        ///
        /// assert_eq!("i2".parse::<DType>().unwrap(), DType::Int16);
        /// assert_eq!("<f8".parse::<DType>().unwrap(), DType::Float64);
        /// assert_eq!(DType::BFloat16.to_string(), "bfloat16");
        ///
        /// let err = "flaot32".parse::<DType>().unwrap_err();
        /// assert_eq!(err.to_string(), "unknown dtype 'flaot32': did you mean 'float32'?");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum DType {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl DType {
            /// Every dtype: JAX's 32 in JAX's order, then `complex32`.
            pub const ALL: [DType; DType::COUNT] = [$(DType::$variant),*];

            /// Canonical names, indexed by [`DType::index`].
            const NAMES: [&'static str; DType::COUNT] = [$($name),*];
            const KINDS: [Kind; DType::COUNT] = [$(Kind::$kind),*];
            const BITS: [u32; DType::COUNT] = [$($bits),*];
        }
    };
}

// name, kind, and width in bits of the value representation (bool counts as
// one bit here; its storage is a byte, see `itemsize_bits`).
dtypes! {
    Bool = "bool", Bool, 1;
    UInt1 = "uint1", Unsigned, 1;
    UInt2 = "uint2", Unsigned, 2;
    UInt4 = "uint4", Unsigned, 4;
    UInt8 = "uint8", Unsigned, 8;
    UInt16 = "uint16", Unsigned, 16;
    UInt32 = "uint32", Unsigned, 32;
    UInt64 = "uint64", Unsigned, 64;
    Int1 = "int1", Signed, 1;
    Int2 = "int2", Signed, 2;
    Int4 = "int4", Signed, 4;
    Int8 = "int8", Signed, 8;
    Int16 = "int16", Signed, 16;
    Int32 = "int32", Signed, 32;
    Int64 = "int64", Signed, 64;
    Float4E2M1Fn = "float4_e2m1fn", Float, 4;
    Float6E2M3Fn = "float6_e2m3fn", Float, 6;
    Float6E3M2Fn = "float6_e3m2fn", Float, 6;
    Float8E3M4 = "float8_e3m4", Float, 8;
    Float8E4M3 = "float8_e4m3", Float, 8;
    Float8E8M0Fnu = "float8_e8m0fnu", Float, 8;
    Float8E4M3B11Fnuz = "float8_e4m3b11fnuz", Float, 8;
    Float8E4M3Fn = "float8_e4m3fn", Float, 8;
    Float8E4M3Fnuz = "float8_e4m3fnuz", Float, 8;
    Float8E5M2 = "float8_e5m2", Float, 8;
    Float8E5M2Fnuz = "float8_e5m2fnuz", Float, 8;
    BFloat16 = "bfloat16", Float, 16;
    Float16 = "float16", Float, 16;
    Float32 = "float32", Float, 32;
    Float64 = "float64", Float, 64;
    Complex64 = "complex64", Complex, 64;
    Complex128 = "complex128", Complex, 128;
    // After JAX's 32, so that their indices, which JAX's tables use, stay
    // below 32.
    Complex32 = "complex32", Complex, 32;
}

/// The five kinds of dtype, as NumPy's `dtype.kind` tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `bool`.
    Bool,
    /// `uint1` .. `uint64`.
    Unsigned,
    /// `int1` .. `int64`.
    Signed,
    /// The 15 real floating-point types, `float4_e2m1fn` .. `float64`.
    Float,
    /// `complex32` (PyTorch's only), `complex64` and `complex128`.
    Complex,
}

impl Kind {
    /// NumPy's one-letter kind code: `b`, `u`, `i`, `f` or `c`.
    ///
    /// ```
    /// use dtype_lattice::{DType, Kind};
    /// assert_eq!(DType::BFloat16.kind().code(), 'f');
    /// assert_eq!(Kind::Unsigned.code(), 'u');
    /// ```
    pub const fn code(self) -> char {
        match self {
            Kind::Bool => 'b',
            Kind::Unsigned => 'u',
            Kind::Signed => 'i',
            Kind::Float => 'f',
            Kind::Complex => 'c',
        }
    }
}

impl DType {
    /// How many dtypes there are.
    pub const COUNT: usize = 33;

    /// The dtype's position in [`DType::ALL`].
    ///
    /// ```
    /// use dtype_lattice::DType;
    /// assert_eq!(DType::ALL[DType::Int8.index()], DType::Int8);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The dtype at position `index` of [`DType::ALL`], if there is one.
    pub fn from_index(index: usize) -> Option<DType> {
        DType::ALL.get(index).copied()
    }

    /// The canonical name, as NumPy and `ml_dtypes` print it.
    pub const fn name(self) -> &'static str {
        DType::NAMES[self as usize]
    }

    /// The dtype's kind.
    pub const fn kind(self) -> Kind {
        DType::KINDS[self as usize]
    }

    /// Width in bits of the value representation: 1 for `bool`, 4 for
    /// `int4`, 6 for the float6 types, 128 for `complex128`.
    pub const fn bits(self) -> u32 {
        DType::BITS[self as usize]
    }

    /// The width JAX reports from `dtypes.itemsize_bits`: the bit width for
    /// the sub-byte integer and float types, the storage size otherwise
    /// (so `bool` is 8).
    ///
    /// ```
    /// use dtype_lattice::DType;
    /// assert_eq!(DType::Int4.itemsize_bits(), 4);
    /// assert_eq!(DType::Bool.itemsize_bits(), 8);
    /// assert_eq!(DType::Complex64.itemsize_bits(), 64);
    /// ```
    pub const fn itemsize_bits(self) -> u32 {
        match self {
            DType::Bool => 8,
            _ => self.bits(),
        }
    }

    /// The dtype of a complex dtype's real and imaginary parts (what `abs`
    /// of a complex value is); every other dtype is its own.
    ///
    /// ```
    /// use dtype_lattice::DType;
    /// assert_eq!(DType::Complex64.real_part(), DType::Float32);
    /// assert_eq!(DType::Int8.real_part(), DType::Int8);
    /// ```
    pub const fn real_part(self) -> DType {
        match self {
            DType::Complex32 => DType::Float16,
            DType::Complex64 => DType::Float32,
            DType::Complex128 => DType::Float64,
            other => other,
        }
    }

    /// `true` for the sub-byte integers `int1`, `int2`, `int4`, `uint1`,
    /// `uint2` and `uint4`, which JAX refuses to promote implicitly.
    pub const fn is_sub_byte_integer(self) -> bool {
        matches!(self.kind(), Kind::Signed | Kind::Unsigned) && self.bits() < 8
    }

    /// `true` for the 11 float4, float6 and float8 types.
    pub const fn is_small_float(self) -> bool {
        matches!(self.kind(), Kind::Float) && self.bits() <= 8
    }

    /// `true` for integer dtypes, signed or unsigned.
    pub const fn is_integer(self) -> bool {
        matches!(self.kind(), Kind::Signed | Kind::Unsigned)
    }

    /// `true` for real and complex floating-point dtypes.
    pub const fn is_inexact(self) -> bool {
        matches!(self.kind(), Kind::Float | Kind::Complex)
    }

    /// `true` for the dtypes NumPy gets from the `ml_dtypes` package:
    /// `bfloat16`, the small floats and the sub-byte integers.
    pub const fn is_ml_dtypes(self) -> bool {
        matches!(self, DType::BFloat16) || self.is_small_float() || self.is_sub_byte_integer()
    }

    /// The Python class of the dtype's scalars, as NumPy prints it in
    /// messages: `numpy.int8`, `ml_dtypes.bfloat16`.
    ///
    /// ```
    /// use dtype_lattice::DType;
    /// assert_eq!(DType::Bool.python_class(), "numpy.bool");
    /// assert_eq!(DType::Int4.python_class(), "ml_dtypes.int4");
    /// ```
    pub fn python_class(self) -> String {
        let module = if self.is_ml_dtypes() {
            "ml_dtypes"
        } else {
            "numpy"
        };
        format!("{module}.{}", self.name())
    }

    /// NumPy's `dtype.kind` for this dtype. `ml_dtypes` registers its types
    /// as `V` (void), except `float8_e5m2`, which it registers as `f`.
    ///
    /// ```
    /// use dtype_lattice::DType;
    /// assert_eq!(DType::Int16.numpy_kind(), 'i');
    /// assert_eq!(DType::BFloat16.numpy_kind(), 'V');
    /// assert_eq!(DType::Float8E5M2.numpy_kind(), 'f');
    /// ```
    pub const fn numpy_kind(self) -> char {
        match self {
            DType::Float8E5M2 => 'f',
            _ if self.is_ml_dtypes() => 'V',
            _ => self.kind().code(),
        }
    }

    /// Parses a dtype name as NumPy does; see [`DType`].
    ///
    /// ```
    /// use dtype_lattice::DType;
    /// assert_eq!(DType::from_name("double"), Ok(DType::Float64));
    /// assert_eq!(DType::from_name("?"), Ok(DType::Bool));
    /// assert_eq!(DType::from_name("|i2"), Ok(DType::Int16));
    /// assert!(DType::from_name(">i2").is_err()); // a byte-swapped int16
    /// assert!(DType::from_name("<int16").is_err()); // prefixes go with codes only
    /// ```
    pub fn from_name(name: &str) -> Result<DType, ParseDTypeError> {
        if let Some(dtype) = lookup(name) {
            return Ok(dtype);
        }
        if let Some(dtype) = ecosystem(name) {
            return Ok(dtype);
        }
        // A byte-order mark may precede a type code. '>' (big-endian) is
        // never native on the little-endian machines JAX runs on, so NumPy
        // gives a byte-swapped dtype for it, except where a single byte has
        // no order.
        let (order, rest) = name.split_at(name.chars().next().map_or(0, char::len_utf8));
        match (order, code(rest)) {
            ("<" | "=" | "|", Some(dtype)) => return Ok(dtype),
            (">", Some(dtype)) if dtype.itemsize_bits() <= 8 => return Ok(dtype),
            (">", Some(_)) => {
                return Err(ParseDTypeError {
                    input: name.to_owned(),
                    reason: Reason::BigEndian,
                })
            }
            _ => {}
        }
        Err(ParseDTypeError {
            input: name.to_owned(),
            reason: Reason::Unknown {
                suggestion: suggest(name),
            },
        })
    }

    /// Every name [`DType::from_name`] accepts without a byte-order prefix,
    /// with the dtype it means: canonical names first, then NumPy's aliases,
    /// then its type codes.
    pub fn names() -> impl Iterator<Item = (&'static str, DType)> {
        DType::ALL
            .iter()
            .map(|&d| (d.name(), d))
            .chain(ALIASES.iter().copied())
            .chain(CODES.iter().copied())
    }
}

/// A dtype written as the ecosystems print or spell it: `np.int8`,
/// `numpy.int8`, `jnp.float32`, `jax.numpy.bfloat16`, `ml_dtypes.float8_e4m3fn`
/// (any name NumPy takes after the module), `torch.float16`, `tf.int32`,
/// `tensorflow.int32`, `mlx.core.int8`, `paddle.int8` (canonical names
/// only, and PyTorch's `torch.chalf`: PyTorch's `torch.cfloat` is
/// not NumPy's `cfloat`), `dtype('int8')`, `np.dtype("int8")`,
/// `<class 'numpy.int8'>`, TensorFlow's `<dtype: 'int32'>` and tinygrad's
/// `dtypes.char` ([`TINYGRAD`]).
fn ecosystem(name: &str) -> Option<DType> {
    let name = name.trim();
    if let Some(class) = name
        .strip_prefix("<class '")
        .and_then(|n| n.strip_suffix("'>"))
    {
        return ecosystem(class);
    }
    // TensorFlow's `str` of a dtype: canonical names only, as `tf.`.
    if let Some(tf) = name
        .strip_prefix("<dtype: '")
        .and_then(|n| n.strip_suffix("'>"))
    {
        return DType::ALL.into_iter().find(|d| d.name() == tf);
    }
    let call = [
        "np.dtype(",
        "numpy.dtype(",
        "jnp.dtype(",
        "jax.numpy.dtype(",
        "dtype(",
    ]
    .into_iter()
    .find_map(|prefix| name.strip_prefix(prefix)?.strip_suffix(')'));
    if let Some(argument) = call {
        let argument = argument.trim();
        let quoted = ['\'', '"']
            .into_iter()
            .find_map(|quote| argument.strip_prefix(quote)?.strip_suffix(quote));
        return quoted.and_then(|inner| DType::from_name(inner).ok());
    }
    const NUMPY_LIKE: [&str; 5] = ["np.", "numpy.", "jnp.", "jax.numpy.", "ml_dtypes."];
    const OTHERS: [&str; 5] = ["torch.", "tf.", "tensorflow.", "mlx.core.", "paddle."];
    if let Some(rest) = NUMPY_LIKE.into_iter().find_map(|m| name.strip_prefix(m)) {
        return lookup(rest);
    }
    if let Some(rest) = name.strip_prefix("dtypes.") {
        return TINYGRAD.iter().find(|(n, _)| *n == rest).map(|&(_, d)| d);
    }
    if let Some(rest) = name.strip_prefix("torch.") {
        if let Some(&(_, dtype)) = TORCH.iter().find(|(n, _)| *n == rest) {
            return Some(dtype);
        }
    }
    let rest = OTHERS.into_iter().find_map(|m| name.strip_prefix(m))?;
    DType::ALL.into_iter().find(|d| d.name() == rest)
}

/// PyTorch's own names beside the canonical ones, where no other
/// framework's name could be meant (`torch.cfloat` is left out: it is
/// complex64 there, NumPy's `cfloat` complex128).
const TORCH: &[(&str, DType)] = &[("chalf", DType::Complex32)];

/// tinygrad's names of its dtypes, as `dtypes.NAME` prints them (its C
/// names: `dtypes.int` is int32 and `dtypes.float` float32, unlike NumPy's
/// `int` and `float`; `fp8e4m3` has no infinities, so it is
/// `float8_e4m3fn`).
const TINYGRAD: &[(&str, DType)] = &[
    ("bool", DType::Bool),
    ("int8", DType::Int8),
    ("char", DType::Int8),
    ("uint8", DType::UInt8),
    ("uchar", DType::UInt8),
    ("int16", DType::Int16),
    ("short", DType::Int16),
    ("uint16", DType::UInt16),
    ("ushort", DType::UInt16),
    ("int32", DType::Int32),
    ("int", DType::Int32),
    ("uint32", DType::UInt32),
    ("uint", DType::UInt32),
    ("int64", DType::Int64),
    ("long", DType::Int64),
    ("uint64", DType::UInt64),
    ("ulong", DType::UInt64),
    ("fp8e4m3", DType::Float8E4M3Fn),
    ("fp8e5m2", DType::Float8E5M2),
    ("fp8e4m3fnuz", DType::Float8E4M3Fnuz),
    ("fp8e5m2fnuz", DType::Float8E5M2Fnuz),
    ("float16", DType::Float16),
    ("half", DType::Float16),
    ("bfloat16", DType::BFloat16),
    ("float32", DType::Float32),
    ("float", DType::Float32),
    ("float64", DType::Float64),
    ("double", DType::Float64),
];

/// NumPy's type codes: one-letter type characters and array-protocol
/// `kind + bytes` codes (as on 64-bit Linux, where the golden data was made).
/// Only these may carry a byte-order prefix.
const CODES: &[(&str, DType)] = &[
    ("?", DType::Bool),
    ("b1", DType::Bool),
    ("b", DType::Int8),
    ("i1", DType::Int8),
    ("h", DType::Int16),
    ("i2", DType::Int16),
    ("i", DType::Int32),
    ("i4", DType::Int32),
    ("l", DType::Int64),
    ("q", DType::Int64),
    ("p", DType::Int64),
    ("n", DType::Int64),
    ("i8", DType::Int64),
    ("B", DType::UInt8),
    ("u1", DType::UInt8),
    ("H", DType::UInt16),
    ("u2", DType::UInt16),
    ("I", DType::UInt32),
    ("u4", DType::UInt32),
    ("L", DType::UInt64),
    ("Q", DType::UInt64),
    ("P", DType::UInt64),
    ("N", DType::UInt64),
    ("u8", DType::UInt64),
    ("e", DType::Float16),
    ("f2", DType::Float16),
    ("f", DType::Float32),
    ("f4", DType::Float32),
    ("d", DType::Float64),
    ("f8", DType::Float64),
    ("F", DType::Complex64),
    ("c8", DType::Complex64),
    ("D", DType::Complex128),
    ("c16", DType::Complex128),
];

/// NumPy 2's other names for the standard dtypes.
const ALIASES: &[(&str, DType)] = &[
    ("bool_", DType::Bool),
    ("byte", DType::Int8),
    ("short", DType::Int16),
    ("intc", DType::Int32),
    ("int", DType::Int64),
    ("int_", DType::Int64),
    ("intp", DType::Int64),
    ("long", DType::Int64),
    ("longlong", DType::Int64),
    ("ubyte", DType::UInt8),
    ("ushort", DType::UInt16),
    ("uintc", DType::UInt32),
    ("uint", DType::UInt64),
    ("uintp", DType::UInt64),
    ("ulong", DType::UInt64),
    ("ulonglong", DType::UInt64),
    ("half", DType::Float16),
    ("single", DType::Float32),
    ("float", DType::Float64),
    ("double", DType::Float64),
    ("csingle", DType::Complex64),
    ("complex", DType::Complex128),
    ("cdouble", DType::Complex128),
];

fn code(code: &str) -> Option<DType> {
    CODES.iter().find(|&&(c, _)| c == code).map(|&(_, d)| d)
}

fn lookup(name: &str) -> Option<DType> {
    DType::names().find(|&(n, _)| n == name).map(|(_, d)| d)
}

/// The canonical name closest to `input` by edit distance (ignoring case),
/// if one is close enough to be a plausible typo.
fn suggest(input: &str) -> Option<&'static str> {
    let alias = nearest(input, DType::names().map(|(alias, _)| alias))?;
    lookup(alias).map(DType::name)
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for DType {
    type Err = ParseDTypeError;

    fn from_str(s: &str) -> Result<DType, ParseDTypeError> {
        DType::from_name(s)
    }
}

/// A string that names no dtype.
///
/// Its message quotes the input and, where one is close, suggests the
/// nearest valid name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDTypeError {
    input: String,
    reason: Reason,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Reason {
    Unknown { suggestion: Option<&'static str> },
    BigEndian,
}

impl ParseDTypeError {
    /// The text that failed to parse.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The canonical name of the dtype the input most resembles, if any.
    pub fn suggestion(&self) -> Option<&'static str> {
        match self.reason {
            Reason::Unknown { suggestion } => suggestion,
            Reason::BigEndian => None,
        }
    }
}

impl fmt::Display for ParseDTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown dtype '{}'", self.input.escape_debug())?;
        match self.reason {
            Reason::Unknown {
                suggestion: Some(name),
            } => write!(f, ": did you mean '{name}'?"),
            Reason::Unknown { suggestion: None } => write!(
                f,
                ": expected a name such as 'int8', 'bfloat16' or 'float32', \
                 or a NumPy code such as 'i1' or 'f4'"
            ),
            Reason::BigEndian => write!(
                f,
                ": big-endian dtypes are not supported; \
                 use '<', '=' or no byte-order prefix"
            ),
        }
    }
}

impl core::error::Error for ParseDTypeError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::edit_distance;

    /// The cases the issue that fixed the distance reported (the first row
    /// of the table was zero, so any prefix of a name cost nothing).
    #[test]
    fn suggestions_are_plausible_misspellings() {
        let suggest = |input: &str| DType::from_name(input).unwrap_err().suggestion();
        assert_eq!(suggest("Int8"), Some("int8"));
        assert_eq!(suggest("Float16"), Some("float16"));
        assert_eq!(suggest("unit8"), Some("uint8"));
        assert_eq!(suggest("flaot32"), Some("float32"));
        assert_eq!(suggest("8"), None);
        assert!(suggest("int9").is_some_and(|s| s.starts_with("int")));
        assert_eq!(edit_distance("int", "int8"), 1);
        assert_eq!(edit_distance("", "int8"), 4);
        assert_eq!(edit_distance("int8", ""), 4);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(nearest("z", ["description", "name"].into_iter()), None);
    }

    #[test]
    fn the_ecosystems_spellings_name_their_dtypes() {
        for (spelling, dtype) in [
            ("np.int8", DType::Int8),
            ("numpy.int8", DType::Int8),
            ("jnp.float32", DType::Float32),
            ("jax.numpy.bfloat16", DType::BFloat16),
            ("torch.float16", DType::Float16),
            ("mlx.core.bfloat16", DType::BFloat16),
            ("paddle.complex64", DType::Complex64),
            ("tf.int32", DType::Int32),
            ("tensorflow.complex64", DType::Complex64),
            ("ml_dtypes.float8_e4m3fn", DType::Float8E4M3Fn),
            ("dtype('int8')", DType::Int8),
            ("np.dtype(\"int8\")", DType::Int8),
            ("<class 'numpy.int8'>", DType::Int8),
            ("<class 'ml_dtypes.bfloat16'>", DType::BFloat16),
            ("<dtype: 'int32'>", DType::Int32),
            ("np.double", DType::Float64),
            ("dtypes.char", DType::Int8),
            ("dtypes.float", DType::Float32),
            ("dtypes.fp8e4m3", DType::Float8E4M3Fn),
            ("torch.chalf", DType::Complex32),
            ("torch.complex32", DType::Complex32),
            ("complex32", DType::Complex32),
        ] {
            assert_eq!(DType::from_name(spelling), Ok(dtype), "{spelling}");
        }
        // PyTorch's and TensorFlow's modules take their own names only:
        // torch.cfloat is complex64 there, NumPy's cfloat complex128.
        assert!(DType::from_name("torch.cfloat").is_err());
        assert!(DType::from_name("np.dtype(int8)").is_err());
        assert!(DType::from_name("pd.int8").is_err());
        // tinygrad's weak types are no dtypes.
        assert!(DType::from_name("dtypes.weakint").is_err());
    }

    #[test]
    fn every_name_round_trips() {
        for (name, dtype) in DType::names() {
            assert_eq!(DType::from_name(name), Ok(dtype), "{name}");
        }
        for dtype in DType::ALL {
            assert_eq!(dtype.name().parse::<DType>(), Ok(dtype));
        }
    }

    #[test]
    fn edit_distance_counts_swaps_once() {
        assert_eq!(edit_distance("unit8", "uint8"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn unknown_names_suggest_the_nearest() {
        let err = DType::from_name("bfloat61").unwrap_err();
        assert_eq!(err.suggestion(), Some("bfloat16"));
        let err = DType::from_name("xyzzy-plugh").unwrap_err();
        assert_eq!(err.suggestion(), None);
        assert_eq!(err.input(), "xyzzy-plugh");
    }
}
