//! TensorFlow's operations: the function each [`Op`] calls, how that
//! function reaches its kernel, and what NumPy behaviour changes.
//!
//! Without NumPy behaviour, and in its mode legacy, nothing promotes.
//! Most functions are the generated op functions (`gen_math_ops.less`),
//! whose eager fast path
//! converts each Python scalar to the dtype of the first tensor (of the
//! first scalar where there is no tensor) and then runs the kernel, whose
//! checks fail a mismatch ("cannot compute Less as input #1(zero-based)
//! was expected to be a int8 tensor but is a uint8 tensor"). A few convert
//! in Python first (`math_ops.add`, `_truediv_python3`, `math_ops.abs`),
//! where a scalar that does not convert to the other operand's dtype keeps
//! its own. Under NumPy behaviour `weak_tensor_ops` wraps some functions
//! so that they promote with `flexible_dtypes.result_type` (modes safe
//! and all)
//! ([`Numpy::Promotes`], [`Numpy::Unary`]); the others answer as without
//! it. [`RULES`] says which is which; [`kernels`] holds
//! what each kernel takes.

use super::convert::{self, negative_to_uint64, requested_dtype};
use super::kernels::{self, Inputs, Kernel};
use super::{auto_typed, Mode, TensorFlow, Value};
use crate::frameworks::common::OpTable;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, Op, Operand, PromotionError, Typed};

/// How `tf.<function>` reaches its kernel without NumPy behaviour.
#[derive(Clone, Copy)]
enum Call {
    /// The generated op function: the eager fast path where every input
    /// is a tensor or a Python int, float or bool, the Python fallback
    /// otherwise ([`TensorFlow::generated`]).
    Generated,
    /// `math_ops.add`: `convert_to_tensor(x)`, then `y` with `x`'s dtype
    /// as a hint, then the kernel on two tensors.
    Hinted,
    /// `_truediv_python3`: `x` and `y` converted as [`Call::Hinted`]
    /// converts them, then one dtype, which `_TRUEDIV_TABLE` makes a
    /// float ([`TRUEDIV`]), then `RealDiv`.
    TrueDiv,
    /// `math_ops.abs`, `math_ops.sign`: `convert_to_tensor(x)`, then a
    /// complex `x` goes to other kernels (`ComplexAbs`, `DivNoNan`), which
    /// take both complex dtypes, and the rest to the op's own.
    Converted(OfComplex),
}

/// What [`Call::Converted`] answers for a complex tensor.
#[derive(Clone, Copy)]
enum OfComplex {
    /// `ComplexAbs`: the real part's dtype.
    RealPart,
    /// The complex dtype itself.
    Same,
}

/// What NumPy behaviour makes of the function.
#[derive(Clone, Copy)]
enum Numpy {
    /// Not wrapped: as without NumPy behaviour (but for the conversions in
    /// Python, which go through the wrapped `tf.constant`).
    Unwrapped,
    /// `weak_tensor_binary_op_wrapper`: the operands promoted by
    /// `flexible_dtypes.result_type` (where it has no answer for a dtype,
    /// the function as without NumPy behaviour), each converted or cast to
    /// the result, then the function; the result weak where the promotion
    /// is and `weak` allows (`special_handling="comparison-method"` never
    /// answers a weak result).
    Promotes { weak: bool },
    /// `weak_tensor_unary_op_wrapper`: a tensor as without NumPy
    /// behaviour; a Python scalar or `WeakTensor` converted to its type
    /// and the result weak where that type is.
    Unary,
}

/// An operation's function and kernel.
struct Rule {
    /// The function, as messages of our own name it.
    function: &'static str,
    call: Call,
    kernel: &'static Kernel,
    numpy: Numpy,
    /// Whether the golden data records the failure of converting a
    /// negative Python int to uint64 for this function's second operand.
    /// TensorFlow 2.21 fails the first such conversion in a process
    /// ([`negative_to_uint64`]) and then hands later ones a cached tensor:
    /// the generators call `tf.add` before every other function, so only
    /// `tf.add` saw the failure, and the others the cached tensor (and
    /// likewise `tnp.add` among the `tf.experimental.numpy` functions,
    /// whose conversion of the scalar meets it).
    first_negative_uint64: bool,
}

