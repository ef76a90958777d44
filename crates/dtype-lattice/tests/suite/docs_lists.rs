//! What the docs list, the registry holds: the settings table in
//! docs/cli.md row for row (the one place users read what each setting is
//! called and which policies read it), and every list of frameworks.

use dtype_lattice::registry::{POLICIES, SETTINGS};

#[test]
fn the_documented_settings_table_is_the_registrys() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md");
    let text = std::fs::read_to_string(path).expect("docs/cli.md is committed");
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip_while(|line| *line != "## Settings")
        .skip_while(|line| !line.starts_with("| `"))
        .take_while(|line| line.starts_with("| `"))
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_owned())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), SETTINGS.len(), "{rows:?}");
    for (row, setting) in rows.iter().zip(SETTINGS) {
        let values: Vec<String> = setting.values.iter().map(|v| format!("`{v}`")).collect();
        let readers: Vec<&str> = POLICIES
            .iter()
            .filter(|info| info.settings.contains(&setting.name))
            .map(|info| info.name)
            .collect();
        let expected = [
            format!("`{}`", setting.name),
            values.join(", "),
            format!("`{}`", setting.option),
            readers.join(", "),
        ];
        assert_eq!(row[..], expected[..], "{}", setting.name);
    }
}

/// Every place that lists the frameworks names each one the registry has,
/// so that adding a framework cannot leave a page behind.
#[test]
fn every_list_of_frameworks_names_the_registrys() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let read = |path: &str| {
        std::fs::read_to_string(format!("{root}{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let line_with = |path: &str, marker: &str| {
        let text = read(path);
        let found = text.lines().find(|line| line.contains(marker));
        found
            .unwrap_or_else(|| panic!("{path} has no line with {marker:?}"))
            .to_owned()
    };
    let first_paragraph = |path: &str| {
        let text = read(path);
        let lines = text
            .lines()
            .skip_while(|l| l.starts_with('#') || l.is_empty());
        lines
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let lists = [
        ("README.md", first_paragraph("README.md")),
        (
            "crate root",
            line_with_block(
                &read("crates/dtype-lattice/src/lib.rs"),
                "the [registry](registry::by_name)",
            ),
        ),
        (
            "library's Cargo.toml",
            line_with("crates/dtype-lattice/Cargo.toml", "description"),
        ),
        (
            "pyproject.toml",
            line_with("python/pyproject.toml", "description"),
        ),
        (
            "the explorer's subtitle",
            line_with(
                "crates/dtype-lattice-cli/web/index.html",
                "Type promotion as",
            ),
        ),
        ("docs/supported.md", read("docs/supported.md")),
    ];
    for framework in dtype_lattice::registry::frameworks() {
        for (place, text) in &lists {
            let text = text.replace(['`', '\n'], " ").replace("//!", " ");
            assert!(
                text.contains(framework),
                "{place} does not name {framework}: {text}"
            );
        }
    }
    // DESIGN.md's map names every framework's folder.
    let design = read("DESIGN.md");
    let dir = std::fs::read_dir(format!("{root}crates/dtype-lattice/src/frameworks")).unwrap();
    for entry in dir {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let named = match name.strip_suffix(".rs") {
            Some(module) if module != "mod" => format!("`{name}`"),
            Some(_) => continue,
            None => format!("`{name}/`"),
        };
        assert!(
            design.contains(&named),
            "DESIGN.md's layout does not name {named}"
        );
    }
}

/// The paragraph of `text` that holds `marker`.
fn line_with_block(text: &str, marker: &str) -> String {
    let paragraphs: Vec<&str> = text.split("\n//!\n").collect();
    let found = paragraphs.iter().find(|p| p.contains(marker));
    found
        .unwrap_or_else(|| panic!("no paragraph with {marker:?}"))
        .to_string()
}
