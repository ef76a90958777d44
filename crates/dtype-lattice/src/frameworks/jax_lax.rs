//! `jax.lax.add`: JAX's primitives promote nothing.
//!
//! `lax.add` takes two arrays of one dtype. A Python scalar becomes a
//! weakly-typed array of JAX's default dtype of its kind (so `lax.add(x, 2)`
//! fails for an `int8` array `x`), and the result is weak only when both
//! operands are. Arrays exist under a configuration: with x64 off a 64-bit
//! dtype is its 32-bit counterpart, as `jnp.zeros(2, jnp.int64)` makes it.
//!
//! ```
//! use dtype_lattice::frameworks::jax::Config;
//! use dtype_lattice::frameworks::jax_lax::JaxLax;
//! use dtype_lattice::{DType, Operand, Policy, Typed};
//!
//! let lax = JaxLax::new(Config::default());
//! let x = Operand::dtype(DType::Int8);
//! assert_eq!(lax.add(&[x, x]).unwrap(), Ok(Typed::strong(DType::Int8)));
//! assert_eq!(lax.add(&[Operand::py_int(2), Operand::py_int(3)]).unwrap(), Ok(Typed::weak(DType::Int32)));
//! let err = lax.add(&[x, Operand::py_int(2)]).unwrap().unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "lax.add requires arguments to have the same dtypes, got int8, int32. (Tip: jnp.add is \
//!      a similar function that does automatic type promotion on inputs)."
//! );
//! ```

use crate::frameworks::jax::{Config, Jax};
use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::types::DType;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{Operand, OperandKind, TypeSpec};

/// `jax.lax.add` under JAX's x64 setting (the promotion setting does not
/// matter: lax promotes nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct JaxLax {
    jax: Jax,
}

impl JaxLax {
    /// lax under `config`.
    pub fn new(config: Config) -> JaxLax {
        JaxLax {
            jax: Jax::new(config),
        }
    }

    /// The dtype and weak flag of `jax.lax.add(a, b)`.
    fn add_pair(&self, a: Operand, b: Operand) -> Result<Typed, PromotionError> {
        self.result_type(&[a, b])
    }

    /// The array JAX makes of an operand at `position`.
    fn array(&self, operand: &Operand, position: usize) -> Result<Typed, PromotionError> {
        match operand.kind() {
            OperandKind::DType(dtype) | OperandKind::ZeroDim(dtype) => {
                Ok(Typed::strong(self.jax.canonicalize_dtype(dtype)))
            }
            OperandKind::Array { dtype, weak } => Ok(Typed {
                dtype: self.jax.canonicalize_dtype(dtype),
                weak,
            }),
            OperandKind::None => Err(type_error(format!(
                "Error interpreting argument to add as a JAX value. The problematic value is of \
                 type <class 'NoneType'> and was passed to add at position {position}.\n"
            ))),
            _ => self.jax.asarray(*operand),
        }
    }
}

fn type_error(message: String) -> PromotionError {
    PromotionError::Framework {
        kind: ErrorKind::Type,
        message,
    }
}

/// Python's errors for calling `add(x, y)` with the wrong count.
fn arity(count: usize) -> PromotionError {
    type_error(match count {
        0 => "add() missing 2 required positional arguments: 'x' and 'y'".to_owned(),
        1 => "add() missing 1 required positional argument: 'y'".to_owned(),
        n => format!("add() takes 2 positional arguments but {n} were given"),
    })
}

impl Policy for JaxLax {
    fn name(&self) -> String {
        let x64 = if self.jax.config().x64 {
            "x64"
        } else {
            "x64 off"
        };
        format!("jax-lax ({x64})")
    }

    /// Two dtypes "promote" only to themselves: `lax.add` on arrays of
    /// them (Python's types as scalars of them).
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        self.add_pair(a.into(), b.into()).map(|typed| typed.dtype)
    }

    /// `lax.add(*operands)`: two operands of one dtype.
    ///
    /// ```
    /// use dtype_lattice::frameworks::jax::Config;
    /// use dtype_lattice::frameworks::jax_lax::JaxLax;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let lax = JaxLax::new(Config::default());
    /// let err = lax.result_type(&[Operand::dtype(DType::Bool); 2]).unwrap_err();
    /// assert!(err.to_string().starts_with("add does not accept dtype bool at position 0."));
    /// ```
    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let [a, b] = operands else {
            return Err(arity(operands.len()));
        };
        let arrays = [self.array(a, 0)?, self.array(b, 1)?];
        for (position, array) in arrays.iter().enumerate() {
            if array.dtype == DType::Bool {
                return Err(type_error(format!(
                    "add does not accept dtype bool at position {position}. Accepted dtypes at \
                     position {position} are subtypes of integer, floating, complexfloating."
                )));
            }
        }
        let [a, b] = arrays;
        if a.dtype != b.dtype {
            return Err(type_error(format!(
                "lax.add requires arguments to have the same dtypes, got {}, {}. (Tip: jnp.add \
                 is a similar function that does automatic type promotion on inputs).",
                a.dtype, b.dtype
            )));
        }
        Ok(Typed {
            dtype: a.dtype,
            weak: a.weak && b.weak,
        })
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn add(&self, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(JaxLax::result_type(self, operands))
    }
}
