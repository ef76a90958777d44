//! The hot path of `Jax::array_op`: the answers of the operations on whole
//! arrays asked without keywords, computed once per configuration by the
//! rules of `array_ops.rs` and then read with a load or two. Kept apart
//! from the rules, as `op_tables.rs` is for the elementwise operations.
//!
//! A reduction's answer is read by its operand's code ([`Operand::code`]),
//! one load, as `result_type` of one operand is; an operation of two
//! arrays (a contraction, `clip`, `concatenate`, `stack`, `full_like`) by
//! the (dtype, weak) index each operand is read as (`op_tables.rs`'s
//! decoding, a load each) and then the answer. What the tables leave to
//! the rules: a call with `dtype=` or `promote_integers=`, a Python scalar
//! (whose value `clip` and `full_like` read), `where` (three operands), a
//! sequence of other than two, and every error (built out of line, as
//! for the elementwise operations). The tests check every code with every
//! code against the rules.

use super::array_ops;
use super::op_tables::{OpTables, NOT_READ, PYTHON, SIDE};
use super::tables::{jax_typed_indices, typed_value};
use super::Jax;
use crate::prelude::*;
use crate::types::{ArrayCall, ArrayOp, Family, Operand, Outcome};

/// The operations of two arrays the tables hold, in slot order.
const PAIRED: [ArrayOp; 8] = [
    ArrayOp::Matmul,
    ArrayOp::Dot,
    ArrayOp::Tensordot,
    ArrayOp::Einsum,
    ArrayOp::Clip,
    ArrayOp::Concatenate,
    ArrayOp::Stack,
    ArrayOp::FullLike,
];

/// Each operation's slot in [`PAIRED`], [`NO_SLOT`] for the others: one
/// load instead of a search.
const PAIR_SLOT: [u8; ArrayOp::COUNT] = {
    let mut slots = [NO_SLOT; ArrayOp::COUNT];
    let mut i = 0;
    while i < PAIRED.len() {
        slots[PAIRED[i] as usize] = i as u8;
        i += 1;
    }
    slots
};

const NO_SLOT: u8 = u8::MAX;

/// One configuration's tables.
pub(super) struct ArrayOpTables {
    /// The elementwise tables, whose decoding of operands these share.
    ops: &'static OpTables,
    /// Each reduction's answers by its operand's code (`[op][code]`, the
    /// rows of other operations empty). Held in place, with a length the
    /// compiler knows: a load and no bounds check.
    reductions: [[Option<Outcome>; 256]; ArrayOp::COUNT],
    /// The answers of [`PAIRED`]: `[slot][a][b]` by (dtype, weak) index.
    pairs: Box<[Option<Outcome>]>,
}

impl ArrayOpTables {
    fn new(jax: &Jax) -> ArrayOpTables {
        let ops = OpTables::of(jax);
        let plain = |op| ArrayCall::new(op);
        let mut reductions = [[None; 256]; ArrayOp::COUNT];
        for op in ArrayOp::ALL
            .into_iter()
            .filter(|op| op.family() == Family::Reduction)
        {
            for operand in Operand::each_code() {
                let decoded = ops.decoded(&operand);
                if decoded & PYTHON != 0 || usize::from(decoded) == NOT_READ {
                    continue;
                }
                reductions[op as usize][usize::from(operand.code())] =
                    array_ops::array_op(jax, plain(op), &[operand]).ok();
            }
        }
        let value = |index: usize| {
            let (dtype, weak) = typed_value(index);
            Operand::array(dtype, weak)
        };
        let mut pairs = vec![None; PAIRED.len() * SIDE * SIDE].into_boxed_slice();
        for (slot, op) in PAIRED.into_iter().enumerate() {
            for a in jax_typed_indices() {
                for b in jax_typed_indices() {
                    pairs[(slot * SIDE + a) * SIDE + b] =
                        array_ops::array_op(jax, plain(op), &[value(a), value(b)]).ok();
                }
            }
        }
        ArrayOpTables {
            ops,
            reductions,
            pairs,
        }
    }

    /// The configuration's tables, built by the first operation on whole
    /// arrays asked under it, then shared.
    #[inline]
    pub(super) fn of(jax: &Jax) -> &'static ArrayOpTables {
        jax.tables.array_ops.get_or_init(|| ArrayOpTables::new(jax))
    }

    /// `call`'s answer for `operands` if the tables have it; `None` sends
    /// the call to the rules.
    #[inline(always)]
    pub(super) fn get(&self, call: &ArrayCall, operands: &[Operand]) -> Option<Outcome> {
        if !call.is_plain() {
            return None;
        }
        let op = call.op() as usize;
        match operands {
            [a] => self.reductions[op][usize::from(a.code())],
            [a, b] => {
                let slot = usize::from(PAIR_SLOT[op]);
                let (a, b) = (self.ops.decoded(a), self.ops.decoded(b));
                if slot == usize::from(NO_SLOT) || (a | b) & PYTHON != 0 {
                    return None;
                }
                self.pairs[(slot * SIDE + usize::from(a)) * SIDE + usize::from(b)]
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frameworks::jax::Config;
    use crate::types::DType;

    /// Every code (with a few Python scalars) alone and with every third
    /// code, for every operation and configuration: the tables answer as
    /// the rules do, or leave the call to them; a keyword always goes to
    /// the rules.
    #[test]
    fn the_tables_answer_as_the_rules_do() {
        let mut operands: Vec<Operand> = Operand::each_code().collect();
        operands.extend([
            Operand::py_int(-1),
            Operand::py_int(300),
            Operand::py_float(2.5),
        ]);
        let mut answered = 0;
        for config in Config::all() {
            let jax = Jax::new(config);
            let tables = ArrayOpTables::of(&jax);
            for op in ArrayOp::ALL {
                let call = ArrayCall::new(op);
                let mut check = |list: &[Operand]| {
                    if let Some(fast) = tables.get(&call, list) {
                        answered += 1;
                        assert_eq!(
                            Ok(fast),
                            array_ops::array_op(&jax, call, list),
                            "{op} {list:?} under {config:?}"
                        );
                    }
                };
                for &a in &operands {
                    check(&[a]);
                    for &b in operands.iter().step_by(3) {
                        check(&[a, b]);
                    }
                }
                if let Ok(keyed) = call.with_dtype(DType::Int8) {
                    let int8 = Operand::array(DType::Int8, false);
                    assert_eq!(tables.get(&keyed, &[int8]), None, "{keyed}");
                }
            }
        }
        assert!(
            answered > 100_000,
            "the tables answered only {answered} calls"
        );
    }
}
