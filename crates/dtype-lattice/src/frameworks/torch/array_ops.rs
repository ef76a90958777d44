//! PyTorch's operations on whole arrays on the CPU: the reductions
//! (`torch.sum`, `torch.amax`, `torch.var`, ...), the contractions
//! (`torch.matmul`, `torch.dot`, `torch.tensordot`, `torch.einsum`), and
//! `torch.where`, `torch.clamp`, `torch.cat`, `torch.stack`,
//! `torch.full_like`; and the type each computes in where `torch._refs`,
//! PyTorch's Python references of its operations, says it.
//!
//! A reduction picks the dtype it runs in (`sum` and `prod` of an integer
//! or bool accumulate in `int64`; `dtype=` replaces it), casts its input
//! to it (`copy_`) and runs its kernel, which PyTorch has for some dtypes
//! only. The contractions refuse mixed dtypes, each in its own words.
//! `where` and `clamp` promote as `torch.result_type` does, with a tier
//! for Python numbers; `cat` and `stack` as `torch.promote_types`. The
//! computation type is PyTorch's "opmath": `float16` and `bfloat16`
//! compute in `float32`, `complex32` in `complex64`.
//!
//! ```
//! use dtype_lattice::frameworks::torch::Torch;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy};
//! let ask = |op, dtypes: &[DType]| {
//!     let operands: Vec<Operand> = dtypes.iter().map(|&d| Operand::dtype(d)).collect();
//!     Torch.array_op(ArrayCall::new(op), &operands).unwrap()
//! };
//! assert_eq!(ask(ArrayOp::Sum, &[DType::Int8]).unwrap().to_string(), "int64");
//! let var = ask(ArrayOp::Var, &[DType::Complex64]).unwrap();
//! assert_eq!(var.to_string(), "float32 (computes in complex64)"); // torch._refs.var
//! let err = ask(ArrayOp::Matmul, &[DType::Float32, DType::Float64]).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "expected m1 and m2 to have the same dtype, but got: float != double"
//! );
//! let sum = ask(ArrayOp::Sum, &[DType::BFloat16]).unwrap();
//! assert_eq!(sum.to_string(), "bfloat16 (computes in float32)");
//! ```
//!
//! The elementwise operations' computation type is
//! [`computes_in`](crate::Policy::computes_in)'s:
//!
//! ```
//! use dtype_lattice::frameworks::torch::Torch;
//! use dtype_lattice::{DType, Op, Operand, Policy};
//! let x = Operand::dtype(DType::BFloat16);
//! assert_eq!(Torch.computes_in(Op::Add, &[x, x]), Some(DType::Float32));
//! assert_eq!(Torch.computes_in(Op::Less, &[x, Operand::py_int(2)]), Some(DType::Float32));
//! let i = Operand::dtype(DType::Int8);
//! assert_eq!(Torch.computes_in(Op::Add, &[i, i]), Some(DType::Int8));
//! ```

use super::args::{self, python_class, signature, Parser, Type};
use super::kernels::{
    Types, BAREBONES, BOOL, CLASSIC, COMPLEX, FLOAT8, FLOATING, HALVES, INTEGRAL, ORDERED, REAL,
};
use super::ops::{self, cast, copy, fill, is_integral, run};
use super::{
    check_tensors, is_float8, is_floating, known, scalar_type_name, tier, ScalarType, Slot, Tiered,
    Torch,
};
use crate::frameworks::common::array_ops::counted;
use crate::frameworks::common::Output;
use crate::types::{ArrayCall, ArrayOp, DType, ErrorKind, Kind, Op, Operand, OperandKind};
use crate::types::{Outcome, PromotionError, Typed};

