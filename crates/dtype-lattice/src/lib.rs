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
//! Every framework answers through one trait, [`Policy`], found by name in
//! the [registry](registry::by_name): JAX, NumPy, the Array API, PyTorch,
//! TensorFlow, jax.lax, Keras, MLX, PaddlePaddle and tinygrad. Errors say which Python exception the
//! framework raises as an [`ErrorKind`] to match on:
//!
//! ```
//! use dtype_lattice::registry::{by_name, Settings};
//! use dtype_lattice::{DType, ErrorKind, Operand, Typed};
//!
//! let numpy = by_name("numpy", Settings::default()).unwrap();
//! let x = Operand::dtype(DType::Int8);
//! assert_eq!(numpy.result_type(&[x, Operand::py_float(2.5)]), Ok(Typed::strong(DType::Float64)));
//! let torch = by_name("torch", Settings::default()).unwrap();
//! let err = torch.promote_types(DType::Float8E5M2.into(), DType::Float32.into()).unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::Runtime);
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
//! A policy defined by a lattice hands the design tools a
//! [`TypedLattice`], whose nodes say which (dtype,
//! weak) value they stand for; the tools never read meaning from a label:
//!
//! ```
//! use dtype_lattice::design::explain::Report;
//! use dtype_lattice::design::Definition;
//! use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
//! use dtype_lattice::engine::Bound;
//!
//! let tf = TensorFlow::new(Mode::All);
//! let definition = Definition::from_policy(&tf).unwrap();
//! let poset = definition.poset().unwrap();
//! // A Python float is TensorFlow's weak float32; with int8 it joins at a weak float64.
//! let report = Report::new(&definition, &poset, Some(&tf), ["int8", "float"]).unwrap();
//! let Bound::Least(join) = report.why.bound else { panic!("a lattice") };
//! assert_eq!(report.label(join), "weak:float64");
//! ```
//!
//! # For array libraries
//!
//! An array type takes its mixed-dtype promotion from a [`Policy`]: map
//! its dtype enum to [`DType`] and back, ask [`Policy::operation`] with
//! its operands (Python-style scalars as [`Operand::py_int`] and its
//! kin, weak where the framework makes them so), and turn the
//! [`PromotionError`] (its [`ErrorKind`] and exact message) into its own.
//! Where one framework's rules are fixed at compile time,
//! [`design::codegen`] writes them as constant tables that need nothing of
//! this crate. docs/adopting.md says how, and `examples/adopter/` does
//! both.
//!
//! # Without std
//!
//! With `default-features = false` the crate is `#![no_std]` (it needs
//! `alloc`: messages, tables and `Box<dyn Policy>` allocate) and keeps what
//! an array library asks at run time: the dtypes, operands and errors, every
//! built-in policy's promotion and operations, the [`registry`] that finds
//! them by name, the [`engine`], and the batch protocol's `answer_line`
//! with feature `json`. Feature `std` (on by default) adds the [`design`]
//! tools, lattice files (feature `toml`, which implies `std`), streaming the
//! batch protocol, and threads for filling a large lattice's join table.
//! The public paths are the same either way; an item needs std where its
//! module is missing without it.
//!
//! ```toml
//! [dependencies]
//! dtype-lattice = { version = "0.1", default-features = false }
//! ```
//!
//! Without std, a built-in policy's tables are still built at first use and
//! kept, but threads that meet them unbuilt at once may each build them
//! (one copy is kept; the answers cannot differ), and float functions come
//! from `libm`. `examples/no-std-consumer` is a `#![no_std]` static library
//! built this way, whose build fails if std is linked, and its `golden/`
//! test checks that the core answers every golden case as the full crate
//! does.
//!
//! # Layers
//!
//! One folder per layer; each uses only the layers above it in this list.
//!
//! - `text`: how user text is quoted in messages, and the one "did you
//!   mean" every message asks (hidden: the front ends' helper, not an API).
//! - `prelude`, `once`, `float` (private): what std gives and core lacks
//!   (alloc's names, a value built once, float functions), so that every
//!   layer builds with or without std.
//! - `types/` (private; its items are here at the root): the vocabulary.
//!   The 32 dtypes ([`DType`]), operands ([`Operand`], [`TypeSpec`],
//!   [`PyScalar`]), results ([`Typed`]), errors ([`PromotionError`],
//!   [`ErrorKind`]), `finfo`/`iinfo`, and NumPy's scalar [`hierarchy`].
//! - [`engine`]: knows nothing of dtypes. Edges in, a verified join table
//!   out; bounds, paths and the Hasse diagram.
//! - `policy/` (private; its items are here at the root): the [`Policy`]
//!   trait every framework implements and the [`TypedLattice`] lattice
//!   policies expose.
//! - [`frameworks`]: one module per framework, each behind [`Policy`]
//!   (JAX's with its lattice data, its rules, and a private module of
//!   hot-path tables), and what they share.
//! - [`registry`]: the one place that names every framework
//!   ([`POLICIES`](registry::POLICIES)) and every setting
//!   ([`SETTINGS`](registry::SETTINGS)), for every front end.
//! - [`design`] (feature `std`): the tools for designing promotion:
//!   definitions and lattice files, check, audit, associativity, explain,
//!   tables, diffs, drawings.
//! - `protocol` (feature `json`): the batch protocol, one JSON request in,
//!   one answer out, which every front end answers through.
//!
//! The command-line tool and its web explorer (crate `dtype-lattice-cli`)
//! and the Python package (`python/`) only parse, call these functions and
//! render. DESIGN.md says why the layers are cut where they are, and how to
//! add a framework or a setting.

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The messages, tables and policies allocate; `alloc` is all the core needs
// of std. Its macros (`format!`, `vec!`) are std's prelude's with std.
#[cfg(not(feature = "std"))]
#[macro_use]
extern crate alloc;
#[cfg(feature = "std")]
extern crate alloc;

#[cfg(feature = "std")]
pub mod design;
pub mod engine;
mod float;
pub mod frameworks;
mod once;
mod policy;
mod prelude;
#[cfg(feature = "json")]
pub mod protocol;
pub mod registry;
// The front ends quote user text and guess "did you mean" as the library's
// messages do; public for them, not part of the documented API.
#[doc(hidden)]
pub mod text;
mod types;

pub use policy::{JaxFunctions, Policy, TypedLattice, WrittenGraph};
pub use types::hierarchy;
pub use types::{
    ArrayCall, ArrayOp, Asked, Family, KeywordError, Operation, Outcome, ParseArrayOpError,
    ParseOperationError, MAX_SEQUENCE,
};
pub use types::{
    Call, CallError, DType, Elsewhere, ErrorKind, FInfo, IInfo, InfoError, Kind, NoPathReason, Op,
    OpForm, Operand, OperandKind, Operator, ParseDTypeError, ParseOpError, ParseOpFormError,
    ParseOperandError, PromotionError, PyScalar, TypeList, TypeSpec, Typed, Unanswered, Warning,
    WarningKind,
};
