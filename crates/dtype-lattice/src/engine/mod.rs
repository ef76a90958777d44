//! The lattice engine. It knows nothing of dtypes: nodes are indices with
//! labels, edges say "may promote to", and the engine checks that a graph is
//! a partial order, computes every join once into a table, and explains a
//! pair (its upper bounds, their least one, a shortest path to it).
//!
//! ```
//! use dtype_lattice::engine::Lattice;
//!
//! let lattice = Lattice::from_dict(&[
//!     ("bool", &["int"][..]),
//!     ("int", &["float"]),
//!     ("float", &["complex"]),
//! ])
//! .unwrap();
//! let (int, complex) = (lattice.node("int").unwrap(), lattice.node("complex").unwrap());
//! assert_eq!(lattice.join(int, complex), Some(complex));
//! ```

mod explain;
mod hasse;
mod lattice;

pub use explain::{common_upper_bounds, shortest_path, Explanation};
pub use hasse::transitive_reduction;
pub use lattice::{
    Ambiguity, Bound, GraphError, Joins, Lattice, LatticeError, LawViolation, Limits, Node, Poset,
    MAX_NODES,
};
