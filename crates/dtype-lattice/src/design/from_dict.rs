//! A promotion graph written as JAX's `dtypes.py` and the design notebook
//! write one: a dict from each node to the nodes it may promote to.
//!
//! The same meanings and the same limits as a [lattice
//! file](crate::design::lattice_file), for graphs that arrive as data (from
//! Python, from the explorer's editor) rather than as TOML text.
//!
//! ```
//! use dtype_lattice::design::{Definition, DictSpec};
//! use dtype_lattice::DType;
//!
//! let edges = [("bool", vec!["i*"]), ("i*", vec!["int8", "float32"]), ("int8", vec!["float32"])];
//! let definition = Definition::from_dict(&DictSpec {
//!     name: "tiny",
//!     edges: &edges,
//!     dtypes: &[],
//!     weak: &[],
//! })
//! .unwrap();
//! let labels: Vec<&str> = definition.nodes.iter().map(|n| n.label.as_str()).collect();
//! assert_eq!(labels, ["bool", "i*", "int8", "float32"]);
//! assert_eq!(definition.nodes[2].dtype, Some(DType::Int8));
//! assert!(definition.nodes[1].weak);
//!
//! let err = Definition::from_dict(&DictSpec {
//!     name: "bad",
//!     edges: &[("u8", vec!["u8"])],
//!     dtypes: &[],
//!     weak: &[],
//! })
//! .unwrap_err();
//! assert_eq!(err.to_string(), "'u8' promotes to itself: remove that edge");
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::design::limits::{MAX_EDGES, MAX_NODES};
use crate::design::{Definition, NodeDef};
use crate::engine::Node;
use crate::types::{DType, ParseDTypeError};

/// A graph as a dict of lists, with the meanings a lattice file can give.
#[derive(Clone, Copy, Debug)]
pub struct DictSpec<'a, S: AsRef<str>> {
    /// What the graph is called.
    pub name: &'a str,
    /// Each node and the nodes it may promote to, in the dict's order.
    pub edges: &'a [(S, Vec<S>)],
    /// Labels mapped to dtypes (any name [`DType::from_name`] reads).
    pub dtypes: &'a [(S, S)],
    /// Labels that are weak types, beyond `i*`, `f*` and `c*`.
    pub weak: &'a [S],
}

/// Why a dict is not a promotion graph.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DictError {
    /// A label is the empty string.
    EmptyLabel,
    /// A node lists itself.
    SelfEdge(String),
    /// A `dtypes` entry names no dtype.
    UnknownDType {
        /// The label mapped.
        label: String,
        /// Why the name was not read.
        error: ParseDTypeError,
    },
    /// A dtype's own name mapped to another dtype.
    LabelIsAnotherDType {
        /// The label.
        label: String,
        /// The dtype the label names.
        own: DType,
        /// The dtype it was mapped to.
        mapped: DType,
    },
    /// Two strong nodes stand for one dtype.
    DuplicateDType {
        /// The dtype.
        dtype: DType,
        /// The two labels.
        labels: [String; 2],
    },
    /// More than [`MAX_NODES`] nodes.
    TooManyNodes,
    /// More than [`MAX_EDGES`] edges.
    TooManyEdges,
}

impl fmt::Display for DictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DictError::EmptyLabel => write!(f, "an empty label: give every node a name"),
            DictError::SelfEdge(label) => {
                write!(
                    f,
                    "'{}' promotes to itself: remove that edge",
                    label.escape_debug()
                )
            }
            DictError::UnknownDType { label, error } => write!(
                f,
                "dtypes maps '{}' to an unknown dtype: {error}",
                label.escape_debug()
            ),
            DictError::LabelIsAnotherDType { label, own, mapped } => write!(
                f,
                "'{}' is the name of {own} but is mapped to {mapped}: rename the node",
                label.escape_debug()
            ),
            DictError::DuplicateDType { dtype, labels } => write!(
                f,
                "'{}' and '{}' both stand for {dtype}: map only one of them, or list one in weak",
                labels[0].escape_debug(),
                labels[1].escape_debug()
            ),
            DictError::TooManyNodes => write!(
                f,
                "more than {MAX_NODES} nodes: checking costs grow with the cube of the \
                 node count; split the graph"
            ),
            DictError::TooManyEdges => write!(
                f,
                "more than {MAX_EDGES} edges: list only the covering edges (the Hasse \
                 diagram); the rest follow"
            ),
        }
    }
}