const fn rule(function: &'static str, kernel: &'static Kernel, numpy: Numpy) -> Rule {
    Rule {
        function,
        call: Call::Generated,
        kernel,
        numpy,
        first_negative_uint64: false,
    }
}

const PROMOTES: Numpy = Numpy::Promotes { weak: true };
/// `maximum` and `equal`, wrapped as "comparison methods".
const PROMOTES_STRONG: Numpy = Numpy::Promotes { weak: false };

/// Each operation's rule, in [`Op`]'s order.
const RULES: OpTable<Rule> = OpTable::new([
    (
        Op::Add,
        Rule {
            call: Call::Hinted,
            first_negative_uint64: true,
            ..rule("tf.add", &kernels::ADD_V2, PROMOTES)
        },
    ),
    (Op::Subtract, rule("tf.subtract", &kernels::SUB, PROMOTES)),
    (Op::Multiply, rule("tf.multiply", &kernels::MUL, PROMOTES)),
    (
        Op::TrueDivide,
        Rule {
            call: Call::TrueDiv,
            ..rule("tf.math.truediv", &kernels::REAL_DIV, PROMOTES)
        },
    ),
    (
        Op::FloorDivide,
        rule("tf.math.floordiv", &kernels::FLOOR_DIV, PROMOTES),
    ),
    (
        Op::Remainder,
        rule("tf.math.floormod", &kernels::FLOOR_MOD, PROMOTES),
    ),
    (Op::Power, rule("tf.pow", &kernels::POW, PROMOTES)),
    (
        Op::Maximum,
        rule("tf.maximum", &kernels::MAXIMUM, PROMOTES_STRONG),
    ),
    (
        Op::Equal,
        rule("tf.equal", &kernels::EQUAL, PROMOTES_STRONG),
    ),
    (
        Op::NotEqual,
        rule("tf.not_equal", &kernels::NOT_EQUAL, Numpy::Unwrapped),
    ),
    (Op::Less, rule("tf.less", &kernels::LESS, Numpy::Unwrapped)),
    (
        Op::LessEqual,
        rule("tf.less_equal", &kernels::LESS_EQUAL, Numpy::Unwrapped),
    ),
    (
        Op::Greater,
        rule("tf.greater", &kernels::GREATER, Numpy::Unwrapped),
    ),
    (
        Op::GreaterEqual,
        rule(
            "tf.greater_equal",
            &kernels::GREATER_EQUAL,
            Numpy::Unwrapped,
        ),
    ),
    (
        Op::BitwiseAnd,
        rule(
            "tf.bitwise.bitwise_and",
            &kernels::BITWISE_AND,
            Numpy::Unwrapped,
        ),
    ),
    (
        Op::BitwiseOr,
        rule(
            "tf.bitwise.bitwise_or",
            &kernels::BITWISE_OR,
            Numpy::Unwrapped,
        ),
    ),
    (
        Op::BitwiseXor,
        rule(
            "tf.bitwise.bitwise_xor",
            &kernels::BITWISE_XOR,
            Numpy::Unwrapped,
        ),
    ),
    (
        Op::LogicalAnd,
        rule("tf.logical_and", &kernels::LOGICAL_AND, Numpy::Unwrapped),
    ),
    (
        Op::Negative,
        rule("tf.negative", &kernels::NEG, Numpy::Unary),
    ),
    (
        Op::Abs,
        Rule {
            call: Call::Converted(OfComplex::RealPart),
            ..rule("tf.abs", &kernels::ABS, Numpy::Unary)
        },
    ),
    (
        Op::Sign,
        Rule {
            call: Call::Converted(OfComplex::Same),
            ..rule("tf.sign", &kernels::SIGN, Numpy::Unary)
        },
    ),
    (Op::Sqrt, rule("tf.sqrt", &kernels::SQRT, Numpy::Unary)),
    (Op::Exp, rule("tf.exp", &kernels::EXP, Numpy::Unary)),
    (Op::Floor, rule("tf.floor", &kernels::FLOOR, Numpy::Unary)),
]);

