//! PyTorch's functions that combine tensors and Python numbers or pin the
//! result's dtype: `torch.where`, `torch.clamp`, `torch.cat`,
//! `torch.stack`, `torch.full_like` (the rest of `array_ops.rs`).
//!
//! `where` and `clamp` promote as `torch.result_type` does, Python numbers
//! in a tier of their own (`clamp` only where the input is not floating);
//! a tensor is cast to the result (`copy_`), a Python number filled into
//! it and checked against its range as `c10::checked_convert` checks.
//!
//! ```
//! use dtype_lattice::frameworks::torch::Torch;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy, Typed};
//! let clip = ArrayCall::new(ArrayOp::Clip);
//! let x = Operand::dtype(DType::Int8);
//! let answer = Torch.array_op(&clip, &[x, Operand::py_float(2.5)]).unwrap();
//! assert_eq!(answer.unwrap().result(), Typed::strong(DType::Float32));
//! let err = Torch.array_op(&clip, &[x, Operand::py_int(300)]).unwrap().unwrap_err();
//! assert_eq!(err.to_string(), "Clamp min value 300 is outside the representable range of Char");
//! ```

use super::args::{self, python_class, signature, Parser, Type};
use super::array_ops::tensor;
use super::kernels::{Types, BAREBONES, ORDERED, REAL};
use super::ops::{cast, copy, fill, run};
use super::{is_floating, scalar_type_name, tier, ScalarType, Tiered, Torch};
use crate::prelude::*;
use crate::types::{ArrayOp, DType, ErrorKind, Kind, Operand, OperandKind};
use crate::types::{PromotionError, Typed};

/// The kernels of `torch.clamp` (both bounds, or Python numbers).
const CLAMP: Types = REAL.with(BAREBONES);

const CLAMP_SIGNATURES: &str = " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor \
     out = None)\n * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)\n";

/// `torch.where`'s signatures, in the parser's order.
const WHERE: Parser = Parser {
    name: "where",
    signatures: &[
        signature(&[(Type::Tensor, "condition")], false),
        signature(
            &[
                (Type::Tensor, "condition"),
                (Type::Tensor, "input"),
                (Type::Tensor, "other"),
            ],
            true,
        ),
        signature(
            &[
                (Type::Tensor, "condition"),
                (Type::Number, "self"),
                (Type::Tensor, "other"),
            ],
            false,
        ),
        signature(
            &[
                (Type::Tensor, "condition"),
                (Type::Tensor, "input"),
                (Type::Number, "other"),
            ],
            false,
        ),
        signature(
            &[
                (Type::Tensor, "condition"),
                (Type::Number, "self"),
                (Type::Number, "other"),
            ],
            false,
        ),
    ],
    numbers_as_tensors: false,
};

/// `torch.full_like(input, fill_value)`.
const FULL_LIKE: Parser = Parser {
    name: "full_like",
    signatures: &[signature(
        &[(Type::Tensor, "input"), (Type::Number, "fill_value")],
        false,
    )],
    numbers_as_tensors: false,
};

/// The name `c10::checked_convert` gives the type it converts a Python
/// number to.
fn converted_name(dtype: DType) -> String {
    match dtype {
        DType::Int32 => "int".to_owned(),
        DType::Float32 => "float".to_owned(),
        DType::Float64 => "double".to_owned(),
        d if d.is_integer() => format!("{}_t", d.name()),
        other => format!("c10::{}", scalar_type_name(other)),
    }
}

/// The largest finite value of a float type.
fn float_max(dtype: DType) -> f64 {
    match dtype {
        DType::Float16 => 65504.0,
        DType::BFloat16 => 3.389_531_389_251_535_5e38,
        DType::Float32 => f64::from(f32::MAX),
        DType::Float8E4M3Fn => 448.0,
        DType::Float8E4M3Fnuz => 240.0,
        DType::Float8E5M2 | DType::Float8E5M2Fnuz => 57344.0,
        DType::Float8E8M0Fnu => 1.701_411_834_604_692_3e38,
        _ => f64::MAX,
    }
}

