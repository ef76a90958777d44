//! A policy as a user names one to compare with: `numpy`, `torch`,
//! `jax:x64=true`, or the settings alone (`strict`, `x64`,
//! `explicit_x64_dtypes=allow`), which mean "JAX as it is configured now,
//! with these changed". One parser for every front end (the Python
//! package's `compare=`, its command line's `--compare`).
//!
//! ```text
//! spec        := policy | policy ":" assignments | assignments
//! assignments := assignment ("+" assignment)*
//! assignment  := setting | setting "=" value     (a flag alone is "=true")
//! list        := spec ("," spec)*
//! ```
//!
//! A policy and its aliases are the [registry](super::POLICIES)'s; a
//! setting and its values the [settings table](super::SETTINGS)'s. A policy
//! given by name starts from the default settings; settings alone start
//! from the configuration they are applied to ([`PolicySpec::settings`]).
//!
//! ```
//! use dtype_lattice::registry::{PolicySpec, Settings};
//!
//! let running = Settings::default();
//! let strict: PolicySpec = "strict".parse().unwrap();
//! assert_eq!(strict.build(running).name(), "jax (x64 off, strict)");
//! let numpy: PolicySpec = "np".parse().unwrap();
//! assert_eq!(numpy.to_string(), "numpy");
//! let both: PolicySpec = "jax:x64+strict".parse().unwrap();
//! assert_eq!(both.build(running).name(), "jax (x64 on, strict)");
//! assert_eq!(both.to_string(), "jax:x64=true+strict=true");
//!
//! let list = PolicySpec::parse_list("numpy, torch,x64").unwrap();
//! assert_eq!(list.len(), 3);
//! let err = "numpy:x64".parse::<PolicySpec>().unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "numpy does not read the setting 'x64' (it reads none); the policies that do: jax, jax-lax"
//! );
//! ```

use core::fmt;
use core::str::FromStr;

use super::settings::{setting, Setting, SettingError, Settings};
use super::{resolve, NamedPolicy, PolicyInfo, PresetConflict, UnknownPolicy};
use crate::policy::Policy;
use crate::prelude::*;
use crate::text::quote;

/// A policy as a user names it for comparison (the module docs give the
/// forms): a registry policy under chosen settings, or the configuration
/// it is applied to with some settings changed.
#[derive(Clone, Debug)]
pub struct PolicySpec {
    /// The policy (or preset) named, or `None` for "JAX as configured".
    base: Option<NamedPolicy>,
    /// The settings given, in order, each with the value as the table
    /// spells it.
    assignments: Vec<(&'static Setting, &'static str)>,
}

impl PartialEq for PolicySpec {
    /// The same policy and the same settings given, in the same order.
    fn eq(&self, other: &PolicySpec) -> bool {
        let names = |spec: &PolicySpec| -> Vec<(&str, &str)> {
            spec.assignments.iter().map(|(s, v)| (s.name, *v)).collect()
        };
        self.base == other.base && names(self) == names(other)
    }
}

impl Eq for PolicySpec {}

impl PolicySpec {
    /// A comma-separated list of specs (spaces around them are ignored),
    /// as a command line's `--compare numpy,torch,strict` gives it.
    ///
    /// ```
    /// use dtype_lattice::registry::PolicySpec;
    /// let err = PolicySpec::parse_list("numpy,,torch").unwrap_err();
    /// assert_eq!(err.to_string(), "an empty policy in the list 'numpy,,torch': write one name between commas");
    /// ```
    pub fn parse_list(text: &str) -> Result<Vec<PolicySpec>, SpecError> {
        text.split(',')
            .map(|part| match part.trim() {
                "" => Err(SpecError::EmptyInList(text.to_owned())),
                spec => spec.parse(),
            })
            .collect()
    }

