//! MLX 0.32's type promotion (Linux CPU build): `mx.result_type`, and
//! the result types of its operations (`mx.add`, `mx.divide`, ...; in
//! `ops.rs`).
//!
//! MLX promotes by a table, not a lattice: the 14 x 14 `type_rules` of
//! `mlx/dtype.cpp`, written "following JAX". It departs from JAX where JAX
//! has weak types or 64-bit floats to fall back on: `uint64` with a signed
//! integer is `float32`, and `float64` with `complex64` is `complex64` (MLX
//! has no `complex128`). So the table is not associative, and no lattice
//! defines it (`dtype-lattice check --policy mlx` shows where):
//!
//! ```
//! use dtype_lattice::frameworks::mlx::Mlx;
//! use dtype_lattice::{DType, Policy};
//!
//! let promote = |a: DType, b: DType| Mlx.promote_types(a.into(), b.into()).unwrap();
//! assert_eq!(promote(DType::UInt64, DType::Int8), DType::Float32);
//! assert_eq!(promote(DType::Float64, DType::Complex64), DType::Complex64);
//! // (uint64 + int8) + float16 is float32, uint64 + (int8 + float16) float16.
//! assert_eq!(promote(promote(DType::UInt64, DType::Int8), DType::Float16), DType::Float32);
//! assert_eq!(promote(DType::UInt64, promote(DType::Int8, DType::Float16)), DType::Float16);
//! ```
//!
//! `mx.result_type` takes arrays and dtypes only, any number of them, and
//! folds them through the table from the left. Python scalars reach the
//! table only through an operation: [`operation(Op::Add)`](Policy::operation) is `mx.add`, which
//! first makes each Python scalar an array whose dtype comes from the other
//! operand's (a Python int takes an integer array's dtype, if it fits; a
//! float a floating array's, else `float32`), then promotes the two arrays.
//! Zero-dimensional arrays promote as any array does.
//!
//! ```
//! use dtype_lattice::frameworks::mlx::Mlx;
//! use dtype_lattice::{DType, Op, Operand, Policy, Typed};
//!
//! let x = Operand::dtype(DType::Int8);
//! let add = |a, b| Mlx.operation(Op::Add, &[a, b]).unwrap();
//! assert_eq!(add(x, Operand::py_int(2)), Ok(Typed::strong(DType::Int8)));
//! assert_eq!(add(x, Operand::py_float(2.5)), Ok(Typed::strong(DType::Float32)));
//! assert_eq!(add(x, Operand::zero_dim(DType::Int64)), Ok(Typed::strong(DType::Int64)));
//! let err = add(x, Operand::py_int(300)).unwrap_err();
//! assert_eq!(err.to_string(), "Converting 300 to int8 would result in overflow.");
//! let err = Mlx.result_type(&[x, Operand::py_int(2)]).unwrap_err();
//! assert_eq!(err.to_string(), "[result_type] Inputs must be arrays or dtypes.");
//! ```

mod array_ops;
mod forms;
mod ops;

use crate::policy::{Policy, TypedLattice};
use crate::prelude::*;
use crate::types::{ArrayCall, ArrayOp, Outcome};
use crate::types::{DType, ErrorKind, Kind, Op, OpForm, PromotionError, Typed};
use crate::types::{Operand, OperandKind, PyScalar, TypeSpec};

/// MLX's dtypes, in the order of its table.
const DTYPES: [DType; 14] = [
    DType::Bool,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::BFloat16,
    DType::Complex64,
];

