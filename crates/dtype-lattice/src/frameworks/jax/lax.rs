//! JAX's `lax` primitives as the operations reach them: which classes of
//! dtype each takes, at which position, and what it gives. One table for
//! `jax.numpy`'s functions (which promote first, `ops.rs`) and `jax.lax`'s
//! (which do not, `jax_lax.rs`).

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

/// What a primitive gives for operands of one dtype.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Gives {
    /// The operands' dtype.
    Same,
    /// `bool`.
    Bool,
    /// A complex dtype's part type, the rest their own (`abs`).
    Real,
}

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
    pub(crate) gives: Gives,
    /// How many operands it takes.
    pub(crate) arity: usize,
}

const fn binary(
    name: &'static str,
    accepts: &'static [Class],
    tip: Option<&'static str>,
) -> Option<Primitive> {
    two(name, accepts, tip, Gives::Same)
}

const fn compare(
    name: &'static str,
    accepts: &'static [Class],
    tip: Option<&'static str>,
) -> Option<Primitive> {
    two(name, accepts, tip, Gives::Bool)
}

/// A binary primitive taking the same classes at both positions.
const fn two(
    name: &'static str,
    accepts: &'static [Class],
    tip: Option<&'static str>,
    gives: Gives,
) -> Option<Primitive> {
    Some(Primitive {
        name,
        accepts: [accepts, accepts],
        tip,
        gives,
        arity: 2,
    })
}

const fn unary(name: &'static str, accepts: &'static [Class], gives: Gives) -> Option<Primitive> {
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
pub(crate) const PRIMITIVES: [Option<Primitive>; 24] = [
    binary("add", NUMBER, Some("add")),
    binary("sub", NUMBER, Some("subtract")),
    binary("mul", NUMBER, Some("multiply")),
    binary("div", NUMBER, Some("divide")),
    None,
    binary("rem", REAL, None),
    // A float or complex base; an integer exponent, or the base's dtype.
    Some(Primitive {
        name: "pow",
        accepts: [INEXACT, NUMBER],
        tip: None,
        gives: Gives::Same,
        arity: 2,
    }),
    binary("max", ANY, Some("maximum")),
    compare("eq", ANY, Some("equal")),
    compare("ne", ANY, Some("not_equal")),
    compare("lt", ORDERED, None),
    compare("le", ORDERED, None),
    compare("gt", ORDERED, None),
    compare("ge", ORDERED, None),
    binary("and", INTEGRAL, None),
    binary("or", INTEGRAL, None),
    binary("xor", INTEGRAL, None),
    None,
    unary("neg", NUMBER, Gives::Same),
    unary("abs", SIGNED, Gives::Real),
    unary("sign", NUMBER, Gives::Same),
    unary("sqrt", INEXACT, Gives::Same),
    unary("exp", INEXACT, Gives::Same),
    unary("floor", FLOATING, Gives::Same),
];

/// The primitive of `op`, if `lax` has one.
pub(crate) const fn primitive(op: Op) -> Option<Primitive> {
    PRIMITIVES[op as usize]
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
    type_error(match position {
        Some(p) => format!(
            "{name} does not accept dtype {dtype} at position {p}. Accepted dtypes at position \
             {p} are subtypes of {names}."
        ),
        None => format!(
            "{name} does not accept dtype {dtype}. Accepted dtypes are subtypes of {names}."
        ),
    })
}

/// `lax.abs` of the narrow integers: it takes `int1` (as `int8`) and
/// refuses `int2` and `int4` with this.
pub(crate) fn narrow_abs(dtype: DType) -> PromotionError {
    type_error(format!(
        "abs does not accept dtype {dtype}. Support for narrow-width integers is \
         platform-dependent and limited to a few specific operations, e.g. basic arithmetic \
         and type casting."
    ))
}

pub(crate) fn type_error(message: String) -> PromotionError {
    PromotionError::Framework {
        kind: ErrorKind::Type,
        message,
    }
}
