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
//! [`Check::new`](crate::design::check::Check::new) reports.
//!
//! # Limits
//!
//! Checking a graph costs O(n³/64) word operations and n² table entries for
//! n nodes, so a file is refused beyond [`MAX_FILE_BYTES`] bytes,
//! [`MAX_FILE_NODES`] nodes or [`MAX_FILE_EDGES`] edges, with a message saying so.
//! Within the limits a file parses in a fraction of a second.
//!
//! Memory stays within a small multiple of the file's size whatever the
//! text: a first pass over the raw text (TOML's own lexer, `toml_parser`'s,
//! read as a stream in constant memory) refuses, at the first place past a
//! limit, an unknown top-level key, a value of a shape the format does not
//! have (so nesting stays two levels deep), more than [`MAX_FILE_NODES`]
//! nodes, [`MAX_FILE_EDGES`] edges, [`MAX_FILE_NODES`] `weak` labels or
//! [`MAX_FILE_KEYS`] keys. It
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

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;
use toml_parser::lexer::{Lexer, Token, TokenKind};
use toml_parser::{ParseError, Source};

/// A line and column in a lattice file (the one [`crate::design::Location`]).
pub use crate::design::Location;
use crate::design::{Definition, NodeDef};
use crate::engine::Node;
use crate::text::nearest;
use crate::types::{DType, ParseDTypeError};

/// The largest lattice file accepted, in bytes (8 MiB).
pub const MAX_FILE_BYTES: usize = 8 << 20;

/// The most nodes a lattice file may have. Checking 4,096 nodes builds a
/// 32 MiB join table in about a second; JAX's lattice has 35.
pub const MAX_FILE_NODES: usize = 4096;

/// The most edges a lattice file may have (listed, before removing
/// repeats).
pub const MAX_FILE_EDGES: usize = 250_000;

/// The most keys and `[table]` headers a lattice file may have: one
/// `[dtypes]` and one `[edges]` entry per node, and a few more.
pub const MAX_FILE_KEYS: usize = 2 * MAX_FILE_NODES + 16;

/// The top-level keys of a lattice file.
const KEYS: [&str; 5] = ["name", "description", "weak", "dtypes", "edges"];

/// What `name`, `description` and a `[dtypes]` entry must be.
const EXPECT_STRING: &str = "a string, such as \"int8\"";
/// What `dtypes` and `edges` must be.
const EXPECT_TABLE: &str = "a table: a [section] of label = value lines";
/// What `weak` and an `[edges]` entry must be.
const EXPECT_LABELS: &str = "an array of node labels, such as [\"int16\", \"float16\"]";

/// The refusal of an unknown top-level key, with the nearest known one.
fn unknown_key(key: &str) -> FileErrorKind {
    let suggestion = nearest(key, KEYS.into_iter());
    FileErrorKind::UnknownKey {
        key: key.to_owned(),
        suggestion,
    }
}

/// Reads and parses a lattice file. Reads at most [`MAX_FILE_BYTES`] + 1
/// bytes, so a huge file (or a device that never ends) is refused quickly.
pub fn read(path: impl AsRef<Path>) -> Result<Definition, LatticeFileError> {
    let path = path.as_ref();
    std::fs::File::open(path)
        .map_err(|err| LatticeFileError::new(FileErrorKind::Io(err.to_string()), None))
        .and_then(read_from)
        .map_err(|err| err.with_path(path))
}

/// Reads a lattice file from `reader` (standard input, say) and parses it.
/// Reads at most [`MAX_FILE_BYTES`] + 1 bytes, as [`read`] does; errors
/// name no file (see [`LatticeFileError::with_path`]).
pub fn read_from(reader: impl Read) -> Result<Definition, LatticeFileError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| LatticeFileError::new(FileErrorKind::Io(err.to_string()), None))?;
    parse_bytes(&bytes)
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
fn toml_error(text: &str, err: &toml::de::Error) -> LatticeFileError {
    let offset = err.span().map_or(0, |span| span.start);
    let kind = FileErrorKind::Toml {
        message: err.message().to_owned(),
    };
    LatticeFileError::new(kind, Some(Location::at(text, offset)))
}

fn check_size(bytes: usize) -> Result<(), LatticeFileError> {
    if bytes > MAX_FILE_BYTES {
        return Err(LatticeFileError::new(FileErrorKind::TooLarge, None));
    }
    Ok(())
}

// The first pass: TOML's own lexer (`toml_parser`'s, the one the `toml`
// crate parses with), read as a stream, and just enough of TOML's grammar
// to know where each value of a lattice file sits, in memory that does not
// grow with the text (beyond the text's blanked copy and the labels kept).

/// A token's place in the text, in bytes.
fn range(token: &Token) -> Range<usize> {
    token.span().start()..token.span().end()
}

