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
//! use dtype_lattice::explain::Explanation;
//! use dtype_lattice::lattice::{Bound, Poset};
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
//! Inputs are named the way people write them: a [`Definition`] resolves a
//! node label, a dtype name or alias, or a Python scalar type:
//!
//! ```
//! use dtype_lattice::definition::Definition;
//! use dtype_lattice::jax::Jax;
//!
//! let jax = Definition::from_lattice("jax", Jax::default().lattice());
//! assert_eq!(jax.resolve("f4"), jax.resolve("float32"));
//! assert_eq!(jax.resolve("float"), jax.resolve("f*"));
//! let err = jax.resolve("unit8").unwrap_err();
//! assert_eq!(err.to_string(), "no node 'unit8' in jax: did you mean 'uint8'?");
//! ```

use std::collections::VecDeque;
use std::fmt;

use crate::definition::Definition;
use crate::dtype::{edit_distance, DType};
use crate::lattice::{Bound, Node, Poset};
use crate::operand::{PyScalar, TypeSpec};

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
    /// Explains the promotion of `a` with `b` in `poset`.
    ///
    /// # Panics
    ///
    /// If `a` or `b` is not a node of `poset`.
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
/// use dtype_lattice::explain::common_upper_bounds;
/// use dtype_lattice::lattice::Poset;
///
/// let poset = Poset::from_dict(&[("a", &["c"][..]), ("b", &["c"]), ("c", &["d"])]).unwrap();
/// let [a, b] = ["a", "b"].map(|l| poset.node(l).unwrap());
/// let common: Vec<&str> = common_upper_bounds(&poset, a, b).map(|n| poset.label(n)).collect();
/// assert_eq!(common, ["c", "d"]);
/// ```
///
/// # Panics
///
/// If `a` or `b` is not a node of `poset`.
pub fn common_upper_bounds(poset: &Poset, a: Node, b: Node) -> impl Iterator<Item = Node> + '_ {
    poset.upper_bounds(a).filter(move |&c| poset.leq(b, c))
}

/// A shortest path of edges from `from` to `to` (both included), or `None`
/// if `to` is not reachable. Among shortest paths it takes the one whose
/// nodes come first in the graph's order, so the answer is stable.
///
/// ```
/// use dtype_lattice::explain::shortest_path;
/// use dtype_lattice::lattice::Poset;
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

impl Definition {
    /// The node an input names, tried in this order: a node label as
    /// written; Python's `int`, `float`, `complex` (or `i*`, `f*`, `c*`) as
    /// the node labelled `i*`, `f*`, `c*`; any dtype name or alias
    /// [`DType::from_name`] accepts, as the node of that dtype.
    ///
    /// Fails with the nearest label when nothing matches.
    pub fn resolve(&self, input: &str) -> Result<Node, UnknownNode> {
        if let Some(node) = self.node(input) {
            return Ok(node);
        }
        let weak = PyScalar::from_name(input)
            .filter(|&scalar| scalar != PyScalar::Bool)
            .and_then(|scalar| self.node(scalar.label()));
        let dtype = || {
            let dtype = DType::from_name(input).ok()?;
            self.nodes.iter().position(|n| n.dtype == Some(dtype))
        };
        weak.or_else(dtype).ok_or_else(|| UnknownNode {
            input: input.to_owned(),
            subject: self.name.clone(),
            suggestion: self.nearest_label(input),
        })
    }

