//! PyTorch's `complex32`, which only PyTorch has: every other policy
//! refuses it, on every question, with an error that names it.

use dtype_lattice::registry::{by_name, names, Settings};
use dtype_lattice::{Call, DType, Op, OpForm, Operand, OperandKind, Policy, PyScalar, TypeSpec};

/// Every policy and preset but PyTorch's, under the defaults and x64.
fn others() -> Vec<(String, Box<dyn Policy>)> {
    let mut policies = Vec::new();
    for settings in Settings::combinations(["x64"]) {
        for name in names().filter(|&name| name != "torch") {
            let policy = by_name(name, settings).unwrap();
            // A policy that answers nothing under these settings says so.
            let int8 = TypeSpec::DType(DType::Int8);
            if policy.promote_types(int8, int8).is_ok() {
                policies.push((name.to_owned(), policy));
            }
        }
    }
    policies
}

/// The operands a program could hold beside a `complex32` one.
fn partners() -> Vec<Operand> {
    let mut partners = vec![Operand::py_int(2), Operand::py_complex(0.0, 1.0)];
    for dtype in [DType::Float16, DType::Complex64, DType::Int8] {
        partners.extend([Operand::dtype(dtype), Operand::zero_dim(dtype)]);
    }
    partners
}

/// An error; one that names `complex32` where the policy reads it first
/// (a partner it refuses on its own may be refused before).
fn assert_refused(answer: Result<impl std::fmt::Debug, dtype_lattice::PromotionError>, what: &str) {
    let err = answer.expect_err(what);
    let first = [
        "[DType(Complex32)",
        "[ZeroDim(Complex32)",
        "[Array { dtype: Complex32",
    ]
    .iter()
    .any(|start| what.contains(start));
    // `b.__rop__(a)` reads `b` first.
    let first = first && !what.contains("Reflected");
    assert!(
        !first || err.to_string().contains("complex32"),
        "{what}: {err}"
    );
}

#[test]
fn every_other_policy_refuses_complex32_naming_it() {
    let c32 = TypeSpec::DType(DType::Complex32);
    let mut refused = 0;
    for (name, policy) in others() {
        assert!(!policy.is_native(DType::Complex32), "{name}");
        for other in [c32, DType::Float16.into(), PyScalar::Complex.into()] {
            let what = format!("{name} promote_types [DType(Complex32), {other}]");
            assert_refused(policy.promote_types(c32, other), &what);
            let what = format!("{name} promote_types [{other}, complex32]");
            assert_refused(policy.promote_types(other, c32), &what);
        }
        let complex32s = [
            Operand::dtype(DType::Complex32),
            Operand::zero_dim(DType::Complex32),
            Operand::array(DType::Complex32, false),
        ];
        for x in complex32s {
            assert_refused(policy.result_type(&[x]), &format!("{name} result_type {x}"));
            for y in partners() {
                for list in [[x, y], [y, x]] {
                    let what = format!("{name} result_type {list:?}");
                    assert_refused(policy.result_type(&list), &what);
                    refused += 1;
                }
            }
            for op in Op::ALL {
                for form in OpForm::ALL {
                    let Ok(call) = Call::new(Some(op), form) else {
                        continue;
                    };
                    let lists: Vec<Vec<Operand>> = if op.arity() == 1 {
                        vec![vec![x]]
                    } else {
                        partners()
                            .iter()
                            .flat_map(|&y| [vec![x, y], vec![y, x]])
                            .collect()
                    };
                    // `b.__rop__(a)` with a Python number `b` never sees `a`.
                    let python = |o: &Operand| {
                        matches!(
                            o.kind(),
                            OperandKind::PyInt(_) | OperandKind::PyComplex { .. }
                        )
                    };
                    for list in lists {
                        if form == OpForm::Reflected && list.last().is_some_and(python) {
                            continue;
                        }
                        if let Some(answer) = policy.call(call, &list) {
                            assert_refused(answer, &format!("{name} {op} {form:?} {list:?}"));
                            refused += 1;
                        }
                    }
                }
            }
            let assign = Call::new(None, OpForm::SetItem).unwrap();
            for y in partners() {
                for list in [[x, y], [y, x]] {
                    if let Some(answer) = policy.call(assign, &list) {
                        if list[0] == x || answer.is_err() {
                            assert_refused(answer, &format!("{name} setitem {list:?}"));
                        }
                    }
                }
            }
        }
    }
    assert!(refused > 1000, "{refused}");
}
