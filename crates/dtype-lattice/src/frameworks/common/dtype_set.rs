//! A set of dtypes as one word.

use crate::types::DType;

/// A set of dtypes: the dtypes a framework has, a kernel computes in, or
/// a rule treats alike. Bit `i` stands for the dtype of
/// [index](DType::index) `i`, so a set is built in a `const` and asked in
/// one load; iteration is in [`DType::ALL`]'s order.
///
/// Where a framework's own order matters (a promotion table indexed by
/// position, the dtypes a kernel error message lists), the framework keeps
/// an array: a set has no order of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct DTypeSet(u64);

// Every dtype needs a bit.
const _: () = assert!(DType::COUNT <= u64::BITS as usize);

impl DTypeSet {
    /// The set of `dtypes` (repeats are harmless).
    pub(crate) const fn of(dtypes: &[DType]) -> DTypeSet {
        let mut bits = 0;
        let mut i = 0;
        while i < dtypes.len() {
            bits |= 1 << dtypes[i].index();
            i += 1;
        }
        DTypeSet(bits)
    }

    /// Whether `dtype` is in the set.
    pub(crate) const fn contains(self, dtype: DType) -> bool {
        self.0 >> dtype.index() & 1 == 1
    }

    /// The dtypes in either set.
    pub(crate) const fn with(self, other: DTypeSet) -> DTypeSet {
        DTypeSet(self.0 | other.0)
    }

    /// The dtypes of `self` not in `other`.
    pub(crate) const fn without(self, other: DTypeSet) -> DTypeSet {
        DTypeSet(self.0 & !other.0)
    }

    /// The dtypes of the set, in [`DType::ALL`]'s order.
    pub(crate) fn iter(self) -> impl Iterator<Item = DType> {
        DType::ALL
            .into_iter()
            .filter(move |&dtype| self.contains(dtype))
    }
}

impl core::fmt::Debug for DTypeSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_holds_exactly_its_dtypes() {
        let set = DTypeSet::of(&[DType::Int8, DType::Bool, DType::Int8]);
        assert_eq!(set.iter().collect::<Vec<_>>(), [DType::Bool, DType::Int8]);
        let all = DTypeSet::of(&DType::ALL);
        assert_eq!(all.iter().count(), DType::COUNT);
        assert!(DType::ALL.iter().all(|&d| all.contains(d)));
        assert_eq!(all.without(set).iter().count(), DType::COUNT - 2);
        assert!(!all.without(set).contains(DType::Int8));
        assert_eq!(DTypeSet::of(&[]).with(set), set);
    }
}
