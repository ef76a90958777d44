//! Lattice definitions: a promotion graph whose nodes say what they stand for.
//!
//! The [lattice engine](crate::engine) sees only labels and edges. The
//! design tools (checking, auditing, explaining and drawing a lattice) also
//! need to know which node is which dtype and which nodes are weak types, and
//! they must work on graphs that are *not* lattices, to say why. A
//! [`Definition`] carries exactly that: a name, nodes with their meaning and
//! the "may promote to" edges, not yet validated.
//!
//! Definitions come from a built-in policy's typed lattice
//! ([`Definition::from_policy`]), whose nodes carry their meaning, or from a
//! lattice file a user wrote (whose labels `i*`, `f*`, `c*` and `[dtypes]`
//! table say it). Either way the tools read a node's meaning from its
//! [`NodeDef`], never from its label.
//!
//! ```
//! use dtype_lattice::design::Definition;
//! use dtype_lattice::frameworks::jax::Jax;
//! use dtype_lattice::{DType, PyScalar};
//!
//! let jax = Definition::from_policy(&Jax::default()).unwrap();
//! let int8 = jax.node("int8").unwrap();
//! assert_eq!(jax.nodes[int8].dtype, Some(DType::Int8));
//! let weak_int = jax.node("i*").unwrap();
//! assert!(jax.nodes[weak_int].weak);
//! assert_eq!(jax.nodes[weak_int].python, Some(PyScalar::Int));
//! assert_eq!(jax.nodes.len(), 35);
//!
//! // Validation is the engine's: this one is a lattice.
//! let lattice = jax.lattice().unwrap();
//! assert_eq!(lattice.label(lattice.join(int8, weak_int).unwrap()), "int8");
//! ```

use crate::design::DictSpec;
use crate::engine::{GraphError, Lattice, LatticeError, Node, Poset};
use crate::policy::{Policy, TypedLattice};
use crate::types::{DType, PyScalar, Typed};

/// A promotion graph with node meanings, as written (not yet validated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// What the graph is called (a lattice file's `name`, a policy's name).
    pub name: String,
    /// A sentence or two on what the graph is, if given.
    pub description: Option<String>,
    /// The nodes; a [`Node`] is an index into this list.
    pub nodes: Vec<NodeDef>,
    /// The edges `(from, to)`: `from` may promote to `to`.
    pub edges: Vec<(Node, Node)>,
}

/// One node of a [`Definition`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeDef {
    /// The label, as written.
    pub label: String,
    /// The dtype the node stands for, if any. Nodes without one (JAX's weak
    /// types, abstract nodes of a sketch) are opaque to numeric criteria.
    pub dtype: Option<DType>,
    /// Whether the node is a weak type: a Python scalar type or JAX's
    /// `i*`, `f*`, `c*`.
    pub weak: bool,
    /// The Python scalar type that stands at this node, if one does: JAX's
    /// `i*` is Python's `int`, TensorFlow's `weak:float32` its `float`.
    pub python: Option<PyScalar>,
}

/// JAX's labels for its weak types.
pub const WEAK_LABELS: [&str; 3] = ["i*", "f*", "c*"];

impl NodeDef {
    /// The meaning a label has on its own in a lattice file: a canonical
    /// dtype name is that dtype; `i*`, `f*` and `c*` are weak, Python's
    /// `int`, `float` and `complex`; anything else is opaque.
    ///
    /// Only canonical names count, so a sketch's node called `f` or `double`
    /// stays opaque unless a lattice file maps it to a dtype explicitly.
    ///
    /// ```
    /// use dtype_lattice::design::NodeDef;
    /// use dtype_lattice::DType;
    ///
    /// assert_eq!(NodeDef::from_label("uint8").dtype, Some(DType::UInt8));
    /// assert!(NodeDef::from_label("f*").weak);
    /// assert_eq!(NodeDef::from_label("f*").python, Some(dtype_lattice::PyScalar::Float));
    /// let opaque = NodeDef::from_label("double");
    /// assert_eq!((opaque.dtype, opaque.weak), (None, false));
    /// ```
    pub fn from_label(label: &str) -> NodeDef {
        NodeDef {
            label: label.to_owned(),
            dtype: DType::ALL.into_iter().find(|d| d.name() == label),
            weak: WEAK_LABELS.contains(&label),
            python: WEAK_LABELS
                .contains(&label)
                .then(|| PyScalar::from_name(label))
                .flatten(),
        }
    }

    /// The node of a value of `typed`, or an opaque node for `None`.
    fn of_type(label: &str, typed: Option<Typed>) -> NodeDef {
        NodeDef {
            label: label.to_owned(),
            dtype: typed.map(|t| t.dtype),
            weak: typed.is_some_and(|t| t.weak),
            python: None,
        }
    }
}

