//! `graph`: the DOT and SVG drawings read back (a small DOT reader here, an
//! XML parser for the SVG) and compared with the Hasse diagram: every node
//! once, every diagram edge once, the highlight on the right elements; graphs
//! that are not lattices drawn too; bad arguments exit 2.

use std::collections::{BTreeMap, BTreeSet};

use crate::support::{run, stderr, stdout};
use dtype_lattice::design::graph::Drawing;
use dtype_lattice::design::{self, Definition, NodeDef};
use dtype_lattice::engine::transitive_reduction;
use dtype_lattice::engine::Poset;
use dtype_lattice::frameworks::jax::{Config, Jax, Promotion};
use dtype_lattice::Policy;

type Attributes = BTreeMap<String, String>;

/// A DOT document read back.
#[derive(Default)]
struct Dot {
    nodes: BTreeMap<String, Attributes>,
    edges: BTreeMap<(String, String), Attributes>,
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Id(String),
    Word(String),
    Arrow,
    Symbol(char),
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '"' => {
                let mut id = String::new();
                loop {
                    match chars.next().expect("closed quote") {
                        '"' => break,
                        '\\' => match chars.next().expect("escaped character") {
                            'n' => id.push('\n'),
                            other => id.push(other),
                        },
                        other => id.push(other),
                    }
                }
                out.push(Token::Id(id));
            }
            '-' if chars.peek() == Some(&'>') => {
                chars.next();
                out.push(Token::Arrow);
            }
            '{' | '}' | '[' | ']' | '=' | ',' | ';' => out.push(Token::Symbol(c)),
            c => {
                let mut word = String::from(c);
                while let Some(&next) = chars.peek() {
                    if next.is_alphanumeric() || next == '.' || next == '_' {
                        word.push(next);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push(Token::Word(word));
            }
        }
    }
    out
}

fn attributes(list: &[Token]) -> Attributes {
    list.split(|t| *t == Token::Symbol(','))
        .map(|pair| match pair {
            [Token::Word(key), Token::Symbol('='), Token::Id(value) | Token::Word(value)] => {
                (key.clone(), value.clone())
            }
            other => panic!("not an attribute: {other:?}"),
        })
        .collect()
}

/// Reads `digraph NAME { statement; ... }` in the subset `graph` writes;
/// anything else fails the test.
fn parse_dot(text: &str) -> Dot {
    let tokens = tokens(text);
    let [Token::Word(digraph), Token::Id(_), Token::Symbol('{'), body @ .., Token::Symbol('}')] =
        &tokens[..]
    else {
        panic!("not a digraph: {text}");
    };
    assert_eq!(digraph, "digraph");
    let mut dot = Dot::default();
    for statement in body.split(|t| *t == Token::Symbol(';')) {
        let (head, attrs) = match statement.iter().position(|t| *t == Token::Symbol('[')) {
            Some(open) => {
                assert_eq!(statement.last(), Some(&Token::Symbol(']')), "{statement:?}");
                (
                    &statement[..open],
                    attributes(&statement[open + 1..statement.len() - 1]),
                )
            }
            None => (statement, Attributes::new()),
        };
        match head {
            [] => assert!(attrs.is_empty()),
            [Token::Word(kind)] => assert!(["graph", "node", "edge"].contains(&kind.as_str())),
            [Token::Id(node)] => assert!(dot.nodes.insert(node.clone(), attrs).is_none()),
            [Token::Id(from), Token::Arrow, Token::Id(to)] => {
                let edge = (from.clone(), to.clone());
                assert!(dot.edges.insert(edge, attrs).is_none());
            }
            other => panic!("not a statement: {other:?}"),
        }
    }
    dot
}

fn configs() -> [Config; 3] {
    [
        Config::default(),
        Config {
            x64: true,
            ..Config::default()
        },
        Config {
            promotion: Promotion::Strict,
            ..Config::default()
        },
    ]
}

