//! `keras.ops.<op>` called eagerly: what each backend's function does to
//! its operands, then the framework's own function on them.
//!
//! Keras's backend functions (`keras/src/backend/<backend>/numpy.py`) are
//! short Python: convert the operands to arrays (`convert_to_tensor`),
//! perhaps compute a dtype with `dtypes.result_type`, convert or cast to
//! it, then call `jnp.<op>`, `np.<op>` or `tf.<op>`. [`RULES`] writes each
//! function as those [`Step`]s, one list per backend; [`run`] takes the
//! steps on the values a [`Model`] of the backend defines (what its
//! conversions and casts make, and what its framework's function answers,
//! by the library's model of that framework). So the table says how Keras
//! promotes, and the framework modules say what the framework then does:
//! `keras.ops.less(int8, uint8)` on TensorFlow casts both to Keras's
//! `int16` and runs TensorFlow's `Less` kernel; on NumPy it is `np.less`
//! on the arrays as they are.

use super::promotion::{invalid_dtype, keras_dtype};
use super::Keras;
use crate::frameworks::common::OpTable;

use crate::prelude::*;
use crate::types::{Arguments, DType, ErrorKind, Op, Operand, OperandKind, PromotionError};
use crate::types::{PyScalar, TypeSpec};

/// A value a backend function passes along.
#[derive(Clone, Copy, Debug)]
pub(super) enum Value {
    /// A Python scalar (or `None`), as the call received it.
    Python(Operand),
    /// An array of the backend.
    Array {
        dtype: DType,
        /// Whether it is weakly typed: JAX's array of a Python scalar.
        weak: bool,
        /// The Python scalar it was made of, whose value a kernel may check
        /// (a negative exponent, a zero divisor); `None` for an array of
        /// ones.
        from: Option<Operand>,
    },
}

impl Value {
    /// An array of ones.
    pub(super) const fn ones(dtype: DType) -> Value {
        Value::Array {
            dtype,
            weak: false,
            from: None,
        }
    }

    /// An array of `dtype` that holds what `self` held.
    pub(super) fn as_array(self, dtype: DType, weak: bool) -> Value {
        let from = match self {
            Value::Python(scalar) => Some(scalar),
            Value::Array { from, .. } => from,
        };
        Value::Array { dtype, weak, from }
    }

    /// The array's dtype; `None` for a Python scalar.
    pub(super) fn dtype(self) -> Option<DType> {
        match self {
            Value::Array { dtype, .. } => Some(dtype),
            Value::Python(_) => None,
        }
    }

    /// `getattr(x, "dtype", type(x))`, what the functions hand
    /// `result_type`.
    pub(super) fn given(self) -> Result<TypeSpec, PromotionError> {
        Ok(match self {
            Value::Array { dtype, .. } => TypeSpec::DType(dtype),
            Value::Python(scalar) => TypeSpec::Python(match scalar.kind() {
                OperandKind::PyBool(_) => PyScalar::Bool,
                OperandKind::PyInt(_) => PyScalar::Int,
                OperandKind::PyFloat(_) => PyScalar::Float,
                OperandKind::PyComplex { .. } => PyScalar::Complex,
                _ => return Err(invalid_dtype("NoneType")),
            }),
        })
    }

    /// `isinstance(x, (int, float))`, which holds for a `bool` too.
    fn is_python_number(self) -> bool {
        matches!(
            self,
            Value::Python(scalar) if matches!(
                scalar.kind(),
                OperandKind::PyBool(_) | OperandKind::PyInt(_) | OperandKind::PyFloat(_)
            )
        )
    }
}

/// What one backend's functions do with values: its `convert_to_tensor`,
/// its `cast`, and its framework's functions.
pub(super) trait Model {
    /// Keras's settings.
    fn keras(&self) -> Keras;

    /// `keras.ops.ones((2,), dtype)`, how the golden data makes an array.
    fn ones(&self, dtype: DType) -> Result<Value, PromotionError>;

    /// `convert_to_tensor(x, dtype)`.
    fn convert(&self, value: Value, dtype: Option<DType>) -> Result<Value, PromotionError>;

    /// `cast(x, dtype)` (`x.astype(dtype)`, `tf.cast(x, dtype)`).
    fn cast(&self, value: Value, dtype: DType) -> Result<Value, PromotionError> {
        self.convert(value, Some(dtype))
    }

    /// The dtype of the framework's function for `op` on `values`.
    fn call(&self, op: Op, values: &[Value]) -> Result<DType, PromotionError>;

    /// The framework's function for `op`, in words (`tf.math.floormod`),
    /// and whose model answers it.
    fn function(&self, op: Op) -> String;
}

