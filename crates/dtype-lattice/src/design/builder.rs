//! The one builder of a [`Definition`] from labels as they are written,
//! which every way in (a lattice file, a dict as text, a dict as data)
//! feeds: the rules for nodes, meanings and edges are kept here once, so
//! that a graph means the same and is refused for the same reasons
//! whichever way it came.
//!
//! Each call takes the place of what it reads, `P`: a span of text for a
//! file, nothing for data. A refusal returns the place it concerns, for
//! the caller to turn into a location.

use std::collections::HashMap;

use crate::design::limits::{MAX_EDGES, MAX_NODES};
use crate::design::{Definition, DefinitionErrorKind, NodeDef};
use crate::engine::Node;
use crate::types::DType;

/// What is wrong, and where.
pub(crate) type Refusal<P> = (DefinitionErrorKind, P);

/// A definition being built: nodes in order of first mention.
pub(crate) struct Builder<'a, P> {
    index: HashMap<&'a str, Node>,
    nodes: Vec<NodeDef>,
    /// Where each node's meaning comes from: its dtype mapping, else its
    /// first mention. A dtype claimed twice is refused at the later one.
    defined_at: Vec<P>,
    edges: Vec<(Node, Node)>,
}

/// Where a builder's input is written, as far as the builder cares: an
/// order, so that a dtype claimed twice is refused where it is claimed
/// later.
pub(crate) trait Place: Clone {
    /// The place's position in the input.
    fn position(&self) -> usize;
}

/// A span of text: its start.
impl Place for std::ops::Range<usize> {
    fn position(&self) -> usize {
        self.start
    }
}

/// Data has no places: first mentioned, first defined.
impl Place for () {
    fn position(&self) -> usize {
        0
    }
}

impl<'a, P: Place> Builder<'a, P> {
    pub(crate) fn new() -> Self {
        Builder {
            index: HashMap::new(),
            nodes: Vec::new(),
            defined_at: Vec::new(),
            edges: Vec::new(),
        }
    }

    /// A mention of `label`: a new node the first time, named by its label
    /// ([`NodeDef::from_label`]: a dtype name stands for its dtype, `i*`,
    /// `f*`, `c*` are weak).
    pub(crate) fn mention(&mut self, label: &'a str, place: &P) -> Result<Node, Refusal<P>> {
        if label.is_empty() {
            return Err((DefinitionErrorKind::EmptyLabel, place.clone()));
        }
        if let Some(&node) = self.index.get(label) {
            return Ok(node);
        }
        if self.nodes.len() == MAX_NODES {
            return Err((DefinitionErrorKind::TooManyNodes, place.clone()));
        }
        let node = self.nodes.len();
        self.index.insert(label, node);
        self.nodes.push(NodeDef::from_label(label));
        self.defined_at.push(place.clone());
        Ok(node)
    }

    /// Marks a mentioned node weak.
    pub(crate) fn weak(&mut self, node: Node) {
        self.nodes[node].weak = true;
    }

    /// Says a mentioned node stands for the dtype called `name`.
    pub(crate) fn dtype(&mut self, node: Node, name: &str, place: &P) -> Result<(), Refusal<P>> {
        let label = &self.nodes[node].label;
        let dtype = DType::from_name(name).map_err(|error| {
            let kind = DefinitionErrorKind::UnknownDType {
                label: label.clone(),
                error,
            };
            (kind, place.clone())
        })?;
        if let Some(own) = self.nodes[node].dtype.filter(|&own| own != dtype) {
            let kind = DefinitionErrorKind::LabelIsAnotherDType {
                label: label.clone(),
                own,
                mapped: dtype,
            };
            return Err((kind, place.clone()));
        }
        self.nodes[node].dtype = Some(dtype);
        self.defined_at[node] = place.clone();
        Ok(())
    }

    /// An edge between mentioned nodes.
    pub(crate) fn edge(&mut self, from: Node, to: Node, place: &P) -> Result<(), Refusal<P>> {
        if from == to {
            let label = self.nodes[from].label.clone();
            return Err((DefinitionErrorKind::SelfEdge { label }, place.clone()));
        }
        if self.edges.len() == MAX_EDGES {
            return Err((DefinitionErrorKind::TooManyEdges, place.clone()));
        }
        self.edges.push((from, to));
        Ok(())
    }

    /// The definition, once no dtype stands for two strong nodes.
    pub(crate) fn finish(
        self,
        name: String,
        description: Option<String>,
    ) -> Result<Definition, Refusal<P>> {
        let mut strong: Vec<Node> = (0..self.nodes.len())
            .filter(|&i| !self.nodes[i].weak && self.nodes[i].dtype.is_some())
            .collect();
        strong.sort_by_key(|&node| self.defined_at[node].position());
        let mut by_dtype: HashMap<DType, Node> = HashMap::new();
        for node in strong {
            let Some(dtype) = self.nodes[node].dtype else {
                continue;
            };
            if let Some(&first) = by_dtype.get(&dtype) {
                let kind = DefinitionErrorKind::DuplicateDType {
                    dtype,
                    first: self.nodes[first].label.clone(),
                    second: self.nodes[node].label.clone(),
                };
                return Err((kind, self.defined_at[node].clone()));
            }
            by_dtype.insert(dtype, node);
        }
        Ok(Definition {
            name,
            description,
            nodes: self.nodes,
            edges: self.edges,
        })
    }
}
