//! Warnings: what a framework says while it still answers, as data.
//!
//! A call that warns gives its answer all the same, so warnings are not
//! part of the answer's `Result`: a policy gives them through methods of
//! their own (such as [`Policy::result_type_warnings`]), which the hot path
//! never runs.
//!
//! ```
//! use dtype_lattice::frameworks::jax::Jax;
//! use dtype_lattice::{DType, Operand, WarningKind};
//!
//! let jax = Jax::default(); // x64 off, jax_explicit_x64_dtypes=warn
//! let request = [Operand::dtype(DType::Float64)];
//! let warnings = jax.result_type_warnings(&request);
//! assert_eq!(warnings.len(), 1);
//! assert_eq!(warnings[0].kind, WarningKind::User);
//! assert!(warnings[0].message.starts_with(
//!     "Explicitly requested dtype float64 requested in dtype is not available, \
//!      and will be truncated to dtype float32."
//! ));
//! ```
//!
//! [`Policy::result_type_warnings`]: crate::Policy::result_type_warnings

use crate::prelude::*;
use core::fmt;

/// One warning a framework issues, as Python's `warnings.warn` would: its
/// category and its exact text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    /// The warning's category.
    pub kind: WarningKind,
    /// The framework's text, verbatim.
    pub message: String,
}

/// A warning's category: one value per Python warning class the modelled
/// frameworks issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// `UserWarning`, the category of a bare `warnings.warn(message)`.
    User,
}

impl WarningKind {
    /// The Python class's name, as Python prints it.
    ///
    /// ```
    /// assert_eq!(dtype_lattice::WarningKind::User.python_type(), "UserWarning");
    /// ```
    pub const fn python_type(self) -> &'static str {
        match self {
            WarningKind::User => "UserWarning",
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.python_type())
    }
}

impl fmt::Display for Warning {
    /// The message, as `str(w.message)` gives it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
