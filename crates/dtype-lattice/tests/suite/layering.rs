//! The layer rule that makes adding a framework one folder and one
//! registry entry: outside `frameworks/` and `registry/`, no code names a
//! framework's module. The front ends (the CLI with its server and site,
//! the Python binding) and the library's other layers reach every policy
//! through the registry, so a new entry reaches them all; the toy
//! framework's tests (`frameworks/toy/`) show the entry is enough for the
//! library's own readers.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` that are code, not comments or tests: a file's
/// unit tests (from `#[cfg(test)]` on) may build any framework.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
}

#[test]
fn only_the_registry_names_a_framework() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let library = root.join("crates/dtype-lattice/src");
    let mut files = Vec::new();
    for dir in [
        library.clone(),
        root.join("crates/dtype-lattice-cli/src"),
        root.join("python/src"),
    ] {
        rust_files(&dir, &mut files);
    }
    let allowed = [library.join("frameworks"), library.join("registry")];
    let mut offenders = Vec::new();
    let mut scanned = 0;
    for file in files {
        if allowed.iter().any(|dir| file.starts_with(dir)) {
            continue;
        }
        scanned += 1;
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in code_lines(&text) {
            if line.contains("frameworks::") {
                offenders.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(scanned > 50, "scanned only {scanned} files");
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}
