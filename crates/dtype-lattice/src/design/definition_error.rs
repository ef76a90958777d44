//! Why a graph's definition is refused, whichever way it came in (a
//! lattice file, a dict as Python or JSON text, a dict as data): one error
//! type, with the input's name and the place where there is one, and what
//! is wrong with a fix. The rules the three share (labels, meanings, edges,
//! limits) give the same message from each.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::design::limits::{MAX_BYTES, MAX_EDGES, MAX_KEYS, MAX_NODES};
use crate::design::Location;
use crate::types::{DType, ParseDTypeError};

/// Why a definition was refused, with the input and place.
///
/// ```
/// use dtype_lattice::design::dict_text::parse_python_dict;
/// use dtype_lattice::design::{lattice_file, Definition, DictSpec};
///
/// let file = lattice_file::parse("name = \"x\"\n[edges]\na = [\"a\"]\n").unwrap_err();
/// let text = parse_python_dict("{'a': ['a']}").unwrap_err();
/// let spec = DictSpec { name: "x", edges: &[("a", vec!["a"])], dtypes: &[], weak: &[] };
/// let data = Definition::from_dict(&spec).unwrap_err();
/// let fix = "'a' promotes to itself: every type already does, remove 'a' from its own list";
/// assert_eq!(file.to_string(), format!("lattice file:3:6: {fix}"));
/// assert_eq!(text.to_string(), format!("dict:1:8: {fix}"));
/// assert_eq!(data.to_string(), fix);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionError {
    origin: Origin,
    path: Option<PathBuf>,
    location: Option<Location>,
    /// Boxed: the kinds that quote input are large, and errors pass
    /// through every parser's `Result`.
    kind: Box<DefinitionErrorKind>,
}

/// Which way a definition came in, which names it in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A lattice file (TOML): `FILE:LINE:COLUMN` or `lattice file:...`.
    LatticeFile,
    /// A dict of lists as Python or JSON text: `dict:LINE:COLUMN`.
    DictText,
    /// A dict handed over as data: no place.
    Dict,
}

