//! toy's operations: five of them, each promoting as `result_type` does.

use super::Toy;
use crate::frameworks::common::{OpTable, Output};
use crate::policy::Policy;
use crate::types::{Op, Operand, PromotionError, Typed};

/// What each operation gives, by [`Op`]'s order; `None` where toy has no
/// such function.
const FUNCTIONS: OpTable<Option<Output>> = OpTable::new([
    (Op::Add, Some(Output::Same)),
    (Op::Subtract, None),
    (Op::Multiply, Some(Output::Same)),
    (Op::TrueDivide, None),
    (Op::FloorDivide, None),
    (Op::Remainder, None),
    (Op::Power, None),
    (Op::Maximum, Some(Output::Same)),
    (Op::Equal, Some(Output::Bool)),
    (Op::NotEqual, None),
    (Op::Less, Some(Output::Bool)),
    (Op::LessEqual, None),
    (Op::Greater, None),
    (Op::GreaterEqual, None),
    (Op::BitwiseAnd, None),
    (Op::BitwiseOr, None),
    (Op::BitwiseXor, None),
    (Op::LogicalAnd, None),
    (Op::Negative, None),
    (Op::Abs, None),
    (Op::Sign, None),
    (Op::Sqrt, None),
    (Op::Exp, None),
    (Op::Floor, None),
]);

pub(super) fn operation(
    toy: &Toy,
    op: Op,
    operands: &[Operand],
) -> Option<Result<Typed, PromotionError>> {
    let output = FUNCTIONS[op]?;
    Some(
        toy.result_type(operands)
            .map(|typed| Typed::strong(output.of(typed.dtype))),
    )
}

pub(super) fn describe(op: Op) -> Option<String> {
    let output = FUNCTIONS[op]?;
    let result = match output {
        Output::Bool => "bool",
        _ => "that dtype",
    };
    Some(format!("toy.{op}(a, b): result_type(a, b), then {result}"))
}
