//! Lattice laws over every pair and triple of JAX's three lattices, and the
//! engine against a brute-force definition of "least upper bound" on random
//! graphs.

use dtype_lattice::engine::{Bound, Joins, Lattice, Poset};
use dtype_lattice::frameworks::jax::{Config, Jax, Promotion};
use dtype_lattice::DType;
use dtype_lattice::Policy;
use proptest::prelude::*;

/// JAX's three lattices (x64 off and on, strict), each with its
/// configuration's name.
pub(crate) fn jax_lattices() -> Vec<(String, Lattice)> {
    [
        (false, Promotion::Standard),
        (true, Promotion::Standard),
        (false, Promotion::Strict),
    ]
    .into_iter()
    .map(|(x64, promotion)| {
        let jax = Jax::new(Config {
            x64,
            promotion,
            ..Config::default()
        });
        (
            format!("{jax:?}"),
            jax.lattice().expect("JAX is a lattice").lattice().clone(),
        )
    })
    .collect()
}

#[test]
fn join_is_commutative_associative_and_idempotent_on_every_triple() {
    for (name, lattice) in jax_lattices() {
        let n = lattice.len();
        // JAX's dtypes (all but PyTorch's complex32) and i*, f*, c*.
        assert_eq!(n, DType::COUNT - 1 + 3);
        for a in 0..n {
            assert_eq!(lattice.join(a, a), Some(a), "{name}: idempotence at {a}");
            for b in 0..n {
                assert_eq!(lattice.join(a, b), lattice.join(b, a), "{name}: {a} {b}");
                for c in 0..n {
                    let left = lattice.join(a, b).and_then(|ab| lattice.join(ab, c));
                    let right = lattice.join(b, c).and_then(|bc| lattice.join(a, bc));
                    assert_eq!(left, right, "{name}: ({a} v {b}) v {c}");
                }
            }
        }
    }
}

#[test]
fn no_pair_of_a_jax_lattice_is_ambiguous() {
    for (name, lattice) in jax_lattices() {
        let poset = lattice.poset();
        for a in 0..poset.len() {
            for b in 0..poset.len() {
                let bound = poset.least_upper_bound(a, b);
                assert!(!matches!(bound, Bound::Ambiguous(_)), "{name}: {a} {b}");
                let expected = match bound {
                    Bound::Least(c) => Some(c),
                    _ => None,
                };
                assert_eq!(lattice.join(a, b), expected);
            }
        }
    }
}

/// JAX's own formula, from the design notebook: LUB(N) is CUB(N) ∩ N when
/// that is non-empty, else the c in CUB(N) with CUB(N) ⊆ UB(c).
fn jax_formula(poset: &Poset, nodes: &[usize]) -> Vec<usize> {
    let upper = |n: usize| poset.upper_bounds(n).collect::<Vec<_>>();
    let mut cub: Vec<usize> = upper(nodes[0]);
    for &n in &nodes[1..] {
        let ub = upper(n);
        cub.retain(|c| ub.contains(c));
    }
    let within: Vec<usize> = cub.iter().copied().filter(|c| nodes.contains(c)).collect();
    if !within.is_empty() {
        return within;
    }
    cub.iter()
        .copied()
        .filter(|&c| cub.iter().all(|x| upper(c).contains(x)))
        .collect()
}

#[test]
fn joins_of_triples_follow_jax_formula() {
    for (name, lattice) in jax_lattices() {
        let n = lattice.len();
        for a in 0..n {
            for b in 0..n {
                for c in 0..n {
                    let formula = jax_formula(lattice.poset(), &[a, b, c]);
                    assert!(formula.len() <= 1, "{name}: {formula:?}");
                    assert_eq!(
                        lattice.join_all([a, b, c]),
                        formula.first().copied(),
                        "{name}"
                    );
                }
            }
        }
    }
}

/// Reachability by depth-first search, the slow obvious way.
fn reachable(successors: &[Vec<usize>], from: usize) -> Vec<bool> {
    let mut seen = vec![false; successors.len()];
    let mut stack = vec![from];
    while let Some(v) = stack.pop() {
        if !std::mem::replace(&mut seen[v], true) {
            stack.extend(&successors[v]);
        }
    }
    seen
}

