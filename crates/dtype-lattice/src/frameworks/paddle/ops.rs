//! PaddlePaddle's operations on the CPU in dynamic mode: which Python call
//! each [`Op`] is (the operator where `paddle.Tensor` has one, Paddle's
//! function otherwise, as `conformance/generate_ops_paddle.py` calls
//! them), and what it does with its operands' dtypes. [`BINARY`] and
//! [`UNARY`] are the table; the rest reads it.
//!
//! Paddle promotes only inside the operations of its list
//! (`support_promotion_ops` in `type_promotion.h`: the arithmetic and the
//! comparisons); `maximum` and `logical_and` check their tensors the same
//! way but treat a zero-dimensional one as any other, and the bitwise
//! operations never promote: their kernel takes the second tensor's dtype
//! and refuses a first of another. Then the CPU kernel must exist for the
//! dtype ([`kernels`]).

use super::kernels::{self, Kernel, Stop};
use super::kernels::{
    ABS, ADD, BITWISE_AND, BITWISE_OR, BITWISE_XOR, DIVIDE, ELEMENTWISE_POW as EL_POW, EQUAL, EXP,
    FLOOR, FLOOR_DIVIDE as FLOOR_DIV, GREATER_EQUAL, GREATER_THAN, LESS_EQUAL, LESS_THAN,
    LOGICAL_AND, MAXIMUM, MULTIPLY, NOT_EQUAL, REMAINDER, SCALE, SIGN, SQRT, SUBTRACT,
};
use super::methods::{self, ComplexFull, Method, OnNumber, Other};
use super::promotion::{common, is_int, Tensor, ZeroDim};
use super::Form;
use crate::frameworks::python;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Op, PromotionError, PyScalar};

/// How Python reaches the operation.
#[derive(Clone, Copy, Debug)]
enum Call {
    /// `x OP y`: `Tensor`'s C++ method, `forward` with a tensor on the
    /// left, `reflected` (`__rsub__`) with a Python number on the left.
    Operator { forward: Method, reflected: Method },
    /// A comparison: with a Python number on the left Python calls the
    /// mirrored comparison's method of the tensor (`2 < x` is `x > 2`).
    Comparison { method: Method, mirror: Op },
    /// `x & y`: `paddle.bitwise_and(x, y)` with a tensor on the left, which
    /// takes tensors only; `__rand__` in Python with a number on the left.
    Bitwise,
    /// `paddle.maximum(x, y)`: tensors only.
    Function,
}

/// How two tensors of different dtypes meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Promotion {
    /// [`common`], with this treatment of a zero-dimensional tensor.
    Promotes(ZeroDim),
    /// `divide`: as [`ZeroDim::AsScalar`], then an integer result (two
    /// tensors of one integer dtype too) computes in `float32`
    /// (`GetPromoteDtype`'s first rule).
    InFloat,
    /// None: the kernel's dtype is [`kernels::key`]'s.
    Never,
}

/// A binary operation. Paddle's messages name it by its kernel's name
/// (`maximum`, `bitwise_and`).
#[derive(Debug)]
pub(super) struct Binary {
    op: Op,
    call: Call,
    promotion: Promotion,
    pub(super) kernel: &'static Kernel,
    /// `bool` whatever the dtype computed in (the comparisons,
    /// `logical_and`), else that dtype.
    gives_bool: bool,
}

/// What a unary operation answers for the dtype it computed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gives {
    Same,
    /// A complex dtype's real part (`abs`).
    RealPart,
    /// `float32` for an integer (`exp`'s integer kernels).
    Float32OfIntegers,
}

/// A unary operation: Paddle's function is named as its kernel (`-x` is
/// `scale(x, -1.0, 0.0)`, an operator).
#[derive(Debug)]
pub(super) struct Unary {
    op: Op,
    /// Whether it is a Python operator (`-x`, `abs(x)`), which Python
    /// computes itself for a Python number; Paddle's functions take tensors
    /// only.
    operator: bool,
    /// `NeedTypeAutoCast`: an integer tensor is cast to `float32` first.
    autocast: bool,
    pub(super) kernel: &'static Kernel,
    gives: Gives,
}

