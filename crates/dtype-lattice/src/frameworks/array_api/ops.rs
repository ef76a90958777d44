//! array-api-strict's elementwise functions: each takes the dtype
//! categories the standard names for it, then promotes as `+` does.
//!
//! Every function checks its array operands' category first (`add` takes
//! numeric dtypes, `divide` floating-point ones, `bitwise_and` integer or
//! boolean ones), then promotes: two arrays by the standard's table, an
//! array and a Python scalar by the scalar's kind ([`promote_scalar`]).
//! Two Python scalars are refused, and so is a Python scalar where a unary
//! function wants an array. [`FUNCTIONS`] is the table: a name, a category
//! and what the result is.

use super::{form, known, promote_scalar, ArrayApi, Form};
use crate::frameworks::common::{OpTable, Output};
use crate::frameworks::numpy::ops::select_loop;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, Op, Operand, PromotionError, PyScalar, Typed};

/// A dtype category of the standard, as array-api-strict's messages name
/// it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Category {
    Any,
    Numeric,
    RealNumeric,
    FloatingPoint,
    RealFloatingPoint,
    IntegerOrBoolean,
    Boolean,
}

impl Category {
    pub(super) fn name(self) -> &'static str {
        match self {
            Category::Any => "any",
            Category::Numeric => "numeric",
            Category::RealNumeric => "real numeric",
            Category::FloatingPoint => "floating-point",
            Category::RealFloatingPoint => "real floating-point",
            Category::IntegerOrBoolean => "integer or boolean",
            Category::Boolean => "boolean",
        }
    }

    pub(super) fn contains(self, dtype: DType) -> bool {
        let kind = dtype.kind();
        match self {
            Category::Any => true,
            Category::Numeric => kind != Kind::Bool,
            Category::RealNumeric => !matches!(kind, Kind::Bool | Kind::Complex),
            Category::FloatingPoint => matches!(kind, Kind::Float | Kind::Complex),
            Category::RealFloatingPoint => kind == Kind::Float,
            Category::IntegerOrBoolean => {
                matches!(kind, Kind::Bool | Kind::Signed | Kind::Unsigned)
            }
            Category::Boolean => kind == Kind::Bool,
        }
    }
}

/// The function's name, category and result, by [`Op`]'s order.
const FUNCTIONS: OpTable<(&str, Category, Output)> = OpTable::new([
    (Op::Add, ("add", Category::Numeric, Output::Same)),
    (Op::Subtract, ("subtract", Category::Numeric, Output::Same)),
    (Op::Multiply, ("multiply", Category::Numeric, Output::Same)),
    (
        Op::TrueDivide,
        ("divide", Category::FloatingPoint, Output::Same),
    ),
    (
        Op::FloorDivide,
        ("floor_divide", Category::RealNumeric, Output::Same),
    ),
    (
        Op::Remainder,
        ("remainder", Category::RealNumeric, Output::Same),
    ),
    (Op::Power, ("pow", Category::Numeric, Output::Same)),
    (
        Op::Maximum,
        ("maximum", Category::RealNumeric, Output::Same),
    ),
    (Op::Equal, ("equal", Category::Any, Output::Bool)),
    (Op::NotEqual, ("not_equal", Category::Any, Output::Bool)),
    (Op::Less, ("less", Category::RealNumeric, Output::Bool)),
    (
        Op::LessEqual,
        ("less_equal", Category::RealNumeric, Output::Bool),
    ),
    (
        Op::Greater,
        ("greater", Category::RealNumeric, Output::Bool),
    ),
    (
        Op::GreaterEqual,
        ("greater_equal", Category::RealNumeric, Output::Bool),
    ),
    (
        Op::BitwiseAnd,
        ("bitwise_and", Category::IntegerOrBoolean, Output::Same),
    ),
    (
        Op::BitwiseOr,
        ("bitwise_or", Category::IntegerOrBoolean, Output::Same),
    ),
    (
        Op::BitwiseXor,
        ("bitwise_xor", Category::IntegerOrBoolean, Output::Same),
    ),
    (
        Op::LogicalAnd,
        ("logical_and", Category::Boolean, Output::Bool),
    ),
    (Op::Negative, ("negative", Category::Numeric, Output::Same)),
    (Op::Abs, ("abs", Category::Numeric, Output::RealPart)),
    (Op::Sign, ("sign", Category::Numeric, Output::Same)),
    (Op::Sqrt, ("sqrt", Category::FloatingPoint, Output::Same)),
    (Op::Exp, ("exp", Category::FloatingPoint, Output::Same)),
    (Op::Floor, ("floor", Category::RealNumeric, Output::Same)),
]);

/// The category `op`'s function takes, and what it gives: an operator's
/// special method takes the same (`__eq__` "all" dtypes, which is any).
pub(super) fn category_and_output(op: Op) -> (Category, Output) {
    let (_, category, output) = FUNCTIONS[op];
    (category, output)
}

