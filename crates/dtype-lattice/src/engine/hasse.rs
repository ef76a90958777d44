//! The Hasse diagram of a promotion graph: the edges left once every edge
//! implied by a longer path is dropped (the transitive reduction).
//!
//! A lattice file may say both `int8 -> int16 -> int32` and `int8 -> int32`;
//! the last edge adds no promotion, and drawn it only clutters the picture.
//! The Hasse diagram keeps exactly the edges `u -> v` with no other route
//! from `u` to `v`, so it has the same order (and the same joins) with the
//! fewest edges.
//!
//! ```
//! use dtype_lattice::engine::transitive_reduction;
//! use dtype_lattice::engine::Poset;
//!
//! let poset = Poset::from_dict(&[
//!     ("int8", &["int16", "int32"][..]),
//!     ("int16", &["int32"]),
//! ])
//! .unwrap();
//! let hasse = transitive_reduction(&poset);
//! let edges: Vec<_> = hasse.edges().map(|(a, b)| (hasse.label(a), hasse.label(b))).collect();
//! assert_eq!(edges, [("int8", "int16"), ("int16", "int32")]);
//! ```

use crate::engine::{Node, Poset};
use crate::prelude::*;

/// The Hasse diagram of `poset`: the same nodes and order, with only the
/// edges `u -> v` that no other path from `u` to `v` implies.
///
/// An edge `u -> v` is implied exactly when another successor `w` of `u`
/// has `w <= v`, which the poset's upper-bound sets answer in O(1); the
/// cost is O(sum of squared out-degrees) plus rebuilding the poset.
pub fn transitive_reduction(poset: &Poset) -> Poset {
    let edges = (0..poset.len()).flat_map(|u| covers(poset, u).map(move |v| (u, v)));
    Poset::new(poset.labels().iter().map(String::as_str), edges)
        .expect("a subgraph of a DAG with the same labels is a DAG")
}

/// The successors of `u` that no other successor of `u` lies below.
fn covers(poset: &Poset, u: Node) -> impl Iterator<Item = Node> + '_ {
    let successors = poset.successors(u);
    successors
        .iter()
        .copied()
        .filter(move |&v| !successors.iter().any(|&w| w != v && poset.leq(w, v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_keeps_the_order() {
        let poset =
            Poset::from_dict(&[("a", &["b", "c", "d"][..]), ("b", &["d"]), ("c", &["d"])]).unwrap();
        let hasse = transitive_reduction(&poset);
        assert_eq!(hasse.edges().count(), 4);
        for a in 0..poset.len() {
            for b in 0..poset.len() {
                assert_eq!(hasse.leq(a, b), poset.leq(a, b));
            }
        }
    }
}
