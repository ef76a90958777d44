//! A drawing as Graphviz DOT: the same nodes, colours and marks as the SVG,
//! for people who lay graphs out with Graphviz.

use super::*;

impl Drawing {
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
}

/// The longest piece of a quoted DOT string written at once, in bytes.
/// Graphviz (2.42) refuses a quoted string of 16 KiB or more, so a longer
/// one is written as `"..." + "..."`, which DOT joins into one string.
pub(super) const DOT_PIECE: usize = 4096;

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
pub(super) fn dot_id(text: &str) -> String {
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