/// What is wrong with a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DefinitionErrorKind {
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
    /// Something other than what a dict's grammar allows here.
    Expected {
        /// What may come here.
        expected: String,
        /// What came instead, as written (cut short).
        found: String,
    },
    /// An unquoted name where a label belongs in a dict.
    BareName {
        /// The name.
        name: String,
    },
    /// A string with no closing quote on its line.
    UnterminatedString,
    /// A backslash escape neither Python nor JSON reads as a character.
    BadEscape {
        /// The escape as written.
        escape: String,
    },
    /// A dict key given twice (Python would keep only the last).
    DuplicateKey {
        /// The key.
        key: String,
        /// Where it was first given.
        first: Location,
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

impl DefinitionError {
    pub(crate) fn new(
        origin: Origin,
        kind: DefinitionErrorKind,
        location: Option<Location>,
    ) -> DefinitionError {
        DefinitionError {
            origin,
            path: None,
            location,
            kind: Box::new(kind),
        }
    }

    /// The same error, for a definition that came in another way (a dict
    /// read from text is then built as data).
    pub(crate) fn with_origin(mut self, origin: Origin) -> DefinitionError {
        self.origin = origin;
        self
    }

    /// `bytes` as text, or the refusal naming the first byte that is not
    /// UTF-8 and its place: the one check of text for every way in.
    ///
    /// ```
    /// use dtype_lattice::design::{DefinitionError, Origin};
    ///
    /// assert_eq!(DefinitionError::text(b"ok", Origin::DictText), Ok("ok"));
    /// let err = DefinitionError::text(b"a\n\xff", Origin::DictText).unwrap_err();
    /// assert_eq!(err.to_string(), "dict:2:1: byte 2 (0xff) is not UTF-8: save or paste the text as UTF-8");
    /// ```
    pub fn text(bytes: &[u8], origin: Origin) -> Result<&str, DefinitionError> {
        std::str::from_utf8(bytes).map_err(|err| {
            let offset = err.valid_up_to();
            let valid = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
            let kind = DefinitionErrorKind::NotUtf8 {
                offset,
                byte: bytes[offset],
            };
            DefinitionError::new(origin, kind, Some(Location::at(valid, offset)))
        })
    }

    /// Which way the definition came in.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The same error, naming the input it came from: a file, or a name
    /// such as `<stdin>` for what
    /// [`lattice_file::read_from`](crate::design::lattice_file::read_from) read.
    pub fn with_path(mut self, path: impl AsRef<Path>) -> DefinitionError {
        self.path = Some(path.as_ref().to_owned());
        self
    }

    /// The file, when the error came from
    /// [`lattice_file::read`](crate::design::lattice_file::read) (or was given one with
    /// [`DefinitionError::with_path`]).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Where in the file, when the error has a place.
    pub fn location(&self) -> Option<Location> {
        self.location
    }

    /// What is wrong.
    pub fn kind(&self) -> &DefinitionErrorKind {
        &self.kind
    }
}

impl fmt::Display for DefinitionError {
    /// `INPUT:LINE:COLUMN: what is wrong and how to fix it`, the input
    /// being the file, `lattice file` or `dict`; a dict handed over as data
    /// has no place, and the message stands alone.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.path, self.origin) {
            (Some(path), _) => write!(f, "{}", path.display())?,
            (None, Origin::LatticeFile) => write!(f, "lattice file")?,
            (None, Origin::DictText) => write!(f, "dict")?,
            (None, Origin::Dict) => return write!(f, "{}", self.kind),
        }
        if let Some(Location { line, column }) = self.location {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl fmt::Display for DefinitionErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefinitionErrorKind::Io(message) => write!(f, "cannot read the file: {message}"),
            DefinitionErrorKind::TooLarge => write!(
                f,
                "the text is larger than {MAX_BYTES} bytes, the limit for a lattice; build a \
                 graph this large in code with dtype_lattice::engine::Lattice::from_edges"
            ),
            DefinitionErrorKind::NotUtf8 { offset, byte } => write!(
                f,
                "byte {offset} (0x{byte:02x}) is not UTF-8: save or paste the text as UTF-8"
            ),
            DefinitionErrorKind::Toml { message } => {
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
            DefinitionErrorKind::MissingName => write!(
                f,
                "no `name`: add a first line such as name = \"my-lattice\""
            ),
            DefinitionErrorKind::UnknownKey { key, suggestion } => {
                write!(f, "unknown key '{}'", key.escape_debug())?;
                if let Some(known) = suggestion {
                    write!(f, ": did you mean '{known}'?")?;
                }
                write!(
                    f,
                    " (a lattice file has name, description, weak, [dtypes] and [edges])"
                )
            }
            DefinitionErrorKind::WrongType { key, expected } => {
                write!(f, "`{}` must be {expected}", key.escape_debug())
            }
            DefinitionErrorKind::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            DefinitionErrorKind::BareName { name } => write!(
                f,
                "a bare name '{0}': labels are strings, write '{0}' in quotes",
                name.escape_debug()
            ),
            DefinitionErrorKind::UnterminatedString => write!(
                f,
                "a string with no closing quote on its line: end it with the quote it starts with"
            ),
            DefinitionErrorKind::BadEscape { escape } => write!(
                f,
                "the escape '{}' is not a character: write a backslash as '\\\\'",
                escape.escape_debug()
            ),
            DefinitionErrorKind::DuplicateKey { key, first } => write!(
                f,
                "the key '{}' again (first at {}:{}): give each node's list once",
                key.escape_debug(),
                first.line,
                first.column
            ),
            DefinitionErrorKind::EmptyLabel => write!(f, "an empty label: give every node a name"),
            DefinitionErrorKind::SelfEdge { label } => write!(
                f,
                "'{0}' promotes to itself: every type already does, remove '{0}' from its own \
                 list",
                label.escape_debug()
            ),
            DefinitionErrorKind::UnknownDType { label, error } => {
                write!(f, "[dtypes] maps '{}' to an {error}", label.escape_debug())
            }
            DefinitionErrorKind::LabelIsAnotherDType { label, own, mapped } => write!(
                f,
                "'{}' is the name of {own} and cannot stand for {mapped}: \
                 use another label for {mapped}",
                label.escape_debug()
            ),
            DefinitionErrorKind::DuplicateDType {
                dtype,
                first,
                second,
            } => write!(
                f,
                "'{}' and '{}' both stand for {dtype}: a dtype has one node, so use one label for it",
                first.escape_debug(),
                second.escape_debug()
            ),
            DefinitionErrorKind::TooManyNodes => write!(
                f,
                "more than {MAX_NODES} nodes, the limit for a lattice (checking costs n³/64 \
                 steps and an n × n table)"
            ),
            DefinitionErrorKind::TooManyEdges => write!(
                f,
                "more than {MAX_EDGES} edges, the limit for a lattice: list only the covering \
                 edges (the Hasse diagram), the rest follow"
            ),
            DefinitionErrorKind::TooManyKeys => write!(
                f,
                "more than {MAX_KEYS} keys and [tables], the limit for a lattice file \
                 (one [dtypes] and one [edges] line per node); give each key once"
            ),
            DefinitionErrorKind::TooManyWeak => write!(
                f,
                "`weak` lists more than {MAX_NODES} labels, the most nodes a lattice file \
                 may have: list each weak label once"
            ),
        }
    }
}

impl std::error::Error for DefinitionError {}
