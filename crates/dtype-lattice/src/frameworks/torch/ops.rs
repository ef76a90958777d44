//! PyTorch's operations on the CPU: which Python function each [`Op`] is,
//! and what it does with the dtypes of its operands.
//!
//! A call goes through PyTorch's argument parser (which of the function's
//! signatures takes the arguments, and Python numbers where), then the
//! operation's own checks of its inputs (`torch.sub` refuses bool,
//! `torch.maximum` complex), then `TensorIterator`: the inputs' common dtype
//! (the promotion of [`result_type`](super::Torch::result_type)), made the
//! default float by the operations that compute in floats, each input cast
//! to it (`copy_`, which has no code for the sub-byte integers), and the
//! kernel, which PyTorch compiles for some dtypes only: a dtype without one
//! is a `NotImplementedError` naming the kernel and the dtype. [`RULES`] is
//! the table of all that per operation, the kernels' dtypes as measured;
//! `torch.pow` with a Python number has cases of its own ([`power`]).

use super::args::{self, signature, Parser, Signature, Type};
use super::kernels::{
    kernel, Kernel, Types, BAREBONES, BCOMPLEX32, BITWISE, BOOL, CLASSIC, COMPLEX, COMPLEX32, E8M0,
    FLOAT8, FLOATING, HALVES, INEXACT, INTEGRAL, MUL, ORDERED, REAL, STORED,
};
use super::{
    check_tensors, not_implemented, read, tier, wrapped_storage, ScalarType, Slot, Tiered, Torch,
};
use crate::frameworks::common::{OpTable, Output};
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, Op, Operand, OperandKind, PromotionError, Typed};

/// What an operation checks of its inputs' dtypes before it promotes.
#[derive(Clone, Copy)]
enum Refuse {
    Nothing,
    /// A `NotImplementedError` for bool inputs: the first message for two,
    /// the second for one.
    Bool(&'static str, &'static str),
    /// This error for a complex input.
    Complex(ErrorKind, &'static str),
}

/// The dtype the kernel runs in.
#[derive(Clone, Copy)]
enum Promote {
    /// The inputs' common dtype.
    Common,
    /// The common dtype, the default float where it is an integer or bool
    /// (`promote_integer_inputs_to_float`).
    Float,
    /// The common dtype; an integer (not bool) is its own result, copied
    /// with no kernel run.
    KeepIntegers,
}

/// An operation: its Python function, its checks, how it promotes, its
/// kernel, its result.
struct Rule {
    parser: Parser,
    refuse: Refuse,
    promote: Promote,
    kernel: Kernel,
    /// Whether its integer kernels refuse a zero divisor (a `RuntimeError`
    /// `ZeroDivisionError`).
    divides: bool,
    output: Output,
}

impl Rule {
    const fn numbers_as_tensors(mut self) -> Rule {
        self.parser.numbers_as_tensors = true;
        self
    }

    const fn refusing(mut self, refuse: Refuse) -> Rule {
        self.refuse = refuse;
        self
    }

    const fn promoting(mut self, promote: Promote) -> Rule {
        self.promote = promote;
        self
    }

    const fn reduced(mut self, kernel: &'static str) -> Rule {
        self.kernel.reduced = Some(kernel);
        self
    }

    const fn dividing(mut self) -> Rule {
        self.divides = true;
        self
    }

