//! Any operation a policy answers, by name: an elementwise [`Op`] or an
//! [`ArrayOp`] on whole arrays.
//!
//! The two are apart in the library because they are asked differently
//! (an `ArrayOp` takes keywords and answers the type it computes in, an
//! `Op` is the hot path), but a user names either the same way: `--op
//! add`, `--op sum`, batch's `"fn"`, Python's first argument. This is the
//! one parser of that name, so every surface accepts and refuses the same
//! names with the same words.

use core::fmt;
use core::str::FromStr;

use crate::prelude::*;
use crate::text::{nearest, quote};
use crate::types::{ArrayCall, ArrayOp, DType, KeywordError, Op, Operand};

/// An operation by name.
///
/// ```
/// use dtype_lattice::{ArrayOp, Op, Operation};
/// assert_eq!("add".parse(), Ok(Operation::Elementwise(Op::Add)));
/// assert_eq!("cumulative_sum".parse(), Ok(Operation::Array(ArrayOp::CumSum)));
/// let err = "matmull".parse::<Operation>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown operation 'matmull': did you mean 'matmul'?");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operation {
    /// One of the elementwise operations.
    Elementwise(Op),
    /// A reduction, contraction or combination.
    Array(ArrayOp),
}

impl Operation {
    /// Every operation: the elementwise ones, then those on whole arrays.
    pub fn all() -> impl Iterator<Item = Operation> {
        Op::ALL
            .into_iter()
            .map(Operation::Elementwise)
            .chain(ArrayOp::ALL.into_iter().map(Operation::Array))
    }

    /// How many operands it takes.
    pub fn operands(self) -> core::ops::RangeInclusive<usize> {
        match self {
            Operation::Elementwise(op) => op.arity()..=op.arity(),
            Operation::Array(op) => op.operands(),
        }
    }

    /// Why `given` operands are not what it takes, in the words every
    /// surface gives; `None` when they are.
    ///
    /// ```
    /// use dtype_lattice::{ArrayOp, Operation};
    /// let clip = Operation::Array(ArrayOp::Clip);
    /// assert_eq!(clip.miscount(1).unwrap(), "clip takes 2 to 3 operands, not 1");
    /// assert_eq!(clip.miscount(3), None);
    /// ```
    pub fn miscount(self, given: usize) -> Option<String> {
        let taken = self.operands();
        if taken.contains(&given) {
            return None;
        }
        let (low, high) = (*taken.start(), *taken.end());
        let count = if low == high {
            low.to_string()
        } else {
            format!("{low} to {high}")
        };
        let plural = if high == 1 { "" } else { "s" };
        Some(format!("{self} takes {count} operand{plural}, not {given}"))
    }

    /// Its name on every surface.
    pub const fn name(self) -> &'static str {
        match self {
            Operation::Elementwise(op) => op.name(),
            Operation::Array(op) => op.name(),
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Op> for Operation {
    fn from(op: Op) -> Operation {
        Operation::Elementwise(op)
    }
}

impl From<ArrayOp> for Operation {
    fn from(op: ArrayOp) -> Operation {
        Operation::Array(op)
    }
}

impl FromStr for Operation {
    type Err = ParseOperationError;

    fn from_str(s: &str) -> Result<Operation, ParseOperationError> {
        if let Ok(op) = s.parse::<Op>() {
            return Ok(Operation::Elementwise(op));
        }
        s.parse::<ArrayOp>()
            .map(Operation::Array)
            .map_err(|_| ParseOperationError {
                input: s.to_owned(),
            })
    }
}

/// A name that is no operation, with the nearest one of either kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOperationError {
    input: String,
}

impl fmt::Display for ParseOperationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown operation {}", quote(&self.input, '\''))?;
        match nearest(&self.input, Operation::all().map(Operation::name)) {
            Some(near) => write!(f, ": did you mean '{near}'?"),
            None => {
                let all: Vec<&str> = Operation::all().map(Operation::name).collect();
                write!(f, " (known: {})", all.join(", "))
            }
        }
    }
}

impl core::error::Error for ParseOperationError {}

/// An operation with its keywords, checked: what every surface asks a
/// policy ([`dyn Policy::ask`](crate::Policy#method.ask)).
///
/// ```
/// use dtype_lattice::{Asked, DType, Op, Operation};
/// let sum: Operation = "sum".parse().unwrap();
/// assert!(matches!(sum.asked(Some(DType::Int64), None), Ok(Asked::Array(_))));
/// let add = Operation::Elementwise(Op::Add);
/// assert_eq!(add.asked(None, None), Ok(Asked::Elementwise(Op::Add)));
/// assert!(add.asked(Some(DType::Int64), None).unwrap_err().to_string().starts_with("add takes no dtype="));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Asked {
    /// An elementwise operation, which takes no keywords.
    Elementwise(Op),
    /// An operation on whole arrays with its keywords.
    Array(ArrayCall),
}

impl Asked {
    /// With `initial=` ([`ArrayCall::with_initial`]), or why the operation
    /// takes none (no elementwise one does): the one place every surface
    /// adds it.
    ///
    /// ```
    /// use dtype_lattice::{ArrayOp, Asked, Op, Operand, Operation};
    /// let max = Operation::Array(ArrayOp::Max).asked(None, None).unwrap();
    /// assert_eq!(max.with_initial(Operand::py_int(300)).unwrap().to_string(), "max(initial=300)");
    /// let add = Operation::Elementwise(Op::Add).asked(None, None).unwrap();
    /// assert!(add.with_initial(Operand::py_int(0)).unwrap_err().to_string().starts_with("add takes no initial="));
    /// ```
    pub fn with_initial(self, value: Operand) -> Result<Asked, KeywordError> {
        match self {
            Asked::Array(call) => call.with_initial(value).map(Asked::Array),
            Asked::Elementwise(op) => Err(KeywordError {
                op: Operation::Elementwise(op),
                keyword: "initial",
            }),
        }
    }
}

impl Operation {
    /// The operation with these keywords (`dtype=`, JAX's
    /// `promote_integers=`), or the first it does not take.
    pub fn asked(
        self,
        dtype: Option<DType>,
        promote_integers: Option<bool>,
    ) -> Result<Asked, KeywordError> {
        match self {
            Operation::Elementwise(op) => {
                let keyword = match (dtype, promote_integers) {
                    (Some(_), _) => "dtype",
                    (None, Some(_)) => "promote_integers",
                    (None, None) => return Ok(Asked::Elementwise(op)),
                };
                Err(KeywordError { op: self, keyword })
            }
            Operation::Array(op) => {
                let mut call = ArrayCall::new(op);
                if let Some(dtype) = dtype {
                    call = call.with_dtype(dtype)?;
                }
                if let Some(on) = promote_integers {
                    call = call.with_promote_integers(on)?;
                }
                Ok(Asked::Array(call))
            }
        }
    }
}

impl Asked {
    /// The operation asked.
    pub fn operation(self) -> Operation {
        match self {
            Asked::Elementwise(op) => Operation::Elementwise(op),
            Asked::Array(call) => Operation::Array(call.op()),
        }
    }
}

impl fmt::Display for Asked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Asked::Elementwise(op) => write!(f, "{op}"),
            Asked::Array(call) => write!(f, "{call}"),
        }
    }
}
