//! The vocabulary every layer speaks: the 32 dtypes ([`DType`]), the
//! operands of a promotion ([`Operand`], [`TypeSpec`], [`PyScalar`]), what a
//! promotion answers ([`Typed`]), the operations beyond it ([`Op`]), raises ([`PromotionError`]) or warns
//! ([`Warning`]), the
//! numeric facts of each format ([`FInfo`], [`IInfo`]) and NumPy's scalar
//! hierarchy with the Array API's kinds ([`hierarchy`]).
//!
//! Nothing here knows a lattice or a framework's rules.
//!
//! # Files
//!
//! `dtype.rs` (`DType`, `Kind`, name parsing), `operand.rs` (`Operand`,
//! `TypeSpec`, `PyScalar`), `typed.rs` (`Typed`: a dtype and a weak flag),
//! `op.rs` (`Op`), `array_op.rs` (`ArrayOp`, `ArrayCall`: reductions, contractions, combinations), `outcome.rs` (`Outcome`, their answer), `form.rs` (`OpForm`, `Call`: an operation as a program writes it), `error.rs` (`PromotionError`, `ErrorKind`), `warning.rs`
//! (`Warning`), `info.rs` (`finfo`, `iinfo`) and `hierarchy.rs` (NumPy's
//! abstract scalar classes, the Array API kinds).

// Private: every item is reached by one path, the crate root's; the
// guides to names, notation and formats are on the types themselves.
mod array_op;
mod dtype;
mod error;
mod form;
pub mod hierarchy;
mod info;
mod op;
mod operand;
mod operation;
mod outcome;
mod typed;
mod warning;

pub use array_op::{ArrayCall, ArrayOp, Family, KeywordError, ParseArrayOpError, MAX_SEQUENCE};
pub use dtype::{DType, Kind, ParseDTypeError};
pub use error::{ErrorKind, NoPathReason, PromotionError, TypeList};
pub use form::{Call, CallError, Elsewhere, OpForm, Operator, ParseOpFormError};
pub use info::{FInfo, IInfo, InfoError};
pub(crate) use op::Arguments;
pub use op::{Op, ParseOpError, Unanswered};
pub use operand::{Operand, OperandKind, ParseOperandError, PyScalar, TypeSpec};
pub use operation::{Asked, Operation, ParseOperationError};
pub use outcome::Outcome;
pub use typed::Typed;
pub use warning::{Warning, WarningKind};
