//! How two tensors promote (`paddle/phi/common/type_promotion.h`, installed
//! with the wheel): `phi::promoteTypes`, a 12 x 12 table (PyTorch's, over
//! the same twelve dtypes), and the checks around it, `NeedTypePromotion`
//! and `GetPromoteDtype`.
//!
//! Two tensors with dimensions of different dtypes promote only when both
//! are floats or either is complex; any other pair is a `TypeError`. A
//! zero-dimensional tensor is promoted apart only by the operations of
//! `support_promotion_ops` ([`ZeroDim`]).

use crate::types::{DType, ErrorKind, Kind, PromotionError};

/// The dtypes of `phi::promoteTypes`, in the order of `DataTypeToNum`.
pub(super) const TABLE_DTYPES: [DType; 12] = [
    DType::UInt8,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
    DType::Bool,
    DType::BFloat16,
];

/// `_promoteTypesLookup`, by position in [`TABLE_DTYPES`].
#[rustfmt::skip]
pub(super) const TABLE: [[u8; 12]; 12] = {
    // The names of Paddle's source, as positions in `TABLE_DTYPES`.
    const U1: u8 = 0;
    const I1: u8 = 1;
    const I2: u8 = 2;
    const I4: u8 = 3;
    const I8: u8 = 4;
    const F2: u8 = 5;
    const F4: u8 = 6;
    const F8: u8 = 7;
    const C4: u8 = 8;
    const C8: u8 = 9;
    const B1: u8 = 10;
    const BF: u8 = 11;
    [
        // u1  i1  i2  i4  i8  f2  f4  f8  c4  c8  b1  bf
        [U1, I2, I2, I4, I8, F2, F4, F8, C4, C8, U1, BF], // u1
        [I2, I1, I2, I4, I8, F2, F4, F8, C4, C8, I1, BF], // i1
        [I2, I2, I2, I4, I8, F2, F4, F8, C4, C8, I2, BF], // i2
        [I4, I4, I4, I4, I8, F2, F4, F8, C4, C8, I4, BF], // i4
        [I8, I8, I8, I8, I8, F2, F4, F8, C4, C8, I8, BF], // i8
        [F2, F2, F2, F2, F2, F2, F4, F8, C4, C8, F2, F4], // f2
        [F4, F4, F4, F4, F4, F4, F4, F8, C4, C8, F4, F4], // f4
        [F8, F8, F8, F8, F8, F8, F8, F8, C8, C8, F8, F8], // f8
        [C4, C4, C4, C4, C4, C4, C4, C8, C4, C8, C4, C4], // c4
        [C8, C8, C8, C8, C8, C8, C8, C8, C8, C8, C8, C8], // c8
        [U1, I1, I2, I4, I8, F2, F4, F8, C4, C8, B1, BF], // b1
        [BF, BF, BF, BF, BF, F4, F4, F8, C4, C8, BF, BF], // bf
    ]
};

/// `phi::promoteTypes`: the table, or `DataTypeToNum`'s error for a dtype
/// outside it (`x` is looked up first).
pub(super) fn promote(x: DType, y: DType) -> Result<DType, PromotionError> {
    let num = |dtype: DType| {
        TABLE_DTYPES
            .iter()
            .position(|&d| d == dtype)
            .ok_or_else(|| {
                PromotionError::framework(
                    ErrorKind::Type,
                    format!(
                        "(InvalidType) Invalid enum data type for type promote {dtype}. (at \
                     /paddle/paddle/phi/common/type_promotion.h:46)\n"
                    ),
                )
            })
    };
    let row = num(x)?;
    Ok(TABLE_DTYPES[usize::from(TABLE[row][num(y)?])])
}

/// `is_support_int`: the integers of the table (`bool` is not one).
pub(super) fn is_int(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64
    )
}

/// `is_support_float`: the floats of the table.
pub(super) fn is_float(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Float16 | DType::Float32 | DType::Float64 | DType::BFloat16
    )
}

/// `is_support_complex`.
pub(super) fn is_complex(dtype: DType) -> bool {
    dtype.kind() == Kind::Complex
}

/// `is_common_dtype_for_scalar`: both integers, both floats or both
/// complex.
fn same_category(x: DType, y: DType) -> bool {
    (is_int(x) && is_int(y)) || (is_float(x) && is_float(y)) || (is_complex(x) && is_complex(y))
}

/// A tensor as promotion sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tensor {
    pub(super) dtype: DType,
    /// Whether it has no dimensions.
    pub(super) zero_dim: bool,
}

/// What an operation makes of a zero-dimensional tensor beside another of
/// a different dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ZeroDim {
    /// The operations of `support_promotion_ops` (`add`, `divide`, the
    /// comparisons, ...): beside a tensor with dimensions of its own
    /// category it takes that tensor's dtype; across categories, or two of
    /// them, the table decides.
    AsScalar,
    /// `floor_divide`: the table decides whatever the categories
    /// (`floor_divide_ad_func` asks `GetPromoteDtype` without the shapes).
    Table,
    /// The others (`maximum`, `logical_and`): no different from a tensor
    /// with dimensions.
    AsTensor,
}

/// The dtype two tensors of different dtypes compute in: `x` and `y` as
/// the operation's kernel takes them.
pub(super) fn common(x: Tensor, y: Tensor, zero_dim: ZeroDim) -> Result<DType, PromotionError> {
    let (a, b) = (x.dtype, y.dtype);
    if a == b {
        return Ok(a);
    }
    if (x.zero_dim || y.zero_dim) && zero_dim != ZeroDim::AsTensor {
        let by_table =
            zero_dim == ZeroDim::Table || !same_category(a, b) || (x.zero_dim && y.zero_dim);
        return match (by_table, x.zero_dim) {
            (true, _) => promote(a, b),
            (false, true) => Ok(b),
            (false, false) => Ok(a),
        };
    }
    if (is_float(a) && is_float(b)) || is_complex(a) || is_complex(b) {
        return promote(a, b);
    }
    Err(PromotionError::framework(
        ErrorKind::Type,
        format!(
        "(InvalidType) Type promotion only support calculations between floating-point numbers \
         and between complex and real numbers. But got different data type x: {a}, y: {b}. (at \
         /paddle/paddle/phi/common/type_promotion.h:220)\n"
    ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_symmetric() {
        for (a, row) in TABLE.iter().enumerate() {
            assert_eq!(usize::from(row[a]), a);
            for (b, &cell) in row.iter().enumerate() {
                assert_eq!(cell, TABLE[b][a]);
            }
        }
    }

    #[test]
    fn a_zero_dimensional_tensor_of_the_same_category_takes_the_others_dtype() {
        let t = |dtype, zero_dim| Tensor { dtype, zero_dim };
        let (x, y) = (t(DType::UInt8, false), t(DType::Int8, true));
        assert_eq!(common(x, y, ZeroDim::AsScalar), Ok(DType::UInt8));
        assert_eq!(common(x, y, ZeroDim::Table), Ok(DType::Int16));
        assert!(common(x, y, ZeroDim::AsTensor).is_err());
    }
}
