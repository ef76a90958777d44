//! Drawings: DOT identifiers, labels and the SVG, case by case.

use super::dot::{dot_id, DOT_PIECE};
use super::*;
use std::collections::HashSet;

#[test]
fn dot_ids_are_distinct_for_distinct_texts() {
    // Every text of up to four characters from an alphabet of the
    // characters the escapes are made of, and those they stand for.
    let alphabet = ['\\', 'u', '{', '0', '}', '\0', '"', '\r', 'd'];
    let mut texts = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = texts
            .iter()
            .filter(|t| t.chars().count() == texts.last().unwrap().chars().count())
            .flat_map(|t| alphabet.iter().map(move |&c| format!("{t}{c}")))
            .collect();
        texts.extend(longer);
    }
    let ids: HashSet<String> = texts.iter().map(|t| dot_id(t)).collect();
    assert_eq!(ids.len(), texts.len());
    assert!(ids.iter().all(|id| !id.chars().any(char::is_control)));
}

#[test]
fn labels_that_differ_by_control_characters_are_distinct_nodes() {
    let long = "y".repeat(3 * DOT_PIECE);
    let labels = [
        "ab", "a\0b", "a\rb", "a\nb", "a\u{1b}b", "a\u{7f}b", "a\u{85}b", "a\\b", "a\\u{0}b",
        "a\"b", "a&b", &long,
    ];
    let definition = Definition {
        name: "odd\r\nname".into(),
        description: None,
        nodes: labels.iter().map(|l| NodeDef::from_label(l)).collect(),
        edges: (1..labels.len()).map(|i| (i - 1, i)).collect(),
    };
    let poset = definition.poset().unwrap();
    let dot = Drawing::new(&definition, &poset, Some(["a\0b", "a\\b"]))
        .unwrap()
        .dot();
    assert!(!dot.chars().any(|c| c.is_control() && c != '\n'), "{dot:?}");
    let ids: Vec<&str> = dot
        .lines()
        .filter_map(|line| line.trim_start().split_once(" [class="))
        .map(|(id, _)| id)
        .filter(|id| !id.contains(" -> "))
        .collect();
    assert_eq!(ids.len(), labels.len());
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), labels.len());
    assert!(ids.contains(&r#""a\u{0}b""#) && ids.contains(&r#""a\\u{0}b""#));
    // The long label is written in pieces Graphviz accepts.
    let pieces = ids.last().unwrap().split("\" + \"").count();
    assert_eq!(pieces, 3);
    assert!(dot.contains(r#"label="a\\u{1b}b""#));
}