    const fn output(mut self, output: Output) -> Rule {
        self.output = output;
        self
    }
}

const fn rule(name: &'static str, signatures: &'static [Signature], kernel: Kernel) -> Rule {
    Rule {
        parser: Parser {
            name,
            signatures,
            numbers_as_tensors: false,
        },
        refuse: Refuse::Nothing,
        promote: Promote::Common,
        kernel,
        divides: false,
        output: Output::Same,
    }
}

const fn compare(name: &'static str, kernel: Kernel) -> Rule {
    rule(name, COMPARE, kernel).output(Output::Bool)
}

const fn unary(name: &'static str, kernel: Kernel) -> Rule {
    rule(name, UNARY, kernel)
}

const TENSORS: Signature = signature(&[(Type::Tensor, "input"), (Type::Tensor, "other")], true);
const TENSOR_NUMBER: Signature =
    signature(&[(Type::Tensor, "input"), (Type::Number, "other")], true);
/// `torch.add` and `torch.sub`, whose `alpha` scales the second operand;
/// the hidden signature is the deprecated `add(input, alpha, other)`.
pub(super) const ADD_SUB: &[Signature] = &[
    Signature {
        params: &[(Type::Tensor, "input"), (Type::Tensor, "other")],
        keyword: &["Number alpha = 1", "Tensor out = None"],
        hidden: false,
    },
    Signature {
        params: &[
            (Type::Tensor, "input"),
            (Type::Number, "alpha"),
            (Type::Tensor, "other"),
        ],
        keyword: &["Tensor out = None"],
        hidden: true,
    },
];
const DIVIDE: &[Signature] = &[
    TENSORS,
    signature(&[(Type::Tensor, "input"), (Type::Number, "other")], false),
];
/// A Python number is taken first or second, never both.
const EITHER: &[Signature] = &[
    TENSORS,
    signature(&[(Type::Number, "self"), (Type::Tensor, "other")], false),
    TENSOR_NUMBER,
];
const POWER: &[Signature] = &[
    signature(&[(Type::Tensor, "input"), (Type::Tensor, "exponent")], true),
    signature(&[(Type::Number, "self"), (Type::Tensor, "exponent")], true),
    signature(&[(Type::Tensor, "input"), (Type::Number, "exponent")], true),
];
const COMPARE: &[Signature] = &[TENSORS, TENSOR_NUMBER];
const UNARY: &[Signature] = &[signature(&[(Type::Tensor, "input")], true)];

const SUB_TWO_BOOLS: &str = "Subtraction, the `-` operator, with two bool tensors is not \
     supported. Use the `^` or `logical_xor()` operator instead.";
const SUB_BOOL: &str = "Subtraction, the `-` operator, with a bool tensor is not supported. \
     If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.";
const NEG_BOOL: &str = "Negation, the `-` operator, on a bool tensor is not supported. If you \
     are trying to invert a mask, use the `~` or `logical_not()` operator instead.";

/// Each operation's rule, in [`Op`]'s order.
const RULES: OpTable<Rule> = OpTable::new([
    (
        Op::Add,
        rule("add", ADD_SUB, kernel("add_stub", CLASSIC.with(COMPLEX32))).numbers_as_tensors(),
    ),
    // `a - b` runs as `a + (-1) * b`.
    (
        Op::Subtract,
        rule("sub", ADD_SUB, kernel("add_stub", CLASSIC.with(COMPLEX32)))
            .numbers_as_tensors()
            .refusing(Refuse::Bool(SUB_TWO_BOOLS, SUB_BOOL)),
    ),
    (
        Op::Multiply,
        rule("mul", &[TENSORS], kernel("mul_cpu", MUL))
            .numbers_as_tensors()
            .reduced("mul_cpu_reduced_float"),
    ),
    (
        Op::TrueDivide,
        rule("true_divide", DIVIDE, kernel("div_cpu", INEXACT))
            .numbers_as_tensors()
            .promoting(Promote::Float)
            .reduced("div_cpu_reduced_float"),
    ),
    // Integer and float kernels, both named `div_floor_cpu`.
    (
        Op::FloorDivide,
        rule("floor_divide", DIVIDE, kernel("div_floor_cpu", REAL))
            .numbers_as_tensors()
            .reduced("div_floor_cpu_reduced_float")
            .dividing(),
    ),
    (
        Op::Remainder,
        rule("remainder", EITHER, kernel("remainder_cpu", REAL)).dividing(),
    ),
    // With a Python number, `power` decides more itself.
    (
        Op::Power,
        rule("pow", POWER, kernel("pow", REAL.with(COMPLEX))),
    ),
    (
        Op::Maximum,
        rule(
            "maximum",
            &[TENSORS],
            kernel("maximum_cpu", ORDERED.with(BAREBONES)),
        )
        .refusing(Refuse::Complex(
            ErrorKind::Type,
            "maximum not implemented for complex tensors.",
        )),
    ),
    (Op::Equal, compare("eq", kernel("eq_cpu", STORED))),
    (Op::NotEqual, compare("ne", kernel("ne_cpu", STORED))),
    (Op::Less, compare("lt", kernel("lt_cpu", ORDERED))),
    (Op::LessEqual, compare("le", kernel("le_cpu", ORDERED))),
    (Op::Greater, compare("gt", kernel("gt_cpu", ORDERED))),
    (Op::GreaterEqual, compare("ge", kernel("ge_cpu", ORDERED))),
    (
        Op::BitwiseAnd,
        rule("bitwise_and", EITHER, kernel("bitwise_and_cpu", BITWISE)),
    ),
    (
        Op::BitwiseOr,
        rule("bitwise_or", EITHER, kernel("bitwise_or_cpu", BITWISE)),
    ),
    (
        Op::BitwiseXor,
        rule("bitwise_xor", EITHER, kernel("bitwise_xor_cpu", BITWISE)),
    ),
    (
        Op::LogicalAnd,
        rule(
            "logical_and",
            &[TENSORS],
            kernel("logical_and_cpu", CLASSIC),
        )
        .output(Output::Bool),
    ),
    (
        Op::Negative,
        unary("neg", kernel("neg_cpu", REAL.with(COMPLEX).with(COMPLEX32)))
            .refusing(Refuse::Bool(NEG_BOOL, NEG_BOOL)),
    ),
    (
        Op::Abs,
        unary(
            "abs",
            kernel("abs_cpu", REAL.with(COMPLEX).with(COMPLEX32).with(FLOAT8)),
        )
        .output(Output::RealPart),
    ),
    (
        Op::Sign,
        unary("sign", kernel("sign_cpu", ORDERED)).refusing(Refuse::Complex(
            ErrorKind::NotImplemented,
            "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use \
         torch.sgn instead.",
        )),
    ),
    (
        Op::Sqrt,
        unary("sqrt", kernel("sqrt_vml_cpu", INEXACT)).promoting(Promote::Float),
    ),
    (
        Op::Exp,
        unary("exp", kernel("exp_vml_cpu", INEXACT)).promoting(Promote::Float),
    ),
    (
        Op::Floor,
        unary("floor", kernel("floor_vml_cpu", HALVES.with(FLOATING)))
            .refusing(Refuse::Complex(
                ErrorKind::NotImplemented,
                "floor is not supported for complex inputs",
            ))
            .promoting(Promote::KeepIntegers),
    ),
]);

/// What `op`'s result is of the dtype it computes in.
pub(super) fn output(op: Op) -> Output {
    RULES[op].output
}

/// PyTorch's default dtype, which integers divide into.
const DEFAULT_FLOAT: ScalarType = ScalarType::DType(DType::Float32);

/// `torch.<function>(*operands)` on the CPU: the result's dtype.
pub(super) fn operation(
    torch: &Torch,
    op: Op,
    operands: &[Operand],
) -> Result<Typed, PromotionError> {
    operation_into(torch, op, operands, None)
}

/// `torch.<function>(*operands)`, or with `out` its in-place method on
/// the tensor `out` (the first operand): `TensorIterator` then checks that
/// the output's shape is the broadcast one and that the common dtype can
/// be cast to `out`'s, whose dtype the result keeps.
pub(super) fn operation_into(
    torch: &Torch,
    op: Op,
    operands: &[Operand],
    out: Option<DType>,
) -> Result<Typed, PromotionError> {
    let arguments: Vec<Operand> = operands.iter().map(|o| o.as_argument()).collect();
    let arguments = &arguments[..];
    let rule = &RULES[op];
    // As Python runs the call: the tensors are built (a dtype PyTorch lacks
    // fails there), the arguments matched against the signatures, the
    // numbers read, and only then the operation runs.
    check_tensors(arguments)?;
    let signature = args::parse(&rule.parser, arguments)?;
    if rule.parser.signatures[signature].hidden {
        return Err(PromotionError::framework(
            ErrorKind::Value,
            format!(
                "dtype-lattice does not model torch.{}(input, alpha, other), PyTorch's \
                 deprecated overload",
                rule.parser.name
            ),
        ));
    }
    let operands = match arguments {
        [a] => vec![tier(a)?],
        [a, b] => {
            let (a, b) = read(a, b)?;
            vec![a, b]
        }
        _ => unreachable!("the signatures take one or two arguments"),
    };
    let out = out.map(|dtype| (operands[0].0, dtype));
    let dtype = match (op, signature) {
        (Op::Power, 1) => power_of_number(torch, rule, arguments, &operands)?,
        (Op::Power, 2) => power(torch, operands[0], arguments[1], operands[1], out)?,
        _ => apply(torch, rule, arguments, &operands, out)?,
    };
    Ok(Typed::strong(out.map_or(dtype, |(_, dtype)| dtype)))
}

/// `rule` on tensors (Python numbers wrapped in zero-dimensional ones):
/// `arguments` as given, `operands` read into their tiers.
fn apply(
    torch: &Torch,
    rule: &Rule,
    arguments: &[Operand],
    operands: &[Tiered],
    out: Option<Tiered>,
) -> Result<DType, PromotionError> {
    refuse(rule.refuse, operands)?;
    if let Some(out) = out {
        super::forms::check_shape(out, operands)?;
    }
    let mut common = match *operands {
        [(_, dtype)] => ScalarType::of(dtype),
        [a, b] => torch.promote_tiers(a, b)?,
        _ => unreachable!("one or two operands"),
    };
    match rule.promote {
        Promote::Float if is_integral(common, true) => common = DEFAULT_FLOAT,
        Promote::KeepIntegers if is_integral(common, false) => return common.dtype(),
        Promote::Common | Promote::Float | Promote::KeepIntegers => {}
    }
    if let Some(out) = out {
        super::forms::check_cast(common, out)?;
    }
    for &operand in operands {
        cast(operand, common)?;
    }
    // `TensorIterator::is_scalar(2)`: the second input broadcasts from a
    // single element.
    let scalar_second = matches!(operands, [_, (Slot::ZeroDim | Slot::Wrapped, _)]);
    let kernel = rule.kernel;
    match kernel.reduced {
        Some(name) if scalar_second && is_reduced_float(common) => run(name, HALVES, common)?,
        _ => run(kernel.name, kernel.types, common)?,
    }
    // The integer kernels check each divisor; our tensors hold ones, so
    // only a Python number can be zero, as the kernel's dtype reads it.
    if rule.divides
        && is_integral(common, false)
        && arguments.get(1).is_some_and(|d| wraps_to_zero(*d, common))
    {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            "ZeroDivisionError",
        ));
    }
    match rule.output {
        Output::Same => common.dtype(),
        Output::Bool => Ok(DType::Bool),
        Output::RealPart => Ok(common.dtype()?.real_part()),
    }
}

