//! Why a graph is refused: not a DAG ([`GraphError`]), not a lattice
//! ([`LatticeError`](super::LatticeError), with the ambiguous pairs), or a table that breaks the
//! join's laws ([`LawViolation`]).

use core::fmt;

use super::poset::Node;
use crate::prelude::*;

/// Why a graph is not a DAG the engine can work with.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GraphError {
    /// Two nodes have the same label.
    DuplicateLabel {
        /// The repeated label.
        label: String,
        /// Index of its first node.
        first: Node,
        /// Index of its second node.
        second: Node,
    },
    /// An edge names a node index that does not exist.
    NoSuchNode {
        /// The bad index.
        index: Node,
        /// How many nodes there are.
        count: usize,
    },
    /// An edge from a node to itself.
    SelfEdge {
        /// The node's label.
        node: String,
    },
    /// The edges form a cycle, so promotion would not be an order.
    Cycle {
        /// The nodes on the cycle, each with an edge to the next and the
        /// last with an edge to the first.
        nodes: Vec<String>,
    },
    /// More nodes than the limit ([`MAX_NODES`](super::MAX_NODES), or the one given to
    /// [`Poset::with_limits`](super::Poset::with_limits)).
    TooManyNodes {
        /// The most nodes allowed.
        limit: usize,
    },
    /// More edges than the limit given to [`Poset::with_limits`](super::Poset::with_limits).
    TooManyEdges {
        /// The most edges allowed.
        limit: usize,
    },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::DuplicateLabel { label, first, second } => write!(
                f,
                "nodes {first} and {second} are both labelled {label:?}: give each node its own label"
            ),
            GraphError::NoSuchNode { index, count } => write!(
                f,
                "an edge names node {index}, but there are only {count} nodes (0..{count})"
            ),
            GraphError::SelfEdge { node } => write!(
                f,
                "node {node:?} promotes to itself: every type already does, remove the edge"
            ),
            GraphError::Cycle { nodes } => {
                write!(f, "the edges form a cycle: ")?;
                for node in nodes {
                    write!(f, "{node} -> ")?;
                }
                write!(
                    f,
                    "{}; promotion must only go one way, remove one of these edges",
                    nodes.first().map_or("", String::as_str)
                )
            }
            GraphError::TooManyNodes { limit } => write!(
                f,
                "more than {limit} nodes, the most this graph may have: split it, or raise the limit"
            ),
            GraphError::TooManyEdges { limit } => write!(
                f,
                "more than {limit} edges, the most this graph may have: drop edges implied by \
                 others (promotion is transitive), or raise the limit"
            ),
        }
    }
}

impl core::error::Error for GraphError {}

/// A pair of nodes with several minimal common upper bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ambiguity {
    /// The pair, smaller index first.
    pub pair: (Node, Node),
    /// The minimal common upper bounds, in topological order: the first
    /// [`MAX_CANDIDATES`] of them.
    pub candidates: Vec<Node>,
    /// How many minimal common upper bounds the pair has in all.
    pub candidate_count: usize,
}

impl Ambiguity {
    /// What follows the listed candidates in a sentence: `""` when all are
    /// listed, else `", and N more"`.
    pub fn more(&self) -> String {
        match self.candidate_count.saturating_sub(self.candidates.len()) {
            0 => String::new(),
            unlisted => format!(", and {unlisted} more"),
        }
    }
}

/// The most minimal common upper bounds an [`Ambiguity`] lists. A pair of a
/// graph within the lattice-file limits can have thousands, and a check
/// lists up to a thousand pairs: without a cap, its report would hold
/// millions of labels (430 MB to write as JSON). A hundred is more than a
/// person reads; [`Ambiguity::candidate_count`] stays exact.
pub const MAX_CANDIDATES: usize = 100;

/// Why a graph is not a (partial) lattice.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LatticeError {
    /// The graph itself is malformed.
    Graph(GraphError),
    /// Some pairs have no least upper bound though they have upper bounds.
    Ambiguous {
        /// Labels of the nodes, for reporting.
        labels: Vec<String>,
        /// The first ambiguous pairs, by pair, with their candidates (at
        /// most [`Joins::EXAMPLES`](super::Joins::EXAMPLES) from [`Lattice::new`](super::Lattice::new)).
        pairs: Vec<Ambiguity>,
        /// How many pairs are ambiguous in all.
        count: usize,
    },
}

impl fmt::Display for LatticeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LatticeError::Graph(err) => err.fmt(f),
            LatticeError::Ambiguous {
                labels,
                pairs,
                count,
            } => {
                write!(f, "not a lattice: ")?;
                if *count > pairs.len() {
                    write!(
                        f,
                        "{count} pairs have no least upper bound; the first {}: ",
                        pairs.len()
                    )?;
                }
                for (i, ambiguity) in pairs.iter().enumerate() {
                    if i > 0 {
                        write!(f, "; ")?;
                    }
                    let (a, b) = ambiguity.pair;
                    let names: Vec<&str> = ambiguity
                        .candidates
                        .iter()
                        .map(|&c| labels[c].as_str())
                        .collect();
                    write!(
                        f,
                        "{{{}, {}}} has {} minimal common upper bounds ({}{}) and no least one",
                        labels[a],
                        labels[b],
                        ambiguity.candidate_count,
                        names.join(", "),
                        ambiguity.more()
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl core::error::Error for LatticeError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            LatticeError::Graph(err) => Some(err),
            LatticeError::Ambiguous { .. } => None,
        }
    }
}

impl From<GraphError> for LatticeError {
    fn from(err: GraphError) -> Self {
        LatticeError::Graph(err)
    }
}

/// Where a join table breaks the lattice laws; see
/// [`Lattice::verify_laws`](super::Lattice::verify_laws). Engine-built lattices never do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LawViolation {
    /// The labels of the pair at fault (the same node twice for a fault of
    /// one node).
    pub pair: (String, String),
    /// What is wrong there.
    pub reason: &'static str,
}

impl fmt::Display for LawViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = &self.pair;
        write!(
            f,
            "the join table is wrong at {{{a}, {b}}}: {}",
            self.reason
        )
    }
}

impl core::error::Error for LawViolation {}