/// The dtype a function computes before it converts or casts to it.
#[derive(Clone, Copy)]
pub(super) enum Target {
    /// `dtypes.result_type` of each operand's `dtype` (a Python scalar's
    /// type), with Python's `float` where `float` (`divide`), and `bool`
    /// made `int32` where `bool_to_int32` (`mod`).
    Promoted { float: bool, bool_to_int32: bool },
    /// This dtype (`tf.cast(x, "bool")`).
    Fixed(DType),
    /// floatx for an `int64` operand, else `result_type(x.dtype, float)`
    /// (`sqrt`, `floor`).
    Inexact,
    /// floatx for an `int64` operand, nothing else (JAX's `sqrt`).
    FloatxForInt64,
    /// floatx for an integer or `bool` operand (`exp`).
    FloatxForIntegral,
}

/// One step of a backend function.
#[derive(Clone, Copy)]
pub(super) enum Step {
    /// `convert_to_tensor(x)` of each operand in `keras.ops`, before the
    /// backend's function (`sqrt`'s).
    ConvertInOps,
    /// `convert_to_tensor(x)` of each operand.
    Convert,
    /// `convert_to_tensor(x)` of each operand that is no Python `int` or
    /// `float` (those keep their Python type for `result_type`).
    ConvertNonNumbers,
    /// The target dtype.
    Target(Target),
    /// `convert_to_tensor(x, target)` of each operand.
    ConvertTo,
    /// `cast(x, target)` of each operand.
    CastTo,
    /// Where the target (or else the first operand's dtype) is one of
    /// these, the operands converted to `int32`, the framework's function
    /// run on them, and its result cast back to that dtype (TensorFlow's
    /// kernels lack them).
    ViaInt32(&'static [DType]),
    /// Where the operand's dtype is one of these, the operand is the
    /// result (`abs` of an unsigned integer).
    Itself(&'static [DType]),
}

/// One operation: Keras's function and its steps on each backend.
pub(super) struct Rule {
    /// `keras.ops.<name>`.
    name: &'static str,
    /// The function Keras's JAX and NumPy backends call (`jnp.<function>`,
    /// `np.<function>`).
    pub(super) function: &'static str,
    /// The steps on each backend, in [`Backend::ALL`](super::Backend::ALL)'s
    /// order.
    steps: [&'static [Step]; 3],
}

use DType::{Bool, Int32, UInt16, UInt32, UInt64, UInt8};
use Step::{CastTo, Convert, ConvertInOps, ConvertNonNumbers, ConvertTo, Itself, ViaInt32};

const fn promoted(float: bool, bool_to_int32: bool) -> Step {
    Step::Target(Target::Promoted {
        float,
        bool_to_int32,
    })
}

/// The framework's function on the operands as they came.
const AS_IS: &[Step] = &[];
/// Each operand converted, then the function (JAX's every function).
const CONVERTED: &[Step] = &[Convert];
/// Python numbers promoted by their type, arrays by their dtype, each
/// converted to the result (`add` on TensorFlow and NumPy).
const BY_PYTHON_TYPES: &[Step] = &[ConvertNonNumbers, promoted(false, false), ConvertTo];
/// The same with Python's `float` among the types (`divide`).
const INEXACT_BY_PYTHON_TYPES: &[Step] = &[ConvertNonNumbers, promoted(true, false), ConvertTo];
/// Each converted first, promoted by dtype, each cast (`equal` on
/// TensorFlow, the bitwise functions).
const BY_DTYPES: &[Step] = &[Convert, promoted(false, false), CastTo];
/// [`BY_DTYPES`] with `bool` computed in `int32` (`mod`).
const MOD: &[Step] = &[Convert, promoted(false, true), CastTo];
/// TensorFlow's `power`: its `Pow` kernel has no unsigned integers.
const TF_POWER: &[Step] = &[
    ConvertNonNumbers,
    promoted(false, false),
    ViaInt32(&[UInt8, UInt16, UInt32, UInt64]),
    ConvertTo,
];
/// TensorFlow's `logical_and`: each operand cast to `bool`.
const TF_LOGICAL_AND: &[Step] = &[Step::Target(Target::Fixed(Bool)), CastTo];
/// TensorFlow's `absolute`: unsigned integers and `bool` are their own.
const TF_ABS: &[Step] = &[Convert, Itself(&[Bool, UInt8, UInt16, UInt32, UInt64])];
/// TensorFlow's `sign`: its `Sign` kernel lacks the unsigned integers, of
/// which Keras detours all but `uint64`.
const TF_SIGN: &[Step] = &[Convert, ViaInt32(&[UInt8, UInt16, UInt32])];
/// `sqrt`: `keras.ops.sqrt` converts before the backend converts again.
const SQRT: &[Step] = &[ConvertInOps, Convert, Step::Target(Target::Inexact), CastTo];
const JAX_SQRT: &[Step] = &[
    ConvertInOps,
    Convert,
    Step::Target(Target::FloatxForInt64),
    CastTo,
];
const EXP: &[Step] = &[Convert, Step::Target(Target::FloatxForIntegral), CastTo];
const FLOOR: &[Step] = &[Convert, Step::Target(Target::Inexact), CastTo];

const fn rule(
    name: &'static str,
    function: &'static str,
    tensorflow: &'static [Step],
    jax: &'static [Step],
    numpy: &'static [Step],
) -> Rule {
    Rule {
        name,
        function,
        steps: [tensorflow, jax, numpy],
    }
}

/// The arithmetic functions that promote by Python types on TensorFlow
/// and NumPy.
const fn arithmetic(name: &'static str) -> Rule {
    rule(name, name, BY_PYTHON_TYPES, CONVERTED, BY_PYTHON_TYPES)
}

/// The comparisons: promoted by dtype on TensorFlow, as they are on NumPy.
const fn comparison(name: &'static str) -> Rule {
    rule(name, name, BY_DTYPES, CONVERTED, AS_IS)
}

const fn bitwise(name: &'static str) -> Rule {
    rule(name, name, BY_DTYPES, CONVERTED, BY_DTYPES)
}

/// Each operation's rule, in [`Op`]'s order.
const RULES: OpTable<Rule> = OpTable::new([
    (Op::Add, arithmetic("add")),
    (Op::Subtract, arithmetic("subtract")),
    (Op::Multiply, arithmetic("multiply")),
    (
        Op::TrueDivide,
        rule(
            "true_divide",
            "divide",
            INEXACT_BY_PYTHON_TYPES,
            CONVERTED,
            INEXACT_BY_PYTHON_TYPES,
        ),
    ),
    (Op::FloorDivide, arithmetic("floor_divide")),
    (Op::Remainder, rule("mod", "mod", MOD, CONVERTED, MOD)),
    (
        Op::Power,
        rule("power", "power", TF_POWER, CONVERTED, BY_PYTHON_TYPES),
    ),
    (Op::Maximum, arithmetic("maximum")),
    (Op::Equal, comparison("equal")),
    (Op::NotEqual, comparison("not_equal")),
    (Op::Less, comparison("less")),
    (Op::LessEqual, comparison("less_equal")),
    (Op::Greater, comparison("greater")),
    (Op::GreaterEqual, comparison("greater_equal")),
    (Op::BitwiseAnd, bitwise("bitwise_and")),
    (Op::BitwiseOr, bitwise("bitwise_or")),
    (Op::BitwiseXor, bitwise("bitwise_xor")),
    (
        Op::LogicalAnd,
        rule(
            "logical_and",
            "logical_and",
            TF_LOGICAL_AND,
            CONVERTED,
            AS_IS,
        ),
    ),
    (
        Op::Negative,
        rule("negative", "negative", AS_IS, CONVERTED, AS_IS),
    ),
    (
        Op::Abs,
        rule("absolute", "absolute", TF_ABS, CONVERTED, AS_IS),
    ),
    (Op::Sign, rule("sign", "sign", TF_SIGN, CONVERTED, AS_IS)),
    (Op::Sqrt, rule("sqrt", "sqrt", SQRT, JAX_SQRT, SQRT)),
    (Op::Exp, rule("exp", "exp", EXP, EXP, EXP)),
    (Op::Floor, rule("floor", "floor", FLOOR, FLOOR, FLOOR)),
]);

/// The rule of `op`.
pub(super) fn rule_of(op: Op) -> &'static Rule {
    &RULES[op]
}

/// `keras.ops.<op>(*operands)` on `model`'s backend.
pub(super) fn run(
    model: &impl Model,
    op: Op,
    operands: &[Operand],
) -> Result<DType, PromotionError> {
    let rule = rule_of(op);
    let Some(arguments) = Arguments::new(op, operands, Operand::as_argument) else {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "{}() takes {} positional argument{} but {} were given",
                rule.name,
                op.arity(),
                if op.arity() == 1 { "" } else { "s" },
                operands.len()
            ),
        ));
    };
    let mut slots = [Value::Python(Operand::NONE); 2];
    let values = &mut slots[..op.arity()];
    for (value, &operand) in values.iter_mut().zip(arguments.get()) {
        *value = make(model, operand)?;
    }
    let keras = model.keras();
    let mut target = None;
    for &step in rule.steps[keras.backend as usize] {
        let each = |values: &mut [Value], dtype: Option<DType>, cast: bool| {
            for value in values.iter_mut() {
                *value = match dtype {
                    Some(dtype) if cast => model.cast(*value, dtype)?,
                    _ => model.convert(*value, dtype)?,
                };
            }
            Ok::<(), PromotionError>(())
        };
        match step {
            Step::ConvertInOps | Step::Convert => each(values, None, false)?,
            Step::ConvertNonNumbers => {
                for value in values.iter_mut().filter(|v| !v.is_python_number()) {
                    *value = model.convert(*value, None)?;
                }
            }
            Step::Target(kind) => target = keras.target(kind, values)?,
            Step::ConvertTo if target.is_some() => each(values, target, false)?,
            Step::CastTo if target.is_some() => each(values, target, true)?,
            Step::ConvertTo | Step::CastTo => {}
            Step::ViaInt32(dtypes) => {
                let Some(dtype) = target.or(values[0].dtype()) else {
                    continue;
                };
                if dtypes.contains(&dtype) {
                    each(values, Some(Int32), false)?;
                    model.call(op, values)?;
                    return Ok(dtype);
                }
            }
            Step::Itself(dtypes) => {
                if let Some(dtype) = values[0].dtype().filter(|d| dtypes.contains(d)) {
                    return Ok(dtype);
                }
            }
        }
    }
    model.call(op, values)
}

