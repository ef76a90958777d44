//! The second pass: the TOML parser's tables read as a graph, each label
//! kept with where it is written, so that every error names its place.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::scan::Label;
use crate::design::builder::{Builder, Refusal};
use crate::design::limits::MAX_EDGES;
use crate::design::{Definition, Location};
use crate::design::{DefinitionError, DefinitionErrorKind, Origin};
use crate::text::nearest;

/// The top-level keys of a lattice file.
pub(super) const KEYS: [&str; 5] = ["name", "description", "weak", "dtypes", "edges"];

/// What `name`, `description` and a `[dtypes]` entry must be.
pub(super) const EXPECT_STRING: &str = "a string, such as \"int8\"";
/// What `dtypes` and `edges` must be.
pub(super) const EXPECT_TABLE: &str = "a table: a [section] of label = value lines";
/// What `weak` and an `[edges]` entry must be.
pub(super) const EXPECT_LABELS: &str = "an array of node labels, such as [\"int16\", \"float16\"]";

/// The refusal of an unknown top-level key, with the nearest known one.
pub(super) fn unknown_key(key: &str) -> DefinitionErrorKind {
    let suggestion = nearest(key, KEYS.into_iter());
    DefinitionErrorKind::UnknownKey {
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
    fn error(&self, kind: DefinitionErrorKind, span: &Range<usize>) -> DefinitionError {
        DefinitionError::new(
            Origin::LatticeFile,
            kind,
            Some(Location::at(self.text, span.start)),
        )
    }

    pub(super) fn definition(&self, document: DeTable<'_>) -> Result<Definition, DefinitionError> {
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
                            return Err(self.error(DefinitionErrorKind::TooManyEdges, span));
                        }
                        edges.push((from, targets));
                    }
                }
                other => return Err(self.error(unknown_key(other), &key.span())),
            }
        }
        let Some(name) = name else {
            return Err(DefinitionError::new(
                Origin::LatticeFile,
                DefinitionErrorKind::MissingName,
                Some(Location { line: 1, column: 1 }),
            ));
        };

        self.build(name, description, &weak, &dtypes, &edges)
            .map_err(|(kind, span)| self.error(kind, &span))
    }

    /// The graph, in order of first mention, as the one
    /// [`Builder`] makes every definition.
    fn build(
        &self,
        name: String,
        description: Option<String>,
        weak: &[Mention<'p>],
        dtypes: &[(Mention<'p>, String, Range<usize>)],
        edges: &[(Mention<'p>, Vec<Mention<'p>>)],
    ) -> Result<Definition, Refusal<Range<usize>>> {
        let mut mentions: Vec<&Mention<'p>> = weak
            .iter()
            .chain(dtypes.iter().map(|(label, _, _)| label))
            .chain(
                edges
                    .iter()
                    .flat_map(|(from, to)| std::iter::once(from).chain(to)),
            )
            .collect();
        mentions.sort_by_key(|mention| mention.span.start);
        let mut builder = Builder::new();
        for mention in mentions {
            builder.mention(mention.label, &mention.span)?;
        }
        for label in weak {
            let node = builder.mention(label.label, &label.span)?;
            builder.weak(node);
        }
        for (label, dtype, span) in dtypes {
            let node = builder.mention(label.label, &label.span)?;
            builder.dtype(node, dtype, span)?;
        }
        for (from, targets) in edges {
            let a = builder.mention(from.label, &from.span)?;
            for to in targets {
                let b = builder.mention(to.label, &to.span)?;
                builder.edge(a, b, &to.span)?;
            }
        }
        builder.finish(name, description)
    }

    fn string(&self, key: &str, value: &Spanned<DeValue<'_>>) -> Result<String, DefinitionError> {
        match value.get_ref() {
            DeValue::String(text) => Ok(text.to_string()),
            _ => Err(self.wrong_type(key, EXPECT_STRING, value)),
        }
    }

    fn table<'v, 'i>(
        &self,
        key: &str,
        value: &'v Spanned<DeValue<'i>>,
    ) -> Result<Vec<Entry<'v, 'i>>, DefinitionError> {
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
    ) -> Result<Vec<Mention<'v>>, DefinitionError>
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

    fn label<'v>(&self, key: &'v Spanned<Cow<'_, str>>) -> Result<Mention<'v>, DefinitionError> {
        self.mention(key.get_ref(), key.span())
    }

    fn mention<'v>(
        &self,
        label: &'v str,
        span: Range<usize>,
    ) -> Result<Mention<'v>, DefinitionError> {
        if label.is_empty() {
            return Err(self.error(DefinitionErrorKind::EmptyLabel, &span));
        }
        Ok(Mention { label, span })
    }

    fn wrong_type(
        &self,
        key: &str,
        expected: &'static str,
        value: &Spanned<DeValue<'_>>,
    ) -> DefinitionError {
        let kind = DefinitionErrorKind::WrongType {
            key: key.to_owned(),
            expected,
        };
        self.error(kind, &value.span())
    }
}