/// How a reduction picks and checks the dtype it runs in.
#[derive(Clone, Copy)]
enum Reduce {
    /// `sum`, `prod`, `cumsum`, `cumprod`: `dtype=`, else `int64` for an
    /// integer or bool, else the input's; the input cast to it.
    Accumulate(Types),
    /// `mean`: `dtype=` or the input's, which must be floating or complex.
    Mean,
    /// `var`, `std`: a floating or complex input; a complex one's part type.
    Spread,
    /// `amax`, `amin`: the input's own dtype.
    Extreme,
    /// `argmax`, `argmin`: `int64`, refusing bool and complex.
    Index,
    /// `any`, `all`: `bool` (`uint8` for `uint8`), the input cast to bool.
    Logical,
}

/// Each reduction: its function, its kernel, its rule.
const REDUCTIONS: [(ArrayOp, &str, &str, Reduce); 13] = [
    (ArrayOp::Sum, "sum", "sum_cpu", Reduce::Accumulate(CLASSIC)),
    (
        ArrayOp::Prod,
        "prod",
        "prod_out_cpu",
        Reduce::Accumulate(CLASSIC),
    ),
    (
        ArrayOp::CumSum,
        "cumsum",
        "cumsum_out_cpu",
        Reduce::Accumulate(CUMULATE),
    ),
    (
        ArrayOp::CumProd,
        "cumprod",
        "cumprod_out_cpu",
        Reduce::Accumulate(CUMULATE),
    ),
    (ArrayOp::Mean, "mean", "sum_cpu", Reduce::Mean),
    (ArrayOp::Var, "var", "std_var_all", Reduce::Spread),
    (ArrayOp::Std, "std", "std_var_all", Reduce::Spread),
    (ArrayOp::Max, "amax", "max_values_cpu", Reduce::Extreme),
    (ArrayOp::Min, "amin", "min_values_cpu", Reduce::Extreme),
    (ArrayOp::ArgMax, "argmax", "argmax_cpu", Reduce::Index),
    (ArrayOp::ArgMin, "argmin", "argmin_cpu", Reduce::Index),
    (ArrayOp::Any, "any", "copy_", Reduce::Logical),
    (ArrayOp::All, "all", "copy_", Reduce::Logical),
];

/// The cumulative kernels have no bool code.
const CUMULATE: Types = CLASSIC.without(BOOL);
/// `addmm_impl_cpu_`'s types (`torch.matmul` and `torch.tensordot` of
/// matrices), the float8 types but `float8_e8m0fnu` among them.
const ADDMM: Types = INTEGRAL
    .with(FLOAT8)
    .with(HALVES)
    .with(FLOATING)
    .with(COMPLEX);
/// `dot`'s and `bmm`'s (`torch.einsum`) types.
const DOT: Types = REAL.with(COMPLEX);
/// The kernels of `torch.clamp` (both bounds, or Python numbers).
const CLAMP: Types = REAL.with(BAREBONES);

/// The signatures `var`, `std`, `any` and `all` list where none takes the
/// arguments; the other reductions have one that names the bad argument.
const VAR_SIGNATURES: &str = " * (Tensor input, tuple of ints dim, bool unbiased = True, bool \
     keepdim = False, *, Tensor out = None)\n * (Tensor input, tuple of ints dim = None, *, \
     Number correction = None, bool keepdim = False, Tensor out = None)\n * (Tensor input, bool \
     unbiased = True)\n";
const ANY_SIGNATURES: &str = " * (Tensor input, *, Tensor out = None)\n * (Tensor input, tuple \
     of ints dim = None, bool keepdim = False, *, Tensor out = None)\n * (Tensor input, int dim, \
     bool keepdim = False, *, Tensor out = None)\n";
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

