//! The lattice file's parser, case by case.

use std::collections::{HashMap, HashSet};

use super::parse::Parser;
use super::*;
use crate::design::NodeDef;
use crate::types::DType;

fn error(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn nodes_come_in_order_of_first_mention() {
    let definition = parse(
        "name = \"n\"\nweak = [\"u*\"]\n[edges]\n\"u*\" = [\"uint8\"]\nbool = [\"u*\", \"x\"]\n",
    )
    .unwrap();
    let labels: Vec<&str> = definition.nodes.iter().map(|n| n.label.as_str()).collect();
    assert_eq!(labels, ["u*", "uint8", "bool", "x"]);
    assert!(definition.nodes[0].weak);
    assert_eq!(definition.nodes[3], NodeDef::from_label("x"));
    assert_eq!(definition.edges, [(0, 1), (2, 0), (2, 3)]);
}

#[test]
fn every_refusal_says_where_and_how_to_fix() {
    assert_eq!(
        error("name = \"n\"\n[edges]\na = [\"b\", \"a\"]\n"),
        "lattice file:3:11: 'a' promotes to itself: every type already does, remove 'a' from its own list"
    );
    assert_eq!(
        error("name = \"n\"\n[dtypes]\nu8 = \"uint8\"\n[edges]\nuint8 = [\"int16\"]\n"),
        "lattice file:5:1: 'u8' and 'uint8' both stand for uint8: a dtype has one node, so use one label for it"
    );
    assert_eq!(
        error("name = \"n\"\n[dtypes]\nint8 = \"uint8\"\n"),
        "lattice file:3:8: 'int8' is the name of int8 and cannot stand for uint8: use another label for uint8"
    );
    assert_eq!(
        error("nmae = \"n\"\n"),
        "lattice file:1:1: unknown key 'nmae': did you mean 'name'? (a lattice file has name, description, weak, [dtypes] and [edges])"
    );
    assert_eq!(
        error("[edges]\na = [\"b\"]\n"),
        "lattice file:1:1: no `name`: add a first line such as name = \"my-lattice\""
    );
    assert_eq!(
        error("name = \"n\"\n[edges]\na = \"b\"\n"),
        "lattice file:3:5: `edges.a` must be an array of node labels, such as [\"int16\", \"float16\"]"
    );
    assert!(error("name = \"n\"\nname = \"m\"\n")
        .starts_with("lattice file:2:1: not valid TOML: duplicate key; each key may appear once"));
}

#[test]
fn weak_nodes_may_share_a_dtype_with_strong_ones() {
    let definition =
        parse("name = \"n\"\n[dtypes]\n\"f*\" = \"float64\"\n[edges]\n\"f*\" = [\"float64\"]\n")
            .unwrap();
    assert_eq!(definition.nodes[0].dtype, Some(DType::Float64));
    assert!(definition.nodes[0].weak);
}

/// The parse without the first pass: the TOML parser on the whole text.
fn parse_whole(text: &str) -> Result<Definition, DefinitionError> {
    let document = DeTable::parse(text).map_err(|err| toml_error(text, &err))?;
    Parser {
        text,
        arrays: &HashMap::new(),
    }
    .definition(document.into_inner())
}

/// Lines that lattice files, valid or not, are made of.
const LINES: &[&str] = &[
    "name = \"n\"",
    "name = 'n' # named",
    "description = \"\"\"two\nlines\"\"\"",
    "description = 1979-05-27 07:32:00",
    "description = 1.5",
    "weak = [\"u*\", 'x']",
    "weak = [ # labels\n  \"i*\",\n]",
    "weak = []",
    "[dtypes]",
    "[edges]",
    "[ edges ]",
    "[\"edges\"]",
    "[edges.a]",
    "[[edges]]",
    "[name]",
    "edges.a = [\"b\"]",
    "edges . \"b\" = ['c', \"a\"]",
    "dtypes.u8 = \"uint8\"",
    "dtypes = { u8 = \"uint8\", \"f*\" = 'float64' }",
    "edges = {\n  a = [\"b\"], # note\n  b = [],\n}",
    "edges = { a = { b = [] } }",
    "a = [\"b\", \"c\",]",
    "a = [\"b\" \"c\"]",
    "a = [,]",
    "a = [\"\\u0062\", \"\\q\"]",
    "a = [\"\"\"b\"\"\", '''c''']",
    "a = [[\"b\"]]",
    "a = [1, 2]",
    "a = [x]",
    "a = \"b\"",
    "a.b = [\"c\"]",
    "\"a b\" = [\"c d\"]",
    "u8 = \"uint8\"",
    "u8 = \"unit8\"",
    "b = [\"a\"]",
    "c = [\"\"]",
    "# a comment",
    "# bad \u{1}",
    "",
    "   ",
    "\r",
    "zz = 1",
    "[zz]",
    "=",
    "]",
    "name = ",
    "a = [\"b\"",
    "\"unterminated = 1",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

    /// The first pass changes what a file means nowhere: a file the
    /// TOML parser and the lattice rules accept gives the same
    /// definition, and a file refused either way is refused.
    #[test]
    fn the_first_pass_keeps_the_meaning(
        lines in proptest::collection::vec(0..LINES.len(), 0..10),
        crlf in proptest::bool::ANY,
    ) {
        let newline = if crlf { "\r\n" } else { "\n" };
        let text: String = lines
            .iter()
            .map(|&i| LINES[i].replace('\n', newline) + newline)
            .collect();
        match (parse(&text), parse_whole(&text)) {
            (Ok(scanned), Ok(whole)) => proptest::prop_assert_eq!(scanned, whole),
            (Err(_), Err(_)) => {}
            (scanned, whole) => proptest::prop_assert!(
                false,
                "{text:?}: first pass {scanned:?}, whole {whole:?}"
            ),
        }
    }
}

/// A label written in one of TOML's ways (bare only as a key).
fn written(label: &str, way: usize, key: bool) -> String {
    let bare = label
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    match way % 4 {
        0 if bare && key => label.to_owned(),
        1 if !label.contains('\'') => format!("'{label}'"),
        2 => {
            let escaped: String = label
                .chars()
                .map(|c| format!("\\u{:04X}", c as u32))
                .collect();
            format!("\"{escaped}\"")
        }
        _ => format!("{label:?}"),
    }
}

/// Spacing TOML allows between array items.
const GAPS: [&str; 5] = ["", " ", "\n  ", " # gap\n", "\n\n\t"];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// Valid lattice files in many spellings mean the same with and
    /// without the first pass.
    #[test]
    fn spellings_of_valid_files_keep_their_meaning(
        edges in proptest::collection::vec(
            (0..8usize, proptest::collection::vec((0..8usize, 0..4usize, 0..5usize), 0..5), 0..4usize),
            0..8,
        ),
        weak in proptest::collection::vec((0..8usize, 0..4usize), 0..3),
        form in 0..3usize,
        trailing in proptest::bool::ANY,
    ) {
        const LABELS: [&str; 8] = ["a", "b", "u8", "int8", "f*", "x y", "q\"t", "é"];
        let mut text = String::from("# a lattice\nname = \"n\"\n\n");
        if !weak.is_empty() {
            let items: Vec<String> = weak.iter().map(|&(l, w)| written(LABELS[l], w, false)).collect();
            text += &format!("weak = [{}]\n", items.join(", "));
        }
        let mut seen = HashSet::new();
        let entries: Vec<String> = edges
            .iter()
            .filter(|(from, _, _)| seen.insert(*from))
            .map(|(from, targets, way)| {
                let items: Vec<String> = targets
                    .iter()
                    .filter(|(to, _, _)| to != from)
                    .map(|&(to, w, gap)| format!("{}{}", GAPS[gap], written(LABELS[to], w, false)))
                    .collect();
                let comma = if trailing && !items.is_empty() { "," } else { "" };
                format!("{} = [{}{comma}\n]", written(LABELS[*from], *way, true), items.join(","))
            })
            .collect();
        match form {
            0 => text += &format!("[edges]\n{}\n", entries.join("\n")),
            1 => {
                for entry in &entries {
                    text += &format!("edges.{entry}\n");
                }
            }
            _ => text += &format!("edges = {{\n{}\n}}\n", entries.join(",\n")),
        }
        let whole = parse_whole(&text);
        proptest::prop_assert!(whole.is_ok(), "{text}: {whole:?}");
        proptest::prop_assert_eq!(parse(&text), whole, "{}", text);
    }
}