    /// The registry entry of the policy built: the one named (a preset's
    /// entry), or JAX.
    pub fn info(&self) -> &'static PolicyInfo {
        self.base.map_or(&super::POLICIES[0], |named| named.info())
    }

    /// Whether the spec changes the configuration it is applied to
    /// (settings alone, no policy name).
    pub fn is_relative(&self) -> bool {
        self.base.is_none()
    }

    /// The settings the policy is built with, applied to `running` (the
    /// configuration of the program compared): a named policy starts from
    /// the defaults (a preset's fixed), settings alone from `running`.
    ///
    /// ```
    /// use dtype_lattice::registry::{PolicySpec, Settings};
    /// let running = Settings { x64: true, ..Settings::default() };
    /// let strict: PolicySpec = "strict".parse().unwrap();
    /// assert_eq!(strict.settings(running), Settings { x64: true, strict: true, ..Settings::default() });
    /// let jax: PolicySpec = "jax".parse().unwrap();
    /// assert_eq!(jax.settings(running), Settings::default());
    /// ```
    pub fn settings(&self, running: Settings) -> Settings {
        let mut settings = match self.base {
            None => running,
            // Parsing refused any setting that contradicts the preset.
            Some(named) => named.apply(Settings::default()).unwrap_or_default(),
        };
        for (setting, value) in &self.assignments {
            // The value came from the setting's own table when parsed.
            let _ = setting.set(&mut settings, value);
        }
        settings
    }

    /// The policy, applied to `running` ([`settings`](Self::settings)).
    pub fn build(&self, running: Settings) -> Box<dyn Policy> {
        self.info().build(self.settings(running))
    }
}

impl FromStr for PolicySpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<PolicySpec, SpecError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SpecError::Empty);
        }
        let (base, rest) = match text.split_once(':') {
            Some((name, rest)) => (Some(name.trim()), Some(rest)),
            // One word is a policy unless it is a setting (no name is both),
            // or a misspelt setting rather than a misspelt policy.
            None if resolve(text).is_ok() || !looks_like_setting(text) => (Some(text), None),
            None => (None, Some(text)),
        };
        let base = match base {
            Some(name) => Some(resolve(name).map_err(SpecError::Policy)?),
            None => None,
        };
        let mut assignments = Vec::new();
        for part in rest.into_iter().flat_map(|rest| rest.split('+')) {
            let (name, value) = match part.split_once('=') {
                Some((name, value)) => (name.trim(), Some(value.trim())),
                None => (part.trim(), None),
            };
            let setting = setting(name).map_err(SpecError::Setting)?;
            if let Some(named) = base {
                let info = named.info();
                if !info.settings.contains(&setting.name) {
                    return Err(SpecError::NotRead {
                        policy: named.name(),
                        setting: setting.name,
                        reads: info.settings,
                    });
                }
            }
            let value = match value {
                Some(value) => {
                    let mut probe = Settings::default();
                    setting.set(&mut probe, value).map_err(SpecError::Setting)?;
                    setting.get(&probe)
                }
                None if setting.is_flag() => "true",
                None => return Err(SpecError::NoValue(setting.name)),
            };
            // Unlike settings passed beside a name, these were written, so
            // even the default contradicts a preset that fixes another value.
            if let Some(preset) = base.and_then(|named| named.preset()) {
                if preset
                    .fixes(setting.name)
                    .is_some_and(|fixed| fixed != value)
                {
                    return Err(SpecError::Preset(PresetConflict {
                        preset,
                        setting: setting.name,
                        given: value,
                    }));
                }
            }
            assignments.push((setting, value));
        }
        Ok(PolicySpec { base, assignments })
    }
}

/// Whether a word that names no policy is meant as settings: it assigns
/// (`=`), names a setting, or is nearer a setting's name than a policy's.
fn looks_like_setting(word: &str) -> bool {
    let settings = || super::SETTINGS.iter().map(|s| s.name);
    word.contains('=')
        || word.contains('+')
        || setting(word).is_ok()
        || (crate::text::nearest(word, settings()).is_some()
            && crate::text::nearest(word, super::names()).is_none())
}

impl fmt::Display for PolicySpec {
    /// The spec in its full form: the policy's registry name, then each
    /// setting as `name=value`; settings alone without a name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(named) = self.base {
            f.write_str(named.name())?;
            if !self.assignments.is_empty() {
                f.write_str(":")?;
            }
        }
        for (i, (setting, value)) in self.assignments.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{}={value}", setting.name)?;
        }
        Ok(())
    }
}

/// Why a policy spec does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// Nothing was given.
    Empty,
    /// A list has an empty item (`numpy,,torch`).
    EmptyInList(String),
    /// The policy name is unknown.
    Policy(UnknownPolicy),
    /// A setting name or value is unknown.
    Setting(SettingError),
    /// The policy named does not read that setting.
    NotRead {
        /// The policy's name.
        policy: &'static str,
        /// The setting given.
        setting: &'static str,
        /// The settings it reads.
        reads: &'static [&'static str],
    },
    /// A setting that is not a flag was given without a value: its name.
    NoValue(&'static str),
    /// A setting was given a value that contradicts the preset named.
    Preset(PresetConflict),
}

