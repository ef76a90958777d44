//! How a program writes an operation: `np.divide(x, 2)`, `x / 2`, `2 / x`,
//! `x /= 2`, or the assignment `x[...] = v`.
//!
//! Frameworks answer these differently: TensorFlow's `1 / x` converts the
//! Python scalar to the tensor's dtype where `tf.math.truediv` refuses it,
//! PyTorch's `x += 0.5` on an integer tensor refuses a result it cannot
//! store, JAX rebinds `x` instead. [`OpForm`] names the form; [`Call`] pairs
//! it with the operation it is a form of, checked once, so every surface
//! (`--form`, the batch field `"form"`, Python's `form=`) refuses the same
//! questions with the same words.

use core::fmt;
use core::str::FromStr;

use crate::prelude::*;
use crate::text::{nearest, quote};
use crate::types::Op;

/// The form of an operation in a program.
///
/// ```
/// use dtype_lattice::OpForm;
/// assert_eq!("inplace".parse::<OpForm>(), Ok(OpForm::InPlace));
/// assert_eq!(OpForm::default(), OpForm::Function);
/// let err = "operater".parse::<OpForm>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown form 'operater': did you mean 'operator'? \
///     (known: function, operator, reflected, inplace, setitem)");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OpForm {
    /// The framework's function, `lib.op(a, b)`: what a policy has always
    /// answered, unless its operation says otherwise
    /// ([`Policy::default_form`](crate::Policy::default_form)).
    #[default]
    Function,
    /// `a OP b` (`-a`, `abs(a)`) as Python evaluates it: `type(a).__op__`,
    /// and where that returns `NotImplemented` (a Python scalar on the
    /// left), `type(b).__rop__`.
    Operator,
    /// The right operand's reflected method called directly:
    /// `b.__rop__(a)` (`b.__gt__(a)` for `a < b`).
    Reflected,
    /// `a OP= b`: `a.__iop__(b)`, the result stored in `a`'s dtype, or, for
    /// a framework whose arrays are immutable, `a` rebound to `a OP b`.
    InPlace,
    /// `a[...] = v`: the value cast to the array's dtype. Not a form of an
    /// operation: it is asked with no operation.
    SetItem,
}

impl OpForm {
    /// Every form, in the order the docs list them.
    pub const ALL: [OpForm; 5] = [
        OpForm::Function,
        OpForm::Operator,
        OpForm::Reflected,
        OpForm::InPlace,
        OpForm::SetItem,
    ];

    /// Its name on every surface.
    pub const fn name(self) -> &'static str {
        match self {
            OpForm::Function => "function",
            OpForm::Operator => "operator",
            OpForm::Reflected => "reflected",
            OpForm::InPlace => "inplace",
            OpForm::SetItem => "setitem",
        }
    }
}

impl fmt::Display for OpForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OpForm {
    type Err = ParseOpFormError;

    fn from_str(s: &str) -> Result<OpForm, ParseOpFormError> {
        OpForm::ALL
            .into_iter()
            .find(|form| form.name() == s)
            .ok_or_else(|| ParseOpFormError { name: s.to_owned() })
    }
}

/// A form name that is none of [`OpForm::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOpFormError {
    name: String,
}

impl fmt::Display for ParseOpFormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown form {}", quote(&self.name, '\''))?;
        let names = OpForm::ALL.map(OpForm::name);
        if let Some(near) = nearest(&self.name, names.iter().copied()) {
            write!(f, ": did you mean '{near}'?")?;
        }
        write!(f, " (known: {})", names.join(", "))
    }
}

impl core::error::Error for ParseOpFormError {}

/// Python's operator for an operation: how it is written and the special
/// methods Python calls for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operator {
    /// As written: `+`, `<`, `-` (unary), `abs`.
    pub symbol: &'static str,
    /// The method `a OP b` calls first: `__add__`, `__lt__`, `__neg__`.
    pub method: &'static str,
    /// The right operand's method Python falls back to (`__radd__`; a
    /// comparison's mirror, `__gt__` for `<`); `None` for a unary one.
    pub reflected: Option<&'static str>,
    /// The in-place method (`__iadd__`); `None` for comparisons and unary
    /// operators, which have none.
    pub inplace: Option<&'static str>,
}

const fn binary(
    symbol: &'static str,
    method: &'static str,
    r: &'static str,
    i: &'static str,
) -> Option<Operator> {
    Some(Operator {
        symbol,
        method,
        reflected: Some(r),
        inplace: Some(i),
    })
}

