//! The operations on whole arrays: reductions, contractions and the
//! functions that combine several arrays or pin the result's type.
//!
//! An elementwise [`Op`](crate::Op) promotes its operands and applies a
//! rule to the promoted type. These do more, and each framework does it
//! its own way: `sum` of an `int8` array accumulates in the platform's
//! default integer in NumPy and PyTorch, in `int32` in JAX without x64,
//! in `int8` in TensorFlow; a `float16` `mean` in JAX computes in
//! `float32` and casts back; `dtype=` and JAX's `promote_integers` change
//! the answer. [`ArrayOp`] names them, [`ArrayCall`] pairs one with its
//! keywords, checked once so that every surface refuses the same
//! questions with the same words, and [`Outcome`] is the answer: the
//! result, and the type the framework computes in where it says.
//!
//! ```
//! use dtype_lattice::registry::{by_name, Settings};
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand};
//! let numpy = by_name("numpy", Settings::default()).unwrap();
//! let sum = ArrayCall::new(ArrayOp::Sum);
//! let x = Operand::array(DType::Int8, false);
//! if let Some(answer) = numpy.array_op(&sum, &[x]) {
//!     assert_eq!(answer.unwrap().result().dtype, DType::Int64);
//! }
//! ```

use core::fmt;
use core::str::FromStr;

use crate::prelude::*;
use crate::text::{nearest, quote};
use crate::types::{DType, Operand, OperandKind, Operation};

/// What an [`ArrayOp`] does with its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Reduces one array along an axis (`sum`, `mean`, `argmax`) or
    /// accumulates along it (`cumsum`).
    Reduction,
    /// Multiplies two arrays and sums the products (`matmul`, `einsum`).
    Contraction,
    /// Combines several arrays, or an array and a value, into one
    /// (`where`, `clip`, `concatenate`, `full_like`).
    Combination,
}

impl Family {
    /// Its name in the docs and the explorer's menus.
    pub const fn name(self) -> &'static str {
        match self {
            Family::Reduction => "reduction",
            Family::Contraction => "contraction",
            Family::Combination => "combination",
        }
    }
}

/// An operation on whole arrays, named as NumPy names its function.
///
/// ```
/// use dtype_lattice::{ArrayOp, Family};
/// assert_eq!("cumulative_sum".parse::<ArrayOp>(), Ok(ArrayOp::CumSum)); // the Array API's name
/// assert_eq!(ArrayOp::Matmul.family(), Family::Contraction);
/// assert_eq!(ArrayOp::Where.operands(), 3..=3);
/// let err = "summ".parse::<ArrayOp>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown operation 'summ': did you mean 'sum'?");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // each is NumPy's function of that name
pub enum ArrayOp {
    Sum,
    Prod,
    CumSum,
    CumProd,
    Mean,
    Var,
    Std,
    Max,
    Min,
    ArgMax,
    ArgMin,
    Any,
    All,
    Matmul,
    Dot,
    Tensordot,
    Einsum,
    Where,
    Clip,
    Concatenate,
    Stack,
    FullLike,
}

/// The most arrays `concatenate` and `stack` are asked about at once: a
/// bound on every question's size, far past the promotion questions
/// people ask of a sequence (its answer is the result type of them all).
pub const MAX_SEQUENCE: usize = 32;

