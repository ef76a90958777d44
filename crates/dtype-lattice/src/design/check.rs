//! Checking a promotion graph: is it a (partial) lattice, and if not, why.
//!
//! [`Check::new`] answers the questions of JAX's design notebook for any
//! [`Definition`]: does the graph have a cycle (and which nodes are on it),
//! which pairs have several minimal common upper bounds (and which), which
//! pairs have no upper bound at all (allowed: a partial lattice), and does
//! the join it defines behave: commutative and associative wherever it is
//! defined, verified on the join table itself rather than assumed.
//!
//! ```
//! use dtype_lattice::design::check::{Check, EXAMPLES};
//! use dtype_lattice::design::Definition;
//! use dtype_lattice::frameworks::jax::{Config, Jax};
//! use dtype_lattice::engine::Poset;
//!
//! let jax = Definition::from_policy(&Jax::new(Config { x64: true, ..Config::default() })).unwrap();
//! let report = Check::new(&jax, EXAMPLES).unwrap();
//! assert!(report.is_lattice());
//! assert_eq!((report.nodes, report.cycle.as_ref()), (35, None));
//! let laws = report.laws.as_ref().unwrap();
//! assert!(laws.exhaustive && laws.not_commutative.is_none() && laws.not_associative.is_none());
//! assert_eq!(laws.triples, 35 * 36 * 37 / 6);
//!
//! // The notebook's DAG that is not a lattice: {A, B} has two candidates.
//! let poset = Poset::from_dict(&[("A", &["C", "D"][..]), ("B", &["C", "D"])]).unwrap();
//! let dag = Definition {
//!     name: "dag".into(),
//!     description: None,
//!     nodes: poset.labels().iter().map(|l| dtype_lattice::design::NodeDef::from_label(l)).collect(),
//!     edges: poset.edges().collect(),
//! };
//! let report = Check::new(&dag, EXAMPLES).unwrap();
//! assert!(!report.is_lattice());
//! let label = |node: usize| dag.nodes[node].label.as_str();
//! let ambiguity = &report.ambiguous[0];
//! assert_eq!((label(ambiguity.pair.0), label(ambiguity.pair.1)), ("A", "B"));
//! assert_eq!(ambiguity.candidates.iter().map(|&c| label(c)).collect::<Vec<_>>(), ["C", "D"]);
//! let unbounded: Vec<_> = report.no_upper_bound.iter().map(|&(a, b)| (label(a), label(b))).collect();
//! assert_eq!(unbounded, [("C", "D")]);
//! ```
//!
//! # Cost
//!
//! For n nodes and e edges: validation and the join table are the engine's
//! ([`Joins`], which leaves gaps at ambiguous pairs; see
//! [`lattice`](crate::engine)). The laws
//! are then proven for every pair and every triple without enumerating
//! the n³ triples: [`Poset::verify_joins`](crate::engine::Poset::verify_joins)
//! checks pair by pair that each join is the least upper
//! bound of its pair, which implies commutativity and associativity
//! wherever defined, in O(n² · n / 64) word operations (a few milliseconds
//! for 1,024 nodes). Only if that proof fails is a counterexample searched
//! for triple by triple: given commutativity, the n³ ordered triples come
//! down to the n(n+1)(n+2)/6 unordered ones (for each, the three groupings
//! `(a∨b)∨c`, `a∨(b∨c)`, `b∨(a∨c)` must agree), five table loads each,
//! arranged to stream through the table, on every triple for graphs of up
//! to [`EXHAUSTIVE_LAW_NODES`] nodes and on as many sampled ones above.

use crate::design::associativity::{non_associative, NonAssociative};
use crate::design::table::DOCS_TYPES;
use crate::design::Definition;
use crate::engine::{Ambiguity, GraphError, Joins, Node};
use crate::policy::Policy;
use crate::types::{DType, TypeSpec};

/// Graphs up to this many nodes have a counterexample to associativity
/// searched for on every triple, when the proof of the laws fails.
pub const EXHAUSTIVE_LAW_NODES: usize = 1024;

