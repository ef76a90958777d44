//! MLX's operations on the CPU: `mx.<function>(*operands)`, its Python
//! binding, then its C++ op in `mlx/ops.cpp`.
//!
//! A call has three parts, and [`function_of`] writes each operation as
//! them. The binding makes the operands arrays: the arithmetic, comparison
//! and bitwise functions take `scalar | array` and make a Python scalar an
//! array of the other operand's dtype (with the overflow check of
//! [`scalar_array`]); `logical_and` and the unary functions take `array`,
//! which nanobind converts a Python scalar to on its own (a Python int
//! `int32`, never checked against the other operand). Then the C++ op
//! promotes the two arrays by MLX's table (the promoted dtype, or the one
//! operand's), refuses the kinds it has no code for ([`Refuse`]), and
//! answers its result from the promoted dtype ([`Output`]): `divide`,
//! `sqrt` and `exp` compute integers and `bool` in `float32`, comparisons
//! and `logical_and` answer `bool`, `abs` of `complex64` its `float32`
//! magnitude.
//!
//! ```
//! use dtype_lattice::frameworks::mlx::Mlx;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let x = |dtype| Operand::array(dtype, false);
//! let call = |op, operands: &[Operand]| Mlx.operation(op, operands).unwrap();
//! let int32 = [x(DType::Int32), x(DType::Int32)];
//! assert_eq!(call(Op::TrueDivide, &int32), Ok(Typed::strong(DType::Float32)));
//! // uint64 with int8 promotes to float32, which has no bitwise op.
//! let err = call(Op::BitwiseAnd, &[x(DType::UInt64), x(DType::Int8)]).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "[bitwise_and] Only allowed on integer or boolean types but got types uint64 and int8."
//! );
//! // `logical_and` converts 300 on its own: no overflow.
//! let mixed = [x(DType::Int8), Operand::py_int(300)];
//! assert_eq!(call(Op::LogicalAnd, &mixed), Ok(Typed::strong(DType::Bool)));
//! assert!(call(Op::Less, &mixed).is_err());
//! ```

use super::{array_dtype, is_floating, promote, python_class, scalar_array, value_error};
use crate::prelude::*;
use crate::types::{Arguments, DType, ErrorKind, Kind, Op, Operand, PromotionError, Typed};

/// How a function's Python binding takes its operands (its one nanobind
/// signature, which its `TypeError` prints).
#[derive(Clone, Copy)]
enum Binding {
    /// `(a: scalar | array, b: scalar | array, stream: ...)`: a Python
    /// scalar made an array beside the other operand (`to_arrays`).
    Scalars,
    /// The same, with the operands positional-only (`power`, `maximum`).
    ScalarsPositional,
    /// `(a: array, [b: array,] /, *, stream: ...)`: each Python scalar
    /// converted to an array on its own.
    Arrays,
}