const fn method(python: &'static str, on_number: OnNumber) -> Method {
    Method {
        python,
        on_number,
        int_as_float: false,
        complex: ComplexFull {
            complex64: true,
            zero_dim: Some(false),
        },
    }
}

/// A method whose `full` of a complex has `[1]`-shape and `complex64`,
/// and which takes an int or float by `full` too.
const fn full(python: &'static str) -> Method {
    method(python, OnNumber::Full)
}

/// `**`: `pow` of an int or float.
const fn by_pow(python: &'static str) -> Method {
    method(python, OnNumber::Power)
}

/// `method` with another `full` of a complex: `complex64` or the tensor's
/// dtype, and zero-dimensional, `[1]`-shaped or (`None`) the tensor's
/// shape.
const fn making(method: Method, complex64: bool, zero_dim: Option<bool>) -> Method {
    Method {
        complex: ComplexFull {
            complex64,
            zero_dim,
        },
        ..method
    }
}

/// `+` and `-`: `scale` of an int or float, `full` of a complex in the
/// tensor's shape and dtype.
const fn scale(python: &'static str) -> Method {
    making(method(python, OnNumber::Scale), false, None)
}

/// `*`: `scale` of an int or float, a `complex64` `full` of a complex in
/// the tensor's shape.
const fn mul(python: &'static str) -> Method {
    making(method(python, OnNumber::Scale), true, None)
}

/// `/`: an int casts an integer tensor to `float32` as a float does.
const fn dividing(python: &'static str, on_number: OnNumber) -> Method {
    Method {
        int_as_float: true,
        ..method(python, on_number)
    }
}

const fn rule(op: Op, call: Call, kernel: &'static Kernel) -> Binary {
    Binary {
        op,
        call,
        promotion: Promotion::Promotes(ZeroDim::AsScalar),
        kernel,
        gives_bool: false,
    }
}

const fn arith(op: Op, forward: Method, reflected: Method, kernel: &'static Kernel) -> Binary {
    rule(op, Call::Operator { forward, reflected }, kernel)
}

const fn promoting(promotion: Promotion, rule: Binary) -> Binary {
    Binary { promotion, ..rule }
}

/// A comparison: its method's `full` of a complex is zero-dimensional for
/// `==` and `!=`, `[1]`-shaped for the others.
const fn compare(op: Op, name: &'static str, mirror: Op, kernel: &'static Kernel) -> Binary {
    let method = making(
        full(name),
        true,
        Some(matches!(op, Op::Equal | Op::NotEqual)),
    );
    Binary {
        gives_bool: true,
        ..rule(op, Call::Comparison { method, mirror }, kernel)
    }
}

const fn bitwise(op: Op, kernel: &'static Kernel) -> Binary {
    promoting(Promotion::Never, rule(op, Call::Bitwise, kernel))
}

/// `paddle.maximum`, `paddle.logical_and`: tensors only, a
/// zero-dimensional one as any other.
const fn tensors_only(op: Op, kernel: &'static Kernel, gives_bool: bool) -> Binary {
    Binary {
        promotion: Promotion::Promotes(ZeroDim::AsTensor),
        gives_bool,
        ..rule(op, Call::Function, kernel)
    }
}

/// The binary operations, in [`Op`]'s order.
static BINARY: [Binary; 18] = [
    arith(Op::Add, scale("__add__"), scale("__radd__"), &ADD),
    arith(Op::Subtract, scale("__sub__"), scale("__rsub__"), &SUBTRACT),
    arith(Op::Multiply, mul("__mul__"), mul("__rmul__"), &MULTIPLY),
    promoting(
        Promotion::InFloat,
        arith(
            Op::TrueDivide,
            dividing("__truediv__", OnNumber::Divide),
            dividing("__rtruediv__", OnNumber::Full),
            &DIVIDE,
        ),
    ),
    promoting(
        Promotion::Promotes(ZeroDim::Table),
        arith(
            Op::FloorDivide,
            full("__floordiv__"),
            full("__rfloordiv__"),
            &FLOOR_DIV,
        ),
    ),
    arith(Op::Remainder, full("__mod__"), full("__rmod__"), &REMAINDER),
    arith(Op::Power, by_pow("__pow__"), full("__rpow__"), &EL_POW),
    tensors_only(Op::Maximum, &MAXIMUM, false),
    compare(Op::Equal, "__eq__", Op::Equal, &EQUAL),
    compare(Op::NotEqual, "__ne__", Op::NotEqual, &NOT_EQUAL),
    compare(Op::Less, "__lt__", Op::Greater, &LESS_THAN),
    compare(Op::LessEqual, "__le__", Op::GreaterEqual, &LESS_EQUAL),
    compare(Op::Greater, "__gt__", Op::Less, &GREATER_THAN),
    compare(Op::GreaterEqual, "__ge__", Op::LessEqual, &GREATER_EQUAL),
    bitwise(Op::BitwiseAnd, &BITWISE_AND),
    bitwise(Op::BitwiseOr, &BITWISE_OR),
    bitwise(Op::BitwiseXor, &BITWISE_XOR),
    tensors_only(Op::LogicalAnd, &LOGICAL_AND, true),
];

