//! Drawings: the Hasse diagram of a promotion graph as Graphviz DOT or as an
//! SVG laid out here (no Graphviz needed), coloured by kind, weak types
//! dashed, optionally with a pair, its join and the paths to it marked.
//! What `graph` prints, and what the Python package and the explorer show.

use crate::design::Error;
use std::collections::HashSet;
use std::fmt::Write;

use crate::design::{Definition, NodeDef};
use crate::engine::transitive_reduction;
use crate::engine::{shortest_path, Explanation};
use crate::engine::{Bound, Node, Poset};
use crate::types::Kind;

pub use crate::design::layout::{TooLarge, MAX_VERTICES};

/// What a node is, for colour and grouping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    Bool,
    Unsigned,
    Signed,
    Float,
    Complex,
    Weak,
    Opaque,
}

impl Category {
    const ALL: [Category; 7] = [
        Category::Bool,
        Category::Unsigned,
        Category::Signed,
        Category::Float,
        Category::Complex,
        Category::Weak,
        Category::Opaque,
    ];

    fn of(node: &NodeDef) -> Category {
        if node.weak {
            return Category::Weak;
        }
        match node.dtype.map(|d| d.kind()) {
            Some(Kind::Bool) => Category::Bool,
            Some(Kind::Unsigned) => Category::Unsigned,
            Some(Kind::Signed) => Category::Signed,
            Some(Kind::Float) => Category::Float,
            Some(Kind::Complex) => Category::Complex,
            None => Category::Opaque,
        }
    }

    /// The class name in DOT and SVG.
    fn name(self) -> &'static str {
        match self {
            Category::Bool => "bool",
            Category::Unsigned => "unsigned",
            Category::Signed => "signed",
            Category::Float => "float",
            Category::Complex => "complex",
            Category::Weak => "weak",
            Category::Opaque => "opaque",
        }
    }

    fn legend(self) -> &'static str {
        match self {
            Category::Bool => "bool",
            Category::Unsigned => "unsigned integer",
            Category::Signed => "signed integer",
            Category::Float => "floating point",
            Category::Complex => "complex",
            Category::Weak => "weak type (Python scalar)",
            Category::Opaque => "other node",
        }
    }

    /// Fill and outline colours.
    fn colours(self) -> (&'static str, &'static str) {
        match self {
            Category::Bool => ("#e6e6e6", "#6b6b6b"),
            Category::Unsigned => ("#d3e4f5", "#2f6aa3"),
            Category::Signed => ("#d5efd0", "#2f7d32"),
            Category::Float => ("#fde3c3", "#b85c00"),
            Category::Complex => ("#e8d9f2", "#7440a0"),
            Category::Weak => ("#fff6bf", "#9c8200"),
            Category::Opaque => ("#ffffff", "#555555"),
        }
    }

    /// Vertical order of kinds where the layout has no other preference:
    /// complex above the floats they come from, signed above unsigned,
    /// as in JAX's figure.
    fn band(self) -> usize {
        match self {
            Category::Complex => 0,
            Category::Weak => 1,
            Category::Signed => 2,
            Category::Bool => 3,
            Category::Float => 4,
            Category::Unsigned => 5,
            Category::Opaque => 6,
        }
    }
}

/// Colour of everything highlighted.
const MARK: &str = "#d62728";
const EDGE: &str = "#8c8c8c";
const FONT: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";
const FONT_SIZE: f64 = 12.0;
const NODE_HEIGHT: f64 = 24.0;

/// A pair marked on the drawing.
struct Highlight {
    inputs: [Node; 2],
    /// The join, or the minimal common upper bounds of an ambiguous pair.
    targets: Vec<Node>,
    /// The targets' class: `join`, or `candidate` for an ambiguous pair.
    role: &'static str,
    /// Hasse edges on the shortest paths from the inputs to the targets.
    edges: HashSet<(Node, Node)>,
    caption: String,
}