/// Whether a token is a string, of any of TOML's four kinds.
fn is_string(kind: TokenKind) -> bool {
    kind.encoding().is_some()
}

/// A label the first pass kept, where it is written.
struct Label<'t> {
    text: Cow<'t, str>,
    span: Range<usize>,
}

/// Where the first pass stopped, and why.
struct Stop {
    kind: FileErrorKind,
    at: usize,
    /// The text is not TOML there (rather than TOML a lattice file cannot
    /// be): the TOML parser's own message is worth asking for.
    syntax: bool,
}

/// What a value must be, by its key.
enum Place {
    /// `name`, `description`, a `[dtypes]` entry: a string.
    String(String),
    /// `weak`, an `[edges]` entry (`true`): an array of labels.
    Labels(String, bool),
    /// `dtypes`, `edges`: a table of labels.
    Table(&'static str),
    /// Deeper than the format goes: the key that has the wrong type.
    Wrong(String, &'static str),
}

impl Place {
    /// The place of a dotted key whose first part is a known key.
    fn of(path: &[(Cow<'_, str>, usize)]) -> Place {
        let parts: Vec<&str> = path.iter().map(|(part, _)| part.as_ref()).collect();
        match parts[..] {
            [key @ ("name" | "description")] => Place::String(key.to_owned()),
            ["weak"] => Place::Labels("weak".to_owned(), false),
            ["dtypes"] => Place::Table("dtypes"),
            ["edges"] => Place::Table("edges"),
            ["dtypes", label] => Place::String(format!("dtypes.{label}")),
            ["edges", label] => Place::Labels(format!("edges.{label}"), true),
            ["dtypes", label, ..] => Place::Wrong(format!("dtypes.{label}"), EXPECT_STRING),
            ["edges", label, ..] => Place::Wrong(format!("edges.{label}"), EXPECT_LABELS),
            ["weak", ..] => Place::Wrong("weak".to_owned(), EXPECT_LABELS),
            [key, ..] => Place::Wrong(key.to_owned(), EXPECT_STRING),
            [] => Place::Wrong(String::new(), EXPECT_STRING),
        }
    }
}

/// The longest statement given to the TOML parser as written, to get its
/// own message for text that is not TOML.
const WINDOW: usize = 64 << 10;

/// The first pass over a lattice file's text.
struct Scan<'t> {
    text: &'t str,
    /// The text, for slicing tokens into what `toml_parser` decodes.
    source: Source<'t>,
    /// TOML's lexer over the text, read one token at a time.
    tokens: Lexer<'t>,
    /// The next token. The lexer's last token, the end of the text, stays
    /// here once reached: it is never taken.
    next: Token,
    /// The token after the next, once looked at.
    second: Option<Token>,
    /// The text the TOML parser reads: the text read so far, with label
    /// arrays, valid comments and blank lines turned into spaces.
    skeleton: String,
    /// The labels of each array turned into spaces, by the offset of its
    /// `[`.
    arrays: HashMap<usize, Vec<Label<'t>>>,
    /// The distinct labels met: the nodes.
    nodes: HashSet<Cow<'t, str>>,
    edges: usize,
    weak: usize,
    keys: usize,
    /// The table the last `[header]` opened: "" for the top level.
    table: &'static str,
    /// Where the top-level statement being read starts.
    statement: usize,
    /// Whether the line being read holds something; a line break after an
    /// empty line is blanked.
    line_used: bool,
}

impl<'t> Scan<'t> {
    fn new(text: &'t str) -> Scan<'t> {
        // The lexer steps over a byte order mark; the skeleton keeps it.
        let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let mut skeleton = String::with_capacity(text.len());
        skeleton.push_str(&text[..start]);
        let source = Source::new(text);
        let mut tokens = source.lex();
        let next = tokens
            .next()
            .expect("TOML's lexer gives at least one token");
        Scan {
            text,
            source,
            tokens,
            next,
            second: None,
            skeleton,
            arrays: HashMap::new(),
            nodes: HashSet::new(),
            edges: 0,
            weak: 0,
            keys: 0,
            table: "",
            statement: start,
            line_used: false,
        }
    }

    /// The lexer's next token. It is asked only until it gives its last
    /// token, the end of the text, which is never taken.
    fn lex(&mut self) -> Token {
        self.tokens
            .next()
            .expect("TOML's lexer gives an end-of-input token last")
    }

    fn peek_token(&self) -> Token {
        self.next
    }

    /// The token after the next (the end of the text, if that is next).
    fn peek_second(&mut self) -> Token {
        let next = self.peek_token();
        if next.kind() == TokenKind::Eof {
            return next;
        }
        match self.second {
            Some(token) => token,
            None => {
                let token = self.lex();
                self.second = Some(token);
                token
            }
        }
    }

    fn peek(&self) -> TokenKind {
        self.peek_token().kind()
    }

    fn peek_start(&self) -> usize {
        self.peek_token().span().start()
    }

    /// Consumes the next token, copying it to the skeleton as it is or
    /// as spaces. The end of the text stays to be looked at again.
    fn take(&mut self, blank: bool) -> Token {
        let token = self.next;
        if token.kind() != TokenKind::Eof {
            self.next = match self.second.take() {
                Some(next) => next,
                None => self.lex(),
            };
        }
        if blank {
            self.skeleton
                .extend(std::iter::repeat_n(' ', token.span().len()));
        } else {
            self.skeleton.push_str(&self.text[range(&token)]);
        }
        token
    }

    fn keep(&mut self) -> Token {
        self.take(false)
    }

    fn blank(&mut self) -> Token {
        self.take(true)
    }

    fn skip_ws(&mut self) {
        while self.peek() == TokenKind::Whitespace {
            self.keep();
        }
    }

    fn expect(&mut self, kind: TokenKind) -> Result<Token, Stop> {
        let token = self.keep();
        if token.kind() == kind {
            Ok(token)
        } else {
            Err(self.unexpected(&token))
        }
    }

    /// Consumes the next token, which is not TOML where it is.
    fn refuse_next(&mut self) -> Stop {
        let token = self.keep();
        self.unexpected(&token)
    }

    /// Text that is not TOML at `token`.
    fn unexpected(&self, token: &Token) -> Stop {
        let what = match token.kind() {
            TokenKind::Whitespace => "whitespace",
            TokenKind::Newline if self.invalid(token).is_some() => {
                "a carriage return without a line feed"
            }
            TokenKind::Newline => "a line break",
            TokenKind::Comment => "a comment",
            TokenKind::BasicString
            | TokenKind::LiteralString
            | TokenKind::MlBasicString
            | TokenKind::MlLiteralString => "a string",
            TokenKind::LeftSquareBracket => "`[`",
            TokenKind::RightSquareBracket => "`]`",
            TokenKind::LeftCurlyBracket => "`{`",
            TokenKind::RightCurlyBracket => "`}`",
            TokenKind::Comma => "`,`",
            TokenKind::Equals => "`=`",
            TokenKind::Dot => "`.`",
            TokenKind::Atom => "a bare word",
            TokenKind::Eof => "the end of the file",
        };
        Stop {
            kind: FileErrorKind::Toml {
                message: format!("{what} was not expected here"),
            },
            at: token.span().start(),
            syntax: true,
        }
    }

    /// What TOML's decoder refuses in a comment (a character TOML does not
    /// allow) or a line break (a `\r` without `\n`, which the lexer takes
    /// for a line break).
    fn invalid(&self, token: &Token) -> Option<ParseError> {
        let raw = self.source.get(token)?;
        let mut error = None;
        match token.kind() {
            TokenKind::Comment => raw.decode_comment(&mut error),
            TokenKind::Newline => raw.decode_newline(&mut error),
            _ => {}
        }
        error
    }

    fn refuse(kind: FileErrorKind, at: usize) -> Stop {
        Stop {
            kind,
            at,
            syntax: false,
        }
    }

    /// The whole text.
    fn document(&mut self) -> Result<(), Stop> {
        loop {
            self.statement = self.peek_start();
            match self.peek() {
                TokenKind::Eof => return Ok(()),
                TokenKind::Whitespace => {
                    self.keep();
                }
                TokenKind::Newline => {
                    let blank = !self.line_used;
                    self.newline(blank)?;
                    self.line_used = false;
                }
                TokenKind::Comment => self.comment()?,
                TokenKind::LeftSquareBracket => {
                    self.header()?;
                    self.end_of_line()?;
                }
                TokenKind::Atom | TokenKind::BasicString | TokenKind::LiteralString => {
                    self.key_value(self.table)?;
                    self.end_of_line()?;
                }
                _ => return Err(self.refuse_next()),
            }
        }
    }

    /// After a statement: a comment, then a line break or the end.
    fn end_of_line(&mut self) -> Result<(), Stop> {
        self.line_used = true;
        self.skip_ws();
        if self.peek() == TokenKind::Comment {
            self.comment()?;
        }
        match self.peek() {
            TokenKind::Newline => {
                self.newline(false)?;
                self.line_used = false;
                Ok(())
            }
            TokenKind::Eof => Ok(()),
            _ => Err(self.refuse_next()),
        }
    }

    /// A line break: copied or blanked, or refused if it is a `\r` alone.
    fn newline(&mut self, blank: bool) -> Result<(), Stop> {
        let token = self.peek_token();
        // A `\n` is always one; anything with a `\r` is for TOML's decoder.
        let lf = self.text.as_bytes()[token.span().start()] == b'\n';
        if !lf && self.invalid(&token).is_some() {
            return Err(self.refuse_next());
        }
        self.take(blank);
        Ok(())
    }

    /// A comment: blanked, or refused if TOML does not allow its
    /// characters.
    fn comment(&mut self) -> Result<(), Stop> {
        let token = self.peek_token();
        match self.invalid(&token) {
            None => {
                self.blank();
                Ok(())
            }
            Some(error) => {
                self.keep();
                Err(Stop {
                    kind: FileErrorKind::Toml {
                        message: error.description().to_owned(),
                    },
                    at: token.span().start(),
                    syntax: true,
                })
            }
        }
    }

    /// Counts a key or header.
    fn count_key(&mut self, at: usize) -> Result<(), Stop> {
        self.keys += 1;
        if self.keys > MAX_FILE_KEYS {
            return Err(Self::refuse(FileErrorKind::TooManyKeys, at));
        }
        Ok(())
    }

    /// Counts a label as a node, if it is a new one.
    fn node(&mut self, label: Cow<'t, str>, at: usize) -> Result<(), Stop> {
        if !self.nodes.contains(label.as_ref()) {
            if self.nodes.len() == MAX_FILE_NODES {
                return Err(Self::refuse(FileErrorKind::TooManyNodes, at));
            }
            self.nodes.insert(label);
        }
        Ok(())
    }

    /// A `[table]` or `[[array of tables]]` header.
    fn header(&mut self) -> Result<(), Stop> {
        let open = self.keep().span();
        let array = self.peek() == TokenKind::LeftSquareBracket && self.peek_start() == open.end();
        if array {
            self.keep();
        }
        self.skip_ws();
        let path = self.key_path()?;
        // Three parts are refused below, whatever follows them.
        if path.len() < 3 {
            self.skip_ws();
            let close = self.expect(TokenKind::RightSquareBracket)?;
            if array {
                let second = self.expect(TokenKind::RightSquareBracket)?;
                if second.span().start() != close.span().end() {
                    return Err(self.unexpected(&second));
                }
            }
        }
        self.count_key(open.start())?;
        let (first, at) = &path[0];
        if !KEYS.contains(&first.as_ref()) {
            return Err(Self::refuse(unknown_key(first), *at));
        }
        let wrong = |key: String, expected| {
            Err(Self::refuse(
                FileErrorKind::WrongType { key, expected },
                open.start(),
            ))
        };
        if array {
            let key = path
                .iter()
                .map(|(part, _)| part.as_ref())
                .collect::<Vec<_>>();
            let expected = match Place::of(&path) {
                Place::String(_) => EXPECT_STRING,
                Place::Labels(..) => EXPECT_LABELS,
                Place::Table(_) => EXPECT_TABLE,
                Place::Wrong(_, expected) => expected,
            };
            return wrong(key.join("."), expected);
        }
        match Place::of(&path) {
            Place::Table(table) => {
                self.table = table;
                Ok(())
            }
            Place::String(key) => wrong(key, EXPECT_STRING),
            Place::Labels(key, _) => wrong(key, EXPECT_LABELS),
            Place::Wrong(key, expected) => wrong(key, expected),
        }
    }

    /// A dotted key: its first three parts, decoded, with their offsets
    /// (three parts are already too many anywhere in a lattice file).
    fn key_path(&mut self) -> Result<Vec<(Cow<'t, str>, usize)>, Stop> {
        let mut path = Vec::new();
        loop {
            let token = self.keep();
            path.push((self.key(&token)?, token.span().start()));
            if path.len() == 3 {
                return Ok(path);
            }
            self.skip_ws();
            if self.peek() != TokenKind::Dot {
                return Ok(path);
            }
            self.keep();
            self.skip_ws();
        }
    }

    /// A key: bare, or a one-line string.
    fn key(&self, token: &Token) -> Result<Cow<'t, str>, Stop> {
        match token.kind() {
            TokenKind::Atom => {
                let key = &self.text[range(token)];
                if key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                {
                    Ok(Cow::Borrowed(key))
                } else {
                    Err(self.unexpected(token))
                }
            }
            TokenKind::BasicString | TokenKind::LiteralString => self.string(token),
            _ => Err(self.unexpected(token)),
        }
    }

    /// A string token's value. Plain strings are their text; others are
    /// decoded (and checked) by the TOML parser, one string at a time.
    fn string(&self, token: &Token) -> Result<Cow<'t, str>, Stop> {
        let raw: &'t str = &self.text[range(token)];
        let plain = |quote: u8, escapes: bool| {
            raw.len() >= 2
                && raw.as_bytes()[0] == quote
                && raw.as_bytes()[raw.len() - 1] == quote
                && raw.as_bytes()[1..raw.len() - 1]
                    .iter()
                    .all(|&b| b == b'\t' || (b >= 0x20 && b != 0x7f && !(escapes && b == b'\\')))
        };
        let simple = match token.kind() {
            TokenKind::BasicString => plain(b'"', true),
            TokenKind::LiteralString => plain(b'\'', false),
            _ => false,
        };
        if simple {
            return Ok(Cow::Borrowed(&raw[1..raw.len() - 1]));
        }
        match DeValue::parse(raw) {
            Ok(value) => match value.into_inner() {
                DeValue::String(text) => Ok(text),
                _ => Err(self.unexpected(token)),
            },
            Err(err) => Err(Stop {
                kind: FileErrorKind::Toml {
                    message: err.message().to_owned(),
                },
                at: token.span().start() + err.span().map_or(0, |span| span.start),
                syntax: true,
            }),
        }
    }

    /// `key = value`, in the table `table` ("" for the top level).
    fn key_value(&mut self, table: &'static str) -> Result<(), Stop> {
        let start = self.peek_start();
        let key = self.key_path()?;
        self.count_key(start)?;
        let mut path = Vec::with_capacity(key.len() + 1);
        if table.is_empty() {
            let (first, at) = &key[0];
            if !KEYS.contains(&first.as_ref()) {
                return Err(Self::refuse(unknown_key(first), *at));
            }
        } else {
            path.push((Cow::Borrowed(table), start));
        }
        path.extend(key);
        let place = Place::of(&path);
        if let Place::Wrong(key, expected) = place {
            // A key of three parts or more, refused whatever follows it.
            let at = path.last().map_or(start, |(_, at)| *at);
            return Err(Self::refuse(FileErrorKind::WrongType { key, expected }, at));
        }
        if path.len() >= 2 && matches!(path[0].0.as_ref(), "dtypes" | "edges") {
            let (label, at) = path[1].clone();
            self.node(label, at)?;
        }
        self.skip_ws();
        self.expect(TokenKind::Equals)?;
        self.skip_ws();
        self.value(place)
    }

    /// The value of a key at `place`.
    fn value(&mut self, place: Place) -> Result<(), Stop> {
        let kind = self.peek();
        let at = self.peek_start();
        let wrong = |key: String, expected| {
            Err(Self::refuse(FileErrorKind::WrongType { key, expected }, at))
        };
        match (place, kind) {
            (Place::Wrong(key, expected), _) => wrong(key, expected),
            // One token: the TOML parser reads it, and the lattice's rules
            // judge it.
            (_, kind) if is_string(kind) => {
                self.keep();
                Ok(())
            }
            (_, TokenKind::Atom) => self.scalar().map(|_| ()),
            (Place::Labels(key, edges), TokenKind::LeftSquareBracket) => {
                self.label_array(key, edges)
            }
            (Place::Table(table), TokenKind::LeftCurlyBracket) => self.inline_table(table),
            (Place::String(key), TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket) => {
                wrong(key, EXPECT_STRING)
            }
            (Place::Labels(key, _), TokenKind::LeftCurlyBracket) => wrong(key, EXPECT_LABELS),
            (Place::Table(table), TokenKind::LeftSquareBracket) => {
                wrong(table.to_owned(), EXPECT_TABLE)
            }
            _ => Err(self.refuse_next()),
        }
    }

    /// A number, boolean or date (the TOML parser checks which): its span.
    fn scalar(&mut self) -> Result<Range<usize>, Stop> {
        let Range { start, mut end } = range(&self.keep());
        // `1.5` is three tokens, a date and time with a space three more.
        for _ in 0..8 {
            match self.peek() {
                TokenKind::Atom | TokenKind::Dot => end = self.keep().span().end(),
                TokenKind::Whitespace if self.peek_second().kind() == TokenKind::Atom => {
                    self.keep();
                }
                _ => return Ok(start..end),
            }
        }
        match self.peek() {
            TokenKind::Atom | TokenKind::Dot | TokenKind::Whitespace => Err(self.refuse_next()),
            _ => Ok(start..end),
        }
    }

    /// An array of labels, turned into spaces in the skeleton; the labels
    /// are kept.
    fn label_array(&mut self, key: String, edges: bool) -> Result<(), Stop> {
        let open = self.keep().span().start();
        let mut labels = Vec::new();
        let mut after_value = false;
        loop {
            match self.peek() {
                TokenKind::Whitespace => {
                    self.blank();
                }
                TokenKind::Newline => self.newline(true)?,
                TokenKind::Comment => self.comment()?,
                TokenKind::RightSquareBracket => {
                    self.keep();
                    break;
                }
                TokenKind::Comma if after_value => {
                    self.blank();
                    after_value = false;
                }
                kind if is_string(kind) && !after_value => {
                    let token = self.peek_token();
                    let text = self.string(&token)?;
                    self.blank();
                    let at = token.span().start();
                    if edges {
                        self.edges += 1;
                        if self.edges > MAX_FILE_EDGES {
                            return Err(Self::refuse(FileErrorKind::TooManyEdges, at));
                        }
                    } else {
                        self.weak += 1;
                        if self.weak > MAX_FILE_NODES {
                            return Err(Self::refuse(FileErrorKind::TooManyWeak, at));
                        }
                    }
                    self.node(text.clone(), at)?;
                    labels.push(Label {
                        text,
                        span: range(&token),
                    });
                    after_value = true;
                }
                TokenKind::Atom if !after_value => {
                    let span = self.scalar()?;
                    let kind = match DeValue::parse(&self.text[span.clone()]) {
                        Err(err) => {
                            return Err(Stop {
                                kind: FileErrorKind::Toml {
                                    message: err.message().to_owned(),
                                },
                                at: span.start + err.span().map_or(0, |s| s.start),
                                syntax: true,
                            })
                        }
                        Ok(_) => FileErrorKind::WrongType {
                            key,
                            expected: EXPECT_LABELS,
                        },
                    };
                    return Err(Self::refuse(kind, span.start));
                }
                TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket if !after_value => {
                    let at = self.peek_start();
                    let kind = FileErrorKind::WrongType {
                        key,
                        expected: EXPECT_LABELS,
                    };
                    return Err(Self::refuse(kind, at));
                }
                _ => return Err(self.refuse_next()),
            }
        }
        self.arrays.insert(open, labels);
        Ok(())
    }

    /// `{ label = value, ... }` as the value of `dtypes` or `edges`.
    fn inline_table(&mut self, table: &'static str) -> Result<(), Stop> {
        self.keep();
        let mut after_entry = false;
        loop {
            match self.peek() {
                TokenKind::Whitespace => {
                    self.blank();
                }
                TokenKind::Newline => self.newline(true)?,
                TokenKind::Comment => self.comment()?,
                TokenKind::RightCurlyBracket => {
                    self.keep();
                    return Ok(());
                }
                TokenKind::Comma if after_entry => {
                    self.keep();
                    after_entry = false;
                }
                TokenKind::Atom | TokenKind::BasicString | TokenKind::LiteralString
                    if !after_entry =>
                {
                    self.key_value(table)?;
                    after_entry = true;
                }
                _ => return Err(self.refuse_next()),
            }
        }
    }

    /// The error for a stop: the TOML parser's, if the text before the
    /// statement (or, for text that is not TOML, the statement itself if
    /// short) is not TOML; else the stop's own.
    fn refuse_at(mut self, stop: Stop) -> LatticeFileError {
        let text = self.text;
        self.skeleton.truncate(self.statement);
        if stop.syntax {
            let end = text[stop.at..]
                .find('\n')
                .map_or(text.len(), |i| stop.at + i);
            if end - self.statement <= WINDOW {
                self.skeleton.push_str(&text[self.statement..end]);
            }
        }
        match DeTable::parse(&self.skeleton) {
            Err(err) => toml_error(text, &err),
            Ok(_) => LatticeFileError::new(stop.kind, Some(Location::at(text, stop.at))),
        }
    }
}

/// A table entry: a key and its value, with their spans.
type Entry<'v, 'i> = (&'v Spanned<Cow<'i, str>>, &'v Spanned<DeValue<'i>>);

/// A label where it is written.
struct Mention<'a> {
    label: &'a str,
    span: Range<usize>,
}

struct Parser<'p> {
    text: &'p str,
    /// The labels of the arrays the first pass blanked out, by the offset
    /// of their `[`.
    arrays: &'p HashMap<usize, Vec<Label<'p>>>,
}

