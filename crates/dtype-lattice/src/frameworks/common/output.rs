//! What an operation's result is, given the dtype it computed in.

use crate::types::DType;

/// The result of an operation that computed in one dtype: that dtype
/// (arithmetic), `bool` (comparisons, `logical_and`), or a complex
/// dtype's part type (`abs`). The rule most frameworks follow; those with
/// more cases (MLX's `at_least_float`) keep their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// The dtype computed in.
    Same,
    /// `bool`.
    Bool,
    /// A complex dtype's part type; any other dtype itself.
    RealPart,
}

impl Output {
    /// The result of computing in `dtype`.
    pub(crate) fn of(self, dtype: DType) -> DType {
        match self {
            Output::Same => dtype,
            Output::Bool => DType::Bool,
            Output::RealPart => dtype.real_part(),
        }
    }
}