/// One row of [`TABLE`]: the operation, its name, family, fewest and most
/// operands, and whether it takes `dtype=`.
struct Row(ArrayOp, &'static str, Family, usize, usize, bool);

use Family::{Combination as C, Contraction as K, Reduction as R};

/// Each operation, in the enum's order: the one table the rest reads.
/// `dtype=` is the accumulator's or result's type (NumPy's `dtype`,
/// JAX's `preferred_element_type` for a contraction, `full_like`'s
/// `dtype`); `clip` takes the array and one or both bounds.
const TABLE: [Row; ArrayOp::COUNT] = [
    Row(ArrayOp::Sum, "sum", R, 1, 1, true),
    Row(ArrayOp::Prod, "prod", R, 1, 1, true),
    Row(ArrayOp::CumSum, "cumsum", R, 1, 1, true),
    Row(ArrayOp::CumProd, "cumprod", R, 1, 1, true),
    Row(ArrayOp::Mean, "mean", R, 1, 1, true),
    Row(ArrayOp::Var, "var", R, 1, 1, true),
    Row(ArrayOp::Std, "std", R, 1, 1, true),
    Row(ArrayOp::Max, "max", R, 1, 1, false),
    Row(ArrayOp::Min, "min", R, 1, 1, false),
    Row(ArrayOp::ArgMax, "argmax", R, 1, 1, false),
    Row(ArrayOp::ArgMin, "argmin", R, 1, 1, false),
    Row(ArrayOp::Any, "any", R, 1, 1, false),
    Row(ArrayOp::All, "all", R, 1, 1, false),
    Row(ArrayOp::Matmul, "matmul", K, 2, 2, true),
    Row(ArrayOp::Dot, "dot", K, 2, 2, true),
    Row(ArrayOp::Tensordot, "tensordot", K, 2, 2, true),
    Row(ArrayOp::Einsum, "einsum", K, 2, 2, true),
    Row(ArrayOp::Where, "where", C, 3, 3, false),
    Row(ArrayOp::Clip, "clip", C, 2, 3, false),
    Row(
        ArrayOp::Concatenate,
        "concatenate",
        C,
        1,
        MAX_SEQUENCE,
        false,
    ),
    Row(ArrayOp::Stack, "stack", C, 1, MAX_SEQUENCE, false),
    Row(ArrayOp::FullLike, "full_like", C, 2, 2, true),
];

/// Other names people type: the Array API's, PyTorch's.
const ALIASES: &[(&str, ArrayOp)] = &[
    ("cumulative_sum", ArrayOp::CumSum),
    ("cumulative_prod", ArrayOp::CumProd),
    ("amax", ArrayOp::Max),
    ("amin", ArrayOp::Min),
    ("concat", ArrayOp::Concatenate),
    ("clamp", ArrayOp::Clip),
];

impl ArrayOp {
    /// How many there are.
    pub const COUNT: usize = 22;

    /// Every one: the reductions, the contractions, the combinations.
    pub const ALL: [ArrayOp; ArrayOp::COUNT] = {
        let mut all = [ArrayOp::Sum; ArrayOp::COUNT];
        let mut i = 0;
        while i < ArrayOp::COUNT {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    /// NumPy's name for it.
    pub const fn name(self) -> &'static str {
        TABLE[self as usize].1
    }

    /// Its family.
    pub const fn family(self) -> Family {
        TABLE[self as usize].2
    }

    /// How many operands it takes: a reduction the array, a contraction
    /// two, `where` the condition and two values, `clip` the array and one
    /// or two bounds, `concatenate` and `stack` the sequence's arrays,
    /// `full_like` the array and the fill value.
    pub const fn operands(self) -> core::ops::RangeInclusive<usize> {
        TABLE[self as usize].3..=TABLE[self as usize].4
    }

    /// How many operands it is usually given: two where it takes two (a
    /// pair of arrays, an array and a value), else the fewest it takes (a
    /// reduction's array, `where`'s condition and values): what a table, a
    /// probe and the explorer's playground give it.
    pub fn usual_operands(self) -> usize {
        let taken = self.operands();
        if taken.contains(&2) {
            2
        } else {
            *taken.start()
        }
    }

    /// Whether it takes `dtype=` (a contraction's is JAX's
    /// `preferred_element_type`).
    pub const fn takes_dtype(self) -> bool {
        TABLE[self as usize].5
    }
}

impl fmt::Display for ArrayOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ArrayOp {
    type Err = ParseArrayOpError;

    fn from_str(s: &str) -> Result<ArrayOp, ParseArrayOpError> {
        let name = s.trim();
        TABLE
            .iter()
            .find(|row| row.1 == name)
            .map(|row| row.0)
            .or_else(|| ALIASES.iter().find(|(a, _)| *a == name).map(|(_, op)| *op))
            .ok_or_else(|| ParseArrayOpError {
                input: s.to_owned(),
            })
    }
}

/// A name that is no [`ArrayOp`], with the nearest one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseArrayOpError {
    input: String,
}

impl fmt::Display for ParseArrayOpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown operation {}", quote(&self.input, '\''))?;
        let names = TABLE.iter().map(|row| row.1);
        match nearest(&self.input, names.chain(ALIASES.iter().map(|(a, _)| *a))) {
            Some(near) => write!(f, ": did you mean '{near}'?"),
            None => {
                let all: Vec<&str> = TABLE.iter().map(|row| row.1).collect();
                write!(f, " (known: {})", all.join(", "))
            }
        }
    }
}

