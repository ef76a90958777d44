//! Where an operation's operator and its function differ inside one
//! policy: `x + 1` beside `paddle.add(x, 1)`, `2 & x` beside
//! `mx.bitwise_and(2, x)`.
//!
//! ```
//! use dtype_lattice::design::compatibility::Forms;
//! use dtype_lattice::frameworks::paddle::Paddle;
//! use dtype_lattice::{Op, Policy};
//!
//! let policies: [(&str, &dyn Policy); 1] = [("paddle", &Paddle)];
//! let forms = Forms::new(&policies);
//! let add = forms.rows.iter().find(|row| row.op == Op::Add).unwrap();
//! // `paddle.add` refuses the Python scalars that `+` takes.
//! assert!(add.operator_against_function[0].unwrap().differing > 0);
//! ```

use super::{array, python_scalar, Count, PYTHON_VALUES};
use crate::policy::Policy;
use crate::types::{Call, DType, Op, OpForm, Operand};

/// Every operation with a Python operator: in each policy, the cells
/// where the operator answers otherwise than the function.
#[derive(Clone, Debug)]
pub struct Forms {
    /// One row per operation with an operator, in [`Op::ALL`]'s order.
    pub rows: Vec<FormRow>,
}

/// One operation, policy by policy.
#[derive(Clone, Debug)]
pub struct FormRow {
    /// The operation.
    pub op: Op,
    /// Per policy, in the report's order: the cells where `a OP b` and the
    /// function differ, of those compared (arrays of the policy's own
    /// dtypes and the Python scalars, at least one array; every failure
    /// counts as the same answer); `None` where the policy answers either
    /// form not at all.
    pub operator_against_function: Vec<Option<Count>>,
}

impl Forms {
    /// Each policy's operators against its functions.
    pub fn new(policies: &[(&str, &dyn Policy)]) -> Forms {
        let rows = Op::ALL
            .into_iter()
            .filter_map(|op| {
                let operator = Call::new(Some(op), OpForm::Operator).ok()?;
                let function = Call::new(Some(op), OpForm::Function).ok()?;
                Some(FormRow {
                    op,
                    operator_against_function: policies
                        .iter()
                        .map(|&(_, policy)| cells(policy, operator, function))
                        .collect(),
                })
            })
            .collect();
        Forms { rows }
    }
}

/// The cells of `a` against `b` in `policy`; `None` where it answers
/// either not at all.
fn cells(policy: &dyn Policy, a: Call, b: Call) -> Option<Count> {
    let operands: Vec<Operand> = DType::ALL
        .into_iter()
        .filter(|&d| policy.is_native(d))
        .map(array)
        .chain(PYTHON_VALUES)
        .collect();
    let answer = |call: Call, operands: &[Operand]| {
        policy
            .call(call, operands)
            .map(|answer| answer.ok().map(|typed| typed.dtype))
    };
    let mut count = Count::default();
    let mut compare = |operands: &[Operand]| -> Option<()> {
        count.compared += 1;
        if answer(a, operands)? != answer(b, operands)? {
            count.differing += 1;
        }
        Some(())
    };
    for &x in &operands {
        if a.arity() == 1 {
            if python_scalar(x).is_none() {
                compare(&[x])?;
            }
            continue;
        }
        for &y in &operands {
            if python_scalar(x).is_none() || python_scalar(y).is_none() {
                compare(&[x, y])?;
            }
        }
    }
    Some(count)
}
