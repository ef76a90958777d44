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
//! [`DType::from_name`] accepts). `i*`, `f*` and `c*` are always weak (JAX's
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
//! [`analysis::check`](crate::design::check::check) reports.
//!
//! # Limits
//!
//! Checking a graph costs O(n³/64) word operations and n² table entries for
//! n nodes, so a file is refused beyond [`MAX_FILE_BYTES`] bytes,
//! [`MAX_FILE_NODES`] nodes or [`MAX_FILE_EDGES`] edges, with a message saying so.
//! Within the limits a file parses in a fraction of a second.
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

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::design::{Definition, NodeDef};
use crate::engine::Node;
use crate::types::{edit_distance, DType, ParseDTypeError};

/// The largest lattice file accepted, in bytes (8 MiB).
pub const MAX_FILE_BYTES: usize = 8 << 20;

/// The most nodes a lattice file may have. Checking 4,096 nodes builds a
/// 32 MiB join table in about a second; JAX's lattice has 35.
pub const MAX_FILE_NODES: usize = 4096;

/// The most edges a lattice file may have (listed, before removing
/// repeats).
pub const MAX_FILE_EDGES: usize = 250_000;

/// The top-level keys of a lattice file.
const KEYS: [&str; 5] = ["name", "description", "weak", "dtypes", "edges"];

/// Reads and parses a lattice file. Reads at most [`MAX_FILE_BYTES`] + 1
/// bytes, so a huge file (or a device that never ends) is refused quickly.
pub fn read(path: impl AsRef<Path>) -> Result<Definition, LatticeFileError> {
    let path = path.as_ref();
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(|err| LatticeFileError::new(FileErrorKind::Io(err.to_string()), None))
        .and_then(|_| parse_bytes(&bytes))
        .map_err(|err| err.with_path(path))
}

/// Parses a lattice file's bytes: they must be UTF-8.
pub fn parse_bytes(bytes: &[u8]) -> Result<Definition, LatticeFileError> {
    check_size(bytes.len())?;
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(err) => {
            let offset = err.valid_up_to();
            let valid = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
            Err(LatticeFileError::new(
                FileErrorKind::NotUtf8 {
                    offset,
                    byte: bytes[offset],
                },
                Some(Location::at(valid, offset)),
            ))
        }
    }
}

/// Parses the text of a lattice file.
pub fn parse(text: &str) -> Result<Definition, LatticeFileError> {
    check_size(text.len())?;
    let document = DeTable::parse(text).map_err(|err| {
        let offset = err.span().map_or(0, |span| span.start);
        let kind = FileErrorKind::Toml {
            message: err.message().to_owned(),
        };
        LatticeFileError::new(kind, Some(Location::at(text, offset)))
    })?;
    Parser { text }.definition(document.into_inner())
}

fn check_size(bytes: usize) -> Result<(), LatticeFileError> {
    if bytes > MAX_FILE_BYTES {
        return Err(LatticeFileError::new(FileErrorKind::TooLarge, None));
    }
    Ok(())
}

/// A table entry: a key and its value, with their spans.
type Entry<'v, 'i> = (&'v Spanned<Cow<'i, str>>, &'v Spanned<DeValue<'i>>);

/// A label where it is written.
struct Mention<'a> {
    label: &'a str,
    span: Range<usize>,
}

struct Parser<'t> {
    text: &'t str,
}

impl<'t> Parser<'t> {
    fn error(&self, kind: FileErrorKind, span: &Range<usize>) -> LatticeFileError {
        LatticeFileError::new(kind, Some(Location::at(self.text, span.start)))
    }