/// `type_rules` of `mlx/dtype.cpp`, by position in [`DTYPES`]: row `a`,
/// column `b` is what `a` and `b` promote to.
#[rustfmt::skip]
const TABLE: [[u8; 14]; 14] = {
    // The names of MLX's source, as positions in `DTYPES`.
    const B: u8 = 0;
    const U8: u8 = 1;
    const U16: u8 = 2;
    const U32: u8 = 3;
    const U64: u8 = 4;
    const I8: u8 = 5;
    const I16: u8 = 6;
    const I32: u8 = 7;
    const I64: u8 = 8;
    const F16: u8 = 9;
    const F32: u8 = 10;
    const F64: u8 = 11;
    const BF: u8 = 12;
    const C64: u8 = 13;
    [
        // bool uint8 uint16 uint32 uint64 int8 int16 int32 int64 float16 float32 float64 bfloat16 complex64
        [B,   U8,  U16, U32, U64, I8,  I16, I32, I64, F16, F32, F64, BF,  C64], // bool
        [U8,  U8,  U16, U32, U64, I16, I16, I32, I64, F16, F32, F64, BF,  C64], // uint8
        [U16, U16, U16, U32, U64, I32, I32, I32, I64, F16, F32, F64, BF,  C64], // uint16
        [U32, U32, U32, U32, U64, I64, I64, I64, I64, F16, F32, F64, BF,  C64], // uint32
        [U64, U64, U64, U64, U64, F32, F32, F32, F32, F16, F32, F64, BF,  C64], // uint64
        [I8,  I16, I32, I64, F32, I8,  I16, I32, I64, F16, F32, F64, BF,  C64], // int8
        [I16, I16, I32, I64, F32, I16, I16, I32, I64, F16, F32, F64, BF,  C64], // int16
        [I32, I32, I32, I64, F32, I32, I32, I32, I64, F16, F32, F64, BF,  C64], // int32
        [I64, I64, I64, I64, F32, I64, I64, I64, I64, F16, F32, F64, BF,  C64], // int64
        [F16, F16, F16, F16, F16, F16, F16, F16, F16, F16, F32, F64, F32, C64], // float16
        [F32, F32, F32, F32, F32, F32, F32, F32, F32, F32, F32, F64, F32, C64], // float32
        [F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, F64, C64], // float64
        [BF,  BF,  BF,  BF,  BF,  BF,  BF,  BF,  BF,  F32, F32, F64, BF,  C64], // bfloat16
        [C64, C64, C64, C64, C64, C64, C64, C64, C64, C64, C64, C64, C64, C64], // complex64
    ]
};

/// MLX 0.32.4's promotion, on the CPU.
///
/// Operands: a dtype or an array ([`Operand::dtype`], a strong
/// [`Operand::array`]) and a zero-dimensional array are arrays alike;
/// Python scalars and `None` are what Python passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mlx;

/// The position of an MLX dtype in [`DTYPES`], or the error
/// `getattr(mx, name)` gives for one MLX lacks.
fn position(dtype: DType) -> Result<usize, PromotionError> {
    DTYPES
        .iter()
        .position(|&d| d == dtype)
        .ok_or_else(|| PromotionError::no_attribute("mlx.core", dtype.name()))
}

/// `mlx::core::promote_types`: the table.
fn promote(a: DType, b: DType) -> Result<DType, PromotionError> {
    Ok(DTYPES[usize::from(TABLE[position(a)?][position(b)?])])
}

fn value_error(message: &str) -> PromotionError {
    PromotionError::framework(ErrorKind::Value, message.to_owned())
}

/// The dtype of an array operand, `None` for anything else; a
/// weakly-typed array (which only JAX has) is an error, and so is a dtype
/// MLX lacks: Python looks every argument up before the call runs.
fn array_dtype(operand: &Operand) -> Result<Option<DType>, PromotionError> {
    match operand.kind() {
        OperandKind::Array { dtype, weak: true } => {
            Err(crate::frameworks::numpy::weak_array(dtype))
        }
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => position(dtype).map(|_| Some(dtype)),
        _ => Ok(None),
    }
}

/// A Python scalar as MLX's `to_array` makes it an array (in
/// `python/src/utils.cpp`), given the dtype of the array beside it, if any.
fn scalar_array(operand: &Operand, beside: Option<DType>) -> Result<DType, PromotionError> {
    Ok(match operand.kind() {
        OperandKind::PyBool(_) | OperandKind::PyType(PyScalar::Bool) => {
            beside.unwrap_or(DType::Bool)
        }
        OperandKind::PyInt(value) => int_array(value, beside)?,
        // `py:int` stands for a Python int of no particular value (2).
        OperandKind::PyType(PyScalar::Int) => int_array(2, beside)?,
        OperandKind::PyFloat(_) | OperandKind::PyType(PyScalar::Float) => match beside {
            Some(dtype) if is_floating(dtype) => dtype,
            _ => DType::Float32,
        },
        OperandKind::PyComplex { .. } | OperandKind::PyType(PyScalar::Complex) => DType::Complex64,
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => dtype,
        OperandKind::None => unreachable!("None is refused by the argument parser"),
    })
}

