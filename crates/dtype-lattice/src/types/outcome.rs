//! [`Outcome`]: what an operation on whole arrays answers, the result's
//! type and the type the framework computes in.

use core::fmt;
use core::num::NonZeroU32;

use crate::types::{DType, Typed};

/// What an [`ArrayOp`](crate::ArrayOp) answers: the result's type, and the
/// type the framework computes in where it says (`None` where it does not,
/// or where the policy does not model it): JAX's `float16` `mean` sums in
/// `float32` and returns `float16`; PyTorch's `bfloat16` `sum` accumulates
/// in `float32`.
///
/// ```
/// use dtype_lattice::{DType, Outcome, Typed};
/// let mean = Outcome::new(Typed::strong(DType::Float16), Some(DType::Float32));
/// assert_eq!(mean.result(), Typed::strong(DType::Float16));
/// assert_eq!(mean.computes_in(), Some(DType::Float32));
/// assert_eq!(mean.to_string(), "float16 (computes in float32)");
/// assert_eq!(Outcome::of(Typed::strong(DType::Int64)).to_string(), "int64");
/// ```
//
// Why one word rather than the three one-byte fields it holds: an answer
// is read from a table and handed back inside a `Result`, and its caller
// reads it whole (to store it, to compare it). Three fields are written
// one by one and read back as a word, and the processor cannot forward
// stores of parts to a load of the whole: that stall was three quarters
// of a reduction's time (BENCHMARKS.md). A word is written and read as
// one. The bit that is always set makes the word non-zero, so an
// `Option<Outcome>` (a table's cell) is a word too.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome(NonZeroU32);

/// Bits 0-7: the result's dtype index; bit 8: its weak flag; bits 16-23:
/// the computation dtype's index plus one (0: none said); bit 31: set.
const WEAK: u32 = 1 << 8;
const COMPUTES_SHIFT: u32 = 16;
const SET: u32 = 1 << 31;

/// Each byte's dtype, so that decoding a word needs no bounds check: the
/// bytes past [`DType::COUNT`] are never written.
const BY_INDEX: [DType; 256] = {
    let mut table = [DType::Bool; 256];
    let mut i = 0;
    while i < DType::COUNT {
        table[i] = DType::ALL[i];
        i += 1;
    }
    table
};

impl Outcome {
    /// A result and the type the framework computes it in.
    pub const fn new(result: Typed, computes_in: Option<DType>) -> Outcome {
        let computes = match computes_in {
            Some(dtype) => dtype.index() as u32 + 1,
            None => 0,
        };
        let weak = if result.weak { WEAK } else { 0 };
        let word = SET | (result.dtype.index() as u32) | weak | (computes << COMPUTES_SHIFT);
        match NonZeroU32::new(word) {
            Some(word) => Outcome(word),
            // `SET` is in every word.
            None => unreachable!(),
        }
    }

    /// A result with no computation type said.
    pub const fn of(result: Typed) -> Outcome {
        Outcome::new(result, None)
    }

    /// The result.
    pub const fn result(self) -> Typed {
        let word = self.0.get();
        Typed {
            dtype: BY_INDEX[(word & 0xFF) as usize],
            weak: word & WEAK != 0,
        }
    }

    /// The type the framework computes in, where it says.
    pub const fn computes_in(self) -> Option<DType> {
        match (self.0.get() >> COMPUTES_SHIFT) & 0xFF {
            0 => None,
            index => Some(BY_INDEX[index as usize - 1]),
        }
    }

    /// The same result, computed in `computes_in`.
    pub const fn with_computes_in(self, computes_in: Option<DType>) -> Outcome {
        Outcome::new(self.result(), computes_in)
    }

    /// The computation type where it differs from the result's: what a
    /// front end shows beside the result.
    pub fn computes_apart(self) -> Option<DType> {
        self.computes_in().filter(|&d| d != self.result().dtype)
    }
}

impl fmt::Debug for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Outcome")
            .field("result", &self.result())
            .field("computes_in", &self.computes_in())
            .finish()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.result())?;
        if let Some(dtype) = self.computes_apart() {
            write!(f, " (computes in {dtype})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_result_and_computation_type_reads_back() {
        for dtype in DType::ALL {
            for weak in [false, true] {
                let result = Typed { dtype, weak };
                for computes_in in core::iter::once(None).chain(DType::ALL.map(Some)) {
                    let outcome = Outcome::new(result, computes_in);
                    assert_eq!(
                        (outcome.result(), outcome.computes_in()),
                        (result, computes_in)
                    );
                }
            }
        }
        assert_eq!(size_of::<Option<Outcome>>(), 4);
    }
}