/// `torch.<op>(...)` on the CPU: [`Policy::array_op`](crate::Policy::array_op).
pub(super) fn array_op(
    torch: &Torch,
    call: ArrayCall,
    operands: &[Operand],
) -> Result<Outcome, PromotionError> {
    let arguments: Vec<Operand> = counted(call, operands)?
        .iter()
        .map(|o| o.as_argument())
        .collect();
    // As Python runs the call: the tensors are built, then `torch.<dtype>`
    // is looked up, and only then the function runs.
    check_tensors(&arguments)?;
    let dtype = call.dtype().map(known).transpose()?;
    let op = call.op();
    if let Some((_, name, kernel, rule)) = REDUCTIONS.iter().find(|r| r.0 == op) {
        return reduce(name, kernel, *rule, &arguments, dtype);
    }
    let result = match op {
        ArrayOp::Matmul | ArrayOp::Dot | ArrayOp::Tensordot | ArrayOp::Einsum => {
            contract(op, &arguments, dtype).map(Typed::strong)
        }
        ArrayOp::Where => select(torch, &arguments),
        ArrayOp::Clip => clamp(torch, &arguments),
        ArrayOp::Concatenate | ArrayOp::Stack => join(torch, op, &arguments),
        _ => full_like(&arguments, dtype),
    };
    result.map(Outcome::of)
}

/// PyTorch's `float16` and `bfloat16` compute in `float32`, `complex32`
/// in `complex64` (`torch._prims_common.get_computation_dtype`).
fn opmath(dtype: DType) -> DType {
    match dtype {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        DType::Complex32 => DType::Complex64,
        other => other,
    }
}

fn framework(kind: ErrorKind, message: impl Into<String>) -> PromotionError {
    PromotionError::framework(kind, message.into())
}

/// A reduction of one tensor, with `dtype=` if given.
fn reduce(
    name: &str,
    kernel: &str,
    rule: Reduce,
    arguments: &[Operand],
    dtype: Option<DType>,
) -> Result<Outcome, PromotionError> {
    let [input] = arguments else {
        unreachable!("counted: a reduction takes one operand")
    };
    let spread = matches!(rule, Reduce::Spread);
    let listed = match name {
        "var" | "std" => Some(VAR_SIGNATURES),
        "any" | "all" => Some(ANY_SIGNATURES),
        _ => None,
    };
    let Some(x) = tensor(input) else {
        let class = python_class(input);
        return Err(framework(
            ErrorKind::Type,
            match listed {
                Some(list) => format!(
                    "{name}() received an invalid combination of arguments - got ({class}), but \
                     expected one of:\n{list}"
                ),
                None => {
                    format!("{name}(): argument 'input' (position 1) must be Tensor, not {class}")
                }
            },
        ));
    };
    if let (Some(_), true) = (dtype, spread) {
        let list = VAR_SIGNATURES.replace(
            "unbiased = True)\n",
            "unbiased = True)\n      didn't match because some of the keywords were incorrect: \
             dtype\n",
        );
        return Err(framework(
            ErrorKind::Type,
            format!(
                "{name}() received an invalid combination of arguments - got (Tensor, \
                 dtype=torch.dtype), but expected one of:\n{list}"
            ),
        ));
    }
    let of = ScalarType::of;
    let (result, computes) = match rule {
        Reduce::Accumulate(types) => {
            let widened = if is_integral(of(x), true) {
                DType::Int64
            } else {
                x
            };
            let target = dtype.unwrap_or(widened);
            cast((Slot::Dim, x), of(target))?;
            run(kernel, types, of(target))?;
            (target, Some(opmath(target)))
        }
        Reduce::Mean => {
            let target = dtype.unwrap_or(x);
            if !is_inexact(target) {
                return Err(framework(
                    ErrorKind::NotImplemented,
                    format!(
                        "mean(): could not infer output dtype. {} dtype must be either a \
                         floating point or complex dtype. Got: {}",
                        if dtype.is_some() { "Optional" } else { "Input" },
                        scalar_type_name(target)
                    ),
                ));
            }
            cast((Slot::Dim, x), of(target))?;
            run(kernel, CLASSIC, of(target))?;
            (target, Some(opmath(target)))
        }
        Reduce::Spread => {
            if !is_inexact(x) {
                return Err(framework(
                    ErrorKind::NotImplemented,
                    "std and var only support floating point and complex dtypes",
                ));
            }
            if is_float8(x) {
                return Err(framework(
                    ErrorKind::Runtime,
                    format!("{kernel}: Unsupported dtype {}", scalar_type_name(x)),
                ));
            }
            (x.real_part(), Some(opmath(x)))
        }
        Reduce::Extreme => {
            run(kernel, ORDERED, of(x))?;
            (x, Some(opmath(x)))
        }
        Reduce::Index => {
            let refused = match x.kind() {
                Kind::Complex => Some((ErrorKind::Type, "complex")),
                Kind::Bool => Some((ErrorKind::NotImplemented, "bool")),
                _ => None,
            };
            if let Some((kind, what)) = refused {
                return Err(framework(
                    kind,
                    format!("{name}(): does not support {what} input"),
                ));
            }
            run(kernel, REAL, of(x))?;
            (DType::Int64, None)
        }
        Reduce::Logical => {
            cast((Slot::Dim, x), of(DType::Bool))?;
            let result = if x == DType::UInt8 { x } else { DType::Bool };
            (result, None)
        }
    };
    Ok(Outcome {
        result: Typed::strong(result),
        computes_in: computes,
    })
}

