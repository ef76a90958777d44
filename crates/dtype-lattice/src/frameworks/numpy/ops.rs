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

use super::{array_dtype, casts, check_python_int, user_loops, Numpy};
use crate::frameworks::common::{OpTable, Output};
use crate::prelude::*;
use crate::types::{Arguments, DType, ErrorKind, Op, Operand, OperandKind, PromotionError, Typed};

/// One ufunc.
struct Ufunc {
    /// Its name in NumPy's messages.
    name: &'static str,
    /// Its loops' input type codes, in NumPy's order.
    loops: &'static str,
    gives: Output,
    /// Whether a Python int is converted to the promoted dtype first (with
    /// NumPy's `OverflowError` when it does not fit): not for comparisons
    /// and `logical_and`, which NumPy 2 lets compare any int, nor for
    /// `true_divide`, which divides integers as floats.
    converts_ints: bool,
}

impl Ufunc {
    /// The result of a loop of type `dtype`.
    fn gives(&self, dtype: DType) -> DType {
        self.gives.of(dtype)
    }
}

const fn ufunc(
    name: &'static str,
    loops: &'static str,
    gives: Output,
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
const UFUNCS: OpTable<Ufunc> = OpTable::new([
    (Op::Add, ufunc("add", ALL, Output::Same, true)),
    (Op::Subtract, ufunc("subtract", NUMBER, Output::Same, true)),
    (Op::Multiply, ufunc("multiply", ALL, Output::Same, true)),
    (
        Op::TrueDivide,
        ufunc("divide", INEXACT, Output::Same, false),
    ),
    (
        Op::FloorDivide,
        ufunc("floor_divide", REAL, Output::Same, true),
    ),
    (Op::Remainder, ufunc("remainder", REAL, Output::Same, true)),
    (Op::Power, ufunc("power", NUMBER, Output::Same, true)),
    (Op::Maximum, ufunc("maximum", ALL, Output::Same, true)),
    (Op::Equal, ufunc("equal", ALL, Output::Bool, false)),
    (Op::NotEqual, ufunc("not_equal", ALL, Output::Bool, false)),
    (Op::Less, ufunc("less", ALL, Output::Bool, false)),
    (Op::LessEqual, ufunc("less_equal", ALL, Output::Bool, false)),
    (Op::Greater, ufunc("greater", ALL, Output::Bool, false)),
    (
        Op::GreaterEqual,
        ufunc("greater_equal", ALL, Output::Bool, false),
    ),
    (
        Op::BitwiseAnd,
        ufunc("bitwise_and", "?bBhHiIlLqQ", Output::Same, true),
    ),
    (
        Op::BitwiseOr,
        ufunc("bitwise_or", "?bBhHiIlLqQ", Output::Same, true),
    ),
    (
        Op::BitwiseXor,
        ufunc("bitwise_xor", "?bBhHiIlLqQ", Output::Same, true),
    ),
    (
        Op::LogicalAnd,
        ufunc("logical_and", ALL, Output::Bool, false),
    ),
    (Op::Negative, ufunc("negative", NUMBER, Output::Same, true)),
    (Op::Abs, ufunc("absolute", ALL, Output::RealPart, true)),
    (Op::Sign, ufunc("sign", NUMBER, Output::Same, true)),
    (Op::Sqrt, ufunc("sqrt", INEXACT, Output::Same, true)),
    (Op::Exp, ufunc("exp", INEXACT, Output::Same, true)),
    (
        Op::Floor,
        ufunc("floor", "?bBhHiIlLqQefd", Output::Same, true),
    ),
]);

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

/// The name of `op`'s ufunc in NumPy's messages (`divide` for
/// `true_divide`).
pub(super) fn ufunc_name(op: Op) -> &'static str {
    UFUNCS[op].name
}

/// `np.<ufunc>(*operands).dtype`.
pub(super) fn operation(op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
    call(op, arguments(op, operands)?.get())
}

/// The operands of `op`'s ufunc, read as arguments, or NumPy's error for
/// a wrong number of them.
pub(super) fn arguments(op: Op, operands: &[Operand]) -> Result<Arguments, PromotionError> {
    Arguments::new(op, operands, Operand::as_argument).ok_or_else(|| {
        PromotionError::framework(
            ErrorKind::Type,
            format!(
                "{} expected {} input{}, got {}",
                UFUNCS[op].name,
                op.arity(),
                if op.arity() == 1 { "" } else { "s" },
                operands.len()
            ),
        )
    })
}