/// `op`'s rule as the tensor operators call its function.
fn operator_rule(op: Op) -> Rule {
    let kernel = match op {
        Op::Equal => &kernels::TENSOR_EQUAL,
        Op::NotEqual => &kernels::TENSOR_NOT_EQUAL,
        _ => RULES[op].kernel,
    };
    Rule {
        kernel,
        first_negative_uint64: false,
        ..RULES[op]
    }
}

/// `_TRUEDIV_TABLE`, in its order: the dtypes `tf.math.truediv` takes,
/// and the float it casts an integer to.
const TRUEDIV: [(DType, Option<DType>); 14] = [
    (DType::UInt8, Some(DType::Float32)),
    (DType::Int8, Some(DType::Float32)),
    (DType::UInt16, Some(DType::Float32)),
    (DType::Int16, Some(DType::Float32)),
    (DType::UInt32, Some(DType::Float64)),
    (DType::Int32, Some(DType::Float64)),
    (DType::UInt64, Some(DType::Float64)),
    (DType::Int64, Some(DType::Float64)),
    (DType::BFloat16, None),
    (DType::Float16, None),
    (DType::Float32, None),
    (DType::Float64, None),
    (DType::Complex64, None),
    (DType::Complex128, None),
];

/// `tf.<function>` for `op` without NumPy behaviour, on `args` (tensors
/// and Python scalars) that hold `held` (a tensor made of a Python scalar
/// holds that scalar, whose value some kernels check; other tensors hold
/// ones): Keras's TensorFlow backend calls TensorFlow's functions so.
pub(crate) fn call_plain(op: Op, args: &[Value], held: &[Value]) -> Result<DType, PromotionError> {
    TensorFlow::new(Mode::Off).call(&RULES[op], args, held)
}

/// The TensorFlow function that [`call_plain`] calls for `op`.
pub(crate) fn function_name(op: Op) -> &'static str {
    RULES[op].function
}

impl TensorFlow {
    /// `tf.<function>(*operands)` for `op`: the operands built, counted,
    /// then the function with or without NumPy behaviour's wrapper.
    pub(super) fn call_op(&self, op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let rule = &RULES[op];
        let values = self.values(operands)?;
        if values.len() != op.arity() {
            return Err(self.arity(rule, op.arity(), values.len()));
        }
        self.dispatch(rule, &values, &values)
    }

    /// `tf.<function>` for `op` on `values` (as many as it takes) as the
    /// tensor operators call it: after the first conversion of a negative
    /// Python int to uint64 in the process, which the golden data of the
    /// operators makes before any ([`Rule::first_negative_uint64`]).
    /// `==` and `!=` call theirs with `incompatible_shape_error=False`.
    /// The tensors hold `held` (the Python scalars they were made of).
    pub(super) fn call_values(
        &self,
        op: Op,
        values: &[Value],
        held: &[Value],
    ) -> Result<Typed, PromotionError> {
        self.dispatch(&operator_rule(op), values, held)
    }

    /// `tf.<function>` for `op` without NumPy behaviour's wrapper, which
    /// some operators call directly (`Tensor.__neg__` is
    /// `gen_math_ops.neg`, `__lt__` `gen_math_ops.less`), as
    /// [`call_values`](Self::call_values) calls it.
    pub(super) fn call_unwrapped(
        &self,
        op: Op,
        values: &[Value],
        held: &[Value],
    ) -> Result<DType, PromotionError> {
        self.call(&operator_rule(op), values, held)
    }