impl core::error::Error for ParseArrayOpError {}

/// An [`ArrayOp`] with its keywords: `dtype=`, JAX's
/// `promote_integers=` and NumPy's `initial=`. Made with [`ArrayCall::new`]
/// and the `with_` methods, which refuse a keyword the operation does not
/// take, so a policy is never asked for `argmax(dtype=...)`.
///
/// ```
/// use dtype_lattice::{ArrayCall, ArrayOp, DType};
/// let call = ArrayCall::new(ArrayOp::Sum).with_dtype(DType::Int64).unwrap();
/// assert_eq!(call.to_string(), "sum(dtype=int64)");
/// let err = ArrayCall::new(ArrayOp::ArgMax).with_dtype(DType::Int64).unwrap_err();
/// assert_eq!(err.to_string(), "argmax takes no dtype=: it answers an index \
///     (the operations that take one: sum, prod, cumsum, cumprod, mean, var, std, \
///     matmul, dot, tensordot, einsum, full_like)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArrayCall {
    op: ArrayOp,
    /// No keyword given ([`is_plain`](ArrayCall::is_plain)), kept as it is
    /// set: the tables ask it of every call, and one byte reads faster
    /// than three fields.
    plain: bool,
    dtype: Option<DType>,
    promote_integers: Option<bool>,
    initial: Option<Initial>,
}

/// `initial=`'s Python number, its float parts by their bits, so that a
/// call is `Eq` and `Hash` (a NaN initial equals itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Initial {
    Bool(bool),
    Int(i128),
    Float(u64),
    Complex(u64, u64),
}

impl ArrayCall {
    /// `op` with no keywords: the framework's defaults.
    pub const fn new(op: ArrayOp) -> ArrayCall {
        ArrayCall {
            op,
            plain: true,
            dtype: None,
            promote_integers: None,
            initial: None,
        }
    }

    /// `self` with [`plain`](ArrayCall::plain) matching its keywords.
    const fn settled(self) -> ArrayCall {
        ArrayCall {
            plain: self.dtype.is_none()
                && self.promote_integers.is_none()
                && self.initial.is_none(),
            ..self
        }
    }

    /// With `dtype=`, or why the operation takes none.
    pub fn with_dtype(self, dtype: DType) -> Result<ArrayCall, KeywordError> {
        if !self.op.takes_dtype() {
            return Err(KeywordError {
                op: self.op.into(),
                keyword: "dtype",
            });
        }
        Ok(ArrayCall {
            dtype: Some(dtype),
            ..self
        }
        .settled())
    }

    /// With JAX's `promote_integers=` (whether `sum` and `prod` of small
    /// integers accumulate in the default integer), or why the operation
    /// takes none: only `sum`, `prod`, `cumsum` and `cumprod` have it.
    pub fn with_promote_integers(self, on: bool) -> Result<ArrayCall, KeywordError> {
        if !matches!(
            self.op,
            ArrayOp::Sum | ArrayOp::Prod | ArrayOp::CumSum | ArrayOp::CumProd
        ) {
            return Err(KeywordError {
                op: self.op.into(),
                keyword: "promote_integers",
            });
        }
        Ok(ArrayCall {
            promote_integers: Some(on),
            ..self
        }
        .settled())
    }

