//! Comparing two policies cell by cell, the way JAX's documentation compares
//! JAX with NumPy: a cell differs when the two `promote_types` answers
//! differ (every failure counts as the same answer), or when one of its
//! dtypes is native to one policy but not the other (the docs mark every
//! bfloat16 cell because "NumPy has none": NumPy has it only through
//! ml_dtypes).

use std::fmt::Write as _;

use dtype_lattice::{DType, Operand, OperandKind, Policy, TypeSpec};

use crate::table::{dtype_label, type_label, Labels};

/// One cell where two policies differ.
pub struct Difference {
    /// The row's position in the list of types compared.
    pub row: usize,
    /// The column's position in the list of types compared.
    pub column: usize,
    /// The first policy's `promote_types` answer (`None` where it fails).
    pub left: Option<DType>,
    /// The second policy's answer.
    pub right: Option<DType>,
    /// The cell's dtypes that one policy defines itself and the other does
    /// not, each with the one that does not (0 for `left`, 1 for `right`).
    pub not_native: Vec<(DType, usize)>,
}

/// The type a table heading stands for in `promote_types`.
fn type_spec(operand: Operand) -> Option<TypeSpec> {
    match operand.kind() {
        OperandKind::DType(dtype) => Some(TypeSpec::DType(dtype)),
        OperandKind::PyType(scalar) => Some(TypeSpec::Python(scalar)),
        _ => None,
    }
}

/// Every cell over `types` (rows, then columns) where `left` and `right`
/// differ.
pub fn differences(left: &dyn Policy, right: &dyn Policy, types: &[Operand]) -> Vec<Difference> {
    let specs: Vec<Option<TypeSpec>> = types.iter().map(|&t| type_spec(t)).collect();
    let mut found = Vec::new();
    for (row, &a) in specs.iter().enumerate() {
        for (column, &b) in specs.iter().enumerate() {
            let (Some(a), Some(b)) = (a, b) else { continue };
            let answer = |policy: &dyn Policy| policy.promote_types(a, b).ok();
            let mut dtypes: Vec<DType> = [a, b]
                .into_iter()
                .filter_map(|spec| match spec {
                    TypeSpec::DType(dtype) => Some(dtype),
                    TypeSpec::Python(_) => None,
                })
                .collect();
            dtypes.dedup();
            let policies = [left, right];
            let not_native: Vec<(DType, usize)> = dtypes
                .into_iter()
                .flat_map(|dtype| [(dtype, 0), (dtype, 1)])
                .filter(|&(dtype, side)| {
                    !policies[side].is_native(dtype) && policies[1 - side].is_native(dtype)
                })
                .collect();
            let (l, r) = (answer(left), answer(right));
            if l != r || !not_native.is_empty() {
                found.push(Difference {
                    row,
                    column,
                    left: l,
                    right: r,
                    not_native,
                });
            }
        }
    }
    found
}

/// Output formats of the `diff` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per differing cell, then the count.
    Text,
    /// A JSON object with the count and the list.
    Json,
}

/// The `diff` command's report.
pub struct Report<'a> {
    /// The policies' names, as the user gave them.
    pub names: [&'a str; 2],
    /// The labels of the types compared.
    pub labels: Vec<String>,
    /// How answers are written.
    pub label_style: Labels,
    /// The cells that differ, rows first.
    pub differences: Vec<Difference>,
}

impl Report<'_> {
    /// Compares two policies over `types`; `names` are what the user called
    /// them.
    pub fn new<'a>(
        names: [&'a str; 2],
        policies: [&dyn Policy; 2],
        types: &[Operand],
        label_style: Labels,
    ) -> Report<'a> {
        Report {
            names,
            labels: types.iter().map(|&t| type_label(t, label_style)).collect(),
            label_style,
            differences: differences(policies[0], policies[1], types),
        }
    }

    fn answer(&self, dtype: Option<DType>) -> String {
        dtype.map_or_else(|| "-".to_owned(), |d| dtype_label(d, self.label_style))
    }

    fn summary(&self) -> String {
        let cells = self.labels.len() * self.labels.len();
        format!(
            "{} of {cells} cells differ between {} and {}",
            self.differences.len(),
            self.names[0],
            self.names[1]
        )
    }

    /// Renders the report.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Json => self.json(),
        }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        let [left, right] = self.names;
        for d in &self.differences {
            let _ = write!(
                out,
                "{} {}: {left} {}, {right} {}",
                self.labels[d.row],
                self.labels[d.column],
                self.answer(d.left),
                self.answer(d.right)
            );
            for &(dtype, side) in &d.not_native {
                let _ = write!(out, " ({dtype} is not native to {})", self.names[side]);
            }
            out.push('\n');
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// `{"left", "right", "cells", "count", "differences": [{"row",
    /// "column", "left", "right", "not_native": [{"dtype", "policy"}]}]}`,
    /// answers as labels or `null`.
    fn json(&self) -> String {
        let label = |d: Option<DType>| d.map(|d| dtype_label(d, self.label_style));
        let differences: Vec<serde_json::Value> = self
            .differences
            .iter()
            .map(|d| {
                serde_json::json!({
                    "row": self.labels[d.row],
                    "column": self.labels[d.column],
                    "left": label(d.left),
                    "right": label(d.right),
                    "not_native": d
                        .not_native
                        .iter()
                        .map(|&(dtype, side)| serde_json::json!({
                            "dtype": dtype.name(),
                            "policy": self.names[side],
                        }))
                        .collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut text = serde_json::json!({
            "left": self.names[0],
            "right": self.names[1],
            "cells": self.labels.len() * self.labels.len(),
            "count": self.differences.len(),
            "differences": differences,
        })
        .to_string();
        text.push('\n');
        text
    }
}
