//! Rendering the promotion table ([`dtype_lattice::design::table`]) as text,
//! Markdown, CSV, JSON or HTML, with the cells where another policy differs
//! ([`dtype_lattice::design::diff`]) marked as JAX's documentation marks
//! where JAX departs from NumPy.

use std::fmt::Write as _;

use dtype_lattice::design::diff::CellMarks;
use dtype_lattice::design::table::{self, Table};
use dtype_lattice::Policy;

/// How types are written in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Labels {
    /// The documentation's byte-count labels: `b1`, `u1` (uint8), `i2`
    /// (int16), `bf`, `f2`, `c8` (complex64), `c16`.
    Short,
    /// Full dtype names.
    Names,
}

impl From<Labels> for table::Labels {
    fn from(labels: Labels) -> table::Labels {
        match labels {
            Labels::Short => table::Labels::Short,
            Labels::Names => table::Labels::Names,
        }
    }
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

/// The table rendered in `format`, its labels in the `labels` style, with
/// a caption naming `policy` (its settings included) and a legend of the
/// short labels (CSV has neither: it is the documentation's data). HTML is
/// a page with its style sheet, or with `fragment` the table alone, for
/// embedding.
pub fn render(
    table: &Table,
    policy: &dyn Policy,
    labels: Labels,
    marks: Option<&CellMarks>,
    format: Format,
    fragment: bool,
) -> String {
    let style: table::Labels = labels.into();
    let caption = table.caption(policy, style);
    let legend = match labels {
        Labels::Short => table::legend(&table.types),
        Labels::Names => Vec::new(),
    };
    let shown = Shown {
        caption,
        legend,
        labels: table.labels(style),
        columns: table.column_labels(style),
        cells: (0..table.types.len())
            .map(|r| {
                (0..table.columns.len())
                    .map(|c| table.cell_label(r, c, style))
                    .collect()
            })
            .collect(),
        marks,
    };
    match format {
        Format::Text => shown.text(),
        Format::Markdown => shown.markdown(),
        Format::Csv => shown.csv(),
        Format::Json => format!("{}\n", table.to_json(policy, style, marks)),
        Format::Html if fragment => shown.html(),
        Format::Html => page(&policy.name(), &shown.html()),
    }
}

/// The page's style: the table's look is the explorer's (`web/table.css`:
/// JAX's documentation's thin grey rules, banded rows, bold first column
/// and green cells that differ), around it the page's own.
const STYLE: &str = concat!(
    "body { font-family: sans-serif; margin: 2em; color: #222; }\n",
    "p.legend { max-width: 60em; font-size: 14px; }\n",
    include_str!("../web/table.css"),
);

/// A standalone page around the table's markup.
fn page(title: &str, table: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n{table}</body>\n</html>\n",
        escape_html(title)
    )
}

/// A table's labels and cells as they are shown (`-` for a failed
/// promotion).
struct Shown<'a> {
    caption: String,
    /// Each short label with the dtype it stands for.
    legend: Vec<(String, &'static str)>,
    /// The rows' labels.
    labels: Vec<String>,
    /// The columns' labels: the rows' but for a reduction (its `dtype=`).
    columns: Vec<String>,
    cells: Vec<Vec<String>>,
    marks: Option<&'a CellMarks>,
}

impl Shown<'_> {
    fn cell(&self, row: usize, column: usize) -> &str {
        &self.cells[row][column]
    }

    fn marked(&self, row: usize, column: usize) -> bool {
        self.marks
            .as_ref()
            .is_some_and(|marks| marks.cells[row][column])
    }

    /// The lines under a text or Markdown table: the caption, what the
    /// short labels mean, and which cells are marked.
    fn notes(&self, out: &mut String, marked: &str) {
        let _ = writeln!(out, "\n{}", self.caption);
        if !self.legend.is_empty() {
            let _ = writeln!(out, "\n{}.", self.legend_text());
        }
        if let Some(marks) = &self.marks {
            let _ = writeln!(out, "\n{marked} cells differ from {}.", marks.against);
        }
    }

    /// `b1 bool, u1 uint8, ...`.
    fn legend_text(&self) -> String {
        let pairs: Vec<String> = self
            .legend
            .iter()
            .map(|(label, name)| format!("{label} {name}"))
            .collect();
        format!("Labels: {}", pairs.join(", "))
    }

    fn rows(&self) -> impl Iterator<Item = (&str, impl Iterator<Item = &str>)> {
        self.labels.iter().enumerate().map(move |(r, label)| {
            (
                label.as_str(),
                (0..self.columns.len()).map(move |c| self.cell(r, c)),
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
        let (rows, columns) = (self.labels.len(), self.columns.len());
        let shown: Vec<Vec<String>> = (0..rows)
            .map(|r| (0..columns).map(|c| self.shown(r, c)).collect())
            .collect();
        // Each column as wide as its widest entry, right-aligned.
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                shown
                    .iter()
                    .map(|row| row[c].len())
                    .chain([self.columns[c].len()])
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
        line("", &self.columns);
        for (head, cells) in self.labels.iter().zip(&shown) {
            line(head, cells);
        }
        self.notes(&mut out, "Bracketed");
        out
    }

    fn markdown(&self) -> String {
        let mut out = String::from("|    |");
        for label in &self.columns {
            let _ = write!(out, " {label} |");
        }
        out.push_str("\n|----|");
        out.push_str(&"----|".repeat(self.columns.len()));
        out.push('\n');
        for (r, head) in self.labels.iter().enumerate() {
            let _ = write!(out, "| **{}** |", head.replace('*', "\\*"));
            for c in 0..self.columns.len() {
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
        self.notes(&mut out, "Bold");
        out
    }

    fn csv(&self) -> String {
        let mut out = String::new();
        out.push_str(
            &std::iter::once("")
                .chain(self.columns.iter().map(String::as_str))
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

    /// The documentation's markup: `<td class="d">` for a marked cell.
    fn html(&self) -> String {
        let mut out = format!(
            "<table id=\"types\">\n<caption>{}</caption>\n<tr><th></th>",
            escape_html(&self.caption)
        );
        for label in &self.columns {
            let _ = write!(out, "<th>{}</th>", escape_html(label));
        }
        out.push_str("</tr>\n");
        for (r, head) in self.labels.iter().enumerate() {
            let _ = write!(out, "<tr><td>{}</td>", escape_html(head));
            for c in 0..self.columns.len() {
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
        if !self.legend.is_empty() {
            let _ = writeln!(
                out,
                "<p class=\"legend\">{}.</p>",
                escape_html(&self.legend_text())
            );
        }
        if let Some(marks) = &self.marks {
            let _ = writeln!(
                out,
                "<p class=\"legend\">Green cells (class d) differ from {}.</p>",
                escape_html(&marks.against)
            );
        }
        out
    }
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