/// Random DAGs: edges only go from lower to higher index.
fn dags() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (2usize..12).prop_flat_map(|n| {
        let edge =
            (0..n, 0..n).prop_filter_map("forward edges", |(a, b)| (a < b).then_some((a, b)));
        (Just(n), proptest::collection::vec(edge, 0..n * 2))
    })
}

proptest! {
    #[test]
    fn engine_agrees_with_brute_force((n, edges) in dags()) {
        let labels: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
        let poset = Poset::new(labels.clone(), edges.iter().copied()).unwrap();
        let mut successors = vec![Vec::new(); n];
        for &(a, b) in &edges {
            successors[a].push(b);
        }
        let up: Vec<Vec<bool>> = (0..n).map(|v| reachable(&successors, v)).collect();
        let mut ambiguous = Vec::new();
        let mut joins = Vec::new();
        for a in 0..n {
            for b in 0..n {
                let common: Vec<usize> = (0..n).filter(|&c| up[a][c] && up[b][c]).collect();
                let least: Vec<usize> = common.iter().copied()
                    .filter(|&c| common.iter().all(|&d| up[c][d])).collect();
                let minimal: Vec<usize> = common.iter().copied()
                    .filter(|&c| !common.iter().any(|&d| d != c && up[d][c])).collect();
                let expected = match (common.is_empty(), least.first()) {
                    (true, _) => Bound::None,
                    (false, Some(&c)) => Bound::Least(c),
                    (false, None) => {
                        if a < b {
                            ambiguous.push(((a, b), minimal.clone()));
                        }
                        Bound::Ambiguous(minimal)
                    }
                };
                joins.push(least.first().copied());
                let mut actual = poset.least_upper_bound(a, b);
                if let Bound::Ambiguous(candidates) = &mut actual {
                    candidates.sort_unstable();
                }
                prop_assert_eq!(actual, expected);
            }
        }
        // Asked for every example, the engine lists exactly the ambiguous
        // pairs; by default, it counts them all and lists the first few.
        let every = Joins::with_examples(poset.clone(), n * n);
        let mut listed: Vec<((usize, usize), Vec<usize>)> = every
            .ambiguous()
            .iter()
            .cloned()
            .map(|mut p| { p.candidates.sort_unstable(); (p.pair, p.candidates) })
            .collect();
        listed.sort();
        prop_assert_eq!(&listed, &ambiguous);
        prop_assert_eq!(every.ambiguous_count(), ambiguous.len());
        match Lattice::new(poset) {
            Ok(lattice) => {
                prop_assert!(ambiguous.is_empty());
                let table: Vec<Option<usize>> = (0..n)
                    .flat_map(|a| (0..n).map(move |b| (a, b)))
                    .map(|(a, b)| lattice.join(a, b))
                    .collect();
                prop_assert_eq!(table, joins);
                prop_assert_eq!(lattice.verify_laws(), Ok(()));
            }
            Err(dtype_lattice::engine::LatticeError::Ambiguous { pairs, count, .. }) => {
                let found: Vec<((usize, usize), Vec<usize>)> = pairs
                    .into_iter()
                    .map(|mut p| { p.candidates.sort_unstable(); (p.pair, p.candidates) })
                    .collect();
                prop_assert_eq!(count, ambiguous.len());
                let first = ambiguous.len().min(Joins::EXAMPLES);
                prop_assert_eq!(&found[..], &ambiguous[..first]);
            }
            Err(err) => prop_assert!(false, "{}", err),
        }
    }

    #[test]
    fn cycles_are_always_found(n in 2usize..10, extra in proptest::collection::vec((0usize..10, 0usize..10), 0..10)) {
        // A ring through every node, plus random edges.
        let mut edges: Vec<(usize, usize)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        edges.extend(extra.into_iter().filter(|&(a, b)| a < n && b < n && a != b));
        let labels: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        match Poset::new(labels, edges.iter().copied()) {
            Err(dtype_lattice::engine::GraphError::Cycle { nodes }) => {
                // Each named node has an edge to the next.
                let index = |s: &String| s.parse::<usize>().unwrap();
                for (i, node) in nodes.iter().enumerate() {
                    let next = &nodes[(i + 1) % nodes.len()];
                    prop_assert!(edges.contains(&(index(node), index(next))));
                }
            }
            other => prop_assert!(false, "expected a cycle, got {:?}", other.map(|p| p.len())),
        }
    }
}
