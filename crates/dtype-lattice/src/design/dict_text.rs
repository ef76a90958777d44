//! A dict of lists as text: a promotion graph written the way JAX's
//! `dtypes.py` and the design notebook write one in Python, or the same
//! in JSON, which is a subset of what is read here.
//!
//! The explorer's editor takes pasted text, and pasted text is the one
//! input that cannot be handed over as data ([`Definition::from_dict`]
//! takes that), so this reads exactly what such a dict needs and nothing
//! more, without running Python: single- or double-quoted strings (with
//! Python's and JSON's escapes), lists of them, trailing commas, `#`
//! comments, and optionally a leading `name = `, which names the graph.
//! Labels must be quoted: a bare name such as `b1` is a Python variable,
//! whose value this cannot know.
//!
//! ```
//! use dtype_lattice::design::dict_text::parse_python_dict;
//!
//! let text = "lattice = {\n  'A': ['C', 'D'],  # the notebook's DAG\n  \"B\": ['C', 'D',],\n}\n";
//! let dict = parse_python_dict(text).unwrap();
//! assert_eq!(dict.name.as_deref(), Some("lattice"));
//! assert_eq!(dict.edges[1], ("B".to_owned(), vec!["C".to_owned(), "D".to_owned()]));
//! let definition = dict.definition("pasted").unwrap();
//! assert_eq!((definition.name.as_str(), definition.nodes.len()), ("lattice", 4));
//!
//! let err = parse_python_dict("{\n  'u8': [u16],\n}").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "dict:2:10: a bare name 'u16': labels are strings, write 'u16' in quotes"
//! );
//! ```
//!
//! # Limits
//!
//! The same as a lattice file's, checked while reading so that no text
//! costs more than a small multiple of its size: at most
//! [`MAX_BYTES`] bytes, [`MAX_NODES`] distinct labels and
//! [`MAX_EDGES`] list items. Nothing nests deeper than a list in a
//! dict, so the reader needs no recursion.

use std::collections::HashMap;

use crate::design::from_dict::DictSpec;
use crate::design::limits::{MAX_BYTES, MAX_EDGES, MAX_NODES};
use crate::design::{Definition, DefinitionError, DefinitionErrorKind, Location, Origin};

/// A dict of lists as read from text, in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DictText {
    /// The name before `=`, when the text assigns the dict to one.
    pub name: Option<String>,
    /// Each key with its list, in order.
    pub edges: Vec<(String, Vec<String>)>,
}

impl DictText {
    /// The graph the dict describes ([`Definition::from_dict`]), named by
    /// the text's `name =` or else `default_name`. Labels that are dtype
    /// names stand for those dtypes and `i*`, `f*`, `c*` are weak, as in a
    /// lattice file; a dict has no `[dtypes]` table, so other labels are
    /// opaque nodes.
    pub fn definition(&self, default_name: &str) -> Result<Definition, DefinitionError> {
        Definition::from_dict(&DictSpec {
            name: self.name.as_deref().unwrap_or(default_name),
            edges: &self.edges,
            dtypes: &[],
            weak: &[],
        })
        .map_err(|err| err.with_origin(Origin::DictText))
    }
}

/// A refusal at `offset` in `text`.
fn refuse(text: &str, offset: usize, kind: DefinitionErrorKind) -> DefinitionError {
    DefinitionError::new(Origin::DictText, kind, Some(Location::at(text, offset)))
}

/// Reads a dict of lists written as Python or JSON (see [the
/// module](self)).
pub fn parse_python_dict(text: &str) -> Result<DictText, DefinitionError> {
    if text.len() > MAX_BYTES {
        let kind = DefinitionErrorKind::TooLarge;
        return Err(DefinitionError::new(Origin::DictText, kind, None));
    }
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    Reader {
        text,
        at: start,
        labels: HashMap::new(),
        items: 0,
    }
    .dict()
}

/// Whether `text` is written as a dict rather than as a lattice file
/// (TOML), for a front end that takes either: its first token, after
/// blanks and `#` comments, is `{`, or it starts `NAME = {` with a name
/// other than `dtypes` and `edges`, which a lattice file may write as TOML
/// inline tables.
///
/// ```
/// use dtype_lattice::design::dict_text::looks_like_dict;
///
/// assert!(looks_like_dict("# JAX's\n{'b1': ['i*']}"));
/// assert!(looks_like_dict("lattice = {'b1': ['i*']}"));
/// assert!(!looks_like_dict("name = \"x\"\n[edges]\nb1 = [\"i*\"]"));
/// assert!(!looks_like_dict("edges = { b1 = [\"i*\"] }\nname = \"x\""));
/// ```
pub fn looks_like_dict(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader {
        text,
        at: 0,
        labels: HashMap::new(),
        items: 0,
    };
    reader.skip_blank();
    if reader.peek() == Some(b'{') {
        return true;
    }
    let Some(name) = reader.identifier() else {
        return false;
    };
    reader.skip_blank();
    if reader.peek() != Some(b'=') || matches!(name, "dtypes" | "edges") {
        return false;
    }
    reader.at += 1;
    reader.skip_blank();
    reader.peek() == Some(b'{')
}

