//! PaddlePaddle's reductions on the CPU: `paddle.sum`, `prod`, `cumsum`,
//! `cumprod`, `mean`, `var`, `std`, `max`, `min`, `argmax`, `argmin`,
//! `any`, `all`; the contractions and combinations are `combine.rs`'s.
//!
//! Each runs one kernel in one dtype, which the CPU wheel registers for a
//! few dtypes only (a missing one is the `(NotFound)` `RuntimeError` of
//! every Paddle kernel): `sum` in the input's dtype, its result `dtype=` or
//! `int64` for `bool`, `int32` and `int64` (the other integers keep their
//! own); `prod`, `cumprod` and `mean` in `dtype=` (the input cast to it) or
//! the input's; `cumsum` the same, `uint8` and the signed integers in `int64`;
//! `var` is Python composing `mean`, `subtract`, `pow`, `sum` and
//! `maximum` (each kernel in turn), `std` its `sqrt`.
//!
//! ```
//! use dtype_lattice::frameworks::paddle::Paddle;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy, Typed};
//! let ask = |op, dtype| Paddle.array_op(&ArrayCall::new(op), &[Operand::dtype(dtype)]);
//! let sum = ask(ArrayOp::Sum, DType::Int32).unwrap().unwrap();
//! assert_eq!(sum.result(), Typed::strong(DType::Int64));
//! let sum = ask(ArrayOp::Sum, DType::Int8).unwrap().unwrap();
//! assert_eq!(sum.result(), Typed::strong(DType::Int8));
//! let err = ask(ArrayOp::Prod, DType::Int8).unwrap().unwrap_err();
//! assert!(err.to_string().starts_with("(NotFound) The kernel with key (CPU, Undefined(AnyLayout), int8) of kernel `prod`"));
//! let var = ask(ArrayOp::Var, DType::Int32).unwrap().unwrap();
//! assert_eq!(var.result(), Typed::strong(DType::Int32));
//! let std = ask(ArrayOp::Std, DType::Int32).unwrap().unwrap();
//! assert_eq!(std.result(), Typed::strong(DType::Float32));
//! ```

use super::kernels::{kernel, Kernel, MAXIMUM, POW, SUBTRACT};
use super::methods::not_a_tensor;
use super::ops::{unary_call, unary_rule};
use super::promotion::Tensor;
use super::{combine, form, known, Form};
use crate::frameworks::common::array_ops::counted;
use crate::types::Typed;
use crate::types::{ArrayCall, ArrayOp, DType, ErrorKind, Op, Operand, Outcome, PromotionError};

use crate::prelude::*;
use DType::{
    BFloat16 as BF16, Bool, Complex128 as C128, Complex64 as C64, Float16 as F16, Float32 as F32,
    Float64 as F64, Int16 as I16, Int32 as I32, Int64 as I64, Int8 as I8, UInt8 as U8,
};

// Each kernel's registered dtypes, in the order its NotFound error lists
// them (measured).
static SUM: Kernel = kernel(
    "sum",
    &[I16, F64, C128, F16, F32, C64, I32, U8, BF16, Bool, I64, I8],
);
static PROD: Kernel = kernel("prod", &[I32, I64, F64, C128, F32, C64]);
static CUMSUM: Kernel = kernel("cumsum", &[I16, F64, C128, I32, U8, F32, C64, I64, I8]);
static CUMPROD: Kernel = kernel("cumprod", &[I32, I64, F64, C128, F32, C64]);
static MEAN: Kernel = kernel("mean", &[I32, I64, F64, C128, F32, C64, Bool]);
static MAX: Kernel = kernel("max", &[I32, I64, F64, F32]);
static MIN: Kernel = kernel("min", &[I32, I64, F64, F32]);
static ARGMAX: Kernel = kernel("argmax", &[I64, I16, F64, I32, U8, F32]);
static ARGMIN: Kernel = kernel("argmin", &[I64, I16, F64, I32, U8, F32]);
static ANY: Kernel = kernel("any", &[I32, I64, F64, C128, F32, C64, Bool]);
static ALL: Kernel = kernel("all", &[I32, I64, F64, C128, F32, C64, Bool]);

