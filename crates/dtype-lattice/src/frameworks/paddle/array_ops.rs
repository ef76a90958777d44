//! PaddlePaddle's reductions on the CPU: `paddle.sum`, `prod`, `cumsum`,
//! `cumprod`, `mean`, `max`, `min`, `argmax`, `argmin`, `any`, `all`.
//!
//! Each runs one kernel in one dtype, which the CPU wheel registers for a
//! few dtypes only (a missing one is the `(NotFound)` `RuntimeError` of
//! every Paddle kernel): `sum` in the input's dtype, its result `dtype=` or
//! `int64` for `bool`, `int32` and `int64` (the other integers keep their
//! own); `prod`, `cumprod` and `mean` in `dtype=` (the input cast to it) or
//! the input's; `cumsum` the same, `uint8` and the signed integers in `int64`. `var`,
//! `std`, the contractions and the combinations are not modelled yet
//! (`None`).
//!
//! ```
//! use dtype_lattice::frameworks::paddle::Paddle;
//! use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand, Policy, Typed};
//! let ask = |op, dtype| Paddle.array_op(ArrayCall::new(op), &[Operand::dtype(dtype)]);
//! let sum = ask(ArrayOp::Sum, DType::Int32).unwrap().unwrap();
//! assert_eq!(sum.result, Typed::strong(DType::Int64));
//! let sum = ask(ArrayOp::Sum, DType::Int8).unwrap().unwrap();
//! assert_eq!(sum.result, Typed::strong(DType::Int8));
//! let err = ask(ArrayOp::Prod, DType::Int8).unwrap().unwrap_err();
//! assert!(err.to_string().starts_with("(NotFound) The kernel with key (CPU, Undefined(AnyLayout), int8) of kernel `prod`"));
//! assert!(ask(ArrayOp::Matmul, DType::Int8).is_none());
//! ```

use super::kernels::{kernel, Kernel};
use super::methods::not_a_tensor;
use super::{form, known, Form};
use crate::frameworks::common::array_ops::counted;
use crate::types::Typed;
use crate::types::{ArrayCall, ArrayOp, DType, ErrorKind, Operand, Outcome, PromotionError};

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
}

/// Each modelled reduction: Paddle's function, its kernel, its rule, and
/// whether it takes `dtype=`.
const REDUCTIONS: [(ArrayOp, &str, &Kernel, Rule, bool); 11] = [
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

/// `paddle.<op>(x, dtype=...)` on the CPU, `None` for the operations not
/// modelled: [`Policy::array_op`](crate::Policy::array_op).
pub(super) fn array_op(
    call: ArrayCall,
    operands: &[Operand],
) -> Option<Result<Outcome, PromotionError>> {
    let &(_, name, kernel, rule, _) = REDUCTIONS.iter().find(|r| r.0 == call.op())?;
    Some(reduce(call, operands, name, kernel, rule))
}

fn reduce(
    call: ArrayCall,
    operands: &[Operand],
    name: &str,
    kernel: &'static Kernel,
    rule: Rule,
) -> Result<Outcome, PromotionError> {
    let [operand] = counted(call, operands)? else {
        unreachable!("counted: a reduction takes one operand")
    };
    let input = form(operand)?;
    let dtype = call.dtype().map(known).transpose()?;
    if call.promote_integers().is_some() {
        // `paddle.sum` hands its keywords to C++, which counts them.
        return Err(if call.op() == ArrayOp::Sum {
            PromotionError::framework(
                ErrorKind::Value,
                "(InvalidArgument) has too many arguments (at \
                 /paddle/paddle/fluid/pybind/op_function_common.cc:1596)\n",
            )
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
        other => return Err(not_a_tensor(name, 0, other)),
    };
    let computed = match rule {
        Rule::Sum => x,
        Rule::Cast { widens_integers } => dtype.unwrap_or(if widens_integers && is_integer(x) {
            I64
        } else {
            x
        }),
        Rule::Same | Rule::Fixed(_) => x,
    };
    kernel.run(computed).map_err(|stop| stop.error())?;
    let result = match rule {
        Rule::Sum => dtype.unwrap_or(if matches!(x, Bool | I32 | I64) {
            I64
        } else {
            x
        }),
        Rule::Cast { .. } | Rule::Same => computed,
        Rule::Fixed(result) => result,
    };
    Ok(Outcome::of(Typed::strong(result)))
}

/// The integers `cumsum` widens: not bool, nor the unsigned types past
/// `uint8`, which Paddle's Python list leaves out.
fn is_integer(dtype: DType) -> bool {
    matches!(dtype, U8 | I8 | I16 | I32 | I64)
}

fn unexpected(name: &str, keyword: &str) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Type,
        format!("{name}() got an unexpected keyword argument '{keyword}'"),
    )
}

/// How `paddle.<function>` answers `op`, in words; `None` where not
/// modelled.
pub(super) fn describe(op: ArrayOp) -> Option<String> {
    let &(_, name, kernel, rule, takes_dtype) = REDUCTIONS.iter().find(|r| r.0 == op)?;
    let runs = match rule {
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