    fn definition(&self, document: DeTable<'_>) -> Result<Definition, LatticeFileError> {
        // The map is sorted by key; spans give the order they were written in.
        let mut entries: Vec<_> = document.iter().collect();
        entries.sort_by_key(|(key, _)| key.span().start);
        let mut name = None;
        let mut description = None;
        let mut weak = Vec::new();
        let mut dtypes = Vec::new();
        let mut edges = Vec::new();
        for (key, value) in entries {
            match key.get_ref().as_ref() {
                "name" => name = Some(self.string("name", value)?),
                "description" => description = Some(self.string("description", value)?),
                "weak" => weak = self.labels("weak", value)?,
                "dtypes" => {
                    for (label, target) in self.table("dtypes", value)? {
                        let mention = self.label(label)?;
                        let name = self.string(&format!("dtypes.{}", mention.label), target)?;
                        dtypes.push((mention, name, target.span()));
                    }
                }
                "edges" => {
                    let mut count = 0;
                    for (from, targets) in self.table("edges", value)? {
                        let from = self.label(from)?;
                        let targets = self.labels(&format!("edges.{}", from.label), targets)?;
                        count += targets.len();
                        if count > MAX_FILE_EDGES {
                            let span = &targets[targets.len() - (count - MAX_FILE_EDGES)].span;
                            return Err(self.error(FileErrorKind::TooManyEdges, span));
                        }
                        edges.push((from, targets));
                    }
                }
                other => {
                    let suggestion = KEYS
                        .into_iter()
                        .map(|known| (edit_distance(other, known), known))
                        .min()
                        .filter(|&(distance, _)| distance <= 2)
                        .map(|(_, known)| known);
                    let kind = FileErrorKind::UnknownKey {
                        key: other.to_owned(),
                        suggestion,
                    };
                    return Err(self.error(kind, &key.span()));
                }
            }
        }
        let Some(name) = name else {
            return Err(LatticeFileError::new(
                FileErrorKind::MissingName,
                Some(Location { line: 1, column: 1 }),
            ));
        };

        let nodes = self.nodes(&weak, &dtypes, &edges)?;
        let index: HashMap<&str, Node> = nodes
            .iter()
            .enumerate()
            .map(|(i, node)| (node.def.label.as_str(), i))
            .collect();
        let mut pairs = Vec::new();
        for (from, targets) in &edges {
            for to in targets {
                if to.label == from.label {
                    let kind = FileErrorKind::SelfEdge {
                        label: to.label.to_owned(),
                    };
                    return Err(self.error(kind, &to.span));
                }
                pairs.push((index[from.label], index[to.label]));
            }
        }
        Ok(Definition {
            name,
            description,
            nodes: nodes.into_iter().map(|node| node.def).collect(),
            edges: pairs,
        })
    }