/// What [`Check::new`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// How many nodes.
    pub nodes: usize,
    /// The distinct edges, in order of source node.
    pub edges: Vec<(Node, Node)>,
    /// The labels of the nodes on a cycle, if the edges have one; nothing
    /// else is checked then.
    pub cycle: Option<Vec<String>>,
    /// The first pairs with common upper bounds but no least one, by pair,
    /// with their candidates (at most the number of examples asked for).
    pub ambiguous: Vec<Ambiguity>,
    /// How many pairs are ambiguous in all.
    pub ambiguous_count: usize,
    /// The first unordered pairs of distinct nodes with no common upper
    /// bound, by pair (at most the number of examples asked for).
    pub no_upper_bound: Vec<(Node, Node)>,
    /// How many pairs have no common upper bound in all.
    pub no_upper_bound_count: usize,
    /// The laws of the join, on the pairs where it is defined (absent for a
    /// cycle).
    pub laws: Option<Laws>,
}

impl Check {
    /// Checks a graph, listing at most `examples` pairs of each finding, and
    /// never more than [`MAX_EXAMPLES`] (counting them all); an error only
    /// for a malformed definition (a
    /// duplicate label, an edge to a missing node or to itself, too many
    /// nodes). A cycle is a finding, not an error.
    ///
    /// Time and memory are bounded by the graph's size, not by what it holds:
    /// at most n x n `u16` and a few n x n bit sets, and O(n³ / 64) word
    /// operations (within a lattice file's limits, well under two seconds).
    pub fn new(definition: &Definition, examples: usize) -> Result<Check, GraphError> {
        let examples = examples.min(MAX_EXAMPLES);
        let mut edges = definition.edges.clone();
        edges.sort_unstable();
        edges.dedup();
        let mut report = Check {
            nodes: definition.nodes.len(),
            edges,
            cycle: None,
            ambiguous: Vec::new(),
            ambiguous_count: 0,
            no_upper_bound: Vec::new(),
            no_upper_bound_count: 0,
            laws: None,
        };
        let poset = match definition.poset() {
            Ok(poset) => poset,
            Err(GraphError::Cycle { nodes }) => {
                report.cycle = Some(nodes);
                return Ok(report);
            }
            Err(err) => return Err(err),
        };
        let n = poset.len();
        let joins = Joins::with_examples(poset, examples);
        for (i, pair) in joins.unbounded_pairs().enumerate() {
            if i < examples {
                report.no_upper_bound.push(pair);
            }
            report.no_upper_bound_count += 1;
        }
        report.ambiguous = joins.ambiguous().to_vec();
        report.ambiguous_count = joins.ambiguous_count();
        // The laws are verified where the table is defined (ambiguous pairs
        // are gaps in it).
        let proof = joins.poset().verify_joins(|a, b| joins.join(a, b));
        report.laws = Some(match proof {
            Ok(()) => proven_laws(n),
            Err(_) => verify_laws(
                &Table::new(n, |a, b| joins.join(a, b)),
                EXHAUSTIVE_LAW_NODES,
            ),
        });
        Ok(report)
    }

    /// Whether the graph is a (partial) lattice: no cycle, no ambiguous
    /// pair, and a join that is commutative and associative.
    pub fn is_lattice(&self) -> bool {
        self.cycle.is_none()
            && self.ambiguous_count == 0
            && self.laws.as_ref().is_some_and(|laws| {
                laws.not_commutative.is_none() && laws.not_associative.is_none()
            })
    }
}

/// The result of checking the join's laws on its table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Laws {
    /// Whether every triple was covered: by the proof, or, where the proof
    /// failed, by the search for a counterexample (else a sample was).
    pub exhaustive: bool,
    /// How many ordered pairs were checked for commutativity (n²).
    pub pairs: u64,
    /// How many unordered triples `{a, b, c}` associativity was verified on
    /// (all three groupings of each): n(n+1)(n+2)/6 when exhaustive, which
    /// covers all n³ ordered triples.
    pub triples: u64,
    /// A pair whose join depends on the order, if any.
    pub not_commutative: Option<(Node, Node)>,
    /// A triple `(a, b, c)` with `(a∨b)∨c` and `a∨(b∨c)` both defined and
    /// different, if any.
    pub not_associative: Option<[Node; 3]>,
}

/// How many examples [`Check::new`] lists of each kind of finding unless told
/// otherwise: the counts are always exact.
pub const EXAMPLES: usize = 10;

/// The most examples [`Check::new`] lists of each kind, whatever it is
/// asked for: an ambiguous pair is listed with all its minimal common upper
/// bounds (up to a graph's every node), so a list without a cap could hold
/// millions of pairs times thousands of candidates. A thousand of each keeps
/// any graph within the limits under two seconds and 256 MB; the counts stay
/// exact.
pub const MAX_EXAMPLES: usize = 1000;

