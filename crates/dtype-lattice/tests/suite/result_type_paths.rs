//! `result_type` and `lattice_result_type` answer one or two operands from
//! tables and longer lists through an automaton (the general path);
//! `typed_result_type` takes the same operands read as (dtype, weak) pairs.
//! The paths must agree. (The golden tests check the functions themselves
//! against real JAX.)

use dtype_lattice::frameworks::jax::{Config, ExplicitX64, Jax};
use dtype_lattice::{Operand, OperandKind, Typed};
use dtype_lattice_testkit::operand_forms::operand_forms;
use dtype_lattice_testkit::rng::Rng;

fn configs() -> impl Iterator<Item = Jax> {
    Config::all().map(Jax::new)
}

fn typed(jax: Jax, list: &[Operand]) -> Vec<Typed> {
    list.iter().map(|&op| jax.dtype_and_weak_type(op)).collect()
}

/// Whether `result_type` refuses a specifier in `list`, which as a
/// (dtype, weak) pair has no refusal left to say.
fn refuses_a_specifier(jax: Jax, list: &[Operand]) -> bool {
    let config = jax.config();
    config.explicit_x64 == ExplicitX64::Error
        && !config.x64
        && list.iter().any(|op| match op.kind() {
            OperandKind::DType(dtype) => jax.canonicalize_dtype(dtype) != dtype,
            _ => false,
        })
}

/// A pair `[a, b]` comes from the table; `[a, b, a]` has the same
/// operands (joins are idempotent, and neither "all of one dtype" nor "all
/// weak" changes) but takes the general path.
#[test]
fn the_table_of_pairs_agrees_with_the_general_path() {
    let forms = operand_forms();
    for jax in configs() {
        for &a in &forms {
            for &b in &forms {
                assert_eq!(
                    jax.lattice_result_type(&[a, b]),
                    jax.lattice_result_type(&[a, b, a]),
                    "{jax:?}: {a:?}, {b:?}"
                );
                let pair = jax.result_type(&[a, b]);
                assert_eq!(pair, jax.result_type(&[a, b, a]), "{jax:?}: {a:?}, {b:?}");
                if !refuses_a_specifier(jax, &[a, b]) {
                    assert_eq!(
                        pair,
                        jax.typed_result_type(&typed(jax, &[a, b])),
                        "{jax:?}: {a:?}, {b:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn typed_result_type_agrees_with_result_type_on_longer_lists() {
    let forms = operand_forms();
    let mut rng = Rng(0x7E57);
    for jax in configs() {
        for _ in 0..3000 {
            let list: Vec<Operand> = (0..=rng.below(8))
                .map(|_| forms[rng.below(forms.len())])
                .collect();
            if refuses_a_specifier(jax, &list) {
                continue;
            }
            assert_eq!(
                jax.result_type(&list),
                jax.typed_result_type(&typed(jax, &list)),
                "{jax:?}: {list:?}"
            );
        }
    }
}
