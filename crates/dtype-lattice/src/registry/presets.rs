//! Presets: familiar names for a registry entry with some of its settings
//! fixed (`tensorflow-safe` is `tensorflow` with
//! `tensorflow_numpy_behavior=safe`), and [`NamedPolicy`], what a name a
//! user types resolves to, an entry or a preset, so that every surface
//! takes both alike.

use core::fmt;

use super::settings::{setting, Settings};
use super::{PolicyInfo, UnknownPolicy, POLICIES};
use crate::policy::Policy;
use crate::prelude::*;

/// A familiar name for an [entry](super::POLICIES) with some settings
/// fixed. It is no policy of its own: it builds its entry, and a setting
/// it fixes cannot be given another value ([`PresetConflict`]).
///
/// ```
/// use dtype_lattice::registry::PRESETS;
/// let safe = &PRESETS[0];
/// assert_eq!((safe.name, safe.entry), ("tensorflow-safe", "tensorflow"));
/// assert_eq!(safe.to_string(), "tensorflow:tensorflow_numpy_behavior=safe");
/// ```
#[derive(Debug)]
pub struct Preset {
    /// The name every surface takes for it, as it takes an entry's.
    pub name: &'static str,
    /// The registry entry it builds.
    pub entry: &'static str,
    /// The settings it fixes, each with its value as the
    /// [settings table](super::SETTINGS) spells it.
    pub settings: &'static [(&'static str, &'static str)],
}

impl Preset {
    /// The entry it builds.
    pub fn info(&self) -> &'static PolicyInfo {
        POLICIES
            .iter()
            .find(|info| info.name == self.entry)
            .expect("a preset names a registry entry (tested)")
    }

    /// The value it fixes `setting` at, if it fixes it.
    pub fn fixes(&self, setting: &str) -> Option<&'static str> {
        self.settings
            .iter()
            .find(|(name, _)| *name == setting)
            .map(|(_, value)| *value)
    }

    /// `settings` with the preset's fixed. A setting it fixes that
    /// `settings` has at another value than its default (so the user gave
    /// it) and than the preset's is a contradiction, refused.
    ///
    /// ```
    /// use dtype_lattice::registry::{Settings, PRESETS};
    /// let safe = &PRESETS[0];
    /// let fixed = safe.apply(Settings::default()).unwrap();
    /// assert_eq!(fixed.get("tensorflow_numpy_behavior"), Some("safe"));
    /// let mut all = Settings::default();
    /// all.set("tensorflow_numpy_behavior", "all").unwrap();
    /// let err = safe.apply(all).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "tensorflow-safe is tensorflow with tensorflow_numpy_behavior=safe, which \
    ///      tensorflow_numpy_behavior=all contradicts: drop that setting, or ask for \
    ///      tensorflow-all (tensorflow with tensorflow_numpy_behavior=all)"
    /// );
    /// ```
    pub fn apply(&'static self, settings: Settings) -> Result<Settings, PresetConflict> {
        let mut fixed = settings;
        for (name, value) in self.settings {
            let setting = setting(name).expect("a preset fixes known settings (tested)");
            let given = setting.get(&settings);
            if given != *value && given != setting.values[0] {
                return Err(PresetConflict {
                    preset: self,
                    setting: setting.name,
                    given,
                });
            }
            setting
                .set(&mut fixed, value)
                .expect("a preset fixes known values (tested)");
        }
        Ok(fixed)
    }
}

impl fmt::Display for Preset {
    /// The preset as a [policy spec](super::PolicySpec) of its entry:
    /// `tensorflow:tensorflow_numpy_behavior=safe`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.entry)?;
        for (i, (name, value)) in self.settings.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "+" })?;
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

/// What a policy name resolves to: a registry entry, or a preset of one.
/// Every front end builds a named policy through this, so a preset works
/// wherever a name does.
///
/// ```
/// use dtype_lattice::registry::{resolve, Settings};
/// let all = resolve("tensorflow-all").unwrap();
/// assert_eq!((all.name(), all.info().name), ("tensorflow-all", "tensorflow"));
/// assert_eq!(all.settings(), ["tensorflow_prefer_float32"]);
/// let policy = all.build(Settings::default()).unwrap();
/// assert_eq!(policy.name(), "tensorflow (numpy behavior all)");
/// assert_eq!(
///     resolve("tf").unwrap().settings(),
///     ["tensorflow_numpy_behavior", "tensorflow_prefer_float32"]
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct NamedPolicy {
    info: &'static PolicyInfo,
    preset: Option<&'static Preset>,
}

