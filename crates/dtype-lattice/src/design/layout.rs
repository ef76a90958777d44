//! A layered (Sugiyama-style) layout of a DAG, drawn left to right as JAX's
//! documentation draws its lattice.
//!
//! 1. **Layers.** A node's column is the length of the longest path to it
//!    from a source, so every edge points rightwards. An edge spanning
//!    several columns is split by a *dummy* vertex in each column between,
//!    so long edges take part in ordering and run straight through columns.
//! 2. **Order.** Within a column vertices start sorted by band (the caller's
//!    grouping, e.g. dtype kind), then barycenter sweeps move each vertex to
//!    the mean position of its neighbours in the previous column (sweeping
//!    right) or the next one (sweeping left; vertices with no successor sink
//!    to the bottom, so nodes that lead on stay together); ties keep bands
//!    together. The last order with the fewest crossings (counted exactly,
//!    O(e log e) per column pair) wins; the sweeps end rightwards, which
//!    regroups bands wherever the crossings allow.
//! 3. **Coordinates.** Columns are as wide as their widest node. Vertical
//!    positions are relaxed repeatedly towards the mean of the neighbours'
//!    positions, each column solved exactly as a least-squares problem under
//!    "keep the order and the minimum spacing" (isotonic regression by pool
//!    adjacent violators), which straightens edges without overlaps.
//! 4. **Routes.** Each edge leaves its source's right side and enters its
//!    target's left side (ports spread by the other end's height), passing
//!    horizontally through its dummies' columns.
//!
//! Every step is linear or n log n per sweep, so the layout of a lattice of
//! hundreds of nodes takes milliseconds.

use crate::engine::Poset;

/// Margin around the drawing.
const MARGIN: f64 = 16.0;
/// Minimum horizontal gap between columns.
const COLUMN_GAP: f64 = 56.0;
/// Vertical gap between two nodes of a column.
const NODE_GAP: f64 = 12.0;
/// Vertical gap next to a dummy (an edge passing through a column).
const DUMMY_GAP: f64 = 6.0;
/// Crossing-reduction sweeps, odd so the last goes rightwards: enough to
/// settle graphs of this kind; the best order seen is kept, so more would
/// only cost time.
const SWEEPS: usize = 25;
/// Coordinate relaxation rounds.
const RELAXATIONS: usize = 40;
/// The most vertices (nodes plus one per column an edge crosses) a layout
/// takes on: about a second of work here, and already far past what a
/// reader can follow.
pub const MAX_VERTICES: usize = 100_000;

/// A node's box size and band (vertices of lower bands start higher up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    /// Box width.
    pub width: f64,
    /// Box height.
    pub height: f64,
    /// Group rank for the initial order within a column.
    pub band: usize,
}

/// A point in the drawing.
pub type Point = (f64, f64);

/// Where everything goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The centre of each node's box, by node.
    pub centers: Vec<Point>,
    /// Each edge's route, in the order of [`Poset::edges`]: from a point on
    /// the source's right side to one on the target's left side.
    pub routes: Vec<Vec<Point>>,
    /// Size of the drawing, margins included.
    pub size: Point,
}

/// One vertex of the layered graph: a node, or a dummy on a long edge.
struct Layered {
    layer: usize,
    height: f64,
    band: usize,
    /// Vertices in the previous / next layer joined to this one.
    left: Vec<usize>,
    right: Vec<usize>,
}

/// A graph whose layout would need more than [`MAX_VERTICES`] vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// How many vertices it would need.
    pub vertices: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "drawing this graph would take {} vertices (nodes plus edge bends), more than the \
             {MAX_VERTICES} laid out here; draw it as DOT with Graphviz",
            self.vertices
        )
    }
}

impl std::error::Error for TooLarge {}

