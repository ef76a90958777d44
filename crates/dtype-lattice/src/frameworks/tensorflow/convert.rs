//! How TensorFlow makes a tensor of a Python scalar: its C++
//! `ConvertToEagerTensor`, which the eager fast path calls directly and
//! `tf.constant` / `tf.convert_to_tensor` call from Python.
//!
//! Without a requested dtype a scalar takes its default: `bool`, `int32`
//! (`int64` past int32), `float32`, `complex128`. With one, the scalar
//! converts directly where TensorFlow has a converter for that dtype
//! ([`direct`]); otherwise it becomes a tensor of its inferred dtype
//! (`bool`, `int64`, `float64`, `complex128`) and is cast, where the two
//! dtypes are compatible (`IsCompatible`: integer to integer, to a float or
//! to a complex) and the CPU `Cast` kernel has the pair ([`casts`]).
//! Anything else is the `TypeError` "Cannot convert 2.5 to EagerTensor of
//! dtype int32".

use super::kernels::cpp_name;
use super::Value;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, PromotionError};

/// The dtype of the tensor `value` becomes, `requested` or its default.
pub(crate) fn to_tensor(value: Value, requested: Option<DType>) -> Result<DType, PromotionError> {
    let Some(want) = requested else {
        return default_dtype(value);
    };
    if let Value::Tensor { dtype, .. } = value {
        return Ok(dtype);
    }
    if direct(value, want) {
        return Ok(want);
    }
    let inferred = match value {
        Value::Bool(_) => DType::Bool,
        Value::Int(value) if i64::try_from(value).is_ok() => DType::Int64,
        Value::Int(_) => return Err(out_of_range()),
        Value::Float(_) => DType::Float64,
        Value::Complex { .. } => DType::Complex128,
        Value::None | Value::Tensor { .. } => return Err(unconvertible_none()),
    };
    if !compatible(want, inferred) {
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "Cannot convert {} to EagerTensor of dtype {}",
                value.repr(),
                cpp_name(want)
            ),
        ));
    }
    if !casts(inferred, want) {
        let (from, to) = (cpp_name(inferred), cpp_name(want));
        return Err(PromotionError::framework(
            ErrorKind::Type,
            format!(
                "Error while casting from dtype {from} to {to}. {{{{function_node \
                 __wrapped__Cast_device_/job:localhost/replica:0/task:0/device:CPU:0}}}} Cast \
                 {from} to {to} is not supported"
            ),
        ));
    }
    Ok(want)
}

/// The default dtype of a value made a tensor on its own.
fn default_dtype(value: Value) -> Result<DType, PromotionError> {
    Ok(match value {
        Value::Tensor { dtype, .. } => dtype,
        Value::Bool(_) => DType::Bool,
        Value::Int(value) if i32::try_from(value).is_ok() => DType::Int32,
        Value::Int(value) if i64::try_from(value).is_ok() => DType::Int64,
        Value::Int(_) => return Err(out_of_range()),
        // float32's converter refuses a finite value it cannot hold, with
        // the message of the double one.
        Value::Float(value) if value.is_finite() && value.abs() > f64::from(f32::MAX) => {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                "Can't convert Python sequence with a value out of range for a double-precision \
                 float."
                    .to_owned(),
            ))
        }
        Value::Float(_) => DType::Float32,
        Value::Complex { .. } => DType::Complex128,
        Value::None => return Err(unconvertible_none()),
    })
}

/// Whether TensorFlow converts `value` to `dtype` with a converter of its
/// own (`PySeqToTFE_TensorHandle`): `bool` takes only booleans; int32,
/// int64 and uint64 the integers they hold (and booleans); the three
/// floats numbers that are not complex; complex128 every number.
fn direct(value: Value, dtype: DType) -> bool {
    use DType::*;
    match value {
        Value::Bool(_) => matches!(
            dtype,
            Bool | Int32 | Int64 | UInt64 | Float16 | Float32 | Float64 | Complex128
        ),
        Value::Int(value) => match dtype {
            Int32 => i32::try_from(value).is_ok(),
            Int64 => i64::try_from(value).is_ok(),
            UInt64 => u64::try_from(value).is_ok(),
            Float16 | Float32 | Float64 | Complex128 => true,
            _ => false,
        },
        Value::Float(_) => matches!(dtype, Float16 | Float32 | Float64 | Complex128),
        Value::Complex { .. } => dtype == Complex128,
        Value::Tensor { .. } | Value::None => false,
    }
}

/// TensorFlow's `IsCompatible(desired, returned)`: whether a tensor of
/// `returned` may be cast to `desired` in a conversion.
fn compatible(desired: DType, returned: DType) -> bool {
    let integer = |d: DType| matches!(d.kind(), Kind::Signed | Kind::Unsigned);
    desired == returned
        || match desired.kind() {
            Kind::Signed | Kind::Unsigned => integer(returned),
            Kind::Float => integer(returned) || returned.kind() == Kind::Float,
            Kind::Complex => returned.kind() != Kind::Bool,
            Kind::Bool => false,
        }
}