const fn unary(op: Op, kernel: &'static Kernel) -> Unary {
    Unary {
        op,
        operator: false,
        autocast: false,
        kernel,
        gives: Gives::Same,
    }
}

/// The unary operations, in [`Op`]'s order.
static UNARY: [Unary; 6] = [
    Unary {
        operator: true,
        ..unary(Op::Negative, &SCALE)
    },
    Unary {
        operator: true,
        gives: Gives::RealPart,
        ..unary(Op::Abs, &ABS)
    },
    unary(Op::Sign, &SIGN),
    Unary {
        autocast: true,
        ..unary(Op::Sqrt, &SQRT)
    },
    Unary {
        gives: Gives::Float32OfIntegers,
        ..unary(Op::Exp, &EXP)
    },
    unary(Op::Floor, &FLOOR),
];

pub(super) fn binary_rule(op: Op) -> Option<&'static Binary> {
    BINARY.iter().find(|rule| rule.op == op)
}

pub(super) fn unary_rule(op: Op) -> Option<&'static Unary> {
    UNARY.iter().find(|rule| rule.op == op)
}

/// `op` on operands already read, as many as it takes, as Python runs
/// the call; the dtype the CPU computes in where a kernel is missing
/// ([`Stop::NoKernel`]).
pub(super) fn operation(op: Op, operands: &[Form]) -> Result<DType, Stop> {
    match (operands, binary_rule(op), unary_rule(op)) {
        ([x, y], Some(rule), _) => binary_call(rule, *x, *y),
        ([x], _, Some(rule)) => unary_call(rule, *x),
        _ => Err(Stop::Error(arity(op, operands.len()))),
    }
}

/// The error for `count` operands where `op` takes another number.
pub(super) fn arity(op: Op, count: usize) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Type,
        format!(
            "{} takes {} operand{}, not {count}",
            written(op),
            ["one", "two"][op.arity() - 1],
            if op.arity() == 1 { "" } else { "s" },
        ),
    )
}

/// How the call is written in Python.
fn written(op: Op) -> String {
    match (python::symbol(op), binary_rule(op), unary_rule(op)) {
        (Some("abs()"), ..) => "abs(x)".to_owned(),
        (Some(symbol), Some(_), _) => format!("x {symbol} y"),
        (Some(symbol), None, _) => format!("{symbol}x"),
        (None, Some(rule), _) => format!("paddle.{}(x, y)", rule.kernel.name),
        (None, None, Some(rule)) => format!("paddle.{}(x)", rule.kernel.name),
        (None, None, None) => op.name().to_owned(),
    }
}