impl std::error::Error for DictError {}

impl Definition {
    /// The graph of a dict of lists (see [the module](self)): nodes in
    /// order of first mention (keys and their lists in order, then
    /// `dtypes`, then `weak`), each a dtype when its label is a canonical
    /// dtype name or mapped in `dtypes`, weak when it is `i*`, `f*`, `c*`
    /// or listed in `weak`.
    pub fn from_dict<S: AsRef<str>>(spec: &DictSpec<'_, S>) -> Result<Definition, DictError> {
        let edge_count: usize = spec.edges.iter().map(|(_, to)| to.len()).sum();
        if edge_count > MAX_EDGES {
            return Err(DictError::TooManyEdges);
        }
        let mentions = spec
            .edges
            .iter()
            .flat_map(|(from, to)| std::iter::once(from).chain(to))
            .chain(spec.dtypes.iter().map(|(label, _)| label))
            .chain(spec.weak);
        let mut index: HashMap<&str, Node> = HashMap::new();
        let mut nodes: Vec<NodeDef> = Vec::new();
        for label in mentions {
            let label = label.as_ref();
            if label.is_empty() {
                return Err(DictError::EmptyLabel);
            }
            if index.contains_key(label) {
                continue;
            }
            if nodes.len() == MAX_NODES {
                return Err(DictError::TooManyNodes);
            }
            index.insert(label, nodes.len());
            nodes.push(NodeDef::from_label(label));
        }
        for label in spec.weak {
            nodes[index[label.as_ref()]].weak = true;
        }
        for (label, name) in spec.dtypes {
            let label = label.as_ref();
            let dtype =
                DType::from_name(name.as_ref()).map_err(|error| DictError::UnknownDType {
                    label: label.to_owned(),
                    error,
                })?;
            let node = &mut nodes[index[label]];
            if let Some(own) = node.dtype.filter(|&own| own != dtype) {
                return Err(DictError::LabelIsAnotherDType {
                    label: label.to_owned(),
                    own,
                    mapped: dtype,
                });
            }
            node.dtype = Some(dtype);
        }
        let mut by_dtype: HashMap<DType, &str> = HashMap::new();
        for node in nodes.iter().filter(|node| !node.weak) {
            let Some(dtype) = node.dtype else { continue };
            if let Some(first) = by_dtype.insert(dtype, &node.label) {
                return Err(DictError::DuplicateDType {
                    dtype,
                    labels: [first.to_owned(), node.label.clone()],
                });
            }
        }
        let mut edges = Vec::with_capacity(edge_count);
        for (from, targets) in spec.edges {
            for to in targets {
                if to.as_ref() == from.as_ref() {
                    return Err(DictError::SelfEdge(from.as_ref().to_owned()));
                }
                edges.push((index[from.as_ref()], index[to.as_ref()]));
            }
        }
        Ok(Definition {
            name: spec.name.to_owned(),
            description: None,
            nodes,
            edges,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec<'a>(
        edges: &'a [(&'a str, Vec<&'a str>)],
        dtypes: &'a [(&'a str, &'a str)],
    ) -> DictSpec<'a, &'a str> {
        DictSpec {
            name: "t",
            edges,
            dtypes,
            weak: &[],
        }
    }

    #[test]
    fn refusals_name_the_label() {
        let err = Definition::from_dict(&spec(&[("a", vec!["b"])], &[("a", "unit8")])).unwrap_err();
        assert!(
            err.to_string().contains("'a'") && err.to_string().contains("uint8"),
            "{err}"
        );
        let err =
            Definition::from_dict(&spec(&[("a", vec!["b"])], &[("a", "int8"), ("b", "int8")]))
                .unwrap_err();
        assert_eq!(
            err,
            DictError::DuplicateDType {
                dtype: DType::Int8,
                labels: ["a".into(), "b".into()]
            }
        );
        let err = Definition::from_dict(&spec(&[("int8", vec![""])], &[])).unwrap_err();
        assert_eq!(err, DictError::EmptyLabel);
    }

    #[test]
    fn limits_are_those_of_lattice_files() {
        let labels: Vec<String> = (0..=MAX_NODES).map(|i| format!("n{i}")).collect();
        let edges: Vec<(&str, Vec<&str>)> = labels.iter().map(|l| (l.as_str(), vec![])).collect();
        let err = Definition::from_dict(&spec(&edges, &[])).unwrap_err();
        assert_eq!(err, DictError::TooManyNodes);
    }
}