/// What a drawing's highlight marks ([`Drawing::marks`]), by label: the
/// SVG gives nodes `data-label` and edges `data-from` and `data-to`, and
/// these are the values to find.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    /// The pair (class `input`).
    pub inputs: [String; 2],
    /// The join, or an ambiguous pair's minimal common upper bounds; none
    /// for a pair with no common upper bound.
    pub targets: Vec<String>,
    /// The targets' class: `join`, or `candidate` when they are an
    /// ambiguous pair's.
    pub role: &'static str,
    /// The drawn edges on the shortest paths from the pair to the targets
    /// (class `path`), as `[from, to]`, in node order.
    pub edges: Vec<[String; 2]>,
    /// The sentence the drawing's caption shows.
    pub caption: String,
}

/// The pair to mark in a drawing, written `A,B` as the command line's
/// `--highlight` and the explorer's `highlight=` take it: two labels or
/// type names around one comma, spaces trimmed.
///
/// ```
/// use dtype_lattice::design::graph::pair;
/// assert_eq!(pair(" int8, uint8 "), Ok(["int8", "uint8"]));
/// assert_eq!(
///     pair("int8").unwrap_err().to_string(),
///     "expected two types separated by a comma, such as int8,uint8; got 'int8'"
/// );
/// ```
pub fn pair(text: &str) -> Result<[&str; 2], Error> {
    match text.split_once(',').map(|(a, b)| (a.trim(), b.trim())) {
        Some((a, b)) if !a.is_empty() && !b.is_empty() && !b.contains(',') => Ok([a, b]),
        _ => Err(Error::BadPair(BadPair {
            given: text.to_owned(),
        })),
    }
}

/// A highlight that is not two types around one comma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadPair {
    given: String,
}

impl std::fmt::Display for BadPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "expected two types separated by a comma, such as int8,uint8; got {}",
            crate::text::quote(&self.given, '\'')
        )
    }
}

impl std::error::Error for BadPair {}

/// A promotion graph ready to draw.
pub struct Drawing {
    name: String,
    nodes: Vec<NodeDef>,
    hasse: Poset,
    highlight: Option<Highlight>,
}

impl Drawing {
    /// The Hasse diagram of `definition` (validated as `poset`), with the
    /// pair `highlight` marked if given.
    pub fn new(
        definition: &Definition,
        poset: &Poset,
        highlight: Option<[&str; 2]>,
    ) -> Result<Drawing, Error> {
        let hasse = transitive_reduction(poset);
        let highlight = match highlight {
            Some([a, b]) => Some(Self::highlight(
                &hasse,
                [definition.resolve(a)?, definition.resolve(b)?],
            )),
            None => None,
        };
        Ok(Drawing {
            name: definition.name.clone(),
            nodes: definition.nodes.clone(),
            hasse,
            highlight,
        })
    }

    /// The marks for a pair; paths follow the drawn (Hasse) edges.
    fn highlight(hasse: &Poset, inputs: [Node; 2]) -> Highlight {
        let why = Explanation::new(hasse, inputs[0], inputs[1]);
        let [a, b] = inputs.map(|n| hasse.label(n));
        let (targets, role, caption) = match &why.bound {
            Bound::Least(join) => (
                vec![*join],
                "join",
                format!("{a} ∨ {b} = {}", hasse.label(*join)),
            ),
            Bound::None => (
                Vec::new(),
                "join",
                format!("{a} and {b} have no common upper bound"),
            ),
            Bound::Ambiguous(candidates) => (
                candidates.clone(),
                "candidate",
                format!(
                    "{a} and {b} have {} minimal common upper bounds and no join",
                    candidates.len()
                ),
            ),
        };
        let edges = inputs
            .iter()
            .flat_map(|&from| targets.iter().map(move |&to| (from, to)))
            .filter_map(|(from, to)| shortest_path(hasse, from, to))
            .flat_map(|path| path.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>())
            .collect();
        Highlight {
            inputs,
            targets,
            role,
            edges,
            caption,
        }
    }

