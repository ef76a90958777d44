//! [`TypedLattice`]: a lattice whose nodes say what they stand for.
//!
//! The [engine](crate::engine) joins nodes and knows nothing of dtypes. A
//! policy defined by a lattice hands the tools this instead: the same
//! lattice, and for each node the (dtype, weak) value it stands for, or
//! nothing for an opaque node. Tools then read a node's meaning from the
//! value, never from its label (TensorFlow labels its weak types
//! `weak:int32`, JAX `i*`), and policies join types node to node.

use core::ops::Deref;

use crate::engine::{Lattice, LatticeError, Node};
use crate::prelude::*;
use crate::types::Typed;

/// A lattice with the type each node stands for.
///
/// ```
/// use dtype_lattice::frameworks::tensorflow::{Mode, TensorFlow};
/// use dtype_lattice::{DType, Policy, Typed};
///
/// let tf = TensorFlow::new(Mode::All);
/// let lattice = tf.lattice().unwrap();
/// let weak_float = lattice.node_of(Typed::weak(DType::Float32)).unwrap();
/// assert_eq!(lattice.label(weak_float), "weak:float32");
/// assert_eq!(
///     lattice.join_types(Typed::strong(DType::Int8), Typed::weak(DType::Float32)),
///     Some(Typed::weak(DType::Float64))
/// );
/// ```
#[derive(Clone, Debug)]
pub struct TypedLattice {
    lattice: Lattice,
    types: Vec<Option<Typed>>,
    /// The first node of each type, by [`Typed::index`]: a join of two
    /// types is two loads and the engine's join, with no label in sight.
    by_type: [Option<Node>; Typed::COUNT],
}

/// A typed lattice is a lattice: every [`Lattice`] method (labels, nodes by
/// label, joins of nodes, the poset) applies to it as is.
impl Deref for TypedLattice {
    type Target = Lattice;

    fn deref(&self) -> &Lattice {
        &self.lattice
    }
}

impl TypedLattice {
    /// `lattice` with `types[node]` for each node (`None`: an opaque node).
    /// Where two nodes stand for one type, [`node_of`](Self::node_of)
    /// finds the first.
    ///
    /// # Panics
    ///
    /// If `types` does not have one entry per node.
    pub fn new(lattice: Lattice, types: Vec<Option<Typed>>) -> TypedLattice {
        assert_eq!(
            types.len(),
            lattice.len(),
            "a typed lattice needs one type (or None) per node"
        );
        let mut by_type = [None; Typed::COUNT];
        for (node, typed) in types.iter().enumerate() {
            if let Some(typed) = typed {
                by_type[typed.index()].get_or_insert(node);
            }
        }
        TypedLattice {
            lattice,
            types,
            by_type,
        }
    }

    /// Builds the lattice of an edge dict written as JAX writes its own
    /// (see [`Lattice::from_dict`]), each label given its type by `meaning`
    /// once, here; the built-in policies' tables are written this way.
    pub(crate) fn from_dict<K: AsRef<str>, V: AsRef<str>>(
        dict: &[(K, &[V])],
        meaning: impl Fn(&str) -> Option<Typed>,
    ) -> Result<TypedLattice, LatticeError> {
        let lattice = Lattice::from_dict(dict)?;
        let types = lattice
            .poset()
            .labels()
            .iter()
            .map(|l| meaning(l))
            .collect();
        Ok(TypedLattice::new(lattice, types))
    }

    /// [`from_dict`](Self::from_dict) for a dict whose labels are all
    /// canonical dtype names, each node that dtype, strongly typed.
    pub(crate) fn of_dtypes(dict: &[(&str, &[&str])]) -> Result<TypedLattice, LatticeError> {
        TypedLattice::from_dict(dict, |label| {
            crate::types::DType::from_name(label)
                .ok()
                .map(Typed::strong)
        })
    }

    /// The type a node stands for; `None` for an opaque node or a node
    /// past the last.
    pub fn node_type(&self, node: Node) -> Option<Typed> {
        self.types.get(node).copied().flatten()
    }

    /// The types of all nodes, in node order.
    pub fn types(&self) -> &[Option<Typed>] {
        &self.types
    }

    /// The untyped lattice, for the engine's operations (also reached
    /// through `Deref`: a typed lattice is a lattice).
    pub fn lattice(&self) -> &Lattice {
        &self.lattice
    }

    /// The node that stands for `typed`, if any.
    pub fn node_of(&self, typed: Typed) -> Option<Node> {
        self.by_type[typed.index()]
    }

    /// The join of two types, node to node: `None` when either has no node
    /// or the two have no join (or it is an opaque node).
    pub fn join_types(&self, a: Typed, b: Typed) -> Option<Typed> {
        let joined = self.lattice.join(self.node_of(a)?, self.node_of(b)?)?;
        self.node_type(joined)
    }
}
