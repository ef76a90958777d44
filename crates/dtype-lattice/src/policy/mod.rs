//! The one interface every framework's promotion rules implement.
//!
//! A [`Policy`] answers the two questions array code asks: what do two types
//! promote to ([`Policy::promote_types`]), and what type does an operation on
//! these operands produce ([`Policy::result_type`]). Policies whose rules are
//! a lattice also expose it as a [`TypedLattice`], whose nodes say which
//! (dtype, weak) value they stand for, so generic tools (tables, checks,
//! drawings) work on any of them without reading labels.
//!
//! The [registry](crate::registry), a layer above the frameworks, is the one
//! place that names every framework: front ends find a policy by name there.
//!
//! ```
//! use dtype_lattice::frameworks::jax::{Config, Jax};
//! use dtype_lattice::{DType, Operand, Policy, PyScalar};
//!
//! fn describe(policy: &dyn Policy, operands: &[Operand]) -> String {
//!     match policy.result_type(operands) {
//!         Ok(typed) => typed.to_string(),
//!         Err(err) => format!("{}: {err}", err.python_type()),
//!     }
//! }
//!
//! let jax = Jax::new(Config::default());
//! let x_int16_plus_2 = [Operand::array(DType::Int16, false), Operand::py_int(2)];
//! assert_eq!(describe(&jax, &x_int16_plus_2), "int16");
//! assert_eq!(describe(&jax, &[PyScalar::Float.into()]), "float32 (weak)");
//! ```
//!
//! # Files
//!
//! `mod.rs` holds the `Policy` trait and `JaxFunctions` (JAX's own
//! functions, which a policy offers through `Policy::jax`);
//! `typed_lattice.rs` holds `TypedLattice`.

mod typed_lattice;

pub use typed_lattice::TypedLattice;

use crate::prelude::*;
use crate::types::{
    ArrayCall, ArrayOp, Asked, Call, Elsewhere, ErrorKind, OpForm, Operation, Outcome, Unanswered,
};
use crate::types::{DType, Op, Operand, PromotionError, PyScalar, TypeSpec, Typed, Warning};

/// A promotion graph as a framework's source writes it: each label and
/// the labels it promotes to. Labels that are dtype names stand for those
/// dtypes; `weak` names the labels that stand for Python's scalars.
#[derive(Clone, Copy, Debug)]
pub struct WrittenGraph {
    /// Each node and the nodes it may promote to, in the source's order.
    pub edges: &'static [(&'static str, &'static [&'static str])],
    /// The weak labels (Keras's `int`, tinygrad's `weakint`), each with
    /// the Python scalar type it stands for.
    pub weak: &'static [(&'static str, PyScalar)],
}

/// A framework's type promotion rules.
///
/// Three methods are required: [`name`](Policy::name),
/// [`promote_types`](Policy::promote_types) and
/// [`result_type`](Policy::result_type). The rest are optional, and each
/// default answers "not modelled" (`None`, `true`, or nothing) on its own:
/// no default calls another method, so overriding one never changes
/// what another answers.
///
/// | method | override when |
/// |---|---|
/// | [`operation`](Policy::operation) and [`describe_operation`](Policy::describe_operation) | the policy models the framework's functions beyond promotion (both, or neither: a test over the registry holds every policy to it) |
/// | [`lattice`](Policy::lattice), [`written_graph`](Policy::written_graph) | the rules are a lattice, or a graph and then more |
/// | [`is_native`](Policy::is_native) | the framework lacks some of the 32 dtypes |
/// | [`can_cast`](Policy::can_cast) | the framework has a safe-cast function |
/// | [`jax`](Policy::jax) | the policy has JAX's own functions ([`JaxFunctions`]) |
/// | [`default_form`](Policy::default_form) | [`operation`](Policy::operation) answers an operator, not the function |
/// | [`operation_as`](Policy::operation_as), [`assign`](Policy::assign) | the policy models operations as programs write them: operators, in place, assignment |
/// | [`array_op`](Policy::array_op) and [`describe_array_op`](Policy::describe_array_op) | the policy models reductions, contractions and combinations ([`ArrayOp`]) |
/// | [`computes_in`](Policy::computes_in) | the framework computes an elementwise operation in another type than its result (PyTorch's opmath) |
///
/// Addition, the operation every framework has, is asked as any other:
/// `policy.operation(Op::Add, operands)`; on a `dyn Policy`,
/// [`add`](#method.add) spells that out.
pub trait Policy: Send + Sync {
    /// A short name for the policy and its settings, e.g. `jax (x64, strict)`.
    fn name(&self) -> String;

