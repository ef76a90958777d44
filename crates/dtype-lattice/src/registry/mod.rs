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
//! An entry is what a program installs or imports: one library's namespace
//! at one major version (`jax`, `jax-lax`, `numpy`, `numpy1`, `numpy-legacy`,
//! `tensorflow`, `tensorflow-numpy`). What a running program switches
//! (JAX's flags, TensorFlow's NumPy behaviour, Keras's backend) is a
//! [setting](SETTINGS). A [preset](PRESETS) is a familiar name for an
//! entry with some settings fixed, and every surface takes it as it takes
//! an entry's name ([`resolve`]):
//!
//! ```
//! use dtype_lattice::registry::{by_name, Settings};
//! let mut safe = Settings::default();
//! safe.set("tensorflow_numpy_behavior", "safe").unwrap();
//! assert_eq!(
//!     by_name("tensorflow-safe", Settings::default()).unwrap().name(),
//!     by_name("tensorflow", safe).unwrap().name()
//! );
//! ```
//!
//! # Files
//!
//! `mod.rs` holds `POLICIES`, one entry per framework with its aliases and
//! the settings it reads, and `PRESETS`; `presets.rs` what a preset is and
//! what a name resolves to (`NamedPolicy`); `settings.rs` holds `SETTINGS`,
//! one entry per setting, and `Settings`; `spec.rs` holds `PolicySpec`, the
//! one reading of a policy named with its settings (`jax:x64=true`), or of
//! settings alone.

mod presets;
mod settings;
mod spec;

use core::fmt;

use crate::frameworks::array_api::ArrayApi;
use crate::frameworks::jax::lax::JaxLax;
use crate::frameworks::jax::{Config, Jax};
use crate::frameworks::keras::Keras;
use crate::frameworks::mlx::Mlx;
use crate::frameworks::numpy::{Numpy, Numpy1, NumpyLegacy};
use crate::frameworks::paddle::Paddle;
use crate::frameworks::tensorflow::{Api, TensorFlow};
use crate::frameworks::tinygrad::Tinygrad;
use crate::frameworks::torch::Torch;
use crate::policy::Policy;
use crate::text::quote;

use crate::prelude::*;
pub use presets::{NamedPolicy, PolicyError, Preset, PresetConflict};
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

impl PartialEq for PolicyInfo {
    /// The same entry: names are unique in the registry.
    fn eq(&self, other: &PolicyInfo) -> bool {
        self.name == other.name
    }
}

impl Eq for PolicyInfo {}

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

/// TensorFlow's settings, read by both its namespaces.
const TENSORFLOW_SETTINGS: &[&str] = &["tensorflow_numpy_behavior", "tensorflow_prefer_float32"];

/// TensorFlow under the settings, its own functions'.
fn tensorflow(s: Settings) -> TensorFlow {
    TensorFlow::new(s.tensorflow_numpy_behavior).with_prefer_float32(s.tensorflow_prefer_float32)
}

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
        name: "numpy1",
        framework: "NumPy",
        aliases: &[],
        settings: &[],
        build: |_| Box::new(Numpy1),
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
        settings: TENSORFLOW_SETTINGS,
        build: |s| Box::new(tensorflow(s)),
    },
    PolicyInfo {
        name: "tensorflow-numpy",
        framework: "TensorFlow",
        aliases: &["tnp"],
        settings: TENSORFLOW_SETTINGS,
        build: |s| Box::new(tensorflow(s).with_api(Api::Tnp)),
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

/// Familiar names for an entry with some settings fixed, each listed under
/// its entry. An entry is what a program installs or imports (one
/// library's namespace at one major version); what a running program
/// switches is a setting; a preset only names settings, so it is no entry
/// (DESIGN.md, "Why are some variants entries and others settings?").
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "tensorflow-safe",
        entry: "tensorflow",
        settings: &[("tensorflow_numpy_behavior", "safe")],
    },
    Preset {
        name: "tensorflow-all",
        entry: "tensorflow",
        settings: &[("tensorflow_numpy_behavior", "all")],
    },
];

