//! `jax.numpy`'s operations: which promotion each applies, then what its
//! `lax` primitive makes of the promoted type.
//!
//! `jax/_src/numpy/ufuncs.py` promotes in one of three ways before it calls
//! `lax`: `promote_args` (the result type, weak flag and all),
//! `promote_args_inexact` (then a non-float type becomes a float, by a
//! table of its own: see [`to_inexact`]) or `promote_args_numeric` (then
//! `bool` becomes `int32`). Each `lax` primitive accepts some classes of
//! dtype and refuses the rest with a `TypeError` naming the primitive
//! (`sub`, `and`, `neg`), not the function. [`RULES`] is the table of both
//! per operation; `power`, `abs`, `floor` and `logical_and` have cases of
//! their own, each with JAX's reason.

use super::lax::{self, Class};
use super::Jax;
use crate::frameworks::common::OpTable;
use crate::frameworks::common::Output;
use crate::prelude::*;
use crate::types::{
    Arguments, DType, ErrorKind, Kind, Op, Operand, OperandKind, PromotionError, Typed,
};

/// How an operation promotes its operands.
#[derive(Clone, Copy)]
enum Promote {
    /// `promote_args`: the result type.
    Args,
    /// `promote_args_inexact`: the lattice's join, made a float.
    Inexact,
    /// `promote_args_numeric`: the lattice's join, `bool` made `int32`.
    Numeric,
}

/// How `jnp` computes an operation that follows the common pattern:
/// its promotion, then the primitive ([`lax::PRIMITIVES`]), whose classes
/// `jnp` widens where it handles a case itself.
#[derive(Clone, Copy)]
struct Rule {
    promote: Promote,
    /// The classes `jnp` takes where the primitive's are narrower.
    accepts: Option<&'static [Class]>,
}

const fn rule(promote: Promote) -> Option<Rule> {
    Some(Rule {
        promote,
        accepts: None,
    })
}

/// `jnp` takes every class: `add` and `multiply` of booleans are
/// `bitwise_or` and `bitwise_and`, and the order comparisons compare a
/// complex number's parts.
const fn all(promote: Promote) -> Option<Rule> {
    Some(Rule {
        promote,
        accepts: Some(lax::ANY),
    })
}

/// The rule of each operation that follows one, by [`Op`]'s order; `None`
/// for those with cases of their own.
const RULES: OpTable<Option<Rule>> = OpTable::new([
    (Op::Add, all(Promote::Args)),
    (Op::Subtract, rule(Promote::Args)),
    (Op::Multiply, all(Promote::Args)),
    (Op::TrueDivide, rule(Promote::Inexact)),
    (Op::FloorDivide, None), // complex refused by jnp itself
    (Op::Remainder, rule(Promote::Numeric)),
    (Op::Power, None),
    (Op::Maximum, rule(Promote::Args)),
    (Op::Equal, rule(Promote::Args)),
    (Op::NotEqual, rule(Promote::Args)),
    (Op::Less, all(Promote::Args)),
    (Op::LessEqual, all(Promote::Args)),
    (Op::Greater, all(Promote::Args)),
    (Op::GreaterEqual, all(Promote::Args)),
    (Op::BitwiseAnd, rule(Promote::Args)),
    (Op::BitwiseOr, rule(Promote::Args)),
    (Op::BitwiseXor, rule(Promote::Args)),
    (Op::LogicalAnd, None),
    (Op::Negative, rule(Promote::Args)),
    (Op::Abs, None),
    (Op::Sign, rule(Promote::Args)),
    (Op::Sqrt, rule(Promote::Inexact)),
    (Op::Exp, rule(Promote::Inexact)),
    (Op::Floor, None),
]);

