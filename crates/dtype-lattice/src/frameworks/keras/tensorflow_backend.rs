//! Keras's TensorFlow backend: its arrays are eager tensors, its
//! `convert_to_tensor` is `tf.convert_to_tensor` (for an integer or `bool`
//! dtype, without the dtype and then `tf.cast`), and its functions end in
//! TensorFlow's, whose conversions and kernels the `tensorflow` policy
//! models (NumPy behaviour off: Keras promotes before it calls them).

use super::ops::{Model, Value};
use super::Keras;
use crate::frameworks::tensorflow::{self as tf, call_plain, function_name, to_tensor};
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Op, Operand, PromotionError};

/// The backend's model.
pub(super) struct TensorFlowBackend(pub(super) Keras);

impl Model for TensorFlowBackend {
    fn keras(&self) -> Keras {
        self.0
    }

    /// `keras.ops.ones((2,), dtype)`: TensorFlow makes the ones as int64
    /// and casts them, and its `Cast` kernel has no int64 to float8.
    fn ones(&self, dtype: DType) -> Result<Value, PromotionError> {
        if matches!(dtype, DType::Float8E4M3Fn | DType::Float8E5M2) {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "Error while casting from dtype int64 to {dtype}. {{{{function_node \
                     __wrapped__Cast_device_/job:localhost/replica:0/task:0/device:CPU:0}}}} \
                     Cast int64 to {dtype} is not supported"
                ),
            ));
        }
        Ok(Value::ones(dtype))
    }

    /// `convert_to_tensor(x, dtype)`: a tensor cast where the dtype
    /// differs; a Python scalar converted by TensorFlow, to an integer or
    /// `bool` dtype by way of its own default dtype and a cast ("it does
    /// not allow ints for bools or floats for ints").
    fn convert(&self, value: Value, dtype: Option<DType>) -> Result<Value, PromotionError> {
        match (value, dtype) {
            (Value::Array { .. }, Some(dtype)) => Ok(value.as_array(dtype, false)),
            (Value::Array { .. }, None) => Ok(value),
            (Value::Python(_), Some(dtype)) if dtype == DType::Bool || dtype.is_integer() => {
                self.cast(value, dtype)
            }
            (Value::Python(scalar), _) => {
                let made = to_tensor(scalar_value(scalar), dtype)?;
                Ok(value.as_array(made, false))
            }
        }
    }

    /// `tf.cast(x, dtype)`, which converts a Python scalar to its default
    /// dtype first.
    fn cast(&self, value: Value, dtype: DType) -> Result<Value, PromotionError> {
        if let Value::Python(scalar) = value {
            to_tensor(scalar_value(scalar), None)?;
        }
        Ok(value.as_array(dtype, false))
    }

    /// TensorFlow's function on the values as they are (a tensor holds
    /// the Python scalar it was made of, whose value `Pow`, `FloorDiv` and
    /// `FloorMod` check).
    fn call(&self, op: Op, values: &[Value]) -> Result<DType, PromotionError> {
        let mut args = [tf::Value::None; 2];
        let mut held = [tf::Value::None; 2];
        for ((arg, held), value) in args.iter_mut().zip(held.iter_mut()).zip(values) {
            (*arg, *held) = match *value {
                Value::Python(scalar) => (scalar_value(scalar), scalar_value(scalar)),
                Value::Array { dtype, from, .. } => {
                    let tensor = tf::Value::Tensor { dtype, weak: false };
                    (tensor, from.map_or(tensor, scalar_value))
                }
            };
        }
        call_plain(op, &args[..values.len()], &held[..values.len()])
    }

    fn function(&self, op: Op) -> String {
        format!("{} (the tensorflow policy's rule)", function_name(op))
    }
}

/// A Python scalar (or `None`) as TensorFlow sees it.
fn scalar_value(scalar: Operand) -> tf::Value {
    tf::Value::python(scalar).unwrap_or(tf::Value::None)
}