/// What `name` names: an entry (by its name or an alias) or a preset, or
/// an error suggesting the nearest name.
///
/// ```
/// use dtype_lattice::registry::resolve;
/// assert_eq!(resolve("tnp").unwrap().name(), "tensorflow-numpy");
/// assert_eq!(resolve("tensorflow-safe").unwrap().preset().unwrap().entry, "tensorflow");
/// ```
pub fn resolve(name: &str) -> Result<NamedPolicy, UnknownPolicy> {
    if let Some(info) = entries().find(|info| info.name == name || info.aliases.contains(&name)) {
        return Ok(NamedPolicy::entry(info));
    }
    PRESETS
        .iter()
        .find(|preset| preset.name == name)
        .map(NamedPolicy::preset_of)
        .ok_or_else(|| UnknownPolicy {
            name: name.to_owned(),
        })
}

/// The registry name of `name` (itself, or what it is an alias of; a
/// preset's own name), or an error suggesting the nearest.
///
/// ```
/// use dtype_lattice::registry::canonical;
/// assert_eq!(canonical("pytorch").unwrap(), "torch");
/// assert_eq!(canonical("tensorflow-all").unwrap(), "tensorflow-all");
/// let err = canonical("jaxx").unwrap_err();
/// assert!(err.to_string().starts_with("unknown policy 'jaxx': did you mean 'jax'? (known: jax, "));
/// ```
pub fn canonical(name: &str) -> Result<&'static str, UnknownPolicy> {
    resolve(name).map(|named| named.name())
}

/// The entry of the policy called `name`, one of its aliases, or a preset
/// of it (whose fixed settings [`resolve`] and [`by_name`] apply).
///
/// ```
/// use dtype_lattice::registry::policy_info;
/// assert_eq!(policy_info("tensorflow-safe").unwrap().name, "tensorflow");
/// ```
pub fn policy_info(name: &str) -> Result<&'static PolicyInfo, UnknownPolicy> {
    resolve(name).map(|named| named.info())
}

/// The policy with this name (or alias, or preset), under `settings`.
///
/// ```
/// use dtype_lattice::registry::{by_name, Settings};
///
/// let jax = by_name("jax", Settings::default()).unwrap();
/// assert_eq!(jax.name(), "jax (x64 off, standard)");
/// let x64 = by_name("jax", Settings { x64: true, ..Settings::default() }).unwrap();
/// assert_eq!(x64.name(), "jax (x64 on, standard)");
/// let all = by_name("tensorflow-all", Settings::default()).unwrap();
/// assert_eq!(all.name(), "tensorflow (numpy behavior all)");
/// let err = by_name("tensorflwo-all", Settings::default()).err().unwrap();
/// assert!(err.to_string().starts_with("unknown policy 'tensorflwo-all': did you mean 'tensorflow-all'?"));
/// ```
pub fn by_name(name: &str, settings: Settings) -> Result<Box<dyn Policy>, PolicyError> {
    Ok(resolve(name)?.build(settings)?)
}

/// Every entry, each followed by its presets: the order every list of
/// policies shows them in (`--policy`'s help, the explorer's menu,
/// Python's `policies()`).
///
/// ```
/// let names: Vec<&str> = dtype_lattice::registry::listing().map(|p| p.name()).collect();
/// let tf = names.iter().position(|&n| n == "tensorflow").unwrap();
/// assert_eq!(names[tf..tf + 4], ["tensorflow", "tensorflow-safe", "tensorflow-all", "tensorflow-numpy"]);
/// ```
pub fn listing() -> impl Iterator<Item = NamedPolicy> {
    entries().flat_map(|info| {
        core::iter::once(NamedPolicy::entry(info)).chain(
            PRESETS
                .iter()
                .filter(move |preset| preset.entry == info.name)
                .map(NamedPolicy::preset_of),
        )
    })
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

/// The names of every policy and preset, in [`listing`] order.
pub fn names() -> impl Iterator<Item = &'static str> {
    listing().map(|named| named.name())
}

/// The names of the policies (and presets) defined by a lattice under
/// their default settings, in [`listing`] order: those the graph tools
/// (`explain`, `graph`) can draw as they are named.
///
/// ```
/// use dtype_lattice::registry::with_lattice;
/// assert_eq!(with_lattice(), ["jax", "array-api", "torch", "tensorflow-all"]);
/// ```
pub fn with_lattice() -> Vec<&'static str> {
    with(|policy| policy.lattice().is_some())
}

/// The names in [`listing`] order whose policy, under its default
/// settings, answers `test`.
fn with(test: impl Fn(&dyn Policy) -> bool) -> Vec<&'static str> {
    listing()
        .filter(|named| {
            let policy = named
                .build(Settings::default())
                .expect("the default settings contradict no preset");
            test(policy.as_ref())
        })
        .map(|named| named.name())
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
    names.extend(with(|policy| policy.written_graph().is_some()));
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

