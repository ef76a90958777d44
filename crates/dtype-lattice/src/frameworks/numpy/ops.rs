//! NumPy's ufuncs: promotion, then the first of the ufunc's loops the
//! promoted dtype casts to safely.
//!
//! A ufunc is a list of typed loops (`np.add.types`: `'??->?'`,
//! `'bb->b'`, ...). NumPy promotes the operands (`np.result_type`, Python
//! scalars by NEP 50), then runs the first loop whose inputs the promoted
//! dtype can be cast to under `casting="safe"`, and the loop's output is
//! the result: `np.sqrt` has no integer loops, so an `int8` takes the
//! `float16` loop and an `int16` the `float32` one. [`UFUNCS`] holds each
//! operation's loops as NumPy lists them (their input type codes, the long
//! double and time loops left out); the cases NumPy handles before the
//! search (boolean `subtract` and `negative`, `true_divide` of integers,
//! negative integer powers) are in [`operation`], each with its message.

use super::{casts, check_python_int, Numpy};
use crate::types::{Arguments, DType, ErrorKind, Op, Operand, OperandKind, PromotionError, Typed};

/// What a ufunc's loop gives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gives {
    /// The loop's type.
    Same,
    /// `bool` (comparisons, `logical_and`).
    Bool,
    /// A complex loop's part type (`absolute`).
    Real,
}

/// One ufunc.
struct Ufunc {
    /// Its name in NumPy's messages.
    name: &'static str,
    /// Its loops' input type codes, in NumPy's order.
    loops: &'static str,
    gives: Gives,
    /// Whether a Python int is converted to the promoted dtype first (with
    /// NumPy's `OverflowError` when it does not fit): not for comparisons
    /// and `logical_and`, which NumPy 2 lets compare any int, nor for
    /// `true_divide`, which divides integers as floats.
    converts_ints: bool,
}

const fn ufunc(
    name: &'static str,
    loops: &'static str,
    gives: Gives,
    converts_ints: bool,
) -> Ufunc {
    Ufunc {
        name,
        loops,
        gives,
        converts_ints,
    }
}

const ALL: &str = "?bBhHiIlLqQefdFD";
const NUMBER: &str = "bBhHiIlLqQefdFD";
const REAL: &str = "bBhHiIlLqQefd";
const INEXACT: &str = "efdFD";

/// Each operation's ufunc, by [`Op`]'s order.
const UFUNCS: [Ufunc; 24] = [
    ufunc("add", ALL, Gives::Same, true),
    ufunc("subtract", NUMBER, Gives::Same, true),
    ufunc("multiply", ALL, Gives::Same, true),
    ufunc("divide", INEXACT, Gives::Same, false),
    ufunc("floor_divide", REAL, Gives::Same, true),
    ufunc("remainder", REAL, Gives::Same, true),
    ufunc("power", NUMBER, Gives::Same, true),
    ufunc("maximum", ALL, Gives::Same, true),
    ufunc("equal", ALL, Gives::Bool, false),
    ufunc("not_equal", ALL, Gives::Bool, false),
    ufunc("less", ALL, Gives::Bool, false),
    ufunc("less_equal", ALL, Gives::Bool, false),
    ufunc("greater", ALL, Gives::Bool, false),
    ufunc("greater_equal", ALL, Gives::Bool, false),
    ufunc("bitwise_and", "?bBhHiIlLqQ", Gives::Same, true),
    ufunc("bitwise_or", "?bBhHiIlLqQ", Gives::Same, true),
    ufunc("bitwise_xor", "?bBhHiIlLqQ", Gives::Same, true),
    ufunc("logical_and", ALL, Gives::Bool, false),
    ufunc("negative", NUMBER, Gives::Same, true),
    ufunc("absolute", ALL, Gives::Real, true),
    ufunc("sign", NUMBER, Gives::Same, true),
    ufunc("sqrt", INEXACT, Gives::Same, true),
    ufunc("exp", INEXACT, Gives::Same, true),
    ufunc("floor", "?bBhHiIlLqQefd", Gives::Same, true),
];

/// The dtype of a NumPy type code.
fn code_dtype(code: u8) -> DType {
    match code {
        b'?' => DType::Bool,
        b'b' => DType::Int8,
        b'B' => DType::UInt8,
        b'h' => DType::Int16,
        b'H' => DType::UInt16,
        b'i' => DType::Int32,
        b'I' => DType::UInt32,
        b'l' | b'q' => DType::Int64,
        b'L' | b'Q' => DType::UInt64,
        b'e' => DType::Float16,
        b'f' => DType::Float32,
        b'd' => DType::Float64,
        b'F' => DType::Complex64,
        _ => DType::Complex128,
    }
}

