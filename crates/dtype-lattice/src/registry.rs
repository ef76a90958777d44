//! The registry: the one file that names every framework, so that adding
//! one touches one line here. It sits above the frameworks (which know
//! only the [`Policy`] trait), and the front ends and the batch protocol
//! find policies through it.

use std::fmt;

use crate::frameworks::array_api::ArrayApi;
use crate::frameworks::jax::{Config, ExplicitX64, Jax, Promotion};
use crate::frameworks::jax_lax::JaxLax;
use crate::frameworks::numpy::{Numpy, NumpyLegacy};
use crate::frameworks::tensorflow::{Mode, TensorFlow};
use crate::frameworks::torch::Torch;
use crate::policy::Policy;

/// The names [`by_name`] knows, in the order tools list them.
pub const POLICY_NAMES: &[&str] = &[
    "jax",
    "numpy",
    "numpy-legacy",
    "array-api",
    "torch",
    "tensorflow",
    "tensorflow-safe",
    "tensorflow-all",
    "jax-lax",
];

/// Other names people use for these policies, each with the name it
/// stands for.
pub const ALIASES: &[(&str, &str)] = &[
    ("np", "numpy"),
    ("numpy2", "numpy"),
    ("pytorch", "torch"),
    ("tf", "tensorflow"),
    ("array_api", "array-api"),
];

/// The settings a front end's flags choose, read by the policies they
/// concern and ignored by the rest: `jax` takes all three, `jax-lax` x64.
/// Each framework turns them into its own configuration type
/// ([`jax::Config`](crate::frameworks::jax::Config),
/// [`tensorflow::Mode`](crate::frameworks::tensorflow::Mode) by name).
/// The default is JAX's defaults.
///
/// ```
/// use dtype_lattice::frameworks::jax::ExplicitX64;
/// use dtype_lattice::registry::{by_name, Settings};
///
/// let allow = Settings { explicit_x64: ExplicitX64::Allow, ..Settings::default() };
/// assert_eq!(by_name("jax", allow).unwrap().name(), "jax (x64 off, standard, explicit-x64 allow)");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Settings {
    /// `jax_enable_x64`.
    pub x64: bool,
    /// `jax_numpy_dtype_promotion=strict`.
    pub strict: bool,
    /// `jax_explicit_x64_dtypes`.
    pub explicit_x64: ExplicitX64,
}

impl Settings {
    /// JAX's configuration for these settings.
    pub fn jax(self) -> Config {
        Config {
            x64: self.x64,
            promotion: if self.strict {
                Promotion::Strict
            } else {
                Promotion::Standard
            },
            explicit_x64: self.explicit_x64,
        }
    }
}

/// The policy with this name (or [alias](ALIASES)), under `settings`.
///
/// ```
/// use dtype_lattice::registry::{by_name, Settings};
///
/// let jax = by_name("jax", Settings::default()).unwrap();
/// assert_eq!(jax.name(), "jax (x64 off, standard)");
/// let x64 = by_name("jax", Settings { x64: true, ..Settings::default() }).unwrap();
/// assert_eq!(x64.name(), "jax (x64 on, standard)");
/// assert_eq!(by_name("np", Settings::default()).unwrap().name(), "numpy");
/// let err = by_name("jaxx", Settings::default()).err().unwrap();
/// assert!(err.to_string().starts_with("unknown policy 'jaxx': did you mean 'jax'? (known: jax, "));
/// let err = by_name("tensorflwo-all", Settings::default()).err().unwrap();
/// assert!(err.to_string().starts_with("unknown policy 'tensorflwo-all': did you mean 'tensorflow-all'?"));
/// ```
pub fn by_name(name: &str, settings: Settings) -> Result<Box<dyn Policy>, UnknownPolicy> {
    let canonical = ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, canonical)| canonical);
    match canonical {
        "jax" => Ok(Box::new(Jax::new(settings.jax()))),
        "numpy" => Ok(Box::new(Numpy)),
        "numpy-legacy" => Ok(Box::new(NumpyLegacy)),
        "array-api" => Ok(Box::new(ArrayApi)),
        "torch" => Ok(Box::new(Torch)),
        "tensorflow" => Ok(Box::new(TensorFlow::new(Mode::Off))),
        "tensorflow-safe" => Ok(Box::new(TensorFlow::new(Mode::Safe))),
        "tensorflow-all" => Ok(Box::new(TensorFlow::new(Mode::All))),
        "jax-lax" => Ok(Box::new(JaxLax::new(settings.jax()))),
        _ => Err(UnknownPolicy {
            name: name.to_owned(),
        }),
    }
}

/// The names of the policies defined by a lattice, in [`POLICY_NAMES`]
/// order: those the graph tools (`explain`, `graph`) can draw.
///
/// ```
/// use dtype_lattice::registry::with_lattice;
/// assert_eq!(with_lattice(), ["jax", "array-api", "torch", "tensorflow-all"]);
/// ```
pub fn with_lattice() -> Vec<&'static str> {
    POLICY_NAMES
        .iter()
        .copied()
        .filter(|name| by_name(name, Settings::default()).is_ok_and(|p| p.lattice().is_some()))
        .collect()
}

/// A policy name [`by_name`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy {
    name: String,
}

impl fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown policy '{}'", self.name.escape_debug())?;
        if let Some(known) = crate::types::nearest(&self.name, POLICY_NAMES.iter().copied()) {
            write!(f, ": did you mean '{known}'?")?;
        }
        write!(f, " (known: {})", POLICY_NAMES.join(", "))
    }
}

impl std::error::Error for UnknownPolicy {}
