//! PyTorch's kernels as data: the types each kernel has code for, as its
//! dispatch macros (`AT_DISPATCH_...`) list them, measured on the CPU.

use super::ScalarType;
use crate::frameworks::common::DTypeSet;
use crate::prelude::*;
use crate::types::DType;

/// A set of the types PyTorch computes in, as its dispatch macros list
/// them: dtypes, and the two half-precision complex types this crate has
/// no dtype for (`complex32`, `bcomplex32`).
#[derive(Clone, Copy)]
pub(super) struct Types {
    dtypes: DTypeSet,
    /// Bit 0 `complex32`, bit 1 `bcomplex32`.
    half_complex: u8,
}

impl Types {
    const fn of(dtypes: &[DType]) -> Types {
        Types {
            dtypes: DTypeSet::of(dtypes),
            half_complex: 0,
        }
    }

    /// No type.
    pub(super) const NONE: Types = Types::of(&[]);

    pub(super) const fn without(self, other: Types) -> Types {
        Types {
            dtypes: self.dtypes.without(other.dtypes),
            half_complex: self.half_complex & !other.half_complex,
        }
    }

    pub(super) const fn with(self, other: Types) -> Types {
        Types {
            dtypes: self.dtypes.with(other.dtypes),
            half_complex: self.half_complex | other.half_complex,
        }
    }

    pub(super) fn contains(self, scalar_type: ScalarType) -> bool {
        match scalar_type {
            ScalarType::DType(dtype) => self.dtypes.contains(dtype),
            ScalarType::HalfComplex(DType::BFloat16) => self.half_complex & 2 != 0,
            ScalarType::HalfComplex(_) => self.half_complex & 1 != 0,
        }
    }
}

pub(super) const BOOL: Types = Types::of(&[DType::Bool]);
/// `AT_INTEGRAL_TYPES`.
pub(super) const INTEGRAL: Types = Types::of(&[
    DType::UInt8,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
]);
/// The unsigned types PyTorch has "barebones" support for, which few
/// kernels add.
pub(super) const BAREBONES: Types = Types::of(&[DType::UInt16, DType::UInt32, DType::UInt64]);
pub(super) const FLOATING: Types = Types::of(&[DType::Float32, DType::Float64]);
/// float16 and bfloat16, which most float kernels add.
pub(super) const HALVES: Types = Types::of(&[DType::Float16, DType::BFloat16]);
pub(super) const COMPLEX: Types = Types::of(&[DType::Complex64, DType::Complex128]);
/// `AT_FLOAT8_TYPES`, which leaves out float8_e8m0fnu.
pub(super) const FLOAT8: Types = Types::of(&[
    DType::Float8E4M3Fn,
    DType::Float8E5M2,
    DType::Float8E4M3Fnuz,
    DType::Float8E5M2Fnuz,
]);
pub(super) const E8M0: Types = Types::of(&[DType::Float8E8M0Fnu]);
pub(super) const COMPLEX32: Types = Types {
    half_complex: 1,
    ..Types::NONE
};
pub(super) const BCOMPLEX32: Types = Types {
    half_complex: 2,
    ..Types::NONE
};

/// Every type but the sub-byte integers, which PyTorch only stores.
pub(super) const STORED: Types = BOOL
    .with(INTEGRAL)
    .with(BAREBONES)
    .with(FLOAT8)
    .with(E8M0)
    .with(HALVES)
    .with(FLOATING)
    .with(COMPLEX)
    .with(COMPLEX32)
    .with(BCOMPLEX32);
/// The twelve dtypes of PyTorch's promotion table.
pub(super) const CLASSIC: Types = BOOL
    .with(INTEGRAL)
    .with(HALVES)
    .with(FLOATING)
    .with(COMPLEX);
/// The real numbers the most kernels have.
pub(super) const REAL: Types = INTEGRAL.with(HALVES).with(FLOATING);
pub(super) const INEXACT: Types = HALVES.with(FLOATING).with(COMPLEX);
/// The real numbers and bool: what `lt`, `le`, `gt`, `ge` and `sign` take.
pub(super) const ORDERED: Types = REAL.with(BOOL);
pub(super) const BITWISE: Types = INTEGRAL.with(BOOL).with(BAREBONES);
/// `mul`'s: the most of any arithmetic.
pub(super) const MUL: Types = CLASSIC
    .with(COMPLEX32)
    .with(BAREBONES)
    .with(FLOAT8)
    .with(E8M0);

/// A kernel: its name, as its errors give it, and the types it has code
/// for.
#[derive(Clone, Copy)]
pub(super) struct Kernel {
    pub(super) name: &'static str,
    pub(super) types: Types,
    /// The kernel run instead for a reduced float (float16, bfloat16, the
    /// float8 types) when the second input is a scalar (a zero-dimensional
    /// tensor or a Python number), which has float16 and bfloat16 only.
    pub(super) reduced: Option<&'static str>,
}

pub(super) const fn kernel(name: &'static str, types: Types) -> Kernel {
    Kernel {
        name,
        types,
        reduced: None,
    }
}

impl Types {
    /// The types in the set, by name.
    pub(super) fn names(self) -> Vec<&'static str> {
        let mut names: Vec<&str> = DType::ALL
            .into_iter()
            .filter(|&dtype| self.contains(ScalarType::DType(dtype)))
            .map(DType::name)
            .collect();
        if self.contains(ScalarType::HalfComplex(DType::Float16)) {
            names.push("complex32");
        }
        if self.contains(ScalarType::HalfComplex(DType::BFloat16)) {
            names.push("bcomplex32");
        }
        names
    }
}
