//! Drawings: the Hasse diagram of a promotion graph as Graphviz DOT or as an
//! SVG laid out here (no Graphviz needed), coloured by kind, weak types
//! dashed, optionally with a pair, its join and the paths to it marked.
//! What `graph` prints, and what the Python package and the explorer show.

use std::collections::HashSet;
use std::fmt::Write;

use crate::design::explain::UnknownNode;
use crate::design::{Definition, NodeDef};
use crate::engine::transitive_reduction;
use crate::engine::{shortest_path, Explanation};
use crate::engine::{Bound, Node, Poset};
use crate::types::Kind;

use crate::design::layout::{layout, Point, Vertex};
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
pub fn pair(text: &str) -> Result<[&str; 2], BadPair> {
    match text.split_once(',').map(|(a, b)| (a.trim(), b.trim())) {
        Some((a, b)) if !a.is_empty() && !b.is_empty() && !b.contains(',') => Ok([a, b]),
        _ => Err(BadPair {
            given: text.to_owned(),
        }),
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
    ) -> Result<Drawing, UnknownNode> {
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
        let h = self.highlight.as_ref()?;
        let label = |node: Node| self.nodes[node].label.clone();
        let mut edges: Vec<(Node, Node)> = h.edges.iter().copied().collect();
        edges.sort_unstable();
        Some(Marks {
            inputs: h.inputs.map(label),
            targets: h.targets.iter().map(|&n| label(n)).collect(),
            role: h.role,
            edges: edges
                .into_iter()
                .map(|(a, b)| [label(a), label(b)])
                .collect(),
            caption: h.caption.clone(),
        })
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

    /// The diagram in Graphviz's DOT language, left to right like JAX's
    /// figure. Node and edge `class` attributes name the kind and the
    /// highlight roles (`input`, `join` or `candidate`, `path`).
    ///
    /// Any label stays valid DOT and distinct labels stay distinct nodes:
    /// node IDs are quoted with control characters written as escapes
    /// (`\u{0}`) and backslashes doubled, and a label holding a control
    /// character or `&` gets a `label=` showing it as written (control
    /// characters as their escapes).
    pub fn dot(&self) -> String {
        let mut out = String::new();
        let title = self.title();
        let label = match &self.highlight {
            Some(h) => dot_label([title.as_str(), h.caption.as_str()]),
            None => dot_label([title.as_str()]),
        };
        let _ = writeln!(out, "digraph {} {{", dot_id(&self.name));
        let _ = writeln!(
            out,
            "  graph [rankdir=LR, labelloc=t, fontname=\"Helvetica\", label={label}];"
        );
        let _ = writeln!(
            out,
            "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11, height=0.3];"
        );
        let _ = writeln!(out, "  edge [color=\"{EDGE}\", arrowsize=0.6];");
        for (node, def) in self.nodes.iter().enumerate() {
            let category = Category::of(def);
            let (fill, stroke) = category.colours();
            let (input, target) = self.node_marks(node);
            let mut classes = vec![category.name()];
            let style = if def.weak {
                "rounded,filled,dashed"
            } else {
                "rounded,filled"
            };
            let mut extra = String::new();
            if input {
                classes.push("input");
            }
            classes.extend(target);
            if input || target.is_some() {
                let _ = write!(extra, ", penwidth=2.5, color=\"{MARK}\"");
                if target.is_some() {
                    extra.push_str(", peripheries=2");
                }
            } else {
                let _ = write!(extra, ", color=\"{stroke}\"");
            }
            if needs_dot_label(&def.label) {
                let _ = write!(extra, ", label={}", dot_label([def.label.as_str()]));
            }
            let _ = writeln!(
                out,
                "  {} [class=\"{}\", style=\"{style}\", fillcolor=\"{fill}\"{extra}];",
                dot_id(&def.label),
                classes.join(" ")
            );
        }
        for (from, to) in self.hasse.edges() {
            let attributes = if self.on_path((from, to)) {
                format!(" [class=\"path\", color=\"{MARK}\", penwidth=2.2]")
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "  {} -> {}{attributes};",
                dot_id(&self.nodes[from].label),
                dot_id(&self.nodes[to].label)
            );
        }
        out.push_str("}\n");
        out
    }

    /// A standalone SVG drawing: one `<g class="node ...">` per node, one
    /// `<path class="edge ...">` per edge, a title and a legend. Refused for
    /// graphs too large to lay out here (see [`MAX_VERTICES`]).
    pub fn svg(&self) -> Result<String, TooLarge> {
        let vertices: Vec<Vertex> = self
            .nodes
            .iter()
            .map(|def| Vertex {
                width: text_width(&def.label) + 20.0,
                height: NODE_HEIGHT,
                band: Category::of(def).band(),
            })
            .collect();
        let placed = layout(&self.hasse, &vertices)?;
        let header = if self.highlight.is_some() { 48.0 } else { 32.0 };
        let present: Vec<Category> = Category::ALL
            .into_iter()
            .filter(|c| self.nodes.iter().any(|n| Category::of(n) == *c))
            .collect();
        let legend = Legend::new(&present, self.highlight.as_ref(), placed.size.0 - 32.0);
        let width = placed
            .size
            .0
            .max(legend.width + 32.0)
            .max(text_width(&self.title()) + 32.0);
        let height = header + placed.size.1 + legend.height;
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="{FONT}" font-size="{FONT_SIZE}">"#,
            w = width,
            h = height
        );
        let _ = writeln!(out, "<title>{}</title>", xml(&self.title()));
        let _ = writeln!(out, "<defs>");
        for (id, colour) in [("arrow", EDGE), ("arrow-path", MARK)] {
            let _ = writeln!(
                out,
                r#"<marker id="{id}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto"><path d="M0,1 L10,5 L0,9 z" fill="{colour}"/></marker>"#
            );
        }
        let _ = writeln!(out, "</defs>");
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            out,
            r#"<text class="title" x="16" y="22" font-size="14" font-weight="bold">{}</text>"#,
            xml(&self.title())
        );
        if let Some(h) = &self.highlight {
            let _ = writeln!(
                out,
                r#"<text class="caption" x="16" y="40" fill="{MARK}">{}</text>"#,
                xml(&h.caption)
            );
        }
        let _ = writeln!(out, r#"<g transform="translate(0 {header})">"#);
        self.svg_edges(&mut out, &placed.routes);
        self.svg_nodes(&mut out, &placed.centers, &vertices);
        let _ = writeln!(out, "</g>");
        legend.render(&mut out, 16.0, header + placed.size.1);
        out.push_str("</svg>\n");
        Ok(out)
    }

    fn svg_edges(&self, out: &mut String, routes: &[Vec<Point>]) {
        let _ = writeln!(out, r#"<g class="edges" fill="none">"#);
        let dimmed = self.highlight.is_some();
        // Marked edges last, so they are drawn over the others.
        let mut edges: Vec<((Node, Node), &Vec<Point>)> = self.hasse.edges().zip(routes).collect();
        edges.sort_by_key(|&(edge, _)| self.on_path(edge));
        for ((from, to), route) in edges {
            let (class, colour, width, marker) = if self.on_path((from, to)) {
                ("edge path", MARK, 2.4, "arrow-path")
            } else {
                ("edge", EDGE, 1.2, "arrow")
            };
            let opacity = if dimmed && class == "edge" {
                r#" opacity="0.45""#
            } else {
                ""
            };
            let _ = writeln!(
                out,
                r#"<path class="{class}" data-from="{}" data-to="{}" d="{}" stroke="{colour}" stroke-width="{width}" marker-end="url(#{marker})"{opacity}/>"#,
                xml(&self.nodes[from].label),
                xml(&self.nodes[to].label),
                curve(route)
            );
        }
        let _ = writeln!(out, "</g>");
    }

    fn svg_nodes(&self, out: &mut String, centers: &[Point], vertices: &[Vertex]) {
        let _ = writeln!(out, r#"<g class="nodes">"#);
        for (node, def) in self.nodes.iter().enumerate() {
            let category = Category::of(def);
            let (fill, stroke) = category.colours();
            let (input, target) = self.node_marks(node);
            let (x, y) = centers[node];
            let Vertex { width, height, .. } = vertices[node];
            let (left, top) = (x - width / 2.0, y - height / 2.0);
            let mut classes = format!("node {}", category.name());
            if input {
                classes.push_str(" input");
            }
            if let Some(role) = target {
                classes.push(' ');
                classes.push_str(role);
            }
            let label = xml(&def.label);
            let kind = match def.dtype {
                Some(dtype) => format!("{label}: {}", xml(&dtype.to_string())),
                None => format!("{label}: {}", category.legend()),
            };
            let _ = writeln!(out, r#"<g class="{classes}" data-label="{label}">"#);
            let _ = writeln!(out, "<title>{kind}</title>");
            if target.is_some() {
                let _ = writeln!(
                    out,
                    r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="9" fill="none" stroke="{MARK}" stroke-width="1.5"/>"#,
                    left - 4.0,
                    top - 4.0,
                    width + 8.0,
                    height + 8.0
                );
            }
            let (outline, stroke_width) = if input || target.is_some() {
                (MARK, 2.5)
            } else {
                (stroke, 1.2)
            };
            let dash = if def.weak {
                r#" stroke-dasharray="4 3""#
            } else {
                ""
            };
            let _ = writeln!(
                out,
                r#"<rect x="{left:.1}" y="{top:.1}" width="{width:.1}" height="{height:.1}" rx="6" fill="{fill}" stroke="{outline}" stroke-width="{stroke_width}"{dash}/>"#
            );
            let _ = writeln!(
                out,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
                y + FONT_SIZE * 0.35
            );
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
}

/// The legend: one swatch per kind present, then the highlight marks.
struct Legend {
    entries: Vec<(String, String)>,
    column: f64,
    columns: usize,
    width: f64,
    height: f64,
}

impl Legend {
    const ROW: f64 = 22.0;

    /// The legend in as many columns as fit `width` (at least two).
    fn new(present: &[Category], highlight: Option<&Highlight>, width: f64) -> Legend {
        let mut entries: Vec<(String, String)> = present
            .iter()
            .map(|&c| {
                let (fill, stroke) = c.colours();
                let dash = if c == Category::Weak {
                    r#" stroke-dasharray="4 3""#
                } else {
                    ""
                };
                (
                    format!(
                        r#"<rect width="22" height="14" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="1.2"{dash}/>"#
                    ),
                    c.legend().to_owned(),
                )
            })
            .collect();
        if let Some(h) = highlight {
            entries.push((
                format!(
                    r#"<rect width="22" height="14" rx="4" fill="white" stroke="{MARK}" stroke-width="2.5"/>"#
                ),
                "the pair".to_owned(),
            ));
            if !h.targets.is_empty() {
                let what = if h.role == "join" {
                    "their join"
                } else {
                    "their minimal common upper bounds"
                };
                entries.push((
                    format!(
                        r#"<rect x="-3" y="-3" width="28" height="20" rx="6" fill="none" stroke="{MARK}" stroke-width="1.5"/><rect width="22" height="14" rx="4" fill="white" stroke="{MARK}" stroke-width="2.5"/>"#
                    ),
                    what.to_owned(),
                ));
            }
            if !h.edges.is_empty() {
                entries.push((
                    format!(r#"<path d="M0,7 L22,7" stroke="{MARK}" stroke-width="2.4"/>"#),
                    "shortest paths to it".to_owned(),
                ));
            }
        }
        let column = entries
            .iter()
            .map(|(_, text)| text_width(text) + 44.0)
            .fold(0.0, f64::max);
        let fit = (width / column).floor() as usize;
        let columns = fit.clamp(2, entries.len().max(2));
        let rows = entries.len().div_ceil(columns);
        Legend {
            column,
            columns,
            width: column * entries.len().min(columns) as f64,
            height: rows as f64 * Self::ROW + 24.0,
            entries,
        }
    }

    fn render(&self, out: &mut String, left: f64, top: f64) {
        let _ = writeln!(
            out,
            r#"<g class="legend" transform="translate({left} {top:.1})">"#
        );
        for (i, (swatch, text)) in self.entries.iter().enumerate() {
            let x = (i % self.columns) as f64 * self.column;
            let y = (i / self.columns) as f64 * Self::ROW;
            let _ = writeln!(
                out,
                r#"<g class="legend-item" transform="translate({x:.1} {y:.1})">{swatch}<text x="30" y="11">{}</text></g>"#,
                xml(text)
            );
        }
        let _ = writeln!(out, "</g>");
    }
}

/// A smooth path through the points: horizontal tangents at each point, so
/// an edge leaves and enters nodes level and runs flat through columns.
fn curve(points: &[Point]) -> String {
    let mut d = String::new();
    if let Some(&(x, y)) = points.first() {
        let _ = write!(d, "M{x:.1},{y:.1}");
    }
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        if (y1 - y0).abs() < 0.05 {
            let _ = write!(d, " L{x1:.1},{y1:.1}");
        } else {
            let bend = (x1 - x0) / 2.0;
            let _ = write!(
                d,
                " C{:.1},{y0:.1} {:.1},{y1:.1} {x1:.1},{y1:.1}",
                x0 + bend,
                x1 - bend
            );
        }
    }
    d
}

/// Approximate width of `text` at [`FONT_SIZE`] in a sans-serif font, from
/// per-character advance widths (DejaVu Sans, rounded up so labels fit in
/// the common fonts).
fn text_width(text: &str) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '\'' | '|' | '.' | ',' | ':' | ' ' => 0.30,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' => 0.42,
            '*' | '_' => 0.52,
            'm' | 'w' | 'M' | 'W' => 0.98,
            c if c.is_ascii_uppercase() => 0.72,
            c if c.is_ascii() => 0.64,
            _ => 1.0,
        })
        .sum();
    em * FONT_SIZE
}

/// Text escaped for XML content and attribute values.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Allowed, but raw they would reach a terminal that shows the
            // drawing: as character references they stay in the text.
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            // XML 1.0 forbids the other control characters and these two
            // non-characters, even escaped.
            c if c.is_control() || matches!(c, '\u{fffe}' | '\u{ffff}') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The longest piece of a quoted DOT string written at once, in bytes.
/// Graphviz (2.42) refuses a quoted string of 16 KiB or more, so a longer
/// one is written as `"..." + "..."`, which DOT joins into one string.
const DOT_PIECE: usize = 4096;

/// A quoted DOT string built from escaped pieces, split with `+` where it
/// grows past [`DOT_PIECE`] bytes (never inside an escape).
struct DotString {
    out: String,
    piece: usize,
}

impl DotString {
    fn new() -> DotString {
        DotString {
            out: String::from("\""),
            piece: 0,
        }
    }

    fn push(&mut self, escaped: &str) {
        if self.piece > 0 && self.piece + escaped.len() > DOT_PIECE {
            self.out.push_str("\" + \"");
            self.piece = 0;
        }
        self.out.push_str(escaped);
        self.piece += escaped.len();
    }

    fn finish(mut self) -> String {
        self.out.push('"');
        self.out
    }
}

/// A DOT identifier (node or graph ID), always quoted. Distinct texts give
/// distinct IDs and the ID holds no control character:
///
/// - `"` is written `\"` (DOT's one escape: the ID holds `"`);
/// - `\` is written `\\` (the ID holds both backslashes);
/// - a control character (C0, DEL, C1: everything [`char::is_control`]
///   matches, NUL, CR and LF included) is written as Rust writes it in an
///   escape, `\u{0}`, `\u{d}`, `\u{7f}` (lowercase hexadecimal).
///
/// Since every backslash of the text is doubled, a single backslash in the
/// ID always starts an escape, so the mapping is injective. Graphviz shows
/// `\u{0}` in an ID's default label as `u{0}`, so nodes whose labels need an
/// escape get an explicit `label=` (see [`dot_label`]).
fn dot_id(text: &str) -> String {
    let mut out = DotString::new();
    let mut buffer = [0; 4];
    for c in text.chars() {
        match c {
            '"' => out.push("\\\""),
            '\\' => out.push("\\\\"),
            c if c.is_control() => out.push(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c.encode_utf8(&mut buffer)),
        }
    }
    out.finish()
}

/// A DOT label shown to people: the lines of `lines`, each as written
/// except that a control character is shown as its escape (`\u{0}`,
/// `\u{d}`, as in [`dot_id`]). Backslashes are doubled and `&` written
/// `&amp;` so that Graphviz shows them as they are (it reads `\n`, `\N` and
/// HTML entities such as `&lt;` in labels).
fn dot_label<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = DotString::new();
    let mut buffer = [0; 4];
    for (i, line) in lines.into_iter().enumerate() {
        if i > 0 {
            out.push("\\n");
        }
        for c in line.chars() {
            match c {
                '"' => out.push("\\\""),
                '\\' => out.push("\\\\"),
                '&' => out.push("&amp;"),
                c if c.is_control() => out.push(&format!("\\\\u{{{:x}}}", c as u32)),
                c => out.push(c.encode_utf8(&mut buffer)),
            }
        }
    }
    out.finish()
}

/// Whether Graphviz's default label (the ID) would show `label` otherwise
/// than as written.
fn needs_dot_label(label: &str) -> bool {
    label.chars().any(|c| c == '&' || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn dot_ids_are_distinct_for_distinct_texts() {
        // Every text of up to four characters from an alphabet of the
        // characters the escapes are made of, and those they stand for.
        let alphabet = ['\\', 'u', '{', '0', '}', '\0', '"', '\r', 'd'];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| t.chars().count() == texts.last().unwrap().chars().count())
                .flat_map(|t| alphabet.iter().map(move |&c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        let ids: HashSet<String> = texts.iter().map(|t| dot_id(t)).collect();
        assert_eq!(ids.len(), texts.len());
        assert!(ids.iter().all(|id| !id.chars().any(char::is_control)));
    }

    #[test]
    fn labels_that_differ_by_control_characters_are_distinct_nodes() {
        let long = "y".repeat(3 * DOT_PIECE);
        let labels = [
            "ab", "a\0b", "a\rb", "a\nb", "a\u{1b}b", "a\u{7f}b", "a\u{85}b", "a\\b", "a\\u{0}b",
            "a\"b", "a&b", &long,
        ];
        let definition = Definition {
            name: "odd\r\nname".into(),
            description: None,
            nodes: labels.iter().map(|l| NodeDef::from_label(l)).collect(),
            edges: (1..labels.len()).map(|i| (i - 1, i)).collect(),
        };
        let poset = definition.poset().unwrap();
        let dot = Drawing::new(&definition, &poset, Some(["a\0b", "a\\b"]))
            .unwrap()
            .dot();
        assert!(!dot.chars().any(|c| c.is_control() && c != '\n'), "{dot:?}");
        let ids: Vec<&str> = dot
            .lines()
            .filter_map(|line| line.trim_start().split_once(" [class="))
            .map(|(id, _)| id)
            .filter(|id| !id.contains(" -> "))
            .collect();
        assert_eq!(ids.len(), labels.len());
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), labels.len());
        assert!(ids.contains(&r#""a\u{0}b""#) && ids.contains(&r#""a\\u{0}b""#));
        // The long label is written in pieces Graphviz accepts.
        let pieces = ids.last().unwrap().split("\" + \"").count();
        assert_eq!(pieces, 3);
        assert!(dot.contains(r#"label="a\\u{1b}b""#));
    }
}