fn flags(config: Config) -> Vec<&'static str> {
    let mut flags = Vec::new();
    if config.x64 {
        flags.push("--x64");
    }
    if config.promotion == Promotion::Strict {
        flags.push("--strict");
    }
    flags
}

/// The Hasse diagram's edges as label pairs.
fn hasse_edges(poset: &Poset) -> BTreeSet<(String, String)> {
    let hasse = transitive_reduction(poset);
    hasse
        .edges()
        .map(|(a, b)| (hasse.label(a).to_owned(), hasse.label(b).to_owned()))
        .collect()
}

fn graph(config: Config, extra: &[&str]) -> String {
    let mut args = vec!["graph"];
    args.extend(flags(config));
    args.extend(extra);
    let output = run(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    stdout(&output)
}

fn classes(attributes: &Attributes) -> Vec<&str> {
    attributes
        .get("class")
        .map_or(Vec::new(), |c| c.split(' ').collect())
}

#[test]
fn dot_has_every_node_and_exactly_the_hasse_edges() {
    for config in configs() {
        let jax = Jax::new(config);
        let poset = jax.lattice().unwrap().poset();
        let dot = parse_dot(&graph(config, &["--format", "dot"]));
        let labels: BTreeSet<String> = poset.labels().iter().cloned().collect();
        assert_eq!(dot.nodes.keys().cloned().collect::<BTreeSet<_>>(), labels);
        assert_eq!(
            dot.edges.keys().cloned().collect::<BTreeSet<_>>(),
            hasse_edges(poset)
        );
        let weak = &dot.nodes["f*"];
        assert!(weak["style"].contains("dashed"));
        assert!(classes(weak).contains(&"weak"));
        assert!(classes(&dot.nodes["int8"]).contains(&"signed"));
    }
}

#[test]
fn dot_marks_the_pair_its_join_and_the_paths() {
    let dot = parse_dot(&graph(
        Config::default(),
        &["--format", "dot", "--highlight", "int8,uint8"],
    ));
    let joined = stdout(&run(&["promote", "int8", "uint8"]));
    let join = joined.trim();
    for input in ["int8", "uint8"] {
        assert!(classes(&dot.nodes[input]).contains(&"input"));
    }
    assert!(classes(&dot.nodes[join]).contains(&"join"));
    let marked: Vec<&str> = dot
        .nodes
        .iter()
        .filter(|(_, a)| a.contains_key("penwidth"))
        .map(|(label, _)| label.as_str())
        .collect();
    assert_eq!(marked.len(), 3, "{marked:?}");
    let path: BTreeSet<(String, String)> = dot
        .edges
        .iter()
        .filter(|(_, a)| classes(a).contains(&"path"))
        .map(|(edge, _)| edge.clone())
        .collect();
    let expected: BTreeSet<(String, String)> = [("int8", join), ("uint8", join)]
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .into();
    assert_eq!(path, expected);
}

/// Every element of the SVG whose class list starts with `first`.
fn elements_of_class<'a>(
    svg: &'a roxmltree::Document,
    first: &str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    svg.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').next() == Some(first))
        })
        .collect()
}

/// The labels of the SVG nodes that have `class` among their classes.
fn labels_with_class(svg: &roxmltree::Document, class: &str) -> BTreeSet<String> {
    svg.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|c| c == class))
        })
        .filter_map(|n| n.attribute("data-label").map(str::to_owned))
        .collect()
}

fn check_svg(text: &str, poset: &Poset) -> (usize, usize) {
    let svg = roxmltree::Document::parse(text).expect("well-formed XML");
    assert_eq!(svg.root_element().tag_name().name(), "svg");
    let nodes = elements_of_class(&svg, "node");
    let labels: BTreeSet<&str> = nodes
        .iter()
        .filter_map(|n| n.attribute("data-label"))
        .collect();
    assert_eq!(labels.len(), poset.len());
    assert!(poset.labels().iter().all(|l| labels.contains(l.as_str())));
    let edges: BTreeSet<(String, String)> = elements_of_class(&svg, "edge")
        .iter()
        .map(|e| {
            let end = |name| e.attribute(name).expect("edge ends").to_owned();
            (end("data-from"), end("data-to"))
        })
        .collect();
    assert_eq!(edges, hasse_edges(poset));
    let edge_count = elements_of_class(&svg, "edge").len();
    (nodes.len(), edge_count)
}

