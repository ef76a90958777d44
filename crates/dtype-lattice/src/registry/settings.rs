//! The settings a user chooses: one table, [`SETTINGS`], that every
//! surface reads, so that a setting has one name and one set of values on
//! the command line (`--x64`, `--explicit-x64-dtypes allow`), in a batch
//! request (`"x64": true`), in the explorer's query (`x64=true`) and as a
//! Python keyword (`x64=True`). Front ends loop over the table; none names
//! a setting of its own.

use core::fmt;

use crate::frameworks::jax::{Config, ExplicitX64, Promotion};
use crate::frameworks::keras::{Backend, Floatx};
use crate::frameworks::tensorflow::Mode;
use crate::frameworks::tinygrad::{DefaultFloat, DefaultInt};
use crate::prelude::*;
use crate::text::quote;

/// One setting, as every surface spells it.
///
/// ```
/// use dtype_lattice::registry::{Settings, SETTINGS};
///
/// let names: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
/// assert_eq!(&names[..3], ["x64", "strict", "explicit_x64_dtypes"]);
/// assert_eq!(SETTINGS[2].flag(), "--explicit-x64-dtypes");
/// assert_eq!(SETTINGS[2].get(&Settings::default()), "warn");
/// ```
#[derive(Debug)]
pub struct Setting {
    /// Its name on every surface: the batch field, the query parameter and
    /// the Python keyword; the command-line flag is the same with `-` for
    /// `_` ([`flag`](Setting::flag)).
    pub name: &'static str,
    /// The values it takes, its default first. A setting whose values are
    /// `false` and `true` is a flag: a bare `--x64` on the command line, a
    /// JSON or Python bool elsewhere.
    pub values: &'static [&'static str],
    /// The framework's own option it stands for, as that framework spells
    /// it (`jax_enable_x64`).
    pub option: &'static str,
    /// What each value does, one line, for help texts and the explorer.
    pub help: &'static str,
    /// Other names a batch request may use for it, kept so that requests
    /// written before the names were one keep working, with the values
    /// each takes in the same order as [`values`](Setting::values)
    /// (`"promotion": "standard" | "strict"`).
    pub batch_aliases: &'static [(&'static str, &'static [&'static str])],
    read: fn(&Settings) -> usize,
    write: fn(&mut Settings, usize),
}

impl Setting {
    /// Whether the setting is a flag: its values are `false` and `true`.
    pub fn is_flag(&self) -> bool {
        self.values == FLAG
    }

    /// The command-line flag: `--` and the name with `-` for `_`.
    pub fn flag(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }

    /// The value `settings` has, as the table spells it.
    pub fn get(&self, settings: &Settings) -> &'static str {
        self.values[(self.read)(settings)]
    }

    /// Sets this setting in `settings` to the value spelt `value`; a flag
    /// also takes `1`/`0` and `on`/`off`, as query strings write them.
    pub fn set(&self, settings: &mut Settings, value: &str) -> Result<(), SettingError> {
        let index = self.values.iter().position(|&v| v == value).or_else(|| {
            let spelt = match value {
                "1" | "on" => "true",
                "0" | "off" => "false",
                _ => return None,
            };
            self.is_flag()
                .then(|| self.values.iter().position(|&v| v == spelt))
                .flatten()
        });
        match index {
            Some(index) => {
                (self.write)(settings, index);
                Ok(())
            }
            None => Err(SettingError::Value {
                setting: self.name,
                value: value.to_owned(),
                values: self.values,
            }),
        }
    }
}

const FLAG: &[&str] = &["false", "true"];

fn flag(on: bool) -> usize {
    usize::from(on)
}

