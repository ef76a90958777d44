//! PyTorch's operators, in-place operators and assignment.
//!
//! `Tensor.__add__` and the other forward operators are the functions of
//! `ops.rs`. The reflected ones are PyTorch's own: `b.__radd__(a)` is
//! `torch.add(b, a)`, `b.__rsub__(a)` is `torch.rsub(b, a)` (`a - b`), and
//! `b.__rtruediv__(a)` is `b.reciprocal() * a`, whose reciprocal makes an
//! integer tensor float32 before the number is seen. Python's side (two
//! Python numbers, the fallback to the reflected method, the mirror of a
//! comparison) is [`Arrays`]'s. `a OP= b` runs the method in place: its
//! common dtype must be castable to `a`'s (`canCast`), which `a` keeps.
//! `a[...] = v` copies a tensor into `a`'s dtype, and fills `a` with a
//! number, which must fit that dtype.

use super::kernels::STORED;
use super::ops::{self, cast, fill, is_integral, operation_into, reciprocal, run};
use super::{
    known, scalar_int_type, scalar_type_name, tensor_dtype, tier, ScalarType, Slot, Tiered, Torch,
};
use crate::frameworks::common::operators::mirror;
use crate::frameworks::common::Arrays;
use crate::frameworks::python::{self, Number};
use crate::types::{
    DType, ErrorKind, Kind, Op, OpForm, Operand, OperandKind, PromotionError, Typed,
};

/// `op` in `form`: the operator, reflected or in-place one.
pub(super) fn operation_as(
    torch: &Torch,
    op: Op,
    form: OpForm,
    operands: &[Operand],
) -> Option<Result<Typed, PromotionError>> {
    let arrays = Arrays {
        array: "tensor",
        function: |op, operands: &[Operand]| Some(method(torch, op, form, operands)),
        inplace: |op, a: Operand, b| Some(inplace(torch, op, a, b)),
    };
    arrays.answer(op, form, operands)
}

/// The tensor method `Arrays` calls for `op` on `operands` in `form`: the
/// forward method of the first operand, or the reflected method of the
/// second where Python falls back to it (a number on the left) or where
/// it is asked for directly (its comparisons, mirrored already, are
/// forward methods).
fn method(
    torch: &Torch,
    op: Op,
    form: OpForm,
    operands: &[Operand],
) -> Result<Typed, PromotionError> {
    let &[a, b] = operands else {
        return ops::operation(torch, op, operands);
    };
    let number_first = Number::of(a.kind()).is_some();
    match mirror(op) {
        Some(mirrored) if number_first && form != OpForm::Reflected => {
            ops::operation(torch, mirrored, &[b, a])
        }
        None if number_first || form == OpForm::Reflected => reflected(torch, op, a, b),
        _ => ops::operation(torch, op, &[a, b]),
    }
}

/// `b.__rOP__(a)` for a tensor `b`.
fn reflected(torch: &Torch, op: Op, a: Operand, b: Operand) -> Result<Typed, PromotionError> {
    match op {
        Op::Add | Op::Multiply | Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor => {
            ops::operation(torch, op, &[b, a])
        }
        Op::TrueDivide => {
            let inverse = reciprocal(torch, b)?;
            ops::operation(torch, Op::Multiply, &[inverse, a])
        }
        // `torch.rsub(b, a)`, `torch.floor_divide(a, b)`, `torch.remainder(a, b)`, `torch.pow(a, b)`.
        _ => ops::operation(torch, op, &[a, b]),
    }
}

/// `a OP= b` for a tensor `a`: its in-place method.
fn inplace(torch: &Torch, op: Op, a: Operand, b: Operand) -> Result<Typed, PromotionError> {
    let out = tensor_dtype(&a)?;
    operation_into(torch, op, &[a, b], out)
}

/// `target[...] = value`: a tensor value copied into the target's dtype, a
/// number filled in, refused where it does not fit that dtype.
pub(super) fn assign(target: Operand, value: Operand) -> Result<Typed, PromotionError> {
    let (target, value) = (target.as_argument(), value.as_argument());
    let Some(dtype) = tensor_dtype(&target)? else {
        return Err(python::no_item_assignment(Number::of(target.kind())));
    };
    known(dtype)?;
    if let Some(from) = tensor_dtype(&value)? {
        known(from)?;
        copy(tier(&value)?, dtype)?;
        return Ok(Typed::strong(dtype));
    }
    let slot = tier(&target)?.0;
    fill_with((slot, dtype))?;
    if let OperandKind::PyInt(v) = value.kind() {
        scalar_int_type(v)?;
        if v < 0 && dtype == DType::UInt64 {
            return Err(PromotionError::framework(
                ErrorKind::Overflow,
                "can't convert negative int to unsigned",
            ));
        }
    }
    check_fits(value, dtype, matches!(slot, Slot::ZeroDim))?;
    Ok(Typed::strong(dtype))
}