impl<'p> Parser<'p> {
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
                other => return Err(self.error(unknown_key(other), &key.span())),
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
            _ => Err(self.wrong_type(key, EXPECT_STRING, value)),
        }
    }

    fn table<'v, 'i>(
        &self,
        key: &str,
        value: &'v Spanned<DeValue<'i>>,
    ) -> Result<Vec<Entry<'v, 'i>>, LatticeFileError> {
        let DeValue::Table(table) = value.get_ref() else {
            return Err(self.wrong_type(key, EXPECT_TABLE, value));
        };
        let mut entries: Vec<_> = table.iter().collect();
        entries.sort_by_key(|(key, _)| key.span().start);
        Ok(entries)
    }

    /// An array of labels: those the first pass kept (it blanked them out
    /// of the text the TOML parser read), and any the parser read.
    fn labels<'v>(
        &self,
        key: &str,
        value: &'v Spanned<DeValue<'_>>,
    ) -> Result<Vec<Mention<'v>>, LatticeFileError>
    where
        'p: 'v,
    {
        let DeValue::Array(items) = value.get_ref() else {
            return Err(self.wrong_type(key, EXPECT_LABELS, value));
        };
        let kept = self
            .arrays
            .get(&value.span().start)
            .map_or(&[][..], Vec::as_slice);
        let mut mentions = kept
            .iter()
            .map(|label| self.mention(&label.text, label.span.clone()))
            .chain(items.iter().map(|item| match item.get_ref() {
                DeValue::String(label) => self.mention(label, item.span()),
                _ => Err(self.wrong_type(key, EXPECT_LABELS, item)),
            }))
            .collect::<Result<Vec<_>, _>>()?;
        if !kept.is_empty() && !items.is_empty() {
            mentions.sort_by_key(|mention| mention.span.start);
        }
        Ok(mentions)
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
    /// More than [`MAX_FILE_KEYS`] keys and `[table]` headers.
    TooManyKeys,
    /// `weak` lists more than [`MAX_FILE_NODES`] labels (repeats
    /// included).
    TooManyWeak,
}