    /// The same call without JAX's `promote_integers=`: as another
    /// framework, which has no such keyword, is asked it.
    pub const fn without_promote_integers(self) -> ArrayCall {
        ArrayCall {
            promote_integers: None,
            ..self
        }
        .settled()
    }

    /// The same call without `dtype=`: the framework's own choice, a
    /// reduction table's first column.
    pub const fn without_dtype(self) -> ArrayCall {
        ArrayCall {
            dtype: None,
            ..self
        }
        .settled()
    }

    /// With `initial=` (NumPy's and JAX's first value of a `sum`, `prod`,
    /// `max` or `min`, which NumPy converts to the reduction's type: the
    /// conversion, not the type, can fail), or why the operation takes
    /// none. The value is a Python number (a Python type stands for its
    /// usual value, as [`Operand::as_argument`] says); `None` is no
    /// `initial=`, as in Python.
    ///
    /// ```
    /// use dtype_lattice::{ArrayCall, ArrayOp, Operand};
    /// let call = ArrayCall::new(ArrayOp::Max).with_initial(Operand::py_int(300)).unwrap();
    /// assert_eq!(call.to_string(), "max(initial=300)");
    /// assert_eq!(call.initial(), Some(Operand::py_int(300)));
    /// let err = ArrayCall::new(ArrayOp::Mean).with_initial(Operand::py_int(0)).unwrap_err();
    /// assert_eq!(err.to_string(), "mean takes no initial=: NumPy and JAX have it on sum, prod, max and min");
    /// let err = ArrayCall::new(ArrayOp::Sum).with_initial("int8".parse().unwrap()).unwrap_err();
    /// assert!(err.to_string().starts_with("sum's initial= is a Python number"));
    /// ```
    pub fn with_initial(self, value: Operand) -> Result<ArrayCall, KeywordError> {
        let refused = KeywordError {
            op: self.op.into(),
            keyword: "initial",
        };
        if !takes_initial(self.op) {
            return Err(refused);
        }
        let initial = match value.as_argument().kind() {
            OperandKind::None => None,
            OperandKind::PyBool(b) => Some(Initial::Bool(b)),
            OperandKind::PyInt(i) => Some(Initial::Int(i)),
            OperandKind::PyFloat(f) => Some(Initial::Float(f.to_bits())),
            OperandKind::PyComplex { real, imag } => {
                Some(Initial::Complex(real.to_bits(), imag.to_bits()))
            }
            _ => return Err(refused),
        };
        Ok(ArrayCall { initial, ..self }.settled())
    }

    /// The operation.
    pub const fn op(self) -> ArrayOp {
        self.op
    }

    /// `dtype=`, if given.
    pub const fn dtype(self) -> Option<DType> {
        self.dtype
    }

    /// `promote_integers=`, if given.
    pub const fn promote_integers(self) -> Option<bool> {
        self.promote_integers
    }

    /// Whether the call has no keywords: the framework's defaults, which a
    /// policy's tables may answer.
    ///
    /// ```
    /// use dtype_lattice::{ArrayCall, ArrayOp, DType};
    /// assert!(ArrayCall::new(ArrayOp::Sum).is_plain());
    /// assert!(!ArrayCall::new(ArrayOp::Sum).with_dtype(DType::Int64).unwrap().is_plain());
    /// ```
    #[inline]
    pub const fn is_plain(self) -> bool {
        self.plain
    }

    /// `initial=`, if given: a Python number.
    pub fn initial(self) -> Option<Operand> {
        self.initial.map(|initial| match initial {
            Initial::Bool(b) => Operand::py_bool(b),
            Initial::Int(i) => Operand::py_int(i),
            Initial::Float(bits) => Operand::py_float(f64::from_bits(bits)),
            Initial::Complex(real, imag) => {
                Operand::py_complex(f64::from_bits(real), f64::from_bits(imag))
            }
        })
    }
}

/// The reductions NumPy and JAX give `initial=`.
const fn takes_initial(op: ArrayOp) -> bool {
    matches!(
        op,
        ArrayOp::Sum | ArrayOp::Prod | ArrayOp::Max | ArrayOp::Min
    )
}

