//! Lattice-based dtype promotion: what type `int8 + uint8`,
//! `bfloat16 + float16` or `x + 2` produces, exactly as JAX decides it.
//!
//! # The idea
//!
//! Draw an edge `a -> b` whenever a value of type `a` may be promoted to
//! type `b` without surprise: `int8 -> int16`, `float16 -> float32`, and,
//! for Python's scalar types, `int -> int8` (a Python `2` should not widen
//! an `int8` array). Promoting two types means walking up from both to the
//! first type they share: their *join*, or least upper bound. If that join
//! always exists and is unique, the graph is a *lattice*, and promotion has
//! the properties a user expects without being told: the order of operands
//! does not matter (`a ∨ b = b ∨ a`), neither does grouping
//! (`(a ∨ b) ∨ c = a ∨ (b ∨ c)`), and a type promoted with itself is itself.
//! This is the design of JAX's type promotion (JEP 9407); this crate
//! reproduces it to the error message, and lets you build, verify and query
//! lattices of your own.
//!
//! # Tour
//!
//! JAX's rules under its default settings (`jax_enable_x64` off, standard
//! promotion):
//!
//! ```
//! use dtype_lattice::frameworks::jax::Jax;
//! use dtype_lattice::{DType, Operand, PyScalar, Typed};
//!
//! let jax = Jax::default();
//! assert_eq!(jax.promote_types(DType::Int8, DType::UInt8), Ok(DType::Int16));
//! assert_eq!(jax.promote_types(DType::BFloat16, DType::Float16), Ok(DType::Float32));
//!
//! // `x + 2` for an int16 array x: the Python int is weakly typed.
//! let x = Operand::array(DType::Int16, false);
//! assert_eq!(jax.result_type(&[x, Operand::py_int(2)]), Ok(Typed::strong(DType::Int16)));
//!
//! // A Python float alone is a weak float32 when x64 is off.
//! assert_eq!(jax.result_type(&[PyScalar::Float.into()]), Ok(Typed::weak(DType::Float32)));
//!
//! // Errors carry JAX's exception type and message.
//! let err = jax.promote_types(DType::Float8E4M3Fn, DType::Float32).unwrap_err();
//! assert_eq!(err.python_type(), "TypePromotionError");
//! assert!(err.to_string().contains("8-bit floats do not support implicit promotion"));
//! ```
//!
//! Dtypes parse from every name NumPy accepts and know their numeric facts:
//!
//! ```
//! use dtype_lattice::DType;
//!
//! let f8: DType = "float8_e4m3fn".parse().unwrap();
//! assert_eq!("<i2".parse::<DType>(), Ok(DType::Int16));
//! assert_eq!(f8.itemsize_bits(), 8);
//! assert_eq!(DType::Int4.iinfo().map(|i| (i.min, i.max)), Ok((-8, 7)));
//! ```
//!
//! The engine works on any graph, and says why one is not a lattice:
//!
//! ```
//! use dtype_lattice::engine::Lattice;
//!
//! let lattice = Lattice::from_dict(&[
//!     ("bool", &["int"][..]),
//!     ("int", &["float"]),
//!     ("float", &["complex"]),
//! ])
//! .unwrap();
//! let (int, complex) = (lattice.node("int").unwrap(), lattice.node("complex").unwrap());
//! assert_eq!(lattice.join(int, complex), Some(complex));
//!
//! let err = Lattice::from_dict(&[("a", &["b"][..]), ("b", &["a"])]).unwrap_err();
//! assert!(err.to_string().starts_with("the edges form a cycle: a -> b -> a"));
//! ```
//!
//! # Map
//!
//! - [`dtype`]: the 32 dtypes, their names, kinds and widths.
//! - [`info`]: `finfo` / `iinfo`, derived from each format's encoding.
//! - [`hierarchy`]: NumPy's scalar hierarchy (`issubdtype`) and the Array
//!   API's kinds (`isdtype`).
//! - [`lattice`]: the engine: edges in, a verified join table out.
//! - [`explain`]: why two types promote as they do (bounds, paths, joins);
//!   [`hasse`]: the diagram of a graph, its implied edges dropped.
//! - [`Policy`]: the interface every framework's rules implement.
//! - [`jax`]: JAX's lattices, configuration and rules.
//! - [`definition`]: a graph with node meanings, for the design tools;
//!   `lattice_file` (feature `toml`) reads one from a TOML file.
//! - [`analysis`]: is a graph a (partial) lattice, and why not.
//! - [`audit`]: the design notebook's criteria (dropped components,
//!   overflow, precision loss, widening) on every pair.
//! - Other frameworks' rules behind the same [`Policy`]: [`numpy`],
//!   [`array_api`], [`torch`], [`tensorflow`], [`jax_lax`].
//!
//! Data flows one way: the engine knows nothing of dtypes, JAX's module hands
//! it edge lists and asks for joins, and the command-line tool (the
//! `dtype-lattice-cli` crate) only parses and renders.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod design;
pub mod engine;
pub mod frameworks;
pub mod policy;
#[cfg(feature = "json")]
pub mod protocol;
pub mod types;

pub use policy::Policy;
pub use types::{
    DType, ErrorKind, FInfo, IInfo, InfoError, Kind, NoPathReason, Operand, OperandKind,
    ParseDTypeError, ParseOperandError, PromotionError, PyScalar, TypeList, TypeSpec, Typed,
};