    /// The function with or without NumPy behaviour's wrapper.
    fn dispatch(
        &self,
        rule: &Rule,
        values: &[Value],
        held: &[Value],
    ) -> Result<Typed, PromotionError> {
        match rule.numpy {
            _ if !self.mode().converts() => self.call(rule, values, held).map(Typed::strong),
            Numpy::Unwrapped => self.call(rule, values, held).map(Typed::strong),
            Numpy::Promotes { weak } => self.promoted(rule, values, weak),
            Numpy::Unary => self.unary(rule, values[0]),
        }
    }

    /// `tf.<function>` for `op` on strong tensors of `dtype`, one per
    /// operand, which hold `held`: what `tf.experimental.numpy` calls once
    /// it has converted its operands to one dtype.
    pub(super) fn call_on(
        &self,
        op: Op,
        dtype: DType,
        held: &[Value],
    ) -> Result<DType, PromotionError> {
        let tensor = Value::Tensor { dtype, weak: false };
        self.call(&RULES[op], &vec![tensor; op.arity()], held)
    }

    /// The errors of a call with too few or too many operands: the
    /// dispatcher's, or under NumPy behaviour the wrapper's
    /// `signature.bind`; too many would be the `name` argument, which we
    /// refuse in words of our own.
    fn arity(&self, rule: &Rule, arity: usize, count: usize) -> PromotionError {
        let wrapped = self.mode().converts() && !matches!(rule.numpy, Numpy::Unwrapped);
        let message = if count > arity {
            let operands = if arity == 1 {
                "one operand"
            } else {
                "two operands"
            };
            format!("{} takes {operands}, not {count}", rule.function)
        } else if wrapped {
            format!("missing a required argument: '{}'", ["x", "y"][count])
        } else {
            "Missing required positional argument".to_owned()
        };
        PromotionError::framework(ErrorKind::Type, message)
    }

    /// The wrapper of a binary function under NumPy behaviour.
    fn promoted(&self, rule: &Rule, values: &[Value], weak: bool) -> Result<Typed, PromotionError> {
        let promoted = match self.auto_result_type(values) {
            // "Falling back to old semantics".
            Err(PromotionError::Framework {
                kind: ErrorKind::NotImplemented,
                ..
            }) => return self.call(rule, values, values).map(Typed::strong),
            other => other?,
        };
        // Tensors are cast (`math_ops.cast` has every pair of the table's
        // dtypes); Python scalars converted.
        for (position, &value) in values.iter().enumerate() {
            if !matches!(value, Value::Tensor { .. }) {
                self.uint64_failure(rule, position, value, promoted.dtype)?;
                self.constant(value, Some(promoted.dtype))?;
            }
        }
        let tensors = vec![
            Value::Tensor {
                dtype: promoted.dtype,
                weak: false
            };
            values.len()
        ];
        Ok(Typed {
            dtype: self.call(rule, &tensors, values)?,
            weak: weak && promoted.weak,
        })
    }

    /// The wrapper of a unary function under NumPy behaviour.
    fn unary(&self, rule: &Rule, value: Value) -> Result<Typed, PromotionError> {
        if let Value::Tensor { weak: false, .. } = value {
            return self.call(rule, &[value], &[value]).map(Typed::strong);
        }
        let typed = self.auto_result_type(&[value])?;
        if !matches!(value, Value::Tensor { .. }) {
            self.constant(value, Some(typed.dtype))?;
        }
        let tensor = Value::Tensor {
            dtype: typed.dtype,
            weak: false,
        };
        Ok(Typed {
            dtype: self.call(rule, &[tensor], &[value])?,
            weak: typed.weak,
        })
    }

