//! [`Poset`]: a graph checked to be a DAG, with each node's upper-bound set
//! as a bit set over topological ranks, which every question about bounds
//! is answered from.

// Labels are only looked up by name, never walked in order, so without
// std an ordered map gives the same answers.
#[cfg(not(feature = "std"))]
use alloc::collections::BTreeMap as HashMap;
#[cfg(feature = "std")]
use std::collections::HashMap;

use crate::prelude::*;

use super::error::{GraphError, LawViolation};
use super::fill::{own_bit, share_out};

/// Index of a node: its position in the label list the graph was built from.
pub type Node = usize;

/// The most nodes a graph may have: joins are stored as `u16`, with one
/// value reserved for "no upper bound".
pub const MAX_NODES: usize = u16::MAX as usize;

pub(super) const NO_JOIN: u16 = u16::MAX;

/// Bounds on the graphs [`Poset::with_limits`] accepts, for callers that
/// hand the engine graphs they do not trust: checking a graph of n nodes
/// and e edges costs n x n `u16` and bits and O(n x e / 64 + n³ / 64) word
/// operations, so both are worth capping. Lattice files use
/// 4,096 nodes and 250,000 edges
/// ([`lattice_file`](crate::design::lattice_file)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The most nodes (at most [`MAX_NODES`]).
    pub nodes: usize,
    /// The most edges, counted as given (repeats included).
    pub edges: usize,
}

impl Limits {
    /// What [`Poset::new`] takes: up to [`MAX_NODES`] nodes, any number of
    /// edges.
    pub const DEFAULT: Limits = Limits {
        nodes: MAX_NODES,
        edges: usize::MAX,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// A validated DAG with the upper-bound set of every node.
///
/// It answers order questions for any graph without cycles, lattice or not;
/// [`Poset::least_upper_bound`] tells the three possible outcomes apart.
#[derive(Clone, Debug)]
pub struct Poset {
    pub(super) labels: Vec<String>,
    pub(super) successors: Vec<Vec<Node>>,
    /// `rank[node]` = position of node in a topological order.
    pub(super) rank: Vec<u32>,
    /// `by_rank[r]` = the node whose rank is r.
    pub(super) by_rank: Vec<Node>,
    /// Upper-bound sets, one row of `words` u64 per node, bits by rank.
    pub(super) closure: Vec<u64>,
    pub(super) words: usize,
}

/// What [`Joins::new`] needs to know of a pair: [`Bound`] without the
/// candidates of an ambiguous pair, whose search costs a pass over every
/// common bound; only the reported examples pay it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    Least(Node),
    None,
    Ambiguous,
}

/// The outcome of asking for the least upper bound of two nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The least upper bound.
    Least(Node),
    /// The two nodes have no common upper bound.
    None,
    /// Common upper bounds exist but no least one: these are the minimal
    /// ones (at least two).
    Ambiguous(Vec<Node>),
}

impl Poset {
    /// Validates a graph given as labels and edges `(from, to)` between
    /// label indices. Repeated edges are harmless.
    ///
    /// Fails on duplicate labels, an edge to a missing node or to itself,
    /// a cycle, or more than [`MAX_NODES`] nodes.
    pub fn new<S: Into<String>>(
        labels: impl IntoIterator<Item = S>,
        edges: impl IntoIterator<Item = (Node, Node)>,
    ) -> Result<Poset, GraphError> {
        Poset::with_limits(labels, edges, Limits::DEFAULT)
    }