/// `np.<ufunc>(*operands).dtype` for `op`: NumPy's promotion and loop
/// selection, or its legacy loop search where a dtype of ml_dtypes takes
/// part ([`user_loops`]; Keras's NumPy backend calls NumPy's functions on
/// them too).
pub(crate) fn call(op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
    let ufunc = &UFUNCS[op];
    if operands
        .iter()
        .any(|o| array_dtype(o).is_some_and(DType::is_ml_dtypes))
    {
        read_as_long(op, operands)?;
        return legacy_call(op, operands).map(|dtype| Typed::strong(ufunc.gives(dtype)));
    }
    read_as_long(op, operands)?;
    let promoted = Numpy.result_dtype(operands)?;
    // NumPy's comparisons of Python ints with integers compare any value;
    // beside a bool, the int goes into the promoted loop like any other.
    let bool_among = |o: &Operand| {
        matches!(o.kind(), OperandKind::PyBool(_)) || array_dtype(o) == Some(DType::Bool)
    };
    if ufunc.converts_ints || op.is_comparison() && operands.iter().any(bool_among) {
        for operand in operands {
            if let OperandKind::PyInt(value) = operand.kind() {
                check_python_int(value, promoted)?;
            }
        }
    }
    call_on(op, promoted, power_exponent(op, operands)).map(Typed::strong)
}

/// `logical_and`'s promoter reads every Python int as a C `long` first,
/// whatever the other operand.
fn read_as_long(op: Op, operands: &[Operand]) -> Result<(), PromotionError> {
    let beyond =
        |o: &Operand| matches!(o.kind(), OperandKind::PyInt(v) if i64::try_from(v).is_err());
    if op == Op::LogicalAnd && operands.iter().any(beyond) {
        return Err(PromotionError::framework(
            ErrorKind::Overflow,
            "Python int too large to convert to C long",
        ));
    }
    Ok(())
}

/// The integer `power` raises to, where its exponent is a Python int or a
/// 0-d integer array holding one ([`Operand::held`]): the integer loops
/// check the values they get.
pub(super) fn power_exponent(op: Op, operands: &[Operand]) -> Option<i128> {
    match (op, operands) {
        (Op::Power, [_, exponent]) => match (exponent.kind(), exponent.held()) {
            (OperandKind::PyInt(value), _) => Some(value),
            (OperandKind::ZeroDim(dtype), Some(OperandKind::PyInt(value)))
                if dtype.is_integer() =>
            {
                Some(value)
            }
            _ => None,
        },
        _ => None,
    }
}

/// `np.<ufunc>` for `op` on arrays that all have `dtype` (ones, but
/// `power`'s exponent where it holds `exponent`): NumPy's own handling of
/// a few cases, then the loop; for a dtype of ml_dtypes, the legacy search.
pub(crate) fn call_on(
    op: Op,
    dtype: DType,
    exponent: Option<i128>,
) -> Result<DType, PromotionError> {
    let ufunc = &UFUNCS[op];
    if dtype.is_ml_dtypes() {
        let arrays = [Operand::dtype(dtype); 2];
        let dtype = legacy_call(op, &arrays[..op.arity()])?;
        refuse_negative_power(op, dtype, exponent)?;
        return Ok(ufunc.gives(dtype));
    }
    match (op, dtype) {
        (Op::Subtract, DType::Bool) => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                "numpy boolean subtract, the `-` operator, is not supported, use the \
                 bitwise_xor, the `^` operator, or the logical_xor function instead."
                    .to_owned(),
            ))
        }
        (Op::Negative, DType::Bool) => {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                "The numpy boolean negative, the `-` operator, is not supported, use the `~` \
                 operator or the logical_not function instead."
                    .to_owned(),
            ))
        }
        // `sign` has no boolean loop, and NumPy 2 does not cast to one.
        (Op::Sign, DType::Bool) => {
            return Err(PromotionError::framework(
                ErrorKind::UFuncType,
                "ufunc 'sign' did not contain a loop with signature matching types <class \
                 'numpy.dtypes.BoolDType'> -> None"
                    .to_owned(),
            ))
        }
        // True division's own type resolver divides integers as float64.
        (Op::TrueDivide, dtype) if dtype == DType::Bool || dtype.is_integer() => {
            return Ok(DType::Float64)
        }
        _ => {}
    }
    let dtype = select_loop(op, dtype)?;
    refuse_negative_power(op, dtype, exponent)?;
    Ok(ufunc.gives(dtype))
}

/// NumPy's integer `power` loops refuse a negative exponent.
fn refuse_negative_power(
    op: Op,
    dtype: DType,
    exponent: Option<i128>,
) -> Result<(), PromotionError> {
    if op == Op::Power && dtype.is_integer() && exponent.is_some_and(|e| e < 0) {
        return Err(PromotionError::framework(
            ErrorKind::Value,
            "Integers to negative integer powers are not allowed.".to_owned(),
        ));
    }
    Ok(())
}

/// `np.matmul` or `np.clip` (`name`) of `operands`: a ufunc with the loops
/// of `like`'s (`add`'s, `maximum`'s: every numeric type and `bool`) and
/// none that ml_dtypes registers, so that an ml_dtypes operand takes the
/// legacy search among NumPy's own loops (`bfloat16 @ bfloat16` runs the
/// `float32` loop), and NumPy's own dtypes promote first. Python ints are
/// converted to the loop's type and must fit it.
pub(crate) fn call_unregistered(
    name: &str,
    like: Op,
    operands: &[Operand],
) -> Result<DType, PromotionError> {
    let loops = || UFUNCS[like].loops.bytes().map(code_dtype);
    let dtype = if operands
        .iter()
        .any(|o| array_dtype(o).is_some_and(DType::is_ml_dtypes))
    {
        user_loops::first_taking(loops(), operands).ok_or_else(|| no_loop_named(name))?
    } else {
        let promoted = Numpy.result_dtype(operands)?;
        loops()
            .find(|&dtype| casts::can_cast_safely(promoted, dtype))
            .ok_or_else(|| no_loop_named(name))?
    };
    user_loops::convert_scalars(operands, dtype)?;
    Ok(dtype)
}