/// Floating (float8 included) or complex: what `mean`, `var` and `std`
/// take.
fn is_inexact(dtype: DType) -> bool {
    is_floating(dtype) || dtype.kind() == Kind::Complex
}

/// The dtype of a tensor operand, `None` for a Python number.
fn tensor(operand: &Operand) -> Option<DType> {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => Some(dtype),
        _ => None,
    }
}

/// `torch.matmul`, `torch.dot`, `torch.tensordot`, `torch.einsum` of two
/// tensors of one dtype: none takes `dtype=`, none promotes.
fn contract(
    op: ArrayOp,
    arguments: &[Operand],
    dtype: Option<DType>,
) -> Result<DType, PromotionError> {
    let name = match op {
        ArrayOp::Matmul => "matmul",
        ArrayOp::Dot => "dot",
        ArrayOp::Tensordot => "tensordot",
        _ => "einsum",
    };
    if dtype.is_some() {
        return Err(framework(
            ErrorKind::Type,
            format!("{name}() got an unexpected keyword argument 'dtype'"),
        ));
    }
    match op {
        ArrayOp::Matmul => args::parse(&MATMUL, arguments).map(drop)?,
        ArrayOp::Dot => args::parse(&DOT_PARSER, arguments).map(drop)?,
        _ => {}
    }
    let [a, b] = arguments else {
        unreachable!("counted: a contraction takes two operands")
    };
    let (a, b) = match (tensor(a), tensor(b)) {
        (Some(a), Some(b)) => (a, b),
        (first, _) => {
            // The first argument that is no tensor.
            let at = usize::from(first.is_some());
            let class = python_class(&arguments[at]);
            return Err(if op == ArrayOp::Tensordot {
                framework(
                    ErrorKind::Attribute,
                    format!("'{class}' object has no attribute 'dim'"),
                )
            } else {
                framework(
                    ErrorKind::Type,
                    format!("expected Tensor as element {at} in argument 1, but got {class}"),
                )
            });
        }
    };
    if zero_dim(arguments) {
        return Err(zero_dim_contraction(name));
    }
    let (of_a, of_b) = (ScalarType::of(a), ScalarType::of(b));
    let kernel = match op {
        ArrayOp::Dot => ("dot", DOT),
        ArrayOp::Einsum => ("bmm", DOT),
        _ => ("addmm_impl_cpu_", ADDMM),
    };
    if op == ArrayOp::Einsum {
        run(kernel.0, kernel.1, of_a)?;
    }
    if a != b {
        let message = match op {
            ArrayOp::Matmul => format!(
                "expected m1 and m2 to have the same dtype, but got: {} != {}",
                cpp_type(a),
                cpp_type(b)
            ),
            ArrayOp::Dot => format!(
                "dot : expected both vectors to have same dtype, but found {} and {}",
                of_a.name(),
                of_b.name()
            ),
            ArrayOp::Tensordot => "both inputs should have same dtype".to_owned(),
            _ => format!(
                "expected scalar type {} but found {}",
                of_a.name(),
                of_b.name()
            ),
        };
        return Err(framework(ErrorKind::Runtime, message));
    }
    run(kernel.0, kernel.1, of_a)?;
    Ok(a)
}

