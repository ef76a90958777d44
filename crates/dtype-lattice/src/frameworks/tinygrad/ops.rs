//! tinygrad's operations: each [`Op`] as Python writes it on a `Tensor`
//! (its operator, or its method where it has none), and what tinygrad's
//! `ElementwiseMixin` does with the dtypes.
//!
//! A binary operation first runs `_broadcasted`: a Python scalar beside a
//! tensor becomes a constant of `dtypes.from_py` (a complex number is a
//! `RuntimeError`), and the two promote to `least_upper_dtype`, which a
//! weak constant keeps as its weak type (the promotion of
//! [`result_type`](super::Tinygrad::result_type)). The operation's own code
//! then decides the result from that dtype ([`Output`]): `/` casts an
//! integer or `bool` dividend to `DEFAULT_FLOAT`, `//` and `%` divide
//! integers as integers and everything else as `/` does, comparisons are
//! `bool`, `sqrt` and `exp` are `least_upper_float`. tinygrad checks no
//! kind when it builds the graph, so `float32 & float32` is `float32`; only
//! `**` refuses, where neither dtype is a float and the Python exponent or
//! base is a negative int.
//!
//! ```
//! use dtype_lattice::frameworks::tinygrad::Tinygrad;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let tinygrad = Tinygrad::default();
//! let call = |op, operands: &[Operand]| tinygrad.operation(op, operands).unwrap();
//! let int8 = Operand::array(DType::Int8, false);
//! assert_eq!(call(Op::TrueDivide, &[int8, int8]), Ok(Typed::strong(DType::Float32)));
//! let f32 = Operand::array(DType::Float32, false);
//! assert_eq!(call(Op::BitwiseAnd, &[f32, f32]), Ok(Typed::strong(DType::Float32)));
//! let err = call(Op::Power, &[int8, Operand::py_int(-1)]).unwrap_err();
//! assert_eq!(err.to_string(), "base needs to be float");
//! // A Python scalar has no tinygrad methods.
//! let err = call(Op::Maximum, &[Operand::py_int(2), int8]).unwrap_err();
//! assert_eq!(err.to_string(), "'int' object has no attribute 'maximum'");
//! ```

use super::{
    from_py, least_upper, node_of_label, python_class, Tinygrad, Value, WEAK_FLOAT, WEAK_INT,
};
use crate::frameworks::common::OpTable;
use crate::frameworks::python::{self, Number};
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Op, Operand, OperandKind, PromotionError, Typed};

