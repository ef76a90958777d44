//! dtype-lattice's core, built without std, answers every golden case
//! (every policy's promotion, operations, operator forms and operations on
//! whole arrays, generated from the real libraries) as the full crate's
//! golden tests require: through the batch protocol's `answer_line`, which
//! builds without std, judged by the same `golden_file::check`.
//!
//! Without std the core builds its tables on first use with a racing
//! once-cell, fills its join tables on one thread, keeps labels in an
//! ordered map and takes float functions from `libm`: this is the test
//! that none of that changes an answer.

use std::path::Path;
use std::process::Command;

use dtype_lattice::protocol::answer_line;
use dtype_lattice::registry::Settings;
use dtype_lattice_testkit::golden::golden_dir;
use dtype_lattice_testkit::golden_file;
use serde_json::Value;

/// Golden files of something other than the library: the command-line
/// tool's documentation table (`docs_table_cell`), checked by its tests.
const NOT_THE_LIBRARY: &[&str] = &["docs_table.jsonl"];

fn core_answer(request: &Value) -> Value {
    let line = answer_line(&request.to_string(), Settings::default());
    serde_json::from_str(&line).expect("an answer is JSON")
}

#[test]
fn the_core_answers_every_golden_case() {
    let mut files: Vec<String> = std::fs::read_dir(golden_dir())
        .expect("conformance/golden is readable")
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".jsonl") && !NOT_THE_LIBRARY.contains(&name.as_str()))
        .collect();
    files.sort();
    // Every framework's files, not a handful (76 files when written).
    assert!(files.len() >= 70, "only {} golden files", files.len());
    // Files shared out among threads: faster, and the policies' tables are
    // first built by threads racing for them, as without std they may be.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cases: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let files = &files;
                scope.spawn(move || {
                    let mine = files.iter().skip(t).step_by(threads);
                    mine.map(|name| golden_file::check(name, core_answer))
                        .sum::<usize>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().expect("a file's cases differ (above)"))
            .sum()
    });
    assert!(cases > 100_000, "only {cases} golden cases");
}

/// The build above is the core's only if no package of this workspace
/// turns on dtype-lattice's `std`: cargo says which features it resolved.
#[test]
fn the_library_under_test_is_built_without_std() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let output = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--edges", "features,dev", "--invert"])
        .args(["dtype-lattice", "--manifest-path"])
        .arg(&manifest)
        .output()
        .expect("cargo runs");
    let tree = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(tree.contains("dtype-lattice feature \"json\""), "{tree}");
    assert!(!tree.contains("dtype-lattice feature \"std\""), "{tree}");
    assert!(
        !tree.contains("dtype-lattice feature \"default\""),
        "{tree}"
    );
}