    /// The type two types promote to.
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError>;

    /// The type an operation on these operands produces.
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError>;

    /// The type the framework's `op` on `operands` produces (`jnp.true_divide`,
    /// `np.less`, `torch.sqrt`, ...): promotion, then the operation's own
    /// rule on the promoted type, or the framework's error. `None` where
    /// the policy does not model `op`. It can differ from
    /// [`result_type`](Policy::result_type) by the operation's own checks
    /// (a value out of range, a dtype with no kernel). An operation takes
    /// values: a dtype specifier stands for an array of the dtype, a Python
    /// type for a scalar of it ([`Operand::as_argument`]).
    ///
    /// The one way to ask for an operation: every surface (the command
    /// line's `--op`, batch's `"fn"`, Python's `policy.operation`) comes
    /// here.
    ///
    /// [`Operand::as_argument`]: crate::Operand::as_argument
    ///
    /// ```
    /// use dtype_lattice::registry::{by_name, Settings};
    /// use dtype_lattice::{DType, Op, Operand, Typed};
    /// let jax = by_name("jax", Settings::default()).unwrap();
    /// let x = Operand::array(DType::Int32, false);
    /// assert_eq!(jax.operation(Op::TrueDivide, &[x, x]), Some(Ok(Typed::strong(DType::Float32))));
    /// assert_eq!(jax.operation(Op::Less, &[x, x]), Some(Ok(Typed::strong(DType::Bool))));
    /// ```
    fn operation(&self, _op: Op, _operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        None
    }

    /// In words, how the framework computes `op`'s result type: its
    /// promotion, then the rule on the promoted type (`explain --op`).
    /// `None` exactly where [`operation`](Policy::operation) does not
    /// model `op`.
    fn describe_operation(&self, _op: Op) -> Option<String> {
        None
    }

    /// The form of `op` that [`operation`](Policy::operation) answers:
    /// the function, unless the policy has always answered the operator
    /// there (PaddlePaddle's and tinygrad's `a + b`, the Array API's `+`).
    /// The other forms are [`operation_as`](Policy::operation_as)'s.
    fn default_form(&self, _op: Op) -> OpForm {
        OpForm::Function
    }

    /// `op` as a program writes it in `form`, a form other than
    /// [`default_form`](Policy::default_form) and [`OpForm::SetItem`]
    /// ([`assign`](Policy::assign)'s): `a / b`, `b.__rtruediv__(a)`,
    /// `a /= b` ([`OpForm`] says what each is). `None` where the policy does
    /// not model that form. Asked through [`call`](#method.call), which
    /// checks that Python has the form.
    fn operation_as(
        &self,
        _op: Op,
        _form: OpForm,
        _operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        None
    }

    /// The framework's reduction, contraction or combination of
    /// `operands` (`np.sum(x, dtype=...)`, `jnp.matmul(a, b,
    /// preferred_element_type=...)`, `torch.where(c, x, y)`): its result
    /// and, where the framework says, the type it computes in; or the
    /// framework's error. `None` where the policy does not model
    /// `call`'s operation. Operands are values, as for
    /// [`operation`](Policy::operation); their number is checked by the
    /// policy, which words that error as the framework does. The call is
    /// borrowed: it is 48 bytes (`initial=` holds a Python int of 128
    /// bits), which a caller holding its calls in memory would otherwise
    /// copy on every answer for a path the tables rarely leave to.
    ///
    /// ```
    /// use dtype_lattice::registry::{by_name, Settings};
    /// use dtype_lattice::{ArrayCall, ArrayOp, DType, Operand};
    /// let jax = by_name("jax", Settings::default()).unwrap();
    /// let x = Operand::array(DType::Int8, false);
    /// if let Some(answer) = jax.array_op(&ArrayCall::new(ArrayOp::Sum), &[x]) {
    ///     assert_eq!(answer.unwrap().result().dtype, DType::Int32); // x64 off
    /// }
    /// ```
    fn array_op(
        &self,
        _call: &ArrayCall,
        _operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        None
    }

