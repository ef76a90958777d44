//! The Python Array API standard's type promotion, as array-api-strict
//! 2.6.1 implements it (API version 2025.12).
//!
//! The standard defines promotion only within a kind: booleans alone,
//! integers (signed and unsigned mix only where a signed type holds both),
//! and floating-point types with complex ones. That is a (partial) lattice,
//! built here with the [lattice engine](crate::engine); promotion across
//! kinds is undefined and array-api-strict refuses it. Python scalars join
//! arrays of their own kind (an `int` also joins floating-point arrays, a
//! `complex` makes a real float array complex) and must fit an integer
//! array's dtype.
//!
//! ```
//! use dtype_lattice::frameworks::array_api::ArrayApi;
//! use dtype_lattice::{DType, Operand, Policy, Typed};
//!
//! let xp = ArrayApi::default();
//! assert_eq!(xp.promote_types(DType::UInt8, DType::Int8), Ok(DType::Int16));
//! let err = xp.promote_types(DType::Int8, DType::Float32).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "array_api_strict.int8 and array_api_strict.float32 cannot be type promoted together"
//! );
//! let x = Operand::dtype(DType::Float32);
//! assert_eq!(xp.result_type(&[x, Operand::py_int(2)]), Ok(Typed::strong(DType::Float32)));
//! let err = xp.result_type(&[Operand::dtype(DType::UInt8), Operand::py_int(300)]).unwrap_err();
//! assert_eq!(err.python_type(), "OverflowError");
//! ```

use std::sync::OnceLock;

use crate::policy::Policy;
use crate::policy::TypedLattice;
use crate::types::DType;
use crate::types::ErrorKind;
use crate::types::PromotionError;
use crate::types::Typed;
use crate::types::{Operand, OperandKind, PyScalar, TypeSpec};

