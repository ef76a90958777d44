//! Operations as programs write them, compared: inside each framework, the
//! cells where an operator (`a + b`, `2 / x`, `x += y`) answers otherwise
//! than the function it stands for; across frameworks, a few telling
//! operator cases answered by every policy.
//!
//! ```
//! use dtype_lattice::design::compatibility::Compatibility;
//! use dtype_lattice::frameworks::numpy::Numpy;
//! use dtype_lattice::{Op, Policy};
//!
//! let report = Compatibility::new(&[("numpy", &Numpy as &dyn Policy)]);
//! let power = report.forms.rows.iter().find(|r| r.op == Op::Power).unwrap();
//! // `bool_array ** 2` is np.square's int8, not np.power's int64.
//! assert!(power.operator_against_function[0].unwrap().differing > 0);
//! ```

use super::{array, probe_answer, python_scalar, Count, ProbeAnswer, PYTHON_VALUES};
use crate::policy::Policy;
use crate::types::{Call, DType, Op, OpForm, Operand, Outcome};

/// Each operation's operator against its function inside every policy,
/// and the probes.
#[derive(Clone, Debug)]
pub struct Forms {
    /// One row per operation that has a Python operator, in [`Op::ALL`]'s
    /// order.
    pub rows: Vec<FormRow>,
    /// Every policy's answers to [`FORM_PROBES`].
    pub probes: Vec<FormProbeAnswers>,
}

/// One operation: per policy, the cells where `a OP b` differs from the
/// function.
#[derive(Clone, Debug)]
pub struct FormRow {
    /// The operation.
    pub op: Op,
    /// Per policy, in the report's order: its operator's differing cells
    /// against its function's; `None` where it does not model either.
    pub operator_against_function: Vec<Option<Count>>,
}

/// An operation in a form, on operands every policy is asked about.
#[derive(Clone, Copy, Debug)]
pub struct FormProbe {
    /// The case as people write it, e.g. `1 / int8`.
    pub label: &'static str,
    /// The operation (`None` for the assignment).
    pub op: Option<Op>,
    /// Its form.
    pub form: OpForm,
    /// Its operands.
    pub operands: [Operand; 2],
}

/// Every policy's answer to one [`FormProbe`].
#[derive(Clone, Debug)]
pub struct FormProbeAnswers {
    /// The probe.
    pub probe: FormProbe,
    /// Per policy, in the report's order.
    pub answers: Vec<ProbeAnswer>,
}

const fn probe(
    label: &'static str,
    (op, form): (Option<Op>, OpForm),
    a: Operand,
    b: Operand,
) -> FormProbe {
    FormProbe {
        label,
        op,
        form,
        operands: [a, b],
    }
}

/// The telling cases: a Python number on the left, booleans under
/// arithmetic operators, a result stored back into its array, a value
/// assigned into one.
pub const FORM_PROBES: [FormProbe; 7] = [
    probe(
        "1 / int8",
        (Some(Op::TrueDivide), OpForm::Operator),
        Operand::py_int(1),
        array(DType::Int8),
    ),
    probe(
        "1 < int8",
        (Some(Op::Less), OpForm::Operator),
        Operand::py_int(1),
        array(DType::Int8),
    ),
    probe(
        "bool * bool",
        (Some(Op::Multiply), OpForm::Operator),
        array(DType::Bool),
        array(DType::Bool),
    ),
    probe(
        "bool ** 2",
        (Some(Op::Power), OpForm::Operator),
        array(DType::Bool),
        Operand::py_int(2),
    ),
    probe(
        "int8 += 0.5",
        (Some(Op::Add), OpForm::InPlace),
        array(DType::Int8),
        Operand::py_float(0.5),
    ),
    probe(
        "int32 /= int32",
        (Some(Op::TrueDivide), OpForm::InPlace),
        array(DType::Int32),
        array(DType::Int32),
    ),
    probe(
        "int8[...] = 2.5",
        (None, OpForm::SetItem),
        array(DType::Int8),
        Operand::py_float(2.5),
    ),
];

/// `call`'s answer as a dtype (`None` where it fails); `None` outside
/// where the policy does not model it.
fn answer(policy: &dyn Policy, call: Call, operands: &[Operand]) -> Option<Option<DType>> {
    let answer = policy.call(call, operands)?;
    Some(answer.ok().map(|typed| typed.dtype))
}

/// The cells where `policy`'s operator of `op` differs from its function:
/// arrays of its dtypes and the Python scalars, one or two of them (not
/// two Python scalars, which Python adds itself); `None` where it does not
/// model both forms.
fn cells(policy: &dyn Policy, op: Op) -> Option<Count> {
    let operator = Call::new(Some(op), OpForm::Operator).ok()?;
    let function = Call::new(Some(op), OpForm::Function).ok()?;
    let probe = [array(DType::Int8); 2];
    let probe = &probe[..op.arity()];
    if policy.call(operator, probe).is_none() || policy.call(function, probe).is_none() {
        return None;
    }
    let operands: Vec<Operand> = DType::ALL
        .into_iter()
        .filter(|&d| policy.is_native(d))
        .map(array)
        .chain(PYTHON_VALUES)
        .collect();
    let mut count = Count::default();
    let mut compare = |operands: &[Operand]| {
        count.compared += 1;
        if answer(policy, operator, operands) != answer(policy, function, operands) {
            count.differing += 1;
        }
    };
    for &x in &operands {
        if op.arity() == 1 {
            if python_scalar(x).is_none() {
                compare(&[x]);
            }
            continue;
        }
        for &y in &operands {
            if python_scalar(x).is_none() || python_scalar(y).is_none() {
                compare(&[x, y]);
            }
        }
    }
    Some(count)
}

impl Forms {
    /// Compares each policy's operators with its functions, and asks each
    /// the [`FORM_PROBES`].
    pub fn new(policies: &[(&str, &dyn Policy)]) -> Forms {
        let rows = Op::ALL
            .into_iter()
            .filter(|op| op.operator().is_some())
            .map(|op| FormRow {
                op,
                operator_against_function: policies
                    .iter()
                    .map(|&(_, policy)| cells(policy, op))
                    .collect(),
            })
            .collect();
        let probes = FORM_PROBES
            .iter()
            .map(|&probe| FormProbeAnswers {
                probe,
                answers: policies
                    .iter()
                    .map(|&(_, policy)| ask(policy, probe))
                    .collect(),
            })
            .collect();
        Forms { rows, probes }
    }
}

fn ask(policy: &dyn Policy, probe: FormProbe) -> ProbeAnswer {
    // Each probe is a call Python has (a test asks them all).
    let Ok(call) = Call::new(probe.op, probe.form) else {
        return ProbeAnswer::NotModelled;
    };
    let operands = &probe.operands[..call.arity()];
    probe_answer(policy, operands, |operands| {
        Some(policy.call(call, operands)?.map(Outcome::of))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_probe_is_a_call_python_has() {
        for probe in FORM_PROBES {
            assert!(Call::new(probe.op, probe.form).is_ok(), "{}", probe.label);
        }
    }
}