fn refuse(refuse: Refuse, operands: &[Tiered]) -> Result<(), PromotionError> {
    let count = |kind: Kind| operands.iter().filter(|(_, d)| d.kind() == kind).count();
    let (kind, message) = match refuse {
        Refuse::Bool(two, _) if count(Kind::Bool) == 2 => (ErrorKind::NotImplemented, two),
        Refuse::Bool(_, one) if count(Kind::Bool) == 1 => (ErrorKind::NotImplemented, one),
        Refuse::Complex(kind, message) if count(Kind::Complex) > 0 => (kind, message),
        _ => return Ok(()),
    };
    Err(PromotionError::Framework {
        kind,
        message: message.to_owned(),
    })
}

/// `isIntegralType`: the integers PyTorch computes in (the sub-byte ones
/// are not among them), and bool if asked.
pub(super) fn is_integral(scalar_type: ScalarType, include_bool: bool) -> bool {
    let bools = if include_bool { BOOL } else { Types::NONE };
    INTEGRAL.with(BAREBONES).with(bools).contains(scalar_type)
}

/// `isReducedFloatingType`: float16, bfloat16 and the float8 types.
fn is_reduced_float(scalar_type: ScalarType) -> bool {
    HALVES.with(FLOAT8).with(E8M0).contains(scalar_type)
}