    /// The nodes in order of first mention, with their meanings.
    fn nodes(
        &self,
        weak: &[Mention<'_>],
        dtypes: &[(Mention<'_>, String, Range<usize>)],
        edges: &[(Mention<'_>, Vec<Mention<'_>>)],
    ) -> Result<Vec<ParsedNode>, LatticeFileError> {
        let mut mentions: Vec<&Mention<'_>> = weak
            .iter()
            .chain(dtypes.iter().map(|(label, _, _)| label))
            .chain(
                edges
                    .iter()
                    .flat_map(|(from, to)| std::iter::once(from).chain(to)),
            )
            .collect();
        mentions.sort_by_key(|mention| mention.span.start);
        let mut index: HashMap<&str, Node> = HashMap::new();
        let mut nodes: Vec<ParsedNode> = Vec::new();
        for mention in mentions {
            if index.contains_key(mention.label) {
                continue;
            }
            if nodes.len() == MAX_FILE_NODES {
                return Err(self.error(FileErrorKind::TooManyNodes, &mention.span));
            }
            index.insert(mention.label, nodes.len());
            nodes.push(ParsedNode {
                def: NodeDef::from_label(mention.label),
                defined_at: mention.span.clone(),
            });
        }
        for label in weak {
            nodes[index[label.label]].def.weak = true;
        }
        for (label, name, span) in dtypes {
            let dtype = DType::from_name(name).map_err(|error| {
                let kind = FileErrorKind::UnknownDType {
                    label: label.label.to_owned(),
                    error,
                };
                self.error(kind, span)
            })?;
            let node = &mut nodes[index[label.label]];
            if let Some(own) = node.def.dtype.filter(|&own| own != dtype) {
                let kind = FileErrorKind::LabelIsAnotherDType {
                    label: label.label.to_owned(),
                    own,
                    mapped: dtype,
                };
                return Err(self.error(kind, span));
            }
            node.def.dtype = Some(dtype);
            node.defined_at = span.clone();
        }
        // One node per dtype among the strong nodes; report at the later one.
        let mut by_dtype: HashMap<DType, usize> = HashMap::new();
        let mut strong: Vec<usize> = (0..nodes.len())
            .filter(|&i| !nodes[i].def.weak && nodes[i].def.dtype.is_some())
            .collect();
        strong.sort_by_key(|&i| nodes[i].defined_at.start);
        for i in strong {
            let Some(dtype) = nodes[i].def.dtype else {
                continue;
            };
            if let Some(&first) = by_dtype.get(&dtype) {
                let kind = FileErrorKind::DuplicateDType {
                    dtype,
                    first: nodes[first].def.label.clone(),
                    second: nodes[i].def.label.clone(),
                };
                return Err(self.error(kind, &nodes[i].defined_at));
            }
            by_dtype.insert(dtype, i);
        }
        Ok(nodes)
    }

    fn string(&self, key: &str, value: &Spanned<DeValue<'_>>) -> Result<String, LatticeFileError> {
        match value.get_ref() {
            DeValue::String(text) => Ok(text.to_string()),
            _ => Err(self.wrong_type(key, "a string, such as \"int8\"", value)),
        }
    }

    fn table<'v, 'i>(
        &self,
        key: &str,
        value: &'v Spanned<DeValue<'i>>,
    ) -> Result<Vec<Entry<'v, 'i>>, LatticeFileError> {
        let DeValue::Table(table) = value.get_ref() else {
            return Err(self.wrong_type(key, "a table: a [section] of label = value lines", value));
        };
        let mut entries: Vec<_> = table.iter().collect();
        entries.sort_by_key(|(key, _)| key.span().start);
        Ok(entries)
    }

    fn labels<'v>(
        &self,
        key: &str,
        value: &'v Spanned<DeValue<'_>>,
    ) -> Result<Vec<Mention<'v>>, LatticeFileError> {
        const EXPECTED: &str = "an array of node labels, such as [\"int16\", \"float16\"]";
        let DeValue::Array(items) = value.get_ref() else {
            return Err(self.wrong_type(key, EXPECTED, value));
        };
        items
            .iter()
            .map(|item| match item.get_ref() {
                DeValue::String(label) => self.mention(label, item.span()),
                _ => Err(self.wrong_type(key, EXPECTED, item)),
            })
            .collect()
    }

    fn label<'v>(&self, key: &'v Spanned<Cow<'_, str>>) -> Result<Mention<'v>, LatticeFileError> {
        self.mention(key.get_ref(), key.span())
    }

    fn mention<'v>(
        &self,
        label: &'v str,
        span: Range<usize>,
    ) -> Result<Mention<'v>, LatticeFileError> {
        if label.is_empty() {
            return Err(self.error(FileErrorKind::EmptyLabel, &span));
        }
        Ok(Mention { label, span })
    }

    fn wrong_type(
        &self,
        key: &str,
        expected: &'static str,
        value: &Spanned<DeValue<'_>>,
    ) -> LatticeFileError {
        let kind = FileErrorKind::WrongType {
            key: key.to_owned(),
            expected,
        };
        self.error(kind, &value.span())
    }
}

struct ParsedNode {
    def: NodeDef,
    /// Where the node's meaning comes from: its `[dtypes]` entry, or else
    /// its first mention.
    defined_at: Range<usize>,
}

/// A line and column in a lattice file, both counted from 1 (columns in
/// characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// The line.
    pub line: usize,
    /// The column.
    pub column: usize,
}

impl Location {
    /// The location of a byte offset in `text` (rounded down to a character
    /// boundary).
    fn at(text: &str, offset: usize) -> Location {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Location {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
        }
    }
}

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
    /// More than [`MAX_FILE_BYTES`] bytes.
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
    /// More than [`MAX_FILE_NODES`] nodes.
    TooManyNodes,
    /// More than [`MAX_FILE_EDGES`] edges.
    TooManyEdges,
}