/// Every setting, in the order tools show them. Adding one is one entry
/// here, the field it sets in [`Settings`], and the frameworks' entries in
/// the [registry](super::POLICIES) that read it.
pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "x64",
        values: FLAG,
        option: "jax_enable_x64",
        help: "64-bit types: int64, float64 and complex128 are kept, Python scalars default to 64 bits",
        batch_aliases: &[],
        read: |s| flag(s.x64),
        write: |s, v| s.x64 = v == 1,
    },
    Setting {
        name: "strict",
        values: FLAG,
        option: "jax_numpy_dtype_promotion=strict",
        help: "strict promotion: only Python scalars (weak types) promote implicitly",
        batch_aliases: &[("promotion", &["standard", "strict"])],
        read: |s| flag(s.strict),
        write: |s, v| s.strict = v == 1,
    },
    Setting {
        name: "explicit_x64_dtypes",
        values: &["warn", "error", "allow"],
        option: "jax_explicit_x64_dtypes",
        help: "a 64-bit dtype asked for by name while x64 is off: truncated with a warning, \
               refused, or kept",
        batch_aliases: &[],
        read: |s| s.explicit_x64 as usize,
        write: |s, v| s.explicit_x64 = ExplicitX64::ALL[v],
    },
    Setting {
        name: "keras_backend",
        values: &["tensorflow", "jax", "numpy"],
        option: "KERAS_BACKEND",
        help: "Keras's backend: tensorflow keeps int64 and float64 results, jax and numpy cut \
               them to 32 bits; add converts its inputs as the backend does",
        batch_aliases: &[],
        read: |s| s.keras_backend as usize,
        write: |s, v| s.keras_backend = Backend::ALL[v],
    },
    Setting {
        name: "floatx",
        values: &["float32", "float16", "bfloat16", "float64"],
        option: "keras.config.floatx()",
        help: "Keras's default float: the precision of weak (Python int and float) results, \
               and the dtype of None",
        batch_aliases: &[],
        read: |s| s.floatx as usize,
        write: |s, v| s.floatx = Floatx::ALL[v],
    },
    Setting {
        name: "tinygrad_default_float",
        values: &["float32", "float16", "bfloat16", "float64"],
        option: "DEFAULT_FLOAT",
        help: "tinygrad's default float: the dtype a weak float result (a Python float's) is \
               stored as, and the one integers divide and take roots in",
        batch_aliases: &[],
        read: |s| s.tinygrad_default_float as usize,
        write: |s, v| s.tinygrad_default_float = DefaultFloat::ALL[v],
    },
    Setting {
        name: "tinygrad_default_int",
        values: &["int32", "int64"],
        option: "DEFAULT_INT",
        help: "tinygrad's default int: the dtype a weak int result (a Python int's) is stored as",
        batch_aliases: &[],
        read: |s| s.tinygrad_default_int as usize,
        write: |s, v| s.tinygrad_default_int = DefaultInt::ALL[v],
    },
    Setting {
        name: "tensorflow_numpy_behavior",
        values: &Mode::NAMES,
        option: "tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=...)",
        help: "TensorFlow's NumPy behaviour: off (not enabled: tf's functions promote nothing, \
               tf.experimental.numpy is not modelled), or enabled in mode legacy (its default: \
               tf's functions promote nothing, the operators and tf.experimental.numpy by \
               NumPy's result_type), safe (promotions that lose no values) or all (every \
               promotion of the table)",
        batch_aliases: &[],
        read: |s| s.tensorflow_numpy_behavior as usize,
        write: |s, v| s.tensorflow_numpy_behavior = Mode::ALL[v],
    },
    Setting {
        name: "tensorflow_prefer_float32",
        values: FLAG,
        option: "tnp.experimental_enable_numpy_behavior(prefer_float32=True)",
        help: "with TensorFlow's NumPy behaviour on: a Python float or complex counts as \
               float32 or complex64 where NumPy's result_type decides (tf.experimental.numpy, \
               and the tensor operators in mode legacy); refused with NumPy behaviour off",
        batch_aliases: &[],
        read: |s| flag(s.tensorflow_prefer_float32),
        write: |s, v| s.tensorflow_prefer_float32 = v == 1,
    },
];