/// Whether TensorFlow's CPU `Cast` kernel casts `from` to `to` (measured:
/// `tf.cast` between every pair of TensorFlow's dtypes). The fifteen
/// dtypes of auto dtype conversion cast among themselves; int4 and uint4
/// cast only to and from the integers; float8_e4m3fn and float8_e5m2 from
/// the floats and to every one of the fifteen; the other narrow dtypes not
/// at all.
pub(super) fn casts(from: DType, to: DType) -> bool {
    use DType::*;
    let standard = |d: DType| super::LATTICE_DTYPES.contains(d);
    let integer = |d: DType| {
        matches!(d.kind(), Kind::Signed | Kind::Unsigned)
            && (standard(d) || matches!(d, Int4 | UInt4))
    };
    let nibble = |d: DType| matches!(d, Int4 | UInt4);
    let float8 = |d: DType| matches!(d, Float8E4M3Fn | Float8E5M2);
    from == to
        || (standard(from) && standard(to))
        || ((nibble(from) || nibble(to)) && integer(from) && integer(to))
        || (float8(to) && (float8(from) || matches!(from, BFloat16 | Float16 | Float32 | Float64)))
        || (float8(from) && (standard(to) || float8(to)))
}

/// `tf.convert_to_tensor(None)`'s error.
pub(super) fn unconvertible_none() -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        "Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a \
         Tensor."
            .to_owned(),
    )
}

/// A Python int that no converter holds.
pub(super) fn out_of_range() -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        "Can't convert Python sequence with out-of-range integer to Tensor.".to_owned(),
    )
}

/// TensorFlow 2.21's conversion of a negative Python int to uint64 fails in
/// its C code but leaves Python's `OverflowError` set, which Python then
/// reports as this `SystemError`.
pub(super) fn negative_to_uint64() -> PromotionError {
    PromotionError::framework(
        ErrorKind::System,
        "<class 'tensorflow.python.framework.ops.EagerTensor'> returned a result with an \
         exception set"
            .to_owned(),
    )
}

/// `convert_to_tensor(tensor, dtype)` of a tensor of another dtype, which
/// prints the tensor: the golden data's, shape `(2,)`, ones.
/// `prefix` is what a conversion with a `name` puts first (`x: `).
pub(super) fn requested_dtype(prefix: &str, requested: DType, dtype: DType) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        format!(
            "{prefix}Tensor conversion requested dtype {requested} for Tensor with dtype {dtype}: \
             <tf.Tensor: shape=(2,), dtype={dtype}, numpy={}>",
            numpy_ones(dtype)
        ),
    )
}

/// NumPy's repr of `np.ones(2, dtype)` (with ml_dtypes' types): the
/// default dtypes (int64, float64, complex128) without `dtype=`, ml_dtypes'
/// floats printed as integers, their 8- and 4-bit ones with the name
/// quoted.
fn numpy_ones(dtype: DType) -> String {
    let ones = match dtype.kind() {
        Kind::Bool => "[ True,  True]",
        Kind::Complex => "[1.+0.j, 1.+0.j]",
        Kind::Float if !dtype.is_ml_dtypes() => "[1., 1.]",
        _ => "[1, 1]",
    };
    match dtype {
        DType::Bool | DType::Int64 | DType::Float64 | DType::Complex128 => format!("array({ones})"),
        _ if dtype.is_small_float() => format!("array({ones}, dtype='{dtype}')"),
        _ => format!("array({ones}, dtype={dtype})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_convert_directly_or_by_a_cast() {
        assert_eq!(
            to_tensor(Value::Int(300), Some(DType::UInt8)),
            Ok(DType::UInt8)
        );
        assert_eq!(to_tensor(Value::Int(2), Some(DType::Int4)), Ok(DType::Int4));
        assert_eq!(
            to_tensor(Value::Float(2.5), Some(DType::BFloat16)),
            Ok(DType::BFloat16)
        );
        assert_eq!(to_tensor(Value::Int(2), None), Ok(DType::Int32));
        assert_eq!(to_tensor(Value::Int(1 << 40), None), Ok(DType::Int64));
        let refused = [
            (Value::Bool(true), DType::Int8, "Cannot convert True"),
            (Value::Float(2.5), DType::Int32, "Cannot convert 2.5"),
            (
                Value::Int(2),
                DType::UInt2,
                "Cast int64 to uint2 is not supported",
            ),
            (
                Value::Float(2.5),
                DType::Float8E4M3Fnuz,
                "Cast double to float8_e4m3fnuz",
            ),
        ];
        for (value, dtype, text) in refused {
            let message = to_tensor(value, Some(dtype)).unwrap_err().to_string();
            assert!(message.contains(text), "{message}");
        }
    }

    #[test]
    fn casts_follow_the_measured_kernels() {
        assert!(casts(DType::Int64, DType::UInt4));
        assert!(!casts(DType::Int64, DType::Float8E4M3Fn));
        assert!(casts(DType::Float64, DType::Float8E4M3Fn));
        assert!(casts(DType::Float8E5M2, DType::Complex64));
        assert!(!casts(DType::Complex128, DType::Float8E5M2));
        assert!(!casts(DType::Bool, DType::Int4));
        assert!(!casts(DType::Int8, DType::Int2));
    }
}
