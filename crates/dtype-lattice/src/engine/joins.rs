//! [`Joins`]: the least upper bound of every pair of a poset, with the
//! pairs that have none and the ambiguous ones counted and marked; what
//! the design tools describe a graph that fails with.

use super::error::{Ambiguity, LatticeError, MAX_CANDIDATES};
use super::fill::{join_from_successors, mirror, share_out, FEW_SUCCESSORS};
use super::lattice::Lattice;
use super::poset::{Bound, Node, Outcome, Poset, NO_JOIN};
use crate::prelude::*;

impl Joins {
    /// Computes the least upper bound of every pair of a validated poset.
    ///
    /// A pair's common upper bounds are the intersection of the two nodes'
    /// upper-bound sets (bit sets indexed by topological rank), so their
    /// first common bit is the only candidate for the least one, and it is
    /// the least exactly when every common bound lies above it: two passes
    /// over a row of words, O(n / 64) per pair and O(n³ / 128) in all. A
    /// node with few successors takes a pair's join from its successors'
    /// joins instead (a table load each), in reverse topological order.
    /// Only pairs with the second node no higher in the order are computed;
    /// the others are their mirror image. Rows settled from the bit sets do
    /// not depend on each other, so on large graphs they are shared out
    /// among the machine's threads.
    ///
    /// Memory is the n x n table of `u16` and n x n bits, whatever the
    /// graph: ambiguous pairs are counted and marked in a bit set, and
    /// only the first [`Joins::EXAMPLES`] (by pair) get their candidates
    /// listed. See [`with_examples`](Self::with_examples) for another
    /// number.
    pub fn new(poset: Poset) -> Joins {
        Joins::with_examples(poset, Joins::EXAMPLES)
    }

    /// How many ambiguous pairs [`new`](Self::new) lists with their
    /// candidates.
    pub const EXAMPLES: usize = 8;

    /// [`new`](Self::new), listing the candidates of the first `examples`
    /// ambiguous pairs (in order of pair).
    pub fn with_examples(poset: Poset, examples: usize) -> Joins {
        let n = poset.len();
        let mut joins = vec![NO_JOIN; n * n].into_boxed_slice();
        // Row `a` settles the pairs {a, b} with b no higher in the order;
        // the rest of the table is their mirror image, filled at the end.
        // A node with few successors takes a pair's join from theirs (a
        // few table loads; their pairs {s, b} lie in the half already
        // computed, as s is higher than a); any other settles it from the
        // two upper-bound bit sets alone, which needs no other row, so
        // those rows go first, shared out among threads.
        let from_successors = |a: Node| poset.successors[a].len() <= FEW_SUCCESSORS;
        let rows: Vec<(Node, &mut [u16])> = joins
            .chunks_mut(n.max(1))
            .enumerate()
            .filter(|&(a, _)| !from_successors(a))
            .collect();
        let shares = share_out(rows, |rows| {
            let mut found = Ambiguous::new(n);
            for (a, row) in rows {
                let a_rank = poset.rank[a];
                for (b, cell) in row.iter_mut().enumerate() {
                    if poset.rank[b] <= a_rank {
                        *cell = found.entry(a, b, poset.outcome(a, b));
                    }
                }
            }
            found
        });
        let mut found = Ambiguous::new(n);
        for share in shares {
            found.pairs.union(&share.pairs);
            found.count += share.count;
        }
        for &a in poset.by_rank.iter().rev().filter(|&&a| from_successors(a)) {
            let a_rank = poset.rank[a];
            for b in (0..n).filter(|&b| poset.rank[b] <= a_rank) {
                let outcome = join_from_successors(&poset, &joins, &found.pairs, a, b)
                    .unwrap_or_else(|| poset.outcome(a, b));
                joins[a * n + b] = found.entry(a, b, outcome);
            }
        }
        let Ambiguous {
            pairs: ambiguous,
            count,
        } = found;
        mirror(&mut joins, n, |a, b| poset.rank[b] > poset.rank[a]);
        let listed = ambiguous
            .iter()
            .take(examples)
            .map(|pair| {
                let mut candidates = match poset.least_upper_bound(pair.0, pair.1) {
                    Bound::Ambiguous(candidates) => candidates,
                    // The set holds only pairs the outcome called ambiguous.
                    Bound::Least(_) | Bound::None => Vec::new(),
                };
                let candidate_count = candidates.len();
                candidates.truncate(MAX_CANDIDATES);
                Ambiguity {
                    pair,
                    candidates,
                    candidate_count,
                }
            })
            .collect();
        Joins {
            poset,
            table: joins,
            ambiguous: listed,
            ambiguous_count: count,
            ambiguous_set: ambiguous,
        }
    }

    /// The underlying order.
    pub fn poset(&self) -> &Poset {
        &self.poset
    }

    /// The least upper bound of two nodes; `None` if they have no common
    /// upper bound, no least one (see [`ambiguous`](Self::ambiguous)), or
    /// either is not a node.
    pub fn join(&self, a: Node, b: Node) -> Option<Node> {
        let n = self.poset.len();
        if a >= n || b >= n {
            return None;
        }
        match self.table[a * n + b] {
            NO_JOIN => None,
            c => Some(usize::from(c)),
        }
    }

