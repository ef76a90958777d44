//! How the lattice engine scales: time and peak heap memory to validate and
//! compile synthetic lattices of 64 to 4096 nodes, to run what the `check`
//! command runs ([`analysis::check`]), and to verify the laws with
//! [`Lattice::verify_laws`].
//!
//! ```text
//! cargo run --release -p dtype-lattice --example scale            # the table
//! cargo run --release -p dtype-lattice --example scale -- --emit grid 1024
//! ```
//!
//! For `bench/compare.py`, `--emit FAMILY N` prints one graph instead (the
//! node count on the first line, then one edge `FROM TO` per line) and
//! `--compile FAMILY N` prints the median milliseconds to validate and
//! compile it. `--emit-toml FAMILY N` prints the graph as a lattice file,
//! for timing `dtype-lattice check` on it.
//!
//! Families (each also in a variant that is not a lattice):
//! - `grid`: the product of two chains of √N nodes, the lattice of pairs
//!   ordered component by component.
//! - `layered`: a random family of sets closed under union, cut to its N
//!   largest sets: a layered DAG (layers are set sizes) that is a lattice
//!   by construction, since an up-set of a union-closed family is closed
//!   under union. Edges add one generating set at a time, so many are
//!   transitive, as in hand-written lattices.
//! - `*-broken`: the same with two extra nodes both between a pair and its
//!   join, so that pair and every pair below it lose their least upper
//!   bound and the engine must list them all.
//!
//! Peak memory is measured with a counting allocator (heap bytes in use,
//! highest point during the work, minus what was in use before), beside the
//! budget the engine promises: the n x n join table of `u16` plus n x n
//! bits of closure.

use dtype_lattice_testkit::counting_alloc::{self, Counting};
use dtype_lattice_testkit::{adversarial, rng};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

use std::hint::black_box;
use std::time::{Duration, Instant};

use dtype_lattice::design::check;
use dtype_lattice::design::{Definition, NodeDef};
use dtype_lattice::engine::{Lattice, Node, Poset};

const SIZES: [usize; 4] = [64, 256, 1024, 4096];

use adversarial::Graph;

/// The product of two chains of √`nodes` nodes.
fn grid(nodes: usize) -> Graph {
    let side = (nodes as f64).sqrt() as usize;
    assert_eq!(side * side, nodes, "grid sizes are squares");
    adversarial::grid(side)
}

/// The `nodes` largest sets of a random union-closed family over 64
/// elements, ordered by inclusion, with an edge from each set to its union
/// with each generating set.
fn layered(nodes: usize) -> Graph {
    let mut rng = rng::Rng(nodes as u64);
    let mut generators: Vec<u64> = Vec::new();
    let mut family: std::collections::BTreeSet<u64> = Default::default();
    while family.len() < nodes {
        // Sets of two to four elements out of 24.
        let generator = (0..2 + rng.below(3)).fold(0, |set, _| set | 1 << rng.below(24));
        if family.contains(&generator) {
            continue;
        }
        let unions: Vec<u64> = family.iter().map(|set| set | generator).collect();
        family.extend(unions);
        family.insert(generator);
        generators.push(generator);
    }
    // Larger sets first: every superset of a kept set is kept, so the cut is
    // an up-set and joins (unions) of kept sets are kept.
    let mut sets: Vec<u64> = family.into_iter().collect();
    sets.sort_by_key(|set| (std::cmp::Reverse(set.count_ones()), *set));
    sets.truncate(nodes);
    let index: std::collections::HashMap<u64, Node> =
        sets.iter().enumerate().map(|(i, &set)| (set, i)).collect();
    let mut edges = Vec::new();
    for (i, &set) in sets.iter().enumerate() {
        for &generator in &generators {
            let bigger = set | generator;
            if bigger != set {
                edges.push((i, index[&bigger]));
            }
        }
    }
    Graph { nodes, edges }
}

/// The graph with two new nodes between an incomparable pair in its middle
/// and that pair's join, so the pair has two minimal upper bounds.
fn broken(mut graph: Graph) -> Graph {
    let lattice = Lattice::from_edges(graph.labels(), graph.edges.iter().copied())
        .expect("the families are lattices");
    let poset = lattice.poset();
    let middle = graph.nodes / 2;
    let (a, b, join) = (middle..graph.nodes)
        .flat_map(|a| (0..graph.nodes).map(move |b| (a, b)))
        .find_map(|(a, b)| {
            let join = lattice.join(a, b)?;
            (!poset.leq(a, b) && !poset.leq(b, a)).then_some((a, b, join))
        })
        .expect("a lattice of this size has incomparable pairs");
    let (p, q) = (graph.nodes, graph.nodes + 1);
    graph.nodes += 2;
    for extra in [p, q] {
        graph.edges.extend([(a, extra), (b, extra), (extra, join)]);
    }
    graph
}