    /// In words, how the framework computes `op`'s result type and the
    /// type it computes in (`explain --op sum`). `None` exactly where
    /// [`array_op`](Policy::array_op) does not model `op`.
    fn describe_array_op(&self, _op: ArrayOp) -> Option<String> {
        None
    }

    /// The type the framework computes the elementwise `op` of `operands`
    /// in, where it says and the policy models it: PyTorch computes a
    /// `bfloat16` addition in `float32` (its "opmath" type, the first of
    /// `torch._prims_common.elementwise_dtypes`). `None` elsewhere; apart
    /// from [`operation`](Policy::operation) so that the hot path does not
    /// pay for it.
    fn computes_in(&self, _op: Op, _operands: &[Operand]) -> Option<DType> {
        None
    }

    /// Where `call` is answered when the policy has no such form by
    /// design, not merely not yet: `jax-lax` has only functions, and `a +
    /// b` on JAX arrays is the `jax` policy's. `None` by default; a policy
    /// that returns `Some` answers `None` for that call, and every surface
    /// says so with the fix ([`Unanswered::AnsweredBy`]).
    fn answered_by(&self, _call: Call) -> Option<Elsewhere> {
        None
    }

    /// `target[...] = value`: the dtype the array keeps, or the
    /// framework's error (an immutable array, a value it will not cast).
    /// `None` where the policy does not model assignment.
    fn assign(&self, _target: Operand, _value: Operand) -> Option<Result<Typed, PromotionError>> {
        None
    }

    /// The lattice the rules join on, for policies defined by one, with
    /// the type each node stands for.
    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    /// The graph the framework writes its rules on, where its rules are a
    /// graph and then more (Keras's lattice, whose joins it then cuts to
    /// 32 bits; tinygrad's `promo_lattice`, with pairs of two minimal
    /// upper bounds that `min()` chooses between), so that the design
    /// tools check, audit, explain and draw the graph as written. `None`
    /// where [`lattice`](Policy::lattice) is the whole story or there is
    /// no graph.
    fn written_graph(&self) -> Option<WrittenGraph> {
        None
    }

    /// Whether the framework defines `dtype` itself. NumPy has bfloat16 and
    /// the other small types only through the ml_dtypes package; comparing a
    /// policy that has a dtype with one that does not counts every cell with
    /// it as a difference, as JAX's documentation does for bfloat16 ("NumPy
    /// has none").
    fn is_native(&self, _dtype: DType) -> bool {
        true
    }

    /// Whether the framework casts `from` to `to` safely (NumPy's
    /// `np.can_cast(from, to, casting="safe")`). `None` where the policy
    /// does not model casting.
    fn can_cast(&self, _from: DType, _to: DType) -> Option<bool> {
        None
    }

    /// The functions only JAX has (`lattice_result_type`, `asarray`,
    /// `canonicalize_dtype`, `safe_to_cast`, and the warnings JAX issues),
    /// for the policies that have them. `None` by default.
    fn jax(&self) -> Option<&dyn JaxFunctions> {
        None
    }
}

/// JAX's functions beyond promotion, which no other framework has: a
/// policy that has them hands them out through [`Policy::jax`], so that
/// the [`Policy`] trait stays what every framework implements.
///
/// ```
/// use dtype_lattice::registry::{by_name, Settings};
/// use dtype_lattice::{DType, Operand, Typed};
///
/// let jax = by_name("jax", Settings::default()).unwrap();
/// let functions = jax.jax().unwrap();
/// assert_eq!(functions.canonicalize_dtype(DType::Int64), DType::Int32);
/// assert_eq!(functions.asarray(Operand::py_int(2)), Ok(Typed::weak(DType::Int32)));
/// assert!(by_name("numpy", Settings::default()).unwrap().jax().is_none());
/// ```
pub trait JaxFunctions {
    /// `jax.dtypes.lattice_result_type`: the result before a weak result
    /// is given its kind's default dtype.
    fn lattice_result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError>;