/// How Python writes the operation.
#[derive(Clone, Copy)]
enum Call {
    /// A binary operator (`a + b`, `operator.add`): the tensor's method,
    /// or its reflected one (`__radd__`) where the tensor is on the right;
    /// Python computes two Python scalars itself.
    Operator {
        /// Python's symbol.
        symbol: &'static str,
        /// The `operator` module's function, which names itself in its
        /// errors.
        function: &'static str,
    },
    /// Unary minus, `-x`: Python negates a Python scalar itself.
    Negative,
    /// A method of the first operand (`a.maximum(b)`, `x.sqrt()`), which a
    /// Python scalar lacks.
    Method(&'static str),
    /// A method tinygrad does not have (`x.logical_and(y)`): Python's
    /// `AttributeError` on the first operand, whatever it is.
    Missing(&'static str),
}

/// The result's dtype, from the promoted one (a unary operation's:
/// its operand's).
#[derive(Clone, Copy)]
enum Output {
    /// The promoted dtype.
    Promoted,
    /// `bool` (`CMPLT`, `CMPNE` and their `logical_not`).
    Bool,
    /// `div`: an integer or `bool` dividend (a `weakint` one too) is cast
    /// to `DEFAULT_FLOAT` before it divides, so the result is that, strong.
    Divided,
    /// `div(rounding_mode="floor")` and `mod`: two integers divide as
    /// integers (`FLOORDIV`, `FLOORMOD`), anything else as `div`, which
    /// makes `bool` the default float.
    FloorDivided,
    /// `least_upper_float`: `weakint` is `weakfloat`, a float itself,
    /// anything else joined with `DEFAULT_FLOAT` (`sqrt`, `exp`).
    Float,
    /// `least_upper_dtype(x, weakint)`, from the `- 1` of `floor`'s
    /// `where(x < trunc(x), trunc(x) - 1, trunc(x))`: `bool` becomes
    /// `weakint`, everything else stays.
    JoinedWithWeakInt,
    /// `neg`: `logical_not` of a `bool`, else `x * (-1)`, which keeps the
    /// dtype.
    Negated,
}

/// One operation: how it is called, what it answers, and whether it
/// checks a Python exponent or base (only `pow` does).
struct Rule {
    call: Call,
    output: Output,
    /// `pow`'s "base needs to be float".
    needs_float_base: bool,
}

const fn operator(symbol: &'static str, function: &'static str, output: Output) -> Rule {
    Rule {
        call: Call::Operator { symbol, function },
        output,
        needs_float_base: false,
    }
}

const fn method(name: &'static str, output: Output) -> Rule {
    Rule {
        call: Call::Method(name),
        output,
        needs_float_base: false,
    }
}

/// Each operation's rule, in [`Op`]'s order (tinygrad 0.14 has no
/// `logical_and`: `&` is `bitwise_and`).
const RULES: OpTable<Rule> = OpTable::new([
    (Op::Add, operator("+", "add", Output::Promoted)),
    (Op::Subtract, operator("-", "sub", Output::Promoted)),
    (Op::Multiply, operator("*", "mul", Output::Promoted)),
    (Op::TrueDivide, operator("/", "truediv", Output::Divided)),
    (
        Op::FloorDivide,
        operator("//", "floordiv", Output::FloorDivided),
    ),
    (Op::Remainder, operator("%", "mod", Output::FloorDivided)),
    (
        Op::Power,
        Rule {
            call: Call::Operator {
                symbol: "**",
                function: "pow",
            },
            output: Output::Promoted,
            needs_float_base: true,
        },
    ),
    (Op::Maximum, method("maximum", Output::Promoted)),
    (Op::Equal, operator("==", "eq", Output::Bool)),
    (Op::NotEqual, operator("!=", "ne", Output::Bool)),
    (Op::Less, operator("<", "lt", Output::Bool)),
    (Op::LessEqual, operator("<=", "le", Output::Bool)),
    (Op::Greater, operator(">", "gt", Output::Bool)),
    (Op::GreaterEqual, operator(">=", "ge", Output::Bool)),
    (Op::BitwiseAnd, operator("&", "and_", Output::Promoted)),
    (Op::BitwiseOr, operator("|", "or_", Output::Promoted)),
    (Op::BitwiseXor, operator("^", "xor", Output::Promoted)),
    (
        Op::LogicalAnd,
        Rule {
            call: Call::Missing("logical_and"),
            output: Output::Bool,
            needs_float_base: false,
        },
    ),
    (
        Op::Negative,
        Rule {
            call: Call::Negative,
            output: Output::Negated,
            needs_float_base: false,
        },
    ),
    (Op::Abs, method("abs", Output::Promoted)),
    (Op::Sign, method("sign", Output::Promoted)),
    (Op::Sqrt, method("sqrt", Output::Float)),
    (Op::Exp, method("exp", Output::Float)),
    (Op::Floor, method("floor", Output::JoinedWithWeakInt)),
]);

/// `op` on `operands` as tinygrad computes it, in the batch default form
/// (the operator, or the method where Python has none).
pub(super) fn operation(
    tinygrad: Tinygrad,
    op: Op,
    operands: &[Operand],
) -> Result<Typed, PromotionError> {
    let rule = &RULES[op];
    let values = values(tinygrad, operands)?;
    if let (Call::Missing(name), Some(first)) = (rule.call, values.first()) {
        return Err(no_attribute(class(first), name));
    }
    if values.len() != op.arity() {
        return Err(arity(rule.call, op.arity(), values.len()));
    }
    call(tinygrad, op, rule, &values)
}

/// tinygrad's own function of an operation Python has an operator for:
/// the method of the first operand (`a.add(b)`, `a.div(b,
/// rounding_mode="floor")`, `x.neg()`), as the operator computes it where
/// a tensor is first; tinygrad has no method for the orderings (`a.less(b)`
/// is an `AttributeError`), and a Python scalar has none at all. `None`
/// for `a.add(b, c)`, whose `c` tinygrad reads as its `reverse` flag,
/// which is not modelled.
pub(super) fn function(
    tinygrad: Tinygrad,
    op: Op,
    operands: &[Operand],
) -> Option<Result<Typed, PromotionError>> {
    let rule = &RULES[op];
    let values = match values(tinygrad, operands) {
        Ok(values) => values,
        Err(err) => return Some(Err(err)),
    };
    let method = method_of(op);
    let name = method.map_or(op.name(), |m| m.name);
    let refused = |err| Some(Err(err));
    match values.first() {
        Some(Value::Python(x)) => return refused(no_attribute(python_class(x), name)),
        Some(_) if method.is_none() => return refused(no_attribute("Tensor", name)),
        _ => {}
    }
    let most = method.map_or(op.arity(), |m| m.most);
    let given = values.len();
    if given < op.arity() || given > most {
        return refused(method_arity(name, op.arity(), most, given));
    }
    if given > op.arity() {
        return None;
    }
    Some(call(tinygrad, op, rule, &values))
}

/// A tinygrad method: its name, and the most positional arguments it
/// takes, the tensor included.
#[derive(Clone, Copy)]
struct Method {
    name: &'static str,
    most: usize,
}

/// The method that is tinygrad's function of an operation with an
/// operator; `None` where tinygrad has none (the orderings).
fn method_of(op: Op) -> Option<Method> {
    let (name, most) = match op {
        Op::Add => ("add", 3),
        Op::Subtract => ("sub", 3),
        Op::Multiply => ("mul", 3),
        Op::TrueDivide => ("div", 4),
        // `div(b, rounding_mode="floor")`, what `//` calls; a third
        // positional would be `reverse`, a fourth clash with the keyword.
        Op::FloorDivide => ("div", 3),
        Op::Remainder => ("mod", 3),
        Op::Power => ("pow", 3),
        Op::Equal => ("eq", 2),
        Op::NotEqual => ("ne", 2),
        Op::BitwiseAnd => ("bitwise_and", 3),
        Op::BitwiseOr => ("bitwise_or", 3),
        Op::BitwiseXor => ("bitwise_xor", 3),
        Op::Negative => ("neg", 1),
        Op::Maximum => ("maximum", 2),
        Op::Abs => ("abs", 1),
        Op::Sign => ("sign", 1),
        Op::Sqrt => ("sqrt", 1),
        Op::Exp => ("exp", 1),
        Op::Floor => ("floor", 1),
        Op::Less | Op::LessEqual | Op::Greater | Op::GreaterEqual | Op::LogicalAnd => return None,
    };
    Some(Method { name, most })
}

/// Python's `TypeError` for a method called with `given` positional
/// arguments, the tensor included.
fn method_arity(name: &str, arity: usize, most: usize, given: usize) -> PromotionError {
    let message = if given < arity {
        format!("ElementwiseMixin.{name}() missing 1 required positional argument: 'x'")
    } else if most == arity {
        format!(
            "ElementwiseMixin.{name}() takes {arity} positional argument{} but {given} were given",
            if arity == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "ElementwiseMixin.{name}() takes from {arity} to {most} positional arguments but \
             {given} were given"
        )
    };
    PromotionError::framework(ErrorKind::Type, message)
}

/// Each operand as tinygrad receives it: Python builds every operand (a
/// dtype tinygrad lacks fails there) before it calls anything.
fn values(tinygrad: Tinygrad, operands: &[Operand]) -> Result<Vec<Value>, PromotionError> {
    operands
        .iter()
        .map(|operand| tinygrad.value(&operand.as_argument()))
        .collect()
}

/// The class Python names in an `AttributeError` of the value.
fn class(value: &Value) -> &'static str {
    match value {
        Value::Tensor(_) => "Tensor",
        Value::Python(x) => python_class(x),
    }
}

/// The result of `rule` on `values`, of the operation's arity.
fn call(
    tinygrad: Tinygrad,
    op: Op,
    rule: &Rule,
    values: &[Value],
) -> Result<Typed, PromotionError> {
    let node = match (rule.call, values) {
        (Call::Method(name), [Value::Python(x), ..]) => {
            return Err(no_attribute(python_class(x), name))
        }
        (_, [Value::Tensor(x)]) => *x,
        (_, [Value::Python(x)]) => return Err(python_computes(rule.call, op, &[*x])),
        (_, [Value::Tensor(a), Value::Tensor(b)]) => least_upper([*a, *b]).expect("two nodes"),
        (_, [Value::Tensor(t), Value::Python(s)] | [Value::Python(s), Value::Tensor(t)]) => {
            let promoted = least_upper([*t, from_py(s)?]).expect("two nodes");
            if rule.needs_float_base && !is_float(promoted) && !is_non_negative_int(s) {
                return Err(PromotionError::framework(
                    ErrorKind::Runtime,
                    "base needs to be float".to_owned(),
                ));
            }
            promoted
        }
        (_, [Value::Python(a), Value::Python(b)]) => {
            return Err(python_computes(rule.call, op, &[*a, *b]))
        }
        _ => unreachable!("the arity is checked: one or two values"),
    };
    Ok(output(tinygrad, rule.output, node))
}

/// The result of `output` from the promoted node.
fn output(tinygrad: Tinygrad, output: Output, node: usize) -> Typed {
    let default_float = || Typed::strong(tinygrad.default_float.dtype());
    let node = match output {
        Output::Promoted => node,
        Output::Bool => return Typed::strong(DType::Bool),
        Output::Divided if is_bool(node) || is_int(node) => return default_float(),
        Output::FloorDivided if is_bool(node) => return default_float(),
        Output::Divided | Output::FloorDivided => node,
        Output::Float if node == node_of_label(WEAK_INT) => node_of_label(WEAK_FLOAT),
        Output::Float if is_float(node) => node,
        Output::Float => least_upper([node, tinygrad.default_float_node()]).expect("two nodes"),
        Output::Negated if is_bool(node) => node,
        Output::JoinedWithWeakInt | Output::Negated => {
            least_upper([node, node_of_label(WEAK_INT)]).expect("two nodes")
        }
    };
    tinygrad.node_type(node)
}

/// `dtypes.is_float`: the floats and `weakfloat`.
fn is_float(node: usize) -> bool {
    !is_bool(node) && !is_int(node)
}

/// `dtypes.is_int`: the integers and `weakint`.
fn is_int(node: usize) -> bool {
    let label = super::graph().poset.label(node);
    label == WEAK_INT || DType::from_name(label).is_ok_and(DType::is_integer)
}

fn is_bool(node: usize) -> bool {
    node == node_of_label("bool")
}

/// `isinstance(x, int) and x >= 0`, which `pow` lets through whatever the
/// dtypes (a `bool` is an `int` to Python).
fn is_non_negative_int(operand: &Operand) -> bool {
    match operand.kind() {
        OperandKind::PyBool(_) => true,
        OperandKind::PyInt(value) => value >= 0,
        _ => false,
    }
}

/// The answer where no tensor takes part: Python's own operator (a Python
/// number, which has no dtype, or Python's error).
fn python_computes(call: Call, op: Op, operands: &[Operand]) -> PromotionError {
    let number = |operand: &Operand| Number::of(operand.kind());
    let (result, written) = match (call, operands) {
        (Call::Operator { symbol, .. }, [a, b]) => (
            python::binary(op, number(a), number(b)),
            format!("x {symbol} y"),
        ),
        (_, [x]) => (python::unary(op, number(x)), "-x".to_owned()),
        _ => unreachable!("a method's Python scalar has no attribute"),
    };
    match result.expect("every operator of tinygrad's is Python's") {
        Ok(scalar) => python::no_dtype("tensor", &written, scalar),
        Err(err) => err,
    }
}

/// Python's `AttributeError` for a method a Python value lacks.
fn no_attribute(class: &str, name: &str) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Attribute,
        format!("'{class}' object has no attribute '{name}'"),
    )
}

