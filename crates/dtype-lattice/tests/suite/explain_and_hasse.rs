//! The analysis behind `explain` and `graph`, checked against definitions
//! written independently here: reachability and distances by Floyd-Warshall,
//! the Hasse diagram by "no other path", least upper bounds by brute force.
//! Graphs: JAX's three lattices, the design notebook's graphs (lattices and
//! not), and random DAGs.

use crate::lattice_properties::jax_lattices;
use dtype_lattice::engine::transitive_reduction;
use dtype_lattice::engine::Explanation;
use dtype_lattice::engine::{Bound, Lattice, Node, Poset};
use proptest::prelude::*;

const UNREACHABLE: usize = usize::MAX;

/// Shortest edge counts between all pairs (0 on the diagonal).
fn distances(poset: &Poset) -> Vec<Vec<usize>> {
    let n = poset.len();
    let mut d = vec![vec![UNREACHABLE; n]; n];
    for (v, row) in d.iter_mut().enumerate() {
        row[v] = 0;
    }
    for (a, b) in poset.edges() {
        d[a][b] = 1;
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if d[i][k] != UNREACHABLE && d[k][j] != UNREACHABLE {
                    d[i][j] = d[i][j].min(d[i][k] + d[k][j]);
                }
            }
        }
    }
    d
}

/// Whether `to` is reachable from `from` without the edge `skip`.
fn reachable_without(poset: &Poset, from: Node, to: Node, skip: (Node, Node)) -> bool {
    let mut stack = vec![from];
    let mut seen = vec![false; poset.len()];
    while let Some(v) = stack.pop() {
        if v == to {
            return true;
        }
        for &w in poset.successors(v) {
            if (v, w) != skip && !seen[w] {
                seen[w] = true;
                stack.push(w);
            }
        }
    }
    false
}

fn check_reduction(poset: &Poset) {
    let hasse = transitive_reduction(poset);
    assert_eq!(hasse.labels(), poset.labels());
    let kept: Vec<(Node, Node)> = hasse.edges().collect();
    for (u, v) in poset.edges() {
        let implied = reachable_without(poset, u, v, (u, v));
        assert_eq!(
            kept.contains(&(u, v)),
            !implied,
            "edge {} -> {}",
            poset.label(u),
            poset.label(v)
        );
    }
    assert!(kept.iter().all(|e| poset.edges().any(|f| f == *e)));
}

fn check_explanations(poset: &Poset, lattice: Option<&Lattice>) {
    let d = distances(poset);
    let n = poset.len();
    let reaches = |a: Node, b: Node| d[a][b] != UNREACHABLE;
    for a in 0..n {
        for b in 0..n {
            let why = Explanation::new(poset, a, b);
            for (input, bounds) in [a, b].iter().zip(&why.upper_bounds) {
                let expected: Vec<Node> = (0..n).filter(|&c| reaches(*input, c)).collect();
                let mut got = bounds.clone();
                got.sort_unstable();
                assert_eq!(got, expected);
            }
            let common: Vec<Node> = (0..n).filter(|&c| reaches(a, c) && reaches(b, c)).collect();
            let mut got = why.common.clone();
            got.sort_unstable();
            assert_eq!(got, common);
            let least = common
                .iter()
                .copied()
                .find(|&c| common.iter().all(|&x| reaches(c, x)));
            let minimal: Vec<Node> = common
                .iter()
                .copied()
                .filter(|&c| common.iter().all(|&x| x == c || !reaches(x, c)))
                .collect();
            match (&why.bound, least) {
                (Bound::Least(join), Some(expected)) => {
                    assert_eq!(*join, expected);
                    if let Some(lattice) = lattice {
                        assert_eq!(lattice.join(a, b), Some(*join));
                    }
                    let paths = why.paths.as_ref().expect("a join has paths");
                    for (input, path) in [a, b].iter().zip(paths) {
                        assert_eq!(path.first(), Some(input));
                        assert_eq!(path.last(), Some(join));
                        assert!(path
                            .windows(2)
                            .all(|w| poset.successors(w[0]).contains(&w[1])));
                        assert_eq!(path.len() - 1, d[*input][*join], "not shortest");
                    }
                }
                (Bound::None, None) => {
                    assert!(common.is_empty());
                    assert_eq!(why.paths, None);
                }
                (Bound::Ambiguous(candidates), None) => {
                    let mut got = candidates.clone();
                    got.sort_unstable();
                    assert_eq!(got, minimal);
                    assert!(minimal.len() >= 2);
                }
                (bound, least) => panic!("{bound:?} but brute force says {least:?}"),
            }
        }
    }
}

type Dict = &'static [(&'static str, &'static [&'static str])];

