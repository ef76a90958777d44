//! Judging one entry: what the recording framework, strict JAX (for JAX's
//! calls) and the compared policies answer for a call's operands, and what
//! the criteria say of its result (the rules are in the module docs of
//! [`super`]).

use std::collections::HashMap;

use super::{Answer, Call, Entry, Question};
use crate::design::audit::{violations, Criterion};
use crate::policy::Policy;
use crate::registry::{self, PolicySpec, Settings};
use crate::types::{
    ArrayCall, ArrayOp, Asked, DType, Family, Kind, Op, Operand, Operation, PromotionError,
    PyScalar, Typed,
};

/// The policies an analysis asks, each built once per configuration.
pub(super) struct Policies(pub(super) HashMap<(&'static str, Settings), Box<dyn Policy>>);

impl Policies {
    pub(super) fn get(
        &mut self,
        info: &'static registry::PolicyInfo,
        settings: Settings,
    ) -> &dyn Policy {
        &**self
            .0
            .entry((info.name, settings))
            .or_insert_with(|| info.build(settings))
    }
}

/// The Python scalar type that stands for a weak operand of `dtype`'s
/// kind.
fn python_scalar(dtype: DType) -> PyScalar {
    match dtype.kind() {
        Kind::Bool => PyScalar::Bool,
        Kind::Unsigned | Kind::Signed => PyScalar::Int,
        Kind::Float => PyScalar::Float,
        Kind::Complex => PyScalar::Complex,
    }
}

/// An operand as a framework takes it in a port: an array of its dtype,
/// a 0-d array (`zero_dim`, holding its `value` where read), or, weak, a
/// Python scalar (its `value` where read, else one of its kind).
fn argument(operand: Typed, zero_dim: bool, value: Option<Operand>) -> Operand {
    match (operand.weak, value) {
        (true, Some(value)) => value,
        (true, None) => Operand::py_type(python_scalar(operand.dtype)).as_argument(),
        (false, Some(value)) if zero_dim => Operand::zero_dim_holding(operand.dtype, value),
        (false, _) if zero_dim => Operand::zero_dim(operand.dtype),
        (false, _) => Operand::array(operand.dtype, false),
    }
}

/// An operand exactly as JAX read it, for JAX's own promotion.
pub(super) fn as_read(operand: Typed) -> Operand {
    Operand::array(operand.dtype, operand.weak)
}

/// Whether strict JAX of the call's settings refuses the call's promotion;
/// false for a framework other than JAX (module docs).
fn refused_by_strict(call: &Call, policies: &mut Policies) -> bool {
    if call.framework != &registry::POLICIES[0] {
        return false;
    }
    let strict = Settings {
        strict: true,
        ..call.settings
    };
    let jax = policies.get(&registry::POLICIES[0], strict);
    let operands: Vec<Operand> = call.operands.iter().map(|&t| as_read(t)).collect();
    let answer = match jax.jax() {
        Some(functions) => functions.lattice_result_type(&operands),
        None => jax.result_type(&operands),
    };
    answer.is_err()
}

/// Whether an array operand (or, with none, a Python scalar) is not of
/// the result's dtype.
fn promotes(operands: &[Typed], result: DType) -> bool {
    let arrays = operands.iter().any(|t| !t.weak);
    operands
        .iter()
        .filter(|t| !arrays || !t.weak)
        .any(|t| t.dtype != result)
}

/// The criteria the result violates, judged on the array operands: each
/// against the widest (module docs).
fn criteria(operands: &[Typed], result: DType) -> Vec<Criterion> {
    let inputs: Vec<DType> = operands
        .iter()
        .filter(|t| !t.weak)
        .map(|t| t.dtype)
        .collect();
    let Some(&widest) = inputs.iter().max_by_key(|d| d.itemsize_bits()) else {
        return Vec::new();
    };
    let mut found: Vec<Criterion> = inputs
        .iter()
        .flat_map(|&input| violations(input, widest, result))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The reduction `call` made, with its keywords, where it is one (of one
/// operand): recorded from JAX's reductions, which promote nothing but
/// choose an accumulator.
fn reduction(call: &Call) -> Option<ArrayCall> {
    let op = call.operation.parse::<ArrayOp>().ok()?;
    if op.family() != Family::Reduction || call.operands.len() != 1 {
        return None;
    }
    match Operation::Array(op).asked(call.dtype, call.promote_integers) {
        Ok(Asked::Array(asked)) => Some(asked),
        _ => None,
    }
}

pub(super) fn judge(call: Call, compare: &[PolicySpec], policies: &mut Policies) -> Entry {
    let op = call
        .operation
        .parse::<Op>()
        .ok()
        .filter(|op| op.arity() == call.operands.len());
    let reduced = reduction(&call);
    let arguments: Vec<Operand> = (call.operands.iter().enumerate())
        .map(|(i, &t)| argument(t, call.is_zero_dim(i), call.value(i)))
        .collect();
    let jax_info = &registry::POLICIES[0];
    let framework = call.framework;
    let running = policies.get(framework, call.settings);
    let configuration = running.name();
    let (gives, computes_in) = match (op, reduced) {
        (Some(op), _) => (running.operation(op, &arguments), None),
        (None, Some(reduced)) => match running.array_op(&reduced, &arguments) {
            Some(Ok(outcome)) => (Some(Ok(outcome.result())), outcome.computes_apart()),
            Some(Err(err)) => (Some(Err(err)), None),
            None => (None, None),
        },
        (None, None) => (None, None),
    };
    let compared = compare
        .iter()
        .map(|spec| {
            let settings = spec.settings(call.settings);
            let answer_of = |policy: &dyn Policy, question: Question| match question {
                Question::Operation(op) => policy.operation(op, &arguments),
                Question::Promotion => Some(policy.result_type(&arguments)),
                Question::Array(reduced) => policy
                    .array_op(&reduced, &arguments)
                    .map(|answer| answer.map(|outcome| outcome.result())),
            };
            let modelled = |policies: &mut Policies, info, settings, question| {
                answer_of(policies.get(info, settings), question).is_some()
            };
            let asked = match (op, reduced) {
                (Some(op), _) => Some(Question::Operation(op)),
                // `promote_integers=` is JAX's own: another framework is
                // asked the reduction as a program would write it there.
                (None, Some(reduced)) if spec.info().name != jax_info.name => {
                    Some(Question::Array(reduced.without_promote_integers()))
                }
                (None, Some(reduced)) => Some(Question::Array(reduced)),
                (None, None) => None,
            };
            let question = match asked {
                Some(question)
                    if modelled(policies, spec.info(), settings, question)
                        && modelled(policies, framework, call.settings, question) =>
                {
                    question
                }
                _ => Question::Promotion,
            };
            let policy = policies.get(spec.info(), settings);
            let (name, answer) = (policy.name(), answer_of(policy, question));
            // The recording framework is asked the call as it was made
            // (with `promote_integers=`), what the compared answer stands
            // beside.
            let own = match (question, reduced) {
                (Question::Array(_), Some(reduced)) => Question::Array(reduced),
                _ => question,
            };
            let reference = answer_of(policies.get(framework, call.settings), own);
            // Both are `Some`: the question was chosen so.
            let answer = answer.unwrap_or(Err(PromotionError::NoOperands));
            let reference = reference.unwrap_or(Err(PromotionError::NoOperands));
            let differs = match (&answer, &reference) {
                (Ok(a), Ok(b)) => a.dtype != b.dtype,
                (a, b) => a.is_ok() != b.is_ok(),
            };
            Answer {
                spec: spec.to_string(),
                policy: name,
                question,
                answer,
                reference,
                differs,
            }
        })
        .collect();
    let (promotes, criteria) = match &call.result {
        Ok(result) => (
            promotes(&call.operands, result.dtype),
            criteria(&call.operands, result.dtype),
        ),
        Err(_) => (true, Vec::new()),
    };
    Entry {
        implicit: refused_by_strict(&call, policies),
        op,
        gives,
        computes_in,
        configuration,
        promotes,
        criteria,
        compared,
        call,
    }
}