/// The standard's promotion lattice, as "dtype -> dtypes it promotes to".
const LATTICE: &[(&str, &[&str])] = &[
    ("bool", &[]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &[]),
    ("uint8", &["uint16", "int16"]),
    ("uint16", &["uint32", "int32"]),
    ("uint32", &["uint64", "int64"]),
    ("uint64", &[]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("complex64", &["complex128"]),
    ("complex128", &[]),
];

/// The dtypes array-api-strict has: the lattice's nodes.
const DTYPES: [DType; 13] = [
    DType::Bool,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

/// The Array API's promotion rules, as array-api-strict 2.6.1 applies them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArrayApi;

impl ArrayApi {
    /// The promotion of two dtypes (`xp.result_type(a, b)`; the standard has
    /// no `promote_types`). Python's types are not dtypes to
    /// array-api-strict and are refused.
    pub fn promote_types(
        &self,
        a: impl Into<TypeSpec>,
        b: impl Into<TypeSpec>,
    ) -> Result<DType, PromotionError> {
        let (a, b) = (a.into(), b.into());
        // Python looks up both dtypes (`xp.float16` fails) before the call.
        let dtype = |spec| match spec {
            TypeSpec::DType(dtype) => known(dtype).map(Some),
            TypeSpec::Python(_) => Ok(None),
        };
        match (dtype(a)?, dtype(b)?) {
            (Some(a), Some(b)) => self.join(a, b),
            _ => Err(not_an_input()),
        }
    }

    /// `xp.result_type(*operands)`: the arrays' and dtypes' promotion from
    /// left to right, then each Python scalar against the result.
    fn result_dtype(&self, operands: &[Operand]) -> Result<DType, PromotionError> {
        let mut dtypes = Vec::new();
        let mut scalars = Vec::new();
        let mut none = false;
        for operand in operands {
            match operand.kind() {
                OperandKind::DType(dtype) | OperandKind::ZeroDim(dtype) => dtypes.push(dtype),
                OperandKind::Array { dtype, weak: false } => dtypes.push(dtype),
                OperandKind::Array { dtype, weak: true } => {
                    return Err(crate::frameworks::numpy::weak_array(dtype))
                }
                OperandKind::PyType(scalar) => scalars.push((scalar, None)),
                OperandKind::PyInt(value) => scalars.push((PyScalar::Int, Some(value))),
                OperandKind::PyFloat(_) => scalars.push((PyScalar::Float, None)),
                OperandKind::PyComplex { .. } => scalars.push((PyScalar::Complex, None)),
                OperandKind::PyBool(_) => scalars.push((PyScalar::Bool, None)),
                OperandKind::None => none = true,
            }
        }
        // As Python evaluates the arguments: every dtype is looked up first,
        // then result_type rejects what is neither array, dtype nor scalar.
        for &dtype in &dtypes {
            known(dtype)?;
        }
        if none {
            return Err(not_an_input());
        }
        let Some((&first, rest)) = dtypes.split_first() else {
            return Err(PromotionError::Framework {
                kind: ErrorKind::Value,
                message: "at least one array or dtype is required".to_owned(),
            });
        };
        let mut result = rest
            .iter()
            .try_fold(first, |so_far, &dtype| self.join(so_far, dtype))?;
        for (scalar, value) in scalars {
            result = promote_scalar(result, scalar, value)?;
        }
        Ok(result)
    }

    fn join(&self, a: DType, b: DType) -> Result<DType, PromotionError> {
        lattice()
            .join_types(Typed::strong(a), Typed::strong(b))
            .map(|joined| joined.dtype)
            .ok_or_else(|| PromotionError::Framework {
                kind: ErrorKind::Type,
                message: format!(
                    "array_api_strict.{a} and array_api_strict.{b} cannot be type promoted together"
                ),
            })
    }
}

/// A dtype array-api-strict has, or the error looking it up gives.
fn known(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(&dtype) {
        return Ok(dtype);
    }
    Err(PromotionError::no_attribute(
        "array_api_strict",
        dtype.name(),
    ))
}

fn not_an_input() -> PromotionError {
    PromotionError::Framework {
        kind: ErrorKind::Type,
        message: "result_type() inputs must be Array API arrays, dtypes, or scalars".to_owned(),
    }
}

/// A Python scalar against arrays of dtype `dtype`: it must be of a kind
/// the dtype holds, and an int must fit an integer dtype. A complex scalar
/// makes a real float dtype complex.
fn promote_scalar(
    dtype: DType,
    scalar: PyScalar,
    value: Option<i128>,
) -> Result<DType, PromotionError> {
    let type_error = |message: &str| PromotionError::Framework {
        kind: ErrorKind::Type,
        message: message.to_owned(),
    };
    let inexact = dtype.is_inexact();
    match scalar {
        PyScalar::Bool if dtype != DType::Bool => Err(type_error(
            "Python bool scalars can only be promoted with bool arrays",
        )),
        PyScalar::Int if dtype == DType::Bool => Err(type_error(
            "Python int scalars cannot be promoted with bool arrays",
        )),
        PyScalar::Int => {
            let fits = |v: i128| dtype.iinfo().map_or(true, |i| (i.min..=i.max).contains(&v));
            if value.is_none_or(fits) {
                Ok(dtype)
            } else {
                Err(PromotionError::Framework {
                    kind: ErrorKind::Overflow,
                    message: "Python int scalars must be within the bounds of the dtype for \
                              integer arrays"
                        .to_owned(),
                })
            }
        }
        PyScalar::Float if !inexact => Err(type_error(
            "Python float scalars can only be promoted with floating-point arrays.",
        )),
        PyScalar::Complex if !inexact => Err(type_error(
            "Python complex scalars can only be promoted with floating-point arrays.",
        )),
        PyScalar::Complex => Ok(match dtype {
            DType::Float32 => DType::Complex64,
            DType::Float64 => DType::Complex128,
            complex => complex,
        }),
        PyScalar::Bool | PyScalar::Float => Ok(dtype),
    }
}

impl Policy for ArrayApi {
    fn name(&self) -> String {
        "array-api".to_owned()
    }

    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        ArrayApi::promote_types(self, a, b)
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_dtype(operands).map(Typed::strong)
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        Some(lattice())
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(&dtype)
    }
}

/// The promotion table's lattice, each node its dtype. Built once.
fn lattice() -> &'static TypedLattice {
    static LATTICE_ONCE: OnceLock<TypedLattice> = OnceLock::new();
    LATTICE_ONCE.get_or_init(|| {
        TypedLattice::of_dtypes(LATTICE).expect("the Array API lattice is a lattice (tested)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lattice_has_exactly_the_library_dtypes() {
        let lattice = lattice();
        assert_eq!(lattice.len(), DTYPES.len());
        for dtype in DTYPES {
            assert!(lattice.node_of(Typed::strong(dtype)).is_some(), "{dtype}");
        }
    }
}
