//! The registry: the one place that names every framework and every
//! setting, so that adding a framework is one entry in [`POLICIES`] and
//! adding a setting one entry in [`SETTINGS`]. It sits above the
//! frameworks (which know only the [`Policy`] trait), and the front ends
//! and the batch protocol find policies and settings only through it.
//!
//! ```
//! use dtype_lattice::registry::{by_name, policy_info, Settings};
//!
//! let mut settings = Settings::default();
//! settings.set("x64", "true").unwrap();
//! assert_eq!(by_name("jax", settings).unwrap().name(), "jax (x64 on, standard)");
//! assert_eq!(by_name("np", settings).unwrap().name(), "numpy");
//! // Which settings a policy reads is part of its entry.
//! assert_eq!(policy_info("jax-lax").unwrap().settings, ["x64"]);
//! assert!(policy_info("numpy").unwrap().settings.is_empty());
//! ```
//!
//! [`PolicySpec`] reads the names users type for a policy to compare with
//! (`numpy`, `strict`, `jax:x64=true`).
//!
//! # Files
//!
//! `mod.rs` holds `POLICIES`, one entry per framework with its aliases and
//! the settings it reads; `settings.rs` holds `SETTINGS`, one entry per
//! setting, and `Settings`; `spec.rs` holds `PolicySpec`, the one reading of
//! a policy named with its settings (`jax:x64=true`), or of settings alone.

mod settings;
mod spec;

use std::fmt;

use crate::frameworks::array_api::ArrayApi;
use crate::frameworks::jax::lax::JaxLax;
use crate::frameworks::jax::{Config, Jax};
use crate::frameworks::keras::Keras;
use crate::frameworks::mlx::Mlx;
use crate::frameworks::numpy::{Numpy, NumpyLegacy};
use crate::frameworks::paddle::Paddle;
use crate::frameworks::tensorflow::{Mode, TensorFlow};
use crate::frameworks::tinygrad::Tinygrad;
use crate::frameworks::torch::Torch;
use crate::policy::Policy;
use crate::text::quote;

pub use settings::{setting, Setting, SettingError, Settings, SETTINGS};
pub use spec::{PolicySpec, SpecError};

/// One framework's entry: its names, the settings it reads, and how it is
/// made.
pub struct PolicyInfo {
    /// The name every surface takes (`--policy`, `"policy"`, `dl.policy`).
    pub name: &'static str,
    /// The library it models, as prose names it (`PyTorch`, `the Array
    /// API`); variants of one library share it. Every list of frameworks
    /// in the docs is checked against these ([`frameworks`]).
    pub framework: &'static str,
    /// Other names people type for it.
    pub aliases: &'static [&'static str],
    /// The names of the [settings](SETTINGS) it reads; it ignores the rest.
    pub settings: &'static [&'static str],
    pub(crate) build: fn(Settings) -> Box<dyn Policy>,
}

impl fmt::Debug for PolicyInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PolicyInfo")
            .field("name", &self.name)
            .field("aliases", &self.aliases)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl PolicyInfo {
    /// The policy under `settings` (those it does not read are ignored).
    pub fn build(&self, settings: Settings) -> Box<dyn Policy> {
        (self.build)(settings)
    }

    /// Every combination of the values of the settings the policy reads,
    /// the others at their defaults; the default first. What a tool that
    /// answers for every configuration of one policy goes through, rather
    /// than [`Settings::all`], every framework's options multiplied.
    ///
    /// ```
    /// use dtype_lattice::registry::{policy_info, Settings};
    /// assert_eq!(policy_info("numpy").unwrap().configurations(), [Settings::default()]);
    /// assert_eq!(policy_info("jax").unwrap().configurations().len(), 2 * 2 * 3);
    /// ```
    pub fn configurations(&self) -> Vec<Settings> {
        Settings::combinations(self.settings.iter().copied())
    }
}

/// JAX's settings, as read by a JAX-derived policy.
const JAX_SETTINGS: &[&str] = &["x64", "strict", "explicit_x64_dtypes"];

