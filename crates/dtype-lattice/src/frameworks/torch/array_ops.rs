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
//!     Torch.array_op(&ArrayCall::new(op), &operands).unwrap()
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
use super::combinations;
use super::kernels::{
    Types, BOOL, CLASSIC, COMPLEX, FLOAT8, FLOATING, HALVES, INTEGRAL, ORDERED, REAL,
};
use super::ops::{self, cast, is_integral, run};
use super::{
    check_tensors, is_float8, is_floating, known, scalar_type_name, tier, ScalarType, Slot, Tiered,
    Torch,
};
use crate::frameworks::common::array_ops::counted;
use crate::frameworks::common::Output;
use crate::prelude::*;
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

/// The signatures `var`, `std`, `any` and `all` list where none takes the
/// arguments; the other reductions have one that names the bad argument.
const VAR_SIGNATURES: &str = " * (Tensor input, tuple of ints dim, bool unbiased = True, bool \
     keepdim = False, *, Tensor out = None)\n * (Tensor input, tuple of ints dim = None, *, \
     Number correction = None, bool keepdim = False, Tensor out = None)\n * (Tensor input, bool \
     unbiased = True)\n";
const ANY_SIGNATURES: &str = " * (Tensor input, *, Tensor out = None)\n * (Tensor input, tuple \
     of ints dim = None, bool keepdim = False, *, Tensor out = None)\n * (Tensor input, int dim, \
     bool keepdim = False, *, Tensor out = None)\n";

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
        let promote_integers = call.promote_integers().is_some();
        return reduce(name, kernel, *rule, &arguments, dtype, promote_integers);
    }
    let result = match op {
        ArrayOp::Matmul | ArrayOp::Dot | ArrayOp::Tensordot | ArrayOp::Einsum => {
            contract(op, &arguments, dtype).map(Typed::strong)
        }
        ArrayOp::Where => combinations::select(torch, &arguments),
        ArrayOp::Clip => combinations::clamp(torch, &arguments),
        ArrayOp::Concatenate | ArrayOp::Stack => combinations::join(torch, op, &arguments),
        _ => combinations::full_like(&arguments, dtype),
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

/// A reduction of one tensor, with `dtype=` if given.
fn reduce(
    name: &str,
    kernel: &str,
    rule: Reduce,
    arguments: &[Operand],
    dtype: Option<DType>,
    promote_integers: bool,
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
        return Err(PromotionError::framework(
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
    if promote_integers {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            match name {
                "sum" | "prod" => format!(
                    "{name}() received an invalid combination of arguments - got (Tensor, \
                     promote_integers=bool), but expected one of:\n * (Tensor input, *, \
                     torch.dtype dtype = None)\n * (Tensor input, {} dim, bool keepdim = \
                     False, *, torch.dtype dtype = None, Tensor out = None)\n",
                    if name == "sum" {
                        "tuple of ints"
                    } else {
                        "int"
                    }
                ),
                _ => format!("{name}() got an unexpected keyword argument 'promote_integers'"),
            },
        ));
    }
    if let (Some(_), true) = (dtype, spread) {
        let list = VAR_SIGNATURES.replace(
            "unbiased = True)\n",
            "unbiased = True)\n      didn't match because some of the keywords were incorrect: \
             dtype\n",
        );
        return Err(PromotionError::framework(
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
                return Err(PromotionError::framework(
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
                return Err(PromotionError::framework(
                    ErrorKind::NotImplemented,
                    "std and var only support floating point and complex dtypes",
                ));
            }
            if is_float8(x) {
                return Err(PromotionError::framework(
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
                return Err(PromotionError::framework(
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
    Ok(Outcome::new(Typed::strong(result), computes))
}

/// Floating (float8 included) or complex: what `mean`, `var` and `std`
/// take.
fn is_inexact(dtype: DType) -> bool {
    is_floating(dtype) || dtype.kind() == Kind::Complex
}

/// The dtype of a tensor operand, `None` for a Python number.
pub(super) fn tensor(operand: &Operand) -> Option<DType> {
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
        return Err(PromotionError::framework(
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
                PromotionError::framework(
                    ErrorKind::Attribute,
                    format!("'{class}' object has no attribute 'dim'"),
                )
            } else {
                PromotionError::framework(
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
        return Err(PromotionError::framework(ErrorKind::Runtime, message));
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

fn zero_dim(arguments: &[Operand]) -> bool {
    arguments
        .iter()
        .any(|o| matches!(o.kind(), OperandKind::ZeroDim(_)))
}

/// A contraction of a zero-dimensional tensor, which PyTorch refuses with
/// the operands' numbers of dimensions: a dtype operand has none said.
fn zero_dim_contraction(name: &str) -> PromotionError {
    PromotionError::framework(
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
    fn the_halves_compute_in_float32() {
        assert_eq!(opmath(DType::BFloat16), DType::Float32);
        assert_eq!(opmath(DType::Complex32), DType::Complex64);
        assert_eq!(opmath(DType::Int8), DType::Int8);
    }
}
