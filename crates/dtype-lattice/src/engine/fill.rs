//! The fast paths of filling the join table, kept apart from the rules
//! they speed up ([`Joins::new`](super::Joins::new) says what is computed):
//! sharing independent rows out among threads, taking a node's joins from
//! its few successors' joins, and mirroring the half of the table that was
//! computed.

use super::joins::PairSet;
use super::poset::{Node, Outcome, Poset, NO_JOIN};
use crate::prelude::*;

/// Runs `work` on the items in turn-about shares, one per thread, and
/// returns each share's result. Threads only for many items (the engine's
/// largest graphs), as many as the machine runs at once, at most four; a
/// single share otherwise.
pub(super) fn share_out<T: Send, R: Send>(
    items: Vec<T>,
    work: impl Fn(Vec<T>) -> R + Sync,
) -> Vec<R> {
    const ENOUGH: usize = 256;
    if items.len() < ENOUGH {
        return vec![work(items)];
    }
    spread(items, work)
}

/// Without std there are no threads: one share.
#[cfg(not(feature = "std"))]
fn spread<T, R>(items: Vec<T>, work: impl Fn(Vec<T>) -> R) -> Vec<R> {
    vec![work(items)]
}

/// `share_out`'s shares, one per thread the machine runs at once (at most
/// four).
#[cfg(feature = "std")]
fn spread<T: Send, R: Send>(items: Vec<T>, work: impl Fn(Vec<T>) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    if threads == 1 {
        return vec![work(items)];
    }
    // Turn-about (item i to share i % threads) balances rows whose cost
    // grows with their place in the order.
    let mut shares: Vec<Vec<T>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, item) in items.into_iter().enumerate() {
        shares[i % threads].push(item);
    }
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = shares
            .into_iter()
            .map(|share| scope.spawn(move || work(share)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Up to this many successors, a node's joins come from its successors'
/// joins (a table load each) rather than from the bit sets (two rows of
/// words): measured on grids and layered lattices, where most nodes have
/// two to eight successors.
pub(super) const FEW_SUCCESSORS: usize = 8;

/// The join of `a` and `b` from the joins of `a`'s successors with `b`,
/// where that decides it: if `b <= a` it is `a`; otherwise every common
/// upper bound lies above some successor `s`, so the pair's common bounds
/// are the union of the pairs `{s, b}`'s, and when each has a least element
/// the pair's join exists exactly when one of them lies below all the
/// others (the one of lowest rank, a bit test each). `None` where a pair
/// `{s, b}` is ambiguous: the caller settles it from the bit sets. The
/// pairs `{s, b}` must be in the table already.
pub(super) fn join_from_successors(
    poset: &Poset,
    joins: &[u16],
    ambiguous: &PairSet,
    a: Node,
    b: Node,
) -> Option<Outcome> {
    if poset.leq(b, a) {
        return Some(Outcome::Least(a));
    }
    let n = poset.len();
    let mut least: Option<Node> = None;
    for &s in &poset.successors[a] {
        match joins[s * n + b] {
            NO_JOIN if ambiguous.contains(s.min(b), s.max(b)) => return None,
            NO_JOIN => {}
            j => {
                let j = usize::from(j);
                if least.is_none_or(|c| poset.rank[j] < poset.rank[c]) {
                    least = Some(j);
                }
            }
        }
    }
    let Some(least) = least else {
        return Some(Outcome::None);
    };
    let below_all = poset.successors[a].iter().all(|&s| match joins[s * n + b] {
        NO_JOIN => true,
        j => poset.leq(least, usize::from(j)),
    });
    below_all.then_some(Outcome::Least(least))
}

/// Copies `table[b][a]` into `table[a][b]` wherever `upper(a, b)`, in
/// 64 x 64 blocks so that both the rows and the columns read stay in
/// cache (a column read whole misses the cache at every entry).
pub(super) fn mirror(table: &mut [u16], n: usize, upper: impl Fn(Node, Node) -> bool) {
    const BLOCK: usize = 64;
    for row_block in (0..n).step_by(BLOCK) {
        for column_block in (0..n).step_by(BLOCK) {
            for a in row_block..(row_block + BLOCK).min(n) {
                for b in column_block..(column_block + BLOCK).min(n) {
                    if upper(a, b) {
                        table[a * n + b] = table[b * n + a];
                    }
                }
            }
        }
    }
}

/// A row with only bit `r` set.
pub(super) fn own_bit(r: usize, words: usize) -> impl Iterator<Item = u64> {
    (0..words).map(move |w| if w == r / 64 { 1 << (r % 64) } else { 0 })
}