/// Lays out `poset` (a Hasse diagram: its edges are drawn as given) with
/// one [`Vertex`] per node.
///
/// # Panics
///
/// If `vertices` does not have one entry per node.
pub fn layout(poset: &Poset, vertices: &[Vertex]) -> Result<Layout, TooLarge> {
    assert_eq!(vertices.len(), poset.len(), "one vertex per node");
    let n = poset.len();
    let mut layer_of = vec![0usize; n];
    for &u in poset.topological_order() {
        for &v in poset.successors(u) {
            layer_of[v] = layer_of[v].max(layer_of[u] + 1);
        }
    }
    let dummies: usize = poset
        .edges()
        .map(|(u, v)| layer_of[v] - layer_of[u] - 1)
        .sum();
    if n + dummies > MAX_VERTICES {
        return Err(TooLarge {
            vertices: n + dummies,
        });
    }
    let mut graph: Vec<Layered> = (0..n)
        .map(|v| Layered {
            layer: layer_of[v],
            height: vertices[v].height,
            band: vertices[v].band,
            left: Vec::new(),
            right: Vec::new(),
        })
        .collect();
    // Each edge as its chain of vertices, dummies included.
    let mut chains: Vec<Vec<usize>> = Vec::new();
    for (u, v) in poset.edges() {
        let mut chain = vec![u];
        for layer in layer_of[u] + 1..layer_of[v] {
            graph.push(Layered {
                layer,
                height: 0.0,
                band: vertices[u].band,
                left: Vec::new(),
                right: Vec::new(),
            });
            chain.push(graph.len() - 1);
        }
        chain.push(v);
        for pair in chain.windows(2) {
            graph[pair[0]].right.push(pair[1]);
            graph[pair[1]].left.push(pair[0]);
        }
        chains.push(chain);
    }
    let layer_count = layer_of.iter().max().map_or(0, |&l| l + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layer_count];
    for (v, vertex) in graph.iter().enumerate() {
        layers[vertex.layer].push(v);
    }
    for layer in &mut layers {
        layer.sort_by_key(|&v| (graph[v].band, v));
    }
    let layers = order(&graph, layers);
    let y = vertical(&graph, &layers, n);
    let (x, widths) = horizontal(&graph, &layers, vertices, &y);
    let routes = chains
        .iter()
        .map(|chain| route(chain, n, &x, &y, vertices, &widths, &graph))
        .collect();
    let routes = spread_ports(routes, poset, vertices);
    let width = x
        .iter()
        .zip(&graph)
        .map(|(x, v)| x + widths[v.layer] / 2.0)
        .fold(0.0, f64::max)
        + MARGIN;
    let height = y
        .iter()
        .zip(&graph)
        .map(|(y, v)| y + v.height / 2.0)
        .fold(0.0, f64::max)
        + MARGIN;
    Ok(Layout {
        centers: (0..n).map(|v| (x[v], y[v])).collect(),
        routes,
        size: (width, height),
    })
}

/// Crossing reduction: barycenter sweeps, keeping the best order seen.
fn order(graph: &[Layered], mut layers: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let mut position = vec![0usize; graph.len()];
    let index = |layers: &[Vec<usize>], position: &mut [usize]| {
        for layer in layers {
            for (i, &v) in layer.iter().enumerate() {
                position[v] = i;
            }
        }
    };
    index(&layers, &mut position);
    let mut best = (crossings(graph, &layers, &position), layers.clone());
    for sweep in 0..SWEEPS {
        let rightwards = sweep % 2 == 0;
        let sequence: Vec<usize> = if rightwards {
            (1..layers.len()).collect()
        } else {
            (0..layers.len().saturating_sub(1)).rev().collect()
        };
        for l in sequence {
            let key = |v: usize| {
                let neighbours = if rightwards {
                    &graph[v].left
                } else {
                    &graph[v].right
                };
                if neighbours.is_empty() {
                    if rightwards {
                        position[v] as f64
                    } else {
                        f64::INFINITY
                    }
                } else {
                    neighbours.iter().map(|&w| position[w] as f64).sum::<f64>()
                        / neighbours.len() as f64
                }
            };
            let mut keyed: Vec<(f64, usize, usize, usize)> = layers[l]
                .iter()
                .map(|&v| (key(v), graph[v].band, position[v], v))
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
            layers[l] = keyed.into_iter().map(|(_, _, _, v)| v).collect();
            for (i, &v) in layers[l].iter().enumerate() {
                position[v] = i;
            }
        }
        let count = crossings(graph, &layers, &position);
        if count <= best.0 {
            best = (count, layers.clone());
        }
    }
    best.1
}

/// Exact number of edge crossings between consecutive layers: the
/// inversions among edges sorted by their left end, counted with a Fenwick
/// tree over right-end positions.
fn crossings(graph: &[Layered], layers: &[Vec<usize>], position: &[usize]) -> usize {
    let mut total = 0;
    for pair in layers.windows(2) {
        let mut edges: Vec<(usize, usize)> = pair[0]
            .iter()
            .flat_map(|&u| graph[u].right.iter().map(move |&v| (u, v)))
            .map(|(u, v)| (position[u], position[v]))
            .collect();
        edges.sort_unstable();
        let mut tree = vec![0usize; pair[1].len() + 1];
        for (seen, &(_, right)) in edges.iter().enumerate() {
            // Edges seen so far with a right end at or before this one's.
            let mut not_crossing = 0;
            let mut i = right + 1;
            while i > 0 {
                not_crossing += tree[i];
                i &= i - 1;
            }
            total += seen - not_crossing;
            let mut i = right + 1;
            while i < tree.len() {
                tree[i] += 1;
                i += i & i.wrapping_neg();
            }
        }
    }
    total
}

