//! A table with one row per operation, keyed by [`Op`].
//!
//! Every framework keeps what it does per operation as data: NumPy's ufunc
//! loops, PyTorch's signatures and kernels, TensorFlow's functions. Written
//! as a bare array read by `op as usize`, such a table is correct only as
//! long as its rows stay in `Op`'s order, which nothing checks. Here each
//! row names its operation, and [`OpTable::new`] refuses, at compile time,
//! a table that skips, repeats or reorders one.

use core::ops::Index;

use crate::types::Op;

/// One `T` per operation, every operation once, in [`Op::ALL`]'s order.
pub(crate) struct OpTable<T>([(Op, T); Op::COUNT]);

impl<T> OpTable<T> {
    /// The table of these rows. Used in a `const` item, a row out of
    /// order fails the build.
    pub(crate) const fn new(rows: [(Op, T); Op::COUNT]) -> OpTable<T> {
        let mut i = 0;
        while i < Op::COUNT {
            if rows[i].0 as usize != i {
                panic!("an operation table lists every operation once, in Op's order");
            }
            i += 1;
        }
        OpTable(rows)
    }

    /// `op`'s row, in a `const` context too.
    pub(crate) const fn get(&self, op: Op) -> &T {
        &self.0[op as usize].1
    }
}

impl<T> Index<Op> for OpTable<T> {
    type Output = T;

    fn index(&self, op: Op) -> &T {
        self.get(op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_found_by_its_operation() {
        const NAMES: OpTable<&str> = {
            let mut rows = [(Op::Add, ""); Op::COUNT];
            let mut i = 0;
            while i < Op::COUNT {
                rows[i] = (Op::ALL[i], Op::ALL[i].name());
                i += 1;
            }
            OpTable::new(rows)
        };
        for op in Op::ALL {
            assert_eq!(NAMES[op], op.name());
        }
    }

    #[test]
    #[should_panic(expected = "in Op's order")]
    fn a_table_out_of_order_is_refused() {
        let mut rows = Op::ALL.map(|op| (op, ()));
        rows.swap(0, 1);
        OpTable::new(rows);
    }
}
