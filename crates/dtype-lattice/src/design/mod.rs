//! The design tools: they take a promotion graph that may or may not be a
//! lattice (a built-in policy's, or a lattice file's) and say what it is.
//!
//! - [`Definition`]: a graph whose nodes say what they stand for, not yet
//!   validated; [`lattice_file`] (feature `toml`) reads one from TOML.
//! - [`Subject`]: what a report is about, a graph or a policy's rules.
//! - [`check`]: is it a (partial) lattice, and why not.
//! - [`audit`]: the design notebook's criteria on every pair.
//! - [`associativity`]: triples whose grouping changes the answer.
//! - [`explain`]: why two nodes promote as they do, with the rules' error.
//! - [`table`] and [`diff`]: promotion tables and the cells where two
//!   policies differ, as data for any front end to render;
//!   [`compatibility`]: how far apart every two policies are.
//! - [`Definition::from_dict`]: a graph given as a dict of lists, as JAX's `dtypes.py`
//!   writes one; [`dict_text`] reads one from Python or JSON text.
//! - [`graph`]: the Hasse diagram drawn as SVG (laid out here) or DOT.
//! - [`codegen`]: the tables written as Rust, C or Python source that
//!   needs nothing of this crate.
//! - [`promotions`]: a program's recorded promotions, judged by the
//!   criteria and compared with other policies.
//!
//! With the feature `json`, every report also renders as the one JSON
//! form the command line, the explorer and the Python package show (the
//! front ends' wire format, not part of the documented API: `json.rs`).
//!
//! # Files
//!
//! `definition.rs` (`Definition`). A graph comes in three ways:
//! `lattice_file/` (feature `toml`: `scan.rs` the bounded first pass,
//! `parse.rs` the meanings), `dict_text.rs` (a dict of lists as Python or
//! JSON text) and `from_dict.rs` (as data), all fed to one `builder.rs`,
//! refused with one `DefinitionError` (`error.rs`, places from
//! `location.rs`) within one set of limits (`limits.rs`). Then `subject.rs`
//! (what a report is about), `check.rs`, `audit.rs`, `associativity.rs`,
//! `explain.rs`, `table.rs`, `diff.rs`, `codegen/` (tables as source: one
//! file per language), `compatibility/`, `graph/` (SVG and
//! DOT) with `layout.rs` (its layered layout), `promotions/` (a program's
//! recorded promotions aggregated, sorted and filtered; `judge.rs` what each
//! entry is judged by, `render.rs` its text), and `json.rs` (every report's
//! JSON, feature `json`).

pub mod associativity;
pub mod audit;
mod builder;
pub mod check;
pub mod codegen;
pub mod compatibility;
mod definition;
// The explorer's editor reads a pasted Python dict as the library does;
// public for it, not part of the documented API (users pass a dict:
// `DictSpec`).
mod definition_error;
#[doc(hidden)]
pub mod dict_text;
pub mod diff;
mod error;
pub mod explain;
mod from_dict;
pub mod graph;
#[cfg(feature = "json")]
mod json;
#[cfg(feature = "toml")]
pub mod lattice_file;
mod layout;
pub mod limits;
mod location;
pub mod promotions;
mod subject;
pub mod table;

pub use definition::{Definition, NodeDef, WEAK_LABELS};
pub use definition_error::{DefinitionError, DefinitionErrorKind, Origin};
pub use error::Error;
pub use from_dict::DictSpec;
pub use location::Location;
pub use subject::{NoGraph, Subject};