impl LatticeFileError {
    fn new(kind: FileErrorKind, location: Option<Location>) -> LatticeFileError {
        LatticeFileError {
            path: None,
            location,
            kind,
        }
    }

    /// The same error, naming the input it came from: a file, or a name
    /// such as `<stdin>` for what [`read_from`] read.
    pub fn with_path(mut self, path: impl AsRef<Path>) -> LatticeFileError {
        self.path = Some(path.as_ref().to_owned());
        self
    }

    /// The file, when the error came from [`read`] (or was given one with
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
            FileErrorKind::TooManyKeys => write!(
                f,
                "more than {MAX_FILE_KEYS} keys and [tables], the limit for a lattice file \
                 (one [dtypes] and one [edges] line per node); give each key once"
            ),
            FileErrorKind::TooManyWeak => write!(
                f,
                "`weak` lists more than {MAX_FILE_NODES} labels, the most nodes a lattice file \
                 may have: list each weak label once"
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

    /// The parse without the first pass: the TOML parser on the whole text.
    fn parse_whole(text: &str) -> Result<Definition, LatticeFileError> {
        let document = DeTable::parse(text).map_err(|err| toml_error(text, &err))?;
        Parser {
            text,
            arrays: &HashMap::new(),
        }
        .definition(document.into_inner())
    }

    /// Lines that lattice files, valid or not, are made of.
    const LINES: &[&str] = &[
        "name = \"n\"",
        "name = 'n' # named",
        "description = \"\"\"two\nlines\"\"\"",
        "description = 1979-05-27 07:32:00",
        "description = 1.5",
        "weak = [\"u*\", 'x']",
        "weak = [ # labels\n  \"i*\",\n]",
        "weak = []",
        "[dtypes]",
        "[edges]",
        "[ edges ]",
        "[\"edges\"]",
        "[edges.a]",
        "[[edges]]",
        "[name]",
        "edges.a = [\"b\"]",
        "edges . \"b\" = ['c', \"a\"]",
        "dtypes.u8 = \"uint8\"",
        "dtypes = { u8 = \"uint8\", \"f*\" = 'float64' }",
        "edges = {\n  a = [\"b\"], # note\n  b = [],\n}",
        "edges = { a = { b = [] } }",
        "a = [\"b\", \"c\",]",
        "a = [\"b\" \"c\"]",
        "a = [,]",
        "a = [\"\\u0062\", \"\\q\"]",
        "a = [\"\"\"b\"\"\", '''c''']",
        "a = [[\"b\"]]",
        "a = [1, 2]",
        "a = [x]",
        "a = \"b\"",
        "a.b = [\"c\"]",
        "\"a b\" = [\"c d\"]",
        "u8 = \"uint8\"",
        "u8 = \"unit8\"",
        "b = [\"a\"]",
        "c = [\"\"]",
        "# a comment",
        "# bad \u{1}",
        "",
        "   ",
        "\r",
        "zz = 1",
        "[zz]",
        "=",
        "]",
        "name = ",
        "a = [\"b\"",
        "\"unterminated = 1",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

        /// The first pass changes what a file means nowhere: a file the
        /// TOML parser and the lattice rules accept gives the same
        /// definition, and a file refused either way is refused.
        #[test]
        fn the_first_pass_keeps_the_meaning(
            lines in proptest::collection::vec(0..LINES.len(), 0..10),
            crlf in proptest::bool::ANY,
        ) {
            let newline = if crlf { "\r\n" } else { "\n" };
            let text: String = lines
                .iter()
                .map(|&i| LINES[i].replace('\n', newline) + newline)
                .collect();
            match (parse(&text), parse_whole(&text)) {
                (Ok(scanned), Ok(whole)) => proptest::prop_assert_eq!(scanned, whole),
                (Err(_), Err(_)) => {}
                (scanned, whole) => proptest::prop_assert!(
                    false,
                    "{text:?}: first pass {scanned:?}, whole {whole:?}"
                ),
            }
        }
    }

    /// A label written in one of TOML's ways (bare only as a key).
    fn written(label: &str, way: usize, key: bool) -> String {
        let bare = label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        match way % 4 {
            0 if bare && key => label.to_owned(),
            1 if !label.contains('\'') => format!("'{label}'"),
            2 => {
                let escaped: String = label
                    .chars()
                    .map(|c| format!("\\u{:04X}", c as u32))
                    .collect();
                format!("\"{escaped}\"")
            }
            _ => format!("{label:?}"),
        }
    }

    /// Spacing TOML allows between array items.
    const GAPS: [&str; 5] = ["", " ", "\n  ", " # gap\n", "\n\n\t"];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Valid lattice files in many spellings mean the same with and
        /// without the first pass.
        #[test]
        fn spellings_of_valid_files_keep_their_meaning(
            edges in proptest::collection::vec(
                (0..8usize, proptest::collection::vec((0..8usize, 0..4usize, 0..5usize), 0..5), 0..4usize),
                0..8,
            ),
            weak in proptest::collection::vec((0..8usize, 0..4usize), 0..3),
            form in 0..3usize,
            trailing in proptest::bool::ANY,
        ) {
            const LABELS: [&str; 8] = ["a", "b", "u8", "int8", "f*", "x y", "q\"t", "é"];
            let mut text = String::from("# a lattice\nname = \"n\"\n\n");
            if !weak.is_empty() {
                let items: Vec<String> = weak.iter().map(|&(l, w)| written(LABELS[l], w, false)).collect();
                text += &format!("weak = [{}]\n", items.join(", "));
            }
            let mut seen = HashSet::new();
            let entries: Vec<String> = edges
                .iter()
                .filter(|(from, _, _)| seen.insert(*from))
                .map(|(from, targets, way)| {
                    let items: Vec<String> = targets
                        .iter()
                        .filter(|(to, _, _)| to != from)
                        .map(|&(to, w, gap)| format!("{}{}", GAPS[gap], written(LABELS[to], w, false)))
                        .collect();
                    let comma = if trailing && !items.is_empty() { "," } else { "" };
                    format!("{} = [{}{comma}\n]", written(LABELS[*from], *way, true), items.join(","))
                })
                .collect();
            match form {
                0 => text += &format!("[edges]\n{}\n", entries.join("\n")),
                1 => {
                    for entry in &entries {
                        text += &format!("edges.{entry}\n");
                    }
                }
                _ => text += &format!("edges = {{\n{}\n}}\n", entries.join(",\n")),
            }
            let whole = parse_whole(&text);
            proptest::prop_assert!(whole.is_ok(), "{text}: {whole:?}");
            proptest::prop_assert_eq!(parse(&text), whole, "{}", text);
        }
    }