/// `jnp.<op>(*operands)`'s result type.
pub(super) fn operation(jax: &Jax, op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
    let Some(arguments) = Arguments::new(op, operands, |o| argument_of(jax, o)) else {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "{}() takes {} positional argument{} but {} were given",
                op.name(),
                op.arity(),
                if op.arity() == 1 { "" } else { "s" },
                operands.len()
            ),
        ));
    };
    let operands = arguments.get();
    arraylike(function_name(op), operands)?;
    if let Some(dtype) = operands.iter().find_map(|o| lacked_dtype(jax, o)) {
        return Err(super::promotion::lacks(dtype));
    }
    if let (Some(rule), Some(primitive)) = (RULES[op], lax::primitive(op)) {
        let promoted = promote(jax, rule.promote, operands)?;
        let classes = rule.accepts.unwrap_or(primitive.accepts[0]);
        accepts(primitive.name, classes, promoted.dtype, operands.len())?;
        return Ok(match primitive.gives {
            Output::Bool => Typed {
                dtype: DType::Bool,
                weak: promoted.weak,
            },
            Output::Same | Output::RealPart => promoted,
        });
    }
    match op {
        Op::FloorDivide => {
            let promoted = promote(jax, Promote::Numeric, operands)?;
            if promoted.dtype.kind() == Kind::Complex {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    "floor_divide does not support complex-valued inputs".to_owned(),
                ));
            }
            Ok(promoted)
        }
        Op::Power => power(jax, operands),
        // Each promoted operand made `bool` apart (`x != 0`, against a
        // strong constant unless the operand was a Python scalar), so the
        // result is weak only where both operands are weak values: Python
        // scalars, `True` and `False` included, or weak arrays. Booleans
        // promoted to `bool` stay as they are, never weak.
        Op::LogicalAnd => {
            let promoted = promote(jax, Promote::Args, operands)?;
            let weak = promoted.dtype != DType::Bool
                && operands.iter().all(|o| {
                    matches!(
                        o.kind(),
                        OperandKind::Array { weak: true, .. }
                            | OperandKind::PyBool(_)
                            | OperandKind::PyInt(_)
                            | OperandKind::PyFloat(_)
                            | OperandKind::PyComplex { .. }
                    )
                });
            Ok(Typed {
                dtype: DType::Bool,
                weak,
            })
        }
        Op::Abs => abs(jax, operands[0]),
        // Integers and booleans are their own floor; the rest promotes to
        // a float for `lax.floor`.
        Op::Floor => {
            let typed = jax.dtype_and_weak_type(operands[0]);
            if matches!(
                typed.dtype.kind(),
                Kind::Bool | Kind::Signed | Kind::Unsigned
            ) {
                return Ok(typed);
            }
            let promoted = promote(jax, Promote::Inexact, operands)?;
            accepts("floor", lax::FLOATING, promoted.dtype, 1)?;
            Ok(promoted)
        }
        _ => unreachable!("every other operation has a rule"),
    }
}

/// An operand as `jnp`'s functions take it ([`Operand::as_argument`]),
/// an array of the dtype the configuration keeps: with x64 off a 64-bit
/// array's values become 32-bit as the function reads them (JAX
/// canonicalizes every input's type when it traces).
pub(super) fn argument_of(jax: &Jax, operand: Operand) -> Operand {
    let argument = operand.as_argument();
    match argument.kind() {
        OperandKind::Array { dtype, weak } => Operand::array(jax.canonicalize_dtype(dtype), weak),
        OperandKind::ZeroDim(dtype) => Operand::zero_dim(jax.canonicalize_dtype(dtype)),
        _ => argument,
    }
}

/// The name `check_arraylike` gives in its message.
fn function_name(op: Op) -> &'static str {
    match op {
        Op::Abs => "absolute",
        other => other.name(),
    }
}

/// `check_arraylike`: arrays and Python scalars, not `None` (dtypes and
/// Python types were read as arrays and scalars of them).
fn arraylike(name: &str, operands: &[Operand]) -> Result<(), PromotionError> {
    match operands.iter().position(|o| o.is_none()) {
        Some(position) => Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "{name} requires ndarray or scalar arguments, got <class 'NoneType'> at position \
             {position}."
            ),
        )),
        None => Ok(()),
    }
}

/// The operands promoted as `rule` says.
fn promote(jax: &Jax, rule: Promote, operands: &[Operand]) -> Result<Typed, PromotionError> {
    match rule {
        Promote::Args => jax.result_type(operands),
        Promote::Inexact | Promote::Numeric => {
            let joined = jax.lattice_result_type(operands)?;
            let dtype = match rule {
                Promote::Inexact => to_inexact(joined.dtype),
                _ if joined.dtype == DType::Bool => DType::Int32,
                _ => joined.dtype,
            };
            Ok(Typed {
                dtype: jax.canonicalize_dtype(dtype),
                weak: joined.weak,
            })
        }
    }
}

/// `dtypes.to_inexact_dtype`: JAX's own table, which leaves out the 1- and
/// 2-bit integers (they stay integers, and `lax.sqrt` refuses them).
pub(super) fn to_inexact(dtype: DType) -> DType {
    use DType::*;
    match dtype {
        Bool | UInt4 | Int4 | UInt8 | Int8 | UInt16 | Int16 | UInt32 | Int32 => Float32,
        UInt64 | Int64 => Float64,
        other => other,
    }
}

/// The primitive's check of the promoted type: with the position for a
/// binary primitive, without for a unary one.
fn accepts(
    primitive: &str,
    classes: &[Class],
    dtype: DType,
    arity: usize,
) -> Result<(), PromotionError> {
    if lax::takes(classes, dtype) {
        return Ok(());
    }
    Err(lax::refused(
        primitive,
        classes,
        dtype,
        (arity == 2).then_some(0),
    ))
}