impl LatticeFileError {
    fn new(kind: FileErrorKind, location: Option<Location>) -> LatticeFileError {
        LatticeFileError {
            path: None,
            location,
            kind,
        }
    }

    fn with_path(mut self, path: &Path) -> LatticeFileError {
        self.path = Some(path.to_owned());
        self
    }

    /// The file, when the error came from [`read`].
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
                "the file is larger than {MAX_FILE_BYTES} bytes, the limit for a lattice file; \
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
                "more than {MAX_FILE_NODES} nodes, the limit for a lattice file \
                 (checking costs n³/64 steps and an n × n table)"
            ),
            FileErrorKind::TooManyEdges => write!(
                f,
                "more than {MAX_FILE_EDGES} edges, the limit for a lattice file"
            ),
        }
    }
}

impl std::error::Error for LatticeFileError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn nodes_come_in_order_of_first_mention() {
        let definition = parse(
            "name = \"n\"\nweak = [\"u*\"]\n[edges]\n\"u*\" = [\"uint8\"]\nbool = [\"u*\", \"x\"]\n",
        )
        .unwrap();
        let labels: Vec<&str> = definition.nodes.iter().map(|n| n.label.as_str()).collect();
        assert_eq!(labels, ["u*", "uint8", "bool", "x"]);
        assert!(definition.nodes[0].weak);
        assert_eq!(definition.nodes[3], NodeDef::from_label("x"));
        assert_eq!(definition.edges, [(0, 1), (2, 0), (2, 3)]);
    }

    #[test]
    fn every_refusal_says_where_and_how_to_fix() {
        assert_eq!(
            error("name = \"n\"\n[edges]\na = [\"b\", \"a\"]\n"),
            "lattice file:3:11: 'a' has an edge to itself: every type already promotes to itself, remove 'a' from its own list"
        );
        assert_eq!(
            error("name = \"n\"\n[dtypes]\nu8 = \"uint8\"\n[edges]\nuint8 = [\"int16\"]\n"),
            "lattice file:5:1: 'u8' and 'uint8' both stand for uint8: a dtype has one node, so use one label for it"
        );
        assert_eq!(
            error("name = \"n\"\n[dtypes]\nint8 = \"uint8\"\n"),
            "lattice file:3:8: 'int8' is the name of int8 and cannot stand for uint8: use another label for uint8"
        );
        assert_eq!(
            error("nmae = \"n\"\n"),
            "lattice file:1:1: unknown key 'nmae': did you mean 'name'? (a lattice file has name, description, weak, [dtypes] and [edges])"
        );
        assert_eq!(
            error("[edges]\na = [\"b\"]\n"),
            "lattice file:1:1: no `name`: add a first line such as name = \"my-lattice\""
        );
        assert_eq!(
            error("name = \"n\"\n[edges]\na = \"b\"\n"),
            "lattice file:3:5: `edges.a` must be an array of node labels, such as [\"int16\", \"float16\"]"
        );
        assert!(error("name = \"n\"\nname = \"m\"\n").starts_with(
            "lattice file:2:1: not valid TOML: duplicate key; each key may appear once"
        ));
    }

    #[test]
    fn weak_nodes_may_share_a_dtype_with_strong_ones() {
        let definition = parse(
            "name = \"n\"\n[dtypes]\n\"f*\" = \"float64\"\n[edges]\n\"f*\" = [\"float64\"]\n",
        )
        .unwrap();
        assert_eq!(definition.nodes[0].dtype, Some(DType::Float64));
        assert!(definition.nodes[0].weak);
    }

    #[test]
    fn bad_bytes_are_located() {
        let err = parse_bytes(b"name = \"n\"\n[edges]\na = [\"\xff\"]\n").unwrap_err();
        assert_eq!(err.location(), Some(Location { line: 3, column: 7 }));
        assert!(err.to_string().contains("byte 25 (0xff) is not UTF-8"));
    }
}