    /// The first ambiguous pairs (pairs with common upper bounds but no
    /// least one), ordered by pair, with their candidates: at most the
    /// number of examples asked for; [`ambiguous_count`](Self::ambiguous_count)
    /// counts them all.
    pub fn ambiguous(&self) -> &[Ambiguity] {
        &self.ambiguous
    }

    /// How many pairs are ambiguous; zero exactly when the poset is a
    /// (partial) lattice.
    pub fn ambiguous_count(&self) -> usize {
        self.ambiguous_count
    }

    /// Whether the pair is ambiguous (`false` for nodes out of range).
    pub fn is_ambiguous(&self, a: Node, b: Node) -> bool {
        let n = self.poset.len();
        a < n && b < n && self.ambiguous_set.contains(a.min(b), a.max(b))
    }

    /// Every unordered pair of distinct nodes with no common upper bound
    /// (the ambiguous pairs have some), in order of pair. Lazy: take the
    /// first few, or count them, without holding the list.
    pub fn unbounded_pairs(&self) -> impl Iterator<Item = (Node, Node)> + '_ {
        let n = self.poset.len();
        (0..n)
            .flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
            .filter(move |&(a, b)| {
                self.table[a * n + b] == NO_JOIN && !self.ambiguous_set.contains(a, b)
            })
    }

    /// The lattice, or the ambiguous pairs (counted, the first listed) if
    /// the poset is not one.
    pub fn into_lattice(self) -> Result<Lattice, LatticeError> {
        if self.ambiguous_count > 0 {
            return Err(LatticeError::Ambiguous {
                labels: self.poset.labels,
                pairs: self.ambiguous,
                count: self.ambiguous_count,
            });
        }
        Ok(Lattice {
            poset: self.poset,
            joins: self.table,
        })
    }
}

/// The least upper bound of every pair of a DAG that need not be a
/// lattice, as [`Lattice::new`] computes them: where a pair has no least
/// upper bound the table has a gap, and the pair is listed if it has
/// common upper bounds at all. Tools that report on graphs that are not
/// lattices use it; everything else wants a [`Lattice`].
///
/// ```
/// use dtype_lattice::engine::{Joins, Poset};
///
/// let poset = Poset::from_dict(&[("a", &["c", "d"]), ("b", &["c", "d"])]).unwrap();
/// let [a, b, c, d] = ["a", "b", "c", "d"].map(|label| poset.node(label).unwrap());
/// let joins = Joins::new(poset);
/// assert_eq!(joins.join(a, c), Some(c));
/// assert_eq!(joins.join(a, b), None); // c and d, no least
/// assert_eq!(joins.ambiguous()[0].candidates, [c, d]);
/// assert_eq!(joins.unbounded_pairs().collect::<Vec<_>>(), [(c, d)]);
/// assert!(joins.into_lattice().is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Joins {
    poset: Poset,
    /// table[a * n + b], `NO_JOIN` where the pair has no least upper bound.
    table: Box<[u16]>,
    /// The first ambiguous pairs, ordered by pair, with their candidates.
    ambiguous: Vec<Ambiguity>,
    /// How many pairs are ambiguous.
    ambiguous_count: usize,
    /// Every ambiguous pair.
    ambiguous_set: PairSet,
}

/// The ambiguous pairs found while filling a join table, and how many.
pub(super) struct Ambiguous {
    pairs: PairSet,
    count: usize,
}

impl Ambiguous {
    pub(super) fn new(n: usize) -> Ambiguous {
        Ambiguous {
            pairs: PairSet::new(n),
            count: 0,
        }
    }

    /// The table entry for the pair `{a, b}`, whose least upper bound is
    /// `outcome`, recording it if it is ambiguous.
    pub(super) fn entry(&mut self, a: Node, b: Node, outcome: Outcome) -> u16 {
        match outcome {
            Outcome::Least(c) => c as u16,
            Outcome::None => NO_JOIN,
            Outcome::Ambiguous => {
                self.pairs.insert(a, b);
                self.count += 1;
                NO_JOIN
            }
        }
    }
}

/// A set of unordered pairs `(a, b)`, `a <= b`, of `n` nodes: n x n bits,
/// whatever it holds.
#[derive(Clone, Debug)]
pub(super) struct PairSet {
    n: usize,
    bits: Vec<u64>,
}

impl PairSet {
    pub(super) fn new(n: usize) -> PairSet {
        PairSet {
            n,
            bits: vec![0; (n * n).div_ceil(64)],
        }
    }

    /// Adds the pair (in either order); whether it was new.
    pub(super) fn insert(&mut self, a: Node, b: Node) -> bool {
        let i = a.min(b) * self.n + a.max(b);
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let new = self.bits[word] & bit == 0;
        self.bits[word] |= bit;
        new
    }

    /// Adds every pair of `other` (of as many nodes).
    pub(super) fn union(&mut self, other: &PairSet) {
        for (word, bits) in self.bits.iter_mut().zip(&other.bits) {
            *word |= bits;
        }
    }

    /// Whether it holds `(a, b)`, `a <= b`.
    pub(super) fn contains(&self, a: Node, b: Node) -> bool {
        let i = a * self.n + b;
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }

    /// The pairs, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (Node, Node)> + '_ {
        self.bits.iter().enumerate().flat_map(move |(w, &word)| {
            let mut word = word;
            core::iter::from_fn(move || {
                (word != 0).then(|| {
                    let i = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    (i / self.n, i % self.n)
                })
            })
        })
    }
}