/// The setting called `name`, or an error naming the known ones.
///
/// ```
/// use dtype_lattice::registry::setting;
/// assert_eq!(setting("strict").unwrap().option, "jax_numpy_dtype_promotion=strict");
/// assert_eq!(
///     setting("x46").unwrap_err().to_string(),
///     "unknown setting 'x46': did you mean 'x64'? (known: x64, strict, explicit_x64_dtypes, \
///      keras_backend, floatx, tinygrad_default_float, tinygrad_default_int, \
///      tensorflow_numpy_behavior, tensorflow_prefer_float32)"
/// );
/// ```
pub fn setting(name: &str) -> Result<&'static Setting, SettingError> {
    SETTINGS
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| SettingError::Unknown(name.to_owned()))
}

/// The values of the [settings](SETTINGS), read by the policies they
/// concern and ignored by the rest (the [registry](super::POLICIES) says
/// which read which). The default is every setting's first value, which
/// is the framework's own default.
///
/// ```
/// use dtype_lattice::frameworks::jax::ExplicitX64;
/// use dtype_lattice::registry::{by_name, Settings};
///
/// let mut allow = Settings::default();
/// allow.set("explicit_x64_dtypes", "allow").unwrap();
/// assert_eq!(allow, Settings { explicit_x64: ExplicitX64::Allow, ..Settings::default() });
/// assert_eq!(by_name("jax", allow).unwrap().name(), "jax (x64 off, standard, explicit-x64 allow)");
/// assert_eq!(allow.get("x64"), Some("false"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Settings {
    /// `x64`: JAX's `jax_enable_x64`.
    pub x64: bool,
    /// `strict`: JAX's `jax_numpy_dtype_promotion=strict`.
    pub strict: bool,
    /// `explicit_x64_dtypes`: JAX's `jax_explicit_x64_dtypes`.
    pub explicit_x64: ExplicitX64,
    /// `keras_backend`: Keras's `KERAS_BACKEND`.
    pub keras_backend: Backend,
    /// `floatx`: Keras's `keras.config.floatx()`.
    pub floatx: Floatx,
    /// `tinygrad_default_float`: tinygrad's `DEFAULT_FLOAT`.
    pub tinygrad_default_float: DefaultFloat,
    /// `tinygrad_default_int`: tinygrad's `DEFAULT_INT`.
    pub tinygrad_default_int: DefaultInt,
    /// `tensorflow_numpy_behavior`: TensorFlow's NumPy behaviour, off or
    /// its `dtype_conversion_mode`.
    pub tensorflow_numpy_behavior: Mode,
    /// `tensorflow_prefer_float32`: the `prefer_float32` of TensorFlow's
    /// NumPy behaviour.
    pub tensorflow_prefer_float32: bool,
}

