//! Unit tests of `mod.rs`.

use super::lattice::{node_label, NODE_COUNT, STANDARD, UINT32_X32, UINT32_X64};
use super::*;

fn all_configs() -> impl Iterator<Item = Jax> {
    Config::all().map(Jax::new)
}

#[test]
fn every_table_label_is_a_node() {
    for (from, targets) in STANDARD.iter().chain([&UINT32_X32, &UINT32_X64]) {
        for label in std::iter::once(from).chain(targets.iter()) {
            assert!((0..NODE_COUNT).any(|n| node_label(n) == *label), "{label}");
        }
    }
}

#[test]
fn the_automata_fit_their_tables() {
    for jax in all_configs() {
        let automaton = &jax.tables.automaton;
        let states = automaton.start.iter().chain(&automaton.next).max();
        let states = usize::from(*states.unwrap()) + 1;
        eprintln!("{}: {states} states", jax.name());
        assert!(states < 128, "{}: {states} states", jax.name());
    }
}

/// JAX's `promote_types` reads every type but `int`, `float` and
/// `complex` with `np.dtype`, so Python's `bool` is the `bool` dtype,
/// errors included (conformance/generate_jax.py checks this against
/// real JAX on every pair before it writes the golden file); the
/// promotion table gives it a row of its own.
#[test]
fn python_bool_promotes_as_the_bool_dtype() {
    let (python, dtype) = (
        TypeSpec::Python(PyScalar::Bool),
        TypeSpec::DType(DType::Bool),
    );
    for jax in all_configs() {
        for other in TypeSpec::ALL {
            let expected = jax.promote_types(dtype, other);
            assert_eq!(jax.promote_types(python, other), expected, "{other}");
            assert_eq!(
                jax.promote_types(other, python),
                jax.promote_types(other, dtype)
            );
        }
    }
}

#[test]
fn explicit_x64_modes_parse_by_jaxs_names_only() {
    for mode in ExplicitX64::ALL {
        assert_eq!(mode.name().parse(), Ok(mode));
        assert_eq!(mode.to_string(), mode.name());
    }
    for (input, near) in [("wran", Some("warn")), ("Error", Some("error")), ("", None)] {
        let err = input.parse::<ExplicitX64>().unwrap_err();
        assert_eq!(err.input(), input);
        let suggestion = near.map_or(String::new(), |n| format!(": did you mean '{n}'?"));
        assert_eq!(
            err.to_string(),
            format!(
                "unknown jax_explicit_x64_dtypes mode '{input}'{suggestion} \
                 (known: warn, error, allow)"
            )
        );
    }
    let err = "\u{1b}[31m".parse::<ExplicitX64>().unwrap_err();
    assert!(!err.to_string().contains('\u{1b}'), "{err}");
}

/// With x64 on JAX ignores the mode (`_maybe_canonicalize_explicit_dtype`
/// returns first thing), so the three share one set of tables; and
/// `promote_types` never requests a dtype, so its table is the same in
/// every mode.
#[test]
fn the_mode_changes_nothing_with_x64_or_in_promote_types() {
    for promotion in [Promotion::Standard, Promotion::Strict] {
        for x64 in [false, true] {
            let jax = |explicit_x64| {
                Jax::new(Config {
                    x64,
                    promotion,
                    explicit_x64,
                })
            };
            let warn = jax(ExplicitX64::Warn);
            for mode in ExplicitX64::ALL {
                let other = jax(mode);
                assert_eq!(
                    std::ptr::eq(warn.tables, other.tables),
                    x64 || mode == ExplicitX64::Warn
                );
                for a in TypeSpec::ALL {
                    for b in TypeSpec::ALL {
                        assert_eq!(warn.promote_types(a, b), other.promote_types(a, b));
                    }
                }
            }
        }
    }
}

#[test]
fn policy_names_show_the_mode_only_when_it_is_not_the_default() {
    let jax = |explicit_x64| {
        Jax::new(Config {
            explicit_x64,
            ..Config::default()
        })
        .name()
    };
    assert_eq!(jax(ExplicitX64::Warn), "jax (x64 off, standard)");
    assert_eq!(
        jax(ExplicitX64::Error),
        "jax (x64 off, standard, explicit-x64 error)"
    );
}

#[test]
fn all_three_lattices_compile() {
    for jax in all_configs() {
        assert_eq!(
            Policy::lattice(&jax).unwrap().len(),
            NODE_COUNT,
            "{}",
            jax.name()
        );
    }
}