impl core::error::Error for SpecError {}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Empty => f.write_str(
                "an empty policy: name one (numpy, torch, ...) or settings (strict, x64, ...)",
            ),
            SpecError::EmptyInList(list) => write!(
                f,
                "an empty policy in the list {}: write one name between commas",
                quote(list, '\'')
            ),
            SpecError::Policy(err) => err.fmt(f),
            SpecError::Setting(err) => err.fmt(f),
            SpecError::Preset(err) => err.fmt(f),
            SpecError::NotRead {
                policy,
                setting,
                reads,
            } => {
                let reads = if reads.is_empty() {
                    "none".to_owned()
                } else {
                    reads.join(", ")
                };
                let readers: Vec<&str> = super::POLICIES
                    .iter()
                    .filter(|info| info.settings.contains(setting))
                    .map(|info| info.name)
                    .collect();
                write!(
                    f,
                    "{policy} does not read the setting '{setting}' (it reads {reads}); \
                     the policies that do: {}",
                    readers.join(", ")
                )
            }
            SpecError::NoValue(name) => {
                let values = setting(name)
                    .map(|s| s.values.join(", "))
                    .unwrap_or_default();
                write!(
                    f,
                    "the setting '{name}' takes a value: write {name}=VALUE (one of {values})"
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{POLICIES, SETTINGS};

    /// A single word is read as a policy or a setting: no name may be both.
    #[test]
    fn no_policy_is_named_like_a_setting() {
        for info in POLICIES {
            for name in core::iter::once(&info.name).chain(info.aliases) {
                assert!(setting(name).is_err(), "{name}");
            }
        }
        for preset in crate::registry::PRESETS {
            assert!(setting(preset.name).is_err(), "{}", preset.name);
        }
    }

    #[test]
    fn every_form_reads_back_as_written() {
        for text in [
            "numpy",
            "jax",
            "x64=true",
            "strict=true+x64=false",
            "jax:explicit_x64_dtypes=allow",
            "keras:keras_backend=jax+floatx=bfloat16",
            "tensorflow-all",
            "tensorflow-safe:tensorflow_numpy_behavior=safe",
            "tensorflow-numpy:tensorflow_numpy_behavior=all",
        ] {
            let spec: PolicySpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            assert_eq!(spec.to_string().parse::<PolicySpec>().unwrap(), spec);
        }
    }

    #[test]
    fn a_preset_builds_its_entry_with_its_settings() {
        let all: PolicySpec = "tensorflow-all".parse().unwrap();
        assert_eq!(all.info().name, "tensorflow");
        assert_eq!(
            all.settings(Settings::default())
                .get("tensorflow_numpy_behavior"),
            Some("all")
        );
        // A named preset ignores the running configuration, as an entry does.
        let running = Settings {
            tensorflow_numpy_behavior: crate::frameworks::tensorflow::Mode::Safe,
            ..Settings::default()
        };
        assert_eq!(all.build(running).name(), "tensorflow (numpy behavior all)");
    }

    #[test]
    fn relative_settings_change_only_what_they_name() {
        let running = Settings {
            x64: true,
            ..Settings::default()
        };
        for setting in SETTINGS {
            for value in setting.values {
                let spec: PolicySpec = format!("{}={value}", setting.name).parse().unwrap();
                let mut expected = running;
                setting.set(&mut expected, value).unwrap();
                assert_eq!(spec.settings(running), expected, "{spec}");
            }
        }
    }

    #[test]
    fn errors_name_the_input_and_the_fix() {
        let cases = [
            ("", "an empty policy: name one"),
            ("numpyy", "unknown policy 'numpyy': did you mean 'numpy'?"),
            ("jax:x46", "unknown setting 'x46': did you mean 'x64'?"),
            ("strcit", "unknown setting 'strcit': did you mean 'strict'?"),
            ("x64=maybe", "x64='maybe' is not one of its values"),
            ("explicit_x64_dtypes", "the setting 'explicit_x64_dtypes' takes a value: write explicit_x64_dtypes=VALUE (one of warn, error, allow)"),
            ("torch:floatx=float16", "torch does not read the setting 'floatx' (it reads none); the policies that do: keras"),
            ("tensorflow-all:tensorflow_numpy_behavior=off", "tensorflow-all is tensorflow with tensorflow_numpy_behavior=all, which tensorflow_numpy_behavior=off contradicts: drop that setting, or ask for tensorflow with tensorflow_numpy_behavior=off"),
            ("tensorflow-saef", "unknown policy 'tensorflow-saef': did you mean 'tensorflow-safe'?"),
        ];
        for (text, start) in cases {
            let message = text.parse::<PolicySpec>().unwrap_err().to_string();
            assert!(message.starts_with(start), "{text}: {message}");
        }
    }
}