    /// [`new`](Self::new) within `limits`: more nodes or edges are refused
    /// as soon as they are counted, before anything is built for them.
    ///
    /// ```
    /// use dtype_lattice::engine::{GraphError, Limits, Poset};
    ///
    /// let limits = Limits { nodes: 2, edges: 10 };
    /// let err = Poset::with_limits(["a", "b", "c"], [], limits).unwrap_err();
    /// assert_eq!(err, GraphError::TooManyNodes { limit: 2 });
    /// assert!(Poset::with_limits(["a", "b"], [(0, 1)], limits).is_ok());
    /// ```
    pub fn with_limits<S: Into<String>>(
        labels: impl IntoIterator<Item = S>,
        edges: impl IntoIterator<Item = (Node, Node)>,
        limits: Limits,
    ) -> Result<Poset, GraphError> {
        let node_limit = limits.nodes.min(MAX_NODES);
        let labels: Vec<String> = labels
            .into_iter()
            .take(node_limit.saturating_add(1))
            .map(Into::into)
            .collect();
        let n = labels.len();
        if n > node_limit {
            return Err(GraphError::TooManyNodes { limit: node_limit });
        }
        let mut seen = HashMap::new();
        for (i, label) in labels.iter().enumerate() {
            if let Some(first) = seen.insert(label.as_str(), i) {
                return Err(GraphError::DuplicateLabel {
                    label: label.clone(),
                    first,
                    second: i,
                });
            }
        }
        let mut successors = vec![Vec::new(); n];
        for (count, (from, to)) in edges.into_iter().enumerate() {
            if count >= limits.edges {
                return Err(GraphError::TooManyEdges {
                    limit: limits.edges,
                });
            }
            if from >= n || to >= n {
                return Err(GraphError::NoSuchNode {
                    index: from.max(to),
                    count: n,
                });
            }
            if from == to {
                return Err(GraphError::SelfEdge {
                    node: labels[from].clone(),
                });
            }
            successors[from].push(to);
        }
        for list in &mut successors {
            list.sort_unstable();
            list.dedup();
        }
        let by_rank = topological_order(&labels, &successors)?;
        let mut rank = vec![0u32; n];
        for (r, &node) in by_rank.iter().enumerate() {
            rank[node] = r as u32;
        }
        let words = n.div_ceil(64);
        let mut closure = vec![0u64; n * words];
        // Successors have higher ranks, so walking ranks downwards finds
        // every successor's row complete.
        for &node in by_rank.iter().rev() {
            let r = rank[node] as usize;
            closure[node * words + r / 64] |= 1 << (r % 64);
            for &next in &successors[node] {
                let (lo, hi) = closure.split_at_mut(node.max(next) * words);
                let (row, next_row) = if node < next {
                    (&mut lo[node * words..][..words], &hi[..words])
                } else {
                    (&mut hi[..words], &lo[next * words..][..words])
                };
                for (word, bits) in row.iter_mut().zip(next_row) {
                    *word |= bits;
                }
            }
        }
        Ok(Poset {
            labels,
            successors,
            rank,
            by_rank,
            closure,
            words,
        })
    }

    /// Builds a graph from an adjacency list written like JAX's lattice
    /// dict: each entry is a node and the nodes it may promote to. Nodes are
    /// numbered in order of first appearance.
    pub fn from_dict<K: AsRef<str>, V: AsRef<str>>(
        dict: &[(K, &[V])],
    ) -> Result<Poset, GraphError> {
        let mut index: HashMap<&str, Node> = HashMap::new();
        let mut labels: Vec<&str> = Vec::new();
        let mut edges = Vec::new();
        for (from, targets) in dict {
            let from = from.as_ref();
            let from_index = node_index(&mut index, &mut labels, from);
            for to in targets.iter() {
                let to_index = node_index(&mut index, &mut labels, to.as_ref());
                edges.push((from_index, to_index));
            }
        }
        Poset::new(labels.iter().copied(), edges)
    }

    /// How many nodes there are.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// `true` if the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The label of a node.
    ///
    /// # Panics
    ///
    /// If `node` is not below [`len`](Self::len).
    pub fn label(&self, node: Node) -> &str {
        &self.labels[node]
    }

    /// All labels, indexed by node.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The node with this label.
    pub fn node(&self, label: &str) -> Option<Node> {
        self.labels.iter().position(|l| l == label)
    }

    /// The direct successors of a node (the edges out of it, deduplicated);
    /// none for a node out of range.
    pub fn successors(&self, node: Node) -> &[Node] {
        self.successors.get(node).map_or(&[], Vec::as_slice)
    }