pub(super) fn binary_call(rule: &Binary, x: Form, y: Form) -> Result<DType, Stop> {
    match (rule.call, x, y) {
        (_, Form::Tensor(a), Form::Tensor(b)) => tensors(rule, a, b),
        (Call::Function, Form::Tensor(_), other) => Err(Stop::Error(methods::not_a_tensor(
            rule.kernel.name,
            1,
            other,
        ))),
        (Call::Function, other, _) => Err(Stop::Error(methods::not_a_tensor(
            rule.kernel.name,
            0,
            other,
        ))),
        (Call::Bitwise, Form::Tensor(_), other) => Err(Stop::Error(methods::not_a_tensor(
            rule.kernel.name,
            1,
            other,
        ))),
        (Call::Bitwise, other, Form::Tensor(b)) => {
            let a = methods::reflected_bitwise(b, other)?;
            tensors(rule, a, b)
        }
        (Call::Operator { forward, .. }, Form::Tensor(a), other) => {
            after_method(rule, &forward, a, other, false)
        }
        (Call::Operator { reflected, .. }, other, Form::Tensor(b)) => {
            after_method(rule, &reflected, b, other, true)
        }
        (Call::Comparison { method, .. }, Form::Tensor(a), other) => {
            after_method(rule, &method, a, other, false)
        }
        (Call::Comparison { mirror, .. }, other, Form::Tensor(b)) => {
            binary_call(binary_rule(mirror).unwrap_or(rule), Form::Tensor(b), other)
        }
        (_, a, b) => Err(Stop::Error(python_computes(
            rule.op,
            python::binary(rule.op, number(a), number(b)),
        ))),
    }
}

fn number(form: Form) -> Option<python::Number> {
    match form {
        Form::Number(number) => Some(number),
        _ => None,
    }
}

/// The answer where Python computes the result itself: a Python number,
/// which has no dtype, or Python's error.
fn python_computes(op: Op, result: Option<Result<PyScalar, PromotionError>>) -> PromotionError {
    match result {
        Some(Ok(scalar)) => python::no_dtype("tensor", &written(op), scalar),
        Some(Err(err)) => err,
        None => {
            PromotionError::framework(ErrorKind::Type, format!("{} takes tensors", written(op)))
        }
    }
}

/// The method `method` of `tensor` with `other`, then the operation's
/// kernel; `reflected` where the tensor is the right operand.
fn after_method(
    rule: &Binary,
    method: &Method,
    tensor: Tensor,
    other: Form,
    reflected: bool,
) -> Result<DType, Stop> {
    if other == Form::None && matches!(rule.op, Op::Equal | Op::NotEqual) {
        // The method answers `NotImplemented`, and Python compares the
        // objects itself.
        return Err(Stop::Error(python_computes(
            rule.op,
            python::binary(rule.op, None, None),
        )));
    }
    match methods::call(method, tensor, other)? {
        Other::Computed(dtype) => Ok(dtype),
        Other::Tensors(a, b) if reflected => tensors(rule, b, a),
        Other::Tensors(a, b) => tensors(rule, a, b),
    }
}

/// The operation's kernel of two tensors, `x` its first input.
pub(super) fn tensors(rule: &Binary, x: Tensor, y: Tensor) -> Result<DType, Stop> {
    let dtype = match rule.promotion {
        Promotion::Promotes(zero_dim) => common(x, y, zero_dim)?,
        Promotion::InFloat => match common(x, y, ZeroDim::AsScalar)? {
            integer if is_int(integer) => DType::Float32,
            dtype => dtype,
        },
        Promotion::Never => {
            let key = kernels::key(x.dtype, y.dtype);
            rule.kernel.run(key)?;
            if let Some(held) = [x.dtype, y.dtype].into_iter().find(|&d| d != key) {
                return Err(Stop::Error(kernels::wrong_data(key, held)));
            }
            key
        }
    };
    let dtype = rule.kernel.run(dtype)?;
    Ok(if rule.gives_bool { DType::Bool } else { dtype })
}

pub(super) fn unary_call(rule: &Unary, x: Form) -> Result<DType, Stop> {
    let Form::Tensor(tensor) = x else {
        return Err(Stop::Error(if rule.operator {
            python_computes(rule.op, python::unary(rule.op, number(x)))
        } else {
            methods::not_a_tensor(rule.kernel.name, 0, x)
        }));
    };
    let dtype = if rule.autocast && is_int(tensor.dtype) {
        DType::Float32
    } else {
        tensor.dtype
    };
    let dtype = rule.kernel.run(dtype)?;
    Ok(match rule.gives {
        Gives::Same => dtype,
        Gives::RealPart => dtype.real_part(),
        Gives::Float32OfIntegers if is_int(dtype) => DType::Float32,
        Gives::Float32OfIntegers => dtype,
    })
}

