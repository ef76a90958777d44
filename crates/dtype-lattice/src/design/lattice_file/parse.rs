//! The second pass: the TOML parser's tables read as a graph, each label
//! kept with where it is written, so that every error names its place.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::error::{FileErrorKind, LatticeFileError};
use super::scan::Label;
use crate::design::limits::{MAX_EDGES, MAX_NODES};
use crate::design::{Definition, Location, NodeDef};
use crate::engine::Node;
use crate::text::nearest;
use crate::types::DType;

/// The top-level keys of a lattice file.
pub(super) const KEYS: [&str; 5] = ["name", "description", "weak", "dtypes", "edges"];

/// What `name`, `description` and a `[dtypes]` entry must be.
pub(super) const EXPECT_STRING: &str = "a string, such as \"int8\"";
/// What `dtypes` and `edges` must be.
pub(super) const EXPECT_TABLE: &str = "a table: a [section] of label = value lines";
/// What `weak` and an `[edges]` entry must be.
pub(super) const EXPECT_LABELS: &str = "an array of node labels, such as [\"int16\", \"float16\"]";

/// The refusal of an unknown top-level key, with the nearest known one.
pub(super) fn unknown_key(key: &str) -> FileErrorKind {
    let suggestion = nearest(key, KEYS.into_iter());
    FileErrorKind::UnknownKey {
        key: key.to_owned(),
        suggestion,
    }
}

/// A table entry: a key and its value, with their spans.
type Entry<'v, 'i> = (&'v Spanned<Cow<'i, str>>, &'v Spanned<DeValue<'i>>);

/// A label where it is written.
struct Mention<'a> {
    label: &'a str,
    span: Range<usize>,
}

pub(super) struct Parser<'p> {
    pub(super) text: &'p str,
    /// The labels of the arrays the first pass blanked out, by the offset
    /// of their `[`.
    pub(super) arrays: &'p HashMap<usize, Vec<Label<'p>>>,
}

impl<'p> Parser<'p> {
    fn error(&self, kind: FileErrorKind, span: &Range<usize>) -> LatticeFileError {
        LatticeFileError::new(kind, Some(Location::at(self.text, span.start)))
    }

    pub(super) fn definition(&self, document: DeTable<'_>) -> Result<Definition, LatticeFileError> {
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
                        if count > MAX_EDGES {
                            let span = &targets[targets.len() - (count - MAX_EDGES)].span;
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
            if nodes.len() == MAX_NODES {
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