impl Check {
    /// Whether some ambiguous pairs or pairs without an upper bound are
    /// counted but not listed.
    pub fn is_truncated(&self) -> bool {
        self.ambiguous.len() < self.ambiguous_count
            || self.no_upper_bound.len() < self.no_upper_bound_count
    }
}

/// The laws, proven for all n² pairs and n³ triples: the table's every
/// entry is the least upper bound of its pair
/// ([`Poset::verify_joins`](crate::engine::Poset::verify_joins)),
/// and least upper bounds are commutative and associative where defined.
fn proven_laws(n: usize) -> Laws {
    Laws {
        exhaustive: true,
        pairs: (n as u64) * (n as u64),
        triples: unordered_triples(n),
        not_commutative: None,
        not_associative: None,
    }
}

/// A join table as the laws are checked on it: row `a` holds `a∨b` for
/// every `b`, [`UNDEFINED`] where there is none; one more row, all
/// undefined, stands for joining with an undefined result.
struct Table {
    n: usize,
    cells: Vec<u16>,
}

/// No join; node indices stay below it ([`crate::engine::MAX_NODES`]).
const UNDEFINED: u16 = u16::MAX;

impl Table {
    /// Asks `join` for every ordered pair, row by row.
    fn new(n: usize, mut join: impl FnMut(Node, Node) -> Option<Node>) -> Table {
        let mut cells = Vec::with_capacity(n * (n + 1));
        for a in 0..n {
            for b in 0..n {
                cells.push(join(a, b).map_or(UNDEFINED, |c| c as u16));
            }
        }
        cells.resize(n * (n + 1), UNDEFINED);
        Table { n, cells }
    }

    fn row(&self, a: Node) -> &[u16] {
        &self.cells[a * self.n..][..self.n]
    }

    /// Row `a`, or the undefined row for [`UNDEFINED`].
    fn row_or_undefined(&self, a: u16) -> &[u16] {
        self.row(usize::from(a).min(self.n))
    }

    fn join(&self, a: Node, b: Node) -> Option<Node> {
        let c = self.row(a)[b];
        (c != UNDEFINED).then_some(c as Node)
    }
}

/// Checks commutativity on every pair and associativity on every triple
/// (or, for graphs above `exhaustive_nodes`, on as many triples, grouped by
/// sampled pairs), where the joins are defined.
fn verify_laws(table: &Table, exhaustive_nodes: usize) -> Laws {
    let n = table.n;
    let join = |a, b| table.join(a, b);
    let mut laws = Laws {
        exhaustive: n <= exhaustive_nodes,
        pairs: (n as u64) * (n as u64),
        triples: 0,
        not_commutative: None,
        not_associative: None,
    };
    laws.not_commutative = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .find(|&(a, b)| join(a, b) != join(b, a));
    if laws.not_commutative.is_some() {
        // Without commutativity the triple reduction below does not hold.
        return laws;
    }
    let violation = if laws.exhaustive {
        laws.triples = unordered_triples(n);
        (0..n)
            .flat_map(|a| (a..n).map(move |b| (a, b)))
            .find_map(|(a, b)| sweep(table, a, b, b..n))
    } else {
        let pairs = unordered_triples(exhaustive_nodes) / n as u64;
        laws.triples = pairs * n as u64;
        let mut random = XorShift(0x9E37_79B9_7F4A_7C15);
        (0..pairs).find_map(|_| sweep(table, random.below(n), random.below(n), 0..n))
    };
    laws.not_associative = violation.map(|[a, b, c]| {
        // Name an ordered triple that shows it.
        let grouped = |[a, b, c]: [Node; 3]| {
            let left = join(a, b).and_then(|ab| join(ab, c));
            let right = join(b, c).and_then(|bc| join(a, bc));
            matches!((left, right), (Some(l), Some(r)) if l != r)
        };
        [
            [a, b, c],
            [a, c, b],
            [b, a, c],
            [b, c, a],
            [c, a, b],
            [c, b, a],
        ]
        .into_iter()
        .find(|&t| grouped(t))
        .unwrap_or([a, b, c])
    });
    laws
}

/// n(n+1)(n+2)/6: the unordered triples of n nodes, repeats allowed.
fn unordered_triples(n: usize) -> u64 {
    let n = n as u64;
    n * (n + 1) * (n + 2) / 6
}