    /// The function without NumPy behaviour's wrapper on `args`, which
    /// hold `held` (the Python scalars the wrapper converted, whose values
    /// some kernels check).
    fn call(&self, rule: &Rule, args: &[Value], held: &[Value]) -> Result<DType, PromotionError> {
        let kernel = rule.kernel;
        match rule.call {
            Call::Generated => self.generated(kernel, args, held),
            Call::Hinted => {
                let x = self.hinted(args[0], None)?;
                self.uint64_failure(rule, 1, args[1], x)?;
                let y = self.hinted(args[1], Some(x))?;
                kernel.run(&[x, y], held, true)
            }
            Call::TrueDiv => {
                let x = self.hinted(args[0], None)?;
                let y = self.hinted(args[1], Some(x))?;
                if x != y {
                    return Err(PromotionError::framework(
                        ErrorKind::Type,
                        format!("`x` and `y` must have the same dtype, got tf.{x} != tf.{y}."),
                    ));
                }
                let Some(&(_, float)) = TRUEDIV.iter().find(|(dtype, _)| *dtype == x) else {
                    let known: Vec<String> =
                        TRUEDIV.iter().map(|(d, _)| format!("tf.{d}")).collect();
                    return Err(PromotionError::framework(
                        ErrorKind::Type,
                        format!(
                            "Invalid dtype tf.{x} in __truediv__. Expected one of {{{}}}.",
                            known.join(", ")
                        ),
                    ));
                };
                let dtype = float.unwrap_or(x);
                kernel.run(&[dtype, dtype], held, true)
            }
            Call::Converted(of_complex) => {
                let x = self.hinted(args[0], None)?;
                match (x.kind(), of_complex) {
                    (Kind::Complex, OfComplex::RealPart) => Ok(x.real_part()),
                    (Kind::Complex, OfComplex::Same) => Ok(x),
                    _ => kernel.run(&[x], held, true),
                }
            }
        }
    }

    /// A generated op function running `kernel` on `values`.
    pub(super) fn run_generated(
        &self,
        kernel: &Kernel,
        values: &[Value],
    ) -> Result<DType, PromotionError> {
        self.generated(kernel, values, values)
    }

    /// A generated op function. Its eager fast path
    /// (`TFE_Py_FastPathExecute`) takes tensors and Python ints, floats and
    /// bools, and converts each scalar to the dtype of the first tensor
    /// (or of the first scalar converted, where there is none), or to the
    /// input's fixed type. Anything else (a Python complex, `None`, a
    /// `WeakTensor`) takes the Python fallback (`args_to_matching_eager`):
    /// tensors, weak or not, as they are where there is nothing else;
    /// otherwise every input converted in Python to the first tensor's
    /// dtype (or the first scalar's), which a tensor of another dtype
    /// refuses.
    fn generated(
        &self,
        kernel: &Kernel,
        args: &[Value],
        held: &[Value],
    ) -> Result<DType, PromotionError> {
        let fixed = match kernel.inputs {
            Inputs::Fixed(dtype) => Some(dtype),
            Inputs::Attr(_) => None,
        };
        let first_tensor = args.iter().find_map(|value| match value {
            Value::Tensor { dtype, .. } => Some(*dtype),
            _ => None,
        });
        let fast = args.iter().all(|value| {
            matches!(
                value,
                Value::Tensor { weak: false, .. }
                    | Value::Int(_)
                    | Value::Float(_)
                    | Value::Bool(_)
            )
        });
        // The fallback converts nothing where every input is a tensor and
        // the kernel fixes no type.
        let as_they_are =
            !fast && fixed.is_none() && args.iter().all(|v| matches!(v, Value::Tensor { .. }));
        let mut target = fixed.or(first_tensor);
        let mut dtypes = Vec::with_capacity(args.len());
        for &value in args {
            let dtype = match value {
                Value::Tensor { dtype, .. } if fast || as_they_are => dtype,
                // `convert_to_tensor(tensor, target)`.
                Value::Tensor { dtype, .. } => match target {
                    Some(target) if target != dtype => {
                        return Err(requested_dtype("", target, dtype))
                    }
                    _ => dtype,
                },
                _ if fast => convert::to_tensor(value, target)?,
                _ => self.constant(value, target)?,
            };
            target.get_or_insert(dtype);
            dtypes.push(dtype);
        }
        kernel.run(&dtypes, held, fast)
    }