/// Vertical centres: relaxation towards neighbours, each layer fitted under
/// its order and spacing.
fn vertical(graph: &[Layered], layers: &[Vec<usize>], real: usize) -> Vec<f64> {
    let gap = |a: usize, b: usize| {
        let spacing = if a < real && b < real {
            NODE_GAP
        } else {
            DUMMY_GAP
        };
        (graph[a].height + graph[b].height) / 2.0 + spacing
    };
    let mut y = vec![0.0; graph.len()];
    for layer in layers {
        let mut at = 0.0;
        for (i, &v) in layer.iter().enumerate() {
            if i > 0 {
                at += gap(layer[i - 1], v);
            }
            y[v] = at;
        }
        let middle = at / 2.0;
        for &v in layer {
            y[v] -= middle;
        }
    }
    for round in 0..RELAXATIONS {
        // Alternate directions, and end with both sides at once so nodes
        // settle between their predecessors and successors.
        let (rightwards, both) = (round % 2 == 0, round + 4 >= RELAXATIONS);
        let sequence: Vec<usize> = if rightwards {
            (0..layers.len()).collect()
        } else {
            (0..layers.len()).rev().collect()
        };
        for l in sequence {
            let layer = &layers[l];
            let desired: Vec<f64> = layer
                .iter()
                .map(|&v| {
                    let vertex = &graph[v];
                    let (left, right): (&[usize], &[usize]) = match (both, rightwards) {
                        (true, _) => (&vertex.left, &vertex.right),
                        (false, true) => (&vertex.left, &[]),
                        (false, false) => (&[], &vertex.right),
                    };
                    let count = left.len() + right.len();
                    if count == 0 {
                        y[v]
                    } else {
                        left.iter().chain(right).map(|&w| y[w]).sum::<f64>() / count as f64
                    }
                })
                .collect();
            // Long edges are worth straightening more than a node's place.
            let weights: Vec<f64> = layer
                .iter()
                .map(|&v| if v < real { 1.0 } else { 2.0 })
                .collect();
            let gaps: Vec<f64> = layer.windows(2).map(|p| gap(p[0], p[1])).collect();
            for (&v, fitted) in layer.iter().zip(fit(&desired, &weights, &gaps)) {
                y[v] = fitted;
            }
        }
    }
    let top = y
        .iter()
        .zip(graph)
        .map(|(y, v)| y - v.height / 2.0)
        .fold(f64::INFINITY, f64::min);
    let shift = if top.is_finite() { MARGIN - top } else { 0.0 };
    y.iter().map(|y| y + shift).collect()
}

/// The positions closest to `desired` (weighted least squares) that keep
/// their order with at least `gaps[i]` between positions i and i + 1.
///
/// Writing y_i = z_i + (gaps before i), the constraint becomes z
/// non-decreasing: isotonic regression, solved by pooling adjacent
/// violators.
fn fit(desired: &[f64], weights: &[f64], gaps: &[f64]) -> Vec<f64> {
    let offsets: Vec<f64> = std::iter::once(0.0)
        .chain(gaps.iter().scan(0.0, |sum, g| {
            *sum += g;
            Some(*sum)
        }))
        .collect();
    // Blocks of pooled values: (weighted sum, total weight, length).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for ((d, w), offset) in desired.iter().zip(weights).zip(&offsets) {
        blocks.push((w * (d - offset), *w, 1));
        while let [.., (s1, w1, n1), (s2, w2, n2)] = blocks[..] {
            if s1 / w1 <= s2 / w2 {
                break;
            }
            blocks.truncate(blocks.len() - 2);
            blocks.push((s1 + s2, w1 + w2, n1 + n2));
        }
    }
    blocks
        .iter()
        .flat_map(|&(sum, weight, length)| std::iter::repeat_n(sum / weight, length))
        .zip(&offsets)
        .map(|(z, offset)| z + offset)
        .collect()
}

/// Column centres (one x per vertex) and column widths; a column gap grows
/// with the steepest edge crossing it, so steep edges stay readable.
fn horizontal(
    graph: &[Layered],
    layers: &[Vec<usize>],
    vertices: &[Vertex],
    y: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let widths: Vec<f64> = layers
        .iter()
        .map(|layer| {
            layer
                .iter()
                .filter_map(|&v| vertices.get(v).map(|vertex| vertex.width))
                .fold(0.0, f64::max)
        })
        .collect();
    let mut left = MARGIN;
    let mut centre = Vec::with_capacity(layers.len());
    for (l, layer) in layers.iter().enumerate() {
        centre.push(left + widths[l] / 2.0);
        let steepest = layer
            .iter()
            .flat_map(|&u| graph[u].right.iter().map(move |&v| (y[u] - y[v]).abs()))
            .fold(0.0, f64::max);
        left += widths[l] + COLUMN_GAP.max(steepest * 0.35).min(COLUMN_GAP * 2.5);
    }
    let x = graph.iter().map(|v| centre[v.layer]).collect();
    (x, widths)
}

