//! The lattice engine: from "may promote to" edges to a verified join table,
//! and a pair explained (its upper bounds, their least one, a shortest path
//! to it).
//!
//! The engine knows nothing of dtypes. A graph is a list of node labels and
//! directed edges `a -> b` meaning "a may promote to b". Building goes in two
//! steps, each of which can refuse with a precise reason:
//!
//! 1. [`Poset::new`] checks the graph is a DAG (no edge to itself, no cycle;
//!    a cycle is reported with the nodes on it) and computes, for every node,
//!    its *upper-bound set*: the node and everything reachable from it.
//! 2. [`Lattice::new`] computes the join (least upper bound) of every pair and
//!    refuses if some pair has common upper bounds but no least one (the pair
//!    is *ambiguous*; the error names its minimal common upper bounds). Pairs
//!    with no common upper bound at all are allowed: JAX's lattice is such a
//!    *partial* lattice, and [`Lattice::unbounded_pairs`] lists them.
//!
//! After that a join is a table load, and joining many nodes allocates
//! nothing.
//!
//! ```
//! use dtype_lattice::engine::Lattice;
//!
//! // Python's numeric tower: bool -> int -> float -> complex.
//! let lattice = Lattice::from_dict(&[
//!     ("bool", &["int"]),
//!     ("int", &["float"]),
//!     ("float", &["complex"]),
//! ])
//! .unwrap();
//! let int = lattice.node("int").unwrap();
//! let float = lattice.node("float").unwrap();
//! assert_eq!(lattice.join(int, float), Some(float));
//! assert_eq!(lattice.label(float), "float");
//! ```
//!
//! A graph that is not a lattice is refused with the reason:
//!
//! ```
//! use dtype_lattice::engine::{Lattice, LatticeError};
//!
//! // Integers that promote to floats of twice their width: {i8, u8} has two
//! // minimal common upper bounds, i16 and f16.
//! let err = Lattice::from_dict(&[
//!     ("i8", &["i16", "f16"]),
//!     ("u8", &["i16", "f16"]),
//!     ("i16", &["f32"]),
//!     ("f16", &["f32"]),
//! ])
//! .unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "not a lattice: {i8, u8} has 2 minimal common upper bounds (i16, f16) and no least one"
//! );
//! ```
//!
//! # Algorithm and cost
//!
//! For n nodes and e edges (n at most [`MAX_NODES`]):
//!
//! - Nodes are ranked in a topological order (Kahn's algorithm, O(n + e));
//!   a cycle is found and named on the way.
//! - Upper-bound sets are bit sets over ranks, filled in reverse
//!   topological order as the union of the successors' sets: O(e · n / 64)
//!   word operations.
//! - Joins are filled row by row in reverse topological order (see
//!   [`Joins::new`]): the join of `a` and `b` is `a` if `b ≤ a`, else the
//!   least of the joins of `a`'s successors with `b`, checked with one bit
//!   test per successor, O(out-degree) per pair. Pairs where that cannot
//!   decide, and rows of nodes with many successors, use the bit sets
//!   instead: for a pair the common upper bounds are the intersection of
//!   two rows; if a least element exists it precedes every other common
//!   bound in topological order, so it is the lowest set bit, and it is
//!   least exactly when every common bound lies in its own upper-bound set,
//!   O(n / 64). In all, O(n² · min(d, n / 64)) for out-degree d.
//! - [`Lattice::verify_laws`] re-checks the result exhaustively in
//!   O(n² · n / 64).
//!
//! Memory: n · n bits of closure plus the n · n table of `u16`, besides the
//! graph itself (labels and edge lists). BENCHMARKS.md has the measurements:
//! 1,024 nodes compile in milliseconds and 4,096 in well under a second.
//!
//! # Files
//!
//! `poset.rs` (validation, upper-bound sets, [`Poset::least_upper_bound`]),
//! `joins.rs` (the table of every pair's join, [`Joins`]), `lattice.rs`
//! ([`Lattice`]), `error.rs` (why a graph is refused), the private
//! `fill.rs` (the fast paths of filling the table: threads, successors'
//! joins, mirroring), `explain.rs` (bounds and shortest paths) and
//! `hasse.rs` (transitive reduction).

mod error;
mod explain;
mod fill;
mod hasse;
mod joins;
mod lattice;
mod poset;

pub use error::{Ambiguity, GraphError, LatticeError, LawViolation, MAX_CANDIDATES};
pub use explain::{common_upper_bounds, shortest_path, Explanation};
pub use hasse::transitive_reduction;
pub use joins::Joins;
pub use lattice::Lattice;
pub use poset::{Bound, Limits, Node, Poset, MAX_NODES};
