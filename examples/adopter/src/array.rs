//! The array: one `Vec` per dtype, and the operators, which ask the rules
//! for the result type before computing anything.

use std::ops::{Add, Div};

use crate::kernels;
use crate::rules::{BinOp, Error, Operand, Rules};

/// The adopter's dtypes, the storage it has: the generated tables' enum
/// (`codegen --dtypes`, in the order chosen for it), taken as its own, so
/// that the tables answer in it with no conversion.
pub use crate::numpy_tables::DType;

impl DType {
    /// Whether it is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, DType::Float32 | DType::Float64)
    }
}

/// The elements.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Storage {
    Bool(Vec<bool>),
    U8(Vec<u8>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// A one-dimensional array.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Its elements.
    pub storage: Storage,
}

/// A Python-style scalar operand: `x + 2`, `x / 2.5`, `x < True`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A Python `bool`.
    Bool(bool),
    /// A Python `int`.
    Int(i64),
    /// A Python `float`.
    Float(f64),
}

macro_rules! from_vec {
    ($($t:ty => $variant:ident),*) => {$(
        impl From<Vec<$t>> for Array {
            fn from(values: Vec<$t>) -> Array {
                Array { storage: Storage::$variant(values) }
            }
        }
    )*};
}
from_vec!(bool => Bool, u8 => U8, i8 => I8, i16 => I16, i32 => I32, i64 => I64, f32 => F32, f64 => F64);

impl Array {
    /// Its dtype.
    pub fn dtype(&self) -> DType {
        match self.storage {
            Storage::Bool(_) => DType::Bool,
            Storage::U8(_) => DType::UInt8,
            Storage::I8(_) => DType::Int8,
            Storage::I16(_) => DType::Int16,
            Storage::I32(_) => DType::Int32,
            Storage::I64(_) => DType::Int64,
            Storage::F32(_) => DType::Float32,
            Storage::F64(_) => DType::Float64,
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        kernels::values(self).len()
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The array with the promotion rules its operators ask.
    pub fn with<'a, R: Rules>(&'a self, rules: &'a R) -> With<'a, R> {
        With { array: self, rules }
    }
}

/// An array and the rules its operators promote by: `x.with(&rules) + &y`.
pub struct With<'a, R> {
    array: &'a Array,
    rules: &'a R,
}

/// What an operator takes on its right: an array or a scalar.
pub enum Right<'a> {
    /// An array.
    Array(&'a Array),
    /// A Python-style scalar.
    Scalar(Scalar),
}

impl<'a> From<&'a Array> for Right<'a> {
    fn from(array: &'a Array) -> Right<'a> {
        Right::Array(array)
    }
}

impl From<Scalar> for Right<'_> {
    fn from(scalar: Scalar) -> Self {
        Right::Scalar(scalar)
    }
}

impl<R: Rules> With<'_, R> {
    /// `op` of the array and `right`: the rules' result type, then the
    /// elements computed in it (a comparison in the promoted type).
    fn apply<'b>(&self, op: BinOp, right: impl Into<Right<'b>>) -> Result<Array, Error> {
        let right = right.into();
        let operand = match &right {
            Right::Array(b) => Operand::Array(b.dtype()),
            Right::Scalar(s) => Operand::Scalar(*s),
        };
        let result = self.rules.result(op, self.array.dtype(), operand)?;
        let computes_in = match op {
            BinOp::Less => self.rules.result(BinOp::Add, self.array.dtype(), operand)?,
            _ => result,
        };
        let b = match right {
            Right::Array(b) => kernels::values(b),
            Right::Scalar(s) => kernels::broadcast(s, self.array.len()),
        };
        kernels::compute(op, &kernels::values(self.array), &b, computes_in, result)
    }

    /// `a < b`, elementwise.
    pub fn less<'b>(&self, right: impl Into<Right<'b>>) -> Result<Array, Error> {
        self.apply(BinOp::Less, right)
    }
}

impl<'b, R: Rules, T: Into<Right<'b>>> Add<T> for With<'_, R> {
    type Output = Result<Array, Error>;

    fn add(self, right: T) -> Result<Array, Error> {
        self.apply(BinOp::Add, right)
    }
}

impl<'b, R: Rules, T: Into<Right<'b>>> Div<T> for With<'_, R> {
    type Output = Result<Array, Error>;

    fn div(self, right: T) -> Result<Array, Error> {
        self.apply(BinOp::Divide, right)
    }
}
