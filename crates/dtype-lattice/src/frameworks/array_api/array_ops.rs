//! array-api-strict's reductions, contractions and combinations (API
//! version 2025.12): each function checks the dtype category the standard
//! names for it, then computes with NumPy, whose rules type the result.
//!
//! - `sum`, `prod`, `cumulative_sum`, `cumulative_prod` take numeric
//!   arrays and `dtype=`, and answer as NumPy does (`int8` sums in
//!   `int64`); `mean` takes floating-point arrays (complex ones since
//!   2024.12), `var` and `std` real floating-point ones, `max`, `min`,
//!   `argmax`, `argmin` real numeric ones; none of these take `dtype=`.
//! - `matmul` and `tensordot` take numeric arrays and no `dtype=`, and
//!   promote as NumPy does, not by the standard's table (`int8 @ float32`
//!   is `float32`). There is no `dot` and no `einsum` (`vecdot` is no
//!   operation here).
//! - `where` promotes as `+` does (two arrays by the table, a Python scalar
//!   of a kind the array holds); `concat` and `stack` by the table.
//! - `clip` answers the array's own dtype (the 2025.12 wording: bounds
//!   "should have the same data type as x"), refusing a float bound for an
//!   integer array, an integer array bound for a float array, and bounds
//!   that are Python bools or complex numbers; `full_like` takes a Python
//!   scalar fill value, and answers as NumPy's does.
//!
//! ```
//! use dtype_lattice::frameworks::array_api::ArrayApi;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let x = |dtype| Operand::array(dtype, false);
//! let answer = |op, operands: &[Operand]| {
//!     ArrayApi.array_op(&ArrayCall::new(op), operands).unwrap().map(|o| o.result().dtype)
//! };
//! assert_eq!(answer(ArrayOp::Sum, &[x(DType::Int8)]), Ok(DType::Int64));
//! assert_eq!(answer(ArrayOp::Clip, &[x(DType::Int8), x(DType::Int64)]), Ok(DType::Int8));
//! let err = answer(ArrayOp::Mean, &[x(DType::Int8)]).unwrap_err();
//! assert_eq!(err.to_string(), "Only floating-point dtypes are allowed in mean");
//! assert!(ArrayApi.array_op(&ArrayCall::new(ArrayOp::Einsum), &[x(DType::Int8)]).is_none());
//! ```

use super::ops::{binary, Category};
use super::{form, known, ArrayApi, Form};
use crate::frameworks::common::array_ops::counted;
use crate::frameworks::numpy::Numpy;
use crate::policy::Policy;
use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, DType, ErrorKind, Kind, Operand, OperandKind, Outcome, PromotionError,
    PyScalar, Typed,
};

/// The standard's function for `op`, the category of array it takes, and
/// whether it takes `dtype=`; `None` where array-api-strict has none.
fn function(op: ArrayOp) -> Option<(&'static str, Category, bool)> {
    use Category::{Any, FloatingPoint, Numeric, RealFloatingPoint, RealNumeric};
    Some(match op {
        ArrayOp::Sum => ("sum", Numeric, true),
        ArrayOp::Prod => ("prod", Numeric, true),
        ArrayOp::CumSum => ("cumulative_sum", Numeric, true),
        ArrayOp::CumProd => ("cumulative_prod", Numeric, true),
        ArrayOp::Mean => ("mean", FloatingPoint, false),
        ArrayOp::Var => ("var", RealFloatingPoint, false),
        ArrayOp::Std => ("std", RealFloatingPoint, false),
        ArrayOp::Max => ("max", RealNumeric, false),
        ArrayOp::Min => ("min", RealNumeric, false),
        ArrayOp::ArgMax => ("argmax", RealNumeric, false),
        ArrayOp::ArgMin => ("argmin", RealNumeric, false),
        ArrayOp::Any => ("any", Any, false),
        ArrayOp::All => ("all", Any, false),
        ArrayOp::Matmul => ("matmul", Numeric, false),
        ArrayOp::Tensordot => ("tensordot", Numeric, false),
        ArrayOp::Where => ("where", Any, false),
        ArrayOp::Clip => ("clip", RealNumeric, false),
        ArrayOp::Concatenate => ("concat", Any, false),
        ArrayOp::Stack => ("stack", Any, false),
        ArrayOp::FullLike => ("full_like", Any, true),
        ArrayOp::Dot | ArrayOp::Einsum => return None,
    })
}

/// `xp.<function>(*operands, dtype=...)`; `None` for `dot` and `einsum`,
/// which array-api-strict does not have.
pub(super) fn array_op(
    api: &ArrayApi,
    call: ArrayCall,
    operands: &[Operand],
) -> Option<Result<Outcome, PromotionError>> {
    let (name, category, takes_dtype) = function(call.op())?;
    Some(
        answer(api, call, operands, name, category, takes_dtype)
            .map(|dtype| Outcome::of(Typed::strong(dtype))),
    )
}