/// An operand as the call receives it: an array of the backend made of
/// Keras's dtype, or the Python value.
fn make(model: &impl Model, operand: Operand) -> Result<Value, PromotionError> {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, weak: false } => model.ones(keras_dtype(dtype)?),
        OperandKind::Array { dtype, weak: true } => {
            Err(crate::frameworks::numpy::weak_array(dtype))
        }
        _ => Ok(Value::Python(operand)),
    }
}

impl Keras {
    /// The dtype a [`Target`] names for `values`, if any.
    fn target(self, kind: Target, values: &[Value]) -> Result<Option<DType>, PromotionError> {
        let floatx = self.floatx.dtype();
        let own = || values[0].given();
        Ok(match kind {
            Target::Promoted {
                float,
                bool_to_int32,
            } => {
                let mut given = values
                    .iter()
                    .map(|v| v.given())
                    .collect::<Result<Vec<_>, _>>()?;
                if float {
                    given.push(TypeSpec::Python(PyScalar::Float));
                }
                match self.result_of(&given)? {
                    DType::Bool if bool_to_int32 => Some(Int32),
                    dtype => Some(dtype),
                }
            }
            Target::Fixed(dtype) => Some(dtype),
            Target::Inexact => match own()? {
                TypeSpec::DType(DType::Int64) => Some(floatx),
                given => Some(self.result_of(&[given, TypeSpec::Python(PyScalar::Float)])?),
            },
            Target::FloatxForInt64 => (own()? == TypeSpec::DType(DType::Int64)).then_some(floatx),
            Target::FloatxForIntegral => match own()? {
                TypeSpec::DType(dtype) if dtype == Bool || dtype.is_integer() => Some(floatx),
                _ => None,
            },
        })
    }
}