/// An integer type's least and greatest values.
fn int_range(dtype: DType) -> (i128, i128) {
    let bits = dtype.bits().min(64);
    if dtype.kind() == Kind::Unsigned {
        (0, (1 << bits) - 1)
    } else {
        (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    }
}

/// A Python number's value.
#[derive(Clone, Copy)]
enum Number {
    Int(i128),
    Float(f64),
    /// A complex number with an imaginary part.
    Complex,
}

impl Number {
    fn of(operand: &Operand) -> Option<Number> {
        Some(match operand.kind() {
            OperandKind::PyInt(n) => Number::Int(n),
            OperandKind::PyBool(b) => Number::Int(i128::from(b)),
            OperandKind::PyFloat(x) => Number::Float(x),
            OperandKind::PyComplex { imag, .. } if imag != 0.0 => Number::Complex,
            OperandKind::PyComplex { real, .. } => Number::Float(real),
            _ => return None,
        })
    }

    /// Whether it lies in `least..=most`.
    fn within(self, least: i128, most: i128) -> bool {
        match self {
            Number::Int(n) => (least..=most).contains(&n),
            Number::Float(x) => x >= least as f64 && x <= most as f64,
            Number::Complex => false,
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            Number::Int(n) => n as f64,
            Number::Float(x) => x,
            Number::Complex => f64::NAN,
        }
    }
}

/// `c10::checked_convert` of a Python number to `to`, as `torch.full_like`
/// fills with it: an integer must fit (an unsigned one down to minus its
/// greatest value, as C++ wraps), a finite float too; a complex number
/// with an imaginary part converts to no real type.
fn checked_convert(number: &Operand, to: DType) -> Result<(), PromotionError> {
    let Some(number) = Number::of(number) else {
        return Ok(());
    };
    let fits = match (to.kind(), number) {
        (Kind::Bool | Kind::Complex, _) => true,
        (_, Number::Complex) => false,
        (Kind::Signed | Kind::Unsigned, _) => {
            let (least, most) = int_range(to);
            let least = if to.kind() == Kind::Unsigned {
                -most
            } else {
                least
            };
            number.within(least, most)
        }
        _ => {
            let x = number.as_f64();
            !x.is_finite() || x.abs() <= float_max(to)
        }
    };
    if fits {
        Ok(())
    } else {
        Err(PromotionError::framework(
            ErrorKind::Runtime,
            format!(
                "value cannot be converted to type {} without overflow",
                converted_name(to)
            ),
        ))
    }
}

/// `torch.where(condition, x, y)`: `torch.result_type` of `x` and `y`, a
/// tensor cast to it, a Python number filled into it.
pub(super) fn select(torch: &Torch, arguments: &[Operand]) -> Result<Typed, PromotionError> {
    args::parse(&WHERE, arguments)?;
    let [condition, values @ ..] = arguments else {
        unreachable!("counted: where takes three operands")
    };
    if let Some(c) = tensor(condition).filter(|&c| c != DType::Bool && c != DType::UInt8) {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            format!(
                "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                scalar_type_name(c)
            ),
        ));
    }
    let tiered = values
        .iter()
        .map(tier)
        .collect::<Result<Vec<Tiered>, _>>()?;
    let common = torch.promote_all_tiers(&tiered)?;
    for (operand, &tiered) in values.iter().zip(&tiered) {
        if tensor(operand).is_some() {
            cast(tiered, common)?;
        } else {
            fill(common, tiered)?;
            // The reduced floats take any value unchecked (measured).
            let checked = !is_floating(common.dtype()?) || common.dtype()?.bits() >= 32;
            if checked {
                checked_convert(operand, common.dtype()?)?;
            }
        }
    }
    common.dtype().map(Typed::strong)
}

