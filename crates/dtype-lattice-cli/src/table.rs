//! The binary promotion table, and its renderings.
//!
//! A cell is what JAX's documentation shows: the result type of two dtype
//! specifiers or Python scalar types, written as a short label, with a weak
//! result written as its Python type (`i*`, `f*`, `c*`) and a failed
//! promotion as `-`.
//!
//! A table can also mark the cells where another policy differs
//! ([`Table::mark_differences`]), as JAX's documentation marks in green
//! where JAX departs from NumPy.

use std::fmt::Write as _;

use dtype_lattice::{DType, Kind, Operand, OperandKind, Policy, PyScalar, Typed};

use crate::diff::differences;

/// The 18 types of JAX's documentation table, in its order.
pub const DOCS_TYPES: [Operand; 18] = [
    Operand::dtype(DType::Bool),
    Operand::dtype(DType::UInt8),
    Operand::dtype(DType::UInt16),
    Operand::dtype(DType::UInt32),
    Operand::dtype(DType::UInt64),
    Operand::dtype(DType::Int8),
    Operand::dtype(DType::Int16),
    Operand::dtype(DType::Int32),
    Operand::dtype(DType::Int64),
    Operand::dtype(DType::BFloat16),
    Operand::dtype(DType::Float16),
    Operand::dtype(DType::Float32),
    Operand::dtype(DType::Float64),
    Operand::dtype(DType::Complex64),
    Operand::dtype(DType::Complex128),
    Operand::py_type(PyScalar::Int),
    Operand::py_type(PyScalar::Float),
    Operand::py_type(PyScalar::Complex),
];

/// The types a table shows: the documentation's 18, or with `all` the 32
/// dtypes and Python's int, float and complex.
pub fn types(all: bool) -> Vec<Operand> {
    if all {
        DType::ALL
            .into_iter()
            .map(Operand::dtype)
            .chain(DOCS_TYPES[15..].iter().copied())
            .collect()
    } else {
        DOCS_TYPES.to_vec()
    }
}

/// How types are written in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Labels {
    /// The documentation's byte-count labels: `b1`, `u1` (uint8), `i2`
    /// (int16), `bf`, `f2`, `c8` (complex64), `c16`.
    Short,
    /// Full dtype names.
    Names,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns.
    Text,
    /// A Markdown table.
    Markdown,
    /// Comma-separated values.
    Csv,
    /// A JSON object with labels and rows (`null` for a failed promotion).
    Json,
    /// An HTML table like the one in JAX's documentation.
    Html,
}

/// A computed table: header labels and cells (`None` where promotion fails).
pub struct Table {
    pub labels: Vec<String>,
    pub cells: Vec<Vec<Option<String>>>,
    /// The cells marked as differing from another policy, and its name.
    pub marks: Option<Marks>,
}

/// Which cells differ from another policy.
pub struct Marks {
    /// The other policy's name, for the legend.
    pub against: String,
    /// `cells[row][column]`: whether that cell differs.
    pub cells: Vec<Vec<bool>>,
}

/// The label of a type in the chosen style.
pub(crate) fn type_label(operand: Operand, labels: Labels) -> String {
    match operand.kind() {
        OperandKind::DType(dtype) | OperandKind::Array { dtype, .. } => dtype_label(dtype, labels),
        OperandKind::PyType(scalar) => scalar.label().to_owned(),
        _ => operand.to_string(),
    }
}

/// `b1`, `u2`, `bf`, `c16`...: the kind letter and the size in bytes, as
/// the documentation's generator prints `np.dtype(d).kind + itemsize`;
/// types narrower than a byte have no such label and keep their name.
pub(crate) fn dtype_label(dtype: DType, labels: Labels) -> String {
    match (labels, dtype) {
        (Labels::Names, _) => dtype.name().to_owned(),
        (Labels::Short, DType::BFloat16) => "bf".to_owned(),
        (Labels::Short, d) if d.bits() >= 8 || d == DType::Bool => {
            format!("{}{}", d.kind().code(), d.itemsize_bits() / 8)
        }
        (Labels::Short, d) => d.name().to_owned(),
    }
}

fn cell_label(result: Typed, labels: Labels) -> String {
    if !result.weak {
        return dtype_label(result.dtype, labels);
    }
    let scalar = match result.dtype.kind() {
        Kind::Complex => PyScalar::Complex,
        Kind::Float => PyScalar::Float,
        _ => PyScalar::Int,
    };
    scalar.label().to_owned()
}

impl Table {
    /// The table of `result_type` over pairs of `types` under `policy`. A
    /// weak result is labelled by its kind, so for JAX this is the table of
    /// `lattice_result_type` its documentation prints.
    pub fn compute(policy: &dyn Policy, types: &[Operand], labels: Labels) -> Table {
        Table {
            labels: types.iter().map(|&t| type_label(t, labels)).collect(),
            cells: types
                .iter()
                .map(|&a| {
                    types
                        .iter()
                        .map(|&b| {
                            policy
                                .result_type(&[a, b])
                                .ok()
                                .map(|typed| cell_label(typed, labels))
                        })
                        .collect()
                })
                .collect(),
            marks: None,
        }
    }

