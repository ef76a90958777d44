//! Promotion allocates nothing once JAX's lattices are built.
//!
//! A counting global allocator (per thread, so the test harness's other
//! threads do not count) is read around every call: `promote_types` on every
//! pair of lattice nodes, `result_type` and `lattice_result_type` on every
//! single operand, every pair and seeded lists of 3 to 8 operands, in all
//! twelve configurations (x64, promotion, explicit-x64 mode). Nothing
//! allocates, successes and errors alike: a `TypePromotionError` keeps the
//! inputs its message names inline (a `TypeList`), and the `ValueError`s
//! (no operands, `None` given to `lattice_result_type`, a 64-bit dtype
//! refused) hold nothing. The tests count errors too, so that they are
//! known to have been exercised.

use dtype_lattice::frameworks::jax::{Config, Jax};
use dtype_lattice::Policy;
use dtype_lattice::{DType, Operand, PromotionError, Typed};
use dtype_lattice_testkit::counting_alloc::{reset_peak, stats, Counting};
use dtype_lattice_testkit::operand_forms::operand_forms;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn configs() -> Vec<Jax> {
    Config::all().map(Jax::new).collect()
}

/// Builds every lattice and table (the first `Jax::new` builds them all),
/// so what follows runs "after warm-up".
fn warm_up() -> Vec<Jax> {
    let configs = configs();
    let int8 = Operand::dtype(DType::Int8);
    for jax in &configs {
        assert_eq!(jax.promote_types(DType::Int8, DType::Int8), Ok(DType::Int8));
        assert_eq!(
            jax.result_type(&[int8, int8]),
            Ok(Typed::strong(DType::Int8))
        );
    }
    configs
}

/// Runs `call` and checks that it neither allocates nor uses heap memory,
/// nor frees any when its result is dropped. Returns whether it
/// succeeded.
fn check<T>(what: &dyn Fn() -> String, call: impl FnOnce() -> Result<T, PromotionError>) -> bool {
    reset_peak();
    let before = stats();
    let result = call();
    let during = stats();
    let succeeded = result.is_ok();
    drop(result);
    let after = stats();
    assert_eq!(
        during.allocations,
        before.allocations,
        "{}: allocated",
        what()
    );
    assert_eq!(during.peak, before.live, "{}: used heap memory", what());
    assert_eq!(after.live, before.live, "{}: freed memory", what());
    succeeded
}

/// Checks the result-type functions on `list`; whether `result_type`
/// succeeded.
fn check_result_types(jax: Jax, list: &[Operand]) -> bool {
    let what = || format!("{jax:?}: {list:?}");
    let succeeded = check(&what, || jax.result_type(list));
    check(&what, || jax.lattice_result_type(list));
    let typed: Vec<Typed> = list.iter().map(|&op| jax.dtype_and_weak_type(op)).collect();
    check(&what, || jax.typed_result_type(&typed));
    succeeded
}

#[test]
fn promote_types_allocates_nothing_on_any_pair() {
    let mut failures = 0;
    for jax in warm_up() {
        let lattice = jax.lattice().expect("JAX is a lattice");
        for x in dtype_lattice_testkit::floor::node_types() {
            for y in dtype_lattice_testkit::floor::node_types() {
                let (a, b) = (
                    dtype_lattice_testkit::floor::node_of(&jax, x),
                    dtype_lattice_testkit::floor::node_of(&jax, y),
                );
                let what = || format!("{jax:?}: promote_types({x}, {y})");
                let succeeded = check(&what, || jax.promote_types(x, y));
                assert_eq!(succeeded, lattice.join(a, b).is_some(), "{}", what());
                failures += usize::from(!succeeded);
            }
        }
    }
    assert!(failures > 1000, "{failures}");
}

#[test]
fn result_types_allocate_nothing_on_single_operands_and_pairs() {
    let forms = operand_forms();
    let (mut successes, mut failures) = (0, 0);
    for jax in warm_up() {
        let lists = forms.iter().map(|&x| vec![x]).chain(
            forms
                .iter()
                .flat_map(|&x| forms.iter().map(move |&y| vec![x, y])),
        );
        for list in lists {
            if check_result_types(jax, &list) {
                successes += 1;
            } else {
                failures += 1;
            }
        }
    }
    assert!(
        successes > 30_000 && failures > 10_000,
        "{successes}, {failures}"
    );
}

#[test]
fn result_types_allocate_nothing_on_longer_lists() {
    let forms = operand_forms();
    let mut rng = dtype_lattice_testkit::rng::Rng(0x5EED);
    let mut below = |n| rng.below(n);
    // Mostly the common dtypes as arrays, so many lists promote.
    let common: Vec<Operand> = [
        DType::Bool,
        DType::UInt8,
        DType::Int16,
        DType::Int32,
        DType::BFloat16,
        DType::Float16,
        DType::Float32,
        DType::Complex64,
    ]
    .into_iter()
    .flat_map(|dtype| [false, true].map(|weak| Operand::array(dtype, weak)))
    .chain([Operand::py_int(2), Operand::py_float(2.0)])
    .collect();
    let (mut successes, mut tried) = (0, 0);
    for jax in warm_up() {
        for _ in 0..2000 {
            let len = 3 + below(6);
            let list: Vec<Operand> = (0..len)
                .map(|_| match below(4) {
                    0 => forms[below(forms.len())],
                    _ => common[below(common.len())],
                })
                .collect();
            successes += usize::from(check_result_types(jax, &list));
            tried += 1;
        }
    }
    assert!(
        successes > 2000 && tried - successes > 500,
        "{successes} of {tried}"
    );
}

#[test]
fn value_errors_allocate_nothing() {
    for jax in warm_up() {
        let what = || format!("{jax:?}");
        check(&what, || jax.result_type(&[]));
        check(&what, || jax.lattice_result_type(&[]));
        check(&what, || jax.lattice_result_type(&[Operand::NONE]));
        check(&what, || {
            jax.lattice_result_type(&[Operand::py_int(1), Operand::NONE])
        });
        let int64 = Operand::dtype(DType::Int64);
        check(&what, || jax.lattice_result_type(&[int64, Operand::NONE]));
        check(&what, || jax.result_type(&[int64]));
        check(&what, || jax.safe_to_cast(int64, DType::Int8));
        let wide = Operand::array(DType::Int64, false);
        check(&what, || {
            jax.result_type(&[wide, Operand::array(DType::Int8, false)])
        });
    }
}

#[test]
fn the_lattice_is_built_once() {
    for jax in warm_up() {
        let before = stats();
        let first: *const _ = jax.lattice().unwrap();
        let second: *const _ = Jax::new(jax.config()).lattice().unwrap();
        assert_eq!(first, second);
        assert_eq!(stats().allocations, before.allocations);
    }
}