/// The first `c` for which the three groupings of `{a, b, c}` disagree
/// where defined. With a commutative join, `(x∨y)∨z = x∨(y∨z)` holds for
/// all ordered triples exactly when `(a∨b)∨c`, `a∨(b∨c)` and `b∨(a∨c)`
/// agree for every unordered one. Each grouping joins into a fixed row
/// (`a∨b`, `a` or `b`), so the loop streams through three rows of the table
/// and looks up two more that stay in cache.
fn sweep(table: &Table, a: Node, b: Node, cs: std::ops::Range<Node>) -> Option<[Node; 3]> {
    let (row_a, row_b) = (table.row(a), table.row(b));
    let row_ab = table.row_or_undefined(row_a[b]);
    // `get` folds the bounds check and the undefined case into one branch:
    // UNDEFINED is never a row index.
    let then = |row: &[u16], x: u16| row.get(usize::from(x)).copied().unwrap_or(UNDEFINED);
    let clash = |x: u16, y: u16| x != y && x != UNDEFINED && y != UNDEFINED;
    let start = cs.start;
    row_ab[cs.clone()]
        .iter()
        .zip(&row_b[cs.clone()])
        .zip(&row_a[cs])
        .position(|((&left, &bc), &ac)| {
            let right = then(row_a, bc);
            let swapped = then(row_b, ac);
            clash(left, right) || clash(left, swapped) || clash(right, swapped)
        })
        .map(|i| [a, b, start + i])
}

/// A small deterministic generator, so a sampled check is reproducible.
struct XorShift(u64);

impl XorShift {
    /// A number below `n` (n > 0); the slight bias of `%` is irrelevant
    /// for sampling.
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// What [`RulesCheck::new`] finds in a policy defined by rules, not a lattice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesCheck {
    /// The types checked: the documentation's 18 first (so the first
    /// counterexample is in familiar types), then the other dtypes, less
    /// those in [`left_out`](Self::left_out).
    pub types: Vec<TypeSpec>,
    /// The types the policy promotes with nothing, not even with
    /// themselves: the dtypes the framework lacks (and Python's types where
    /// its function takes none). Every pair with one fails alike, so they
    /// are left out of the pairs and triples.
    pub left_out: Vec<TypeSpec>,
    /// The pairs of [`types`](Self::types) (by position, `a < b`) with no
    /// promotion.
    pub no_upper_bound: Vec<(usize, usize)>,
    /// The pairs of [`types`](Self::types) (by position, `a < b`) whose
    /// promotion depends on the order: `a + b` and `b + a` give different
    /// dtypes, or one fails and the other does not (two failures count as
    /// the same outcome, whatever their messages).
    pub not_commutative: Vec<(usize, usize)>,
    /// Every ordered triple on which grouping changes the answer.
    pub non_associative: Vec<NonAssociative>,
}

impl RulesCheck {
    /// Checks a policy's `promote_types` on every pair and ordered triple of
    /// the dtypes and Python's int, float and complex that it promotes with
    /// themselves: the pairs with no promotion, the pairs where the order
    /// matters, and the triples where grouping does (so no lattice can
    /// define it).
    ///
    /// ```
    /// use dtype_lattice::design::check::RulesCheck;
    /// use dtype_lattice::frameworks::numpy::Numpy;
    ///
    /// let numpy = RulesCheck::new(&Numpy);
    /// // complex32 is left out: it is ml_dtypes' under NumPy, not modelled.
    /// assert_eq!((numpy.types.len(), numpy.left_out.len()), (35, 1));
    /// assert!(numpy.not_commutative.is_empty());
    /// assert!(!numpy.non_associative.is_empty());
    /// ```
    pub fn new(policy: &dyn Policy) -> RulesCheck {
        let mut all = DOCS_TYPES.to_vec();
        for dtype in DType::ALL {
            if !all.contains(&TypeSpec::DType(dtype)) {
                all.push(TypeSpec::DType(dtype));
            }
        }
        let (types, left_out): (Vec<TypeSpec>, Vec<TypeSpec>) = all
            .into_iter()
            .partition(|&t| policy.promote_types(t, t).is_ok());
        let pairs = || (0..types.len()).flat_map(|a| (a + 1..types.len()).map(move |b| (a, b)));
        let promote = |(a, b): (usize, usize)| policy.promote_types(types[a], types[b]);
        let no_upper_bound = pairs().filter(|&pair| promote(pair).is_err()).collect();
        let not_commutative = pairs()
            .filter(|&(a, b)| match (promote((a, b)), promote((b, a))) {
                (Ok(x), Ok(y)) => x != y,
                (x, y) => x.is_ok() != y.is_ok(),
            })
            .collect();
        let non_associative = non_associative(policy, &types).collect();
        RulesCheck {
            types,
            left_out,
            no_upper_bound,
            not_commutative,
            non_associative,
        }
    }