/// Which dtype a reduction's kernel runs in, and what it returns.
#[derive(Clone, Copy)]
enum Rule {
    /// `sum`: the input's dtype; the result `dtype=`, else `int64` for
    /// `bool`, `int32`, `int64`, else the input's.
    Sum,
    /// `dtype=` (the input cast to it), else the input's; `cumsum` widens
    /// an integer input to `int64` first when it is true.
    Cast { widens_integers: bool },
    /// The input's dtype, which the result keeps.
    Same,
    /// The input's dtype; the result this one.
    Fixed(DType),
    /// `var`: `mean`, `subtract`, `pow` and `sum` in the input's dtype,
    /// then `maximum` in it (`float32` for an integer, which the Python
    /// float of the correction casts); the result the input's dtype, or
    /// its `sqrt` for `std`.
    Var { sqrt: bool },
}

/// Each modelled reduction: Paddle's function, its kernel, its rule, and
/// whether it takes `dtype=`.
const REDUCTIONS: [(ArrayOp, &str, &Kernel, Rule, bool); 13] = [
    (ArrayOp::Sum, "sum", &SUM, Rule::Sum, true),
    (ArrayOp::Prod, "prod", &PROD, CAST, true),
    (
        ArrayOp::CumSum,
        "cumsum",
        &CUMSUM,
        Rule::Cast {
            widens_integers: true,
        },
        true,
    ),
    (ArrayOp::CumProd, "cumprod", &CUMPROD, CAST, true),
    (ArrayOp::Mean, "mean", &MEAN, CAST, true),
    (ArrayOp::Var, "var", &MEAN, Rule::Var { sqrt: false }, false),
    (ArrayOp::Std, "std", &MEAN, Rule::Var { sqrt: true }, false),
    (ArrayOp::Max, "max", &MAX, Rule::Same, false),
    (ArrayOp::Min, "min", &MIN, Rule::Same, false),
    (ArrayOp::ArgMax, "argmax", &ARGMAX, Rule::Fixed(I64), false),
    // Paddle's argmin names argmax in its refusal of a non-tensor.
    (ArrayOp::ArgMin, "argmax", &ARGMIN, Rule::Fixed(I64), false),
    (ArrayOp::Any, "any", &ANY, Rule::Fixed(Bool), false),
    (ArrayOp::All, "all", &ALL, Rule::Fixed(Bool), false),
];

const CAST: Rule = Rule::Cast {
    widens_integers: false,
};

/// `paddle.<op>(x, dtype=...)` on the CPU:
/// [`Policy::array_op`](crate::Policy::array_op).
pub(super) fn array_op(
    call: ArrayCall,
    operands: &[Operand],
) -> Option<Result<Outcome, PromotionError>> {
    let Some(&(_, name, kernel, rule, takes_dtype)) = REDUCTIONS.iter().find(|r| r.0 == call.op())
    else {
        return Some(combine::array_op(call, operands));
    };
    Some(reduce(call, operands, name, kernel, rule, takes_dtype))
}

fn reduce(
    call: ArrayCall,
    operands: &[Operand],
    name: &str,
    kernel: &'static Kernel,
    rule: Rule,
    takes_dtype: bool,
) -> Result<Outcome, PromotionError> {
    let [operand] = counted(call, operands)? else {
        unreachable!("counted: a reduction takes one operand")
    };
    let input = form(operand)?;
    let dtype = call.dtype().map(known).transpose()?;
    if dtype.is_some() && !takes_dtype {
        return Err(unexpected(name, "dtype"));
    }
    if call.promote_integers().is_some() {
        // `paddle.sum` hands its keywords to C++, which counts them.
        return Err(if call.op() == ArrayOp::Sum {
            too_many_arguments()
        } else {
            unexpected(name, "promote_integers")
        });
    }
    let x = match input {
        Form::Tensor(tensor) => tensor.dtype,
        Form::Number(number) if call.op() == ArrayOp::CumSum => {
            // `cumsum` reads the argument's dtype in Python first.
            return Err(PromotionError::framework(
                ErrorKind::Attribute,
                format!(
                    "'{}' object has no attribute 'dtype'",
                    number.scalar().name()
                ),
            ));
        }
        // `var` and `std` hand it to `mean` first.
        other if matches!(rule, Rule::Var { .. }) => return Err(not_a_tensor("mean", 0, other)),
        other => return Err(not_a_tensor(name, 0, other)),
    };
    if let Rule::Var { sqrt } = rule {
        return variance(x, sqrt).map(|d| Outcome::of(Typed::strong(d)));
    }
    let computed = match rule {
        Rule::Sum => x,
        Rule::Cast { widens_integers } => dtype.unwrap_or(if widens_integers && is_integer(x) {
            I64
        } else {
            x
        }),
        Rule::Same | Rule::Fixed(_) | Rule::Var { .. } => x,
    };
    kernel.run(computed).map_err(|stop| stop.error())?;
    let result = match rule {
        Rule::Sum => dtype.unwrap_or(if matches!(x, Bool | I32 | I64) {
            I64
        } else {
            x
        }),
        Rule::Cast { .. } | Rule::Same | Rule::Var { .. } => computed,
        Rule::Fixed(result) => result,
    };
    Ok(Outcome::of(Typed::strong(result)))
}

