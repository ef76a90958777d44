//! Helpers shared by test files (and, by path, the scale example).

pub mod counting_alloc;