/// The kernel `name`, which has code for `types`, run in `scalar_type`.
pub(super) fn run(name: &str, types: Types, scalar_type: ScalarType) -> Result<(), PromotionError> {
    if types.contains(scalar_type) {
        Ok(())
    } else {
        Err(not_implemented(name, scalar_type.name()))
    }
}

/// An input cast to the dtype the kernel runs in (`tensor.to(dtype)`),
/// from the dtype it is stored in. `copy_` has no code for the sub-byte
/// integers and checks the end it casts to first (measured: int1 into
/// uint1 names UInt1).
pub(super) fn cast((slot, dtype): Tiered, to: ScalarType) -> Result<(), PromotionError> {
    let from = ScalarType::of(match slot {
        Slot::Wrapped => wrapped_storage(dtype),
        Slot::Dim | Slot::ZeroDim => dtype,
    });
    copy("copy_", from, to)
}

/// A copy from `from` into `to` by the kernel `name` (`copy_`,
/// `copy_kernel`), which has no code for the sub-byte integers and checks
/// the end it copies to first; none where they are the same.
pub(super) fn copy(name: &str, from: ScalarType, to: ScalarType) -> Result<(), PromotionError> {
    if from != to {
        run(name, STORED, to)?;
        run(name, STORED, from)?;
    }
    Ok(())
}