    /// The number of ordered pairs checked for commutativity.
    pub fn pairs(&self) -> usize {
        self.types.len().pow(2)
    }

    /// The number of ordered triples checked.
    pub fn triples(&self) -> usize {
        self.types.len().pow(3)
    }

    /// The counterexample to show: one whose two groupings both promote,
    /// which shows the broken law more plainly than a promotion that fails
    /// on one side only; else the first.
    pub fn example(&self) -> Option<&NonAssociative> {
        self.non_associative
            .iter()
            .find(|e| e.left.is_ok() && e.right.is_ok())
            .or(self.non_associative.first())
    }

    /// `a + b = X but b + a = Y` for a pair of
    /// [`not_commutative`](Self::not_commutative), as a policy answers it
    /// (a failure written as its exception type).
    pub fn describe_pair(&self, policy: &dyn Policy, (a, b): (usize, usize)) -> String {
        let outcome = |x: TypeSpec, y: TypeSpec| match policy.promote_types(x, y) {
            Ok(dtype) => dtype.to_string(),
            Err(err) => err.python_type().to_owned(),
        };
        let (a, b) = (self.types[a], self.types[b]);
        format!(
            "{a} + {b} = {} but {b} + {a} = {}",
            outcome(a, b),
            outcome(b, a)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::NodeDef;

    /// Rock, paper, scissors: commutative, not associative.
    fn rock_paper_scissors(a: Node, b: Node) -> Option<Node> {
        Some(match (a.min(b), a.max(b)) {
            (0, 1) => 1,
            (1, 2) => 2,
            (0, 2) => 0,
            (x, _) => x,
        })
    }

    #[test]
    fn a_broken_table_is_caught() {
        let join = |a, b| rock_paper_scissors(a, b).unwrap();
        let laws = verify_laws(&Table::new(3, rock_paper_scissors), EXHAUSTIVE_LAW_NODES);
        assert_eq!(laws.not_commutative, None);
        let [a, b, c] = laws.not_associative.unwrap();
        assert_ne!(join(join(a, b), c), join(a, join(b, c)));

        // Sampled: a·b + 1 (mod 20) is commutative and almost never
        // associative.
        let join = |a: Node, b: Node| (a * b + 1) % 20;
        let laws = verify_laws(&Table::new(20, |a, b| Some(join(a, b))), 10);
        assert!(!laws.exhaustive);
        let [a, b, c] = laws.not_associative.unwrap();
        assert_ne!(join(join(a, b), c), join(a, join(b, c)));

        let laws = verify_laws(&Table::new(2, |a, _| Some(a)), EXHAUSTIVE_LAW_NODES);
        assert_eq!(laws.not_commutative, Some((0, 1)));
        assert_eq!(laws.not_associative, None);
    }

    #[test]
    fn cycles_are_findings() {
        let def = Definition {
            name: "cycle".into(),
            description: None,
            nodes: ["a", "b"].map(NodeDef::from_label).to_vec(),
            edges: vec![(0, 1), (1, 0)],
        };
        let report = Check::new(&def, EXAMPLES).unwrap();
        assert_eq!(report.cycle, Some(vec!["a".to_owned(), "b".to_owned()]));
        assert!(!report.is_lattice());
        assert_eq!(report.laws, None);
    }

    #[test]
    fn large_graphs_are_sampled() {
        let chain = |n| Table::new(n, |a: Node, b: Node| Some(a.max(b)));
        let laws = verify_laws(&chain(20), 10);
        assert!(!laws.exhaustive);
        // The budget of 10 nodes, 220 triples, as 11 pairs of 20 triples.
        assert_eq!((laws.pairs, laws.triples), (400, 220));
        assert_eq!(laws.not_associative, None);
        assert_eq!(verify_laws(&chain(10), 10).triples, 220);
    }
}
