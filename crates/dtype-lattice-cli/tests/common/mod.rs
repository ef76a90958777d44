//! Helpers the test binaries share.

use std::collections::BTreeSet;

use serde_json::Value;

/// The (row, column) cells a `diff --format json` report lists.
pub fn diff_cells(report: &Value) -> BTreeSet<(String, String)> {
    report["differences"]
        .as_array()
        .expect("a diff report lists its differences")
        .iter()
        .map(|d| {
            let label = |key: &str| d[key].as_str().expect("a cell label").to_owned();
            (label("row"), label("column"))
        })
        .collect()
}