    /// The type a node stands for, as `promote_types` takes it: its dtype,
    /// or for a weak node labelled `i*`, `f*` or `c*`, that Python type.
    /// `None` for opaque nodes.
    ///
    /// ```
    /// use dtype_lattice::definition::Definition;
    /// use dtype_lattice::jax::Jax;
    /// use dtype_lattice::{DType, PyScalar, TypeSpec};
    ///
    /// let jax = Definition::from_lattice("jax", Jax::default().lattice());
    /// assert_eq!(jax.type_spec(jax.resolve("i1").unwrap()), Some(TypeSpec::DType(DType::Int8)));
    /// assert_eq!(jax.type_spec(jax.resolve("c*").unwrap()), Some(TypeSpec::Python(PyScalar::Complex)));
    /// ```
    pub fn type_spec(&self, node: Node) -> Option<TypeSpec> {
        let def = self.nodes.get(node)?;
        match def.dtype {
            Some(dtype) => Some(TypeSpec::DType(dtype)),
            None if def.weak => PyScalar::from_name(&def.label).map(TypeSpec::Python),
            None => None,
        }
    }

    fn nearest_label(&self, input: &str) -> Option<String> {
        // Beyond this length an input is not a typo of a label, and the
        // quadratic distance would only cost time.
        const LONGEST_PLAUSIBLE: usize = 64;
        let length = input.chars().count();
        if length > LONGEST_PLAUSIBLE {
            return None;
        }
        let (distance, label) = self
            .nodes
            .iter()
            .map(|n| (edit_distance(input, &n.label), &n.label))
            .min_by_key(|&(distance, _)| distance)?;
        (distance <= (length / 3).max(1)).then(|| label.clone())
    }
}

/// An input that names no node of a [`Definition`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNode {
    input: String,
    subject: String,
    suggestion: Option<String>,
}

impl UnknownNode {
    /// The input that matched nothing.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The label the input most resembles, if one is close.
    pub fn suggestion(&self) -> Option<&str> {
        self.suggestion.as_deref()
    }
}

impl fmt::Display for UnknownNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no node '{}' in {}",
            self.input.escape_debug(),
            self.subject
        )?;
        match &self.suggestion {
            Some(label) => write!(f, ": did you mean '{label}'?"),
            None => write!(
                f,
                ": give a node label, a dtype name or alias, or int, float, complex"
            ),
        }
    }
}

impl std::error::Error for UnknownNode {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jax::{Config, Jax};

    #[test]
    fn inputs_resolve_by_label_alias_and_python_type() {
        let jax = Definition::from_lattice("jax", Jax::new(Config::default()).lattice());
        let node = |label| jax.node(label).unwrap();
        assert_eq!(jax.resolve("int"), Ok(node("i*")));
        assert_eq!(jax.resolve("complex"), Ok(node("c*")));
        assert_eq!(jax.resolve("bool"), Ok(node("bool")));
        assert_eq!(jax.resolve("<c8"), Ok(node("complex64")));
        assert_eq!(jax.resolve("double"), Ok(node("float64")));
        let err = jax.resolve("nothing-like-it").unwrap_err();
        assert_eq!(err.suggestion(), None);
        assert_eq!(err.input(), "nothing-like-it");
        assert!(jax.resolve(&"x".repeat(10_000)).is_err());
    }

    #[test]
    fn opaque_sketches_resolve_by_label_only() {
        let poset = Poset::from_dict(&[("A", &["C", "D"][..]), ("B", &["C", "D"])]).unwrap();
        let lattice_free = Definition {
            name: "sketch".into(),
            description: None,
            nodes: poset
                .labels()
                .iter()
                .map(|l| crate::definition::NodeDef::from_label(l))
                .collect(),
            edges: poset.edges().collect(),
        };
        let [a, b, c, d] = ["A", "B", "C", "D"].map(|l| poset.node(l).unwrap());
        assert_eq!(lattice_free.resolve("C"), Ok(c));
        assert_eq!(lattice_free.type_spec(c), None);
        assert_eq!(
            lattice_free.resolve("int8").unwrap_err().to_string(),
            "no node 'int8' in sketch: give a node label, a dtype name or alias, or int, float, complex"
        );
        let why = Explanation::new(&poset, a, b);
        assert_eq!(why.bound, Bound::Ambiguous(vec![c, d]));
        assert_eq!(why.paths, None);
    }
}
