//! The operations on whole arrays compared: each policy against the first
//! (the reference), operation by operation, and the cases people file
//! issues about, answered by every policy with the type each computes in.
//!
//! ```
//! use dtype_lattice::design::compatibility::{Compatibility, ARRAY_PROBES};
//! use dtype_lattice::frameworks::numpy::Numpy;
//! use dtype_lattice::Policy;
//!
//! let report = Compatibility::new(&[("numpy", &Numpy as &dyn Policy)]);
//! assert_eq!(report.array_ops.probes.len(), ARRAY_PROBES.len());
//! ```

use super::{array, probe_answer, Count, ProbeAnswer, PYTHON_VALUES};
use crate::design::table::probe as int8_arrays;
use crate::policy::Policy;
use crate::types::{ArrayCall, ArrayOp, Asked, DType, Family, Operand, Outcome};

/// Every operation on whole arrays, each policy against the reference,
/// and the probes.
#[derive(Clone, Debug)]
pub struct ArrayOps {
    /// One row per operation, in [`ArrayOp::ALL`]'s order.
    pub rows: Vec<ArrayOpRow>,
    /// Every policy's answers to [`ARRAY_PROBES`].
    pub probes: Vec<ArrayProbeAnswers>,
}

/// One operation: each policy's cells against the reference's.
#[derive(Clone, Debug)]
pub struct ArrayOpRow {
    /// The operation.
    pub op: ArrayOp,
    /// Per policy: its differing cells against the first policy's (the
    /// result's dtype, and the type it computes in where either says),
    /// `None` for the first itself and where either does not model `op`.
    pub against_reference: Vec<Option<Count>>,
}

/// A call every policy is asked about.
#[derive(Clone, Copy, Debug)]
pub struct ArrayProbe {
    /// The case as people write it, e.g. `sum(int8)`.
    pub label: &'static str,
    /// The call, with its keywords.
    pub call: ArrayCall,
    /// Its operands (`where`'s condition first).
    pub operands: &'static [Operand],
}

/// Every policy's answer to one [`ArrayProbe`].
#[derive(Clone, Debug)]
pub struct ArrayProbeAnswers {
    /// The probe.
    pub probe: ArrayProbe,
    /// Per policy, in the report's order.
    pub answers: Vec<ProbeAnswer>,
}

const fn probe(label: &'static str, op: ArrayOp, operands: &'static [Operand]) -> ArrayProbe {
    ArrayProbe {
        label,
        call: ArrayCall::new(op),
        operands,
    }
}

const I8: Operand = array(DType::Int8);
const BOOL: Operand = array(DType::Bool);

/// The cases the issues are about: small integers' accumulators, half
/// floats' means, low-precision products, a mixed-dtype product, Python
/// scalars beside an array.
pub const ARRAY_PROBES: [ArrayProbe; 14] = [
    probe("sum(int8)", ArrayOp::Sum, &[I8]),
    probe("sum(bool)", ArrayOp::Sum, &[BOOL]),
    probe("sum(uint16)", ArrayOp::Sum, &[array(DType::UInt16)]),
    probe("prod(int32)", ArrayOp::Prod, &[array(DType::Int32)]),
    probe("cumsum(int8)", ArrayOp::CumSum, &[I8]),
    probe("mean(int32)", ArrayOp::Mean, &[array(DType::Int32)]),
    probe("mean(float16)", ArrayOp::Mean, &[array(DType::Float16)]),
    probe("sum(bfloat16)", ArrayOp::Sum, &[array(DType::BFloat16)]),
    probe("var(complex64)", ArrayOp::Var, &[array(DType::Complex64)]),
    probe("argmax(float32)", ArrayOp::ArgMax, &[array(DType::Float32)]),
    probe(
        "bfloat16 @ bfloat16",
        ArrayOp::Matmul,
        &[array(DType::BFloat16), array(DType::BFloat16)],
    ),
    probe("int8 @ uint8", ArrayOp::Matmul, &[I8, array(DType::UInt8)]),
    probe(
        "where(c, int8, 2.5)",
        ArrayOp::Where,
        &[BOOL, I8, Operand::py_float(2.5)],
    ),
    probe(
        "clip(int8, 2.5)",
        ArrayOp::Clip,
        &[I8, Operand::py_float(2.5)],
    ),
];

/// What a cell compares: the result's dtype and the type it computes in.
type Compared = Option<(DType, Option<DType>)>;

fn answer(policy: &dyn Policy, op: ArrayOp, operands: &[Operand]) -> Compared {
    let outcome = policy.array_op(&ArrayCall::new(op), operands)?.ok()?;
    Some((outcome.result().dtype, outcome.computes_apart()))
}

/// Whether `policy` models `op` (asked of int8 arrays, which every
/// framework has).
fn models(policy: &dyn Policy, op: ArrayOp) -> bool {
    policy
        .array_op(&ArrayCall::new(op), &int8_arrays(op))
        .is_some()
}

/// The cells of `op` on which `a` and `b` are compared: an array of each
/// dtype both have (a reduction), or each pair of them (with the Python
/// scalars second where the operation takes a value: `where`, `clip`,
/// `full_like`).
fn cells(a: &dyn Policy, b: &dyn Policy, op: ArrayOp) -> Count {
    let arrays: Vec<Operand> = DType::ALL
        .into_iter()
        .filter(|&d| a.is_native(d) && b.is_native(d))
        .map(array)
        .collect();
    let takes_values = matches!(op, ArrayOp::Where | ArrayOp::Clip | ArrayOp::FullLike);
    let seconds: Vec<Operand> = arrays
        .iter()
        .copied()
        .chain(PYTHON_VALUES.into_iter().filter(|_| takes_values))
        .collect();
    let mut count = Count::default();
    let mut compare = |operands: &[Operand]| {
        count.compared += 1;
        if answer(a, op, operands) != answer(b, op, operands) {
            count.differing += 1;
        }
    };
    for &x in &arrays {
        if op.family() == Family::Reduction {
            compare(&[x]);
            continue;
        }
        for &y in &seconds {
            match op {
                ArrayOp::Where => compare(&[BOOL, x, y]),
                _ => compare(&[x, y]),
            }
        }
    }
    count
}

impl ArrayOps {
    /// Compares every policy with the first, operation by operation, and
    /// asks each the [`ARRAY_PROBES`].
    pub fn new(policies: &[(&str, &dyn Policy)]) -> ArrayOps {
        let Some(&(_, reference)) = policies.first() else {
            return ArrayOps {
                rows: Vec::new(),
                probes: Vec::new(),
            };
        };
        let rows = ArrayOp::ALL
            .into_iter()
            .map(|op| ArrayOpRow {
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
        let probes = ARRAY_PROBES
            .iter()
            .map(|&probe| ArrayProbeAnswers {
                probe,
                answers: policies
                    .iter()
                    .map(|&(_, policy)| {
                        probe_answer(policy, probe.operands, |operands| {
                            policy.ask(Asked::Array(probe.call), operands)
                        })
                    })
                    .collect(),
            })
            .collect();
        ArrayOps { rows, probes }
    }
}

/// An answer as a probe's table shows it.
pub(super) fn outcome_answer(outcome: Outcome) -> ProbeAnswer {
    match outcome.computes_apart() {
        Some(computes) => ProbeAnswer::ComputesIn(outcome.result().dtype, computes),
        None => ProbeAnswer::DType(outcome.result().dtype),
    }
}
