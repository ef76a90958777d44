//! Lattice files of 8 MiB shaped to make a TOML parser build a huge
//! document: each is refused at the first place past a limit (kind and
//! line and column checked), before any value tree is built. The peak
//! memory of parsing them is measured outside the tests (see the
//! `lattice_file` module's limits); here only the refusals are checked.
//! Inputs are generated in memory.

use dtype_lattice::design::lattice_file::{parse, read_from};
use dtype_lattice::design::limits::{MAX_BYTES, MAX_EDGES, MAX_NODES};
use dtype_lattice::design::{DefinitionError, DefinitionErrorKind, Location};

/// `head`, then `item` repeated to fill 8 MiB less `tail.len()`, then `tail`.
fn filled(head: &str, item: &str, tail: &str) -> String {
    let room = MAX_BYTES - head.len() - tail.len();
    let mut text = String::with_capacity(MAX_BYTES);
    text.push_str(head);
    text.push_str(&item.repeat(room / item.len()));
    text.push_str(tail);
    assert!(text.len() <= MAX_BYTES && text.len() > MAX_BYTES - item.len() - 1);
    text
}

fn refused(text: &str) -> DefinitionError {
    parse(text).expect_err("refused")
}

fn at(line: usize, column: usize) -> Option<Location> {
    Some(Location { line, column })
}

fn wrong_type(err: &DefinitionError) -> (&str, &str) {
    match err.kind() {
        DefinitionErrorKind::WrongType { key, expected } => (key.as_str(), *expected),
        other => panic!("not a wrong type: {other:?} ({err})"),
    }
}

#[test]
fn a_huge_array_under_an_unknown_key_is_refused_at_the_key() {
    let err = refused(&filled("name = \"x\"\nz = [", "1,", "1]\n"));
    assert!(matches!(err.kind(), DefinitionErrorKind::UnknownKey { key, .. } if key == "z"));
    assert_eq!(err.location(), at(2, 1));
    // The same as a table header, and nested.
    let err = refused(&filled("name = \"x\"\n[z]\na = [", "1,", "1]\n"));
    assert!(matches!(err.kind(), DefinitionErrorKind::UnknownKey { key, .. } if key == "z"));
    assert_eq!(err.location(), at(2, 2));
    let err = refused(&filled("name = \"x\"\nz = ", "[", ""));
    assert!(matches!(err.kind(), DefinitionErrorKind::UnknownKey { .. }));
}

#[test]
fn a_huge_array_where_a_string_belongs_is_refused_at_its_bracket() {
    let err = refused(&filled("name = \"x\"\ndescription = [", "1,", "1]\n"));
    assert_eq!(
        wrong_type(&err),
        ("description", "a string, such as \"int8\"")
    );
    assert_eq!(err.location(), at(2, 15));
    let err = refused(&filled("name = \"x\"\n[dtypes]\nu8 = [", "\"x\",", "]\n"));
    assert_eq!(wrong_type(&err).0, "dtypes.u8");
    assert_eq!(err.location(), at(3, 6));
}

#[test]
fn millions_of_edges_are_refused_at_the_first_past_the_limit() {
    // `a = [` then "x", ... : element k starts at column 6 + 4k.
    let err = refused(&filled("name = \"x\"\n[edges]\na = [", "\"x\",", "]\n"));
    assert_eq!(err.kind(), &DefinitionErrorKind::TooManyEdges);
    assert_eq!(err.location(), at(3, 6 + 4 * MAX_EDGES));
    // One target per line, every line a comment too.
    let err = refused(&filled(
        "name = \"x\"\nedges.a = [\n",
        "  \"x\", # again\n",
        "]\n",
    ));
    assert_eq!(err.kind(), &DefinitionErrorKind::TooManyEdges);
    assert_eq!(err.location(), at(3 + MAX_EDGES, 3));
}

#[test]
fn a_huge_weak_list_is_refused_past_the_node_limit() {
    // `weak = [` then "x", ... : element k starts at column 9 + 4k.
    let err = refused(&filled("name = \"x\"\nweak = [", "\"x\",", "]\n"));
    assert_eq!(err.kind(), &DefinitionErrorKind::TooManyWeak);
    assert_eq!(err.location(), at(2, 9 + 4 * MAX_NODES));
    assert!(err
        .to_string()
        .contains(&format!("`weak` lists more than {MAX_NODES} labels")));
}

