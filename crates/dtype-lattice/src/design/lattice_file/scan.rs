//! The first pass over a lattice file: TOML's own lexer read as a stream,
//! with just enough of TOML's grammar to know where each value sits, so
//! that every limit is enforced at its first crossing in memory that does
//! not grow with the text.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml_parser::lexer::{Lexer, Token, TokenKind};
use toml_parser::{ParseError, Source};

use super::parse::{unknown_key, EXPECT_LABELS, EXPECT_STRING, EXPECT_TABLE, KEYS};
use super::toml_error;
use crate::design::limits::{MAX_EDGES, MAX_KEYS, MAX_NODES};
use crate::design::Location;
use crate::design::{DefinitionError, DefinitionErrorKind, Origin};

// The first pass: TOML's own lexer (`toml_parser`'s, the one the `toml`
// crate parses with), read as a stream, and just enough of TOML's grammar
// to know where each value of a lattice file sits, in memory that does not
// grow with the text (beyond the text's blanked copy and the labels kept).

/// A token's place in the text, in bytes.
pub(super) fn range(token: &Token) -> Range<usize> {
    token.span().start()..token.span().end()
}

/// Whether a token is a string, of any of TOML's four kinds.
pub(super) fn is_string(kind: TokenKind) -> bool {
    kind.encoding().is_some()
}

/// A label the first pass kept, where it is written.
pub(super) struct Label<'t> {
    pub(super) text: Cow<'t, str>,
    pub(super) span: Range<usize>,
}

/// Where the first pass stopped, and why.
pub(super) struct Stop {
    kind: DefinitionErrorKind,
    at: usize,
    /// The text is not TOML there (rather than TOML a lattice file cannot
    /// be): the TOML parser's own message is worth asking for.
    syntax: bool,
}

/// What a value must be, by its key.
pub(super) enum Place {
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
pub(super) const WINDOW: usize = 64 << 10;

/// The first pass over a lattice file's text.
pub(super) struct Scan<'t> {
    pub(super) text: &'t str,
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
    pub(super) skeleton: String,
    /// The labels of each array turned into spaces, by the offset of its
    /// `[`.
    pub(super) arrays: HashMap<usize, Vec<Label<'t>>>,
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
    pub(super) fn new(text: &'t str) -> Scan<'t> {
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
            kind: DefinitionErrorKind::Toml {
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

    fn refuse(kind: DefinitionErrorKind, at: usize) -> Stop {
        Stop {
            kind,
            at,
            syntax: false,
        }
    }

    /// The whole text.
    pub(super) fn document(&mut self) -> Result<(), Stop> {
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
                    kind: DefinitionErrorKind::Toml {
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
        if self.keys > MAX_KEYS {
            return Err(Self::refuse(DefinitionErrorKind::TooManyKeys, at));
        }
        Ok(())
    }

    /// Counts a label as a node, if it is a new one.
    fn node(&mut self, label: Cow<'t, str>, at: usize) -> Result<(), Stop> {
        if !self.nodes.contains(label.as_ref()) {
            if self.nodes.len() == MAX_NODES {
                return Err(Self::refuse(DefinitionErrorKind::TooManyNodes, at));
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
                DefinitionErrorKind::WrongType { key, expected },
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
                kind: DefinitionErrorKind::Toml {
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
            return Err(Self::refuse(
                DefinitionErrorKind::WrongType { key, expected },
                at,
            ));
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
            Err(Self::refuse(
                DefinitionErrorKind::WrongType { key, expected },
                at,
            ))
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

    /// Whitespace, a line break or a comment inside brackets or braces,
    /// taken (blanked in the skeleton); `false` at anything else.
    fn inside_brackets(&mut self) -> Result<bool, Stop> {
        match self.peek() {
            TokenKind::Whitespace => {
                self.blank();
            }
            TokenKind::Newline => self.newline(true)?,
            TokenKind::Comment => self.comment()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// An array of labels, turned into spaces in the skeleton; the labels
    /// are kept.
    fn label_array(&mut self, key: String, edges: bool) -> Result<(), Stop> {
        let open = self.keep().span().start();
        let mut labels = Vec::new();
        let mut after_value = false;
        loop {
            if self.inside_brackets()? {
                continue;
            }
            match self.peek() {
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
                        if self.edges > MAX_EDGES {
                            return Err(Self::refuse(DefinitionErrorKind::TooManyEdges, at));
                        }
                    } else {
                        self.weak += 1;
                        if self.weak > MAX_NODES {
                            return Err(Self::refuse(DefinitionErrorKind::TooManyWeak, at));
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
                                kind: DefinitionErrorKind::Toml {
                                    message: err.message().to_owned(),
                                },
                                at: span.start + err.span().map_or(0, |s| s.start),
                                syntax: true,
                            })
                        }
                        Ok(_) => DefinitionErrorKind::WrongType {
                            key,
                            expected: EXPECT_LABELS,
                        },
                    };
                    return Err(Self::refuse(kind, span.start));
                }
                TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket if !after_value => {
                    let at = self.peek_start();
                    let kind = DefinitionErrorKind::WrongType {
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
            if self.inside_brackets()? {
                continue;
            }
            match self.peek() {
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
    pub(super) fn refuse_at(mut self, stop: Stop) -> DefinitionError {
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
            Ok(_) => DefinitionError::new(
                Origin::LatticeFile,
                stop.kind,
                Some(Location::at(text, stop.at)),
            ),
        }
    }
}