/// `tensor.reciprocal()`, which `number / tensor` runs: the operand's
/// tier, its dtype the default float where it is an integer or bool.
pub(super) fn reciprocal(torch: &Torch, operand: Operand) -> Result<Operand, PromotionError> {
    const RECIPROCAL: Rule =
        unary("reciprocal", kernel("reciprocal_cpu", INEXACT)).promoting(Promote::Float);
    check_tensors(&[operand])?;
    let tiered = tier(&operand)?;
    let dtype = apply(torch, &RECIPROCAL, &[operand], &[tiered], None)?;
    Ok(match tiered.0 {
        Slot::ZeroDim => Operand::zero_dim(dtype),
        Slot::Dim | Slot::Wrapped => Operand::dtype(dtype),
    })
}

/// `out.fill_(1)`: a tensor of one element is written directly
/// (`fill_out`), any other by a kernel (`fill_cpu`), which lacks
/// bcomplex32 too; neither has code for the sub-byte integers (measured).
pub(super) fn fill(scalar_type: ScalarType, (slot, _): Tiered) -> Result<(), PromotionError> {
    match slot {
        Slot::Dim => run("fill_cpu", STORED.without(BCOMPLEX32), scalar_type),
        Slot::ZeroDim | Slot::Wrapped => run("fill_out", STORED, scalar_type),
    }
}

/// `torch.pow(number, tensor)`: `1 ** x` is a tensor of ones of the
/// promoted dtype, filled; any other number is wrapped in a tensor and the
/// tensors' `pow` runs.
fn power_of_number(
    torch: &Torch,
    rule: &Rule,
    arguments: &[Operand],
    operands: &[Tiered],
) -> Result<DType, PromotionError> {
    if equals(arguments[0], 1.0) {
        let common = torch.promote_tiers(operands[0], operands[1])?;
        fill(common, operands[1])?;
        return common.dtype();
    }
    apply(torch, rule, arguments, operands, None)
}