/// Every framework, in the order tools list them: JAX first, the default
/// wherever a policy may be left out.
pub const POLICIES: &[PolicyInfo] = &[
    PolicyInfo {
        name: "jax",
        framework: "JAX",
        aliases: &[],
        settings: JAX_SETTINGS,
        build: |s| Box::new(Jax::new(s.jax())),
    },
    PolicyInfo {
        name: "numpy",
        framework: "NumPy",
        aliases: &["np", "numpy2"],
        settings: &[],
        build: |_| Box::new(Numpy),
    },
    PolicyInfo {
        name: "numpy-legacy",
        framework: "NumPy",
        aliases: &[],
        settings: &[],
        build: |_| Box::new(NumpyLegacy),
    },
    PolicyInfo {
        name: "array-api",
        framework: "the Array API",
        aliases: &["array_api"],
        settings: &[],
        build: |_| Box::new(ArrayApi),
    },
    PolicyInfo {
        name: "torch",
        framework: "PyTorch",
        aliases: &["pytorch"],
        settings: &[],
        build: |_| Box::new(Torch),
    },
    PolicyInfo {
        name: "tensorflow",
        framework: "TensorFlow",
        aliases: &["tf"],
        settings: &[],
        build: |_| Box::new(TensorFlow::new(Mode::Off)),
    },
    PolicyInfo {
        name: "tensorflow-safe",
        framework: "TensorFlow",
        aliases: &[],
        settings: &["tensorflow_api"],
        build: |s| Box::new(TensorFlow::new(Mode::Safe).with_api(s.tensorflow_api)),
    },
    PolicyInfo {
        name: "tensorflow-all",
        framework: "TensorFlow",
        aliases: &[],
        settings: &["tensorflow_api"],
        build: |s| Box::new(TensorFlow::new(Mode::All).with_api(s.tensorflow_api)),
    },
    PolicyInfo {
        name: "jax-lax",
        framework: "jax.lax",
        aliases: &[],
        settings: &["x64"],
        build: |s| {
            Box::new(JaxLax::new(Config {
                x64: s.x64,
                ..Config::default()
            }))
        },
    },
    PolicyInfo {
        name: "keras",
        framework: "Keras",
        aliases: &["keras3"],
        settings: &["keras_backend", "floatx"],
        build: |s| Box::new(Keras::new(s.keras_backend, s.floatx)),
    },
    PolicyInfo {
        name: "mlx",
        framework: "MLX",
        aliases: &["mlx.core"],
        settings: &[],
        build: |_| Box::new(Mlx),
    },
    PolicyInfo {
        name: "paddle",
        framework: "PaddlePaddle",
        aliases: &["paddlepaddle"],
        settings: &[],
        build: |_| Box::new(Paddle),
    },
    PolicyInfo {
        name: "tinygrad",
        framework: "tinygrad",
        aliases: &["tg"],
        settings: &["tinygrad_default_float", "tinygrad_default_int"],
        build: |s| {
            Box::new(Tinygrad::new(
                s.tinygrad_default_float,
                s.tinygrad_default_int,
            ))
        },
    },
];

/// Every entry: [`POLICIES`], and in the crate's own tests the toy
/// framework too (`frameworks/toy/`), which follows DESIGN.md's
/// add-a-framework checklist so that the checks of every entry below,
/// and its golden data, show the checklist is complete.
fn entries() -> impl Iterator<Item = &'static PolicyInfo> {
    #[cfg(test)]
    const TESTS_ONLY: &[PolicyInfo] = &[crate::frameworks::toy::ENTRY];
    #[cfg(not(test))]
    const TESTS_ONLY: &[PolicyInfo] = &[];
    POLICIES.iter().chain(TESTS_ONLY)
}

/// The registry name of `name` (itself, or what it is an alias of), or an
/// error suggesting the nearest.
///
/// ```
/// use dtype_lattice::registry::canonical;
/// assert_eq!(canonical("pytorch").unwrap(), "torch");
/// let err = canonical("jaxx").unwrap_err();
/// assert!(err.to_string().starts_with("unknown policy 'jaxx': did you mean 'jax'? (known: jax, "));
/// ```
pub fn canonical(name: &str) -> Result<&'static str, UnknownPolicy> {
    policy_info(name).map(|info| info.name)
}

/// The entry of the policy called `name` or one of its aliases.
pub fn policy_info(name: &str) -> Result<&'static PolicyInfo, UnknownPolicy> {
    entries()
        .find(|info| info.name == name || info.aliases.contains(&name))
        .ok_or_else(|| UnknownPolicy {
            name: name.to_owned(),
        })
}