    /// All edges, deduplicated, in order of source node.
    pub fn edges(&self) -> impl Iterator<Item = (Node, Node)> + '_ {
        self.successors
            .iter()
            .enumerate()
            .flat_map(|(from, list)| list.iter().map(move |&to| (from, to)))
    }

    /// `a <= b`: `b` is `a` or reachable from it; `false` when either is
    /// out of range.
    pub fn leq(&self, a: Node, b: Node) -> bool {
        a < self.len() && b < self.len() && self.has_bit(a, self.rank[b] as usize)
    }

    /// The upper-bound set of a node (itself and everything reachable from
    /// it), in topological order; empty for a node out of range.
    pub fn upper_bounds(&self, node: Node) -> impl Iterator<Item = Node> + '_ {
        let row = if node < self.len() {
            self.row(node)
        } else {
            &[]
        };
        self.ones(row).map(|r| self.by_rank[r])
    }

    /// Nodes in a topological order: every edge goes from an earlier node to
    /// a later one.
    pub fn topological_order(&self) -> &[Node] {
        &self.by_rank
    }

    /// Whether `a` and `b` have a least upper bound, none, or several
    /// minimal ones (not which): O(n / 64).
    //
    // Plain loops over the rows' words, which the compiler vectorizes: this
    // settles every pair.
    pub(super) fn outcome(&self, a: Node, b: Node) -> Outcome {
        let (row_a, row_b) = (self.row(a), self.row(b));
        let Some(w) = row_a.iter().zip(row_b).position(|(x, y)| x & y != 0) else {
            return Outcome::None;
        };
        let first = w * 64 + (row_a[w] & row_b[w]).trailing_zeros() as usize;
        let least = self.by_rank[first];
        let row_l = self.row(least);
        let outside = (row_a[w..].iter().zip(&row_b[w..]))
            .zip(&row_l[w..])
            .fold(0, |acc, ((x, y), l)| acc | (x & y & !l));
        if outside == 0 {
            Outcome::Least(least)
        } else {
            Outcome::Ambiguous
        }
    }

    /// Whether `c`'s upper bounds are exactly the common upper bounds of
    /// `a` and `b`, i.e. `c` is their least upper bound (given that it is
    /// an upper bound of both). Nodes in range.
    pub(super) fn is_least(&self, a: Node, b: Node, c: Node) -> bool {
        let (row_a, row_b, row_c) = (self.row(a), self.row(b), self.row(c));
        let differ = (row_a.iter().zip(row_b))
            .zip(row_c)
            .fold(0, |acc, ((x, y), z)| acc | ((x & y) ^ z));
        differ == 0
    }

    /// Whether `a` and `b` have no common upper bound. Nodes in range.
    pub(super) fn disjoint(&self, a: Node, b: Node) -> bool {
        let (row_a, row_b) = (self.row(a), self.row(b));
        row_a.iter().zip(row_b).fold(0, |acc, (x, y)| acc | (x & y)) == 0
    }

    /// The least upper bound of `a` and `b`, or why there is none
    /// ([`Bound::None`] too when either is out of range).
    pub fn least_upper_bound(&self, a: Node, b: Node) -> Bound {
        if a >= self.len() || b >= self.len() {
            return Bound::None;
        }
        let common = || self.row(a).iter().zip(self.row(b)).map(|(x, y)| x & y);
        let Some(first) = self.ones_iter(common()).next() else {
            return Bound::None;
        };
        let least = self.by_rank[first];
        if common().zip(self.row(least)).all(|(c, l)| c & !l == 0) {
            return Bound::Least(least);
        }
        // Minimal common bounds: those not above another common bound.
        let common: Vec<u64> = common().collect();
        let mut above = vec![0u64; self.words];
        for r in self.ones(&common) {
            for (word, (bits, own)) in above
                .iter_mut()
                .zip(self.row(self.by_rank[r]).iter().zip(own_bit(r, self.words)))
            {
                *word |= bits & !own;
            }
        }
        let minimal = common
            .iter()
            .zip(&above)
            .map(|(c, a)| c & !a)
            .collect::<Vec<_>>();
        Bound::Ambiguous(self.ones(&minimal).map(|r| self.by_rank[r]).collect())
    }

    /// Verifies that a join table, such as one with gaps for a graph that
    /// is not a lattice, obeys the laws where it is defined: commutative,
    /// idempotent, and associative wherever both groupings are defined.
    /// `join(a, b)` is the table's entry for a pair, `None` for a gap.
    /// Returns the first pair where it does not.
    ///
    /// It checks, pair by pair, that every entry is the least upper bound
    /// of its pair (its upper-bound set is exactly the intersection of the
    /// pair's), which implies the laws on every triple; see
    /// [`Lattice::verify_laws`](super::Lattice::verify_laws) for the argument. O(n² · n / 64), shared
    /// out among threads on large graphs.
    ///
    /// ```
    /// use dtype_lattice::engine::{Bound, Poset};
    ///
    /// // c is the least upper bound of a and b; d is an upper bound too.
    /// let poset = Poset::from_dict(&[("a", &["c"]), ("b", &["c"]), ("c", &["d"])]).unwrap();
    /// let good = |x, y| match poset.least_upper_bound(x, y) {
    ///     Bound::Least(c) => Some(c),
    ///     _ => None,
    /// };
    /// assert_eq!(poset.verify_joins(good), Ok(()));
    /// let [a, b, d] = ["a", "b", "d"].map(|label| poset.node(label).unwrap());
    /// let claims_d = |x, y| if [x, y] == [a, b] || [x, y] == [b, a] { Some(d) } else { good(x, y) };
    /// let err = poset.verify_joins(claims_d).unwrap_err();
    /// assert_eq!(err.to_string(), "the join table is wrong at {a, b}: the join is not the least upper bound");
    /// ```
    pub fn verify_joins(
        &self,
        join: impl Fn(Node, Node) -> Option<Node> + Sync,
    ) -> Result<(), LawViolation> {
        self.check_joins(join, false)
    }

    /// [`verify_joins`](Self::verify_joins); with `complete`, also that the
    /// table has no gap where the pair has an upper bound.
    pub(super) fn check_joins(
        &self,
        join: impl Fn(Node, Node) -> Option<Node> + Sync,
        complete: bool,
    ) -> Result<(), LawViolation> {
        let n = self.len();
        let violation = |a: Node, b: Node, reason| LawViolation {
            pair: (self.labels[a].clone(), self.labels[b].clone()),
            reason,
        };
        let mut expected = vec![0u64; self.words];
        for node in 0..n {
            expected.fill(0);
            let r = self.rank[node] as usize;
            expected[r / 64] |= 1 << (r % 64);
            for &next in &self.successors[node] {
                for (word, bits) in expected.iter_mut().zip(self.row(next)) {
                    *word |= bits;
                }
            }
            if expected != self.row(node) {
                return Err(violation(
                    node,
                    node,
                    "its upper bounds are not its successors' and itself",
                ));
            }
        }
        // Commutativity first, block by block (see `mirror`); then, for
        // every pair {a, b} with b no higher in the order, that the entry is
        // the least upper bound: an upper bound of both whose own upper
        // bounds are exactly the pair's common ones (the bit sets, compared
        // directly). Rows are independent, so they are shared out among
        // threads on large graphs. O(n² · n / 64).
        const BLOCK: usize = 64;
        for row_block in (0..n).step_by(BLOCK) {
            for column_block in (row_block..n).step_by(BLOCK) {
                for a in row_block..(row_block + BLOCK).min(n) {
                    for b in column_block.max(a)..(column_block + BLOCK).min(n) {
                        if join(a, b) != join(b, a) {
                            return Err(violation(
                                a,
                                b,
                                "the join depends on the order of the two",
                            ));
                        }
                    }
                }
            }
        }
        // Each share reports its first fault by pair, so that the one
        // reported does not depend on how many threads there were.
        let faults = share_out((0..n).collect(), |rows: Vec<Node>| {
            let mut first = None;
            for a in rows {
                let a_rank = self.rank[a];
                for b in (0..n).filter(|&b| self.rank[b] <= a_rank) {
                    let least = match join(a, b) {
                        Some(c) => {
                            c < n && self.leq(a, c) && self.leq(b, c) && self.is_least(a, b, c)
                        }
                        None => !complete || self.disjoint(a, b),
                    };
                    if !least {
                        let fault = (a.min(b), a.max(b), a == b);
                        first = first.min(Some(fault)).or(Some(fault));
                    }
                }
            }
            first
        });
        match faults.into_iter().flatten().min() {
            Some((a, b, true)) => Err(violation(a, b, "a node joined with itself is another node")),
            Some((a, b, false)) => Err(violation(a, b, "the join is not the least upper bound")),
            None => Ok(()),
        }
    }

    pub(super) fn row(&self, node: Node) -> &[u64] {
        &self.closure[node * self.words..][..self.words]
    }

    pub(super) fn has_bit(&self, node: Node, bit: usize) -> bool {
        self.row(node)[bit / 64] >> (bit % 64) & 1 == 1
    }

    pub(super) fn ones<'a>(&self, row: &'a [u64]) -> impl Iterator<Item = usize> + 'a {
        self.ones_iter(row.iter().copied())
    }

    pub(super) fn ones_iter(
        &self,
        words: impl Iterator<Item = u64>,
    ) -> impl Iterator<Item = usize> {
        words.enumerate().flat_map(|(w, mut word)| {
            core::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = word.trailing_zeros() as usize;
                    word &= word - 1;
                    w * 64 + bit
                })
            })
        })
    }
}