const fn comparison(
    symbol: &'static str,
    method: &'static str,
    mirror: &'static str,
) -> Option<Operator> {
    Some(Operator {
        symbol,
        method,
        reflected: Some(mirror),
        inplace: None,
    })
}

const fn unary(symbol: &'static str, method: &'static str) -> Option<Operator> {
    Some(Operator {
        symbol,
        method,
        reflected: None,
        inplace: None,
    })
}

impl Op {
    /// Python's operator for the operation, if it has one (`maximum`,
    /// `logical_and`, `sign`, `sqrt`, `exp` and `floor` have none).
    ///
    /// ```
    /// use dtype_lattice::Op;
    /// let div = Op::TrueDivide.operator().unwrap();
    /// assert_eq!((div.symbol, div.reflected, div.inplace), ("/", Some("__rtruediv__"), Some("__itruediv__")));
    /// assert_eq!(Op::Less.operator().unwrap().reflected, Some("__gt__"));
    /// assert!(Op::Maximum.operator().is_none());
    /// ```
    pub const fn operator(self) -> Option<Operator> {
        match self {
            Op::Add => binary("+", "__add__", "__radd__", "__iadd__"),
            Op::Subtract => binary("-", "__sub__", "__rsub__", "__isub__"),
            Op::Multiply => binary("*", "__mul__", "__rmul__", "__imul__"),
            Op::TrueDivide => binary("/", "__truediv__", "__rtruediv__", "__itruediv__"),
            Op::FloorDivide => binary("//", "__floordiv__", "__rfloordiv__", "__ifloordiv__"),
            Op::Remainder => binary("%", "__mod__", "__rmod__", "__imod__"),
            Op::Power => binary("**", "__pow__", "__rpow__", "__ipow__"),
            Op::BitwiseAnd => binary("&", "__and__", "__rand__", "__iand__"),
            Op::BitwiseOr => binary("|", "__or__", "__ror__", "__ior__"),
            Op::BitwiseXor => binary("^", "__xor__", "__rxor__", "__ixor__"),
            Op::Equal => comparison("==", "__eq__", "__eq__"),
            Op::NotEqual => comparison("!=", "__ne__", "__ne__"),
            Op::Less => comparison("<", "__lt__", "__gt__"),
            Op::LessEqual => comparison("<=", "__le__", "__ge__"),
            Op::Greater => comparison(">", "__gt__", "__lt__"),
            Op::GreaterEqual => comparison(">=", "__ge__", "__le__"),
            Op::Negative => unary("-", "__neg__"),
            Op::Abs => unary("abs", "__abs__"),
            Op::Maximum | Op::LogicalAnd | Op::Sign | Op::Sqrt | Op::Exp | Op::Floor => None,
        }
    }
}

/// A question about an operation as a program writes it: an operation and
/// a form of it that exists in Python, or the assignment
/// ([`OpForm::SetItem`]), which has no operation. Made only by
/// [`Call::new`], so a policy is never asked for `maximum` as an operator.
///
/// ```
/// use dtype_lattice::{Call, OpForm, Op};
/// let call = Call::new(Some(Op::TrueDivide), OpForm::Reflected).unwrap();
/// assert_eq!(call.to_string(), "true_divide as the reflected operator (b.__rtruediv__(a))");
/// assert_eq!(call.arity(), 2);
/// let err = Call::new(Some(Op::Maximum), OpForm::Operator).unwrap_err();
/// assert_eq!(err.to_string(), "maximum has no Python operator: ask for its function (form 'function')");
/// let err = Call::new(Some(Op::Add), OpForm::SetItem).unwrap_err();
/// assert!(err.to_string().starts_with("setitem is the assignment x[...] = v, no operation's form"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    op: Option<Op>,
    form: OpForm,
}

impl Call {
    /// The call of `op` in `form`, or why Python has no such thing.
    pub fn new(op: Option<Op>, form: OpForm) -> Result<Call, CallError> {
        let error = |why| Err(CallError { op, form, why });
        match (op, form) {
            (None, OpForm::SetItem) => Ok(Call { op, form }),
            (Some(_), OpForm::SetItem) => error(Why::SetItemHasNoOperation),
            (None, _) => error(Why::NoOperation),
            (Some(_), OpForm::Function) => Ok(Call { op, form }),
            (Some(o), OpForm::Operator) => match o.operator() {
                Some(_) => Ok(Call { op, form }),
                None => error(Why::NoOperator),
            },
            (Some(o), OpForm::Reflected) => match o.operator().and_then(|x| x.reflected) {
                Some(_) => Ok(Call { op, form }),
                None if o.operator().is_some() => error(Why::Unary),
                None => error(Why::NoOperator),
            },
            (Some(o), OpForm::InPlace) => match o.operator() {
                Some(x) if x.inplace.is_some() => Ok(Call { op, form }),
                Some(x) if x.reflected.is_some() => error(Why::Comparison),
                Some(_) => error(Why::Unary),
                None => error(Why::NoOperator),
            },
        }
    }

