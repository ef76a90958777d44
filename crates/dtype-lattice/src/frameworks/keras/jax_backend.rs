//! Keras's JAX backend: its arrays are JAX's without x64, its
//! `convert_to_tensor` is `jnp.asarray`, and its functions end in `jnp`'s,
//! whose result types the `jax` policy answers.

use super::ops::{self, Model, Value};
use super::{Floatx, Keras};
use crate::frameworks::jax::Jax;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Op, Operand, PromotionError};

/// The backend's model.
pub(super) struct JaxBackend(pub(super) Keras);

impl Model for JaxBackend {
    fn keras(&self) -> Keras {
        self.0
    }

    /// `jnp.ones`: x64 is off, so a 64-bit dtype is made 32-bit.
    fn ones(&self, dtype: DType) -> Result<Value, PromotionError> {
        Ok(Value::ones(Jax::default().canonicalize_dtype(dtype)))
    }

    /// `convert_to_tensor(x, dtype)`: an array of that dtype is itself,
    /// another is `jnp.asarray(x, dtype)`. A Python scalar is
    /// `jnp.asarray(x)` (weak, but for a `bool`), or where the dtype asked
    /// for is `bfloat16` (and `None` asks for floatx) `jnp.asarray(x)`
    /// cast to it, where `astype(None)` is JAX's default float.
    fn convert(&self, value: Value, dtype: Option<DType>) -> Result<Value, PromotionError> {
        let jax = Jax::default();
        let scalar = match value {
            Value::Array { dtype: own, .. } => {
                return Ok(match dtype {
                    Some(dtype) if dtype != own => {
                        value.as_array(jax.canonicalize_dtype(dtype), false)
                    }
                    _ => value,
                });
            }
            Value::Python(scalar) => scalar,
        };
        if scalar.is_none() {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                "None is not a valid value for jnp.array",
            ));
        }
        let made = jax.asarray(scalar)?;
        Ok(match dtype {
            None if self.0.floatx == Floatx::BFloat16 => value.as_array(DType::Float32, false),
            None => value.as_array(made.dtype, made.weak),
            Some(dtype) => value.as_array(jax.canonicalize_dtype(dtype), false),
        })
    }

    /// `jnp.<function>(*values)`. An array that is what `jnp.asarray`
    /// makes of a Python scalar (zero-dimensional, weakly typed) is to
    /// `jnp`'s functions that scalar itself, which they would make into
    /// the same array; so the scalar stands for it.
    fn call(&self, op: Op, values: &[Value]) -> Result<DType, PromotionError> {
        let jax = Jax::default();
        let operand = |value: &Value| match *value {
            Value::Python(scalar) => scalar,
            Value::Array {
                dtype,
                weak,
                from: Some(scalar),
            } => {
                let made = jax.asarray(scalar);
                if made.is_ok_and(|made| made.dtype == dtype && made.weak == weak) {
                    scalar
                } else {
                    Operand::zero_dim(dtype)
                }
            }
            Value::Array { dtype, .. } => Operand::array(dtype, false),
        };
        let mut operands = [Operand::NONE; 2];
        for (slot, value) in operands.iter_mut().zip(values) {
            *slot = operand(value);
        }
        jax.operation(op, &operands[..values.len()])
            .map(|typed| typed.dtype)
    }

    fn function(&self, op: Op) -> String {
        format!("jnp.{} (the jax policy's rule)", ops::rule_of(op).function)
    }
}
