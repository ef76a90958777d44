//! The operations a policy answers the result type of, beyond promotion.
//!
//! Promotion decides the type an operation computes in; the operation then
//! decides its result: `int32 / int32` promotes to `int32` and divides in a
//! float, `int8 < uint8` compares in `int16` and answers `bool`. [`Op`]
//! names the operations by NumPy's names, which the other frameworks'
//! functions mostly share; each policy says what its framework does with
//! them ([`Policy::operation`](crate::Policy::operation)).

use core::fmt;
use core::str::FromStr;

use crate::prelude::*;
use crate::text::{nearest, quote};
use crate::types::{ArrayOp, Call, Elsewhere, Operand};

/// An operation, named as NumPy names its ufunc.
///
/// ```
/// use dtype_lattice::Op;
/// let op: Op = "true_divide".parse().unwrap();
/// assert_eq!(op, Op::TrueDivide);
/// assert_eq!(op.arity(), 2);
/// assert_eq!("divide".parse::<Op>(), Ok(Op::TrueDivide)); // NumPy's alias
/// let err = "sqrtt".parse::<Op>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown operation 'sqrtt': did you mean 'sqrt'?");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // each is NumPy's ufunc of that name
pub enum Op {
    Add,
    Subtract,
    Multiply,
    TrueDivide,
    FloorDivide,
    Remainder,
    Power,
    Maximum,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXor,
    LogicalAnd,
    Negative,
    Abs,
    Sign,
    Sqrt,
    Exp,
    Floor,
}

/// Each operation with its name and arity, in [`Op::ALL`]'s order: the
/// one table the rest reads.
const TABLE: [(Op, &str, usize); Op::COUNT] = [
    (Op::Add, "add", 2),
    (Op::Subtract, "subtract", 2),
    (Op::Multiply, "multiply", 2),
    (Op::TrueDivide, "true_divide", 2),
    (Op::FloorDivide, "floor_divide", 2),
    (Op::Remainder, "remainder", 2),
    (Op::Power, "power", 2),
    (Op::Maximum, "maximum", 2),
    (Op::Equal, "equal", 2),
    (Op::NotEqual, "not_equal", 2),
    (Op::Less, "less", 2),
    (Op::LessEqual, "less_equal", 2),
    (Op::Greater, "greater", 2),
    (Op::GreaterEqual, "greater_equal", 2),
    (Op::BitwiseAnd, "bitwise_and", 2),
    (Op::BitwiseOr, "bitwise_or", 2),
    (Op::BitwiseXor, "bitwise_xor", 2),
    (Op::LogicalAnd, "logical_and", 2),
    (Op::Negative, "negative", 1),
    (Op::Abs, "abs", 1),
    (Op::Sign, "sign", 1),
    (Op::Sqrt, "sqrt", 1),
    (Op::Exp, "exp", 1),
    (Op::Floor, "floor", 1),
];

/// Other names people type for an operation: NumPy's aliases and the
/// Array API's names.
const ALIASES: &[(&str, Op)] = &[
    ("divide", Op::TrueDivide),
    ("mod", Op::Remainder),
    ("pow", Op::Power),
    ("absolute", Op::Abs),
    ("negate", Op::Negative),
];

impl Op {
    /// How many operations there are.
    pub const COUNT: usize = 24;

    /// Every operation: the binary ones, then the unary.
    pub const ALL: [Op; Op::COUNT] = {
        let mut all = [Op::Add; Op::COUNT];
        let mut i = 0;
        while i < Op::COUNT {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    /// NumPy's name for it.
    pub const fn name(self) -> &'static str {
        TABLE[self as usize].1
    }

    /// How many operands it takes: 1 or 2.
    pub const fn arity(self) -> usize {
        TABLE[self as usize].2
    }

    /// Whether it answers `bool` whatever it compares.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            Op::Equal | Op::NotEqual | Op::Less | Op::LessEqual | Op::Greater | Op::GreaterEqual
        )
    }
}

/// An operation's operands as it takes them, read in place (the hot path
/// does not allocate): each mapped by the framework's reading, once their
/// number is the operation's.
pub(crate) struct Arguments {
    values: [Operand; 2],
    len: usize,
}

impl Arguments {
    /// `None` when `operands` are not `op`'s number (the framework words
    /// that error itself).
    pub(crate) fn new(
        op: Op,
        operands: &[Operand],
        read: impl Fn(Operand) -> Operand,
    ) -> Option<Arguments> {
        if operands.len() != op.arity() {
            return None;
        }
        let mut values = [Operand::NONE; 2];
        for (value, operand) in values.iter_mut().zip(operands) {
            *value = read(*operand);
        }
        Some(Arguments {
            values,
            len: operands.len(),
        })
    }