    /// `ops.convert_to_tensor(value, dtype_hint=hint)`: a tensor as it is;
    /// a Python scalar converted to `hint` where it converts, to its own
    /// default where that raises `TypeError` or `ValueError`.
    pub(super) fn hinted(
        &self,
        value: Value,
        hint: Option<DType>,
    ) -> Result<DType, PromotionError> {
        if let Value::Tensor { dtype, .. } = value {
            return Ok(dtype);
        }
        match self.constant(value, hint) {
            Err(PromotionError::Framework {
                kind: ErrorKind::Type | ErrorKind::Value,
                ..
            }) if hint.is_some() => self.constant(value, None),
            other => other,
        }
    }

    /// `tf.constant(value, dtype)`, what converting a Python scalar in
    /// Python comes to. Under NumPy behaviour `weak_tensor_ops` wraps it:
    /// the scalar and `dtype` are promoted first (mode safe refuses what it
    /// refuses; a dtype outside the table passes), and a scalar without a
    /// dtype takes its weak type's (a Python int must fit int32).
    pub(super) fn constant(
        &self,
        value: Value,
        dtype: Option<DType>,
    ) -> Result<DType, PromotionError> {
        if !self.mode().converts() || value == Value::None {
            return convert::to_tensor(value, dtype);
        }
        let Some(dtype) = dtype else {
            return convert::to_tensor(value, Some(auto_typed(value)?.dtype));
        };
        let strong = Value::Tensor { dtype, weak: false };
        match self.auto_result_type(&[value, strong]) {
            Ok(_)
            | Err(PromotionError::Framework {
                kind: ErrorKind::NotImplemented,
                ..
            }) => convert::to_tensor(value, Some(dtype)),
            Err(err) => Err(err),
        }
    }

    /// The recorded failure of [`Rule::first_negative_uint64`] for `op`'s
    /// function, converting `value` at `position` to `dtype`.
    pub(super) fn first_uint64_failure(
        &self,
        op: Op,
        position: usize,
        value: Value,
        dtype: DType,
    ) -> Result<(), PromotionError> {
        self.uint64_failure(&RULES[op], position, value, dtype)
    }

    /// The recorded failure of [`Rule::first_negative_uint64`].
    fn uint64_failure(
        &self,
        rule: &Rule,
        position: usize,
        value: Value,
        dtype: DType,
    ) -> Result<(), PromotionError> {
        match value {
            Value::Int(n)
                if rule.first_negative_uint64
                    && position == 1
                    && n < 0
                    && dtype == DType::UInt64 =>
            {
                Err(negative_to_uint64())
            }
            _ => Ok(()),
        }
    }
}