/// `op` on the backend, in words: Keras's steps (as its Python writes
/// them, `x` each operand), then the framework's function.
pub(super) fn describe(model: &impl Model, op: Op) -> String {
    let keras = model.keras();
    let rule = rule_of(op);
    let steps = rule.steps[keras.backend as usize];
    let mut words: Vec<String> = steps.iter().map(|&step| step_words(step)).collect();
    let on = if steps.is_empty() {
        " on the operands as they are"
    } else {
        ""
    };
    words.push(format!("then {}{on}", model.function(op)));
    format!(
        "keras.ops.{} on the {} backend (Keras 3.15.1, floatx {}): {}",
        rule.name,
        keras.backend,
        keras.floatx.dtype(),
        words.join("; ")
    )
}

fn step_words(step: Step) -> String {
    let list = |dtypes: &[DType]| {
        let names: Vec<&str> = dtypes.iter().map(|d| d.name()).collect();
        names.join(", ")
    };
    match step {
        Step::ConvertInOps => "x = convert_to_tensor(x) in keras.ops".to_owned(),
        Step::Convert => "x = convert_to_tensor(x)".to_owned(),
        Step::ConvertNonNumbers => {
            "x = convert_to_tensor(x) unless x is a Python int, float or bool".to_owned()
        }
        Step::Target(Target::Promoted {
            float,
            bool_to_int32,
        }) => format!(
            "dtype = result_type(x.dtype or type(x) of each{}){}",
            if float { ", float" } else { "" },
            if bool_to_int32 {
                ", int32 for bool"
            } else {
                ""
            }
        ),
        Step::Target(Target::Fixed(dtype)) => format!("dtype = {dtype}"),
        Step::Target(Target::Inexact) => {
            "dtype = floatx if x is int64, else result_type(x.dtype, float)".to_owned()
        }
        Step::Target(Target::FloatxForInt64) => "dtype = floatx if x is int64".to_owned(),
        Step::Target(Target::FloatxForIntegral) => {
            "dtype = floatx if x is an integer or bool".to_owned()
        }
        Step::ConvertTo => "x = convert_to_tensor(x, dtype)".to_owned(),
        Step::CastTo => "x = cast(x, dtype)".to_owned(),
        Step::ViaInt32(dtypes) => format!(
            "for {}: the function computed in int32 and cast back",
            list(dtypes)
        ),
        Step::Itself(dtypes) => format!("for {}: x itself", list(dtypes)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Backend, Floatx};
    use super::*;
    use crate::{Policy, Typed};

    fn answer(backend: Backend, op: Op, operands: &[Operand]) -> String {
        match Keras::new(backend, Floatx::Float32).operation(op, operands) {
            Some(Ok(typed)) => typed.to_string(),
            Some(Err(err)) => format!("{}: {err}", err.python_type()),
            None => "not modelled".to_owned(),
        }
    }

    // Beyond the golden data, each checked against Keras 3.15.1.

    #[test]
    fn tensorflow_kernels_check_the_scalars_keras_converted() {
        let (i32, i8) = (Operand::dtype(DType::Int32), Operand::dtype(DType::Int8));
        let zero_division = |op: &str| {
            format!(
                "InvalidArgumentError: {{{{function_node __wrapped__{op}_device_/job:localhost/\
                 replica:0/task:0/device:CPU:0}}}} Integer division by zero [Op:{op}] name: "
            )
        };
        let floor_divide = [i32, Operand::py_bool(false)];
        assert_eq!(
            answer(Backend::TensorFlow, Op::FloorDivide, &floor_divide),
            zero_division("FloorDiv")
        );
        let remainder = [i8, Operand::py_int(0)];
        assert_eq!(
            answer(Backend::TensorFlow, Op::Remainder, &remainder),
            zero_division("FloorMod")
        );
        // NumPy and JAX divide by zero without an error; NumPy's `mod`
        // converts the 0 to Keras's int32 first.
        assert_eq!(answer(Backend::Numpy, Op::Remainder, &remainder), "int32");
        assert_eq!(answer(Backend::Jax, Op::Remainder, &remainder), "int8");
        // 2**40 is 0 as an int8: no negative power.
        let big = [i8, Operand::py_int(1 << 40)];
        assert_eq!(answer(Backend::TensorFlow, Op::Power, &big), "int8");
        assert_eq!(
            answer(Backend::Jax, Op::Power, &big),
            "OverflowError: Python int 1099511627776 too large to convert to int32"
        );
    }

    #[test]
    fn a_wrong_number_of_operands_is_pythons_type_error() {
        let two = [Operand::py_int(1), Operand::py_int(2)];
        assert_eq!(
            answer(Backend::Jax, Op::Sqrt, &two),
            "TypeError: sqrt() takes 1 positional argument but 2 were given"
        );
        let three = [Operand::py_int(1); 3];
        assert_eq!(
            answer(Backend::Numpy, Op::Add, &three),
            "TypeError: add() takes 2 positional arguments but 3 were given"
        );
    }

    #[test]
    fn keras_has_no_weak_arrays_and_its_answers_are_strong() {
        let weak = Operand::array(DType::Int32, true);
        assert!(answer(Backend::Jax, Op::Negative, &[weak]).starts_with("ValueError: weak:int32"));
        let jax = Keras::new(Backend::Jax, Floatx::Float32);
        let answer = jax.operation(Op::Add, &[Operand::py_int(2), Operand::py_float(2.5)]);
        assert_eq!(answer, Some(Ok(Typed::strong(DType::Float32))));
    }

    #[test]
    fn every_operation_is_described_on_every_backend() {
        for backend in Backend::ALL {
            let keras = Keras::new(backend, Floatx::Float16);
            for op in Op::ALL {
                let words = keras.describe_operation(op).unwrap();
                assert!(words.contains(backend.name()), "{words}");
                assert!(words.contains("floatx float16"), "{words}");
            }
        }
    }
}
