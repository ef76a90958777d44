//! [`Typed`]: what a promotion answers, a dtype and JAX's weak flag.

use core::fmt;

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

    /// How many (dtype, weak) values there are room for: every
    /// [`index`](Self::index) is below it. A power of two, so that masking
    /// an index with `COUNT - 1` proves it in bounds without changing it;
    /// the indices between the strong values and the weak ones are unused.
    pub const COUNT: usize = 2 << Typed::WEAK_SHIFT;

    /// The weak flag's bit in [`index`](Self::index): the first above
    /// every dtype's index.
    const WEAK_SHIFT: u32 = DType::COUNT.next_power_of_two().trailing_zeros();

    /// The value as one number below [`COUNT`](Self::COUNT): the dtype's
    /// index, with a bit above every dtype's index set when weak. Tables
    /// of answers are indexed by it.
    ///
    /// ```
    /// use dtype_lattice::{DType, Typed};
    /// assert_eq!(Typed::strong(DType::Bool).index(), 0);
    /// assert_eq!(Typed::weak(DType::Bool).index(), Typed::COUNT / 2);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        // A shift and an `or`, not a multiply and an add: the hot path's
        // tables are indexed by this, and masks then prove it in bounds.
        (self.weak as usize) << Typed::WEAK_SHIFT | self.dtype.index()
    }
}

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