    /// `jnp.asarray(value)`'s type (`jnp.asarray(2)` is a weak `int32`).
    fn asarray(&self, value: Operand) -> Result<Typed, PromotionError>;

    /// `jax.dtypes.canonicalize_dtype`: the dtype JAX stores `dtype` as
    /// (without x64, 64-bit dtypes become 32-bit).
    fn canonicalize_dtype(&self, dtype: DType) -> DType;

    /// `jax.dtypes.safe_to_cast`: whether `input` converts to `output`
    /// without JAX's complaint.
    fn safe_to_cast(&self, input: Operand, output: DType) -> Result<bool, PromotionError>;

    /// Whether any answer under this configuration can come with warnings,
    /// so that a front end on a hot path asks for them only then (JAX
    /// warns only with x64 off and `jax_explicit_x64_dtypes=warn`).
    fn may_warn(&self) -> bool;

    /// The warnings JAX issues while answering
    /// [`Policy::result_type`] of these operands, in order (the answer
    /// stands all the same): with x64 off, when a 64-bit dtype is
    /// requested explicitly ([`ExplicitX64`](crate::frameworks::jax::ExplicitX64)).
    /// Apart from `result_type` so that the hot path does not pay for them.
    fn result_type_warnings(&self, operands: &[Operand]) -> Vec<Warning>;

    /// The warnings for
    /// [`lattice_result_type`](JaxFunctions::lattice_result_type), likewise.
    fn lattice_result_type_warnings(&self, operands: &[Operand]) -> Vec<Warning>;

    /// The warnings for [`safe_to_cast`](JaxFunctions::safe_to_cast),
    /// likewise.
    fn safe_to_cast_warnings(&self, input: Operand, output: DType) -> Vec<Warning>;
}

