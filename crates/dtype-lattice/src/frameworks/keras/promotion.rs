//! `keras.backend.result_type`: Keras's lattice, joined, then changed
//! twice (weak results take floatx's precision, 64-bit results are cut to
//! 32 bits), as `keras/src/backend/common/dtypes.py` writes it.

use crate::once::Once;

use super::Keras;
use crate::engine::Lattice;
use crate::frameworks::common::DTypeSet;
use crate::prelude::*;
use crate::types::{DType, ErrorKind, PromotionError, PyScalar, TypeSpec};
use crate::types::{Operand, OperandKind};

/// `_type_promotion_lattice()`, "dtype -> dtypes it promotes to"; `int` and
/// `float` are its weak types.
pub(super) const LATTICE: &[(&str, &[&str])] = &[
    ("bool", &["int"]),
    ("uint8", &["int16", "uint16"]),
    ("uint16", &["int32", "uint32"]),
    ("uint32", &["int64", "uint64"]),
    ("uint64", &["float"]),
    ("int", &["uint8", "int8", "complex64"]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &["float"]),
    ("float", &["bfloat16", "float16"]),
    ("bfloat16", &["float32"]),
    ("float16", &["float32"]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("complex64", &["complex128"]),
    ("complex128", &[]),
];

/// The dtypes Keras has (`ALLOWED_DTYPES` but `string`): the lattice's and
/// the two float8 types, which promote with nothing.
pub(super) const DTYPES: DTypeSet = DTypeSet::of(&[
    DType::Bool,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::Float8E4M3Fn,
    DType::Float8E5M2,
    DType::BFloat16,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
]);

pub(super) const FLOAT8: DTypeSet = DTypeSet::of(&[DType::Float8E4M3Fn, DType::Float8E5M2]);

/// A node of Keras's lattice or where `result_type` stops before it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Input {
    DType(DType),
    WeakInt,
    WeakFloat,
}

impl Keras {
    /// The dtype `result_type` gives Python's `complex`.
    pub(super) fn python_complex(self) -> DType {
        match self.backend {
            super::Backend::TensorFlow => DType::Complex128,
            _ => DType::Complex64,
        }
    }

    /// `BIT64_TO_BIT32_DTYPE`: how `result_type` cuts a 64-bit result.
    pub(super) fn cut(self, dtype: DType) -> DType {
        let tensorflow = self.backend == super::Backend::TensorFlow;
        match dtype {
            DType::Int64 if !tensorflow => DType::Int32,
            DType::Float64 if !tensorflow => DType::Float32,
            DType::UInt64 => DType::UInt32,
            DType::Complex128 => DType::Complex64,
            other => other,
        }
    }

    /// `standardize_dtype` and the weak flag of one input.
    fn input(self, operand: &Operand) -> Result<Input, PromotionError> {
        Ok(match operand.kind() {
            OperandKind::DType(dtype)
            | OperandKind::ZeroDim(dtype)
            | OperandKind::Array { dtype, .. } => Input::DType(keras_dtype(dtype)?),
            OperandKind::PyType(scalar) => self.python_input(scalar),
            OperandKind::None => Input::DType(self.floatx.dtype()),
            _ => return Err(invalid_dtype(&operand.to_string())),
        })
    }

    /// Where `result_type` puts one of Python's types.
    fn python_input(self, scalar: PyScalar) -> Input {
        match scalar {
            PyScalar::Int => Input::WeakInt,
            PyScalar::Float => Input::WeakFloat,
            PyScalar::Complex => Input::DType(self.python_complex()),
            PyScalar::Bool => Input::DType(DType::Bool),
        }
    }