fn answer(
    api: &ArrayApi,
    call: ArrayCall,
    operands: &[Operand],
    name: &str,
    category: Category,
    takes_dtype: bool,
) -> Result<DType, PromotionError> {
    let operands: Vec<Operand> = counted(call, operands)?
        .iter()
        .map(|o| o.as_argument())
        .collect();
    // Python binds the keywords before the function runs.
    if let Some(dtype) = call.dtype() {
        if !takes_dtype {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!("{name}() got an unexpected keyword argument 'dtype'"),
            ));
        }
        known(dtype)?;
    }
    let only = |category: Category| {
        PromotionError::framework(
            ErrorKind::Type,
            format!("Only {} dtypes are allowed in {name}", category.name()),
        )
    };
    let op = call.op();
    match (op, operands.as_slice()) {
        (ArrayOp::Where, &[_, x, y]) => binary(api, name, category, x, y),
        (ArrayOp::Concatenate | ArrayOp::Stack, all) => {
            let dtypes = all.iter().map(array).collect::<Result<Vec<_>, _>>()?;
            dtypes[1..]
                .iter()
                .try_fold(dtypes[0], |so_far, &next| api.join(so_far, next))
        }
        (ArrayOp::Clip, &[x, ref bounds @ ..]) => clip(array(&x)?, bounds, &only),
        (ArrayOp::FullLike, &[x, fill]) => {
            array(&x)?;
            if let Form::Array(_) | Form::None = form(&fill)? {
                return Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "Expected Python scalar fill_value, got type <class '{}'>",
                        python_class(fill)?
                    ),
                ));
            }
            numpy(call, &operands)
        }
        (_, all) => {
            for operand in all {
                if !category.contains(array(operand)?) {
                    return Err(only(category));
                }
            }
            numpy(call, all)
        }
    }
}

/// The dtype of an array operand (array-api-strict reads `x.dtype`).
fn array(operand: &Operand) -> Result<DType, PromotionError> {
    match form(operand)? {
        Form::Array(dtype) => known(dtype),
        _ => Err(PromotionError::framework(
            ErrorKind::Attribute,
            format!(
                "'{}' object has no attribute 'dtype'",
                python_class(*operand)?
                    .rsplit('.')
                    .next()
                    .unwrap_or("object")
            ),
        )),
    }
}

/// An operand's Python class, as array-api-strict's messages print it.
fn python_class(operand: Operand) -> Result<&'static str, PromotionError> {
    Ok(match form(&operand)? {
        Form::Array(_) => "array_api_strict._array_object.Array",
        Form::Scalar(scalar, _) => scalar.name(),
        Form::None => "NoneType",
    })
}

/// array-api-strict computes with NumPy: its answer, once the categories
/// are checked.
fn numpy(call: ArrayCall, operands: &[Operand]) -> Result<DType, PromotionError> {
    match Numpy.array_op(&call, operands) {
        Some(answer) => answer.map(|outcome| outcome.result().dtype),
        None => Err(PromotionError::framework(
            ErrorKind::NotImplemented,
            format!("the numpy policy does not model {}", call.op()),
        )),
    }
}

/// `xp.clip(x, min, max)`: `x`'s dtype, after array-api-strict's checks of
/// each bound in turn and of their order.
fn clip(
    x: DType,
    bounds: &[Operand],
    only: &dyn Fn(Category) -> PromotionError,
) -> Result<DType, PromotionError> {
    let mut dtypes = Vec::new();
    for bound in bounds {
        dtypes.push(match form(bound)? {
            Form::Array(dtype) => Some(known(dtype)?),
            _ => None,
        });
    }
    let real = |dtype: DType| Category::RealNumeric.contains(dtype);
    if !real(x) || dtypes.iter().flatten().any(|&d| !real(d)) {
        return Err(only(Category::RealNumeric));
    }
    let float = |dtype: DType| dtype.kind() == Kind::Float;
    for (bound, (argname, dtype)) in bounds.iter().zip(["min", "max"].into_iter().zip(&dtypes)) {
        let scalar = match form(bound)? {
            Form::Scalar(scalar, _) => Some(scalar),
            _ => None,
        };
        if let Some(scalar @ (PyScalar::Bool | PyScalar::Complex)) = scalar {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "{argname} must be None, int, float, or Array; got <class '{}'>",
                    scalar.name()
                ),
            ));
        }
        let float_bound = scalar == Some(PyScalar::Float) || dtype.is_some_and(float);
        if x.is_integer() && float_bound {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!("{argname} must be integral when x is integral"),
            ));
        }
        if let Some(dtype) = dtype.filter(|d| float(x) && d.is_integer()) {
            // array-api-strict prints the bound's repr, values and all.
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "Array(..., dtype=array_api_strict.{dtype}) must be floating-point when x \
                     is floating-point"
                ),
            ));
        }
    }
    if let [lower, upper] = bounds {
        if value(lower).zip(value(upper)).is_some_and(|(l, u)| l > u) {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                "min must be less than or equal to max",
            ));
        }
    }
    Ok(x)
}

/// A bound's value where the operand has one: a Python number's.
fn value(bound: &Operand) -> Option<f64> {
    match bound.kind() {
        OperandKind::PyInt(v) => Some(v as f64),
        OperandKind::PyFloat(v) => Some(v),
        _ => None,
    }
}

/// How array-api-strict types `op`, in words; `None` for `dot` and
/// `einsum`.
pub(super) fn describe(op: ArrayOp) -> Option<String> {
    let (name, category, takes_dtype) = function(op)?;
    let takes = match category {
        Category::Any => "any dtype".to_owned(),
        other => format!("{} dtypes", other.name()),
    };
    let rule = match op {
        ArrayOp::Where => {
            "promotes as + does (the standard's table; a Python scalar of a kind \
                           the array holds)"
        }
        ArrayOp::Concatenate | ArrayOp::Stack => "promotes by the standard's table",
        ArrayOp::Clip => {
            "answers x's dtype: an integer x refuses a float bound, a float x an \
                          integer array bound; bounds are None, int, float or arrays, min <= max"
        }
        _ => "then answers as NumPy does",
    };
    let keyword = if takes_dtype {
        ", dtype="
    } else {
        ", no dtype="
    };
    Some(format!("xp.{name}: takes {takes}{keyword}; {rule}"))
}