/// Python's `TypeError` for a call with `given` operands where the
/// operation takes `arity`: the `operator` module's for an operator, the
/// method's own otherwise (the tensor counts as its first argument).
fn arity(call: Call, arity: usize, given: usize) -> PromotionError {
    let message = match call {
        Call::Operator { function, .. } => {
            format!("{function} expected {arity} arguments, got {given}")
        }
        Call::Negative => format!("_operator.neg() takes exactly one argument ({given} given)"),
        Call::Method(name) | Call::Missing(name) if given < arity => {
            format!("ElementwiseMixin.{name}() missing 1 required positional argument: 'x'")
        }
        Call::Method(name) | Call::Missing(name) => format!(
            "ElementwiseMixin.{name}() takes {arity} positional argument{} but {given} were given",
            if arity == 1 { "" } else { "s" }
        ),
    };
    PromotionError::framework(ErrorKind::Type, message)
}

/// `op` in words: how Python calls it, the promotion, the result.
pub(super) fn describe(op: Op) -> String {
    let rule = &RULES[op];
    let call = match rule.call {
        Call::Operator { symbol, .. } => format!(
            "x {symbol} y (the tensor's operator, reflected where the tensor is on the right; \
             two Python scalars Python computes itself)"
        ),
        Call::Negative => "-x (a Python scalar Python negates itself)".to_owned(),
        Call::Method(name) if op.arity() == 2 => {
            format!("x.{name}(y) (a Python scalar first has no such method)")
        }
        Call::Method(name) => format!("x.{name}() (a Python scalar has no such method)"),
        Call::Missing(name) => {
            return format!(
                "x.{name}(y): tinygrad 0.14.0 has no such method (`&` is bitwise_and), so it is \
                 Python's AttributeError: 'Tensor' object has no attribute '{name}'"
            )
        }
    };
    let promotion = if op.arity() == 2 {
        "least_upper_dtype of the two dtypes (a Python scalar's dtypes.from_py: bool, weakint, \
         weakfloat; a complex number is a RuntimeError), a weak result stored as DEFAULT_INT or \
         DEFAULT_FLOAT; "
    } else {
        ""
    };
    let result = match rule.output {
        Output::Promoted if op.arity() == 1 => "the result is x's dtype",
        Output::Promoted => "the result is that dtype, whatever its kind (no check)",
        Output::Bool => "the result is bool",
        Output::Divided => {
            "an integer or bool result (weakint too) is cast to DEFAULT_FLOAT first, so the \
             result is DEFAULT_FLOAT, strong; a float stays"
        }
        Output::FloorDivided => {
            "integers divide as integers and keep their dtype, bool divides as / does \
             (DEFAULT_FLOAT), a float stays"
        }
        Output::Float => {
            "the result is least_upper_float of x: weakint is weakfloat, a float stays, any other \
             dtype joins DEFAULT_FLOAT"
        }
        Output::JoinedWithWeakInt => {
            "the result is x's dtype, but bool becomes weakint (the trunc(x) - 1 of \
             where(x < trunc(x), trunc(x) - 1, trunc(x)))"
        }
        Output::Negated => "bool is logical_not (bool), anything else x * (-1): x's dtype",
    };
    let refusal = if rule.needs_float_base {
        "; where that dtype is no float and the Python operand is no int >= 0, RuntimeError \
         \"base needs to be float\""
    } else {
        ""
    };
    format!("{call} (tinygrad 0.14.0): {promotion}{result}{refusal}")
}

