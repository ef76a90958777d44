//! Reports stay bounded whatever the graph holds: exact counts, the first
//! few examples, and a flag when the list is cut. The families are the
//! adversarial graphs of `support/adversarial.rs` at a size a debug build
//! checks quickly; `bench/bounds.sh` times the full sizes. Expected counts
//! come from each family's construction, not from a run.

use dtype_lattice::design::check::Check;
use dtype_lattice::design::{Definition, NodeDef};
use dtype_lattice::engine::{Joins, Lattice, LatticeError, Poset};
use dtype_lattice_testkit::adversarial::Graph;

fn definition(graph: &Graph) -> Definition {
    Definition {
        name: "adversarial".into(),
        description: None,
        nodes: graph.labels().map(|l| NodeDef::from_label(&l)).collect(),
        edges: graph.edges.clone(),
    }
}

fn checked(graph: &Graph, examples: usize) -> Check {
    Check::new(&definition(graph), examples).expect("a well-formed graph")
}

#[test]
fn an_antichain_counts_every_pair_and_lists_the_first() {
    let n = 200;
    let report = checked(&dtype_lattice_testkit::adversarial::antichain(n), 10);
    assert_eq!(report.no_upper_bound_count, n * (n - 1) / 2);
    assert_eq!(
        report.no_upper_bound,
        (1..=10).map(|b| (0, b)).collect::<Vec<_>>()
    );
    assert!(report.is_truncated());
    assert_eq!(report.ambiguous_count, 0);
    assert!(report.is_lattice(), "an antichain is a partial lattice");
}

#[test]
fn ambiguous_pairs_are_counted_and_the_first_listed_with_their_candidates() {
    let (tops, sources) = (40, 12);
    let report = checked(&dtype_lattice_testkit::adversarial::hubs(tops, sources), 3);
    assert_eq!(
        report.ambiguous_count,
        dtype_lattice_testkit::adversarial::hubs_ambiguous(sources)
    );
    assert_eq!(report.ambiguous.len(), 3);
    // The first pair by index is the two hubs; every listed pair has all
    // the tops as candidates.
    assert_eq!(report.ambiguous[0].pair, (0, 1));
    for ambiguity in &report.ambiguous {
        assert_eq!(ambiguity.candidates, (2..2 + tops).collect::<Vec<_>>());
    }
    assert_eq!(report.no_upper_bound_count, tops * (tops - 1) / 2);
    assert!(report.is_truncated() && !report.is_lattice());

    let (chain, sources) = (60, 30);
    let report = checked(
        &dtype_lattice_testkit::adversarial::middles(chain, sources),
        5,
    );
    assert_eq!(
        report.ambiguous_count,
        dtype_lattice_testkit::adversarial::middles_ambiguous(sources)
    );
    let (x, y) = (chain + 2, chain + 3);
    assert_eq!(report.ambiguous[0].candidates, [x, y]);
    assert_eq!(report.no_upper_bound_count, 0);
}

#[test]
fn asking_for_no_examples_still_counts() {
    let report = checked(&dtype_lattice_testkit::adversarial::hubs(10, 4), 0);
    assert!(report.ambiguous.is_empty() && report.no_upper_bound.is_empty());
    assert_eq!(
        report.ambiguous_count,
        dtype_lattice_testkit::adversarial::hubs_ambiguous(4)
    );
    assert_eq!(report.no_upper_bound_count, 10 * 9 / 2);
}

#[test]
fn a_report_of_every_family_is_small() {
    for name in dtype_lattice_testkit::adversarial::FAMILIES {
        let graph = dtype_lattice_testkit::adversarial::family(name, true).unwrap();
        let report = checked(&graph, 10);
        assert!(
            report.ambiguous.len() <= 10 && report.no_upper_bound.len() <= 10,
            "{name}"
        );
        assert_eq!(
            report.is_truncated(),
            report.ambiguous_count > 10 || report.no_upper_bound_count > 10,
            "{name}"
        );
    }
}

#[test]
fn the_engines_error_lists_a_bounded_sample_and_the_count() {
    let sources = 12;
    let graph = dtype_lattice_testkit::adversarial::hubs(40, sources);
    let err = Lattice::from_edges(graph.labels(), graph.edges.iter().copied()).unwrap_err();
    let LatticeError::Ambiguous { pairs, count, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        *count,
        dtype_lattice_testkit::adversarial::hubs_ambiguous(sources)
    );
    assert_eq!(pairs.len(), Joins::EXAMPLES);
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "not a lattice: {count} pairs have no least upper bound; the first {}: {{n0, n1}} has 40 minimal common upper bounds",
            Joins::EXAMPLES
        )),
        "{text}"
    );
    // The message names each listed pair once: it grows with the sample,
    // not with the graph.
    assert_eq!(
        text.matches(" minimal common upper bounds ").count(),
        Joins::EXAMPLES
    );
}

#[test]
fn node_indices_out_of_range_are_answered_not_panicked() {
    let poset = Poset::from_dict(&[("a", &["b"][..])]).unwrap();
    let far = 1_000;
    assert!(!poset.leq(0, far) && !poset.leq(far, 0));
    assert!(poset.successors(far).is_empty());
    assert_eq!(poset.upper_bounds(far).count(), 0);
    assert_eq!(
        poset.least_upper_bound(0, far),
        dtype_lattice::engine::Bound::None
    );
    let joins = Joins::new(poset);
    assert_eq!(joins.join(0, far), None);
    assert!(!joins.is_ambiguous(0, far));
}

/// However many examples are asked for, at most `MAX_EXAMPLES` of each
/// finding are listed (each ambiguous pair carries every candidate, so an
/// unbounded list could hold millions of them); the counts stay exact.
#[test]
fn examples_are_capped_whatever_is_asked() {
    use dtype_lattice::design::check::MAX_EXAMPLES;
    let sources = 40;
    let report = checked(
        &dtype_lattice_testkit::adversarial::hubs(8, sources),
        usize::MAX,
    );
    let ambiguous = dtype_lattice_testkit::adversarial::hubs_ambiguous(sources);
    assert!(ambiguous > MAX_EXAMPLES, "{ambiguous}");
    assert_eq!(report.ambiguous_count, ambiguous);
    assert_eq!(report.ambiguous.len(), MAX_EXAMPLES);
    assert!(report.is_truncated());
}

#[test]
fn an_ambiguous_pair_lists_its_first_hundred_candidates_and_counts_them_all() {
    use dtype_lattice::engine::MAX_CANDIDATES;
    let tops = MAX_CANDIDATES + 50;
    let report = checked(&dtype_lattice_testkit::adversarial::hubs(tops, 2), 4);
    assert_eq!(report.ambiguous.len(), 4);
    for ambiguity in &report.ambiguous {
        // The tops are nodes 2.., in topological order: the first hundred.
        assert_eq!(
            ambiguity.candidates,
            (2..2 + MAX_CANDIDATES).collect::<Vec<_>>()
        );
        assert_eq!(ambiguity.candidate_count, tops);
        assert_eq!(ambiguity.more(), ", and 50 more");
    }
    let definition = definition(&dtype_lattice_testkit::adversarial::hubs(tops, 2));
    let json = report.to_json(&definition);
    assert_eq!(json["ambiguous"][0]["candidate_count"], tops);
    assert_eq!(
        json["ambiguous"][0]["candidates"].as_array().map(Vec::len),
        Some(MAX_CANDIDATES)
    );
}