    /// What the highlight marks, by label, if a pair was given: for a
    /// front end that shows one drawing (without a highlight) and marks
    /// pair after pair on it, as the explorer's static export does, rather
    /// than drawing it again for each pair.
    ///
    /// ```
    /// use dtype_lattice::design::graph::Drawing;
    /// use dtype_lattice::design::Definition;
    /// use dtype_lattice::frameworks::jax::Jax;
    ///
    /// let jax = Definition::from_policy(&Jax::default()).unwrap();
    /// let poset = jax.poset().unwrap();
    /// let drawing = Drawing::new(&jax, &poset, Some(["int8", "uint8"])).unwrap();
    /// let marks = drawing.marks().unwrap();
    /// assert_eq!((marks.targets.as_slice(), marks.role), (&["int16".to_owned()][..], "join"));
    /// assert_eq!(marks.edges, [["uint8", "int16"], ["int8", "int16"]]);
    /// assert!(Drawing::new(&jax, &poset, None).unwrap().marks().is_none());
    /// ```
    pub fn marks(&self) -> Option<Marks> {
        Some(self.marks_from(self.highlight.as_ref()?))
    }

    /// What a drawing of `definition` with the pair `highlight` marked would
    /// mark ([`marks`](Drawing::marks)), found on this drawing of it without
    /// drawing it again: marking every pair of a lattice takes one drawing.
    ///
    /// ```
    /// use dtype_lattice::design::graph::Drawing;
    /// use dtype_lattice::design::Definition;
    /// use dtype_lattice::frameworks::jax::Jax;
    ///
    /// let jax = Definition::from_policy(&Jax::default()).unwrap();
    /// let poset = jax.poset().unwrap();
    /// let drawing = Drawing::new(&jax, &poset, None).unwrap();
    /// let pair = ["int8", "uint8"];
    /// let highlighted = Drawing::new(&jax, &poset, Some(pair)).unwrap();
    /// assert_eq!(drawing.marks_of(&jax, pair).unwrap(), highlighted.marks().unwrap());
    /// assert!(drawing.marks_of(&jax, ["int8", "int9"]).is_err());
    /// ```
    pub fn marks_of(&self, definition: &Definition, highlight: [&str; 2]) -> Result<Marks, Error> {
        let [a, b] = highlight;
        let inputs = [definition.resolve(a)?, definition.resolve(b)?];
        Ok(self.marks_from(&Self::highlight(&self.hasse, inputs)))
    }

    fn marks_from(&self, h: &Highlight) -> Marks {
        let label = |node: Node| self.nodes[node].label.clone();
        let mut edges: Vec<(Node, Node)> = h.edges.iter().copied().collect();
        edges.sort_unstable();
        Marks {
            inputs: h.inputs.map(label),
            targets: h.targets.iter().map(|&n| label(n)).collect(),
            role: h.role,
            edges: edges
                .into_iter()
                .map(|(a, b)| [label(a), label(b)])
                .collect(),
            caption: h.caption.clone(),
        }
    }

    /// How many edges the diagram draws.
    pub fn edge_count(&self) -> usize {
        self.hasse.edges().count()
    }

    /// Whether `node` is an input, and its class if it is a join or a
    /// candidate.
    fn node_marks(&self, node: Node) -> (bool, Option<&'static str>) {
        self.highlight.as_ref().map_or((false, None), |h| {
            (
                h.inputs.contains(&node),
                h.targets.contains(&node).then_some(h.role),
            )
        })
    }

    fn on_path(&self, edge: (Node, Node)) -> bool {
        self.highlight
            .as_ref()
            .is_some_and(|h| h.edges.contains(&edge))
    }

    fn title(&self) -> String {
        format!(
            "Hasse diagram of {}: {} nodes, {} edges",
            self.name,
            self.nodes.len(),
            self.edge_count()
        )
    }
}

mod dot;
mod svg;
#[cfg(test)]
mod tests;