impl Definition {
    /// The definition of a typed lattice, each node as its type says.
    pub fn from_typed(name: impl Into<String>, lattice: &TypedLattice) -> Definition {
        let poset = lattice.lattice().poset();
        Definition {
            name: name.into(),
            description: None,
            nodes: poset
                .labels()
                .iter()
                .zip(lattice.types())
                .map(|(label, &typed)| NodeDef::of_type(label, typed))
                .collect(),
            edges: poset.edges().collect(),
        }
    }

    /// The definition of a policy's lattice, if it has one, named as the
    /// policy names itself. Each node is what the policy's typed lattice
    /// says; a node where the policy puts a Python scalar type alone
    /// (its `result_type` of `int`, `float`, `complex`) is that type.
    ///
    /// ```
    /// use dtype_lattice::design::Definition;
    /// use dtype_lattice::frameworks::jax::{Config, Jax};
    /// use dtype_lattice::frameworks::numpy::Numpy;
    /// use dtype_lattice::DType;
    ///
    /// let jax = Definition::from_policy(&Jax::new(Config { x64: true, ..Config::default() })).unwrap();
    /// assert_eq!(jax.name, "jax (x64 on, standard)");
    /// let weak_float = jax.node("f*").unwrap();
    /// assert_eq!(jax.nodes[weak_float].dtype, Some(DType::Float64));
    /// assert!(Definition::from_policy(&Numpy).is_none()); // not a lattice
    /// ```
    pub fn from_policy(policy: &dyn Policy) -> Option<Definition> {
        let Some(lattice) = policy.lattice() else {
            return Definition::from_written(policy);
        };
        let mut definition = Definition::from_typed(policy.name(), lattice);
        for scalar in [PyScalar::Int, PyScalar::Float, PyScalar::Complex] {
            let node = policy
                .result_type(&[scalar.into()])
                .ok()
                .and_then(|typed| lattice.node_of(typed));
            if let Some(node) = node {
                definition.nodes[node].python = Some(scalar);
            }
        }
        Some(definition)
    }

    /// The graph `policy` writes its rules on
    /// ([`Policy::written_graph`]), its weak labels standing for Python's
    /// scalars.
    fn from_written(policy: &dyn Policy) -> Option<Definition> {
        let graph = policy.written_graph()?;
        let edges: Vec<(&str, Vec<&str>)> = graph
            .edges
            .iter()
            .map(|&(label, above)| (label, above.to_vec()))
            .collect();
        let weak: Vec<&str> = graph.weak.iter().map(|&(label, _)| label).collect();
        let name = policy.name();
        let spec = DictSpec {
            name: &name,
            edges: &edges,
            dtypes: &[],
            weak: &weak,
        };
        // A built-in graph is valid (each policy's tests build it).
        let mut definition = Definition::from_dict(&spec).ok()?;
        for &(label, scalar) in graph.weak {
            if let Some(node) = definition.nodes.iter_mut().find(|n| n.label == label) {
                node.python = Some(scalar);
            }
        }
        Some(definition)
    }

    /// The strong (non-weak) nodes that stand for a dtype, with it, in
    /// node order: the types whose promotions the numeric criteria judge.
    ///
    /// ```
    /// use dtype_lattice::design::Definition;
    /// use dtype_lattice::frameworks::jax::Jax;
    ///
    /// let jax = Definition::from_policy(&Jax::default()).unwrap();
    /// assert_eq!(jax.strong_dtypes().count(), 32); // not i*, f*, c*
    /// ```
    pub fn strong_dtypes(&self) -> impl Iterator<Item = (Node, DType)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| !node.weak)
            .filter_map(|(i, node)| Some((i, node.dtype?)))
    }

    /// The node with this label.
    pub fn node(&self, label: &str) -> Option<Node> {
        self.nodes.iter().position(|n| n.label == label)
    }

    /// Validates the graph as a partial order (see [`Poset::new`]).
    pub fn poset(&self) -> Result<Poset, GraphError> {
        Poset::new(
            self.nodes.iter().map(|n| n.label.as_str()),
            self.edges.iter().copied(),
        )
    }

    /// Validates the graph as a (partial) lattice and computes its joins
    /// (see [`Lattice::new`]): the same typed value a built-in policy hands
    /// the tools.
    pub fn lattice(&self) -> Result<TypedLattice, LatticeError> {
        let types = self
            .nodes
            .iter()
            .map(|node| {
                let dtype = node.dtype?;
                Some(Typed {
                    dtype,
                    weak: node.weak,
                })
            })
            .collect();
        Ok(TypedLattice::new(Lattice::new(self.poset()?)?, types))
    }
}
