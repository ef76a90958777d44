//! `site DIR`: the explorer as static files, for hosting beside
//! documentation, with every answer the page asks for precomputed by the
//! same builders the server answers with ([`crate::serve::api`]).
//!
//! ```text
//! DIR/index.html and the page's files ([`assets::FILES`]: its modules,
//!     style sheets and icon)
//! DIR/data/info.json                        (GET /api/info, with "keys")
//! DIR/data/table/KEY_TYPES.json             (GET /api/table)
//! DIR/data/diff/TYPES/KEY/KEY.json          (GET /api/diff; keys in order)
//! DIR/data/explain/KEY/TYPE.json            (GET /api/explain, a row of cells)
//! DIR/data/graph/KEY.svg                    (GET /api/graph.svg)
//! ```
//!
//! KEY is a policy's [`graph_key`], its name with the settings it reads
//! (`jax-x64-off-standard`, `numpy`), so a policy that ignores a setting
//! has its answers written once; `info.json`'s `keys` gives the key of each
//! policy in each configuration ([`Settings::key`](dtype_lattice::registry::Settings::key), `x64-false_strict-false`).
//! TYPES is `docs` or `all`. A static page cannot
//! redraw the lattice for each pair, so explanations carry the drawing's
//! marks ([`dtype_lattice::design::graph::Drawing::marks`]) and the page
//! sets them on the one drawing. The playground and the editor need the
//! server (`serve`); the static page says so.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use dtype_lattice::design::table;
use dtype_lattice::registry::{self, Settings};

use crate::serve::assets;
use crate::serve::{diff_text, explain_rows, graph_key, graph_svg, info_json, policy, table_json};
use crate::Failure;

/// What was written.
pub struct Written {
    /// How many files.
    pub files: usize,
    /// How many bytes in all.
    pub bytes: u64,
}

/// Writes the explorer to `dir` (created if needed; files of the same
/// names are replaced, others left alone).
pub fn write(dir: &Path) -> Result<Written, Failure> {
    let mut out = Out {
        dir: dir.to_owned(),
        written: Written { files: 0, bytes: 0 },
    };
    let page = assets::INDEX_HTML
        .replace("data-mode=\"serve\"", "data-mode=\"static\"")
        .replace("href=\"api/info\"", "href=\"data/info.json\"");
    out.file("index.html", page.as_bytes())?;
    for file in assets::FILES {
        out.file(file.path, file.text.as_bytes())?;
    }
    let mut info = info_json("static");
    let mut keys = serde_json::Map::new();
    for name in registry::names() {
        let mut by_config = serde_json::Map::new();
        for settings in Settings::all() {
            let built =
                policy(name, settings).map_err(|err| Failure::Usage(err.message().to_owned()))?;
            by_config.insert(settings.key(), graph_key(built.as_ref()).into());
        }
        keys.insert(name.to_owned(), by_config.into());
    }
    info["keys"] = keys.into();
    out.file("data/info.json", info.to_string().as_bytes())?;
    let usage = |err: crate::serve::ApiError| Failure::Usage(err.message().to_owned());
    // Policies that ignore a setting answer alike under both of its
    // values: each answer is filed once, under the policy's key.
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for settings in Settings::all() {
        let keys: Vec<(&str, String, bool)> = registry::names()
            .map(|name| {
                let built = policy(name, settings).map_err(usage)?;
                Ok((name, graph_key(built.as_ref()), built.has_graph()))
            })
            .collect::<Result<_, Failure>>()?;
        for &(name, ref key, has_graph) in &keys {
            for all in [false, true] {
                let types = if all { "all" } else { "docs" };
                if seen.insert(format!("table {key} {types}")) {
                    let value = table_json(name, settings, all).map_err(usage)?;
                    out.file(
                        &format!("data/table/{key}_{types}.json"),
                        value.to_string().as_bytes(),
                    )?;
                }
                // A diff's cells are the same both ways round: each pair is
                // filed once, in key order, and the page reads it either way.
                for &(other, ref other_key, _) in keys.iter().filter(|(_, k, _)| k > key) {
                    if seen.insert(format!("diff {key} {other_key} {types}")) {
                        let text = diff_text(name, other, settings, all).map_err(usage)?;
                        out.file(
                            &format!("data/diff/{types}/{key}/{other_key}.json"),
                            text.as_bytes(),
                        )?;
                    }
                }
            }
            if !has_graph || !seen.insert(format!("graph {key}")) {
                continue;
            }
            let svg = graph_svg(name, settings, None).map_err(usage)?;
            out.file(&format!("data/graph/{key}.svg"), svg.as_bytes())?;
            let types = table::types(true);
            let rows = explain_rows(name, settings, &types)
                .map_err(usage)?
                .unwrap_or_default();
            for (row, value) in types.iter().zip(rows) {
                out.file(
                    &format!("data/explain/{key}/{row}.json"),
                    value.to_string().as_bytes(),
                )?;
            }
        }
    }
    Ok(out.written)
}

/// The folder being written, and the count so far.
struct Out {
    dir: PathBuf,
    written: Written,
}

impl Out {
    fn file(&mut self, relative: &str, bytes: &[u8]) -> Result<(), Failure> {
        let path = self.dir.join(relative);
        let failed =
            |err: std::io::Error| Failure::Usage(format!("cannot write {}: {err}", path.display()));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(failed)?;
        }
        std::fs::File::create(&path)
            .and_then(|mut file| file.write_all(bytes))
            .map_err(failed)?;
        self.written.files += 1;
        self.written.bytes += bytes.len() as u64;
        Ok(())
    }
}
