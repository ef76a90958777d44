//! `jax_explicit_x64_dtypes`: what JAX does with a 64-bit dtype asked for
//! by name while x64 is off, a setting of its own so that its name, its
//! modes and its parse error live in one place.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

/// What JAX does with a 64-bit dtype requested explicitly while x64 is off
/// (`jax_explicit_x64_dtypes`): a dtype given as a specifier (`'int64'`,
/// `jnp.float64`), or the join of 64-bit arrays, which JAX hands to the same
/// function (`dtypes.dtype`). Python scalars and types, and arrays read
/// alone, are not requests. With x64 on every mode keeps the dtype.
///
/// ```
/// use dtype_lattice::frameworks::jax::ExplicitX64;
///
/// assert_eq!(ExplicitX64::default(), ExplicitX64::Warn);
/// assert_eq!("allow".parse(), Ok(ExplicitX64::Allow));
/// assert_eq!(ExplicitX64::Error.name(), "error");
/// let err = "alow".parse::<ExplicitX64>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unknown jax_explicit_x64_dtypes mode 'alow': did you mean 'allow'? (known: warn, error, allow)"
/// );
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExplicitX64 {
    /// Truncate it to its 32-bit counterpart, with a `UserWarning`: JAX's
    /// default.
    #[default]
    Warn,
    /// Refuse it with a `ValueError`
    /// ([`PromotionError::ExplicitX64Refused`](crate::PromotionError::ExplicitX64Refused)).
    Error,
    /// Keep it: the 64-bit dtype takes part in promotion, though Python
    /// scalars still default to 32 bits.
    Allow,
}

impl ExplicitX64 {
    /// The three modes, in the order JAX defines them.
    pub const ALL: [ExplicitX64; 3] = [ExplicitX64::Warn, ExplicitX64::Error, ExplicitX64::Allow];

    /// `warn`, `error` or `allow`, as JAX's flag spells it.
    pub const fn name(self) -> &'static str {
        match self {
            ExplicitX64::Warn => "warn",
            ExplicitX64::Error => "error",
            ExplicitX64::Allow => "allow",
        }
    }
}

impl fmt::Display for ExplicitX64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ExplicitX64 {
    type Err = ParseExplicitX64Error;

    /// A mode by JAX's name for it: `warn`, `error` or `allow`.
    fn from_str(s: &str) -> Result<ExplicitX64, ParseExplicitX64Error> {
        ExplicitX64::ALL
            .into_iter()
            .find(|mode| mode.name() == s)
            .ok_or_else(|| ParseExplicitX64Error {
                input: s.to_owned(),
            })
    }
}

/// A name that is not one of [`ExplicitX64`]'s modes; its message names
/// the three, and the nearest one when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseExplicitX64Error {
    input: String,
}

impl ParseExplicitX64Error {
    /// The text that was not a mode.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ParseExplicitX64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = ExplicitX64::ALL.map(ExplicitX64::name);
        write!(
            f,
            "unknown jax_explicit_x64_dtypes mode '{}'",
            self.input.escape_debug()
        )?;
        if let Some(near) = crate::text::nearest(&self.input, names.into_iter()) {
            write!(f, ": did you mean '{near}'?")?;
        }
        write!(f, " (known: {})", names.join(", "))
    }
}

impl core::error::Error for ParseExplicitX64Error {}