    /// The operation (`None` for [`OpForm::SetItem`]).
    pub fn op(self) -> Option<Op> {
        self.op
    }

    /// The form.
    pub fn form(self) -> OpForm {
        self.form
    }

    /// How many operands it takes (an assignment: the array and the value).
    pub fn arity(self) -> usize {
        self.op.map_or(2, Op::arity)
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(op) = self.op else {
            return f.write_str("the assignment x[...] = v");
        };
        let operator = op.operator();
        match (self.form, operator) {
            (OpForm::Function, _) | (_, None) => write!(f, "{op} as the function"),
            (OpForm::Operator, Some(x)) if op.arity() == 1 => {
                let written = if x.symbol == "abs" { "abs(a)" } else { "-a" };
                write!(f, "{op} as the operator ({written})")
            }
            (OpForm::Operator, Some(x)) => write!(f, "{op} as the operator (a {} b)", x.symbol),
            (OpForm::Reflected, Some(x)) => write!(
                f,
                "{op} as the reflected operator (b.{}(a))",
                x.reflected.unwrap_or(x.method)
            ),
            (OpForm::InPlace, Some(x)) => write!(f, "{op} in place (a {}= b)", x.symbol),
            (OpForm::SetItem, _) => f.write_str("the assignment x[...] = v"),
        }
    }
}

/// Where a form a policy lacks by design is answered: the policy that
/// answers it, and why ([`Policy::answered_by`](crate::Policy::answered_by)).
/// `jax.lax` is a module of functions, so `a + b` on the arrays it returns
/// is `jax.numpy`'s operator, which the `jax` policy answers.
///
/// ```
/// use dtype_lattice::registry::{by_name, Settings};
/// use dtype_lattice::{Call, OpForm, Op};
/// let lax = by_name("jax-lax", Settings::default()).unwrap();
/// let plus = Call::new(Some(Op::Add), OpForm::Operator).unwrap();
/// assert_eq!(lax.answered_by(plus).unwrap().policy, "jax");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elsewhere {
    /// The registry name of the policy that answers it (`jax`).
    pub policy: &'static str,
    /// Why, in words, for the error that names the fix.
    pub why: &'static str,
}

/// Why a [`Call`] cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    SetItemHasNoOperation,
    NoOperation,
    NoOperator,
    Unary,
    Comparison,
}

/// An operation asked in a form Python does not have for it, with the fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallError {
    op: Option<Op>,
    form: OpForm,
    why: Why,
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = self.op.map_or("", Op::name);
        let form = self.form;
        match self.why {
            Why::SetItemHasNoOperation => write!(
                f,
                "setitem is the assignment x[...] = v, no operation's form: ask it without \
                 the operation {op}"
            ),
            Why::NoOperation => write!(f, "the form '{form}' needs an operation"),
            Why::NoOperator => write!(
                f,
                "{op} has no Python operator: ask for its function (form 'function')"
            ),
            Why::Unary => write!(
                f,
                "{op} is a unary operator, with no {form} form: ask for form 'operator'"
            ),
            Why::Comparison => write!(
                f,
                "{op} is a comparison, which Python does not do in place: ask for form 'operator'"
            ),
        }
    }
}

impl core::error::Error for CallError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_back_as_written() {
        for form in OpForm::ALL {
            assert_eq!(form.name().parse::<OpForm>(), Ok(form));
        }
    }

    #[test]
    fn python_has_exactly_these_calls() {
        let mut made = 0;
        for op in Op::ALL {
            for form in OpForm::ALL {
                if let Ok(call) = Call::new(Some(op), form) {
                    made += 1;
                    assert_eq!(call.arity(), op.arity());
                    let Some(x) = op.operator() else {
                        assert_eq!(form, OpForm::Function, "{op}");
                        continue;
                    };
                    match form {
                        OpForm::Reflected => assert!(x.reflected.is_some()),
                        OpForm::InPlace => assert!(x.inplace.is_some() && !op.is_comparison()),
                        _ => {}
                    }
                }
            }
        }
        // 24 functions, 18 operators, 16 reflected, 10 in place.
        assert_eq!(made, 24 + 18 + 16 + 10);
        assert!(Call::new(None, OpForm::SetItem).is_ok());
        assert!(Call::new(None, OpForm::Operator).is_err());
    }
}