#[test]
fn svg_is_xml_with_one_element_per_node_and_edge() {
    for config in configs() {
        let jax = Jax::new(config);
        let poset = jax.lattice().unwrap().poset();
        let (nodes, edges) = check_svg(&graph(config, &[]), poset);
        assert_eq!(nodes, poset.len());
        assert_eq!(edges, hasse_edges(poset).len());
    }
}

#[test]
fn svg_marks_the_highlight() {
    let config = Config {
        x64: true,
        ..Config::default()
    };
    let text = graph(config, &["--highlight", "int8,uint32"]);
    check_svg(&text, Jax::new(config).lattice().unwrap().poset());
    let svg = roxmltree::Document::parse(&text).unwrap();
    let with_class = |class| labels_with_class(&svg, class);
    let join = stdout(&run(&["promote", "--x64", "int8", "uint32"]));
    assert_eq!(
        with_class("input"),
        ["int8", "uint32"].map(String::from).into()
    );
    assert_eq!(with_class("join"), [join.trim().to_owned()].into());
    let path_edges = svg
        .descendants()
        .filter(|n| n.attribute("class") == Some("edge path"))
        .count();
    // int8 -> int16 -> int32 -> int64 and uint32 -> int64.
    assert_eq!(path_edges, 4);
}

/// A definition from an adjacency list, weak where the notebook's labels
/// say so (a `*`), other labels opaque unless they are dtype names.
fn sketch(name: &str, dict: &[(&str, &[&str])]) -> Definition {
    let poset = Poset::from_dict(dict).unwrap();
    Definition {
        name: name.into(),
        description: None,
        nodes: poset
            .labels()
            .iter()
            .map(|label| NodeDef {
                weak: label.ends_with('*'),
                ..NodeDef::from_label(label)
            })
            .collect(),
        edges: poset.edges().collect(),
    }
}

#[test]
fn graphs_that_are_not_lattices_are_drawn_with_their_candidates() {
    // The design notebook's smallest graph that is not a lattice: A and B
    // both promote to C and to D, so they have no least upper bound.
    let sketch = sketch("not-a-lattice", &[("A", &["C", "D"]), ("B", &["C", "D"])]);
    assert!(sketch.lattice().is_err());
    let poset = sketch.poset().unwrap();
    let drawing = Drawing::new(&sketch, &poset, Some(["A", "B"])).unwrap();
    let text = drawing.svg().unwrap();
    check_svg(&text, &poset);
    let svg = roxmltree::Document::parse(&text).unwrap();
    let with_class = |class| labels_with_class(&svg, class);
    assert_eq!(with_class("candidate"), ["C", "D"].map(String::from).into());
    assert_eq!(with_class("opaque").len(), 4);
    assert!(with_class("join").is_empty());
    let dot = parse_dot(&drawing.dot());
    assert_eq!(dot.nodes.len(), 4);
    assert_eq!(dot.edges.len(), 4);
    assert!(dot.edges.values().all(|a| classes(a) == ["path"]));
}