/// `jnp.power`, in its four cases.
fn power(jax: &Jax, operands: &[Operand]) -> Result<Typed, PromotionError> {
    let (base, exponent) = (operands[0], operands[1]);
    // Case 1: a concrete integer exponent (a Python int or bool):
    // `lax.integer_pow` on the base alone, made numeric.
    let concrete = match exponent.kind() {
        OperandKind::PyInt(n) => Some(n),
        OperandKind::PyBool(b) => Some(i128::from(b)),
        _ => None,
    };
    if let Some(n) = concrete {
        let base_type = promote(jax, Promote::Numeric, &[base])?;
        if base_type.dtype.is_integer() && n < 0 {
            let shape = if is_scalar(base) { "[]" } else { "[...]" };
            let tilde = if base_type.weak { "~" } else { "" };
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "Integers cannot be raised to negative powers, got \
                 integer_pow({tilde}{}{shape}, {n})",
                    base_type.dtype
                ),
            ));
        }
        return Ok(base_type);
    }
    let promoted = promote(jax, Promote::Numeric, operands)?;
    // Case 2: an integer result, by binary exponentiation, which starts
    // from a constant of the exponent's dtype (strong) and asks NumPy's
    // `iinfo` for the width, which has none for the sub-byte integers.
    if promoted.dtype.is_integer() {
        if promoted.dtype.is_sub_byte_integer() {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                "Invalid integer data type 'V'.",
            ));
        }
        return Ok(Typed::strong(promoted.dtype));
    }
    // Case 3: a float or complex base with an integer exponent, not
    // promoted (so that the power is differentiable at 0).
    let (base_type, exponent_type) = (
        jax.dtype_and_weak_type(base),
        jax.dtype_and_weak_type(exponent),
    );
    if base_type.dtype.is_inexact() && exponent_type.dtype.is_integer() {
        return Ok(Typed {
            dtype: base_type.dtype,
            weak: base_type.weak && exponent_type.weak,
        });
    }
    // Case 4: promoted, then `lax.pow`.
    Ok(promoted)
}

/// Whether JAX sees the operand as a scalar (shape `()`).
fn is_scalar(operand: Operand) -> bool {
    !matches!(operand.kind(), OperandKind::Array { .. })
}

/// `jnp.absolute`: booleans and unsigned integers are their own; the rest
/// goes to `lax.abs`, which gives a complex number's part type and takes
/// of the narrow integers only int1 (as int8).
fn abs(jax: &Jax, operand: Operand) -> Result<Typed, PromotionError> {
    let typed = jax.dtype_and_weak_type(operand);
    match typed.dtype {
        DType::Int1 => Ok(Typed {
            dtype: DType::Int8,
            weak: typed.weak,
        }),
        DType::Int2 | DType::Int4 => Err(lax::narrow_abs(typed.dtype)),
        dtype => Ok(Typed {
            dtype: dtype.real_part(),
            weak: typed.weak,
        }),
    }
}

/// `op` in words: its promotion, its `lax` primitive and what that takes,
/// or the case it has of its own.
pub(super) fn describe(op: Op) -> String {
    let name = function_name(op);
    let (Some(rule), Some(primitive)) = (RULES[op], lax::primitive(op)) else {
        let own = match op {
            Op::FloorDivide => {
                "promote_args_numeric (the join, bool made int32), refusing complex numbers itself"
            }
            Op::Power => {
                "a Python int exponent takes lax.integer_pow on the base alone (made numeric; \
                 integers refuse a negative exponent); an integer result is computed by \
                 multiplications from a strong constant (so never weak; no sub-byte integers); a \
                 float base with an integer exponent is not promoted; anything else is \
                 promote_args_numeric, then lax.pow"
            }
            Op::LogicalAnd => {
                "promote_args, then each operand made bool apart (x != 0): bool, weak only \
                 where both operands are weak values"
            }
            Op::Abs => {
                "no promotion: bool and unsigned integers are their own; lax.abs gives a \
                 complex number's part type and takes of the narrow integers only int1 (as int8)"
            }
            Op::Floor => {
                "no promotion for bool and integers (their own floor); the rest \
                 promote_args_inexact, then lax.floor, which takes floating only"
            }
            _ => unreachable!("every other operation has a rule"),
        };
        return format!("jnp.{name}: {own}");
    };
    let promote = match rule.promote {
        Promote::Args => "promote_args (the result type)",
        Promote::Inexact => {
            "promote_args_inexact (the join; bool and integers of up to 32 bits made float32, \
             64-bit integers float64, then canonicalized; 1- and 2-bit integers stay)"
        }
        Promote::Numeric => "promote_args_numeric (the join, bool made int32)",
    };
    let classes = rule.accepts.unwrap_or(primitive.accepts[0]);
    let takes: Vec<&str> = classes.iter().map(|c| c.name()).collect();
    let result = match primitive.gives {
        Output::Bool => "bool, weak where the promoted type is",
        Output::Same | Output::RealPart => "the promoted type",
    };
    format!(
        "jnp.{name}: {promote}, then lax.{}, which takes {}; the result is {result}",
        primitive.name,
        takes.join(", ")
    )
}

/// The dtype of `operand` if JAX lacks it (PyTorch's `complex32`).
pub(super) fn lacked_dtype(jax: &Jax, operand: &Operand) -> Option<DType> {
    let dtype = jax.config.dtype_and_weak(operand).0;
    (!super::lattice::is_jax_dtype(dtype)).then_some(dtype)
}
