//! Why a lattice file is refused: the file, the place, and what is wrong
//! with a fix.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::design::limits::{MAX_BYTES, MAX_EDGES, MAX_KEYS, MAX_NODES};
use crate::design::Location;
use crate::types::{DType, ParseDTypeError};

/// Why a lattice file was refused, with the file and place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatticeFileError {
    path: Option<PathBuf>,
    location: Option<Location>,
    kind: FileErrorKind,
}

/// What is wrong with a lattice file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileErrorKind {
    /// The file could not be read.
    Io(String),
    /// More than [`MAX_BYTES`](crate::design::limits::MAX_BYTES) bytes.
    TooLarge,
    /// A byte sequence that is not UTF-8.
    NotUtf8 {
        /// Offset of the first bad byte.
        offset: usize,
        /// Its value.
        byte: u8,
    },
    /// Not valid TOML (duplicate keys included): the TOML parser's message.
    Toml {
        /// What the parser said.
        message: String,
    },
    /// No `name` key.
    MissingName,
    /// A top-level key the format does not have.
    UnknownKey {
        /// The key.
        key: String,
        /// The nearest known key, if one is close.
        suggestion: Option<&'static str>,
    },
    /// A value of the wrong type.
    WrongType {
        /// The key, dotted (`edges.u8`).
        key: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A label that is the empty string.
    EmptyLabel,
    /// An edge from a node to itself.
    SelfEdge {
        /// The node.
        label: String,
    },
    /// A `[dtypes]` value that names no dtype.
    UnknownDType {
        /// The label being mapped.
        label: String,
        /// Why the value is not a dtype name (with a suggestion).
        error: ParseDTypeError,
    },
    /// A canonical dtype name mapped to a different dtype.
    LabelIsAnotherDType {
        /// The label.
        label: String,
        /// The dtype the label names.
        own: DType,
        /// The dtype `[dtypes]` maps it to.
        mapped: DType,
    },
    /// Two non-weak nodes stand for the same dtype.
    DuplicateDType {
        /// The dtype.
        dtype: DType,
        /// The label defined first.
        first: String,
        /// The label defined second.
        second: String,
    },
    /// More than [`MAX_NODES`](crate::design::limits::MAX_NODES) nodes.
    TooManyNodes,
    /// More than [`MAX_EDGES`](crate::design::limits::MAX_EDGES) edges.
    TooManyEdges,
    /// More than [`MAX_KEYS`](crate::design::limits::MAX_KEYS) keys and `[table]` headers.
    TooManyKeys,
    /// `weak` lists more than [`MAX_NODES`](crate::design::limits::MAX_NODES) labels (repeats
    /// included).
    TooManyWeak,
}

impl LatticeFileError {
    pub(super) fn new(kind: FileErrorKind, location: Option<Location>) -> LatticeFileError {
        LatticeFileError {
            path: None,
            location,
            kind,
        }
    }

    /// The same error, naming the input it came from: a file, or a name
    /// such as `<stdin>` for what [`read_from`](super::read_from) read.
    pub fn with_path(mut self, path: impl AsRef<Path>) -> LatticeFileError {
        self.path = Some(path.as_ref().to_owned());
        self
    }

    /// The file, when the error came from [`read`](super::read) (or was given one with
    /// [`LatticeFileError::with_path`]).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Where in the file, when the error has a place.
    pub fn location(&self) -> Option<Location> {
        self.location
    }

    /// What is wrong.
    pub fn kind(&self) -> &FileErrorKind {
        &self.kind
    }
}

impl fmt::Display for LatticeFileError {
    /// `FILE:LINE:COLUMN: what is wrong and how to fix it`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(path) => write!(f, "{}", path.display())?,
            None => write!(f, "lattice file")?,
        }
        if let Some(Location { line, column }) = self.location {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl fmt::Display for FileErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileErrorKind::Io(message) => write!(f, "cannot read the file: {message}"),
            FileErrorKind::TooLarge => write!(
                f,
                "the file is larger than {MAX_BYTES} bytes, the limit for a lattice file; \
                 build a graph this large in code with dtype_lattice::engine::Lattice::from_edges"
            ),
            FileErrorKind::NotUtf8 { offset, byte } => write!(
                f,
                "byte {offset} (0x{byte:02x}) is not UTF-8: save the file as UTF-8 text"
            ),
            FileErrorKind::Toml { message } => {
                write!(f, "not valid TOML: {message}")?;
                if message.contains("duplicate key") {
                    write!(f, "; each key may appear once: merge the two entries")?;
                } else if message.contains("key") {
                    write!(
                        f,
                        "; quote labels other than letters, digits, '-' and '_', as in \"f*\" = [\"c*\"]"
                    )?;
                }
                Ok(())
            }
            FileErrorKind::MissingName => write!(
                f,
                "no `name`: add a first line such as name = \"my-lattice\""
            ),
            FileErrorKind::UnknownKey { key, suggestion } => {
                write!(f, "unknown key '{}'", key.escape_debug())?;
                if let Some(known) = suggestion {
                    write!(f, ": did you mean '{known}'?")?;
                }
                write!(
                    f,
                    " (a lattice file has name, description, weak, [dtypes] and [edges])"
                )
            }
            FileErrorKind::WrongType { key, expected } => {
                write!(f, "`{}` must be {expected}", key.escape_debug())
            }
            FileErrorKind::EmptyLabel => write!(f, "an empty label: give every node a name"),
            FileErrorKind::SelfEdge { label } => write!(
                f,
                "'{0}' has an edge to itself: every type already promotes to itself, \
                 remove '{0}' from its own list",
                label.escape_debug()
            ),
            FileErrorKind::UnknownDType { label, error } => {
                write!(f, "[dtypes] maps '{}' to an {error}", label.escape_debug())
            }
            FileErrorKind::LabelIsAnotherDType { label, own, mapped } => write!(
                f,
                "'{}' is the name of {own} and cannot stand for {mapped}: \
                 use another label for {mapped}",
                label.escape_debug()
            ),
            FileErrorKind::DuplicateDType {
                dtype,
                first,
                second,
            } => write!(
                f,
                "'{}' and '{}' both stand for {dtype}: a dtype has one node, so use one label for it",
                first.escape_debug(),
                second.escape_debug()
            ),
            FileErrorKind::TooManyNodes => write!(
                f,
                "more than {MAX_NODES} nodes, the limit for a lattice file \
                 (checking costs n³/64 steps and an n × n table)"
            ),
            FileErrorKind::TooManyEdges => write!(
                f,
                "more than {MAX_EDGES} edges, the limit for a lattice file"
            ),
            FileErrorKind::TooManyKeys => write!(
                f,
                "more than {MAX_KEYS} keys and [tables], the limit for a lattice file \
                 (one [dtypes] and one [edges] line per node); give each key once"
            ),
            FileErrorKind::TooManyWeak => write!(
                f,
                "`weak` lists more than {MAX_NODES} labels, the most nodes a lattice file \
                 may have: list each weak label once"
            ),
        }
    }
}

impl std::error::Error for LatticeFileError {}