/// What the C++ op refuses, checked on the promoted dtype, each a
/// `std::invalid_argument` (Python's `ValueError`) but
/// [`NotIntegral`](Refuse::NotIntegral).
#[derive(Clone, Copy)]
enum Refuse {
    Nothing,
    /// `bool`, with this message after `[name] `.
    Bool(&'static str),
    /// `complex64`, with this message after `[name] `.
    Complex(&'static str),
    /// Anything but an integer or `bool`: a `std::runtime_error` naming
    /// the two arrays' dtypes (the bitwise ops).
    NotIntegral,
}

/// The result's dtype, from the promoted one.
#[derive(Clone, Copy)]
enum Output {
    /// The promoted dtype.
    Promoted,
    /// `at_least_float`: an integer or `bool` promoted with `float32`.
    AtLeastFloat,
    /// `bool`, compared in the promoted dtype.
    Bool,
    /// `bool`, each operand cast to `bool` (`logical_and`).
    Logical,
    /// A complex dtype's part type (`abs`).
    RealPart,
}

/// One operation: MLX's function and what it does.
struct Function {
    /// `mx.<name>`.
    name: &'static str,
    binding: Binding,
    refuse: Refuse,
    output: Output,
}

/// `op`'s function: [`Op`]'s name but for `mx.divide`, and its rule, the
/// operations grouped by what MLX does with them.
fn function_of(op: Op) -> Function {
    use Binding::{Arrays, Scalars, ScalarsPositional};
    use Output::{AtLeastFloat, Logical, Promoted, RealPart};
    let (binding, refuse, output) = match op {
        Op::Add | Op::Subtract | Op::Multiply => (Scalars, Refuse::Nothing, Promoted),
        Op::TrueDivide => (Scalars, Refuse::Nothing, AtLeastFloat),
        // Integers divide as integers, floats floor their quotient: either
        // way the promoted dtype, complex64 included.
        Op::FloorDivide => (Scalars, Refuse::Nothing, Promoted),
        Op::Remainder => (
            Scalars,
            Refuse::Complex("Complex type not supported."),
            Promoted,
        ),
        Op::Power | Op::Maximum => (ScalarsPositional, Refuse::Nothing, Promoted),
        Op::Equal | Op::NotEqual | Op::Less | Op::LessEqual | Op::Greater | Op::GreaterEqual => {
            (Scalars, Refuse::Nothing, Output::Bool)
        }
        Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor => (Scalars, Refuse::NotIntegral, Promoted),
        Op::LogicalAnd => (Arrays, Refuse::Nothing, Logical),
        Op::Negative => (
            Arrays,
            Refuse::Bool("Not supported for bool, use logical_not instead."),
            Promoted,
        ),
        Op::Abs => (Arrays, Refuse::Nothing, RealPart),
        Op::Sign => (Arrays, Refuse::Nothing, Promoted),
        Op::Sqrt | Op::Exp => (Arrays, Refuse::Nothing, AtLeastFloat),
        Op::Floor => (
            Arrays,
            Refuse::Complex("Not supported for complex64."),
            Promoted,
        ),
    };
    Function {
        name: match op {
            Op::TrueDivide => "divide",
            _ => op.name(),
        },
        binding,
        refuse,
        output,
    }
}

/// `at_least_float` of `mlx/ops.cpp`: an inexact dtype itself, any other
/// promoted with `float32`.
fn at_least_float(dtype: DType) -> Result<DType, PromotionError> {
    if is_floating(dtype) || dtype.kind() == Kind::Complex {
        Ok(dtype)
    } else {
        promote(dtype, DType::Float32)
    }
}

/// `mx.<op>(*operands).dtype` on the CPU.
pub(super) fn operation(op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
    let function = &function_of(op);
    // Python evaluates every argument (`mx.complex128` is an
    // `AttributeError`) before nanobind matches the signature.
    let mut arrays = [None; 2];
    for (i, operand) in operands.iter().enumerate() {
        let dtype = array_dtype(&operand.as_argument())?;
        if let Some(slot) = arrays.get_mut(i) {
            *slot = dtype;
        }
    }
    let wrong = || incompatible(function, op.arity(), operands);
    let arguments = Arguments::new(op, operands, Operand::as_argument).ok_or_else(wrong)?;
    let (a, b) = match (arguments.get(), function.binding) {
        ([x], _) if !x.is_none() => (own_array(x, arrays[0])?, None),
        ([x, y], Binding::Arrays) if !x.is_none() && !y.is_none() => {
            (own_array(x, arrays[0])?, Some(own_array(y, arrays[1])?))
        }
        ([x, y], _) if !x.is_none() && !y.is_none() => {
            let (a, b) = beside(x, y, arrays[0], arrays[1])?;
            (a, Some(b))
        }
        _ => return Err(wrong()),
    };
    let promoted = match b {
        Some(b) => promote(a, b)?,
        None => a,
    };
    refuse(function, promoted, a, b)?;
    let dtype = match function.output {
        Output::Promoted => promoted,
        Output::AtLeastFloat => at_least_float(promoted)?,
        Output::Bool | Output::Logical => DType::Bool,
        Output::RealPart => promoted.real_part(),
    };
    Ok(Typed::strong(dtype))
}

/// An operand as an array on its own: an array's dtype, a Python scalar's
/// own (nanobind's implicit conversion to `array`).
fn own_array(operand: &Operand, dtype: Option<DType>) -> Result<DType, PromotionError> {
    match dtype {
        Some(dtype) => Ok(dtype),
        None => scalar_array(operand, None),
    }
}

/// `to_arrays` of `python/src/utils.cpp`: each Python scalar made an array
/// beside the other operand (the first first when neither is an array).
pub(super) fn beside(
    a: &Operand,
    b: &Operand,
    x: Option<DType>,
    y: Option<DType>,
) -> Result<(DType, DType), PromotionError> {
    Ok(match (x, y) {
        (Some(x), Some(y)) => (x, y),
        (Some(x), None) => (x, scalar_array(b, Some(x))?),
        (None, Some(y)) => (scalar_array(a, Some(y))?, y),
        (None, None) => {
            let a = scalar_array(a, None)?;
            (a, scalar_array(b, None)?)
        }
    })
}

/// The C++ op's check of the promoted dtype, `a` and `b` the arrays it
/// was given.
fn refuse(
    function: &Function,
    promoted: DType,
    a: DType,
    b: Option<DType>,
) -> Result<(), PromotionError> {
    let name = function.name;
    match function.refuse {
        Refuse::Bool(message) if promoted == DType::Bool => {
            Err(value_error(&format!("[{name}] {message}")))
        }
        Refuse::Complex(message) if promoted.kind() == Kind::Complex => {
            Err(value_error(&format!("[{name}] {message}")))
        }
        Refuse::NotIntegral if !(promoted.is_integer() || promoted == DType::Bool) => {
            Err(PromotionError::framework(
                ErrorKind::Runtime,
                format!(
                    "[{name}] Only allowed on integer or boolean types but got types {a} and {}.",
                    b.unwrap_or(a)
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// nanobind's `TypeError` when the function's one signature does not match
/// the `operands` (their number, or a `None`).
fn incompatible(function: &Function, arity: usize, operands: &[Operand]) -> PromotionError {
    let parameters = match (function.binding, arity) {
        (Binding::Scalars, _) => "a: scalar | array, b: scalar | array, stream",
        (Binding::ScalarsPositional, _) => "a: scalar | array, b: scalar | array, /, *, stream",
        (Binding::Arrays, 1) => "a: array, /, *, stream",
        (Binding::Arrays, _) => "a: array, b: array, /, *, stream",
    };
    let classes: Vec<&str> = operands
        .iter()
        .map(|operand| python_class(&operand.as_argument()))
        .collect();
    PromotionError::framework(
        ErrorKind::Type,
        format!(
            "{name}(): incompatible function arguments. The following argument types are \
             supported:\n    1. {name}({parameters}: StreamOrDevice = None) -> array\n\n\
             Invoked with types: {}",
            classes.join(", "),
            name = function.name,
        ),
    )
}

/// `op` in words: the binding, the promotion, the C++ op's checks and
/// result.
pub(super) fn describe(op: Op) -> String {
    let function = &function_of(op);
    let name = function.name;
    let (call, conversion) = match (function.binding, op.arity()) {
        (Binding::Arrays, 1) => ("x", "a Python scalar is an array of its own dtype (bool, int32 or int64 by its value, float32, complex64)"),
        (Binding::Arrays, _) => ("a, b", "each Python scalar is an array of its own dtype (bool, int32 or int64 by its value, float32, complex64), unchecked against the other operand"),
        _ => ("a, b", "a Python scalar is made an array of the other operand's dtype (an int checked to fit it, an int beside bool int32; a float beside a non-floating array float32), then the two promote by MLX's table"),
    };
    let refused = match function.refuse {
        Refuse::Nothing => String::new(),
        Refuse::Bool(message) => format!("; bool is refused (ValueError \"[{name}] {message}\")"),
        Refuse::Complex(message) => {
            format!("; complex64 is refused (ValueError \"[{name}] {message}\")")
        }
        Refuse::NotIntegral => format!(
            "; a promoted dtype that is no integer or bool is refused (RuntimeError \"[{name}] Only allowed on integer or boolean types ...\", naming the two arrays' dtypes)"
        ),
    };
    let result = match function.output {
        Output::Promoted if op.arity() == 1 => "the result is x's dtype",
        Output::Promoted => "the result is the promoted dtype",
        Output::AtLeastFloat => {
            "the result is at_least_float of that dtype: an integer or bool promoted with float32 (float32), a floating or complex dtype itself"
        }
        Output::Bool => "the result is bool, compared in the promoted dtype",
        Output::Logical => "each is cast to bool and the result is bool",
        Output::RealPart => "the result is x's dtype, float32 for complex64",
    };
    format!("mx.{name}({call}) (MLX 0.32.4, CPU): {conversion}{refused}; {result}")
}

#[cfg(test)]
mod tests {
    use super::super::Mlx;
    use super::*;
    use crate::Policy;

    fn answer(op: Op, operands: &[Operand]) -> String {
        match Mlx.operation(op, operands).unwrap() {
            Ok(typed) => typed.to_string(),
            Err(err) => format!("{}: {err}", err.python_type()),
        }
    }

    // Beyond the golden data, each checked against MLX 0.32.4.

    #[test]
    fn the_bindings_word_a_bad_call_as_nanobind_does() {
        let x = Operand::array(DType::Int8, false);
        assert_eq!(
            answer(Op::Sqrt, &[x, x]),
            "TypeError: sqrt(): incompatible function arguments. The following argument \
             types are supported:\n    1. sqrt(a: array, /, *, stream: StreamOrDevice = None) \
             -> array\n\nInvoked with types: mlx.core.array, mlx.core.array"
        );
        assert_eq!(
            answer(Op::LogicalAnd, &[Operand::NONE, Operand::py_int(2)]),
            "TypeError: logical_and(): incompatible function arguments. The following \
             argument types are supported:\n    1. logical_and(a: array, b: array, /, *, \
             stream: StreamOrDevice = None) -> array\n\nInvoked with types: NoneType, int"
        );
        assert!(answer(Op::Power, &[x]).contains(
            "power(a: scalar | array, b: scalar | array, /, *, stream: StreamOrDevice = None)"
        ));
        assert!(answer(Op::TrueDivide, &[Operand::py_int(1), Operand::NONE])
            .contains("divide(a: scalar | array, b: scalar | array, stream:"));
    }

    #[test]
    fn python_ints_past_int64_are_a_bad_cast_everywhere() {
        let big = Operand::py_int(1 << 63);
        let x = Operand::array(DType::Int8, false);
        for (op, operands) in [
            (Op::Negative, vec![big]),
            (Op::LogicalAnd, vec![big, x]),
            (Op::Add, vec![big, x]),
        ] {
            assert_eq!(answer(op, &operands), "RuntimeError: std::bad_cast");
        }
        // Within int64 a lone int is int64, and `logical_and` never checks it.
        assert_eq!(answer(Op::Negative, &[Operand::py_int(1 << 40)]), "int64");
        assert_eq!(
            answer(Op::LogicalAnd, &[Operand::py_int(1 << 40), x]),
            "bool"
        );
    }

    #[test]
    fn the_unary_functions_keep_bool_and_integers() {
        let b = Operand::py_bool(true);
        for op in [Op::Sign, Op::Abs, Op::Floor] {
            assert_eq!(answer(op, &[b]), "bool");
        }
        let c = Operand::py_complex(1.0, 2.0);
        assert_eq!(answer(Op::Abs, &[c]), "float32");
        let bf = Operand::array(DType::BFloat16, false);
        assert_eq!(answer(Op::FloorDivide, &[bf, c]), "complex64");
    }

    #[test]
    fn every_operation_is_described() {
        for op in Op::ALL {
            let words = describe(op);
            assert!(words.starts_with("mx."), "{words}");
            assert!(words.contains("MLX 0.32.4"), "{words}");
        }
    }
}