#[cfg(test)]
mod tests {
    use super::super::{DefaultFloat, DefaultInt};
    use super::*;
    use crate::Policy;

    fn answer(tinygrad: Tinygrad, op: Op, operands: &[Operand]) -> String {
        match tinygrad.operation(op, operands).unwrap() {
            Ok(typed) => typed.to_string(),
            Err(err) => format!("{}: {err}", err.python_type()),
        }
    }

    // Beyond the golden data, each measured with tinygrad 0.14.0
    // (DEV=PYTHON).

    #[test]
    fn bad_calls_answer_as_python() {
        let t = Tinygrad::default();
        let x = Operand::array(DType::Int8, false);
        assert_eq!(
            answer(t, Op::Add, &[x, x, x]),
            "TypeError: add expected 2 arguments, got 3"
        );
        assert_eq!(
            answer(t, Op::Negative, &[x, x]),
            "TypeError: _operator.neg() takes exactly one argument (2 given)"
        );
        assert_eq!(
            answer(t, Op::Maximum, &[x]),
            "TypeError: ElementwiseMixin.maximum() missing 1 required positional argument: 'x'"
        );
        assert_eq!(
            answer(t, Op::Sqrt, &[x, x]),
            "TypeError: ElementwiseMixin.sqrt() takes 1 positional argument but 2 were given"
        );
        let none = "RuntimeError: Could not infer dtype of None with type <class 'NoneType'>";
        for op in [Op::Add, Op::Equal, Op::Less, Op::Maximum, Op::Power] {
            assert_eq!(answer(t, op, &[x, Operand::NONE]), none, "{op}");
        }
        assert_eq!(
            answer(t, Op::Subtract, &[Operand::NONE, Operand::py_int(2)]),
            "TypeError: unsupported operand type(s) for -: 'NoneType' and 'int'"
        );
        assert_eq!(
            answer(t, Op::Negative, &[Operand::NONE]),
            "TypeError: bad operand type for unary -: 'NoneType'"
        );
    }

