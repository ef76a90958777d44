//! TensorFlow's auto dtype conversion (`flexible_dtypes.result_type`),
//! which NumPy behaviour's modes safe and all promote by: a lattice over
//! fifteen dtypes and five weak types, joined from left to right, mode
//! safe refusing a join that loses values.

use crate::once::Once;

use super::{python_bool, Mode, TensorFlow, Value};
use crate::policy::TypedLattice;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, Kind, PromotionError, Typed};

/// The auto dtype conversion lattice, as "type -> types it promotes to".
/// `weak:int32` and so on are the weak types of Python scalars and
/// `WeakTensor`s; a weak float64 sits below every float, which is why an
/// integer with a Python float gives a weak float64.
const LATTICE: &[(&str, &[&str])] = &[
    ("bool", &["weak:int32"]),
    ("weak:int32", &["weak:int64"]),
    ("weak:int64", &["uint8", "int8", "weak:float32"]),
    ("uint8", &["uint16", "int16"]),
    ("uint16", &["uint32", "int32"]),
    ("uint32", &["uint64", "int64"]),
    ("uint64", &["weak:float64"]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &["weak:float64"]),
    ("weak:float32", &["weak:float64"]),
    ("weak:float64", &["bfloat16", "float16", "weak:complex128"]),
    ("bfloat16", &["float32"]),
    ("float16", &["float32"]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("weak:complex128", &["complex64"]),
    ("complex64", &["complex128"]),
    ("complex128", &[]),
];

impl TensorFlow {
    /// `flexible_dtypes.result_type`: every operand's (dtype, weak) first
    /// (a Python int must fit int32), then the fold.
    pub(super) fn auto_result_type(&self, values: &[Value]) -> Result<Typed, PromotionError> {
        let typed = values
            .iter()
            .filter(|value| **value != Value::None)
            .map(|&value| auto_typed(value))
            .collect::<Result<Vec<_>, _>>()?;
        let Some((&first, rest)) = typed.split_first() else {
            return Ok(Typed::weak(DType::Float32));
        };
        rest.iter()
            .try_fold(first, |so_far, &next| self.join(so_far, next))
    }

    /// One step of the fold: the lattice's join, refused in mode safe
    /// unless it loses nothing.
    fn join(&self, a: Typed, b: Typed) -> Result<Typed, PromotionError> {
        let joined = lattice().join_types(a, b).ok_or_else(|| {
            PromotionError::framework(
                ErrorKind::NotImplemented,
                format!(
                    "Implicit Conversion between <dtype: '{}'> and <dtype: '{}'> is not \
                     allowed. Please convert the input manually if you need to.",
                    a.dtype, b.dtype
                ),
            )
        })?;
        if self.mode == Mode::Safe && !is_safe(a, b, joined.dtype) {
            return Err(PromotionError::framework(
                ErrorKind::Type,
                format!(
                    "In promotion mode PromoMode.SAFE, implicit dtype promotion between \
                     (<dtype: '{}'>, weak={}) and (<dtype: '{}'>, weak={}) is disallowed. You \
                     need to explicitly specify the dtype in your op, or relax your dtype \
                     promotion rules (such as from SAFE mode to ALL mode).",
                    a.dtype,
                    python_bool(a.weak),
                    b.dtype,
                    python_bool(b.weak)
                ),
            ));
        }
        Ok(joined)
    }
}

/// The lattice label of a typed value: `weak:int32` for a weak one.
/// The auto dtype conversion lattice (both NumPy modes join on it), its
/// `weak:` nodes standing for weak values of their dtypes. Built once.
pub(super) fn lattice() -> &'static TypedLattice {
    static LATTICE_ONCE: Once<TypedLattice> = Once::new();
    LATTICE_ONCE.get_or_init(|| {
        TypedLattice::from_dict(LATTICE, |label| {
            Some(match label.strip_prefix("weak:") {
                Some(name) => Typed::weak(DType::from_name(name).ok()?),
                None => Typed::strong(DType::from_name(label).ok()?),
            })
        })
        .expect("TensorFlow's table is a lattice (tested)")
    })
}

pub(super) fn auto_typed(value: Value) -> Result<Typed, PromotionError> {
    Ok(match value {
        Value::Tensor { dtype, weak } => Typed { dtype, weak },
        Value::Int(value) => {
            if i32::try_from(value).is_err() {
                return Err(PromotionError::framework(
                    ErrorKind::Overflow,
                    format!("Python int {value} too large to convert to np.int32"),
                ));
            }
            Typed::weak(DType::Int32)
        }
        Value::Float(_) => Typed::weak(DType::Float32),
        Value::Complex { .. } => Typed::weak(DType::Complex128),
        Value::Bool(_) | Value::None => Typed::strong(DType::Bool),
    })
}

/// Mode safe allows a join that is one of the operands' own dtypes and
/// that every strongly-typed operand converts to exactly.
fn is_safe(a: Typed, b: Typed, joined: DType) -> bool {
    (a.dtype == joined || b.dtype == joined)
        && [a, b]
            .iter()
            .all(|t| t.weak || holds_exactly(joined, t.dtype))
}

/// Whether every value of `from` is a value of `to`.
fn holds_exactly(to: DType, from: DType) -> bool {
    if from == to || from == DType::Bool {
        return true;
    }
    match (from.iinfo(), to.iinfo(), to.finfo()) {
        (Ok(from), Ok(to), _) => to.min <= from.min && from.max <= to.max,
        // An integer converts exactly when the significand holds it.
        (Ok(from), Err(_), Ok(to)) => from.max <= 1_i128 << (to.nmant + 1),
        (Err(_), _, Ok(to_info)) => {
            let Ok(from_info) = from.finfo() else {
                return false;
            };
            (from.kind() != Kind::Complex || to.kind() == Kind::Complex)
                && from_info.nmant <= to_info.nmant
                && from_info.maxexp <= to_info.maxexp
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::tensorflow::WEAK_DTYPES;

    #[test]
    fn the_lattice_has_fifteen_dtypes_and_five_weak_types() {
        let lattice = lattice();
        assert_eq!(lattice.len(), 20);
        for dtype in WEAK_DTYPES.iter() {
            assert!(lattice.node_of(Typed::weak(dtype)).is_some(), "{dtype}");
        }
        assert_eq!(
            lattice
                .types()
                .iter()
                .filter(|t| t.is_some_and(|t| t.weak))
                .count(),
            5
        );
    }

    #[test]
    fn exact_conversions_follow_the_formats() {
        assert!(holds_exactly(DType::BFloat16, DType::UInt8));
        assert!(!holds_exactly(DType::BFloat16, DType::Int16));
        assert!(holds_exactly(DType::Float64, DType::UInt32));
        assert!(!holds_exactly(DType::Float64, DType::Int64));
        assert!(!holds_exactly(DType::Float16, DType::BFloat16));
        assert!(holds_exactly(DType::Complex64, DType::Float32));
        assert!(!holds_exactly(DType::Float64, DType::Complex64));
        assert!(!holds_exactly(DType::Int64, DType::UInt64));
    }
}
