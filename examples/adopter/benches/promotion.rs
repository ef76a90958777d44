//! The promotion step of the adopter's `a + b`, for all 64 pairs of its
//! dtypes under NumPy's rules: through the library (a policy chosen at run
//! time), through the generated tables (chosen at compile time), and the
//! hand-written `match` as the baseline, each timed in alternating chunks
//! with the baseline (the library's benchmarks' pairing,
//! `crates/dtype-lattice/benches/promotion/paired.rs`), whose ratios
//! BENCHMARKS.md records.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use dtype_lattice_adopter::{hand_add, BinOp, DType, Error, Library, Operand, Rules, Tables};

#[path = "../../../crates/dtype-lattice/benches/promotion/paired.rs"]
mod paired;

fn pairs() -> Vec<(DType, DType)> {
    DType::ALL
        .iter()
        .flat_map(|&a| DType::ALL.iter().map(move |&b| (a, b)))
        .collect()
}

/// Each pair's promotion by `rules`, statically dispatched as the array's
/// operators are.
fn via<R: Rules>(rules: &R, pairs: &[(DType, DType)]) {
    for &(a, b) in black_box(pairs) {
        let _ = black_box(rules.result(BinOp::Add, a, Operand::Array(b)));
    }
}

fn promotion(c: &mut Criterion) {
    let pairs = pairs();
    let numpy = Library::new("numpy").expect("numpy is a policy");
    let mut group = c.benchmark_group("adopter");
    // The match answers in the rules' type, as a `Rules` written by hand
    // would: the three differ only in how they find the dtype.
    let hand = || {
        for &(a, b) in black_box(&pairs) {
            let _ = black_box(Ok::<DType, Error>(hand_add(a, b)));
        }
    };
    let mut pairing = paired::Pairing::new(&mut group, "adopter", "numpy-add", hand);
    pairing.bench("tables", || via(&Tables, &pairs));
    pairing.bench("library", || via(&numpy, &pairs));
    group.finish();
}

criterion_group!(benches, promotion);
criterion_main!(benches);