/// How Paddle computes `op`, in words (`explain --op`).
pub(super) fn describe(op: Op) -> String {
    let call = written(op);
    if let Some(rule) = unary_rule(op) {
        let input = if rule.autocast {
            "an integer tensor cast to float32 first, "
        } else {
            ""
        };
        let result = match rule.gives {
            Gives::Same => "the result is the tensor's dtype",
            Gives::RealPart => "the result is the dtype, a complex one's real part",
            Gives::Float32OfIntegers => "the result is the dtype, float32 for an integer",
        };
        let numbers = if rule.operator {
            "Python computes it for a Python number"
        } else {
            "a Python number is refused (tensors only)"
        };
        return format!(
            "{call}: {input}the CPU kernel `{}` ({}); {result}; {numbers}",
            rule.kernel.name,
            rule.kernel.dtypes()
        );
    }
    let Some(rule) = binary_rule(op) else {
        return call;
    };
    let promotion = match rule.promotion {
        Promotion::Never => {
            "no promotion: the kernel takes the second tensor's dtype (complex64 or complex128 \
             where a tensor is complex) and refuses a first tensor of another (ValueError)"
        }
        Promotion::Promotes(ZeroDim::AsTensor) => {
            "two tensors of different dtypes promote by Paddle's table only when both are \
             floats or one is complex, else TypeError, zero-dimensional or not"
        }
        Promotion::Promotes(ZeroDim::Table) => {
            "two tensors of different dtypes promote by Paddle's table only when both are \
             floats or one is complex, else TypeError; with a zero-dimensional one, always by \
             the table"
        }
        Promotion::Promotes(ZeroDim::AsScalar) | Promotion::InFloat => {
            "two tensors of different dtypes promote by Paddle's table only when both are \
             floats or one is complex, else TypeError; a zero-dimensional one beside a tensor \
             of its own category (integer, float, complex) takes that tensor's dtype, else the \
             table decides"
        }
    };
    let in_float = if rule.promotion == Promotion::InFloat {
        "; an integer result computes in float32"
    } else {
        ""
    };
    let numbers = match rule.call {
        Call::Function => "a Python number is refused (tensors only)".to_owned(),
        Call::Bitwise => "a Python int or bool on the left becomes a tensor of the other's \
                          dtype, on the right it is refused"
            .to_owned(),
        Call::Operator { forward, .. }
        | Call::Comparison {
            method: forward, ..
        } => number_words(&forward),
    };
    let result = if rule.gives_bool {
        "the result is bool"
    } else {
        "the result is the dtype computed in"
    };
    format!(
        "{call}: {promotion}{in_float}; then the CPU kernel `{}` ({}); {numbers}; {result}",
        rule.kernel.name,
        rule.kernel.dtypes()
    )
}

/// What a method does with a Python number, in words.
fn number_words(method: &Method) -> String {
    let casts = if method.int_as_float {
        "a Python int or float casts an integer or bool tensor to float32"
    } else {
        "a Python float casts an integer or bool tensor to float32, an int a bool tensor to int64"
    };
    let then = match method.on_number {
        OnNumber::Scale => "then the kernel `scale` of the tensor",
        OnNumber::Divide => "then the kernel `div_scale` of the tensor (floating dtypes only)",
        OnNumber::Power => {
            "then the kernel `pow` of the tensor (which never returns for an int32 or int64 \
             tensor and a negative int)"
        }
        OnNumber::Full => "then a tensor of the tensor's dtype (kernel `full`)",
    };
    format!(
        "{casts}, {then}; a Python bool becomes a tensor of its dtype, a complex casts a real \
         tensor to complex and becomes a complex tensor; two Python numbers Python computes itself"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_in_ops_order() {
        let ops: Vec<Op> = BINARY
            .iter()
            .map(|r| r.op)
            .chain(UNARY.iter().map(|r| r.op))
            .collect();
        assert_eq!(ops, Op::ALL);
    }

    #[test]
    fn every_kernel_lists_dtypes_paddle_has() {
        let kernels = BINARY
            .iter()
            .map(|r| r.kernel)
            .chain(UNARY.iter().map(|r| r.kernel));
        for kernel in kernels {
            for name in kernel.dtypes().split(", ") {
                let dtype = DType::from_name(name).unwrap();
                assert!(super::super::known(dtype).is_ok(), "{name}");
            }
        }
    }
}
