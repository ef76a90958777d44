//! `site DIR`: the explorer as static files, for hosting beside
//! documentation, with every answer the page asks for precomputed by the
//! same builders the server answers with ([`crate::serve::api`]).
//!
//! ```text
//! DIR/index.html and the page's files ([`assets::FILES`]: its modules,
//!     style sheets and icon)
//! DIR/data/info.json          (GET /api/info, with "keys")
//! DIR/data/table/KEY.json.gz  ({"docs", "all"}: GET /api/table of each)
//! DIR/data/graph/KEY.json.gz  ({"svg": GET /api/graph.svg, "explain":
//!                              GET /api/explain of every cell, by row
//!                              type then column type})
//! ```
//!
//! KEY is a policy's [`graph_key`], its name with the settings it reads
//! (`jax-x64-off-standard`, `numpy`). Each policy is filed under each
//! combination of the settings it reads only
//! ([`Settings::combinations`]), so the export grows with the sum of the
//! policies' configurations, not with the product of every setting;
//! `info.json`'s `keys` gives each policy's KEY by those settings
//! ([`Settings::key_of`]: `x64-false_strict-false_explicit_x64_dtypes-warn`
//! for jax, `""` for numpy). There are no diffs: the page compares the two
//! tables it holds, whose `compared` and `native` are what `diff` compares.
//!
//! The answers are gzipped JSON, which the page inflates with the browser's
//! `DecompressionStream`: the explanations and the error messages repeat
//! themselves so much that gzip makes them a tenth or less, which keeps the
//! export within a few megabytes. A static page cannot redraw the lattice
//! for each pair, so explanations carry the drawing's marks
//! ([`dtype_lattice::design::graph::Drawing::marks`]) and the page sets them
//! on the one drawing. The playground and the editor need the server
//! (`serve`); the static page says so.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::{json, Map, Value};

use dtype_lattice::design::table;
use dtype_lattice::registry::{self, Settings};

use crate::serve::assets;
use crate::serve::{explain_rows, graph_key, graph_svg, info_json, policy, table_json};
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
    let usage = |err: crate::serve::ApiError| Failure::Usage(err.message().to_owned());
    let mut keys = Map::new();
    let mut parts = Vec::new();
    // Two configurations whose policies have one name (a combination of
    // settings that changes nothing) would share their files.
    let mut seen: BTreeSet<String> = BTreeSet::new();
    // A preset is filed by the settings it leaves free; its answers are
    // its entry's under its settings, so they share their files.
    for named in registry::listing() {
        let (name, free) = (named.name(), named.settings());
        let mut by_config = Map::new();
        for settings in named.configurations() {
            let built = policy(name, settings).map_err(usage)?;
            let key = graph_key(built.as_ref());
            by_config.insert(settings.key_of(&free), key.clone().into());
            if seen.insert(key.clone()) {
                if built.has_graph() {
                    parts.push(Part::Graph(name, settings, key.clone()));
                }
                parts.push(Part::Tables(name, settings, key));
            }
        }
        keys.insert(name.to_owned(), by_config.into());
    }
    for file in in_parallel(&parts, Part::file) {
        let (relative, bytes) = file?;
        out.file(&relative, &bytes)?;
    }
    let mut info = info_json("static");
    info["keys"] = keys.into();
    out.file("data/info.json", info.to_string().as_bytes())?;
    Ok(out.written)
}

/// One file of the export's answers: a configuration's tables, or its
/// drawing and explanations (by policy name, settings and key).
enum Part {
    Tables(&'static str, Settings, String),
    Graph(&'static str, Settings, String),
}

impl Part {
    /// The file's path and its gzipped JSON.
    fn file(&self) -> Result<(String, Vec<u8>), Failure> {
        let usage = |err: crate::serve::ApiError| Failure::Usage(err.message().to_owned());
        match self {
            Part::Tables(name, settings, key) => {
                let tables = json!({
                    "docs": table_json(name, *settings, false).map_err(usage)?,
                    "all": table_json(name, *settings, true).map_err(usage)?,
                });
                Ok((format!("data/table/{key}.json.gz"), gzip(&tables)?))
            }
            Part::Graph(name, settings, key) => {
                let types = table::types(true);
                let rows = explain_rows(name, *settings, &types)
                    .map_err(usage)?
                    .unwrap_or_default();
                let explain: Map<String, Value> =
                    types.iter().map(ToString::to_string).zip(rows).collect();
                let graph = json!({
                    "svg": graph_svg(name, *settings, None).map_err(usage)?,
                    "explain": explain,
                });
                Ok((format!("data/graph/{key}.json.gz"), gzip(&graph)?))
            }
        }
    }
}

/// `work` of each of `items`, in their order, computed on as many threads
/// as the machine runs at once: JSON and gzip are most of the export's
/// time, and JAX's twelve configurations alone would be most of it on one.
fn in_parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(items.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(index) else {
                            return done;
                        };
                        done.push((index, work(item)));
                    }
                })
            })
            .collect();
        for worker in workers {
            let done = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            for (index, result) in done {
                results[index] = Some(result);
            }
        }
    });
    results
        .into_iter()
        .map(|result| result.expect("every item is taken by a worker"))
        .collect()
}

/// `value`'s JSON gzipped (with no name or time in the header, so that the
/// same answers write the same bytes). The JSON is handed to the encoder
/// whole: fed serde's many small writes, it clears its buffer for each and
/// takes seconds. Level 3 compresses the export half as fast as the
/// default (6) into an eighth more bytes (1.5 MB rather than 1.35), and was
/// a fifth of its time.
fn gzip(value: &Value) -> Result<Vec<u8>, Failure> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::new(3));
    encoder
        .write_all(value.to_string().as_bytes())
        .and_then(|()| encoder.finish())
        .map_err(|err| Failure::Usage(format!("cannot compress the answers: {err}")))
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
