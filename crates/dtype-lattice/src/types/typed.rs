//! [`Typed`]: what a promotion answers, a dtype and JAX's weak flag.

use std::fmt;

use crate::types::DType;

/// A result type: a dtype and JAX's weak flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Typed {
    /// The dtype.
    pub dtype: DType,
    /// Whether the value is weakly typed (promotes like a Python scalar).
    pub weak: bool,
}

impl Typed {
    /// A strongly-typed result.
    pub const fn strong(dtype: DType) -> Typed {
        Typed { dtype, weak: false }
    }

    /// A weakly-typed result.
    pub const fn weak(dtype: DType) -> Typed {
        Typed { dtype, weak: true }
    }

    /// How many (dtype, weak) values there are: every [`index`](Self::index)
    /// is below it. A power of two, so that masking an index with
    /// `COUNT - 1` proves it in bounds without changing it.
    pub const COUNT: usize = 2 * DType::COUNT;

    /// The value as one number below [`COUNT`](Self::COUNT): the dtype's
    /// index, plus [`DType::COUNT`] when weak. Tables of answers are
    /// indexed by it.
    ///
    /// ```
    /// use dtype_lattice::{DType, Typed};
    /// assert_eq!(Typed::strong(DType::Bool).index(), 0);
    /// assert_eq!(Typed::weak(DType::Bool).index(), DType::COUNT);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        // A shift and an `or`, not a multiply and an add: the hot path's
        // tables are indexed by this, and masks then prove it in bounds.
        (self.weak as usize) << 5 | self.dtype.index()
    }
}

// `Typed::index` shifts by 5: it takes 32 dtypes.
const _: () = assert!(DType::COUNT == 32);

impl fmt::Display for Typed {
    /// The dtype name, followed by ` (weak)` for a weak result.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dtype)?;
        if self.weak {
            write!(f, " (weak)")?;
        }
        Ok(())
    }
}