/// A Python int as an array: read as a C++ `int64_t` (nanobind's cast,
/// which fails with `std::bad_cast` beyond it); its own dtype `int32`, or
/// `int64` outside int32's range; beside an array, that array's dtype,
/// range-checked for integers narrower than 64 bits; beside a `bool` array,
/// `int32`, unchecked.
fn int_array(value: i128, beside: Option<DType>) -> Result<DType, PromotionError> {
    let Ok(value) = i64::try_from(value) else {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            "std::bad_cast",
        ));
    };
    let own = if i32::try_from(value).is_ok() {
        DType::Int32
    } else {
        DType::Int64
    };
    let dtype = beside.unwrap_or(own);
    if dtype.is_integer() && dtype.bits() < 64 {
        let bits = dtype.bits();
        let (min, max) = if dtype.kind() == Kind::Unsigned {
            (0, (1i64 << bits) - 1)
        } else {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        };
        if !(min..=max).contains(&value) {
            return Err(value_error(&format!(
                "Converting {value} to {dtype} would result in overflow."
            )));
        }
    }
    Ok(if dtype == DType::Bool {
        DType::Int32
    } else {
        dtype
    })
}

/// `issubdtype(dtype, floating)`: the real floats, `bfloat16` included.
fn is_floating(dtype: DType) -> bool {
    dtype.kind() == Kind::Float
}

/// The class name nanobind prints for an argument.
fn python_class(operand: &Operand) -> &'static str {
    match operand.kind() {
        OperandKind::DType(_) | OperandKind::ZeroDim(_) | OperandKind::Array { .. } => {
            "mlx.core.array"
        }
        OperandKind::PyType(scalar) => scalar.name(),
        OperandKind::PyInt(_) => "int",
        OperandKind::PyFloat(_) => "float",
        OperandKind::PyComplex { .. } => "complex",
        OperandKind::PyBool(_) => "bool",
        OperandKind::None => "NoneType",
    }
}

impl Mlx {
    /// `mx.result_type(*operands)`: arrays and dtypes only, at least one,
    /// folded through the table from the left.
    fn result_dtype(&self, operands: &[Operand]) -> Result<DType, PromotionError> {
        let mut dtypes = Vec::with_capacity(operands.len());
        for operand in operands {
            dtypes.push(array_dtype(operand)?);
        }
        let inputs = || value_error("[result_type] Inputs must be arrays or dtypes.");
        let mut dtypes = dtypes.into_iter();
        let first = dtypes
            .next()
            .ok_or_else(|| value_error("[result_type] At least one array or dtype is required."))?
            .ok_or_else(inputs)?;
        dtypes.try_fold(first, |joined, dtype| {
            promote(joined, dtype.ok_or_else(inputs)?)
        })
    }
}

impl Policy for Mlx {
    fn name(&self) -> String {
        "mlx".to_owned()
    }

