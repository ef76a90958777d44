//! dtype-lattice (crate docs written later)

pub mod dtype;
mod error;
pub mod hierarchy;
pub mod info;
pub mod jax;
pub mod lattice;
mod operand;
mod policy;

pub use dtype::{DType, Kind, ParseDTypeError};
pub use error::{NoPathReason, PromotionError};
pub use info::{FInfo, IInfo};
pub use operand::{Operand, ParseOperandError, PyScalar, TypeSpec};
pub use policy::{Policy, Typed};