#[test]
fn huge_arrays_of_other_values_are_refused_at_the_first() {
    for (item, column) in [("1,", 6), ("true,", 6), ("[],", 6), ("{},", 6)] {
        let text = filled("name = \"x\"\n[edges]\na = [", item, "]\n");
        let err = refused(&text);
        assert_eq!(wrong_type(&err).0, "edges.a", "{item}");
        assert_eq!(err.location(), at(3, column), "{item}");
    }
    // Text that is not TOML at all is the TOML parser's to describe.
    let err = refused(&filled("name = \"x\"\n[edges]\na = [", "x,", "]\n"));
    assert!(
        matches!(err.kind(), DefinitionErrorKind::Toml { .. }),
        "{err}"
    );
    assert_eq!(err.location(), at(3, 6));
}

#[test]
fn deep_nesting_is_refused_at_the_second_level() {
    for (head, item, key, location) in [
        ("name = \"x\"\n[edges]\na = [", "[", "edges.a", at(3, 6)),
        (
            "name = \"x\"\nedges = { a = ",
            "{ a = ",
            "edges.a",
            at(2, 15),
        ),
        ("name = \"x\"\nweak = [", "[", "weak", at(2, 9)),
        (
            "name = \"x\"\ndtypes = { a = ",
            "{a=",
            "dtypes.a",
            at(2, 16),
        ),
    ] {
        let err = refused(&filled(head, item, ""));
        assert_eq!(wrong_type(&err).0, key, "{head}");
        assert_eq!(err.location(), location, "{head}");
    }
}

#[test]
fn very_many_keys_are_refused_past_the_node_limit() {
    // Distinct labels: the node limit, at the first key past it.
    type Line = fn(usize) -> String;
    let shapes: [(&str, Line, usize); 3] = [
        ("name = \"x\"\n[edges]\n", |k| format!("k{k} = []\n"), 1),
        (
            "name = \"x\"\n[dtypes]\n",
            |k| format!("k{k} = \"int8\"\n"),
            1,
        ),
        ("name = \"x\"\n", |k| format!("edges.k{k} = []\n"), 7),
    ];
    for (head, line, column) in shapes {
        let mut text = String::from(head);
        let mut k = 0;
        while text.len() < MAX_BYTES - 64 {
            text += &line(k);
            k += 1;
        }
        let err = refused(&text);
        assert_eq!(err.kind(), &DefinitionErrorKind::TooManyNodes, "{head}");
        let first = head.lines().count() + 1;
        assert_eq!(err.location(), at(first + MAX_NODES, column), "{head}");
    }
    // The same key again and again is a duplicate, found on its second line.
    let err = refused(&filled("", "name = \"x\"\n", ""));
    assert!(err.to_string().contains("duplicate key"), "{err}");
    assert_eq!(err.location().map(|l| l.line), Some(2));
    let err = refused(&filled("name = \"x\"\n", "[edges]\n", ""));
    assert_eq!(err.location().map(|l| l.line), Some(3), "{err}");
}

#[test]
fn big_files_within_the_limits_are_read() {
    // Comments and blank lines: nothing for the TOML parser to hold.
    let text = filled(
        "name = \"x\"\n[edges]\na = [\"b\"]\n",
        "# a comment\n\n",
        "",
    );
    let definition = parse(&text).unwrap();
    assert_eq!(definition.edges, [(0, 1)]);
    // One long description.
    let text = filled("name = \"x\"\ndescription = \"", "long ", "\"\n");
    assert!(parse(&text).unwrap().description.unwrap().len() > MAX_BYTES - 64);
    // Every edge the limits allow, written one label per line.
    let mut text = String::from("name = \"x\"\n[edges]\n");
    for from in 0..1000 {
        text += &format!("n{from} = [\n");
        for to in (from + 1..1000).take(MAX_EDGES / 1000) {
            text += &format!("  'n{to}',\n");
        }
        text += "]\n";
    }
    let definition = parse(&text).unwrap();
    assert_eq!(definition.nodes.len(), 1000);
    assert_eq!(
        definition.edges.len(),
        (0..1000).map(|from| (999 - from).min(250)).sum::<usize>()
    );
}

#[test]
fn standard_input_reads_like_a_file() {
    let text = b"name = \"piped\"\n[edges]\na = [\"b\"]\n";
    let definition = read_from(&text[..]).unwrap();
    assert_eq!(definition.name, "piped");
    assert_eq!(definition.edges, [(0, 1)]);
    let err = read_from(&b"name = \"x\"\n[edges]\na = \"b\"\n"[..])
        .unwrap_err()
        .with_path("<stdin>");
    assert_eq!(
        err.to_string(),
        "<stdin>:3:5: `edges.a` must be an array of node labels, such as [\"int16\", \"float16\"]"
    );
    // Reading stops one byte past the limit.
    let endless = std::io::repeat(b'#');
    let err = read_from(endless).unwrap_err();
    assert_eq!(err.kind(), &DefinitionErrorKind::TooLarge);
}