/// `np.<ufunc>(*operands).dtype`.
pub(super) fn operation(
    numpy: &Numpy,
    op: Op,
    operands: &[Operand],
) -> Result<Typed, PromotionError> {
    let ufunc = &UFUNCS[op as usize];
    let Some(arguments) = Arguments::new(op, operands, Operand::as_argument) else {
        return Err(error(
            ErrorKind::Type,
            format!(
                "{} expected {} input{}, got {}",
                ufunc.name,
                op.arity(),
                if op.arity() == 1 { "" } else { "s" },
                operands.len()
            ),
        ));
    };
    let operands = arguments.get();
    numpy.refuse_ml_dtypes(operands)?;
    let promoted = numpy.result_dtype(operands)?;
    if ufunc.converts_ints {
        for operand in operands {
            if let OperandKind::PyInt(value) = operand.kind() {
                check_python_int(value, promoted)?;
            }
        }
    }
    match (op, promoted) {
        (Op::Subtract, DType::Bool) => {
            return Err(error(
                ErrorKind::Type,
                "numpy boolean subtract, the `-` operator, is not supported, use the \
                 bitwise_xor, the `^` operator, or the logical_xor function instead."
                    .to_owned(),
            ))
        }
        (Op::Negative, DType::Bool) => {
            return Err(error(
                ErrorKind::Type,
                "The numpy boolean negative, the `-` operator, is not supported, use the `~` \
                 operator or the logical_not function instead."
                    .to_owned(),
            ))
        }
        // `sign` has no boolean loop, and NumPy 2 does not cast to one.
        (Op::Sign, DType::Bool) => {
            return Err(error(
                ErrorKind::UFuncType,
                "ufunc 'sign' did not contain a loop with signature matching types <class \
                 'numpy.dtypes.BoolDType'> -> None"
                    .to_owned(),
            ))
        }
        // True division's own type resolver divides integers as float64.
        (Op::TrueDivide, dtype) if dtype == DType::Bool || dtype.is_integer() => {
            return Ok(Typed::strong(DType::Float64))
        }
        _ => {}
    }
    let dtype = select_loop(op, promoted)?;
    if op == Op::Power && dtype.is_integer() {
        if let OperandKind::PyInt(exponent) = operands[1].kind() {
            if exponent < 0 {
                return Err(error(
                    ErrorKind::Value,
                    "Integers to negative integer powers are not allowed.".to_owned(),
                ));
            }
        }
    }
    Ok(Typed::strong(match ufunc.gives {
        Gives::Same => dtype,
        Gives::Bool => DType::Bool,
        Gives::Real => dtype.real_part(),
    }))
}

/// The type of the loop NumPy's ufunc for `op` runs on operands promoted
/// to `promoted`: the first whose inputs it casts to safely, or NumPy's
/// `TypeError` when none takes it (array-api-strict's functions run these
/// loops too).
pub(crate) fn select_loop(op: Op, promoted: DType) -> Result<DType, PromotionError> {
    let ufunc = &UFUNCS[op as usize];
    ufunc
        .loops
        .bytes()
        .map(code_dtype)
        .find(|&dtype| casts::can_cast_safely(promoted, dtype))
        .ok_or_else(|| {
            error(
                ErrorKind::Type,
                format!(
                    "ufunc '{}' not supported for the input types, and the inputs could not be \
                     safely coerced to any supported types according to the casting rule \
                     ''safe''",
                    ufunc.name
                ),
            )
        })
}

/// How NumPy computes `op`, in words.
pub(super) fn describe(op: Op) -> String {
    let ufunc = &UFUNCS[op as usize];
    let special = match op {
        Op::TrueDivide => " (integers and bool divide in float64, by true division's own resolver)",
        Op::Subtract => " (bool refused)",
        Op::Negative => " (bool refused)",
        Op::Sign => " (bool refused: no loop)",
        Op::Power => " (an integer loop refuses a negative Python int exponent)",
        _ => "",
    };
    let result = match ufunc.gives {
        Gives::Same => "the loop's type",
        Gives::Bool => "bool",
        Gives::Real => "the loop's type, a complex one's part type",
    };
    let mut loops: Vec<&str> = Vec::new();
    for code in ufunc.loops.bytes() {
        let name = code_dtype(code).name();
        if !loops.contains(&name) {
            loops.push(name);
        }
    }
    format!(
        "np.{}: np.result_type of the operands, then the first loop the result casts to \
         safely ({}){special}; the result is {result}",
        ufunc.name,
        loops.join(", ")
    )
}

fn error(kind: ErrorKind, message: String) -> PromotionError {
    PromotionError::Framework { kind, message }
}
