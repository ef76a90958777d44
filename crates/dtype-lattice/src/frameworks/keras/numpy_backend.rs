//! Keras's NumPy backend: its arrays are NumPy's (ml_dtypes' for
//! `bfloat16` and float8), its `convert_to_tensor` is `np.array(x, dtype)`
//! with Keras's `result_type` as the default dtype, and its functions end
//! in NumPy's ufuncs, as the `numpy` policy's model of them answers.

use super::ops::{self, Model, Value};
use super::Keras;
use crate::frameworks::numpy::{check_python_int, ops as ufuncs};
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Op, Operand, OperandKind, PromotionError, TypeSpec};

/// The backend's model.
pub(super) struct NumpyBackend(pub(super) Keras);

impl Model for NumpyBackend {
    fn keras(&self) -> Keras {
        self.0
    }

    fn ones(&self, dtype: DType) -> Result<Value, PromotionError> {
        Ok(Value::ones(dtype))
    }

    /// `convert_to_tensor(x, dtype)`: `np.array(x, dtype)`, where the
    /// dtype of an array or Python scalar given none is Keras's
    /// `result_type` of its own (so a 64-bit array is made 32-bit, and a
    /// float8 one refused). Where the dtype asked for is `bfloat16` (and
    /// `None` asks for floatx), a Python scalar is `np.asarray(x)` cast to
    /// it instead, with `astype(None)` NumPy's float64.
    fn convert(&self, value: Value, dtype: Option<DType>) -> Result<Value, PromotionError> {
        let keras = self.0;
        let scalar = match (value, dtype) {
            (Value::Array { .. }, Some(dtype)) => return Ok(value.as_array(dtype, false)),
            (Value::Array { dtype: own, .. }, None) => {
                let dtype = keras.result_of(&[TypeSpec::DType(own)])?;
                return Ok(value.as_array(dtype, false));
            }
            (Value::Python(scalar), _) => scalar,
        };
        if dtype.unwrap_or(keras.floatx.dtype()) == DType::BFloat16 {
            // `astype(None)` is NumPy's default float.
            let dtype = dtype.unwrap_or(DType::Float64);
            if let OperandKind::PyInt(value) = scalar.kind() {
                readable_by_numpy(value, dtype)?;
            }
            return Ok(value.as_array(dtype, false));
        }
        let dtype = match dtype {
            Some(dtype) => dtype,
            None => keras.result_of(&[value.given()?])?,
        };
        if let OperandKind::PyInt(value) = scalar.kind() {
            check_python_int(value, dtype)?;
        }
        Ok(value.as_array(dtype, false))
    }

    /// `np.<function>(*values)`: on arrays of one dtype (where Keras
    /// converted its operands), the ufunc's loop for that dtype, with the
    /// integer an array was made of where `power` checks it; otherwise
    /// NumPy's own promotion of the arrays and Python scalars.
    fn call(&self, op: Op, values: &[Value]) -> Result<DType, PromotionError> {
        let dtypes: Vec<Option<DType>> = values.iter().map(|v| v.dtype()).collect();
        if let [Some(dtype), rest @ ..] = dtypes.as_slice() {
            if rest.iter().all(|d| d == &Some(*dtype)) {
                let exponent = match values {
                    [_, Value::Array {
                        from: Some(scalar), ..
                    }] => python_int(*scalar),
                    _ => None,
                };
                return ufuncs::call_on(op, *dtype, exponent);
            }
        }
        let mut operands = [Operand::NONE; 2];
        for (slot, value) in operands.iter_mut().zip(values) {
            *slot = match *value {
                Value::Python(scalar) => scalar,
                Value::Array { dtype, .. } => Operand::dtype(dtype),
            };
        }
        ufuncs::call(op, &operands[..values.len()]).map(|typed| typed.dtype)
    }

    fn function(&self, op: Op) -> String {
        format!(
            "np.{} (the numpy policy's loops, and ml_dtypes' own for bfloat16 and float8)",
            ops::rule_of(op).function
        )
    }
}

/// The integer a Python int or bool holds.
fn python_int(scalar: Operand) -> Option<i128> {
    match scalar.kind() {
        OperandKind::PyInt(value) => Some(value),
        OperandKind::PyBool(value) => Some(i128::from(value)),
        _ => None,
    }
}

/// `np.asarray(value).astype(dtype)` of a Python int: NumPy reads a value
/// that fits no 64-bit integer as a Python object, which ml_dtypes'
/// `bfloat16` refuses.
fn readable_by_numpy(value: i128, dtype: DType) -> Result<(), PromotionError> {
    let readable = i64::try_from(value).is_ok() || u64::try_from(value).is_ok();
    if readable || dtype != DType::BFloat16 {
        return Ok(());
    }
    Err(PromotionError::framework(
        ErrorKind::Type,
        "expected number, got int",
    ))
}