    /// Marks the cells where `other` (called `name`) differs from `policy`
    /// on `types`, the types the table was computed over. The comparison is
    /// the documentation's: `promote_types` answers, and types one of the
    /// policies does not define itself (see [`crate::diff`]).
    pub fn mark_differences(
        &mut self,
        policy: &dyn Policy,
        other: &dyn Policy,
        name: &str,
        types: &[Operand],
    ) {
        let mut cells = vec![vec![false; types.len()]; types.len()];
        for difference in differences(policy, other, types) {
            cells[difference.row][difference.column] = true;
        }
        self.marks = Some(Marks {
            against: name.to_owned(),
            cells,
        });
    }

    fn cell(&self, row: usize, column: usize) -> &str {
        self.cells[row][column].as_deref().unwrap_or("-")
    }

    fn marked(&self, row: usize, column: usize) -> bool {
        self.marks
            .as_ref()
            .is_some_and(|marks| marks.cells[row][column])
    }

    fn legend(&self, out: &mut String, marked: &str) {
        if let Some(marks) = &self.marks {
            let _ = writeln!(out, "\n{marked} cells differ from {}.", marks.against);
        }
    }

    /// Renders the table.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
            Format::Csv => self.csv(),
            Format::Json => self.json(),
            Format::Html => self.html(),
        }
    }

    fn rows(&self) -> impl Iterator<Item = (&str, impl Iterator<Item = &str>)> {
        self.labels.iter().enumerate().map(move |(r, label)| {
            (
                label.as_str(),
                (0..self.labels.len()).map(move |c| self.cell(r, c)),
            )
        })
    }

    /// A cell as the text table shows it: in `[brackets]` when marked.
    fn shown(&self, row: usize, column: usize) -> String {
        if self.marked(row, column) {
            format!("[{}]", self.cell(row, column))
        } else {
            self.cell(row, column).to_owned()
        }
    }

    fn text(&self) -> String {
        let n = self.labels.len();
        let shown: Vec<Vec<String>> = (0..n)
            .map(|r| (0..n).map(|c| self.shown(r, c)).collect())
            .collect();
        // Each column as wide as its widest entry, right-aligned.
        let widths: Vec<usize> = (0..n)
            .map(|c| {
                shown
                    .iter()
                    .map(|row| row[c].len())
                    .chain([self.labels[c].len()])
                    .max()
                    .unwrap_or(1)
            })
            .collect();
        let head_width = self.labels.iter().map(String::len).max().unwrap_or(0);
        let mut out = String::new();
        let mut line = |head: &str, cells: &[String]| {
            let _ = write!(out, "{head:<head_width$}");
            for (cell, width) in cells.iter().zip(&widths) {
                let _ = write!(out, " {cell:>width$}");
            }
            out.push('\n');
        };
        line("", &self.labels);
        for (head, cells) in self.labels.iter().zip(&shown) {
            line(head, cells);
        }
        self.legend(&mut out, "Bracketed");
        out
    }

    fn markdown(&self) -> String {
        let mut out = String::from("|    |");
        for label in &self.labels {
            let _ = write!(out, " {label} |");
        }
        out.push_str("\n|----|");
        out.push_str(&"----|".repeat(self.labels.len()));
        out.push('\n');
        for (r, head) in self.labels.iter().enumerate() {
            let _ = write!(out, "| **{}** |", head.replace('*', "\\*"));
            for c in 0..self.labels.len() {
                let cell = self.cell(r, c);
                if self.marked(r, c) {
                    // Escaped so that `i*` stays literal inside the bold.
                    let _ = write!(out, " **{}** |", cell.replace('*', "\\*"));
                } else {
                    let _ = write!(out, " {cell} |");
                }
            }
            out.push('\n');
        }
        self.legend(&mut out, "Bold");
        out
    }

    fn csv(&self) -> String {
        let mut out = String::new();
        out.push_str(
            &std::iter::once("")
                .chain(self.labels.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(","),
        );
        out.push('\n');
        for (head, cells) in self.rows() {
            out.push_str(
                &std::iter::once(head)
                    .chain(cells)
                    .collect::<Vec<_>>()
                    .join(","),
            );
            out.push('\n');
        }
        out
    }

    /// `{"labels", "rows"}`, with `"differs"` (a matrix of booleans) and
    /// `"differs_from"` when cells are marked.
    fn json(&self) -> String {
        let rows: Vec<Vec<serde_json::Value>> = self
            .cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|cell| {
                        cell.clone()
                            .map_or(serde_json::Value::Null, serde_json::Value::String)
                    })
                    .collect()
            })
            .collect();
        let mut value = serde_json::json!({ "labels": self.labels, "rows": rows });
        if let Some(marks) = &self.marks {
            value["differs_from"] = serde_json::Value::from(marks.against.as_str());
            value["differs"] = serde_json::json!(marks.cells);
        }
        let mut text = value.to_string();
        text.push('\n');
        text
    }

    /// The documentation's markup: `<td class="d">` for a marked cell.
    fn html(&self) -> String {
        let mut out = String::from("<table id=\"types\">\n<tr><th></th>");
        for label in &self.labels {
            let _ = write!(out, "<th>{}</th>", escape_html(label));
        }
        out.push_str("</tr>\n");
        for (r, head) in self.labels.iter().enumerate() {
            let _ = write!(out, "<tr><td>{}</td>", escape_html(head));
            for c in 0..self.labels.len() {
                let class = if self.marked(r, c) {
                    " class=\"d\""
                } else {
                    ""
                };
                let _ = write!(out, "<td{class}>{}</td>", escape_html(self.cell(r, c)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
        out
    }
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
