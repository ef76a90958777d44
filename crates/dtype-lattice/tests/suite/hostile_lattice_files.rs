//! Hostile lattice files: each is refused with the place and a fix, or
//! answered within the documented limits; never a panic or a hang.
//! Big inputs are generated in memory.

use std::time::{Duration, Instant};

use dtype_lattice::design::check::{Check, EXAMPLES};
use dtype_lattice::design::lattice_file::{parse, parse_bytes};
use dtype_lattice::design::limits::{MAX_BYTES, MAX_EDGES, MAX_NODES};
use dtype_lattice::design::{DefinitionErrorKind, Location};
use proptest::prelude::*;

/// A file with these `[edges]` lines.
fn file(edges: impl IntoIterator<Item = String>) -> String {
    let mut text = String::from("name = \"hostile\"\n[edges]\n");
    for line in edges {
        text += &line;
        text.push('\n');
    }
    text
}

/// `"n{from}" = ["n{to}", ...]`
fn edge_line(from: usize, to: impl IntoIterator<Item = usize>) -> String {
    let targets: Vec<String> = to.into_iter().map(|t| format!("\"n{t}\"")).collect();
    format!("n{from} = [{}]", targets.join(", "))
}

/// Parses within `limit`, and says how long it took.
fn timed<T>(limit: Duration, run: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = run();
    let took = start.elapsed();
    assert!(took < limit, "took {took:?}, more than {limit:?}");
    result
}

#[test]
fn a_cycle_is_a_finding_with_its_nodes() {
    let definition = parse(&file(
        ["a = [\"b\"]", "b = [\"c\"]", "c = [\"a\"]"].map(String::from),
    ))
    .unwrap();
    let report = Check::new(&definition, EXAMPLES).unwrap();
    assert_eq!(report.cycle, Some(vec!["a".into(), "b".into(), "c".into()]));
    assert!(!report.is_lattice());
}

#[test]
fn an_edge_to_itself_is_refused_where_it_is_written() {
    let err = parse(&file(
        ["a = [\"b\"]", "b = [\"c\", \"b\"]"].map(String::from),
    ))
    .unwrap_err();
    assert_eq!(
        err.location(),
        Some(Location {
            line: 4,
            column: 11
        })
    );
    assert!(matches!(err.kind(), DefinitionErrorKind::SelfEdge { label } if label == "b"));
    assert!(err.to_string().contains("remove 'b' from its own list"));
}

#[test]
fn an_edge_to_an_undeclared_label_makes_a_node() {
    // As in JAX's lattice dict: a label that is only a target is a node
    // with no edges out.
    let definition = parse(&file(["a = [\"nowhere\"]".to_owned()])).unwrap();
    assert_eq!(definition.node("nowhere"), Some(1));
    assert_eq!(definition.edges, [(0, 1)]);
}

#[test]
fn a_hundred_thousand_nodes_are_refused_quickly() {
    let text = file((0..100_000).map(|i| edge_line(i, [i + 1])));
    assert!(text.len() < MAX_BYTES);
    let err = timed(Duration::from_secs(5), || parse(&text)).unwrap_err();
    assert_eq!(err.kind(), &DefinitionErrorKind::TooManyNodes);
    // The place is the first node beyond the limit.
    assert_eq!(err.location().map(|l| l.line), Some(MAX_NODES + 2));
    assert!(err.to_string().contains(&format!(
        "more than {MAX_NODES} nodes, the limit for a lattice"
    )));
}

#[test]
fn a_dense_dag_of_5000_nodes_is_refused_by_size() {
    // Every node promotes to every later one: 12.5 million edges, 130 MB.
    let labels: Vec<String> = (0..5000).map(|i| format!("\"n{i}\", ")).collect();
    let mut text = String::from("name = \"dense\"\n[edges]\n");
    for i in 0..5000 {
        text += &labels[i][..labels[i].len() - 2];
        text += " = [";
        labels[i + 1..].iter().for_each(|label| text += label);
        text += "]\n";
    }
    assert!(text.len() > 100_000_000);
    let err = timed(Duration::from_secs(5), || parse(&text)).unwrap_err();
    assert_eq!(err.kind(), &DefinitionErrorKind::TooLarge);
    assert!(err
        .to_string()
        .contains(&format!("larger than {MAX_BYTES} bytes")));
}