    /// `mx.result_type(a, b)` on two dtypes (MLX has no `promote_types` in
    /// Python): the table. Python's types are refused.
    ///
    /// ```
    /// use dtype_lattice::frameworks::mlx::Mlx;
    /// use dtype_lattice::{DType, Policy, PyScalar};
    /// assert_eq!(Mlx.promote_types(DType::UInt8.into(), DType::Int8.into()), Ok(DType::Int16));
    /// let err = Mlx.promote_types(DType::Int8.into(), PyScalar::Float.into()).unwrap_err();
    /// assert_eq!(err.python_type(), "ValueError");
    /// let err = Mlx.promote_types(DType::Complex128.into(), DType::Int8.into()).unwrap_err();
    /// assert_eq!(err.to_string(), "module 'mlx.core' has no attribute 'complex128'");
    /// ```
    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        let operand = |spec| match spec {
            TypeSpec::DType(dtype) => Operand::dtype(dtype),
            TypeSpec::Python(scalar) => Operand::py_type(scalar),
        };
        self.result_dtype(&[operand(a), operand(b)])
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_dtype(operands).map(Typed::strong)
    }

    /// MLX's rules are a table, not a lattice.
    fn lattice(&self) -> Option<&TypedLattice> {
        None
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(&dtype)
    }

    /// `mx.<op>(*operands).dtype` (`ops.rs`): the binding makes the
    /// operands arrays, the C++ op promotes them by the table, refuses
    /// what it has no code for, and answers from the promoted dtype.
    ///
    /// ```
    /// use dtype_lattice::frameworks::mlx::Mlx;
    /// use dtype_lattice::{DType, Op, Operand, Policy, Typed};
    /// let x = |dtype| Operand::array(dtype, false);
    /// let call = |op, operands: &[Operand]| Mlx.operation(op, operands).unwrap();
    /// assert_eq!(call(Op::Sqrt, &[x(DType::Int64)]), Ok(Typed::strong(DType::Float32)));
    /// assert_eq!(call(Op::Abs, &[x(DType::Complex64)]), Ok(Typed::strong(DType::Float32)));
    /// let err = call(Op::Negative, &[x(DType::Bool)]).unwrap_err();
    /// assert_eq!(err.to_string(), "[negative] Not supported for bool, use logical_not instead.");
    /// ```
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(ops::operation(op, operands))
    }

    /// `mx.sum(x)`, `mx.matmul(a, b)` and the others of `array_ops`
    /// (`full_like` as `mx.full(x.shape, value)`; MLX has no `dot`).
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        self.mlx_array_op(*call, operands)
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        array_ops::describe(op)
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(ops::describe(op))
    }

    /// `mx.array`'s operators (`forms.rs`): the functions, but the bitwise
    /// ones refuse an inexact dtype first and have no reflected methods;
    /// `x OP= b` rebinds `x`, and `x /= b` refuses an integer or `bool` `x`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::mlx::Mlx;
    /// use dtype_lattice::{DType, Op, OpForm, Operand, Policy, Typed};
    /// let x = Operand::array(DType::Int8, false);
    /// let iadd = Mlx.operation_as(Op::Add, OpForm::InPlace, &[x, Operand::py_float(2.5)]);
    /// assert_eq!(iadd, Some(Ok(Typed::strong(DType::Float32))));
    /// let rand = Mlx.operation_as(Op::BitwiseAnd, OpForm::Operator, &[Operand::py_int(2), x]);
    /// assert_eq!(
    ///     rand.unwrap().unwrap_err().to_string(),
    ///     "unsupported operand type(s) for &: 'int' and 'mlx.core.array'"
    /// );
    /// ```
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        forms::operation_as(op, form, operands)
    }

    /// `x[...] = v`, which replaces `x` by `v` in MLX: `x` takes `v`'s
    /// dtype, a Python number's as MLX makes it beside `x`.
    ///
    /// ```
    /// use dtype_lattice::frameworks::mlx::Mlx;
    /// use dtype_lattice::{DType, Operand, Policy, Typed};
    /// let x = Operand::array(DType::Int8, false);
    /// assert_eq!(Mlx.assign(x, Operand::py_float(2.5)), Some(Ok(Typed::strong(DType::Float32))));
    /// assert_eq!(Mlx.assign(x, Operand::py_int(2)), Some(Ok(Typed::strong(DType::Int8))));
    /// ```
    fn assign(&self, target: Operand, value: Operand) -> Option<Result<Typed, PromotionError>> {
        Some(forms::assign(target, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_symmetric_and_each_dtype_joins_itself() {
        for (a, row) in TABLE.iter().enumerate() {
            assert_eq!(usize::from(row[a]), a);
            for (b, &cell) in row.iter().enumerate() {
                assert_eq!(cell, TABLE[b][a], "{} {}", DTYPES[a], DTYPES[b]);
            }
        }
    }
}
