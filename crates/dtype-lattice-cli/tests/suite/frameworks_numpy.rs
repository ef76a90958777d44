//! The command line's tables and diffs of the `numpy`, `numpy-legacy` and
//! `array-api` policies, against what the seed documents say (the policies
//! themselves are checked by the library's `frameworks_numpy` test).
//!
//! Expected values come from three places only:
//! - golden data written by `conformance/generate_numpy.py` from NumPy 2.5.5,
//!   ml_dtypes 0.6.0 and array-api-strict 2.6.1 (`golden.rs` checks every
//!   file through batch; `can_cast` and `add` are checked here through the
//!   library too);
//! - fixtures extracted by `conformance/extract_seed_tables.py` from the seed
//!   documents: the NumPy table of JAX's design notebook and the cells JAX's
//!   documentation highlights as differing from NumPy;
//! - the design notebook's printed output for its non-associativity example.

use crate::support::{run, succeeds};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn conformance() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance")
}

fn csv(name: &str) -> Vec<Vec<String>> {
    std::fs::read_to_string(conformance().join("docs").join(name))
        .unwrap()
        .lines()
        .map(|line| line.split(',').map(str::to_owned).collect())
        .collect()
}

#[test]
fn numpy_legacy_is_the_design_notebooks_numpy_table() {
    let notebook: Vec<Vec<String>> = csv("numpy_legacy_table.csv")
        .iter()
        .map(|row| {
            row.iter()
                .map(|cell| {
                    if cell.is_empty() {
                        String::new()
                    } else {
                        from_notebook_label(cell)
                    }
                })
                .collect()
        })
        .collect();
    let ours: Vec<Vec<String>> =
        succeeds(&["table", "--policy", "numpy-legacy", "--format", "csv"])
            .lines()
            .map(|line| line.split(',').map(str::to_owned).collect())
            .collect();
    assert_eq!(ours, notebook);
}

#[test]
fn table_x64_diff_numpy_highlights_exactly_the_docs_cells() {
    let html = succeeds(&["table", "--x64", "--diff", "numpy", "--format", "html"]);
    let rows: Vec<&str> = html.lines().filter(|l| l.starts_with("<tr><td>")).collect();
    let expected = csv("type_promotion_table_x64_differs.csv");
    let docs_cells = csv("type_promotion_table_x64.csv");
    assert_eq!(rows.len(), expected.len() - 1);
    let mut highlighted = 0;
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row
            .trim_end_matches("</td></tr>")
            .split("</td>")
            .skip(1)
            .collect();
        assert_eq!(cells.len(), expected[0].len() - 1, "row {r}");
        for (c, cell) in cells.iter().enumerate() {
            let (marked, text) = match cell.strip_prefix("<td class=\"d\">") {
                Some(text) => (true, text),
                None => (false, cell.trim_start_matches("<td>")),
            };
            let label = (&expected[r + 1][0], &expected[0][c + 1]);
            assert_eq!(marked, expected[r + 1][c + 1] == "d", "cell {label:?}");
            assert_eq!(text, docs_cells[r + 1][c + 1], "cell {label:?}");
            highlighted += usize::from(marked);
        }
    }
    assert_eq!(highlighted, 95, "the docs highlight 95 cells");
}

#[test]
fn markdown_and_json_mark_the_same_cells_as_html() {
    let json: Value = serde_json::from_str(&succeeds(&[
        "table", "--x64", "--diff", "numpy", "--format", "json",
    ]))
    .unwrap();
    assert_eq!(json["differs_from"], "numpy");
    let expected = csv("type_promotion_table_x64_differs.csv");
    let marked_json: BTreeSet<(usize, usize)> = (0..18)
        .flat_map(|r| (0..18).map(move |c| (r, c)))
        .filter(|&(r, c)| json["differs"][r][c] == true)
        .collect();
    let marked_fixture: BTreeSet<(usize, usize)> = (0..18)
        .flat_map(|r| (0..18).map(move |c| (r, c)))
        .filter(|&(r, c)| expected[r + 1][c + 1] == "d")
        .collect();
    assert_eq!(marked_json, marked_fixture);

    let markdown = succeeds(&["table", "--x64", "--diff", "numpy", "--format", "markdown"]);
    let body: Vec<&str> = markdown.lines().skip(2).take(18).collect();
    let mut bold = BTreeSet::new();
    for (r, line) in body.iter().enumerate() {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").skip(1).collect();
        for (c, cell) in cells.iter().enumerate() {
            if cell.trim().starts_with("**") {
                bold.insert((r, c));
            }
        }
    }
    assert_eq!(bold, marked_fixture);
    assert!(markdown.contains("**i\\***"), "an escaped i* in bold");
    assert!(markdown.ends_with("Bold cells differ from numpy.\n"));
}

#[test]
fn diff_lists_and_counts_the_docs_cells() {
    let json: Value = serde_json::from_str(&succeeds(&[
        "diff", "jax", "numpy", "--x64", "--format", "json",
    ]))
    .unwrap();
    let expected = csv("type_promotion_table_x64_differs.csv");
    let listed = crate::support::diff_cells(&json);
    let fixture: BTreeSet<(String, String)> = expected[1..]
        .iter()
        .flat_map(|row| {
            row[1..]
                .iter()
                .zip(&expected[0][1..])
                .filter(|(mark, _)| *mark == "d")
                .map(|(_, column)| (row[0].clone(), column.clone()))
        })
        .collect();
    assert_eq!(listed, fixture);
    assert_eq!(json["count"], 95);
    assert_eq!(json["cells"], 324);
    let text = succeeds(&["diff", "jax", "numpy", "--x64"]);
    assert!(text.ends_with("95 of 324 cells differ between jax and numpy\n"));
    // u1 with i*: JAX keeps uint8 where np.promote_types(int, uint8) is int64.
    assert!(text.contains("\nu1 i*: jax u1, numpy i8\n"), "{text}");
    assert!(text.contains("b1 bf: jax bf, numpy bf (bfloat16 is not native to numpy)"));
}

#[test]
fn diff_of_a_policy_with_itself_is_empty() {
    for policy in ["jax", "numpy", "numpy-legacy", "array-api"] {
        let json: Value = serde_json::from_str(&succeeds(&[
            "diff", policy, policy, "--all", "--format", "json",
        ]))
        .unwrap();
        assert_eq!(json["count"], 0, "{policy}");
        assert_eq!(json["cells"], 36 * 36, "{policy}");
    }
}

#[test]
fn bad_diff_requests_are_usage_errors() {
    for args in [
        &["table", "--diff", "numpyy"][..],
        &["table", "--diff", "numpy", "--format", "csv"],
        &["diff", "jax", "tensorflw"],
        &["diff", "jax"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty());
    }
    let output = run(&["diff", "jax", "numpyy"]);
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("unknown policy 'numpyy': did you mean 'numpy'?"),
        "{message}"
    );
}

/// The notebook writes dtypes by kind and bits (`u16`, `bf16`, `c128`),
/// the documentation (and our short labels) by kind and bytes.
fn from_notebook_label(label: &str) -> String {
    match label {
        "b" => "b1".to_owned(),
        "bf16" => "bf".to_owned(),
        "-" | "i*" | "f*" | "c*" => label.to_owned(),
        _ => {
            let bits: u32 = label[1..].parse().unwrap();
            format!("{}{}", &label[..1], bits / 8)
        }
    }
}