/// NumPy's ufunc for `op` where a dtype of ml_dtypes takes part: the loop
/// of the legacy search (but for `logical_and`, whose promoter casts every
/// input to `bool`), the Python scalars converted to it, and the loop's own
/// refusals.
fn legacy_call(op: Op, operands: &[Operand]) -> Result<DType, PromotionError> {
    if op == Op::LogicalAnd {
        return Ok(DType::Bool);
    }
    let dtype = legacy_loop(op, operands)?;
    user_loops::convert_scalars(operands, dtype)?;
    refuse_negative_power(op, dtype, power_exponent(op, operands))?;
    Ok(dtype)
}

/// The loop of NumPy's legacy search for `op` on `operands`.
fn legacy_loop(op: Op, operands: &[Operand]) -> Result<DType, PromotionError> {
    let numpys = UFUNCS[op].loops.bytes().map(code_dtype);
    user_loops::search(op, operands, numpys).ok_or_else(|| not_supported(op))
}

/// The type of the loop NumPy's ufunc for `op` runs on operands promoted
/// to `promoted`: the first whose inputs it casts to safely, or NumPy's
/// `TypeError` when none takes it (array-api-strict's functions run these
/// loops too).
pub(crate) fn select_loop(op: Op, promoted: DType) -> Result<DType, PromotionError> {
    let ufunc = &UFUNCS[op];
    ufunc
        .loops
        .bytes()
        .map(code_dtype)
        .find(|&dtype| casts::can_cast_safely(promoted, dtype))
        .ok_or_else(|| not_supported(op))
}

/// The types of `op`'s ufunc's loops, in NumPy's order.
pub(super) fn loops(op: Op) -> impl Iterator<Item = DType> {
    UFUNCS[op].loops.bytes().map(code_dtype)
}

/// NumPy's error where no loop of `op`'s ufunc takes the operands.
pub(super) fn not_supported(op: Op) -> PromotionError {
    no_loop_named(UFUNCS[op].name)
}

/// NumPy's error where no loop of the ufunc `name` takes the operands.
fn no_loop_named(name: &str) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Type,
        format!(
            "ufunc '{name}' not supported for the input types, and the inputs could not be \
             safely coerced to any supported types according to the casting rule ''safe''"
        ),
    )
}

/// How NumPy computes `op`, in words.
pub(super) fn describe(op: Op) -> String {
    let ufunc = &UFUNCS[op];
    let special = match op {
        Op::TrueDivide => " (integers and bool divide in float64, by true division's own resolver)",
        Op::Subtract => " (bool refused)",
        Op::Negative => " (bool refused)",
        Op::Sign => " (bool refused: no loop)",
        Op::Power => " (an integer loop refuses a negative Python int exponent)",
        _ => "",
    };
    let result = match ufunc.gives {
        Output::Same => "the loop's type",
        Output::Bool => "bool",
        Output::RealPart => "the loop's type, a complex one's part type",
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

#[cfg(test)]
mod tests {
    use super::*;

    fn dtype_of(op: Op, operands: &[Operand]) -> Result<DType, PromotionError> {
        call(op, operands).map(|typed| typed.dtype)
    }

    // Each checked against NumPy 2.5.5 with ml_dtypes 0.6.0 (and in
    // ops_numpy_ml_dtypes.jsonl).

    #[test]
    fn ml_dtypes_floats_take_the_legacy_loop_search() {
        let bf16 = Operand::dtype(DType::BFloat16);
        let f8 = Operand::dtype(DType::Float8E4M3Fn);
        let add = |b: Operand| dtype_of(Op::Add, &[bf16, b]);
        assert_eq!(add(Operand::py_int(300)), Ok(DType::BFloat16));
        assert_eq!(add(Operand::py_bool(true)), Ok(DType::BFloat16));
        assert_eq!(add(Operand::py_float(2.5)), Ok(DType::Float32));
        assert_eq!(add(Operand::py_complex(0.0, 2.0)), Ok(DType::Complex64));
        assert_eq!(add(Operand::dtype(DType::Float16)), Ok(DType::Float32));
        assert_eq!(add(Operand::dtype(DType::Int64)), Ok(DType::Float64));
        assert_eq!(add(f8), Ok(DType::Float32));
        let less = [Operand::dtype(DType::UInt64), bf16];
        assert_eq!(dtype_of(Op::Less, &less), Ok(DType::Bool));
        assert_eq!(dtype_of(Op::Sqrt, &[f8]), Ok(DType::Float8E4M3Fn));
        let err = dtype_of(Op::BitwiseAnd, &[bf16, bf16]).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("ufunc 'bitwise_and' not supported"));
    }
}
