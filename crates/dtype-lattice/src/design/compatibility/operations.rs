//! The operations beyond addition, compared: each policy against the
//! first (the reference, JAX in `dtype-lattice compatibility`), operation
//! by operation, and a few telling cases answered by every
//! policy.
//!
//! ```
//! use dtype_lattice::design::compatibility::Compatibility;
//! use dtype_lattice::frameworks::jax::{Config, Jax};
//! use dtype_lattice::{Op, Policy};
//!
//! let (x32, x64) = (Jax::default(), Jax::new(Config { x64: true, ..Config::default() }));
//! let policies: [(&str, &dyn Policy); 2] = [("jax", &x32), ("jax-x64", &x64)];
//! let report = Compatibility::new(&policies);
//! let divide = report.operations.rows.iter().find(|r| r.op == Op::TrueDivide).unwrap();
//! // Integers divide in float32 without x64, float64 with it.
//! assert!(divide.against_reference[1].unwrap().differing > 0);
//! ```

use super::{add, array, probe_answer, python_scalar, Count, ProbeAnswer, PYTHON_VALUES};
use crate::policy::Policy;
use crate::types::{DType, Op, Operand, Outcome};

/// Every operation but `add` (which [`Compatibility`](super::Compatibility)
/// compares in full), each policy against the reference, and the probes.
#[derive(Clone, Debug)]
pub struct Operations {
    /// One row per operation, in [`Op::ALL`]'s order.
    pub rows: Vec<OpRow>,
    /// Every policy's answers to [`OP_PROBES`].
    pub probes: Vec<OpProbeAnswers>,
}

/// One operation: each policy's cells against the reference's.
#[derive(Clone, Debug)]
pub struct OpRow {
    /// The operation.
    pub op: Op,
    /// Per policy: its differing cells against the first policy's, `None`
    /// for the first itself and where either does not model `op`.
    pub against_reference: Vec<Option<Count>>,
}

/// An operation on operands every policy is asked about.
#[derive(Clone, Copy, Debug)]
pub struct OpProbe {
    /// The case as people write it, e.g. `int32 / int32`.
    pub label: &'static str,
    /// The operation.
    pub op: Op,
    /// Its operands (the first only, for a unary operation).
    pub operands: [Operand; 2],
}

/// Every policy's answer to one [`OpProbe`].
#[derive(Clone, Debug)]
pub struct OpProbeAnswers {
    /// The probe.
    pub probe: OpProbe,
    /// Per policy, in the report's order.
    pub answers: Vec<ProbeAnswer>,
}

const fn probe(label: &'static str, op: Op, a: Operand, b: Operand) -> OpProbe {
    OpProbe {
        label,
        op,
        operands: [a, b],
    }
}

/// The telling cases: where the operation, not promotion,
/// decides the answer.
pub const OP_PROBES: [OpProbe; 8] = [
    probe(
        "int32 / int32",
        Op::TrueDivide,
        array(DType::Int32),
        array(DType::Int32),
    ),
    probe(
        "int8 < uint8",
        Op::Less,
        array(DType::Int8),
        array(DType::UInt8),
    ),
    probe(
        "float32 & float32",
        Op::BitwiseAnd,
        array(DType::Float32),
        array(DType::Float32),
    ),
    probe(
        "bool - bool",
        Op::Subtract,
        array(DType::Bool),
        array(DType::Bool),
    ),
    probe(
        "int8 ** -1",
        Op::Power,
        array(DType::Int8),
        Operand::py_int(-1),
    ),
    probe(
        "int8 // 2.5",
        Op::FloorDivide,
        array(DType::Int8),
        Operand::py_float(2.5),
    ),
    probe(
        "abs(complex64)",
        Op::Abs,
        array(DType::Complex64),
        Operand::NONE,
    ),
    probe("sqrt(int16)", Op::Sqrt, array(DType::Int16), Operand::NONE),
];

/// Whether `policy` models `op` (asked on int8 arrays, which every
/// framework has).
fn models(policy: &dyn Policy, op: Op) -> bool {
    let x = array(DType::Int8);
    policy.operation(op, &[x, x][..op.arity()]).is_some()
}

/// `op`'s answer, as a dtype (`None` where it fails).
fn answer(policy: &dyn Policy, op: Op, operands: &[Operand]) -> Option<DType> {
    match op {
        Op::Add => add(policy, operands).ok(),
        _ => policy.operation(op, operands)?.ok(),
    }
    .map(|typed| typed.dtype)
}

/// The cells of `op` on which `a` and `b` are compared: arrays of the
/// dtypes both have and the Python scalars, one or two of them (not two
/// Python scalars).
fn cells(a: &dyn Policy, b: &dyn Policy, op: Op) -> Count {
    let operands: Vec<Operand> = DType::ALL
        .into_iter()
        .filter(|&d| a.is_native(d) && b.is_native(d))
        .map(array)
        .chain(PYTHON_VALUES)
        .collect();
    let mut count = Count::default();
    let mut compare = |operands: &[Operand]| {
        count.compared += 1;
        if answer(a, op, operands) != answer(b, op, operands) {
            count.differing += 1;
        }
    };
    for &x in &operands {
        if op.arity() == 1 {
            compare(&[x]);
            continue;
        }
        for &y in &operands {
            if python_scalar(x).is_none() || python_scalar(y).is_none() {
                compare(&[x, y]);
            }
        }
    }
    count
}

impl Operations {
    /// Compares every policy with the first, operation by operation, and
    /// asks each the [`OP_PROBES`].
    pub fn new(policies: &[(&str, &dyn Policy)]) -> Operations {
        let Some(&(_, reference)) = policies.first() else {
            return Operations {
                rows: Vec::new(),
                probes: Vec::new(),
            };
        };
        let rows = Op::ALL
            .into_iter()
            .filter(|&op| op != Op::Add)
            .map(|op| OpRow {
                op,
                against_reference: policies
                    .iter()
                    .enumerate()
                    .map(|(i, &(_, policy))| {
                        (i > 0 && models(reference, op) && models(policy, op))
                            .then(|| cells(reference, policy, op))
                    })
                    .collect(),
            })
            .collect();
        let probes = OP_PROBES
            .iter()
            .map(|&probe| OpProbeAnswers {
                probe,
                answers: policies
                    .iter()
                    .map(|&(_, policy)| ask(policy, probe))
                    .collect(),
            })
            .collect();
        Operations { rows, probes }
    }
}

fn ask(policy: &dyn Policy, probe: OpProbe) -> ProbeAnswer {
    let operands = &probe.operands[..probe.op.arity()];
    probe_answer(policy, operands, |operands| {
        Some(policy.operation(probe.op, operands)?.map(Outcome::of))
    })
}