    /// The operands read.
    pub(crate) fn get(&self) -> &[Operand] {
        &self.values[..self.len]
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`Op`], with the nearest one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOpError {
    input: String,
}

impl fmt::Display for ParseOpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown operation {}", quote(&self.input, '\''))?;
        let names = TABLE.iter().map(|(_, name, _)| *name);
        match nearest(
            &self.input,
            names.chain(ALIASES.iter().map(|(name, _)| *name)),
        ) {
            Some(near) => write!(f, ": did you mean '{near}'?"),
            None => {
                let all: Vec<&str> = TABLE.iter().map(|(_, name, _)| *name).collect();
                write!(f, " (known: {})", all.join(", "))
            }
        }
    }
}

impl core::error::Error for ParseOpError {}

/// Why a policy gives no answer for an operation, in the words every front
/// end gives (the command line's `--op`, the explorer's API).
///
/// ```
/// use dtype_lattice::{Op, Unanswered};
/// let torch = Unanswered::NotModelled { policy: "torch".into(), op: Op::Less };
/// assert_eq!(
///     torch.to_string(),
///     "torch does not model less yet; docs/policies.md lists the policies that do"
/// );
/// assert!(Unanswered::NoTable(Op::Sqrt).to_string().starts_with("sqrt takes one operand"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// The policy (named as [`Policy::name`](crate::Policy::name) names it)
    /// does not model the operation: [`Policy::operation`](crate::Policy::operation)
    /// answers `None`.
    NotModelled {
        /// The policy's name.
        policy: String,
        /// The operation.
        op: Op,
    },
    /// The policy does not model the operation on whole arrays:
    /// [`Policy::array_op`](crate::Policy::array_op) answers `None`.
    ArrayOpNotModelled {
        /// The policy's name.
        policy: String,
        /// The operation.
        op: ArrayOp,
    },
    /// The operation takes one operand, so it has no table of pairs.
    NoTable(Op),
    /// The policy does not model the operation in this form (or the
    /// assignment): [`dyn Policy::call`](crate::Policy#method.call)
    /// answers `None`.
    CallNotModelled {
        /// The policy's name.
        policy: String,
        /// The call.
        call: Call,
    },
    /// The policy has no such form by design, and another policy answers
    /// it ([`Policy::answered_by`](crate::Policy::answered_by)): the error
    /// names that policy.
    AnsweredBy {
        /// The policy's name.
        policy: String,
        /// The call.
        call: Call,
        /// The policy that answers it, and why.
        by: Elsewhere,
    },
}

impl fmt::Display for Unanswered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unanswered::NotModelled { policy, op } => write!(
                f,
                "{policy} does not model {op} yet; docs/policies.md lists the policies that do"
            ),
            Unanswered::ArrayOpNotModelled { policy, op } => write!(
                f,
                "{policy} does not model {op} yet; docs/policies.md lists the policies that do"
            ),
            Unanswered::CallNotModelled { policy, call } => write!(
                f,
                "{policy} does not model {call} yet; docs/policies.md lists what each policy models"
            ),
            Unanswered::AnsweredBy { policy, call, by } => write!(
                f,
                "{policy} does not answer {call}: {}; ask policy '{}' for it",
                by.why, by.policy
            ),
            Unanswered::NoTable(op) => write!(
                f,
                "{op} takes one operand, so it has no table: ask `dtype-lattice result-type --op {op} TYPE`"
            ),
        }
    }
}

impl core::error::Error for Unanswered {}

impl FromStr for Op {
    type Err = ParseOpError;

    fn from_str(s: &str) -> Result<Op, ParseOpError> {
        let name = s.trim();
        TABLE
            .iter()
            .find(|(_, known, _)| *known == name)
            .map(|(op, _, _)| *op)
            .or_else(|| {
                ALIASES
                    .iter()
                    .find(|(alias, _)| *alias == name)
                    .map(|(_, op)| *op)
            })
            .ok_or_else(|| ParseOpError {
                input: s.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_enums_order_and_names_parse_back() {
        for (i, op) in Op::ALL.into_iter().enumerate() {
            assert_eq!(op as usize, i);
            assert_eq!(op.name().parse::<Op>(), Ok(op));
        }
        assert_eq!(Op::ALL.iter().filter(|op| op.arity() == 1).count(), 6);
    }

    #[test]
    fn a_name_far_from_every_operation_lists_them() {
        let message = "zzzzzzzzzzzz".parse::<Op>().unwrap_err().to_string();
        assert!(message.contains("(known: add, subtract,"), "{message}");
    }
}
