//! The vocabulary every framework module shares, so that the same idea is
//! written once: a table per operation ([`OpTable`]), what an operation's
//! result is made of ([`Output`]), a set of dtypes ([`DTypeSet`]), and
//! Python's side of an array's operators ([`Arrays`]).
//! Framework errors are built with
//! [`PromotionError::framework`](crate::PromotionError::framework).

pub(crate) mod array_ops;
mod dtype_set;
mod op_table;
pub(crate) mod operators;
mod output;

pub(crate) use dtype_set::DTypeSet;
pub(crate) use op_table::OpTable;
pub(crate) use operators::Arrays;
pub(crate) use output::Output;