/// `Scalar::to<T>()`'s overflow check of a number filled into a tensor of
/// `dtype`: an integer type takes its range (an unsigned one its negation
/// too), a float type its finite range, a real type no imaginary part. A
/// zero-dimensional tensor of a float type other than float32 is filled
/// through a double, which takes every real number.
fn check_fits(value: Operand, dtype: DType, zero_dim: bool) -> Result<(), PromotionError> {
    let (real, imag) = match value.kind() {
        OperandKind::PyInt(v) => (v as f64, 0.0),
        OperandKind::PyFloat(x) => (x, 0.0),
        OperandKind::PyComplex { real, imag } => (real, imag),
        _ => return Ok(()),
    };
    if matches!(dtype.kind(), Kind::Complex | Kind::Bool) {
        return Ok(());
    }
    let through_double = zero_dim && dtype.kind() == Kind::Float && dtype != DType::Float32;
    let (name, max) = if through_double {
        ("double", f64::MAX)
    } else {
        c10_type(dtype)
    };
    let fits = if dtype.kind() == Kind::Unsigned {
        real.abs() <= max
    } else if dtype.is_integer() {
        real >= -max - 1.0 && real <= max
    } else {
        !real.is_finite() || real.abs() <= max
    };
    if fits && imag == 0.0 {
        Ok(())
    } else {
        Err(PromotionError::framework(
            ErrorKind::Runtime,
            format!("value cannot be converted to type {name} without overflow"),
        ))
    }
}

/// The C++ type PyTorch converts a number into for `dtype`, and its
/// largest value.
fn c10_type(dtype: DType) -> (&'static str, f64) {
    match dtype {
        DType::UInt8 => ("uint8_t", f64::from(u8::MAX)),
        DType::UInt16 => ("uint16_t", f64::from(u16::MAX)),
        DType::UInt32 => ("uint32_t", f64::from(u32::MAX)),
        DType::UInt64 => ("uint64_t", u64::MAX as f64),
        DType::Int8 => ("int8_t", f64::from(i8::MAX)),
        DType::Int16 => ("int16_t", f64::from(i16::MAX)),
        DType::Int32 => ("int", f64::from(i32::MAX)),
        DType::Float8E8M0Fnu => ("c10::Float8_e8m0fnu", 1.701_411_834_604_692_3e38),
        DType::Float8E4M3Fn => ("c10::Float8_e4m3fn", 448.0),
        DType::Float8E4M3Fnuz => ("c10::Float8_e4m3fnuz", 240.0),
        DType::Float8E5M2 => ("c10::Float8_e5m2", 57344.0),
        DType::Float8E5M2Fnuz => ("c10::Float8_e5m2fnuz", 57344.0),
        DType::BFloat16 => ("c10::BFloat16", 3.389_531_389_251_535_5e38),
        DType::Float16 => ("c10::Half", 65504.0),
        DType::Float32 => ("float", f64::from(f32::MAX)),
        DType::Float64 => ("double", f64::MAX),
        _ => ("int64_t", i64::MAX as f64),
    }
}

/// The output of an in-place method, a zero-dimensional tensor, cannot
/// hold the broadcast of a tensor with dimensions (ours have shape `(2,)`).
pub(super) fn check_shape((slot, _): Tiered, operands: &[Tiered]) -> Result<(), PromotionError> {
    if matches!(slot, Slot::ZeroDim) && operands.iter().any(|(s, _)| matches!(s, Slot::Dim)) {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            "output with shape [] doesn't match the broadcast shape [2]",
        ));
    }
    Ok(())
}

/// `canCast`: the common dtype an in-place method computes in must not
/// lose its kind in the output (complex to real, float to an integer
/// type, anything to bool). The sub-byte integers are no integer types
/// there: a float common dtype fails later, in the cast of the input.
pub(super) fn check_cast(common: ScalarType, (_, out): Tiered) -> Result<(), PromotionError> {
    let kind = match common {
        ScalarType::DType(dtype) => dtype.kind(),
        ScalarType::HalfComplex(_) => Kind::Complex,
    };
    let lossy = (kind == Kind::Complex && out.kind() != Kind::Complex)
        || (kind == Kind::Float && is_integral(ScalarType::of(out), false))
        || (kind != Kind::Bool && out == DType::Bool);
    if lossy {
        return Err(PromotionError::framework(
            ErrorKind::Runtime,
            format!(
                "result type {} can't be cast to the desired output type {}",
                common.name(),
                scalar_type_name(out)
            ),
        ));
    }
    Ok(())
}

/// `target.copy_(value)` from a tensor of dtype `from`: within a dtype the
/// copy kernel, which has no code for the sub-byte integers; across dtypes
/// a cast.
fn copy(from: Tiered, to: DType) -> Result<(), PromotionError> {
    let to = ScalarType::of(to);
    if ScalarType::of(from.1) == to {
        return run("copy_kernel", STORED, to);
    }
    cast(from, to)
}

/// `target.fill_(number)` of a tensor of `dtype`.
fn fill_with(target: Tiered) -> Result<(), PromotionError> {
    fill(ScalarType::of(target.1), target)
}
