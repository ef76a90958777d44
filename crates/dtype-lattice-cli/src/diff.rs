//! `diff`: the cells where two policies differ
//! ([`dtype_lattice::design::diff`]), as a list and a count.

use std::fmt::Write as _;

use dtype_lattice::design::diff::{differences, Difference};
use dtype_lattice::design::table::{dtype_label, type_label};
use dtype_lattice::{DType, Policy, TypeSpec};

use crate::table::Labels;

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
        types: &[TypeSpec],
        label_style: Labels,
    ) -> Report<'a> {
        Report {
            names,
            labels: types
                .iter()
                .map(|&t| type_label(t, label_style.into()))
                .collect(),
            label_style,
            differences: differences(policies[0], policies[1], types),
        }
    }

    fn answer(&self, dtype: Option<DType>) -> String {
        dtype.map_or_else(
            || "-".to_owned(),
            |d| dtype_label(d, self.label_style.into()),
        )
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
        let label = |d: Option<DType>| d.map(|d| dtype_label(d, self.label_style.into()));
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