impl ArrayCall {
    /// The call as a program writes it on `arguments`, its keywords after
    /// them.
    ///
    /// ```
    /// use dtype_lattice::{ArrayCall, ArrayOp, DType};
    /// let sum = ArrayCall::new(ArrayOp::Sum).with_dtype(DType::Int64).unwrap();
    /// assert_eq!(sum.written("x"), "sum(x, dtype=int64)");
    /// assert_eq!(ArrayCall::new(ArrayOp::Max).written("x"), "max(x)");
    /// ```
    pub fn written(self, arguments: &str) -> String {
        let parts: Vec<String> = core::iter::once(arguments.to_owned())
            .filter(|a| !a.is_empty())
            .chain(self.keywords())
            .collect();
        format!("{}({})", self.op, parts.join(", "))
    }

    /// The keywords given, as Python writes them.
    fn keywords(self) -> Vec<String> {
        let mut keywords = Vec::new();
        if let Some(dtype) = self.dtype {
            keywords.push(format!("dtype={dtype}"));
        }
        if let Some(on) = self.promote_integers {
            keywords.push(format!(
                "promote_integers={}",
                if on { "True" } else { "False" }
            ));
        }
        if let Some(initial) = self.initial() {
            keywords.push(format!("initial={initial}"));
        }
        keywords
    }
}

/// The operation's name, and its keywords where any is given
/// (`sum(dtype=int64)`).
impl fmt::Display for ArrayCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_plain() {
            write!(f, "{}", self.op)
        } else {
            f.write_str(&self.written(""))
        }
    }
}

/// A keyword an operation does not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeywordError {
    pub(crate) op: Operation,
    pub(crate) keyword: &'static str,
}

impl fmt::Display for KeywordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keyword = self.keyword;
        let op = match self.op {
            Operation::Array(op) => op,
            Operation::Elementwise(op) => {
                return write!(
                    f,
                    "{op} takes no {keyword}=: it is an elementwise operation, whose result is \
                     its operands' promotion (the keywords are the reductions', contractions' \
                     and combinations')"
                )
            }
        };
        if keyword == "dtype" {
            let why = match op {
                ArrayOp::ArgMax | ArrayOp::ArgMin => "it answers an index",
                ArrayOp::Any | ArrayOp::All => "it answers a bool",
                ArrayOp::Max | ArrayOp::Min => "it answers the array's own type",
                _ => "its result is its operands' promotion",
            };
            let takers: Vec<&str> = ArrayOp::ALL
                .into_iter()
                .filter(|o| o.takes_dtype())
                .map(ArrayOp::name)
                .collect();
            return write!(
                f,
                "{op} takes no dtype=: {why} (the operations that take one: {})",
                takers.join(", ")
            );
        }
        if keyword == "initial" {
            return if takes_initial(op) {
                write!(
                    f,
                    "{op}'s initial= is a Python number (bool, int, float or complex) or None"
                )
            } else {
                write!(
                    f,
                    "{op} takes no initial=: NumPy and JAX have it on sum, prod, max and min"
                )
            };
        }
        write!(
            f,
            "{op} takes no {keyword}=: JAX has it on sum, prod, cumsum and cumprod"
        )
    }
}

impl core::error::Error for KeywordError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_enums_order_and_names_parse_back() {
        for (i, op) in ArrayOp::ALL.into_iter().enumerate() {
            assert_eq!(op as usize, i);
            assert_eq!(op.name().parse::<ArrayOp>(), Ok(op));
            assert!(op.operands().start() <= op.operands().end());
        }
    }

    #[test]
    fn no_name_is_also_an_elementwise_operations() {
        for op in ArrayOp::ALL {
            assert!(op.name().parse::<crate::Op>().is_err(), "{op}");
        }
    }

    #[test]
    fn promote_integers_is_refused_where_jax_has_none() {
        let err = ArrayCall::new(ArrayOp::Mean)
            .with_promote_integers(false)
            .unwrap_err();
        assert!(err
            .to_string()
            .starts_with("mean takes no promote_integers="));
    }
}
