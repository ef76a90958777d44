//! Lattice definitions: a promotion graph whose nodes say what they stand for.
//!
//! The [lattice engine](crate::lattice) sees only labels and edges. The
//! design tools (checking, auditing, explaining and drawing a lattice) also
//! need to know which node is which dtype and which nodes are weak types, and
//! they must work on graphs that are *not* lattices, to say why. A
//! [`Definition`] carries exactly that: a name, nodes with their meaning and
//! the "may promote to" edges, not yet validated.
//!
//! Definitions come from a built-in policy's lattice
//! ([`Definition::from_lattice`]) or from a lattice file a user wrote.
//!
//! ```
//! use dtype_lattice::definition::Definition;
//! use dtype_lattice::jax::Jax;
//! use dtype_lattice::DType;
//!
//! let jax = Definition::from_lattice("jax", Jax::default().lattice());
//! let int8 = jax.node("int8").unwrap();
//! assert_eq!(jax.nodes[int8].dtype, Some(DType::Int8));
//! let weak_int = jax.node("i*").unwrap();
//! assert!(jax.nodes[weak_int].weak);
//! assert_eq!(jax.nodes.len(), 35);
//!
//! // Validation is the engine's: this one is a lattice.
//! let lattice = jax.lattice().unwrap();
//! assert_eq!(lattice.label(lattice.join(int8, weak_int).unwrap()), "int8");
//! ```

use crate::dtype::DType;
use crate::lattice::{GraphError, Lattice, LatticeError, Node, Poset};
use crate::operand::PyScalar;
use crate::policy::Policy;

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
}

/// JAX's labels for its weak types.
pub const WEAK_LABELS: [&str; 3] = ["i*", "f*", "c*"];

impl NodeDef {
    /// The meaning a label has on its own: a canonical dtype name is that
    /// dtype, `i*`, `f*` and `c*` are weak, anything else is opaque.
    ///
    /// Only canonical names count, so a sketch's node called `f` or `double`
    /// stays opaque unless a lattice file maps it to a dtype explicitly.
    ///
    /// ```
    /// use dtype_lattice::definition::NodeDef;
    /// use dtype_lattice::DType;
    ///
    /// assert_eq!(NodeDef::from_label("uint8").dtype, Some(DType::UInt8));
    /// assert!(NodeDef::from_label("f*").weak);
    /// let opaque = NodeDef::from_label("double");
    /// assert_eq!((opaque.dtype, opaque.weak), (None, false));
    /// ```
    pub fn from_label(label: &str) -> NodeDef {
        NodeDef {
            label: label.to_owned(),
            dtype: DType::ALL.into_iter().find(|d| d.name() == label),
            weak: WEAK_LABELS.contains(&label),
        }
    }
}

impl Definition {
    /// The definition of a built-in lattice, its node meanings read from
    /// the labels (see [`NodeDef::from_label`]). The policies label their
    /// lattices with canonical dtype names and `i*`, `f*`, `c*`.
    pub fn from_lattice(name: impl Into<String>, lattice: &Lattice) -> Definition {
        let poset = lattice.poset();
        Definition {
            name: name.into(),
            description: None,
            nodes: poset
                .labels()
                .iter()
                .map(|l| NodeDef::from_label(l))
                .collect(),
            edges: poset.edges().collect(),
        }
    }

    /// The definition of a policy's lattice, if it has one, named as the
    /// policy names itself. Unlike [`from_lattice`](Self::from_lattice) it
    /// also says what the weak types are stored as: the dtype the policy's
    /// `result_type` gives a Python scalar type alone.
    ///
    /// ```
    /// use dtype_lattice::definition::Definition;
    /// use dtype_lattice::jax::{Config, Jax};
    /// use dtype_lattice::numpy::Numpy;
    /// use dtype_lattice::DType;
    ///
    /// let jax = Definition::from_policy(&Jax::new(Config { x64: true, ..Config::default() })).unwrap();
    /// assert_eq!(jax.name, "jax (x64 on, standard)");
    /// let weak_float = jax.node("f*").unwrap();
    /// assert_eq!(jax.nodes[weak_float].dtype, Some(DType::Float64));
    /// assert!(Definition::from_policy(&Numpy).is_none()); // not a lattice
    /// ```
    pub fn from_policy(policy: &dyn Policy) -> Option<Definition> {
        let mut definition = Definition::from_lattice(policy.name(), policy.lattice()?);
        for node in definition.nodes.iter_mut().filter(|node| node.weak) {
            node.dtype = [PyScalar::Int, PyScalar::Float, PyScalar::Complex]
                .into_iter()
                .find(|scalar| scalar.label() == node.label)
                .and_then(|scalar| policy.result_type(&[scalar.into()]).ok())
                .map(|typed| typed.dtype);
        }
        Some(definition)
    }

    /// The strong (non-weak) nodes that stand for a dtype, with it, in
    /// node order: the types whose promotions the numeric criteria judge.
    ///
    /// ```
    /// use dtype_lattice::definition::Definition;
    /// use dtype_lattice::jax::Jax;
    ///
    /// let jax = Definition::from_lattice("jax", Jax::default().lattice());
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
    /// (see [`Lattice::new`]).
    pub fn lattice(&self) -> Result<Lattice, LatticeError> {
        Lattice::new(self.poset()?)
    }
}