/// Graphs from the design notebook (JEP 9407), as its code cells write them.
const NOTEBOOK: &[Dict] = &[
    &[("int", &["float"]), ("float", &["complex"])],
    &[("A", &["B", "C"])],
    // "not a lattice": A and B have two minimal upper bounds.
    &[("A", &["C", "D"]), ("B", &["C", "D"])],
    // Integers that promote to floats of twice their width.
    &[
        ("i*", &["f*", "u8", "i8"]),
        ("f*", &["c*", "f16"]),
        ("c*", &["c64"]),
        ("u8", &["u16", "i16", "f16"]),
        ("u16", &["u32", "i32", "f32"]),
        ("u32", &["u64", "i64", "f64"]),
        ("i8", &["i16", "f16"]),
        ("i16", &["i32", "f32"]),
        ("i32", &["i64", "f64"]),
        ("f16", &["f32"]),
        ("f32", &["f64", "c64"]),
        ("f64", &["c128"]),
        ("c64", &["c128"]),
    ],
    // Option 3 of the notebook, with a redundant edge added (i8 -> i32).
    &[
        ("i*", &["u8", "i8"]),
        ("f*", &["c*", "f16", "bf16"]),
        ("c*", &["c64"]),
        ("u8", &["u16", "i16"]),
        ("u16", &["u32", "i32"]),
        ("u32", &["u64", "i64"]),
        ("u64", &["f*"]),
        ("i8", &["i16", "i32"]),
        ("i16", &["i32"]),
        ("i32", &["i64"]),
        ("i64", &["f*"]),
        ("f16", &["f32"]),
        ("bf16", &["f32"]),
        ("f32", &["f64", "c64"]),
        ("f64", &["c128"]),
        ("c64", &["c128"]),
    ],
];

#[test]
fn hasse_diagrams_drop_exactly_the_implied_edges() {
    for (_, lattice) in jax_lattices() {
        check_reduction(lattice.poset());
    }
    for dict in NOTEBOOK {
        check_reduction(&Poset::from_dict(dict).unwrap());
    }
    // The redundant edge of the last notebook graph goes, the others stay.
    let option3 = Poset::from_dict(NOTEBOOK[4]).unwrap();
    let hasse = transitive_reduction(&option3);
    assert_eq!(hasse.edges().count(), option3.edges().count() - 1);
    let (i8_, i32_) = (option3.node("i8").unwrap(), option3.node("i32").unwrap());
    assert!(!hasse.successors(i8_).contains(&i32_));
}

#[test]
fn explanations_match_brute_force_on_jax_lattices() {
    for (_, lattice) in jax_lattices() {
        check_explanations(lattice.poset(), Some(&lattice));
        // The drawn paths run on the Hasse diagram, whose joins are the same.
        let hasse = transitive_reduction(lattice.poset());
        check_explanations(&hasse, Some(&lattice));
    }
}

#[test]
fn explanations_match_brute_force_on_notebook_graphs() {
    for dict in NOTEBOOK {
        let poset = Poset::from_dict(dict).unwrap();
        let lattice = Lattice::new(poset.clone()).ok();
        check_explanations(&poset, lattice.as_ref());
    }
    // The notebook's statement about the twice-width graph: "i8 and u8 have
    // two minimal upper bounds, i16 and f16".
    let poset = Poset::from_dict(NOTEBOOK[3]).unwrap();
    let [i8_, u8_, i16_, f16_] = ["i8", "u8", "i16", "f16"].map(|l| poset.node(l).unwrap());
    let why = Explanation::new(&poset, i8_, u8_);
    let Bound::Ambiguous(mut candidates) = why.bound else {
        panic!("{:?}", why.bound)
    };
    candidates.sort_unstable();
    let mut expected = vec![i16_, f16_];
    expected.sort_unstable();
    assert_eq!(candidates, expected);
}

/// A DAG on `n` nodes: edges only from lower to higher index, labels
/// shuffled by `rotate` so the index order is not the label order.
fn dag() -> impl Strategy<Value = Poset> {
    (2usize..12)
        .prop_flat_map(|n| {
            (
                Just(n),
                proptest::collection::vec((0..n, 0..n), 0..3 * n),
                0..n,
            )
        })
        .prop_map(|(n, pairs, rotate)| {
            let labels = (0..n).map(|i| format!("n{}", (i + rotate) % n));
            let edges = pairs
                .into_iter()
                .filter(|(a, b)| a != b)
                .map(|(a, b)| (a.min(b), a.max(b)));
            Poset::new(labels, edges).unwrap()
        })
}

proptest! {
    #[test]
    fn random_dags_agree_with_brute_force(poset in dag()) {
        check_reduction(&poset);
        let lattice = Lattice::new(poset.clone()).ok();
        check_explanations(&poset, lattice.as_ref());
        check_explanations(&transitive_reduction(&poset), lattice.as_ref());
    }
}