/// `paddle.var(x)` ([`Rule::Var`]), then `paddle.sqrt` of it for `std`.
fn variance(x: DType, sqrt: bool) -> Result<DType, PromotionError> {
    let kernels: [(&'static Kernel, DType); 5] = [
        (&MEAN, x),
        (&SUBTRACT, x),
        (&POW, x),
        (&SUM, x),
        (&MAXIMUM, if is_integer(x) { DType::Float32 } else { x }),
    ];
    for (kernel, dtype) in kernels {
        kernel.run(dtype).map_err(|stop| stop.error())?;
    }
    match unary_rule(Op::Sqrt) {
        Some(rule) if sqrt => {
            let tensor = Form::Tensor(Tensor {
                dtype: x,
                zero_dim: true,
            });
            unary_call(rule, tensor).map_err(|stop| stop.error())
        }
        _ => Ok(x),
    }
}

/// The integers `cumsum` widens: not bool, nor the unsigned types past
/// `uint8`, which Paddle's Python list leaves out.
fn is_integer(dtype: DType) -> bool {
    matches!(dtype, U8 | I8 | I16 | I32 | I64)
}

/// A keyword a function of C++ (`paddle.sum`, `paddle.matmul`) does not
/// take: its argument parser counts them.
pub(super) fn too_many_arguments() -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        "(InvalidArgument) has too many arguments (at \
         /paddle/paddle/fluid/pybind/op_function_common.cc:1596)\n",
    )
}

pub(super) fn unexpected(name: &str, keyword: &str) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Type,
        format!("{name}() got an unexpected keyword argument '{keyword}'"),
    )
}

/// How `paddle.<function>` answers `op`, in words.
pub(super) fn describe(op: ArrayOp) -> Option<String> {
    let Some(&(_, name, kernel, rule, takes_dtype)) = REDUCTIONS.iter().find(|r| r.0 == op) else {
        return Some(combine::describe(op));
    };
    let runs =
        match rule {
            Rule::Sum => "the input's dtype; the result is dtype= if given, else int64 for bool, \
             int32 and int64 inputs, else the input's dtype"
                .to_owned(),
            Rule::Cast { widens_integers } => format!(
                "dtype= if given (the input cast to it), else {}; the result is that dtype",
                if widens_integers {
                    "int64 for an integer input, else the input's dtype"
                } else {
                    "the input's dtype"
                }
            ),
            Rule::Same => "the input's dtype, which the result keeps".to_owned(),
            Rule::Fixed(result) => format!("the input's dtype; the result is {result}"),
            Rule::Var { sqrt } => {
                format!(
            "the input's dtype, as do the kernels Python composes it of after it (subtract, \
             pow, sum; then maximum, in float32 for an integer input); the result is the \
             input's dtype{}",
            if sqrt { ", then paddle.sqrt of it (float32 for an integer)" } else { "" }
        )
            }
        };
    let keyword = if takes_dtype { "" } else { "; no dtype=" };
    let name = if op == ArrayOp::ArgMin {
        "argmin"
    } else {
        name
    };
    Some(format!(
        "paddle.{name} (PaddlePaddle 3.3.1, CPU): its kernel `{}` runs in {runs}, where the CPU \
         wheel registers it ({}; RuntimeError (NotFound) for the rest){keyword}; no computation \
         type said",
        kernel.name,
        kernel.dtypes()
    ))
}
