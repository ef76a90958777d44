//! Graphs inside the lattice-file limits that are as hard as we know to
//! analyse: they once made `check` take minutes or gigabytes. The tests
//! check report sizes on small members of each family; `bench/bounds.sh`
//! times `dtype-lattice` on the full-size ones (`examples/adversarial.rs`
//! writes them as lattice files).

use crate::rng::Rng;

/// A graph as labels `n0`, `n1`, ... and edges between their indices.
pub struct Graph {
    pub nodes: usize,
    pub edges: Vec<(usize, usize)>,
}

/// The families, at the sizes of the issue that reported them.
pub const FAMILIES: [&str; 5] = ["antichain", "hubs", "middles", "random", "grid"];

impl Graph {
    pub fn labels(&self) -> impl Iterator<Item = String> {
        (0..self.nodes).map(|i| format!("n{i}"))
    }

    /// The graph as a lattice file called `name`.
    pub fn to_toml(&self, name: &str) -> String {
        let mut successors = vec![Vec::new(); self.nodes];
        for &(from, to) in &self.edges {
            successors[from].push(format!("\"n{to}\""));
        }
        let mut text = format!("name = \"{name}\"\n[edges]\n");
        for (from, targets) in successors.iter().enumerate() {
            text += &format!("n{from} = [{}]\n", targets.join(", "));
        }
        text
    }
}

/// A family at full size (as the issue measured it) or at a small scale
/// for debug-build tests: `None` for an unknown name.
pub fn family(name: &str, small: bool) -> Option<Graph> {
    Some(match (name, small) {
        ("antichain", false) => antichain(4096),
        ("antichain", true) => antichain(200),
        ("hubs", false) => hubs(2000, 300),
        ("hubs", true) => hubs(40, 12),
        ("middles", false) => middles(2000, 1000),
        ("middles", true) => middles(60, 30),
        ("random", false) => random(4096, 250_000),
        ("random", true) => random(300, 4000),
        ("grid", false) => grid(64),
        ("grid", true) => grid(12),
        _ => return None,
    })
}

/// `n` nodes and no edges: every pair has no upper bound.
pub fn antichain(n: usize) -> Graph {
    Graph {
        nodes: n,
        edges: Vec::new(),
    }
}

/// Two hubs (nodes 0 and 1) with edges to the same `tops` nodes, and
/// `sources` nodes under each hub: every pair of a source (or hub) of one
/// side with one of the other has all the tops as minimal common upper
/// bounds, and no least one.
pub fn hubs(tops: usize, sources: usize) -> Graph {
    let mut edges = Vec::new();
    let top = |i| 2 + i;
    for hub in [0, 1] {
        edges.extend((0..tops).map(|i| (hub, top(i))));
    }
    let first_source = 2 + tops;
    for side in 0..2 {
        for i in 0..sources {
            edges.push((first_source + side * sources + i, side));
        }
    }
    Graph {
        nodes: 2 + tops + 2 * sources,
        edges,
    }
}

/// The ambiguous pairs of [`hubs`]: the two hubs, each hub with the other
/// side's sources, and each pair of sources across the sides.
pub fn hubs_ambiguous(sources: usize) -> usize {
    1 + 2 * sources + sources * sources
}

/// A chain of `chain` nodes (0 -> 1 -> ...), two incomparable middles
/// (the next two nodes) with edges to both of two incomparable nodes
/// above them that both lead into the chain's bottom, and `sources` nodes
/// under each middle: every pair across the middles has the two nodes as
/// minimal common upper bounds, above which the whole chain lies.
pub fn middles(chain: usize, sources: usize) -> Graph {
    let mut edges: Vec<(usize, usize)> = (1..chain).map(|i| (i - 1, i)).collect();
    let (m1, m2, x, y) = (chain, chain + 1, chain + 2, chain + 3);
    edges.extend([(m1, x), (m1, y), (m2, x), (m2, y), (x, 0), (y, 0)]);
    let first_source = chain + 4;
    for (side, middle) in [m1, m2].into_iter().enumerate() {
        for i in 0..sources {
            edges.push((first_source + side * sources + i, middle));
        }
    }
    Graph {
        nodes: chain + 4 + 2 * sources,
        edges,
    }
}

/// The ambiguous pairs of [`middles`]: as [`hubs_ambiguous`], the middles
/// standing for the hubs.
pub fn middles_ambiguous(sources: usize) -> usize {
    hubs_ambiguous(sources)
}

/// A random DAG: `edges` distinct edges from a lower-numbered node to a
/// higher one (drawn with a fixed seed).
pub fn random(nodes: usize, edges: usize) -> Graph {
    let mut rng = Rng(nodes as u64 ^ edges as u64);
    let mut seen = std::collections::HashSet::new();
    while seen.len() < edges {
        let (a, b) = (rng.below(nodes), rng.below(nodes));
        if a != b {
            seen.insert((a.min(b), a.max(b)));
        }
    }
    let mut edges: Vec<(usize, usize)> = seen.into_iter().collect();
    edges.sort_unstable();
    Graph { nodes, edges }
}

/// The product of two chains of `side` nodes: a lattice.
pub fn grid(side: usize) -> Graph {
    let mut edges = Vec::new();
    for i in 0..side {
        for j in 0..side {
            let node = i * side + j;
            if i + 1 < side {
                edges.push((node, node + side));
            }
            if j + 1 < side {
                edges.push((node, node + 1));
            }
        }
    }
    Graph {
        nodes: side * side,
        edges,
    }
}
