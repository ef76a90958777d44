//! Lattice files: a promotion graph written in TOML (feature `toml`).
//!
//! ```toml
//! name = "option-3"                 # required
//! description = "..."               # optional
//! weak = ["u*"]                     # optional: more weak (scalar) nodes
//! [dtypes]                          # optional: label -> dtype name
//! u8 = "uint8"
//! [edges]                           # node -> the nodes it may promote to
//! "i*" = ["u8", "int8"]
//! u8 = ["uint16", "int16"]
//! ```
//!
//! Every label in the file is a node; nodes need no declaration, so a label
//! that appears only as an edge target is a node with no edges out, as in
//! JAX's lattice dict. Nodes are numbered in order of first mention in the
//! file. A node stands for a dtype when its label is a canonical dtype name
//! or is mapped in `[dtypes]` (the value may be any name
//! [`DType::from_name`](crate::DType::from_name) accepts). `i*`, `f*` and `c*` are always weak (JAX's
//! weak types), and so is every label listed in `weak`; a weak node may be
//! mapped in `[dtypes]` too, to say what a weak value is stored as (JAX's
//! `f*` is `float64` with x64). Any other label is an opaque node: checked
//! and drawn, left out of numeric criteria.
//!
//! Refused, with the file, line, column and a fix: bad TOML (duplicate keys
//! included), bytes that are not UTF-8, a missing `name`, an unknown
//! top-level key, a value of the wrong type, an empty label, an edge from a
//! node to itself, a `[dtypes]` value that names no dtype, a canonical dtype
//! name mapped to another dtype, and two non-weak nodes standing for one
//! dtype. Cycles and ambiguous joins are not file errors: they are what
//! [`Check::new`](crate::design::check::Check::new) reports.
//!
//! # Limits
//!
//! Checking a graph costs O(n³/64) word operations and n² table entries for
//! n nodes, so a file is refused beyond [`MAX_BYTES`] bytes,
//! [`MAX_NODES`](crate::design::limits::MAX_NODES) nodes or [`MAX_EDGES`](crate::design::limits::MAX_EDGES) edges, with a message saying so.
//! Within the limits a file parses in a fraction of a second.
//!
//! Memory stays within a small multiple of the file's size whatever the
//! text: a first pass over the raw text (TOML's own lexer, `toml_parser`'s,
//! read as a stream in constant memory) refuses, at the first place past a
//! limit, an unknown top-level key, a value of a shape the format does not
//! have (so nesting stays two levels deep), more than [`MAX_NODES`](crate::design::limits::MAX_NODES)
//! nodes, [`MAX_EDGES`](crate::design::limits::MAX_EDGES) edges, [`MAX_NODES`](crate::design::limits::MAX_NODES) `weak` labels or
//! [`MAX_KEYS`](crate::design::limits::MAX_KEYS) keys. It
//! keeps the labels of every array of labels itself, and hands the TOML
//! parser the text with those arrays, comments and blank lines blanked out
//! (same offsets, so every place reported stays right): a few tokens per
//! key, however large the file.
//!
//! ```
//! use dtype_lattice::design::lattice_file;
//! use dtype_lattice::DType;
//!
//! let definition = lattice_file::parse(
//!     r#"
//! name = "python"
//! [dtypes]
//! int = "int64"
//! [edges]
//! bool = ["int"]
//! int = ["float64"]
//! "#,
//! )
//! .unwrap();
//! let labels: Vec<&str> = definition.nodes.iter().map(|n| n.label.as_str()).collect();
//! assert_eq!(labels, ["int", "bool", "float64"]);
//! assert_eq!(definition.nodes[0].dtype, Some(DType::Int64));
//!
//! let err = lattice_file::parse("name = \"x\"\n[dtypes]\nu8 = \"unit8\"\n").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "lattice file:3:6: [dtypes] maps 'u8' to an unknown dtype 'unit8': did you mean 'uint8'?"
//! );
//! ```

use std::io::Read;
use std::path::Path;

use toml::de::DeTable;

use crate::design::limits::MAX_BYTES;
use crate::design::{Definition, DefinitionError, DefinitionErrorKind, Location, Origin};

mod parse;
mod scan;
#[cfg(test)]
mod tests;

use parse::Parser;
use scan::Scan;

/// Reads and parses a lattice file. Reads at most [`MAX_BYTES`] + 1
/// bytes, so a huge file (or a device that never ends) is refused quickly.
pub fn read(path: impl AsRef<Path>) -> Result<Definition, DefinitionError> {
    let path = path.as_ref();
    std::fs::File::open(path)
        .map_err(|err| {
            DefinitionError::new(
                Origin::LatticeFile,
                DefinitionErrorKind::Io(err.to_string()),
                None,
            )
        })
        .and_then(read_from)
        .map_err(|err| err.with_path(path))
}

/// Reads a lattice file from `reader` (standard input, say) and parses it.
/// Reads at most [`MAX_BYTES`] + 1 bytes, as [`read`] does; errors
/// name no file (see [`DefinitionError::with_path`]).
pub fn read_from(reader: impl Read) -> Result<Definition, DefinitionError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| {
            DefinitionError::new(
                Origin::LatticeFile,
                DefinitionErrorKind::Io(err.to_string()),
                None,
            )
        })?;
    parse_bytes(&bytes)
}

/// Parses a lattice file's bytes: they must be UTF-8.
pub fn parse_bytes(bytes: &[u8]) -> Result<Definition, DefinitionError> {
    check_size(bytes.len())?;
    parse(DefinitionError::text(bytes, Origin::LatticeFile)?)
}

/// Parses the text of a lattice file.
pub fn parse(text: &str) -> Result<Definition, DefinitionError> {
    check_size(text.len())?;
    let mut scan = Scan::new(text);
    if let Err(stop) = scan.document() {
        return Err(scan.refuse_at(stop));
    }
    let document = DeTable::parse(&scan.skeleton).map_err(|err| toml_error(text, &err))?;
    Parser {
        text,
        arrays: &scan.arrays,
    }
    .definition(document.into_inner())
}

/// A TOML parser's error, placed in `text`.
pub(super) fn toml_error(text: &str, err: &toml::de::Error) -> DefinitionError {
    let offset = err.span().map_or(0, |span| span.start);
    let kind = DefinitionErrorKind::Toml {
        message: err.message().to_owned(),
    };
    DefinitionError::new(Origin::LatticeFile, kind, Some(Location::at(text, offset)))
}

fn check_size(bytes: usize) -> Result<(), DefinitionError> {
    if bytes > MAX_BYTES {
        return Err(DefinitionError::new(
            Origin::LatticeFile,
            DefinitionErrorKind::TooLarge,
            None,
        ));
    }
    Ok(())
}