/// `xp.<function>(*operands).dtype`.
pub(super) fn operation(
    api: &ArrayApi,
    op: Op,
    operands: &[Operand],
) -> Result<Typed, PromotionError> {
    let (name, category, gives) = FUNCTIONS[op];
    let promoted = match *operands {
        [x] if op.arity() == 1 => unary(name, category, x.as_argument())?,
        [a, b] if op.arity() == 2 => binary(api, name, category, a.as_argument(), b.as_argument())?,
        _ => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "{name}() takes {} positional argument{} but {} were given",
                    op.arity(),
                    if op.arity() == 1 { "" } else { "s" },
                    operands.len()
                ),
            ))
        }
    };
    // array-api-strict computes with NumPy's ufunc, whose loops may not
    // take the promoted dtype (`floor_divide` of a float array and a
    // Python complex).
    let dtype = promoted;
    select_loop(op, dtype)?;
    if op == Op::Power && dtype.is_integer() {
        if let Form::Scalar(PyScalar::Int, Some(exponent)) = form(&operands[1].as_argument())? {
            if exponent < 0 {
                return Err(PromotionError::framework(
                    ErrorKind::Value,
                    "Integers to negative integer powers are not allowed.",
                ));
            }
        }
    }
    Ok(Typed::strong(match gives {
        Output::Same => dtype,
        Output::Bool => DType::Bool,
        Output::RealPart => dtype.real_part(),
    }))
}

/// A unary function takes one array of its category.
fn unary(name: &str, category: Category, x: Operand) -> Result<DType, PromotionError> {
    match form(&x)? {
        Form::Array(dtype) => {
            let dtype = known(dtype)?;
            if category.contains(dtype) {
                Ok(dtype)
            } else if name == "sign" {
                Err(PromotionError::framework(
                    ErrorKind::Type,
                    "Only numeric dtypes are allowed in sign".to_owned(),
                ))
            } else {
                Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "Only {} dtypes are allowed in {name}; got array_api_strict.{dtype}.",
                        category.name()
                    ),
                ))
            }
        }
        Form::Scalar(scalar, _) => Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "Only Array objects are allowed; got <class '{}'>",
                scalar.name()
            ),
        )),
        Form::None => Err(PromotionError::framework(
            ErrorKind::Type,
            "Only Array objects are allowed; got <class 'NoneType'>".to_owned(),
        )),
    }
}

/// A binary function: its category's check of the arrays, then promotion
/// (two arrays by the table, an array and a Python scalar by the scalar's
/// kind).
pub(super) fn binary(
    api: &ArrayApi,
    name: &str,
    category: Category,
    a: Operand,
    b: Operand,
) -> Result<DType, PromotionError> {
    let (a, b) = (form(&a)?, form(&b)?);
    for side in [a, b] {
        if let Form::Array(dtype) = side {
            known(dtype)?;
        }
    }
    match (a, b) {
        (Form::Array(x), Form::Array(y)) => {
            if !(category.contains(x) && category.contains(y)) {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "Only {} dtypes are allowed in {name}(...). Got array_api_strict.{x} and \
                     array_api_strict.{y}.",
                        category.name()
                    ),
                ));
            }
            api.join(x, y)
        }
        (Form::Array(dtype), Form::Scalar(scalar, value))
        | (Form::Scalar(scalar, value), Form::Array(dtype)) => {
            if !category.contains(dtype) {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "Only {} dtypes are allowed {name}. Got array_api_strict.{dtype}.",
                        category.name()
                    ),
                ));
            }
            promote_scalar(dtype, scalar, value)
        }
        (Form::Scalar(x, _), Form::Scalar(y, _)) => Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "Two scalars not allowed, got type(x1) = <class '{}'> and type(x2) =<class '{}'>",
                x.name(),
                y.name()
            ),
        )),
        _ => Err(PromotionError::framework(
            ErrorKind::Type,
            "Expected Array or Python scalar; got <class 'NoneType'>".to_owned(),
        )),
    }
}

/// How the library's function computes `op`, in words.
pub(super) fn describe(op: Op) -> String {
    if op == Op::Add {
        return "x + y (Array.__add__, or __radd__ after a Python scalar): numeric arrays only, \
                promoted by the standard's table, a Python scalar only of a kind the array holds"
            .to_owned();
    }
    let (name, category, gives) = FUNCTIONS[op];
    let takes = match category {
        Category::Any => "any dtype".to_owned(),
        other => format!("{} dtypes", other.name()),
    };
    let result = match gives {
        Output::Same => "the promoted dtype",
        Output::Bool => "bool",
        Output::RealPart => "the promoted dtype, a complex one's part type",
    };
    format!(
        "xp.{name}: takes {takes}, then promotes as `+` does (two arrays by the standard's \
         table, a Python scalar only of a kind the array holds); the result is {result}"
    )
}