/// `torch.clamp(x, min)` and `torch.clamp(x, min, max)`, a bound `None`
/// where not given: tensor bounds promote with `x` and run `maximum`,
/// `minimum` or `clamp`; Python numbers join the promotion only of an `x`
/// that is not floating, and must fit the result.
pub(super) fn clamp(torch: &Torch, arguments: &[Operand]) -> Result<Typed, PromotionError> {
    let [input, bounds @ ..] = arguments else {
        unreachable!("counted: clip takes two or three operands")
    };
    // Each bound given, with whether it is the lower one.
    let given: Vec<(bool, &Operand)> = bounds
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.is_none())
        .map(|(at, b)| (at == 0, b))
        .collect();
    let tensors = given.iter().all(|(_, b)| tensor(b).is_some());
    let numbers = given.iter().all(|(_, b)| Number::of(b).is_some());
    let x = match tensor(input) {
        Some(x) if tensors || numbers => x,
        _ => {
            let classes: Vec<&str> = arguments.iter().map(python_class).collect();
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "clamp() received an invalid combination of arguments - got ({}), but \
                     expected one of:\n{CLAMP_SIGNATURES}",
                    classes.join(", ")
                ),
            ));
        }
    };
    if given.is_empty() {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            "torch.clamp: At least one of 'min' or 'max' must not be None",
        ));
    }
    let complex = || {
        PromotionError::framework(
            ErrorKind::NotImplemented,
            "clamp is not supported for complex types",
        )
    };
    if x.kind() == Kind::Complex {
        return Err(complex());
    }
    let mut tiered = vec![tier(input)?];
    for (_, bound) in &given {
        tiered.push(tier(bound)?);
    }
    let (lower, upper) = (given.iter().any(|g| g.0), given.iter().any(|g| !g.0));
    if tensors {
        let common = torch.promote_all_tiers(&tiered)?;
        for &operand in &tiered {
            cast(operand, common)?;
        }
        let kernel = match (lower, upper) {
            (true, true) => ("clamp_cpu", CLAMP),
            (true, false) => ("maximum_cpu", ORDERED.with(BAREBONES)),
            _ => ("minimum_cpu", ORDERED.with(BAREBONES)),
        };
        run(kernel.0, kernel.1, common)?;
        return common.dtype().map(Typed::strong);
    }
    let common = if is_floating(x) {
        ScalarType::of(x)
    } else {
        torch.promote_all_tiers(&tiered)?
    };
    let dtype = common.dtype()?;
    if dtype.kind() == Kind::Complex {
        return Err(complex());
    }
    cast(tiered[0], common)?;
    // The bounds are read as doubles before the kernel is chosen.
    if given
        .iter()
        .any(|(_, b)| matches!(Number::of(b), Some(Number::Complex)))
    {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            "value cannot be converted to type double without overflow",
        ));
    }
    let kernel = match (lower, upper) {
        (true, true) => "clamp_scalar_cpu",
        (true, false) => "clamp_min_scalar_cpu",
        _ => "clamp_max_scalar_cpu",
    };
    run(kernel, CLAMP, common)?;
    for &(is_lower, bound) in &given {
        if !dtype.is_integer() {
            checked_convert(bound, dtype)?;
            continue;
        }
        let Some(v) = Number::of(bound) else { continue };
        let (least, most) = int_range(dtype);
        // Only a lower bound above the type, or an upper one below it,
        // clamps every value out of it.
        let (which, outside) = if is_lower {
            ("min", !v.within(i128::MIN, most))
        } else {
            ("max", !v.within(least, i128::MAX))
        };
        if outside {
            return Err(PromotionError::framework(
                ErrorKind::Runtime,
                format!(
                    "Clamp {which} value {} is outside the representable range of {}",
                    cpp_double(v.as_f64()),
                    scalar_type_name(dtype)
                ),
            ));
        }
    }
    Ok(Typed::strong(dtype))
}

/// A double as C++'s `ostream` prints it: six significant digits.
fn cpp_double(v: f64) -> String {
    if crate::float::fract(v) == 0.0 && v.abs() < 1e6 {
        return format!("{v:.0}");
    }
    let text = format!("{v:.5e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

/// `torch.cat` and `torch.stack` of the tensors: their promotion, each
/// copied into it.
pub(super) fn join(
    torch: &Torch,
    op: ArrayOp,
    arguments: &[Operand],
) -> Result<Typed, PromotionError> {
    let mut dtypes = Vec::with_capacity(arguments.len());
    for (at, operand) in arguments.iter().enumerate() {
        let Some(dtype) = tensor(operand) else {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "expected Tensor as element {at} in argument 0, but got {}",
                    python_class(operand)
                ),
            ));
        };
        dtypes.push(dtype);
    }
    if op == ArrayOp::Concatenate {
        if let Some(at) = arguments
            .iter()
            .position(|o| matches!(o.kind(), OperandKind::ZeroDim(_)))
        {
            return Err(PromotionError::framework(
                ErrorKind::Runtime,
                format!("zero-dimensional tensor (at position {at}) cannot be concatenated"),
            ));
        }
    }
    let mut common = dtypes[0];
    for &dtype in &dtypes[1..] {
        common = torch.promote(common, dtype)?;
    }
    for &dtype in &dtypes {
        copy("copy_kernel", ScalarType::of(dtype), ScalarType::of(common))?;
    }
    Ok(Typed::strong(common))
}

/// `torch.full_like(x, value, dtype=...)`: `x`'s dtype or `dtype=`, filled
/// with the value, which must fit it.
pub(super) fn full_like(
    arguments: &[Operand],
    dtype: Option<DType>,
) -> Result<Typed, PromotionError> {
    args::parse(&FULL_LIKE, arguments)?;
    let [input, number] = arguments else {
        unreachable!("counted: full_like takes two operands")
    };
    let x = tier(input)?;
    let target = dtype.unwrap_or(x.1);
    fill(ScalarType::of(target), x)?;
    checked_convert(number, target)?;
    Ok(Typed::strong(target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_print_as_cpp_does() {
        assert_eq!(cpp_double(300.0), "300");
        assert_eq!(cpp_double(-300.0), "-300");
        assert_eq!(cpp_double(9_223_372_036_854_775_808.0), "9.22337e+18");
    }
}