/// The points of one edge: the source's right side, each dummy's column
/// crossed horizontally, the target's left side.
fn route(
    chain: &[usize],
    real: usize,
    x: &[f64],
    y: &[f64],
    vertices: &[Vertex],
    widths: &[f64],
    graph: &[Layered],
) -> Vec<Point> {
    let (&first, &last) = (chain.first().unwrap_or(&0), chain.last().unwrap_or(&0));
    let mut points = vec![(x[first] + vertices[first].width / 2.0, y[first])];
    for &d in chain.iter().filter(|&&v| v >= real) {
        let half = widths[graph[d].layer] / 2.0;
        points.push((x[d] - half, y[d]));
        points.push((x[d] + half, y[d]));
    }
    points.push((x[last] - vertices[last].width / 2.0, y[last]));
    points
}

/// Spreads the ends of edges sharing a node side over that side, ordered by
/// where each edge goes, so arrows do not pile onto one point.
fn spread_ports(
    mut routes: Vec<Vec<Point>>,
    poset: &Poset,
    vertices: &[Vertex],
) -> Vec<Vec<Point>> {
    // Edge indices at each node's right (outgoing) and left (incoming) side.
    let mut sides: Vec<[Vec<usize>; 2]> = vec![[Vec::new(), Vec::new()]; vertices.len()];
    for (e, (from, to)) in poset.edges().enumerate() {
        sides[from][0].push(e);
        sides[to][1].push(e);
    }
    for (vertex, sides) in vertices.iter().zip(&mut sides) {
        for (side, ends) in sides.iter_mut().enumerate() {
            if ends.len() < 2 {
                continue;
            }
            let outgoing = side == 0;
            // The y of the neighbouring point decides the order.
            let toward = |e: usize| {
                let route = &routes[e];
                route[if outgoing { 1 } else { route.len() - 2 }].1
            };
            ends.sort_by(|&a, &b| toward(a).total_cmp(&toward(b)));
            let step = ((vertex.height - 8.0) / (ends.len() - 1) as f64).min(5.0);
            let middle = (ends.len() - 1) as f64 / 2.0;
            for (k, &e) in ends.iter().enumerate() {
                let route = &mut routes[e];
                let i = if outgoing { 0 } else { route.len() - 1 };
                route[i].1 += (k as f64 - middle) * step;
            }
        }
    }
    routes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_keeps_order_and_spacing() {
        // Two vertices that both want y = 0 end up 10 apart, around 0.
        assert_eq!(fit(&[0.0, 0.0], &[1.0, 1.0], &[10.0]), [-5.0, 5.0]);
        // Already spaced: unchanged.
        assert_eq!(fit(&[0.0, 30.0], &[1.0, 1.0], &[10.0]), [0.0, 30.0]);
        // A heavier vertex moves less.
        assert_eq!(fit(&[0.0, 0.0], &[3.0, 1.0], &[8.0]), [-2.0, 6.0]);
    }

    #[test]
    fn crossings_are_counted_exactly() {
        // a, b on the left; c, d on the right; a -> d and b -> c cross once.
        let poset = Poset::from_dict(&[("a", &["d"][..]), ("b", &["c"])]).unwrap();
        let vertices = [Vertex {
            width: 10.0,
            height: 10.0,
            band: 0,
        }; 4];
        let graph: Vec<Layered> = (0..4)
            .map(|v| Layered {
                layer: usize::from(v == 1 || v == 3),
                height: vertices[v].height,
                band: 0,
                left: poset.edges().filter(|e| e.1 == v).map(|e| e.0).collect(),
                right: poset.successors(v).to_vec(),
            })
            .collect();
        let (a, d, b, c) = (0, 1, 2, 3);
        let crossed = [vec![a, b], vec![d, c]];
        let mut position = vec![0; 4];
        for layer in &crossed {
            for (i, &v) in layer.iter().enumerate() {
                position[v] = i;
            }
        }
        assert_eq!(crossings(&graph, &crossed, &position), 0);
        let swapped = [vec![a, b], vec![c, d]];
        for (i, &v) in swapped[1].iter().enumerate() {
            position[v] = i;
        }
        assert_eq!(crossings(&graph, &swapped, &position), 1);
    }
}
