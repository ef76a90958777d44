//! [`Lattice`]: a [`Joins`] table without ambiguous pairs, whose joins
//! are table loads and whose laws can be verified.

use super::error::{LatticeError, LawViolation};
use super::joins::Joins;
use super::poset::{Node, Poset, NO_JOIN};
use crate::prelude::*;

/// A (partial) lattice: a poset in which every pair with a common upper
/// bound has a least one, with all joins precomputed.
#[derive(Clone, Debug)]
pub struct Lattice {
    pub(super) poset: Poset,
    /// joins[a * n + b], `NO_JOIN` where a and b have no upper bound.
    pub(super) joins: Box<[u16]>,
}

impl Lattice {
    /// Computes every join of a validated poset (see [`Joins::new`] for the
    /// algorithm), or says how many pairs have no least upper bound and
    /// lists the first few.
    pub fn new(poset: Poset) -> Result<Lattice, LatticeError> {
        Joins::new(poset).into_lattice()
    }

    /// Validates and compiles labels and edges in one step.
    pub fn from_edges<S: Into<String>>(
        labels: impl IntoIterator<Item = S>,
        edges: impl IntoIterator<Item = (Node, Node)>,
    ) -> Result<Lattice, LatticeError> {
        Lattice::new(Poset::new(labels, edges)?)
    }

    /// Validates and compiles an adjacency list written like JAX's dict;
    /// see [`Poset::from_dict`].
    pub fn from_dict<K: AsRef<str>, V: AsRef<str>>(
        dict: &[(K, &[V])],
    ) -> Result<Lattice, LatticeError> {
        Lattice::new(Poset::from_dict(dict)?)
    }

    /// The underlying order, for questions beyond joins.
    pub fn poset(&self) -> &Poset {
        &self.poset
    }

    /// How many nodes there are.
    pub fn len(&self) -> usize {
        self.poset.len()
    }

    /// `true` if the lattice has no nodes.
    pub fn is_empty(&self) -> bool {
        self.poset.is_empty()
    }

    /// The label of a node.
    ///
    /// # Panics
    ///
    /// If `node` is not below [`len`](Self::len).
    pub fn label(&self, node: Node) -> &str {
        self.poset.label(node)
    }

    /// The node with this label.
    pub fn node(&self, label: &str) -> Option<Node> {
        self.poset.node(label)
    }

    /// The join (least upper bound) of two nodes; `None` if they have no
    /// common upper bound or either is not a node.
    //
    // One test of the larger node instead of one per node: a branch and
    // two instructions fewer, about a tenth of a join's cost.
    #[inline]
    pub fn join(&self, a: Node, b: Node) -> Option<Node> {
        let n = self.len();
        if a.max(b) >= n {
            return None;
        }
        match self.joins[a * n + b] {
            NO_JOIN => None,
            c => Some(c as Node),
        }
    }

    /// The join of any number of nodes; `None` for no nodes or when they
    /// have no common upper bound. Allocates nothing.
    ///
    /// For a lattice the fold of binary joins is the least upper bound of the
    /// whole set: the upper-bound set of `a ∨ b` is exactly the common upper
    /// bounds of `a` and `b`.
    #[inline]
    pub fn join_all(&self, nodes: impl IntoIterator<Item = Node>) -> Option<Node> {
        let mut nodes = nodes.into_iter();
        let first = nodes.next()?;
        if first >= self.len() {
            return None;
        }
        nodes.try_fold(first, |acc, node| self.join(acc, node))
    }