pub(super) fn node_index<'a>(
    index: &mut HashMap<&'a str, Node>,
    labels: &mut Vec<&'a str>,
    label: &'a str,
) -> Node {
    *index.entry(label).or_insert_with(|| {
        labels.push(label);
        labels.len() - 1
    })
}

/// Kahn's algorithm; on a cycle, names the nodes on one.
pub(super) fn topological_order(
    labels: &[String],
    successors: &[Vec<Node>],
) -> Result<Vec<Node>, GraphError> {
    let n = labels.len();
    let mut indegree = vec![0usize; n];
    for list in successors {
        for &to in list {
            indegree[to] += 1;
        }
    }
    let mut order: Vec<Node> = (0..n).filter(|&v| indegree[v] == 0).collect();
    let mut next = 0;
    while next < order.len() {
        for &to in &successors[order[next]] {
            indegree[to] -= 1;
            if indegree[to] == 0 {
                order.push(to);
            }
        }
        next += 1;
    }
    if order.len() == n {
        return Ok(order);
    }
    // Every node left over has a predecessor that is left over too, so
    // walking predecessors from any of them must come round to a node seen
    // before: the walk from there is a cycle (backwards).
    let mut predecessor = vec![None; n];
    for (from, list) in successors.iter().enumerate() {
        if indegree[from] > 0 {
            for &to in list {
                predecessor[to] = Some(from);
            }
        }
    }
    let start = (0..n).find(|&v| indegree[v] > 0).unwrap_or(0);
    let mut position = vec![usize::MAX; n];
    let mut walk = Vec::new();
    let mut v = start;
    while position[v] == usize::MAX {
        position[v] = walk.len();
        walk.push(v);
        match predecessor[v] {
            Some(p) => v = p,
            None => break,
        }
    }
    let mut cycle: Vec<String> = walk[position[v]..]
        .iter()
        .rev()
        .map(|&v| labels[v].clone())
        .collect();
    // Start the cycle at its smallest label so the report is stable.
    if let Some(min) = (0..cycle.len()).min_by(|&i, &j| cycle[i].cmp(&cycle[j])) {
        cycle.rotate_left(min);
    }
    Err(GraphError::Cycle { nodes: cycle })
}
