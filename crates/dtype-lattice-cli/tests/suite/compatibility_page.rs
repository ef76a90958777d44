//! docs/compatibility.md is what `dtype-lattice compatibility` prints, and
//! its JSON is the same report.

use std::path::Path;

use crate::support::run;

const PAGE: &str = "docs/compatibility.md";

#[test]
fn the_page_is_what_the_command_prints() {
    let output = run(&["compatibility"]);
    assert!(output.status.success());
    let printed = String::from_utf8(output.stdout).expect("the page is UTF-8");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(PAGE);
    let committed = std::fs::read_to_string(&path).expect("docs/compatibility.md exists");
    assert!(
        printed == committed,
        "{PAGE} is stale: regenerate it with `cargo run --release -- compatibility > {PAGE}`"
    );
}

#[test]
fn the_json_names_every_policy_and_pair() {
    let output = run(&["compatibility", "--format", "json"]);
    assert!(output.status.success());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let policies = report["policies"].as_array().unwrap();
    // Every entry and preset as listed, but tensorflow-numpy, which models
    // nothing with NumPy behaviour off (the default).
    let names: Vec<&str> = dtype_lattice::registry::names()
        .filter(|name| *name != "tensorflow-numpy")
        .collect();
    assert_eq!(
        policies
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect::<Vec<_>>(),
        names
    );
    let n = names.len();
    assert_eq!(report["pairs"].as_array().unwrap().len(), n * (n - 1) / 2);
    for pair in report["pairs"].as_array().unwrap() {
        let table = &pair["table"];
        assert!(table["differing"].as_u64() <= table["compared"].as_u64());
        let themes = pair["themes"].as_array().unwrap();
        let sum: u64 = themes.iter().map(|t| t["table"].as_u64().unwrap()).sum();
        assert_eq!(Some(sum), table["differing"].as_u64());
    }
    // JAX keeps int64 + float16 at float16; NumPy widens it (both checked
    // against their golden data elsewhere).
    let probe = report["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["label"] == "int64 + float16")
        .unwrap();
    assert_eq!(probe["answers"]["jax"], "float16");
    assert_eq!(probe["answers"]["numpy"], "float64");
}