impl Settings {
    /// The value of the setting called `name`, as the table spells it.
    pub fn get(&self, name: &str) -> Option<&'static str> {
        setting(name).ok().map(|s| s.get(self))
    }

    /// Sets the setting called `name` to the value spelt `value`.
    ///
    /// ```
    /// use dtype_lattice::registry::Settings;
    ///
    /// let mut settings = Settings::default();
    /// let err = settings.set("explicit_x64_dtypes", "alow").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "explicit_x64_dtypes='alow' is not one of its values: did you mean 'allow'? \
    ///      (known: warn, error, allow)"
    /// );
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        setting(name)?.set(self, value)
    }

    /// Every combination of the settings' values, the default first.
    ///
    /// ```
    /// use dtype_lattice::registry::Settings;
    /// assert_eq!(Settings::all().len(), 12 * 3 * 4 * 4 * 2 * 4 * 2);
    /// assert_eq!(Settings::all()[0], Settings::default());
    /// ```
    pub fn all() -> Vec<Settings> {
        Settings::combinations(SETTINGS.iter().map(|s| s.name))
    }

    /// Every combination of the values of the settings called `names`,
    /// the others at their defaults, the default first: the configurations
    /// a policy that reads only those tells apart. A name the table does
    /// not have is skipped.
    ///
    /// ```
    /// use dtype_lattice::registry::Settings;
    /// let jax = Settings::combinations(["x64", "strict", "explicit_x64_dtypes"]);
    /// assert_eq!(jax.len(), 2 * 2 * 3);
    /// assert_eq!(jax[0], Settings::default());
    /// assert_eq!(Settings::combinations([]), [Settings::default()]);
    /// ```
    pub fn combinations<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<Settings> {
        let mut all = vec![Settings::default()];
        for setting in names.into_iter().filter_map(|name| setting(name).ok()) {
            all = all
                .into_iter()
                .flat_map(|base| {
                    (0..setting.values.len()).map(move |index| {
                        let mut settings = base;
                        (setting.write)(&mut settings, index);
                        settings
                    })
                })
                .collect();
        }
        all
    }

    /// The settings as `name-value` pairs joined by `_`
    /// (`x64-false_strict-true_explicit_x64_dtypes-warn`): a file name for
    /// answers that depend on them, the same in every front end.
    pub fn key(&self) -> String {
        SETTINGS
            .iter()
            .map(|s| format!("{}-{}", s.name, s.get(self)))
            .collect::<Vec<_>>()
            .join("_")
    }

    /// [`key`](Settings::key) of the settings called `names` only, in the
    /// table's order: the file name of answers that depend on those alone
    /// (`x64-true` for `jax-lax`; empty for none). A name the table does
    /// not have is skipped.
    ///
    /// ```
    /// use dtype_lattice::registry::Settings;
    /// let x64 = Settings { x64: true, strict: true, ..Settings::default() };
    /// assert_eq!(x64.key_of(&["x64"]), "x64-true");
    /// assert_eq!(x64.key_of(&["strict", "x64"]), "x64-true_strict-true");
    /// assert_eq!(x64.key_of(&[]), "");
    /// ```
    pub fn key_of(&self, names: &[&str]) -> String {
        SETTINGS
            .iter()
            .filter(|s| names.contains(&s.name))
            .map(|s| format!("{}-{}", s.name, s.get(self)))
            .collect::<Vec<_>>()
            .join("_")
    }

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

/// A setting name or value that the [table](SETTINGS) does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// No setting has this name.
    Unknown(String),
    /// The setting has no such value.
    Value {
        /// The setting's name.
        setting: &'static str,
        /// The value given.
        value: String,
        /// The values it takes.
        values: &'static [&'static str],
    },
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (given, known): (&str, Vec<&str>) = match self {
            SettingError::Unknown(name) => {
                write!(f, "unknown setting {}", quote(name, '\''))?;
                (name, SETTINGS.iter().map(|s| s.name).collect())
            }
            SettingError::Value {
                setting,
                value,
                values,
            } => {
                write!(
                    f,
                    "{setting}={} is not one of its values",
                    quote(value, '\'')
                )?;
                (value, values.to_vec())
            }
        };
        if let Some(near) = crate::text::nearest(given, known.iter().copied()) {
            write!(f, ": did you mean '{near}'?")?;
        }
        write!(f, " (known: {})", known.join(", "))
    }
}

impl core::error::Error for SettingError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_reads_back_what_it_sets() {
        for setting in SETTINGS {
            assert!(setting.values.len() <= 8, "{}", setting.name);
            for value in setting.values {
                let mut settings = Settings::default();
                setting.set(&mut settings, value).unwrap();
                assert_eq!(setting.get(&settings), *value);
            }
            assert_eq!(setting.get(&Settings::default()), setting.values[0]);
            for (alias, values) in setting.batch_aliases {
                assert_eq!(values.len(), setting.values.len(), "{alias}");
            }
        }
    }

    #[test]
    fn every_combination_is_distinct() {
        let all = Settings::all();
        let keys: alloc::collections::BTreeSet<String> = all.iter().map(Settings::key).collect();
        assert_eq!(keys.len(), all.len());
    }

    #[test]
    fn a_flag_takes_query_spellings() {
        let mut settings = Settings::default();
        settings.set("strict", "on").unwrap();
        assert!(settings.strict);
        settings.set("strict", "0").unwrap();
        assert!(!settings.strict);
        let err = settings.set("strict", "yes").unwrap_err();
        assert_eq!(
            err.to_string(),
            "strict='yes' is not one of its values (known: false, true)"
        );
        let err = settings.set("explicit_x64_dtypes", "on").unwrap_err();
        assert!(err.to_string().starts_with("explicit_x64_dtypes='on'"));
    }
}
