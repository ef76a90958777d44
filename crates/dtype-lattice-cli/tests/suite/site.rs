//! `site DIR` fits beside documentation: at most 150 files and
//! 10 MB, each policy filed under the settings it reads only, and no diff
//! between policies (the page compares the tables it loads). The time it
//! takes is measured (docs/cli.md), not tested here.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::support::{run, stdout};
use dtype_lattice::registry::{self, setting};
use serde_json::Value;

const MAX_FILES: usize = 150;
const MAX_BYTES: u64 = 10_000_000;

/// Every file under `dir`, with its size.
fn files(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            found.extend(files(&path));
        } else {
            found.push((path, entry.metadata().unwrap().len()));
        }
    }
    found
}

fn gunzip(path: &Path) -> Value {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn the_export_fits_beside_documentation() {
    let dir = std::env::temp_dir().join(format!("dtype-lattice-site-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = run(&["site", dir.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let written = files(&dir);
    let bytes: u64 = written.iter().map(|(_, size)| size).sum();
    // What it says it wrote is what is there.
    let said = stdout(&output);
    assert!(
        said.starts_with(&format!(
            "wrote {} files ({:.1} MB)",
            written.len(),
            bytes as f64 / 1e6
        )),
        "{said}"
    );
    assert!(
        written.len() <= MAX_FILES,
        "{} files, more than {MAX_FILES}",
        written.len()
    );
    assert!(bytes <= MAX_BYTES, "{bytes} bytes, more than {MAX_BYTES}");
    assert!(!dir.join("data/diff").exists(), "no precomputed diffs");

    // Each policy has one key per combination of the settings it reads,
    // and each key's table is there, with what the page compares.
    let info: Value =
        serde_json::from_slice(&std::fs::read(dir.join("data/info.json")).unwrap()).unwrap();
    for policy in registry::POLICIES {
        let keys = info["keys"][policy.name].as_object().unwrap();
        let combinations: usize = policy
            .settings
            .iter()
            .map(|name| setting(name).unwrap().values.len())
            .product();
        assert_eq!(keys.len(), combinations, "{}", policy.name);
        for key in keys.values() {
            let key = key.as_str().unwrap();
            let tables = gunzip(&dir.join(format!("data/table/{key}.json.gz")));
            for types in ["docs", "all"] {
                let table = &tables[types];
                let n = table["types"].as_array().unwrap().len();
                assert_eq!(
                    table["compared"].as_array().unwrap().len(),
                    n,
                    "{key} {types}"
                );
                assert_eq!(
                    table["native"].as_array().unwrap().len(),
                    n,
                    "{key} {types}"
                );
            }
        }
    }
    // The default JAX's docs table is the command line's.
    let jax = info["keys"]["jax"]["x64-false_strict-false_explicit_x64_dtypes-warn"]
        .as_str()
        .unwrap();
    let tables = gunzip(&dir.join(format!("data/table/{jax}.json.gz")));
    let cli: Value =
        serde_json::from_slice(&run(&["table", "--format", "json", "--labels", "short"]).stdout)
            .unwrap();
    assert_eq!(tables["docs"]["rows"], cli["rows"]);
    // So are its drawing and a cell's explanation.
    let graph = gunzip(&dir.join(format!("data/graph/{jax}.json.gz")));
    assert_eq!(
        graph["svg"].as_str().unwrap(),
        stdout(&run(&["graph", "--format", "svg"]))
    );
    let explained: Value =
        serde_json::from_slice(&run(&["explain", "--format", "json", "int8", "uint8"]).stdout)
            .unwrap();
    let cell = &graph["explain"]["int8"]["uint8"];
    for field in ["inputs", "join", "outcome", "common_upper_bounds"] {
        assert_eq!(cell[field], explained[field], "{field}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