impl core::error::Error for UnknownPolicy {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique_and_read_known_settings() {
        let mut seen = alloc::collections::BTreeSet::new();
        for info in entries() {
            for name in core::iter::once(&info.name).chain(info.aliases) {
                assert!(seen.insert(*name), "{name} twice");
            }
            for name in info.settings {
                assert!(setting(name).is_ok(), "{}: {name}", info.name);
            }
        }
    }

    #[test]
    fn presets_name_their_entry_and_its_settings() {
        let entries: Vec<&str> = POLICIES
            .iter()
            .flat_map(|info| core::iter::once(&info.name).chain(info.aliases))
            .copied()
            .collect();
        for preset in PRESETS {
            assert!(
                !entries.contains(&preset.name),
                "{} is an entry's name",
                preset.name
            );
            assert!(!preset.settings.is_empty(), "{}", preset.name);
            for (name, value) in preset.settings {
                assert!(
                    preset.info().settings.contains(name),
                    "{}: {name}",
                    preset.name
                );
                assert!(
                    setting(name).unwrap().values.contains(value),
                    "{}",
                    preset.name
                );
            }
            // A preset answers as its entry with its settings.
            let spec: PolicySpec = preset.to_string().parse().unwrap();
            let entry = spec.build(Settings::default());
            let named = by_name(preset.name, Settings::default()).unwrap();
            assert_eq!(named.name(), entry.name(), "{}", preset.name);
        }
    }

    #[test]
    fn a_setting_that_contradicts_a_preset_is_refused() {
        let mut settings = Settings::default();
        settings.set("tensorflow_numpy_behavior", "safe").unwrap();
        // The preset's own value, or the default, agree with it.
        assert!(by_name("tensorflow-safe", settings).is_ok());
        let err = by_name("tensorflow-all", settings).err().unwrap();
        assert!(matches!(err, PolicyError::Conflict(_)));
        assert!(
            err.to_string().starts_with("tensorflow-all is tensorflow with tensorflow_numpy_behavior=all, which tensorflow_numpy_behavior=safe contradicts: drop that setting, or ask for tensorflow-safe"),
            "{err}"
        );
        // Settings the preset does not fix are free.
        settings.x64 = true;
        settings.tensorflow_numpy_behavior = Default::default();
        assert!(by_name("tensorflow-all", settings).is_ok());
    }

    #[test]
    fn presets_are_listed_under_their_entry_and_suggested() {
        let names: Vec<&str> = names().collect();
        let at = |name| names.iter().position(|n| *n == name).unwrap();
        assert_eq!(at("tensorflow-safe"), at("tensorflow") + 1);
        assert_eq!(at("tensorflow-all"), at("tensorflow") + 2);
        let err = canonical("tensorflow-saef").unwrap_err().to_string();
        assert!(
            err.starts_with("unknown policy 'tensorflow-saef': did you mean 'tensorflow-safe'?"),
            "{err}"
        );
        assert!(err.contains("tensorflow-all, tensorflow-numpy"), "{err}");
    }

    #[test]
    fn tensorflow_numpy_refuses_with_numpy_behaviour_off() {
        use crate::types::{DType, Op, Operand};
        let off = by_name("tnp", Settings::default()).unwrap();
        assert_eq!(off.name(), "tensorflow-numpy (numpy behavior off)");
        let x = Operand::dtype(DType::Int8);
        let err = off.operation(Op::Add, &[x, x]).unwrap().unwrap_err();
        assert!(
            err.to_string()
                .ends_with("tensorflow_numpy_behavior=safe or tensorflow_numpy_behavior=all"),
            "{err}"
        );
        assert!(off.result_type(&[x, x]).is_err());
        let mut safe = Settings::default();
        safe.set("tensorflow_numpy_behavior", "safe").unwrap();
        let safe = by_name("tnp", safe).unwrap();
        assert_eq!(safe.result_type(&[x, x]).unwrap().dtype, DType::Int8);
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

    /// The form a policy answers an operation in by default is one Python
    /// has for that operation, so `call` of it is `operation`'s answer.
    #[test]
    fn a_policy_answers_each_operation_in_a_form_python_has() {
        use crate::types::{Call, Op};
        for info in entries() {
            let policy = info.build(Settings::default());
            for op in Op::ALL {
                let form = policy.default_form(op);
                assert!(
                    Call::new(Some(op), form).is_ok(),
                    "{} {op} {form}",
                    info.name
                );
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
