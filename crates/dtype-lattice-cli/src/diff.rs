//! `diff`: the cells where two policies differ
//! ([`dtype_lattice::design::diff`]), as a list and a count.

use std::fmt::Write as _;

use dtype_lattice::design::diff::Comparison;

/// Output formats of the `diff` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per differing cell, then the count.
    Text,
    /// A JSON object with the count and the list.
    Json,
}

/// Renders `report` in `format`.
pub fn render(report: &Comparison, format: Format) -> String {
    match format {
        Format::Text => text(report),
        Format::Json => format!("{}\n", report.to_json()),
    }
}

fn text(report: &Comparison) -> String {
    let mut out = String::new();
    let [left, right] = &report.names;
    for d in &report.differences {
        let _ = write!(
            out,
            "{} {}: {left} {}, {right} {}",
            report.labels[d.row],
            report.column_labels[d.column],
            report.answer(d.left),
            report.answer(d.right)
        );
        for &(dtype, side) in &d.not_native {
            let _ = write!(out, " ({dtype} is not native to {})", report.names[side]);
        }
        out.push('\n');
    }
    out.push_str(&report.summary());
    out.push('\n');
    out
}