#[test]
fn labels_are_escaped_in_both_formats() {
    let odd = sketch(
        "odd <labels> & \"quotes\"",
        &[("a<b", &["c\"d"]), ("c\"d", &["e&f\\"])],
    );
    let poset = odd.poset().unwrap();
    let drawing = Drawing::new(&odd, &poset, Some(["a<b", "e&f\\"])).unwrap();
    check_svg(&drawing.svg().unwrap(), &poset);
    let dot = parse_dot(&drawing.dot());
    assert!(dot.nodes.contains_key("c\"d"));
    assert!(dot
        .edges
        .contains_key(&("c\"d".to_owned(), "e&f\\".to_owned())));
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["graph", "--highlight", "int8"][..],
        &["graph", "--highlight", "int8,uint8,int16"],
        &["graph", "--highlight", "int8,unit8"],
        &["graph", "--format", "png"],
        &["graph", "--policy", "numpy"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&output).is_empty());
        assert!(stdout(&output).is_empty());
    }
    let output = run(&["graph", "--highlight", "int8,unit8"]);
    assert!(stderr(&output).contains("did you mean 'uint8'?"));
}

#[test]
fn graphs_too_large_to_lay_out_are_refused_quickly() {
    // 400 sources, each with one edge to the end of a 300-node chain: every
    // edge crosses 299 columns, 119,600 bends in all.
    let chain: Vec<String> = (0..300).map(|i| format!("c{i}")).collect();
    let sources: Vec<String> = (0..400).map(|i| format!("s{i}")).collect();
    let mut dict: Vec<(&str, Vec<&str>)> = chain
        .windows(2)
        .map(|w| (w[0].as_str(), vec![w[1].as_str()]))
        .collect();
    dict.extend(sources.iter().map(|s| (s.as_str(), vec!["c299"])));
    let dict: Vec<(&str, &[&str])> = dict.iter().map(|(k, v)| (*k, &v[..])).collect();
    let wide = sketch("wide", &dict);
    let poset = wide.poset().unwrap();
    let drawing = Drawing::new(&wide, &poset, None).unwrap();
    let Err(design::Error::TooLarge(err)) = drawing.svg() else {
        panic!("a drawing too large to lay out is refused as such");
    };
    assert_eq!(err.vertices, 700 + 400 * 298);
    // DOT has no layout to do.
    assert_eq!(parse_dot(&drawing.dot()).edges.len(), 299 + 400);
}

#[test]
fn empty_and_edgeless_graphs_are_drawn() {
    for dict in [&[][..], &[("alone", &[][..])]] {
        let lonely = sketch("lonely", dict);
        let poset = lonely.poset().unwrap();
        let drawing = Drawing::new(&lonely, &poset, None).unwrap();
        check_svg(&drawing.svg().unwrap(), &poset);
        assert_eq!(parse_dot(&drawing.dot()).nodes.len(), poset.len());
    }
}

#[test]
fn characters_xml_cannot_hold_are_replaced() {
    let odd = sketch("bell", &[("\u{7}\u{fffe}", &["ok"][..])]);
    let poset = odd.poset().unwrap();
    let text = Drawing::new(&odd, &poset, None).unwrap().svg().unwrap();
    let svg = roxmltree::Document::parse(&text).expect("well-formed XML");
    let labels: BTreeSet<&str> = elements_of_class(&svg, "node")
        .iter()
        .filter_map(|n| n.attribute("data-label"))
        .collect();
    assert_eq!(labels, ["\u{fffd}\u{fffd}", "ok"].into());
}

/// docs/lattices.md shows `docs/jax-lattice-x64.svg`, drawn by the command it
/// quotes. This keeps the picture in step with the drawing code; the
/// drawing's correctness is what the tests above check.
#[test]
fn the_readme_picture_is_what_graph_draws() {
    let drawn = graph(
        Config {
            x64: true,
            promotion: Promotion::Standard,
            ..Config::default()
        },
        &["--highlight", "int8,uint32"],
    );
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/jax-lattice-x64.svg"
    );
    let committed = std::fs::read_to_string(path).expect("docs/jax-lattice-x64.svg");
    assert!(
        drawn == committed,
        "docs/jax-lattice-x64.svg is stale; redraw it with \
         `cargo run --release -- graph --x64 --highlight int8,uint32 > docs/jax-lattice-x64.svg`"
    );
}