/// `torch.pow(tensor, number)`, in its order of cases: NumPy's refusal of
/// a negative integer power of integers (checked on the base's dtype, the
/// exponent read as a 64-bit integer); the base cast to the promoted dtype;
/// then `x ** 0` filled with ones, `x ** 1` a copy of the base, `x ** 0.5`,
/// `x ** -0.5` and `x ** -1` their own kernels in the float and complex
/// types, and otherwise the power kernel, which converts the exponent to
/// the dtype it runs in, checking it fits.
fn power(
    torch: &Torch,
    base: Tiered,
    exponent: Operand,
    exponent_tier: Tiered,
    out: Option<Tiered>,
) -> Result<DType, PromotionError> {
    let integer = match exponent.kind() {
        OperandKind::PyInt(n) => Some(n),
        OperandKind::PyBool(b) => Some(i128::from(b)),
        _ => None,
    };
    if let Some(n) = integer.filter(|_| is_integral(ScalarType::of(base.1), true)) {
        if n > i128::from(i64::MAX) {
            return Err(overflow("int64_t"));
        }
        if n < 0 {
            return Err(PromotionError::framework(
                ErrorKind::Runtime,
                "Integers to negative integer powers are not allowed.",
            ));
        }
    }
    let common = torch.promote_tiers(base, exponent_tier)?;
    // `base.to(common)` is made before the output is checked.
    cast(base, common)?;
    if let Some(out) = out {
        super::forms::check_cast(common, out)?;
    }
    if equals(exponent, 0.0) || matches!(exponent.kind(), OperandKind::PyBool(false)) {
        fill(common, base)?;
        return common.dtype();
    }
    if equals(exponent, 1.0) || matches!(exponent.kind(), OperandKind::PyBool(true)) {
        // `out.copy_(base)`: a copy within a dtype, the base's if no cast
        // was needed; in place, the base is the output and nothing is
        // copied.
        if out.is_none() && ScalarType::of(base.1) == common {
            run("copy_kernel", STORED, common)?;
        }
        return common.dtype();
    }
    let special = [
        (0.5, "sqrt_vml_cpu"),
        (-0.5, "rsqrt_cpu"),
        (-1.0, "reciprocal_cpu"),
    ];
    // Fast paths, for float32, float64, bfloat16 and the complex types
    // (float16 takes the general kernel).
    match common {
        ScalarType::DType(DType::Float32 | DType::Float64 | DType::BFloat16)
        | ScalarType::DType(DType::Complex64 | DType::Complex128)
        | ScalarType::HalfComplex(_) => {
            if let Some((_, kernel)) = special.iter().find(|(v, _)| equals(exponent, *v)) {
                run(kernel, INEXACT, common)?;
                return common.dtype();
            }
        }
        _ => {}
    }
    match common {
        ScalarType::DType(DType::Float32 | DType::Float64) => {}
        ScalarType::DType(DType::Complex64 | DType::Complex128) | ScalarType::HalfComplex(_) => {
            run("pow", COMPLEX, common)?;
        }
        ScalarType::DType(dtype @ (DType::Float16 | DType::BFloat16)) => {
            convert(exponent, dtype)?;
        }
        ScalarType::DType(dtype) => {
            run("pow", INTEGRAL, common)?;
            convert(exponent, dtype)?;
        }
    }
    common.dtype()
}

/// Whether a Python int or bool is 0 once cast (wrapping, as C++ casts
/// integers) to the integer type `to`.
fn wraps_to_zero(number: Operand, to: ScalarType) -> bool {
    let bits = match to {
        ScalarType::DType(dtype) => dtype.bits(),
        ScalarType::HalfComplex(_) => return false,
    };
    match number.kind() {
        OperandKind::PyInt(n) => n.rem_euclid(1 << bits) == 0,
        OperandKind::PyBool(b) => !b,
        _ => false,
    }
}

/// `Scalar::equal(value)`: a bool equals no number.
fn equals(operand: Operand, value: f64) -> bool {
    match operand.kind() {
        OperandKind::PyInt(n) => n as f64 == value,
        OperandKind::PyFloat(x) => x == value,
        OperandKind::PyComplex { real, imag } => real == value && imag == 0.0,
        _ => false,
    }
}

