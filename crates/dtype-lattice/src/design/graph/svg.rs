//! A drawing as SVG, laid out here (`layout.rs`): nodes by kind in bands,
//! edges as curves, the legend, and the marks of a highlighted pair.

use super::*;
use crate::design::layout::{layout, Point, Vertex};

impl Drawing {
    /// A standalone SVG drawing: one `<g class="node ...">` per node, one
    /// `<path class="edge ...">` per edge, a title and a legend. Refused for
    /// graphs too large to lay out here (see [`MAX_VERTICES`]).
    pub fn svg(&self) -> Result<String, Error> {
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