impl dyn Policy + '_ {
    /// The framework's addition of `operands`: [`Policy::operation`] of
    /// [`Op::Add`], spelled out because it is the operation every
    /// framework has.
    ///
    /// ```
    /// use dtype_lattice::registry::{by_name, Settings};
    /// use dtype_lattice::{DType, Operand, Typed};
    /// let torch = by_name("torch", Settings::default()).unwrap();
    /// let x = Operand::dtype(DType::Int8);
    /// assert_eq!(torch.add(&[x, Operand::py_float(2.5)]), Some(Ok(Typed::strong(DType::Float32))));
    /// ```
    pub fn add(&self, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        self.operation(Op::Add, operands)
    }

    /// An operation as a program writes it, or an assignment: the one
    /// way every surface asks for a [`Call`] (`--form`, batch's `"form"`,
    /// Python's `form=`). The policy's default form is
    /// [`operation`](Policy::operation)'s answer, an assignment
    /// [`assign`](Policy::assign)'s, any other form
    /// [`operation_as`](Policy::operation_as)'s; `None` where the policy
    /// does not model it.
    ///
    /// ```
    /// use dtype_lattice::registry::{by_name, Settings};
    /// use dtype_lattice::{Call, DType, OpForm, Op, Operand, Typed};
    /// let jax = by_name("jax", Settings::default()).unwrap();
    /// let x = Operand::array(DType::Int32, false);
    /// let function = Call::new(Some(Op::TrueDivide), OpForm::Function).unwrap();
    /// assert_eq!(jax.call(function, &[x, x]), Some(Ok(Typed::strong(DType::Float32))));
    /// ```
    pub fn call(&self, call: Call, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        let Some(op) = call.op() else {
            return match *operands {
                // Values, as every operation takes them (a dtype an array
                // of it, a Python type a scalar of it): the operations read
                // them so themselves, on their own paths.
                [target, value] => self.assign(target.as_argument(), value.as_argument()),
                _ => Some(Err(PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "the assignment x[...] = v takes the array and the value, 2 operands, \
                         not {}",
                        operands.len()
                    ),
                ))),
            };
        };
        if call.form() == self.default_form(op) {
            self.operation(op, operands)
        } else {
            self.operation_as(op, call.form(), operands)
        }
    }

    /// An operation of either kind with its keywords, as every surface
    /// asks it (`--op`, batch's `"fn"`, Python's `operation`): an
    /// elementwise one is [`operation`](Policy::operation)'s answer with
    /// [`computes_in`](Policy::computes_in), one on whole arrays
    /// [`array_op`](Policy::array_op)'s. `None` where the policy does not
    /// model it ([`not_modelled`](#method.not_modelled) says so).
    ///
    /// ```
    /// use dtype_lattice::registry::{by_name, Settings};
    /// use dtype_lattice::{DType, Operand, Operation};
    /// let jax = by_name("jax", Settings::default()).unwrap();
    /// let x = Operand::array(DType::Int32, false);
    /// let divide: Operation = "true_divide".parse().unwrap();
    /// let answer = jax.ask(divide.asked(None, None).unwrap(), &[x, x]);
    /// assert_eq!(answer.unwrap().unwrap().to_string(), "float32");
    /// ```
    pub fn ask(
        &self,
        asked: Asked,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        match asked {
            Asked::Elementwise(op) => {
                let result = self.operation(op, operands)?;
                Some(result.map(|result| Outcome::new(result, self.computes_in(op, operands))))
            }
            Asked::Array(call) => self.array_op(&call, operands),
        }
    }

    /// How the policy computes `operation`'s result, in words
    /// ([`describe_operation`](Policy::describe_operation) or
    /// [`describe_array_op`](Policy::describe_array_op)).
    pub fn describe(&self, operation: Operation) -> Option<String> {
        match operation {
            Operation::Elementwise(op) => self.describe_operation(op),
            Operation::Array(op) => self.describe_array_op(op),
        }
    }

    /// Why [`ask`](#method.ask) gave no answer for `operation`.
    pub fn not_modelled(&self, operation: Operation) -> Unanswered {
        let policy = self.name();
        match operation {
            Operation::Elementwise(op) => Unanswered::NotModelled { policy, op },
            Operation::Array(op) => Unanswered::ArrayOpNotModelled { policy, op },
        }
    }

    /// Why [`call`](#method.call) gave no answer for `call`, in the words
    /// every surface gives: another policy's form
    /// ([`Policy::answered_by`]), or not modelled yet.
    ///
    /// ```
    /// use dtype_lattice::registry::{by_name, Settings};
    /// use dtype_lattice::{Call, OpForm, Op};
    /// let lax = by_name("jax-lax", Settings::default()).unwrap();
    /// let plus = Call::new(Some(Op::Add), OpForm::Operator).unwrap();
    /// assert!(lax.call(plus, &[]).is_none());
    /// assert!(lax.unanswered(plus).to_string().ends_with("ask policy 'jax' for it"));
    /// ```
    pub fn unanswered(&self, call: Call) -> Unanswered {
        let policy = self.name();
        match self.answered_by(call) {
            Some(by) => Unanswered::AnsweredBy { policy, call, by },
            None => Unanswered::CallNotModelled { policy, call },
        }
    }

    /// Whether the design tools have a graph of the policy to explain and
    /// draw: its [`lattice`](Policy::lattice) or its
    /// [`written_graph`](Policy::written_graph).
    ///
    /// ```
    /// use dtype_lattice::registry::{by_name, Settings};
    ///
    /// let has_graph = |name| by_name(name, Settings::default()).unwrap().has_graph();
    /// assert!(has_graph("jax") && has_graph("keras"));
    /// assert!(!has_graph("numpy"));
    /// ```
    pub fn has_graph(&self) -> bool {
        self.lattice().is_some() || self.written_graph().is_some()
    }
}