/// `torch.matmul`'s and `torch.dot`'s signatures, which take tensors only.
const MATMUL: Parser = Parser {
    name: "matmul",
    signatures: &[signature(
        &[(Type::Tensor, "input"), (Type::Tensor, "other")],
        true,
    )],
    numbers_as_tensors: false,
};
const DOT_PARSER: Parser = Parser {
    name: "dot",
    signatures: &[signature(
        &[(Type::Tensor, "input"), (Type::Tensor, "tensor")],
        true,
    )],
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

fn zero_dim(arguments: &[Operand]) -> bool {
    arguments
        .iter()
        .any(|o| matches!(o.kind(), OperandKind::ZeroDim(_)))
}

/// A contraction of a zero-dimensional tensor, which PyTorch refuses with
/// the operands' numbers of dimensions: a dtype operand has none said.
fn zero_dim_contraction(name: &str) -> PromotionError {
    framework(
        ErrorKind::Value,
        format!(
            "dtype-lattice models torch.{name} of tensors with dimensions; PyTorch refuses a \
             zero-dimensional tensor here (pass dtypes or arrays)"
        ),
    )
}

/// The C++ type PyTorch's `mm` names a dtype by.
fn cpp_type(dtype: DType) -> String {
    let sub_byte = |signed: &str| format!("c10::dummy_{signed}int1_7_t<{}>", dtype.bits());
    match dtype {
        DType::Bool => "bool".to_owned(),
        DType::UInt1 | DType::UInt2 | DType::UInt4 => sub_byte("u"),
        DType::Int1 | DType::Int2 | DType::Int4 => sub_byte(""),
        DType::UInt8 => "unsigned char".to_owned(),
        DType::UInt16 => "short unsigned int".to_owned(),
        DType::UInt32 => "unsigned int".to_owned(),
        DType::UInt64 => "long unsigned int".to_owned(),
        DType::Int8 => "signed char".to_owned(),
        DType::Int16 => "short int".to_owned(),
        DType::Int32 => "int".to_owned(),
        DType::Int64 => "long int".to_owned(),
        DType::Float32 => "float".to_owned(),
        DType::Float64 => "double".to_owned(),
        DType::Complex32 => "c10::complex<c10::Half>".to_owned(),
        DType::Complex64 => "c10::complex<float>".to_owned(),
        DType::Complex128 => "c10::complex<double>".to_owned(),
        other => format!("c10::{}", scalar_type_name(other)),
    }
}

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
        Err(framework(
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
fn select(torch: &Torch, arguments: &[Operand]) -> Result<Typed, PromotionError> {
    args::parse(&WHERE, arguments)?;
    let [condition, values @ ..] = arguments else {
        unreachable!("counted: where takes three operands")
    };
    if let Some(c) = tensor(condition).filter(|&c| c != DType::Bool && c != DType::UInt8) {
        return Err(framework(
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

/// `torch.clamp(x, min)` and `torch.clamp(x, min, max)`: tensor bounds
/// promote with `x` and run `maximum` or `clamp`; Python numbers join the
/// promotion only of an `x` that is not floating, and must fit the result.
fn clamp(torch: &Torch, arguments: &[Operand]) -> Result<Typed, PromotionError> {
    let [input, bounds @ ..] = arguments else {
        unreachable!("counted: clip takes two or three operands")
    };
    let tensors = bounds.iter().all(|b| tensor(b).is_some());
    let numbers = bounds.iter().all(|b| Number::of(b).is_some());
    let x = match tensor(input) {
        Some(x) if tensors || numbers => x,
        _ => {
            let classes: Vec<&str> = arguments.iter().map(python_class).collect();
            return Err(framework(
                ErrorKind::Type,
                format!(
                    "clamp() received an invalid combination of arguments - got ({}), but \
                     expected one of:\n{CLAMP_SIGNATURES}",
                    classes.join(", ")
                ),
            ));
        }
    };
    let complex = || {
        framework(
            ErrorKind::NotImplemented,
            "clamp is not supported for complex types",
        )
    };
    if x.kind() == Kind::Complex {
        return Err(complex());
    }
    let tiered = arguments
        .iter()
        .map(tier)
        .collect::<Result<Vec<Tiered>, _>>()?;
    let both = bounds.len() == 2;
    if tensors {
        let common = torch.promote_all_tiers(&tiered)?;
        for &operand in &tiered {
            cast(operand, common)?;
        }
        match both {
            true => run("clamp_cpu", CLAMP, common)?,
            false => run("maximum_cpu", ORDERED.with(BAREBONES), common)?,
        }
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
    if bounds
        .iter()
        .any(|b| matches!(Number::of(b), Some(Number::Complex)))
    {
        return Err(framework(
            ErrorKind::Runtime,
            "value cannot be converted to type double without overflow",
        ));
    }
    let kernel = if both {
        "clamp_scalar_cpu"
    } else {
        "clamp_min_scalar_cpu"
    };
    run(kernel, CLAMP, common)?;
    if dtype.is_integer() {
        let (least, most) = int_range(dtype);
        for (at, bound) in bounds.iter().enumerate() {
            let Some(v) = Number::of(bound) else { continue };
            // Only a lower bound above the type, or an upper one below it.
            let (which, outside) = if at == 0 {
                ("min", !v.within(i128::MIN, most))
            } else {
                ("max", !v.within(least, i128::MAX))
            };
            if outside {
                return Err(framework(
                    ErrorKind::Runtime,
                    format!(
                        "Clamp {which} value {} is outside the representable range of {}",
                        cpp_double(v.as_f64()),
                        scalar_type_name(dtype)
                    ),
                ));
            }
        }
    } else {
        for bound in bounds {
            checked_convert(bound, dtype)?;
        }
    }
    Ok(Typed::strong(dtype))
}

/// A double as C++'s `ostream` prints it: six significant digits.
fn cpp_double(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e6 {
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
fn join(torch: &Torch, op: ArrayOp, arguments: &[Operand]) -> Result<Typed, PromotionError> {
    let mut dtypes = Vec::with_capacity(arguments.len());
    for (at, operand) in arguments.iter().enumerate() {
        let Some(dtype) = tensor(operand) else {
            return Err(framework(
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
            return Err(framework(
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
fn full_like(arguments: &[Operand], dtype: Option<DType>) -> Result<Typed, PromotionError> {
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

/// The type PyTorch computes an elementwise `op` in, as
/// `torch._prims_common.elementwise_dtypes` says: the opmath type of the
/// dtype its kernel runs in, which is the result's but for a comparison
/// and `abs` (the inputs' common dtype, `bcomplex32` included, which
/// computes in `complex64`) and for `pow` of bools (`int64`, though
/// `x ** True` copies `x`). `None` where the operation fails.
pub(super) fn computes_in(torch: &Torch, op: Op, operands: &[Operand]) -> Option<DType> {
    let result = ops::operation(torch, op, operands).ok()?.dtype;
    let common = match ops::output(op) {
        Output::Same if op == Op::Power && result == DType::Bool => ScalarType::DType(DType::Int64),
        Output::Same => ScalarType::of(result),
        Output::Bool | Output::RealPart => {
            let arguments: Vec<Operand> = operands.iter().map(|o| o.as_argument()).collect();
            let tiered = arguments
                .iter()
                .map(tier)
                .collect::<Result<Vec<Tiered>, _>>()
                .ok()?;
            torch.promote_all_tiers(&tiered).ok()?
        }
    };
    Some(match common {
        ScalarType::DType(dtype) => opmath(dtype),
        ScalarType::HalfComplex(_) => DType::Complex64,
    })
}

/// How `torch.<function>` answers `op`, in words.
pub(super) fn describe(op: ArrayOp) -> String {
    let head = "PyTorch 2.15, CPU";
    if let Some((_, name, kernel, rule)) = REDUCTIONS.iter().find(|r| r.0 == op) {
        let how = match rule {
            Reduce::Accumulate(types) => format!(
                "the dtype= given, else int64 for an integer or bool input, else the input's \
                 dtype; the input cast to it (copy_) and the {kernel} kernel run in it, which \
                 has code for {} only (NotImplementedError for the rest)",
                types.names().join(", ")
            ),
            Reduce::Mean => "the dtype= given, else the input's, which must be floating or \
                 complex (NotImplementedError \"mean(): could not infer output dtype...\"); \
                 the input cast to it and summed by sum_cpu"
                .to_owned(),
            Reduce::Spread => "a floating or complex input (NotImplementedError for the rest, \
                 RuntimeError for the float8 types); the result is its dtype, a complex \
                 input's part type; no dtype= (TypeError)"
                .to_owned(),
            Reduce::Extreme => format!(
                "the input's dtype, where the {kernel} kernel has code for it ({})",
                ORDERED.names().join(", ")
            ),
            Reduce::Index => format!(
                "int64; bool (NotImplementedError) and complex (TypeError) inputs refused, \
                 the {kernel} kernel has code for {}",
                REAL.names().join(", ")
            ),
            Reduce::Logical => {
                "bool, uint8 for a uint8 input; the input cast to bool (copy_)".to_owned()
            }
        };
        let computes = match rule {
            Reduce::Index | Reduce::Logical => "no computation type said",
            _ => {
                "computes in the opmath type of that dtype, as torch._refs does \
                 (reduction_dtypes: float16 and bfloat16 in float32, complex32 in complex64)"
            }
        };
        return format!("torch.{name} ({head}): {how}; {computes}");
    }
    let how = match op {
        ArrayOp::Matmul | ArrayOp::Tensordot | ArrayOp::Dot | ArrayOp::Einsum => {
            "both tensors of one dtype, no promotion (RuntimeError naming both dtypes), no \
             dtype= (TypeError); the kernel (addmm_impl_cpu_ for matmul and tensordot, dot, \
             bmm for einsum) must have code for it; the result is that dtype"
        }
        ArrayOp::Where => {
            "torch.result_type of the two values (a Python number in a tier below tensors), \
             the condition bool or uint8; a tensor cast to it (copy_), a number filled into \
             it (an integer must fit)"
        }
        ArrayOp::Clip => {
            "tensor bounds: torch.result_type of the input and bounds, each cast to it, \
             maximum_cpu (one bound) or clamp_cpu (two); Python bounds: the input's dtype if \
             floating, else torch.result_type, the bounds checked against it; complex refused \
             (NotImplementedError); tensor and number bounds mixed are a TypeError"
        }
        ArrayOp::Concatenate | ArrayOp::Stack => {
            "torch.promote_types of the tensors in order, each copied into it (copy_kernel); \
             Python numbers refused (TypeError)"
        }
        _ => {
            "the dtype= given, else the input's; filled with the Python number, which must \
             convert to it without overflow"
        }
    };
    let name = match op {
        ArrayOp::Clip => "clamp",
        ArrayOp::Concatenate => "cat",
        other => other.name(),
    };
    format!("torch.{name} ({head}): {how}; no computation type said")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reduction_has_a_row_and_every_op_a_description() {
        for op in ArrayOp::ALL {
            assert!(!describe(op).is_empty());
            let reduction = op.family() == crate::types::Family::Reduction;
            assert_eq!(REDUCTIONS.iter().any(|r| r.0 == op), reduction, "{op}");
        }
    }

    #[test]
    fn doubles_print_as_cpp_does() {
        assert_eq!(cpp_double(300.0), "300");
        assert_eq!(cpp_double(-300.0), "-300");
        assert_eq!(cpp_double(9_223_372_036_854_775_808.0), "9.22337e+18");
    }

    #[test]
    fn the_halves_compute_in_float32() {
        assert_eq!(opmath(DType::BFloat16), DType::Float32);
        assert_eq!(opmath(DType::Complex32), DType::Complex64);
        assert_eq!(opmath(DType::Int8), DType::Int8);
    }
}