/// TOML's lexer reads a `\r` without `\n` as a line break; the first
/// pass refuses it wherever it stands, as the TOML parser does.
#[test]
fn a_carriage_return_alone_is_refused_wherever_it_is() {
    for text in [
        "name = \"n\"\r",
        "name = \"n\"\n\r\r\n",
        "name = \"n\"\nweak = [\"a\",\r\"b\"]\n",
        "name = \"n\"\nedges = {\r a = [] }\n",
        "name = \"n\"\nweak = [\"a\"] \r# c\n",
    ] {
        assert!(parse_whole(text).is_err(), "{text:?}");
        assert_eq!(parse(text), parse_whole(text), "{text:?}");
    }
    // Past the statement the TOML parser is shown, the first pass's own
    // message.
    let items: Vec<String> = (0..12_000).map(|i| format!("\"l{}\"", i % 3000)).collect();
    let text = format!("name = \"n\"\nedges.a = [{},\r]\n", items.join(", "));
    assert!(error(&text)
        .ends_with("not valid TOML: a carriage return without a line feed was not expected here"));
}

#[test]
fn bad_bytes_are_located() {
    let err = parse_bytes(b"name = \"n\"\n[edges]\na = [\"\xff\"]\n").unwrap_err();
    assert_eq!(err.location(), Some(Location { line: 3, column: 7 }));
    assert!(err.to_string().contains("byte 25 (0xff) is not UTF-8"));
}