/// How `tf.<function>` computes `op`'s result type under `mode`, in
/// words: its conversions, NumPy behaviour's wrapper where there is one,
/// the kernel and the result, as [`RULES`] holds them.
pub(super) fn describe(mode: Mode, op: Op) -> String {
    let rule = &RULES[op];
    let converts = match rule.call {
        Call::Generated => {
            "each Python scalar is converted to the dtype of the first tensor (of the first \
             scalar where there is none)"
        }
        Call::Hinted => {
            "x is converted to a tensor, then y with x's dtype as a hint (a scalar that does \
             not convert keeps its own)"
        }
        Call::TrueDiv => {
            "x and y are converted as tf.add converts them, must then have one dtype, and an \
             integer one is cast to the float _TRUEDIV_TABLE gives it"
        }
        Call::Converted(_) => {
            "x is converted to a tensor; a complex one goes to ComplexAbs or DivNoNan, which \
             take both complex dtypes"
        }
    };
    let wrapped = match (mode, rule.numpy) {
        (mode, _) if !mode.converts() => String::new(),
        (_, Numpy::Unwrapped) => String::new(),
        (_, Numpy::Promotes { weak }) => format!(
            "; under NumPy behaviour the operands first promote by flexible_dtypes.result_type \
             and are cast to the result{}",
            if weak { "" } else { ", which is never weak" }
        ),
        (_, Numpy::Unary) => "; under NumPy behaviour a Python scalar or WeakTensor is \
                              converted to its own type, and the result is weak where that \
                              type is"
            .to_owned(),
    };
    let kernel = rule.kernel;
    let takes = match kernel.inputs {
        kernels::Inputs::Attr(Some(dtypes)) => {
            let names: Vec<&str> = dtypes.iter().map(|d| d.name()).collect();
            format!("takes one dtype T among {}", names.join(", "))
        }
        kernels::Inputs::Attr(None) => "takes one dtype T, any".to_owned(),
        kernels::Inputs::Fixed(dtype) => format!("takes {dtype} only"),
    };
    let result = match (kernel.output, rule.call) {
        (kernels::Output::Bool, _) => "the result is bool",
        (_, Call::Converted(OfComplex::RealPart)) => "the result is T, a complex one's part type",
        _ => "the result is T",
    };
    format!(
        "{} ({converts}){wrapped}; then the {} kernel, which {takes} (InvalidArgumentError or \
         NotFoundError for the rest); {result}",
        rule.function, kernel.name
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Policy;

    fn message(mode: Mode, op: Op, operands: &[Operand]) -> String {
        let answer = TensorFlow::new(mode).operation(op, operands).unwrap();
        answer.unwrap_err().to_string()
    }

    // Beyond the golden data, each checked against TensorFlow 2.21.

    #[test]
    fn a_weak_tensor_takes_the_python_fallback() {
        let weak = Operand::array(DType::Int32, true);
        let uint4 = Operand::dtype(DType::UInt4);
        assert_eq!(
            message(Mode::Safe, Op::Subtract, &[weak, uint4]),
            "cannot compute Sub as input #1(zero-based) was expected to be a int32 tensor but is \
             a uint4 tensor [Op:Sub]"
        );
        assert_eq!(
            message(Mode::All, Op::LogicalAnd, &[weak, Operand::py_bool(true)]),
            "Tensor conversion requested dtype bool for Tensor with dtype int32: <tf.Tensor: \
             shape=(2,), dtype=int32, numpy=array([1, 1], dtype=int32)>"
        );
        let all = TensorFlow::new(Mode::All);
        let abs = all.operation(Op::Abs, &[Operand::array(DType::Complex128, true)]);
        assert_eq!(abs, Some(Ok(Typed::weak(DType::Float64))));
    }

    #[test]
    fn kernels_check_the_values_python_scalars_hold() {
        let (int8, int32) = (Operand::dtype(DType::Int8), Operand::dtype(DType::Int32));
        assert_eq!(
            message(
                Mode::Off,
                Op::FloorDivide,
                &[int32, Operand::py_bool(false)]
            ),
            "{{function_node __wrapped__FloorDiv_device_/job:localhost/replica:0/task:0/\
             device:CPU:0}} Integer division by zero [Op:FloorDiv] name: "
        );
        // 2**40 wraps to 0 as an int8, and 255 to -1.
        let big = Operand::py_int(1 << 40);
        assert!(message(Mode::Off, Op::Remainder, &[int8, big]).contains("division by zero"));
        let off = TensorFlow::new(Mode::Off);
        assert_eq!(
            off.operation(Op::Less, &[int8, big]),
            Some(Ok(Typed::strong(DType::Bool)))
        );
        let minus_one = Operand::py_int(255);
        assert!(message(Mode::Off, Op::Power, &[int8, minus_one]).contains("negative integer"));
    }

    #[test]
    fn numpy_behaviour_converts_a_lone_scalar_by_its_weak_type() {
        let big = Operand::py_int(1 << 40);
        let complex = Operand::py_complex(1.0, 2.0);
        assert_eq!(
            message(Mode::Safe, Op::Less, &[big, complex]),
            "Python int 1099511627776 too large to convert to np.int32"
        );
        assert_eq!(
            message(Mode::Off, Op::Less, &[big, complex]),
            "Cannot convert (1+2j) to EagerTensor of dtype int64"
        );
    }
}