/// The policy with this name (or alias), under `settings`.
///
/// ```
/// use dtype_lattice::registry::{by_name, Settings};
///
/// let jax = by_name("jax", Settings::default()).unwrap();
/// assert_eq!(jax.name(), "jax (x64 off, standard)");
/// let x64 = by_name("jax", Settings { x64: true, ..Settings::default() }).unwrap();
/// assert_eq!(x64.name(), "jax (x64 on, standard)");
/// let err = by_name("tensorflwo-all", Settings::default()).err().unwrap();
/// assert!(err.to_string().starts_with("unknown policy 'tensorflwo-all': did you mean 'tensorflow-all'?"));
/// ```
pub fn by_name(name: &str, settings: Settings) -> Result<Box<dyn Policy>, UnknownPolicy> {
    policy_info(name).map(|info| info.build(settings))
}

/// The libraries the policies model, each once, in the registry's order:
/// what every list of frameworks in the docs names.
///
/// ```
/// let frameworks = dtype_lattice::registry::frameworks();
/// assert_eq!(frameworks[..3], ["JAX", "NumPy", "the Array API"]);
/// assert_eq!(frameworks.iter().filter(|f| **f == "TensorFlow").count(), 1);
/// ```
pub fn frameworks() -> Vec<&'static str> {
    let mut frameworks: Vec<&'static str> = Vec::new();
    for info in POLICIES {
        if !frameworks.contains(&info.framework) {
            frameworks.push(info.framework);
        }
    }
    frameworks
}

/// The names of every policy, in [`POLICIES`] order.
pub fn names() -> impl Iterator<Item = &'static str> {
    entries().map(|info| info.name)
}

/// The names of the policies defined by a lattice, in [`POLICIES`] order:
/// those the graph tools (`explain`, `graph`) can draw.
///
/// ```
/// use dtype_lattice::registry::with_lattice;
/// assert_eq!(with_lattice(), ["jax", "array-api", "torch", "tensorflow-all"]);
/// ```
pub fn with_lattice() -> Vec<&'static str> {
    entries()
        .filter(|info| info.build(Settings::default()).lattice().is_some())
        .map(|info| info.name)
        .collect()
}

/// The policies the design tools can draw and check as a graph: those
/// with a lattice, then those whose rules start from a written graph
/// ([`Policy::written_graph`]: Keras, tinygrad).
///
/// ```
/// use dtype_lattice::registry::with_graph;
/// assert!(with_graph().contains(&"tinygrad"));
/// assert!(!with_graph().contains(&"numpy"));
/// ```
pub fn with_graph() -> Vec<&'static str> {
    let mut names = with_lattice();
    names.extend(
        entries()
            .filter(|info| info.build(Settings::default()).written_graph().is_some())
            .map(|info| info.name),
    );
    names
}

/// A policy name the registry does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy {
    name: String,
}

impl fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown policy {}", quote(&self.name, '\''))?;
        let known: Vec<&str> = names().collect();
        if let Some(near) = crate::text::nearest(&self.name, known.iter().copied()) {
            write!(f, ": did you mean '{near}'?")?;
        }
        write!(f, " (known: {})", known.join(", "))
    }
}

impl std::error::Error for UnknownPolicy {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique_and_read_known_settings() {
        let mut seen = std::collections::BTreeSet::new();
        for info in entries() {
            for name in std::iter::once(&info.name).chain(info.aliases) {
                assert!(seen.insert(*name), "{name} twice");
            }
            for name in info.settings {
                assert!(setting(name).is_ok(), "{}: {name}", info.name);
            }
        }
    }

    /// Every surface that explains an operation (`explain --op`, the
    /// explorer) needs its description wherever the policy answers it.
    #[test]
    fn a_policy_describes_exactly_the_operations_it_models() {
        use crate::types::{DType, Op, Operand};
        let operands = [Operand::dtype(DType::Float32); 2];
        for info in entries() {
            for settings in info.configurations() {
                let policy = info.build(settings);
                for op in Op::ALL {
                    let models = policy.operation(op, &operands[..op.arity()]).is_some();
                    assert_eq!(
                        models,
                        policy.describe_operation(op).is_some(),
                        "{} {op}",
                        policy.name()
                    );
                }
            }
        }
    }

    /// A policy's name states the settings it reads, so a setting it does
    /// not declare must not change its answers' name.
    #[test]
    fn a_policy_reads_exactly_the_settings_it_declares() {
        for info in entries() {
            let base = info.build(Settings::default()).name();
            for s in SETTINGS {
                let changes = s.values.iter().any(|value| {
                    let mut settings = Settings::default();
                    s.set(&mut settings, value).unwrap();
                    info.build(settings).name() != base
                });
                assert_eq!(
                    changes,
                    info.settings.contains(&s.name),
                    "{} {}",
                    info.name,
                    s.name
                );
            }
        }
    }
}