#[test]
fn a_dag_of_5000_nodes_within_the_size_limit_is_refused_by_counts() {
    // 5000 nodes, each promoting to the next 40: 200,000 edges.
    let text = file((0..5000).map(|i| edge_line(i, (i + 1..5000).take(40))));
    assert!(text.len() < MAX_BYTES);
    let err = timed(Duration::from_secs(5), || parse(&text)).unwrap_err();
    assert_eq!(err.kind(), &DefinitionErrorKind::TooManyNodes);
    // Too many edges is its own refusal.
    let text = file((0..1000).map(|i| edge_line(i, (i + 1..1000).take(300))));
    let err = timed(Duration::from_secs(5), || parse(&text)).unwrap_err();
    assert_eq!(err.kind(), &DefinitionErrorKind::TooManyEdges);
    assert!(err
        .to_string()
        .contains(&format!("more than {MAX_EDGES} edges")));
}

#[test]
fn a_dense_dag_within_the_limits_is_answered() {
    // 300 nodes, every one promoting to every later one: a chain with all
    // its shortcuts, 44,850 edges; checked exhaustively.
    let text = file((0..300).map(|i| edge_line(i, i + 1..300)));
    let report = timed(Duration::from_secs(20), || {
        Check::new(&parse(&text).unwrap(), EXAMPLES).unwrap()
    });
    assert!(report.is_lattice());
    assert_eq!(report.edges.len(), 300 * 299 / 2);
    assert!(report.laws.unwrap().exhaustive);
}

#[test]
fn duplicate_keys_are_refused_with_the_line() {
    let err = parse(&file(
        ["a = [\"b\"]", "c = [\"d\"]", "a = [\"e\"]"].map(String::from),
    ))
    .unwrap_err();
    assert_eq!(err.location().map(|l| l.line), Some(5));
    assert!(err.to_string().contains("duplicate key"));
    let err = parse("name = \"x\"\n[edges]\n[edges]\n").unwrap_err();
    assert_eq!(err.location().map(|l| l.line), Some(3));
}

#[test]
fn bytes_that_are_not_utf8_are_located() {
    let mut bytes = file(["a = [\"b\"]".to_owned()]).into_bytes();
    bytes.extend_from_slice(b"c = [\"\xc3\x28\"]\n");
    let err = parse_bytes(&bytes).unwrap_err();
    assert_eq!(err.location(), Some(Location { line: 4, column: 7 }));
    assert!(err.to_string().contains("(0xc3) is not UTF-8"));
}

#[test]
fn garbage_and_deep_nesting_are_refused() {
    for text in [
        "",
        "\u{0}",
        "name",
        "name = ",
        "name = 1",
        "name = \"x\"\nedges = 3",
        "name = \"x\"\n[edges]\na = [1, 2]",
        "name = \"x\"\n[edges]\na.b = [\"c\"]",
        "name = \"x\"\n[edges]\n\"\" = [\"c\"]",
        "name = \"x\"\n[dtypes]\na = \"float128\"",
        "name = \"x\"\n[dtypes]\na = \">i2\"",
        "name = \"x\"\nweak = \"i*\"",
        "name = \"x\"\n[edges]\nf* = [\"c*\"]",
    ] {
        let err = parse(text).unwrap_err();
        assert!(err.location().is_some(), "{text:?}: {err}");
    }
    let deep = format!(
        "name = \"x\"\na = {}{}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(parse(&deep).is_err());
    let deep = format!("name = \"x\"\na = {}", "{b = ".repeat(100_000));
    assert!(parse(&deep).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_bytes_give_a_definition_or_an_error(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = parse_bytes(&bytes);
    }

    #[test]
    fn any_text_gives_a_definition_or_an_error(text in "\\PC{0,256}") {
        if let Err(err) = parse(&text) {
            prop_assert!(!err.to_string().is_empty());
        }
    }

    /// Files shaped like lattice files, with random labels and edges: a
    /// definition whose edges point at its nodes, or an error; then `check`
    /// answers for every definition.
    #[test]
    fn lattice_shaped_files_parse_and_check(
        edges in proptest::collection::vec((0..12usize, proptest::collection::vec(0..12usize, 0..4)), 0..16),
        mapped in proptest::collection::vec((0..12usize, "(u?int(8|16)|float(16|32)|bfloat16|f\\*|x)"), 0..4),
    ) {
        let mut text = String::from("name = \"p\"\n[dtypes]\n");
        for (node, dtype) in &mapped {
            text += &format!("\"n{node}\" = \"{dtype}\"\n");
        }
        text += "[edges]\n";
        let mut seen = std::collections::HashSet::new();
        for (from, to) in &edges {
            if seen.insert(*from) {
                text += &edge_line(*from, to.iter().copied());
                text.push('\n');
            }
        }
        if let Ok(definition) = parse(&text) {
            let n = definition.nodes.len();
            prop_assert!(definition.edges.iter().all(|&(a, b)| a < n && b < n && a != b));
            prop_assert!(Check::new(&definition, EXAMPLES).is_ok());
        }
    }
}