/// The reader's place in the text, and the counts the limits apply to.
struct Reader<'t> {
    text: &'t str,
    at: usize,
    /// Every distinct label so far, with the place of the first mention.
    labels: HashMap<String, usize>,
    items: usize,
}

impl<'t> Reader<'t> {
    fn error(&self, offset: usize, kind: DefinitionErrorKind) -> DefinitionError {
        refuse(self.text, offset, kind)
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips spaces, line breaks, `#` comments and backslash line
    /// continuations.
    fn skip_blank(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(&byte) = bytes.get(self.at) {
            match byte {
                b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' => self.at += 1,
                b'#' => {
                    self.at = bytes[self.at..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(bytes.len(), |end| self.at + end);
                }
                b'\\' if bytes.get(self.at + 1) == Some(&b'\n') => self.at += 2,
                _ => break,
            }
        }
    }

    /// What stands at the reader's place, for an error: the end, a word,
    /// or one character, quoted.
    fn found(&self) -> String {
        let rest = &self.text[self.at..];
        let Some(first) = rest.chars().next() else {
            return "the end of the text".to_owned();
        };
        if first == '"' || first == '\'' {
            return "a string".to_owned();
        }
        let word: String = rest
            .chars()
            .take_while(|&c| c.is_alphanumeric() || c == '_')
            .take(24)
            .collect();
        let shown = if word.is_empty() {
            first.to_string()
        } else {
            word
        };
        let shown: String = shown
            .chars()
            .flat_map(|c| {
                let escaped: Vec<char> = if c.is_control() {
                    c.escape_debug().collect()
                } else {
                    vec![c]
                };
                escaped
            })
            .collect();
        format!("'{shown}'")
    }

    fn expected(&self, expected: impl Into<String>) -> DefinitionError {
        self.error(
            self.at,
            DefinitionErrorKind::Expected {
                expected: expected.into(),
                found: self.found(),
            },
        )
    }

    /// A Python identifier at the reader's place, if one starts here.
    fn identifier(&mut self) -> Option<&'t str> {
        let rest = &self.text[self.at..];
        let first = rest.chars().next()?;
        if !(first.is_alphabetic() || first == '_') {
            return None;
        }
        let len = rest
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
            .map_or(rest.len(), |(i, _)| i);
        self.at += len;
        Some(&rest[..len])
    }

    /// `[name =] { key: [label, ...], ... }` and nothing after it.
    fn dict(mut self) -> Result<DictText, DefinitionError> {
        self.skip_blank();
        let mut name = None;
        let before_name = self.at;
        if let Some(identifier) = self.identifier() {
            self.skip_blank();
            if self.peek() != Some(b'=') {
                self.at = before_name;
                return Err(self.expected("'{' to open the dict (or a name and '=' before it)"));
            }
            self.at += 1;
            self.skip_blank();
            name = Some(identifier.to_owned());
        }
        if self.peek() != Some(b'{') {
            return Err(self.expected("'{' to open the dict"));
        }
        self.at += 1;
        let mut edges: Vec<(String, Vec<String>)> = Vec::new();
        let mut keys: HashMap<String, usize> = HashMap::new();
        loop {
            self.skip_blank();
            if self.peek() == Some(b'}') {
                self.at += 1;
                break;
            }
            let key_at = self.at;
            let key = self.label("a quoted label as a key, or '}' to close the dict")?;
            if let Some(&first) = keys.get(&key) {
                return Err(self.error(
                    key_at,
                    DefinitionErrorKind::DuplicateKey {
                        key,
                        first: Location::at(self.text, first),
                    },
                ));
            }
            keys.insert(key.clone(), key_at);
            self.skip_blank();
            if self.peek() != Some(b':') {
                return Err(self.expected(format!("':' after the key '{}'", key.escape_debug())));
            }
            self.at += 1;
            self.skip_blank();
            if self.peek() != Some(b'[') {
                return Err(self.expected(format!(
                    "a list of labels for '{}', such as ['int16', 'float16']",
                    key.escape_debug()
                )));
            }
            self.at += 1;
            let targets = self.list(&key)?;
            edges.push((key, targets));
            self.skip_blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    break;
                }
                _ => return Err(self.expected("',' or '}' after a key's list")),
            }
        }
        self.skip_blank();
        if self.at < self.text.len() {
            return Err(self.expected("the end of the text after the dict"));
        }
        Ok(DictText { name, edges })
    }

    /// The items of a list after its `[`, through its `]`.
    fn list(&mut self, key: &str) -> Result<Vec<String>, DefinitionError> {
        let mut targets = Vec::new();
        loop {
            self.skip_blank();
            if self.peek() == Some(b']') {
                self.at += 1;
                return Ok(targets);
            }
            let item_at = self.at;
            let item = self.label("a quoted label, or ']' to close the list")?;
            if item == key {
                return Err(self.error(
                    item_at,
                    DefinitionErrorKind::SelfEdge {
                        label: item.clone(),
                    },
                ));
            }
            self.items += 1;
            if self.items > MAX_EDGES {
                return Err(self.error(item_at, DefinitionErrorKind::TooManyEdges));
            }
            targets.push(item);
            self.skip_blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(targets);
                }
                _ => return Err(self.expected("',' or ']' after a label")),
            }
        }
    }

    /// A quoted label, counted against the node limit; `expected` says
    /// what may stand here instead.
    fn label(&mut self, expected: &str) -> Result<String, DefinitionError> {
        let at = self.at;
        let label = match self.peek() {
            Some(b'"' | b'\'') => self.string()?,
            _ => {
                if let Some(name) = self.identifier() {
                    let name = name.to_owned();
                    return Err(self.error(at, DefinitionErrorKind::BareName { name }));
                }
                return Err(self.expected(expected));
            }
        };
        if label.is_empty() {
            return Err(self.error(at, DefinitionErrorKind::EmptyLabel));
        }
        if !self.labels.contains_key(&label) {
            if self.labels.len() == MAX_NODES {
                return Err(self.error(at, DefinitionErrorKind::TooManyNodes));
            }
            self.labels.insert(label.clone(), at);
        }
        Ok(label)
    }

    /// A string in single or double quotes on one line, escapes read.
    fn string(&mut self) -> Result<String, DefinitionError> {
        let start = self.at;
        let quote = self.text.as_bytes()[start];
        self.at += 1;
        let mut out = String::new();
        loop {
            let rest = &self.text.as_bytes()[self.at..];
            let plain = rest
                .iter()
                .position(|&b| b == quote || b == b'\\' || b == b'\n')
                .unwrap_or(rest.len());
            out.push_str(&self.text[self.at..self.at + plain]);
            self.at += plain;
            match self.peek() {
                Some(b'\\') => out.push(self.escape()?),
                Some(b) if b == quote => {
                    self.at += 1;
                    return Ok(out);
                }
                _ => return Err(self.error(start, DefinitionErrorKind::UnterminatedString)),
            }
        }
    }

    /// The character a backslash escape stands for: Python's escapes of
    /// one character, `\xHH`, `\uHHHH` (JSON's surrogate pairs included)
    /// and `\UHHHHHHHH`, and JSON's `\/`.
    fn escape(&mut self) -> Result<char, DefinitionError> {
        let start = self.at;
        let bad = |reader: &Self, end: usize| {
            let end = end.min(reader.text.len());
            let mut end = end;
            while !reader.text.is_char_boundary(end) {
                end += 1;
            }
            reader.error(
                start,
                DefinitionErrorKind::BadEscape {
                    escape: reader.text[start..end].to_owned(),
                },
            )
        };
        let Some(&letter) = self.text.as_bytes().get(start + 1) else {
            return Err(bad(self, start + 1));
        };
        let simple = match letter {
            b'\\' => Some('\\'),
            b'\'' => Some('\''),
            b'"' => Some('"'),
            b'/' => Some('/'),
            b'n' => Some('\n'),
            b't' => Some('\t'),
            b'r' => Some('\r'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'v' => Some('\u{b}'),
            b'a' => Some('\u{7}'),
            _ => None,
        };
        if let Some(c) = simple {
            self.at += 2;
            return Ok(c);
        }
        let digits = match letter {
            b'x' => 2,
            b'u' => 4,
            b'U' => 8,
            _ => return Err(bad(self, start + 2)),
        };
        let hex = |from: usize| {
            self.text
                .get(from..from + digits)
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
        };
        let end = start + 2 + digits;
        let Some(code) = hex(start + 2) else {
            return Err(bad(self, end));
        };
        if (0xD800..0xDC00).contains(&code) && letter == b'u' {
            // JSON writes a character beyond the first plane as a pair.
            let low = (self.text.get(end..end + 2) == Some("\\u"))
                .then(|| hex(end + 2))
                .flatten()
                .filter(|low| (0xDC00..0xE000).contains(low));
            let Some(low) = low else {
                return Err(bad(self, end));
            };
            self.at = end + 6;
            let combined = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            return char::from_u32(combined).ok_or_else(|| bad(self, end + 6));
        }
        let c = char::from_u32(code).ok_or_else(|| bad(self, end))?;
        self.at = end;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse_python_dict(text).unwrap_err().to_string()
    }

    fn edges(text: &str) -> Vec<(String, Vec<String>)> {
        parse_python_dict(text).unwrap().edges
    }

    #[test]
    fn python_and_json_spellings_read_alike() {
        let python = "# JAX's weak types\nlattice = {\n    'i*': ['u8', \"i8\",],  # trailing comma\n    'u8': [],\n}\n";
        let json = r#"{"i*": ["u8", "i8"], "u8": []}"#;
        assert_eq!(edges(python), edges(json));
        assert_eq!(
            parse_python_dict(python).unwrap().name.as_deref(),
            Some("lattice")
        );
        assert_eq!(parse_python_dict(json).unwrap().name, None);
        assert_eq!(edges("{}"), vec![]);
        assert_eq!(edges("\u{feff}{'a': []}")[0].0, "a");
    }

    #[test]
    fn escapes_are_pythons_and_jsons() {
        let dict = edges(r#"{"a\u00e9\x41\/\\\"": ['\U0001F600', "\ud83d\ude00", 'it\'s']}"#);
        assert_eq!(dict[0].0, "aéA/\\\"");
        assert_eq!(dict[0].1, ["😀", "😀", "it's"]);
        assert_eq!(
            error(r#"{"a\d": []}"#),
            "dict:1:4: the escape '\\\\d' is not a character: write a backslash as '\\\\'"
        );
        assert!(error(r#"{"\ud83d": []}"#).starts_with("dict:1:3: the escape"));
        assert!(error(r#"{"\x4": []}"#).starts_with("dict:1:3: the escape"));
    }

    #[test]
    fn errors_name_the_place_and_the_input() {
        assert_eq!(
            error("{\n  'a': ['b'],\n  'a': ['c'],\n}"),
            "dict:3:3: the key 'a' again (first at 2:3): give each node's list once"
        );
        assert_eq!(
            error("{'a': 'b'}"),
            "dict:1:7: expected a list of labels for 'a', such as ['int16', 'float16'], found a string"
        );
        assert_eq!(
            error("{'a' ['b']}"),
            "dict:1:6: expected ':' after the key 'a', found '['"
        );
        assert_eq!(
            error("{'a': ['b' 'c']}"),
            "dict:1:12: expected ',' or ']' after a label, found a string"
        );
        assert_eq!(
            error("{'a': ['b']"),
            "dict:1:12: expected ',' or '}' after a key's list, found the end of the text"
        );
        assert_eq!(
            error("{'a': ['a']}"),
            "dict:1:8: 'a' promotes to itself: every type already does, remove 'a' from its own list"
        );
        assert_eq!(
            error("{'a': ['']}"),
            "dict:1:8: an empty label: give every node a name"
        );
        assert_eq!(
            error("{'a': ['b\n']}"),
            "dict:1:8: a string with no closing quote on its line: end it with the quote it starts with"
        );
        assert_eq!(
            error("{} {}"),
            "dict:1:4: expected the end of the text after the dict, found '{'"
        );
        assert_eq!(
            error("lattice {}"),
            "dict:1:1: expected '{' to open the dict (or a name and '=' before it), found 'lattice'"
        );
        assert_eq!(
            error("name = \"x\""),
            "dict:1:8: expected '{' to open the dict, found a string"
        );
        assert_eq!(
            error("{b1: ['i*']}"),
            "dict:1:2: a bare name 'b1': labels are strings, write 'b1' in quotes"
        );
        assert_eq!(
            error("{'é': [1]}"),
            "dict:1:8: expected a quoted label, or ']' to close the list, found '1'"
        );
    }

    #[test]
    fn limits_are_checked_while_reading() {
        let many: String = (0..=MAX_NODES).map(|i| format!("'n{i}': [],")).collect();
        let err = parse_python_dict(&format!("{{{many}}}")).unwrap_err();
        assert_eq!(err.kind(), &DefinitionErrorKind::TooManyNodes);
        let items = "'b',".repeat(MAX_EDGES + 1);
        let err = parse_python_dict(&format!("{{'a': [{items}]}}")).unwrap_err();
        assert_eq!(err.kind(), &DefinitionErrorKind::TooManyEdges);
        let huge = " ".repeat(MAX_BYTES + 1);
        assert_eq!(
            parse_python_dict(&huge).unwrap_err().kind(),
            &DefinitionErrorKind::TooLarge
        );
    }

    #[test]
    fn the_definition_is_from_dicts() {
        let dict = parse_python_dict("{'bool': ['i*'], 'i*': ['int8']}").unwrap();
        let definition = dict.definition("pasted").unwrap();
        assert_eq!(definition.name, "pasted");
        assert_eq!(definition.nodes[0].dtype, Some(crate::DType::Bool));
        assert!(definition.nodes[1].weak);
        assert_eq!(definition.edges, [(0, 1), (1, 2)]);
    }
}