/// `Scalar::to<T>()`: the exponent converted to the dtype the power runs
/// in, refused where it does not fit (an infinity or a NaN fits a float).
fn convert(exponent: Operand, to: DType) -> Result<(), PromotionError> {
    let (name, max): (&str, f64) = match to {
        DType::Float16 => ("c10::Half", 65504.0),
        DType::BFloat16 => ("c10::BFloat16", 3.389_531_389_251_535_5e38),
        DType::UInt8 => ("uint8_t", f64::from(u8::MAX)),
        DType::Int8 => ("int8_t", f64::from(i8::MAX)),
        DType::Int16 => ("int16_t", f64::from(i16::MAX)),
        DType::Int32 => ("int32_t", f64::from(i32::MAX)),
        _ => ("int64_t", i64::MAX as f64),
    };
    let fits = match exponent.kind() {
        OperandKind::PyInt(n) if to.is_integer() => {
            let min = if to.kind() == Kind::Unsigned {
                0
            } else {
                -(max as i128) - 1
            };
            (min..=max as i128).contains(&n)
        }
        OperandKind::PyInt(n) => (n as f64).abs() <= max,
        OperandKind::PyFloat(x) => !x.is_finite() || x.abs() <= max,
        _ => true,
    };
    if fits {
        Ok(())
    } else {
        Err(overflow(name))
    }
}

fn overflow(type_name: &str) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Runtime,
        format!("value cannot be converted to type {type_name} without overflow"),
    )
}

/// How `torch.<function>` computes `op`'s result type, in words: the
/// parser, the checks, the promotion, the kernel and the result, as
/// [`RULES`] holds them.
pub(super) fn describe(op: Op) -> String {
    let rule = &RULES[op];
    let name = rule.parser.name;
    let numbers = if rule.parser.numbers_as_tensors {
        "a Python number is taken as a 0-d tensor of its own type"
    } else {
        "a Python number is taken only where one of its signatures has a Number"
    };
    let refused = match rule.refuse {
        Refuse::Nothing => String::new(),
        Refuse::Bool(_, one) => format!("; bool is refused (NotImplementedError \"{one}\")"),
        Refuse::Complex(kind, message) => {
            format!(
                "; complex is refused ({} \"{message}\")",
                kind.python_type()
            )
        }
    };
    let promoted = match rule.promote {
        Promote::Common => "the inputs' common dtype (torch.result_type)",
        Promote::Float => {
            "the inputs' common dtype (torch.result_type), the default float (float32) where \
             that is an integer or bool"
        }
        Promote::KeepIntegers => {
            "the inputs' common dtype (torch.result_type); an integer input is its own \
             result, with no kernel run"
        }
    };
    let result = match rule.output {
        Output::Same => "the result is that dtype",
        Output::Bool => "the result is bool",
        Output::RealPart => "the result is that dtype, a complex one's part type",
    };
    format!(
        "torch.{name} (PyTorch 2.15, CPU): the argument parser ({numbers}){refused}; then \
         {promoted}, each input cast to it, and the {} kernel, which has code for {} only \
         (NotImplementedError for the rest); {result}",
        rule.kernel.name,
        rule.kernel.types.names().join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_are_in_the_order_of_op() {
        let names = [
            "add",
            "sub",
            "mul",
            "true_divide",
            "floor_divide",
            "remainder",
            "pow",
            "maximum",
            "eq",
            "ne",
            "lt",
            "le",
            "gt",
            "ge",
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
            "logical_and",
            "neg",
            "abs",
            "sign",
            "sqrt",
            "exp",
            "floor",
        ];
        for (op, name) in Op::ALL.into_iter().zip(names) {
            let rule = &RULES[op];
            assert_eq!(rule.parser.name, name);
            let arity = rule.parser.signatures[0].params.len();
            assert_eq!(arity, op.arity(), "{name}");
        }
    }

    #[test]
    fn a_set_holds_the_half_complex_types_apart() {
        assert!(COMPLEX32.contains(ScalarType::HalfComplex(DType::Float16)));
        assert!(!COMPLEX32.contains(ScalarType::HalfComplex(DType::BFloat16)));
        assert!(!STORED.contains(ScalarType::DType(DType::Int4)));
        assert!(STORED.contains(ScalarType::DType(DType::Float8E8M0Fnu)));
    }
}
