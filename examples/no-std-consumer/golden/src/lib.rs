//! Nothing: the package is its test (`tests/golden.rs`).