    #[test]
    fn weak_tensors_divide_and_power_as_constants_do() {
        let t = Tinygrad::default();
        let (weak_int, weak_float) = (
            Operand::array(DType::Int32, true),
            Operand::array(DType::Float32, true),
        );
        assert_eq!(answer(t, Op::TrueDivide, &[weak_int, weak_int]), "float32");
        assert_eq!(
            answer(t, Op::FloorDivide, &[weak_float, weak_float]),
            "float32 (weak)"
        );
        assert_eq!(
            answer(t, Op::Power, &[weak_int, Operand::py_int(-1)]),
            "RuntimeError: base needs to be float"
        );
        // The check is on a Python number only, not a tensor's values.
        let b = Operand::array(DType::Bool, false);
        assert_eq!(answer(t, Op::Power, &[b, weak_int]), "int32 (weak)");
        assert_eq!(answer(t, Op::Power, &[b, Operand::py_bool(false)]), "bool");
    }

    #[test]
    fn the_defaults_decide_division_and_floats() {
        let half = Tinygrad::new(DefaultFloat::Float16, DefaultInt::Int64);
        let x = Operand::array(DType::Int64, false);
        assert_eq!(answer(half, Op::TrueDivide, &[x, x]), "float16");
        assert_eq!(answer(half, Op::Sqrt, &[x]), "float16");
        let b = Operand::array(DType::Bool, false);
        assert_eq!(answer(half, Op::Floor, &[b]), "int64 (weak)");
    }

    #[test]
    fn every_operation_is_described_and_logical_and_is_missing() {
        for op in Op::ALL {
            assert!(describe(op).contains("tinygrad 0.14.0"), "{op}");
        }
        assert!(describe(Op::LogicalAnd).contains("AttributeError"));
        let t = Tinygrad::default();
        let x = Operand::array(DType::Int8, false);
        assert_eq!(
            answer(t, Op::LogicalAnd, &[Operand::py_int(2), x]),
            "AttributeError: 'int' object has no attribute 'logical_and'"
        );
    }
}
