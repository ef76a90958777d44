//! What every framework's operations on whole arrays share before their
//! own rules: the number of operands each takes.
//!
//! The frameworks word a wrong number of arguments each their own way
//! (`TypeError: sum() takes 1 positional argument ...`), in messages
//! about Python signatures that the golden data does not record: the
//! library answers them all alike, naming the operation and what it takes.

use crate::types::{ArrayCall, ErrorKind, Operand, PromotionError};

/// `operands`, if they are as many as `call`'s operation takes; else the
/// `TypeError` that says how many it takes.
pub(crate) fn counted(call: ArrayCall, operands: &[Operand]) -> Result<&[Operand], PromotionError> {
    let op = call.op();
    let range = op.operands();
    if range.contains(&operands.len()) {
        return Ok(operands);
    }
    let takes = if range.start() == range.end() {
        format!("{}", range.start())
    } else {
        format!("{} to {}", range.start(), range.end())
    };
    Err(PromotionError::framework(
        ErrorKind::Type,
        format!(
            "{op} takes {takes} operand{}, not {}",
            if *range.end() == 1 { "" } else { "s" },
            operands.len()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ArrayOp, DType};

    #[test]
    fn a_wrong_number_of_operands_names_the_number_taken() {
        let x = Operand::array(DType::Int8, false);
        let sum = ArrayCall::new(ArrayOp::Sum);
        assert!(counted(sum, &[x]).is_ok());
        let err = counted(sum, &[x, x]).unwrap_err();
        assert_eq!(err.to_string(), "sum takes 1 operand, not 2");
        let clip = ArrayCall::new(ArrayOp::Clip);
        let err = counted(clip, &[x]).unwrap_err();
        assert_eq!(err.to_string(), "clip takes 2 to 3 operands, not 1");
    }
}
