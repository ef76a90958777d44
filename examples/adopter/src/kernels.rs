//! The arithmetic, once the result type is known: elements read as
//! integers or floats, combined in the type the rules chose, stored in the
//! result's dtype (integers wrap, as the frameworks' do).

use crate::array::{Array, DType, Scalar, Storage};
use crate::rules::{BinOp, Error, ErrorKind};

/// An element, widened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn float(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    fn int(self) -> i128 {
        match self {
            Num::Int(i) => i,
            Num::Float(f) => f as i128,
        }
    }

    /// The element as a value of `dtype` (rounded or wrapped), widened
    /// again.
    fn cast(self, dtype: DType) -> Num {
        match dtype {
            DType::Bool => Num::Int(i128::from(self.float() != 0.0)),
            DType::UInt8 => Num::Int(i128::from(self.int() as u8)),
            DType::Int8 => Num::Int(i128::from(self.int() as i8)),
            DType::Int16 => Num::Int(i128::from(self.int() as i16)),
            DType::Int32 => Num::Int(i128::from(self.int() as i32)),
            DType::Int64 => Num::Int(i128::from(self.int() as i64)),
            DType::Float32 => Num::Float(f64::from(self.float() as f32)),
            DType::Float64 => Num::Float(self.float()),
        }
    }
}

/// The array's elements, widened.
pub(crate) fn values(array: &Array) -> Vec<Num> {
    fn ints<T: Copy + Into<i128>>(v: &[T]) -> Vec<Num> {
        v.iter().map(|&x| Num::Int(x.into())).collect()
    }
    match &array.storage {
        Storage::Bool(v) => v.iter().map(|&x| Num::Int(i128::from(x))).collect(),
        Storage::U8(v) => ints(v),
        Storage::I8(v) => ints(v),
        Storage::I16(v) => ints(v),
        Storage::I32(v) => ints(v),
        Storage::I64(v) => ints(v),
        Storage::F32(v) => v.iter().map(|&x| Num::Float(f64::from(x))).collect(),
        Storage::F64(v) => v.iter().map(|&x| Num::Float(x)).collect(),
    }
}

/// A scalar as `len` elements.
pub(crate) fn broadcast(scalar: Scalar, len: usize) -> Vec<Num> {
    let value = match scalar {
        Scalar::Bool(b) => Num::Int(i128::from(b)),
        Scalar::Int(i) => Num::Int(i128::from(i)),
        Scalar::Float(f) => Num::Float(f),
    };
    vec![value; len]
}

/// `op` elementwise, computed in `computes_in`, stored as `result`.
pub(crate) fn compute(
    op: BinOp,
    a: &[Num],
    b: &[Num],
    computes_in: DType,
    result: DType,
) -> Result<Array, Error> {
    if a.len() != b.len() {
        return Err(Error {
            kind: ErrorKind::Shape,
            message: format!("operands of {} and {} elements", a.len(), b.len()),
        });
    }
    let out = a.iter().zip(b).map(|(&x, &y)| {
        let (x, y) = (x.cast(computes_in), y.cast(computes_in));
        let value = match (op, x, y) {
            (BinOp::Add, Num::Int(x), Num::Int(y)) if computes_in == DType::Bool => Num::Int(x | y),
            (BinOp::Add, Num::Int(x), Num::Int(y)) => Num::Int(x.wrapping_add(y)),
            (BinOp::Add, x, y) => Num::Float(x.float() + y.float()),
            (BinOp::Divide, x, y) => Num::Float(x.float() / y.float()),
            (BinOp::Less, Num::Int(x), Num::Int(y)) => Num::Int(i128::from(x < y)),
            (BinOp::Less, x, y) => Num::Int(i128::from(x.float() < y.float())),
        };
        value.cast(result)
    });
    let out: Vec<Num> = out.collect();
    Ok(store(&out, result))
}

fn store(values: &[Num], dtype: DType) -> Array {
    let ints = || values.iter().map(|n| n.int());
    let storage = match dtype {
        DType::Bool => Storage::Bool(ints().map(|i| i != 0).collect()),
        DType::UInt8 => Storage::U8(ints().map(|i| i as u8).collect()),
        DType::Int8 => Storage::I8(ints().map(|i| i as i8).collect()),
        DType::Int16 => Storage::I16(ints().map(|i| i as i16).collect()),
        DType::Int32 => Storage::I32(ints().map(|i| i as i32).collect()),
        DType::Int64 => Storage::I64(ints().map(|i| i as i64).collect()),
        DType::Float32 => Storage::F32(values.iter().map(|n| n.float() as f32).collect()),
        DType::Float64 => Storage::F64(values.iter().map(|n| n.float()).collect()),
    };
    Array { storage }
}