    /// `keras.backend.result_type(*operands)`, the operands given as a
    /// caller writes them (a dtype's name, Python's types, `None`).
    pub(super) fn result_dtype(self, operands: &[Operand]) -> Result<DType, PromotionError> {
        if operands.is_empty() {
            return Ok(self.floatx.dtype());
        }
        for operand in operands {
            if let OperandKind::Array { dtype, weak: true } = operand.kind() {
                return Err(crate::frameworks::numpy::weak_array(dtype));
            }
        }
        if operands
            .iter()
            .any(|o| spec_dtype(o).is_some_and(|d| FLOAT8.contains(d)))
        {
            let items = operands.iter().map(quoted_name).collect();
            return Err(no_float8_promotion(&python_tuple(items)));
        }
        let inputs = operands
            .iter()
            .map(|operand| self.input(operand))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.join(&inputs))
    }

    /// `dtypes.result_type(...)` as a backend's function calls it: with an
    /// array's `x.dtype` (a NumPy dtype object, as the float8 message
    /// prints it) or a Python scalar's `type(x)`.
    pub(super) fn result_of(self, given: &[TypeSpec]) -> Result<DType, PromotionError> {
        if given
            .iter()
            .any(|g| matches!(g, TypeSpec::DType(d) if FLOAT8.contains(*d)))
        {
            let items = given.iter().map(|&g| dtype_object(g)).collect();
            return Err(no_float8_promotion(&python_tuple(items)));
        }
        let inputs: Vec<Input> = given
            .iter()
            .map(|&g| match g {
                TypeSpec::DType(dtype) => Input::DType(dtype),
                TypeSpec::Python(scalar) => self.python_input(scalar),
            })
            .collect();
        Ok(self.join(&inputs))
    }

    /// The join of standardized inputs, its weak type resolved by floatx
    /// and cut to 32 bits.
    fn join(self, inputs: &[Input]) -> DType {
        let lattice = lattice();
        let node = |input: Input| {
            let label = match input {
                Input::DType(dtype) => dtype.name(),
                Input::WeakInt => "int",
                Input::WeakFloat => "float",
            };
            lattice.node(label)
        };
        // Only the float8 types, refused before, have no node; the rest
        // join below complex128.
        let joined = inputs
            .iter()
            .map(|&i| node(i))
            .collect::<Option<Vec<_>>>()
            .and_then(|nodes| lattice.join_all(nodes))
            .expect("every Keras dtype but float8 joins");
        let (weak_int, weak_float) = self.floatx.weak_dtypes();
        let dtype = match lattice.label(joined) {
            "int" => weak_int,
            "float" => weak_float,
            label => DType::from_name(label).expect("strong labels are dtype names"),
        };
        self.cut(dtype)
    }
}

/// The dtype an operand names, if it is a dtype or an array.
pub(super) fn spec_dtype(operand: &Operand) -> Option<DType> {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => Some(dtype),
        _ => None,
    }
}

/// A dtype Keras has, or `standardize_dtype`'s error.
pub(super) fn keras_dtype(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(dtype) {
        Ok(dtype)
    } else {
        Err(invalid_dtype(dtype.name()))
    }
}

pub(super) fn invalid_dtype(what: &str) -> PromotionError {
    PromotionError::framework(ErrorKind::Value, format!("Invalid dtype: {what}"))
}

pub(super) fn no_float8_promotion(received: &str) -> PromotionError {
    PromotionError::framework(
        ErrorKind::Value,
        format!(
            "There is no implicit conversions from float8 dtypes to others. You must cast it \
             internally. Received: {received}"
        ),
    )
}

/// Python's `repr` of what a backend hands `result_type`: NumPy's dtype
/// object (ml_dtypes' without quotes), or a type's class.
pub(super) fn dtype_object(given: TypeSpec) -> String {
    match given {
        TypeSpec::DType(dtype) if dtype.is_ml_dtypes() => format!("dtype({dtype})"),
        TypeSpec::DType(dtype) => format!("dtype('{dtype}')"),
        TypeSpec::Python(scalar) => format!("<class '{}'>", scalar.name()),
    }
}

/// An argument as Python's `repr` writes it in a tuple: a dtype name
/// quoted, a type as its class.
fn quoted_name(operand: &Operand) -> String {
    match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => format!("'{dtype}'"),
        OperandKind::PyType(scalar) => format!("<class '{}'>", scalar.name()),
        _ => operand.to_string(),
    }
}

/// Python's `repr` of a tuple of these items' reprs.
pub(super) fn python_tuple(items: Vec<String>) -> String {
    match items.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// Keras's lattice. Built once.
fn lattice() -> &'static Lattice {
    static LATTICE_ONCE: Once<Lattice> = Once::new();
    LATTICE_ONCE.get_or_init(|| Lattice::from_dict(LATTICE).expect("Keras's graph is a lattice"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dtype_but_float8_is_a_node() {
        for dtype in DTYPES.iter() {
            assert_eq!(
                lattice().node(dtype.name()).is_some(),
                !FLOAT8.contains(dtype)
            );
        }
        assert_eq!(lattice().len(), DTYPES.iter().count());
    }
}
