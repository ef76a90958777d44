//! Every `$ dtype-lattice ...` line the README (and the pages in docs/)
//! shows is run, and the output shown under it must be what the command
//! prints: the documentation cannot drift from the tool. A freshness check
//! of the documentation, not a correctness claim: the answers themselves
//! are checked against the real libraries' golden data elsewhere.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A command as the documentation shows it, with the lines shown under it.
struct Example {
    file: String,
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The examples of one Markdown file: an indented `$ ` line and the
/// indented lines after it, up to the next command or the end of the block.
fn examples(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut found: Vec<Example> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(command) = line.strip_prefix("    $ ") {
            found.push(Example {
                file: path.display().to_string(),
                line: i + 1,
                command: command.to_owned(),
                output: Vec::new(),
            });
            open = true;
        } else if open && line.starts_with("    ") {
            found
                .last_mut()
                .unwrap()
                .output
                .push(line[4..].trim_end().to_owned());
        } else {
            open = false;
        }
    }
    found
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    if let Ok(entries) = std::fs::read_dir(root().join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        docs.sort();
        pages.extend(docs);
    }
    pages
}

/// Whether `printed` is what the documentation shows: line for line, where
/// a line `[...]` stands for any lines (none included) and a line ending in
/// `[...]` for any line that starts as it does.
fn matches(shown: &[String], printed: &[&str]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((first, rest)) if first == "[...]" => {
            (0..=printed.len()).any(|skip| matches(rest, &printed[skip..]))
        }
        Some((first, rest)) => printed.split_first().is_some_and(|(line, more)| {
            let same = match first.strip_suffix("[...]") {
                Some(prefix) => line.starts_with(prefix),
                None => line == first,
            };
            same && matches(rest, more)
        }),
    }
}

/// Whether the shell finds `program`.
fn available(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_documented_commands_print_what_the_documentation_shows() {
    let binary = Path::new(env!("CARGO_BIN_EXE_dtype-lattice"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Files the commands write land in a scratch folder that sees the
    // repository's examples.
    let scratch = std::env::temp_dir().join(format!("dtype-lattice-docs-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let examples_link = scratch.join("examples");
    if !examples_link.exists() {
        std::os::unix::fs::symlink(root().join("examples"), &examples_link).unwrap();
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for page in pages() {
        for example in examples(&page) {
            let programs = ["dot", "sed", "head", "tail"];
            if programs
                .iter()
                .any(|p| example.command.contains(&format!("| {p}")) && !available(p))
            {
                continue;
            }
            let output = Command::new("bash")
                .args(["-c", &format!("{{ {}\n}} 2>&1", example.command)])
                .current_dir(&scratch)
                .env("PATH", &path)
                .env("NO_COLOR", "1")
                .output()
                .unwrap();
            let printed = String::from_utf8_lossy(&output.stdout);
            let printed: Vec<&str> = printed.lines().map(str::trim_end).collect();
            let ran = !printed.iter().any(|l| l.contains("command not found"));
            if !ran || (!example.output.is_empty() && !matches(&example.output, &printed)) {
                failures.push(format!(
                    "{}:{}: $ {}\n  shown:   {:?}\n  printed: {:?}",
                    example.file, example.line, example.command, example.output, printed
                ));
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(checked >= 20, "only {checked} documented commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