    /// Verifies, exhaustively, that the join table is the least upper bound
    /// of the order and so obeys the lattice laws on its defined part:
    /// commutative, associative and idempotent. Returns the first pair
    /// where it does not (which would be a bug in the engine).
    ///
    /// Checking the laws triple by triple costs n³ joins (69 billion for
    /// 4,096 nodes). This checks an equivalent statement pair by pair:
    ///
    /// 1. Each node's upper-bound set is the node plus its successors'
    ///    sets (in a DAG exactly one family of sets satisfies that, the
    ///    reachability relation), so the order is the one the edges define.
    /// 2. The table is symmetric, and `a ∨ a = a`.
    /// 3. For every pair, the upper-bound set of `a ∨ b` is exactly the
    ///    intersection of those of `a` and `b`, and where the table has no
    ///    join that intersection is empty.
    ///
    /// From 3, `a ∨ b` is a common upper bound below every other: the least
    /// upper bound. And `(a ∨ b) ∨ c` and `a ∨ (b ∨ c)` have the same
    /// upper-bound set, the intersection of all three, so they are the same
    /// node (a node is the least element of its own set); one is undefined
    /// exactly when that intersection is empty, and then so is the other.
    /// Cost: O(n² · n / 64) word operations, like building the table.
    ///
    /// ```
    /// use dtype_lattice::engine::Lattice;
    ///
    /// let lattice = Lattice::from_dict(&[("a", &["c"]), ("b", &["c"])]).unwrap();
    /// assert_eq!(lattice.verify_laws(), Ok(()));
    /// ```
    pub fn verify_laws(&self) -> Result<(), LawViolation> {
        let n = self.len();
        self.poset.check_joins(
            |a, b| match self.joins[a * n + b] {
                NO_JOIN => None,
                c => Some(usize::from(c)),
            },
            true,
        )
    }

    /// Every unordered pair of distinct nodes with no common upper bound.
    pub fn unbounded_pairs(&self) -> impl Iterator<Item = (Node, Node)> + '_ {
        let n = self.len();
        (0..n)
            .flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
            .filter(move |&(a, b)| self.joins[a * n + b] == NO_JOIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GraphError;

    #[test]
    fn cycles_are_named() {
        let err = Poset::from_dict(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"]), ("z", &["a"])])
            .unwrap_err();
        assert_eq!(
            err,
            GraphError::Cycle {
                nodes: vec!["a".into(), "b".into(), "c".into()]
            }
        );
    }

    #[test]
    fn self_edges_and_bad_indices_are_refused() {
        let err = Poset::new(["a"], [(0, 0)]).unwrap_err();
        assert_eq!(err, GraphError::SelfEdge { node: "a".into() });
        let err = Poset::new(["a"], [(0, 3)]).unwrap_err();
        assert_eq!(err, GraphError::NoSuchNode { index: 3, count: 1 });
        let err = Poset::new(["a", "a"], []).unwrap_err();
        assert!(matches!(err, GraphError::DuplicateLabel { .. }));
    }

    #[test]
    fn partial_lattices_report_unbounded_pairs() {
        let lattice = Lattice::from_dict(&[("x", &["y"]), ("p", &["q"])]).unwrap();
        let pairs: Vec<_> = lattice
            .unbounded_pairs()
            .map(|(a, b)| (lattice.label(a), lattice.label(b)))
            .collect();
        assert_eq!(pairs, [("x", "p"), ("x", "q"), ("y", "p"), ("y", "q")]);
        assert_eq!(lattice.join_all([0, 1]), Some(1));
        assert_eq!(lattice.join_all([0, 2]), None);
        assert_eq!(lattice.join_all([]), None);
    }

    #[test]
    fn verify_laws_finds_a_corrupted_table() {
        let mut lattice =
            Lattice::from_dict(&[("a", &["c"]), ("b", &["c"]), ("c", &["d"])]).unwrap();
        assert_eq!(lattice.verify_laws(), Ok(()));
        let (a, b, d) = (0, 2, 3);
        assert_eq!(lattice.label(b), "b");
        // a ∨ b is c; claim d, an upper bound but not the least.
        lattice.joins[a * 4 + b] = d as u16;
        lattice.joins[b * 4 + a] = d as u16;
        let err = lattice.verify_laws().unwrap_err();
        assert_eq!(
            err.to_string(),
            "the join table is wrong at {a, b}: the join is not the least upper bound"
        );
        lattice.joins[b * 4 + a] = NO_JOIN;
        let err = lattice.verify_laws().unwrap_err();
        assert_eq!(err.reason, "the join depends on the order of the two");
    }

    #[test]
    fn closure_spans_many_words() {
        // A chain of 200 nodes crosses u64 word boundaries.
        let labels: Vec<String> = (0..200).map(|i| i.to_string()).collect();
        let lattice = Lattice::from_edges(labels, (0..199).map(|i| (i, i + 1))).unwrap();
        assert_eq!(lattice.join(3, 150), Some(150));
        assert_eq!(lattice.join(199, 0), Some(199));
        assert_eq!(lattice.poset().upper_bounds(190).count(), 10);
    }
}
