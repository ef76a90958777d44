//! The settings table in docs/cli.md is the registry's, row for row: the
//! one place users read what each setting is called and which policies read
//! it must say what the code does.

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