    /// TOML's lexer reads a `\r` without `\n` as a line break; the first
    /// pass refuses it wherever it stands, as the TOML parser does.
    #[test]
    fn a_carriage_return_alone_is_refused_wherever_it_is() {
        for text in [
            "name = \"n\"\r",
            "name = \"n\"\n\r\r\n",
            "name = \"n\"\nweak = [\"a\",\r\"b\"]\n",
            "name = \"n\"\nedges = {\r a = [] }\n",
            "name = \"n\"\nweak = [\"a\"] \r# c\n",
        ] {
            assert!(parse_whole(text).is_err(), "{text:?}");
            assert_eq!(parse(text), parse_whole(text), "{text:?}");
        }
        // Past the statement the TOML parser is shown, the first pass's own
        // message.
        let items: Vec<String> = (0..12_000).map(|i| format!("\"l{}\"", i % 3000)).collect();
        let text = format!("name = \"n\"\nedges.a = [{},\r]\n", items.join(", "));
        assert!(error(&text).ends_with(
            "not valid TOML: a carriage return without a line feed was not expected here"
        ));
    }

    #[test]
    fn bad_bytes_are_located() {
        let err = parse_bytes(b"name = \"n\"\n[edges]\na = [\"\xff\"]\n").unwrap_err();
        assert_eq!(err.location(), Some(Location { line: 3, column: 7 }));
        assert!(err.to_string().contains("byte 25 (0xff) is not UTF-8"));
    }
}
