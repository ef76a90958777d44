//! JAX's `lax` primitives as the operations reach them: which classes of
//! dtype each takes, at which position, and what it gives. One table for
//! `jax.numpy`'s functions (which promote first, `ops.rs`) and `jax.lax`'s
//! (which do not, [`JaxLax`](super::JaxLax)).

use crate::frameworks::common::{OpTable, Output};
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, Op, PromotionError};

/// A class of dtypes a primitive accepts, as its messages name them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    Integer,
    SignedInteger,
    Bool,
    Floating,
    Complex,
}

impl Class {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Class::Integer => "integer",
            Class::SignedInteger => "signedinteger",
            Class::Bool => "bool",
            Class::Floating => "floating",
            Class::Complex => "complexfloating",
        }
    }

    fn contains(self, dtype: DType) -> bool {
        match self {
            Class::Integer => dtype.is_integer(),
            Class::SignedInteger => dtype.kind() == Kind::Signed,
            Class::Bool => dtype == DType::Bool,
            Class::Floating => dtype.kind() == Kind::Float,
            Class::Complex => dtype.kind() == Kind::Complex,
        }
    }
}

pub(crate) const NUMBER: &[Class] = &[Class::Integer, Class::Floating, Class::Complex];
pub(crate) const INTEGRAL: &[Class] = &[Class::Integer, Class::Bool];
pub(crate) const REAL: &[Class] = &[Class::Integer, Class::Floating];
pub(crate) const ORDERED: &[Class] = &[Class::Integer, Class::Bool, Class::Floating];
pub(crate) const INEXACT: &[Class] = &[Class::Floating, Class::Complex];
pub(crate) const FLOATING: &[Class] = &[Class::Floating];
pub(crate) const ANY: &[Class] = &[Class::Integer, Class::Bool, Class::Floating, Class::Complex];
const SIGNED: &[Class] = &[Class::Floating, Class::Complex, Class::SignedInteger];

/// One primitive.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Primitive {
    /// Its name in messages (`sub`, `and`, `lt`).
    pub(crate) name: &'static str,
    /// The classes it takes at each position (the second unused by a
    /// unary primitive).
    pub(crate) accepts: [&'static [Class]; 2],
    /// The `jax.numpy` function its "same dtypes" message points to, where
    /// it points to one.
    pub(crate) tip: Option<&'static str>,
    pub(crate) gives: Output,
    /// How many operands it takes.
    pub(crate) arity: usize,
}

const fn binary(
    name: &'static str,
    accepts: &'static [Class],
    tip: Option<&'static str>,
) -> Option<Primitive> {
    two(name, accepts, tip, Output::Same)
}

const fn compare(
    name: &'static str,
    accepts: &'static [Class],
    tip: Option<&'static str>,
) -> Option<Primitive> {
    two(name, accepts, tip, Output::Bool)
}

/// A binary primitive taking the same classes at both positions.
const fn two(
    name: &'static str,
    accepts: &'static [Class],
    tip: Option<&'static str>,
    gives: Output,
) -> Option<Primitive> {
    Some(Primitive {
        name,
        accepts: [accepts, accepts],
        tip,
        gives,
        arity: 2,
    })
}

const fn unary(name: &'static str, accepts: &'static [Class], gives: Output) -> Option<Primitive> {
    Some(Primitive {
        name,
        accepts: [accepts, accepts],
        tip: None,
        gives,
        arity: 1,
    })
}

/// The primitive of each operation, by [`Op`]'s order; `None` where `lax`
/// has none (`floor_divide`, `logical_and`: `jnp` composes them).
pub(crate) const PRIMITIVES: OpTable<Option<Primitive>> = OpTable::new([
    (Op::Add, binary("add", NUMBER, Some("add"))),
    (Op::Subtract, binary("sub", NUMBER, Some("subtract"))),
    (Op::Multiply, binary("mul", NUMBER, Some("multiply"))),
    (Op::TrueDivide, binary("div", NUMBER, Some("divide"))),
    (Op::FloorDivide, None),
    (Op::Remainder, binary("rem", REAL, None)),
    // A float or complex base; an integer exponent, or the base's dtype.
    (
        Op::Power,
        Some(Primitive {
            name: "pow",
            accepts: [INEXACT, NUMBER],
            tip: None,
            gives: Output::Same,
            arity: 2,
        }),
    ),
    (Op::Maximum, binary("max", ANY, Some("maximum"))),
    (Op::Equal, compare("eq", ANY, Some("equal"))),
    (Op::NotEqual, compare("ne", ANY, Some("not_equal"))),
    (Op::Less, compare("lt", ORDERED, None)),
    (Op::LessEqual, compare("le", ORDERED, None)),
    (Op::Greater, compare("gt", ORDERED, None)),
    (Op::GreaterEqual, compare("ge", ORDERED, None)),
    (Op::BitwiseAnd, binary("and", INTEGRAL, None)),
    (Op::BitwiseOr, binary("or", INTEGRAL, None)),
    (Op::BitwiseXor, binary("xor", INTEGRAL, None)),
    (Op::LogicalAnd, None),
    (Op::Negative, unary("neg", NUMBER, Output::Same)),
    (Op::Abs, unary("abs", SIGNED, Output::RealPart)),
    (Op::Sign, unary("sign", NUMBER, Output::Same)),
    (Op::Sqrt, unary("sqrt", INEXACT, Output::Same)),
    (Op::Exp, unary("exp", INEXACT, Output::Same)),
    (Op::Floor, unary("floor", FLOATING, Output::Same)),
]);

/// The primitive of `op`, if `lax` has one.
pub(crate) const fn primitive(op: Op) -> Option<Primitive> {
    *PRIMITIVES.get(op)
}

/// Whether `classes` take `dtype`.
pub(crate) fn takes(classes: &[Class], dtype: DType) -> bool {
    classes.iter().any(|class| class.contains(dtype))
}

/// The primitive's check of its operand at `position` (`None` for a unary
/// primitive, whose message names no position), as `lax` words it.
pub(crate) fn refused(
    name: &str,
    classes: &[Class],
    dtype: DType,
    position: Option<usize>,
) -> PromotionError {
    let names: Vec<&str> = classes.iter().map(|c| c.name()).collect();
    let names = names.join(", ");
    PromotionError::framework(
        ErrorKind::Type,
        match position {
            Some(p) => format!(
            "{name} does not accept dtype {dtype} at position {p}. Accepted dtypes at position \
             {p} are subtypes of {names}."
        ),
            None => format!(
                "{name} does not accept dtype {dtype}. Accepted dtypes are subtypes of {names}."
            ),
        },
    )
}

/// `lax.abs` of the narrow integers: it takes `int1` (as `int8`) and
/// refuses `int2` and `int4` with this.
pub(crate) fn narrow_abs(dtype: DType) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Type,
        format!(
            "abs does not accept dtype {dtype}. Support for narrow-width integers is \
         platform-dependent and limited to a few specific operations, e.g. basic arithmetic \
         and type casting."
        ),
    )
}
