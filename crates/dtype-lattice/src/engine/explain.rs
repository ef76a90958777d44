//! Why two types promote to what they do: the design notebook's "trace the
//! graph to the first common child", step by step.
//!
//! An [`Explanation`] of a pair holds each input's upper-bound set (every
//! type it may promote to, itself included), the bounds they share, the
//! outcome (the least common bound, none at all, or several minimal ones)
//! and, when there is a join, a shortest path of edges from each input to
//! it. It works on any graph without cycles, lattice or not, so it also
//! says *why* a sketch is not a lattice.
//!
//! ```
//! use dtype_lattice::engine::Explanation;
//! use dtype_lattice::engine::{Bound, Poset};
//!
//! let poset = Poset::from_dict(&[
//!     ("i*", &["u8", "i8"][..]),
//!     ("u8", &["u16", "i16"]),
//!     ("i8", &["i16"]),
//! ])
//! .unwrap();
//! let (u8_, i8_) = (poset.node("u8").unwrap(), poset.node("i8").unwrap());
//! let why = Explanation::new(&poset, u8_, i8_);
//! let names = |nodes: &[usize]| nodes.iter().map(|&n| poset.label(n)).collect::<Vec<_>>();
//! assert_eq!(names(&why.common), ["i16"]);
//! assert_eq!(why.bound, Bound::Least(poset.node("i16").unwrap()));
//! let [from_u8, from_i8] = why.paths.unwrap();
//! assert_eq!(names(&from_u8), ["u8", "i16"]);
//! assert_eq!(names(&from_i8), ["i8", "i16"]);
//! ```
//!
//! [`design::explain`](crate::design::explain) names nodes as people
//! write them and adds the rules' error for a pair with no join.

use alloc::collections::VecDeque;

use crate::engine::{Bound, Node, Poset};
use crate::prelude::*;

/// The reasoning behind the promotion of two nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The two nodes, as given.
    pub inputs: [Node; 2],
    /// Each input's upper-bound set (itself and every node it reaches), in
    /// topological order.
    pub upper_bounds: [Vec<Node>; 2],
    /// The upper bounds the inputs share, in topological order.
    pub common: Vec<Node>,
    /// The least common upper bound, or why there is none.
    pub bound: Bound,
    /// When there is a least bound: a shortest path of edges from each
    /// input to it, both ends included.
    pub paths: Option<[Vec<Node>; 2]>,
}

impl Explanation {
    /// Explains the promotion of `a` with `b` in `poset`. A node out of
    /// range has no upper bounds, so the pair has no join.
    pub fn new(poset: &Poset, a: Node, b: Node) -> Explanation {
        let bound = poset.least_upper_bound(a, b);
        let paths = match bound {
            Bound::Least(join) => shortest_path(poset, a, join)
                .zip(shortest_path(poset, b, join))
                .map(<[Vec<Node>; 2]>::from),
            Bound::None | Bound::Ambiguous(_) => None,
        };
        Explanation {
            inputs: [a, b],
            upper_bounds: [a, b].map(|n| poset.upper_bounds(n).collect()),
            common: common_upper_bounds(poset, a, b).collect(),
            bound,
            paths,
        }
    }
}

/// The nodes above both `a` and `b` (each included), in topological order.
///
/// ```
/// use dtype_lattice::engine::common_upper_bounds;
/// use dtype_lattice::engine::Poset;
///
/// let poset = Poset::from_dict(&[("a", &["c"][..]), ("b", &["c"]), ("c", &["d"])]).unwrap();
/// let [a, b] = ["a", "b"].map(|l| poset.node(l).unwrap());
/// let common: Vec<&str> = common_upper_bounds(&poset, a, b).map(|n| poset.label(n)).collect();
/// assert_eq!(common, ["c", "d"]);
/// ```
///
/// None when either is out of range.
pub fn common_upper_bounds(poset: &Poset, a: Node, b: Node) -> impl Iterator<Item = Node> + '_ {
    poset.upper_bounds(a).filter(move |&c| poset.leq(b, c))
}

/// A shortest path of edges from `from` to `to` (both included), or `None`
/// if `to` is not reachable. Among shortest paths it takes the one whose
/// nodes come first in the graph's order, so the answer is stable.
///
/// ```
/// use dtype_lattice::engine::shortest_path;
/// use dtype_lattice::engine::Poset;
///
/// let poset = Poset::from_dict(&[
///     ("i8", &["i16", "f32"][..]),
///     ("i16", &["i32"]),
///     ("i32", &["f32"]),
/// ])
/// .unwrap();
/// let [i8_, f32_] = ["i8", "f32"].map(|l| poset.node(l).unwrap());
/// let path: Vec<&str> = shortest_path(&poset, i8_, f32_).unwrap().iter().map(|&n| poset.label(n)).collect();
/// assert_eq!(path, ["i8", "f32"]);
/// assert_eq!(shortest_path(&poset, f32_, i8_), None);
/// ```
pub fn shortest_path(poset: &Poset, from: Node, to: Node) -> Option<Vec<Node>> {
    let n = poset.len();
    if from >= n || to >= n {
        return None;
    }
    // Breadth-first from `from`, pruned to nodes that can still reach `to`.
    let mut previous: Vec<Option<Node>> = vec![None; n];
    let mut queue = VecDeque::from([from]);
    let mut seen = vec![false; n];
    seen[from] = true;
    while let Some(node) = queue.pop_front() {
        if node == to {
            let mut path = vec![to];
            let mut at = to;
            while let Some(before) = previous[at] {
                path.push(before);
                at = before;
            }
            path.reverse();
            return Some(path);
        }
        for &next in poset.successors(node) {
            if !seen[next] && poset.leq(next, to) {
                seen[next] = true;
                previous[next] = Some(node);
                queue.push_back(next);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sketch_without_a_least_bound_has_no_paths() {
        let poset = Poset::from_dict(&[("A", &["C", "D"][..]), ("B", &["C", "D"])]).unwrap();
        let [a, b, c, d] = ["A", "B", "C", "D"].map(|l| poset.node(l).unwrap());
        let why = Explanation::new(&poset, a, b);
        assert_eq!(why.bound, Bound::Ambiguous(vec![c, d]));
        assert_eq!(why.paths, None);
    }
}
