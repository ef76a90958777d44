//! An adopter of dtype-lattice: a small array type (a `Vec` per dtype)
//! whose mixed-dtype `+`, `/` and comparisons, and Python-style scalar
//! operands (`x + 2`, `x / 2.5`), take their result type from promotion
//! rules it does not write itself, in two ways:
//!
//! - [`Library`]: a policy chosen at run time by name, through the crate
//!   (`Library::new("jax")`);
//! - [`Tables`]: NumPy's tables generated at compile time by
//!   `dtype-lattice codegen` (`numpy_tables.rs`, committed; a test checks
//!   it is what the command writes today), which need nothing of the crate.
//!
//! ```
//! use dtype_lattice_adopter::{Array, Library, Scalar, Tables};
//!
//! let x = Array::from(vec![1i8, 2, 3]);
//! let y = Array::from(vec![250u8, 251, 252]);
//! let numpy = Library::new("numpy").unwrap();
//! // int8 + uint8 is int16 in NumPy, with either rules.
//! assert_eq!((x.with(&numpy) + &y).unwrap(), Array::from(vec![251i16, 253, 255]));
//! assert_eq!((x.with(&Tables) + &y).unwrap(), Array::from(vec![251i16, 253, 255]));
//! // A Python int is weak: the int8 array stays int8.
//! assert_eq!((x.with(&Tables) + Scalar::Int(2)).unwrap(), Array::from(vec![3i8, 4, 5]));
//! // JAX divides int8 by int8 in float32, NumPy in float64.
//! let jax = Library::new("jax").unwrap();
//! assert_eq!((x.with(&jax) / &x).unwrap(), Array::from(vec![1f32, 1.0, 1.0]));
//! assert_eq!((x.with(&Tables) / &x).unwrap(), Array::from(vec![1f64, 1.0, 1.0]));
//! // Errors are the adopter's own, with the framework's message: JAX's
//! // strict promotion refuses int8 with uint8.
//! let strict = dtype_lattice::registry::Settings { strict: true, ..Default::default() };
//! let strict = Library::with_settings("jax", strict).unwrap();
//! let err = (x.with(&strict) + &y).unwrap_err();
//! assert!(err.to_string().starts_with("Input dtypes ('int8', 'uint8') have no available"));
//! ```
//!
//! `src/array.rs` is the array, `src/rules.rs` the two ways (and a
//! hand-written `match`, which the benchmark compares them with),
//! `src/kernels.rs` the arithmetic.

mod array;
mod kernels;
#[rustfmt::skip]
#[allow(dead_code)]
mod numpy_tables {
    // Generated: `dtype-lattice codegen --lang rust --policy numpy --op add
    // --op true_divide --op less -o examples/adopter/src/numpy_tables.rs`.
    include!("numpy_tables.rs");
}
mod rules;

pub use array::{Array, DType, Scalar, Storage, With};
pub use rules::{hand_add, BinOp, Error, ErrorKind, Library, Operand, Rules, Tables};

/// The command that writes `numpy_tables.rs`, as its header names it.
pub const TABLES_COMMAND: &str =
    "dtype-lattice codegen --lang rust --policy numpy --op add --op true_divide --op less";

/// The generated file as committed, for the test that it is fresh.
pub const TABLES_SOURCE: &str = include_str!("numpy_tables.rs");
