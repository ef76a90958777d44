//! The one interface every framework's promotion rules implement.
//!
//! A [`Policy`] answers the two questions array code asks: what do two types
//! promote to ([`Policy::promote_types`]), and what type does an operation on
//! these operands produce ([`Policy::result_type`]). Policies whose rules are
//! a lattice also expose it, so generic tools (tables, checks, drawings) work
//! on any of them.
//!
//! ```
//! use dtype_lattice::jax::{Config, Jax};
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

use std::fmt;

use crate::dtype::DType;
use crate::error::PromotionError;
use crate::jax::{Config, Jax};
use crate::lattice::Lattice;
use crate::operand::{Operand, TypeSpec};
use crate::tensorflow::{Mode, TensorFlow};

/// A result type: a dtype and JAX's weak flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Typed {
    /// The dtype.
    pub dtype: DType,
    /// Whether the value is weakly typed (promotes like a Python scalar).
    pub weak: bool,
}

impl Typed {
    /// A strongly-typed result.
    pub const fn strong(dtype: DType) -> Typed {
        Typed { dtype, weak: false }
    }

    /// A weakly-typed result.
    pub const fn weak(dtype: DType) -> Typed {
        Typed { dtype, weak: true }
    }
}

impl fmt::Display for Typed {
    /// The dtype name, followed by ` (weak)` for a weak result.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dtype)?;
        if self.weak {
            write!(f, " (weak)")?;
        }
        Ok(())
    }
}

/// A framework's type promotion rules.
pub trait Policy {
    /// A short name for the policy and its settings, e.g. `jax (x64, strict)`.
    fn name(&self) -> String;

    /// The type two types promote to.
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError>;

    /// The type an operation on these operands produces.
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError>;

    /// The lattice the rules join on, for policies defined by one. Its nodes
    /// are labelled with dtype names and, for weak types, `i*`, `f*`, `c*`.
    fn lattice(&self) -> Option<&Lattice>;

    /// Whether the framework defines `dtype` itself. NumPy has bfloat16 and
    /// the other small types only through the ml_dtypes package; comparing a
    /// policy that has a dtype with one that does not counts every cell with
    /// it as a difference, as JAX's documentation does for bfloat16 ("NumPy
    /// has none").
    fn is_native(&self, _dtype: DType) -> bool {
        true
    }

    /// The type the framework's addition of `operands` produces, where the
    /// policy models that operation (NumPy's `np.add`, `tf.add`,
    /// `jax.lax.add`): it can differ from [`result_type`](Policy::result_type)
    /// by the operation's own checks (a value out of range, a dtype with no
    /// kernel). `None` where the policy does not model it.
    fn add(&self, _operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        None
    }

    /// Whether the framework casts `from` to `to` safely (NumPy's
    /// `np.can_cast(from, to, casting="safe")`). `None` where the policy
    /// does not model casting.
    fn can_cast(&self, _from: DType, _to: DType) -> Option<bool> {
        None
    }
}

/// The names [`by_name`] knows, in the order tools list them.
pub const POLICY_NAMES: &[&str] = &[
    "jax",
    "numpy",
    "numpy-legacy",
    "array-api",
    "torch",
    "tensorflow",
    "tensorflow-safe",
    "tensorflow-all",
    "jax-lax",
];

/// The policy with this name. `config` carries JAX's settings (x64 and
/// strict promotion); `jax-lax` reads x64, the other policies ignore it.
///
/// ```
/// use dtype_lattice::jax::Config;
/// use dtype_lattice::policy::by_name;
///
/// let jax = by_name("jax", Config::default()).unwrap();
/// assert_eq!(jax.name(), "jax (x64 off, standard)");
/// let err = by_name("jaxx", Config::default()).err().unwrap();
/// assert!(err.to_string().starts_with("unknown policy 'jaxx': did you mean 'jax'? (known: jax, "));
/// let err = by_name("tensorflwo-all", Config::default()).err().unwrap();
/// assert!(err.to_string().starts_with("unknown policy 'tensorflwo-all': did you mean 'tensorflow-all'?"));
/// ```
pub fn by_name(name: &str, config: Config) -> Result<Box<dyn Policy>, UnknownPolicy> {
    match name {
        "jax" => Ok(Box::new(Jax::new(config))),
        "numpy" => Ok(Box::new(crate::numpy::Numpy)),
        "numpy-legacy" => Ok(Box::new(crate::numpy::NumpyLegacy)),
        "array-api" => Ok(Box::new(crate::array_api::ArrayApi)),
        "torch" => Ok(Box::new(crate::torch::Torch)),
        "tensorflow" => Ok(Box::new(TensorFlow::new(Mode::Off))),
        "tensorflow-safe" => Ok(Box::new(TensorFlow::new(Mode::Safe))),
        "tensorflow-all" => Ok(Box::new(TensorFlow::new(Mode::All))),
        "jax-lax" => Ok(Box::new(crate::jax_lax::JaxLax::new(config))),
        _ => Err(UnknownPolicy {
            name: name.to_owned(),
        }),
    }
}

/// A policy name [`by_name`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy {
    name: String,
}

impl fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown policy '{}'", self.name.escape_debug())?;
        if let Some(known) = crate::dtype::nearest(&self.name, POLICY_NAMES.iter().copied()) {
            write!(f, ": did you mean '{known}'?")?;
        }
        write!(f, " (known: {})", POLICY_NAMES.join(", "))
    }
}

impl std::error::Error for UnknownPolicy {}