fn family(name: &str, nodes: usize) -> Option<Graph> {
    Some(match name {
        "grid" => grid(nodes),
        "layered" => layered(nodes),
        "grid-broken" => broken(grid(nodes)),
        "layered-broken" => broken(layered(nodes)),
        _ => return None,
    })
}

const FAMILIES: [&str; 4] = ["grid", "layered", "grid-broken", "layered-broken"];

/// What the `check` command computes: [`analysis::check`]. Whether the
/// graph is a lattice, and how many pairs are ambiguous (for a non-lattice)
/// or have no upper bound (for a lattice).
fn check(graph: &Graph) -> (bool, usize) {
    let definition = Definition {
        name: "synthetic".into(),
        description: None,
        nodes: graph.labels().map(|l| NodeDef::from_label(&l)).collect(),
        edges: graph.edges.clone(),
    };
    let report = check::Check::new(&definition, check::EXAMPLES).expect("a well-formed graph");
    let lattice = report.is_lattice();
    let pairs = if lattice {
        report.no_upper_bound_count
    } else {
        report.ambiguous_count
    };
    (lattice, pairs)
}

/// Compiling a lattice and verifying its laws with
/// [`Lattice::verify_laws`]; `None` for a graph that is not a lattice.
fn verify(graph: &Graph) -> Option<()> {
    let lattice = Lattice::from_edges(graph.labels(), graph.edges.iter().copied()).ok()?;
    lattice
        .verify_laws()
        .expect("the engine's joins obey the laws");
    Some(())
}

/// The median and the fastest of `runs` timings of `work`.
fn time(runs: usize, mut work: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[runs / 2], times[0])
}

/// Peak heap bytes in use while `work` runs, above what was in use before.
fn peak_bytes(work: impl FnOnce()) -> usize {
    counting_alloc::reset_peak();
    let before = counting_alloc::stats();
    work();
    (counting_alloc::stats().peak - before.live) as usize
}

fn ms(duration: Duration) -> String {
    format!("{:.2}", duration.as_secs_f64() * 1e3)
}

fn mib(bytes: usize) -> String {
    format!("{:.2}", bytes as f64 / (1 << 20) as f64)
}

fn table() {
    println!(
        "| graph | nodes | edges | lattice | compile ms (median / min) \
         | `analysis::check` ms (median / min) | compile + `verify_laws` ms (median) \
         | ambiguous or unbounded pairs | peak heap MiB, compile \
         | peak heap MiB, check | budget MiB |"
    );
    println!("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for name in FAMILIES {
        for nodes in SIZES {
            let graph = family(name, nodes).expect("a known family");
            let n = graph.nodes;
            let runs = if n > 2048 { 3 } else { 7 };
            let compile = || {
                let poset = Poset::new(graph.labels(), graph.edges.iter().copied());
                black_box(poset.map(Lattice::new).map(|l| l.is_ok()).ok());
            };
            let (compile_median, compile_min) = time(runs, compile);
            let (check_median, check_min) = time(runs, || {
                black_box(check(&graph));
            });
            let verified = verify(&graph).map(|()| {
                let (median, _) = time(runs, || {
                    black_box(verify(&graph));
                });
                ms(median)
            });
            let compile_peak = peak_bytes(compile);
            let mut outcome = (false, 0);
            let check_peak = peak_bytes(|| outcome = check(&graph));
            let budget = n * n * 2 + n * n / 8;
            println!(
                "| {name} | {n} | {} | {} | {} / {} | {} / {} | {} | {} | {} | {} | {} |",
                graph.edges.len(),
                if outcome.0 { "yes" } else { "no" },
                ms(compile_median),
                ms(compile_min),
                ms(check_median),
                ms(check_min),
                verified.as_deref().unwrap_or("-"),
                outcome.1,
                mib(compile_peak),
                mib(check_peak),
                mib(budget),
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => table(),
        [flag, name, nodes] if flag == "--emit" => {
            let graph = graph_or_usage(name, nodes);
            println!("{}", graph.nodes);
            for (from, to) in &graph.edges {
                println!("{from} {to}");
            }
        }
        [flag, name, nodes] if flag == "--emit-toml" => {
            let graph = graph_or_usage(name, nodes);
            print!("{}", graph.to_toml(&format!("{name}-{nodes}")));
        }
        [flag, name, nodes] if flag == "--compile" => {
            let graph = graph_or_usage(name, nodes);
            let (median, _) = time(5, || {
                let poset = Poset::new(graph.labels(), graph.edges.iter().copied());
                black_box(poset.map(Lattice::new).map(|l| l.is_ok()).ok());
            });
            println!("{}", ms(median));
        }
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!("usage: scale [--emit|--compile {} N]", FAMILIES.join("|"));
    std::process::exit(2);
}

fn graph_or_usage(name: &str, nodes: &str) -> Graph {
    nodes
        .parse()
        .ok()
        .and_then(|nodes| family(name, nodes))
        .unwrap_or_else(|| usage())
}
