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

mod typed_lattice;

pub use typed_lattice::TypedLattice;

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
pub trait Policy: Send + Sync {
    /// A short name for the policy and its settings, e.g. `jax (x64, strict)`.
    fn name(&self) -> String;

    /// The type two types promote to.
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError>;

    /// The type an operation on these operands produces.
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError>;

    /// The lattice the rules join on, for policies defined by one, with
    /// the type each node stands for.
    fn lattice(&self) -> Option<&TypedLattice>;

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
    fn has_graph(&self) -> bool {
        self.lattice().is_some() || self.written_graph().is_some()
    }

    /// Whether the framework defines `dtype` itself. NumPy has bfloat16 and
    /// the other small types only through the ml_dtypes package; comparing a
    /// policy that has a dtype with one that does not counts every cell with
    /// it as a difference, as JAX's documentation does for bfloat16 ("NumPy
    /// has none").
    fn is_native(&self, _dtype: DType) -> bool {
        true
    }

    /// The type the framework's addition of `operands` produces, where the
    /// policy models that operation (NumPy's `np.add`, the Array API's `+`,
    /// `torch.add`, `tf.add`, `jax.lax.add`): it can differ from
    /// [`result_type`](Policy::result_type) by the operation's own checks (a
    /// value out of range, a dtype with no kernel). `None` where the policy
    /// does not model it.
    fn add(&self, _operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        None
    }

    /// The type the framework's `op` on `operands` produces (`jnp.true_divide`,
    /// `np.less`, `torch.sqrt`, ...): promotion, then the operation's own
    /// rule on the promoted type, or the framework's error. `None` where
    /// the policy does not model `op`; by default only
    /// [`add`](Policy::add) is. An operation takes values: a dtype
    /// specifier stands for an array of the dtype, a Python type for a
    /// scalar of it ([`Operand::as_argument`]).
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
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        match op {
            Op::Add => self.add(operands),
            _ => None,
        }
    }

    /// In words, how the framework computes `op`'s result type: its
    /// promotion, then the rule on the promoted type (`explain --op`).
    /// `None` where the policy does not describe it.
    fn describe_operation(&self, _op: Op) -> Option<String> {
        None
    }

    /// Whether the framework casts `from` to `to` safely (NumPy's
    /// `np.can_cast(from, to, casting="safe")`). `None` where the policy
    /// does not model casting.
    fn can_cast(&self, _from: DType, _to: DType) -> Option<bool> {
        None
    }

    /// JAX's `lattice_result_type`: the result before a weak result is
    /// given its kind's default dtype. `None` where the policy has no such
    /// function (only JAX has).
    fn lattice_result_type(&self, _operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        None
    }

    /// The warnings the framework issues while answering
    /// [`result_type`](Policy::result_type) of these operands, in order
    /// (the answer stands all the same). None by default; JAX warns when x64
    /// is off and a 64-bit dtype is requested explicitly
    /// ([`ExplicitX64`](crate::frameworks::jax::ExplicitX64)). Apart from
    /// `result_type` so that the hot path does not pay for them.
    fn result_type_warnings(&self, _operands: &[Operand]) -> Vec<Warning> {
        Vec::new()
    }

    /// The warnings for
    /// [`lattice_result_type`](Policy::lattice_result_type), as
    /// [`result_type_warnings`](Policy::result_type_warnings) gives them.
    fn lattice_result_type_warnings(&self, _operands: &[Operand]) -> Vec<Warning> {
        Vec::new()
    }

    /// Whether any answer under this configuration can come with warnings,
    /// so that a front end on a hot path asks for them only then (JAX
    /// warns only with x64 off and `jax_explicit_x64_dtypes=warn`).
    fn may_warn(&self) -> bool {
        false
    }

    /// The type the framework gives a value converted to an array on its
    /// own (`jnp.asarray(2)` is a weak `int32`). `None` where the policy
    /// does not model it.
    fn asarray(&self, _value: Operand) -> Option<Result<Typed, PromotionError>> {
        None
    }

    /// The dtype the framework stores `dtype` as (JAX's
    /// `canonicalize_dtype`: without x64, 64-bit dtypes become 32-bit).
    /// `None` where the framework keeps every dtype it has as it is.
    fn canonicalize_dtype(&self, _dtype: DType) -> Option<DType> {
        None
    }

    /// Whether `input` converts to `output` without the framework's
    /// complaint (JAX's `dtypes.safe_to_cast`). `None` where the policy
    /// does not model it.
    fn safe_to_cast(
        &self,
        _input: Operand,
        _output: DType,
    ) -> Option<Result<bool, PromotionError>> {
        None
    }

    /// The warnings for [`safe_to_cast`](Policy::safe_to_cast), as
    /// [`result_type_warnings`](Policy::result_type_warnings) gives them.
    fn safe_to_cast_warnings(&self, _input: Operand, _output: DType) -> Vec<Warning> {
        Vec::new()
    }
}