impl PartialEq for NamedPolicy {
    fn eq(&self, other: &NamedPolicy) -> bool {
        self.name() == other.name()
    }
}

impl Eq for NamedPolicy {}

impl NamedPolicy {
    pub(super) fn entry(info: &'static PolicyInfo) -> NamedPolicy {
        NamedPolicy { info, preset: None }
    }

    pub(super) fn preset_of(preset: &'static Preset) -> NamedPolicy {
        NamedPolicy {
            info: preset.info(),
            preset: Some(preset),
        }
    }

    /// The registry's name for it: the entry's, or the preset's.
    pub fn name(&self) -> &'static str {
        self.preset.map_or(self.info.name, |preset| preset.name)
    }

    /// The entry it builds.
    pub fn info(&self) -> &'static PolicyInfo {
        self.info
    }

    /// The preset, if the name is one.
    pub fn preset(&self) -> Option<&'static Preset> {
        self.preset
    }

    /// The settings a user may still choose: the entry's, less those the
    /// preset fixes.
    pub fn settings(&self) -> Vec<&'static str> {
        self.info
            .settings
            .iter()
            .copied()
            .filter(|name| self.preset.and_then(|p| p.fixes(name)).is_none())
            .collect()
    }

    /// `settings` with the preset's fixed ([`Preset::apply`]).
    pub fn apply(&self, settings: Settings) -> Result<Settings, PresetConflict> {
        match self.preset {
            Some(preset) => preset.apply(settings),
            None => Ok(settings),
        }
    }

    /// The policy under `settings` (those it does not read are ignored),
    /// or the contradiction of a preset's setting.
    pub fn build(&self, settings: Settings) -> Result<Box<dyn Policy>, PresetConflict> {
        Ok(self.info.build(self.apply(settings)?))
    }

    /// Every combination of the values of the [settings](Self::settings)
    /// a user may still choose, the preset's fixed, the default first.
    ///
    /// ```
    /// use dtype_lattice::registry::resolve;
    /// assert_eq!(resolve("tensorflow").unwrap().configurations().len(), 4 * 2);
    /// assert_eq!(resolve("tensorflow-safe").unwrap().configurations().len(), 2);
    /// ```
    pub fn configurations(&self) -> Vec<Settings> {
        Settings::combinations(self.settings())
            .into_iter()
            .map(|settings| {
                self.apply(settings)
                    .expect("the free settings never contradict the preset")
            })
            .collect()
    }
}

/// A setting given a value that contradicts a preset's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetConflict {
    /// The preset.
    pub preset: &'static Preset,
    /// The setting it fixes.
    pub setting: &'static str,
    /// The value given.
    pub given: &'static str,
}

impl PartialEq for Preset {
    fn eq(&self, other: &Preset) -> bool {
        self.name == other.name
    }
}

impl Eq for Preset {}

impl fmt::Display for PresetConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            preset,
            setting,
            given,
        } = self;
        write!(
            f,
            "{} is {}, which {setting}={given} contradicts: drop that setting, or ask for ",
            preset.name,
            described(preset)
        )?;
        // The preset that is the entry with the value given, if one is.
        let other = super::PRESETS
            .iter()
            .find(|other| other.entry == preset.entry && other.settings == [(*setting, *given)]);
        match other {
            Some(other) => write!(f, "{} ({})", other.name, described(other)),
            None => write!(f, "{} with {setting}={given}", preset.entry),
        }
    }
}

/// `tensorflow with tensorflow_numpy_behavior=safe`.
fn described(preset: &Preset) -> String {
    let fixed: Vec<String> = preset
        .settings
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    format!("{} with {}", preset.entry, fixed.join(" and "))
}

impl core::error::Error for PresetConflict {}

/// Why a policy cannot be built by name: the name is unknown, or a
/// setting contradicts the preset it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyError {
    /// No policy or preset has the name.
    Unknown(UnknownPolicy),
    /// A setting contradicts the preset.
    Conflict(PresetConflict),
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::Unknown(err) => err.fmt(f),
            PolicyError::Conflict(err) => err.fmt(f),
        }
    }
}

impl core::error::Error for PolicyError {}

impl From<UnknownPolicy> for PolicyError {
    fn from(err: UnknownPolicy) -> PolicyError {
        PolicyError::Unknown(err)
    }
}

impl From<PresetConflict> for PolicyError {
    fn from(err: PresetConflict) -> PolicyError {
        PolicyError::Conflict(err)
    }
}
