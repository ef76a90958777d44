//! The hot path of `Jax::operation`: every operation's answer for every
//! pair of (dtype, weak) values, computed once per configuration by the
//! rules of `ops.rs` and then read with one load per operand and one for
//! the answer. Kept apart from the rules it speeds up, as `tables.rs` is
//! for promotion.
//!
//! An operand is read by its code ([`Operand::code`]) into the (dtype,
//! weak) value the operation takes it as ([`Operand::as_argument`], then
//! the configuration's reading); the answer is the rules' for arrays of
//! those values. That is every operand's answer but where the rules read
//! more than the value: `power` (a Python int exponent's sign) and
//! `logical_and` (whether a Python `bool` was given), which take the rules
//! whenever a Python scalar is among the operands. Errors are not in the
//! tables: the rules build them, out of line. The tests check every code
//! with every value against the rules.

use super::ops;
use super::tables::{jax_typed_indices, typed_index, typed_value, TYPED_VALUES};
use super::{Config, Jax};
use crate::prelude::*;
use crate::types::{DType, Op, Operand, OperandKind, Typed};

/// A (dtype, weak) index of no value (above every strong dtype, below the
/// weak ones): an operand the tables do not read (`None`, or a Python
/// scalar where its value matters).
pub(super) const NOT_READ: usize = TYPED_VALUES / 2 - 1;

const _: () = assert!(NOT_READ >= DType::COUNT && NOT_READ < 0x80);

/// The bit of a decoded code that marks a Python scalar.
pub(super) const PYTHON: u8 = 0x80;

/// One configuration's tables.
pub(super) struct OpTables {
    /// Each code's (dtype, weak) index as an operation takes it, with
    /// [`PYTHON`] set for a Python scalar (whose value some operations
    /// read): one load says both.
    decode: [u8; 256],
    /// Every binary operation's answers, flat: `[op][a][b]` (see
    /// [`slot`]).
    answers: Box<[Option<Typed>]>,
    /// Every unary operation's answers by the operand's code, which spares
    /// the load that decodes it (no unary operation reads a Python
    /// scalar's value): one load, as `result_type` of one operand is.
    unary: Box<[[Option<Typed>; 256]]>,
}

/// Indices per operand: every (dtype, weak) value and [`NOT_READ`].
pub(super) const SIDE: usize = TYPED_VALUES;

/// Where an answer is in [`OpTables::answers`].
#[inline(always)]
const fn slot(op: Op, a: usize, b: usize) -> usize {
    (op as usize * SIDE + a) * SIDE + b
}

/// Whether the rules of `op` read more of a Python scalar than its value's
/// type (both are binary).
const fn reads_python_values(op: Op) -> bool {
    matches!(op, Op::Power | Op::LogicalAnd)
}

impl OpTables {
    fn new(config: Config) -> OpTables {
        let jax = Jax::new(config);
        let mut decode = [NOT_READ as u8; 256];
        for operand in Operand::each_code() {
            let code = usize::from(operand.code());
            let argument = ops::argument_of(&jax, operand);
            let python = matches!(
                argument.kind(),
                OperandKind::PyBool(_)
                    | OperandKind::PyInt(_)
                    | OperandKind::PyFloat(_)
                    | OperandKind::PyComplex { .. }
            );
            if !argument.is_none() {
                let typed = jax.dtype_and_weak_type(argument);
                decode[code] = typed_index(typed.dtype, typed.weak) as u8;
            }
            if python {
                decode[code] |= PYTHON;
            }
        }
        let value = |index: usize| {
            let (dtype, weak) = typed_value(index);
            Operand::array(dtype, weak)
        };
        let answer = |op: Op, operands: &[Operand]| ops::operation(&jax, op, operands).ok();
        let mut answers = vec![None; Op::ALL.len() * SIDE * SIDE].into_boxed_slice();
        let mut unary = vec![[None; 256]; Op::ALL.len()].into_boxed_slice();
        for op in Op::ALL {
            if op.arity() == 1 {
                for (code, cell) in unary[op as usize].iter_mut().enumerate() {
                    let index = usize::from(decode[code] & !PYTHON);
                    if index != NOT_READ {
                        *cell = answer(op, &[value(index)]);
                    }
                }
                continue;
            }
            for a in jax_typed_indices() {
                for b in jax_typed_indices() {
                    answers[slot(op, a, b)] = answer(op, &[value(a), value(b)]);
                }
            }
        }
        OpTables {
            decode,
            answers,
            unary,
        }
    }

    /// The configuration's tables, built by the first operation asked
    /// under it (a few milliseconds), then shared. Inlined: across crates
    /// a call here would cost an operation of one operand more than the
    /// load it stands before.
    #[inline]
    pub(super) fn of(jax: &Jax) -> &'static OpTables {
        jax.tables.ops.get_or_init(|| OpTables::new(jax.config))
    }

    /// How an operand is read: its (dtype, weak) index as an operation
    /// takes it, [`PYTHON`] set for a Python scalar ([`NOT_READ`] where
    /// the tables read none). Shared by the tables of the operations on
    /// whole arrays, which read operands as these do.
    #[inline(always)]
    pub(super) fn decoded(&self, operand: &Operand) -> u8 {
        self.decode[usize::from(operand.code())]
    }

    /// `op`'s answer for `operands` if the tables have it; `None` sends
    /// the call to the rules (an error, a value that matters, a wrong
    /// number of operands).
    #[inline(always)]
    pub(super) fn get(&self, op: Op, operands: &[Operand]) -> Option<Typed> {
        let read = |operand: &Operand| self.decode[usize::from(operand.code())];
        let index = |decoded: u8| usize::from(decoded & !PYTHON);
        match operands {
            [a, b] => {
                let (a, b) = (read(a), read(b));
                if (a | b) & PYTHON != 0 && reads_python_values(op) {
                    return None;
                }
                self.answers[slot(op, index(a), index(b))]
            }
            [a] => self.unary[op as usize][usize::from(a.code())],
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code (with a few values for Python scalars) with every code:
    /// the tables answer as the rules do, or leave the call to them.
    #[test]
    fn the_tables_answer_as_the_rules_do() {
        let mut operands: Vec<Operand> = Operand::each_code().collect();
        operands.extend([
            Operand::py_int(-1),
            Operand::py_int(300),
            Operand::py_bool(false),
            Operand::py_float(-2.5),
        ]);
        for config in Config::all() {
            let jax = Jax::new(config);
            let tables = OpTables::of(&jax);
            for op in Op::ALL {
                let check = |list: &[Operand]| {
                    if let Some(fast) = tables.get(op, list) {
                        assert_eq!(
                            Ok(fast),
                            ops::operation(&jax, op, list),
                            "{op} {list:?} under {config:?}"
                        );
                    }
                };
                for &a in &operands {
                    if op.arity() == 1 {
                        check(&[a]);
                        continue;
                    }
                    for &b in operands.iter().step_by(3) {
                        check(&[a, b]);
                    }
                }
            }
        }
    }
}
