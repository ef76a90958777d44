//! What the design commands (`check`, `audit`, `explain`, `graph`) look at:
//! a lattice file, or a built-in policy.
//!
//! A lattice file is a positional FILE argument (`-` reads the file from
//! standard input, named `<stdin>` in errors); a policy is `--policy NAME`
//! with JAX's `--x64`, `--strict` and `--explicit-x64-dtypes`. With
//! neither a file nor a policy, the subject is JAX's default lattice. A
//! policy defined by a lattice is that lattice's graph (with its weak types
//! stored as the policy stores them); one defined by rules (NumPy's) has no
//! graph, only its `promote_types`.

use std::path::{Path, PathBuf};

use clap::Args;
use dtype_lattice::design::lattice_file;
use dtype_lattice::design::{self, Definition, Subject};

use crate::args::{policy_help, SettingFlags};
use crate::failure::Failure;

/// One subject: a lattice file or a built-in policy.
#[derive(Debug, Args, Clone)]
pub struct SubjectArgs {
    /// A lattice file (TOML; see examples/lattices/), or - to read it from
    /// standard input [default: --policy jax].
    #[arg(value_name = "FILE", conflicts_with = "policy")]
    file: Option<PathBuf>,
    #[arg(long, value_name = "NAME", help = format!("A built-in policy instead of a file. {}", policy_help()))]
    policy: Option<String>,
    #[command(flatten)]
    settings: SettingFlags,
}

impl SubjectArgs {
    /// Loads the subject; a bad file or unknown policy is a usage error.
    pub fn load(&self) -> Result<Subject, Failure> {
        match (&self.file, &self.policy) {
            (Some(path), _) => {
                reject_settings(self.settings)?;
                from_file(path)
            }
            (None, policy) => from_policy(policy.as_deref().unwrap_or("jax"), self.settings),
        }
    }
}

/// Several subjects, for side-by-side reports: the `--policy` ones first,
/// then the files, each in the order given.
#[derive(Debug, Args, Clone)]
pub struct SubjectsArgs {
    /// Lattice files (TOML; see examples/lattices/); - reads one from
    /// standard input [default: --policy jax].
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    #[arg(long = "policy", value_name = "NAME", help = format!("A built-in policy; repeat for several. {}", policy_help()))]
    policies: Vec<String>,
    #[command(flatten)]
    settings: SettingFlags,
}

impl SubjectsArgs {
    /// Loads every subject, stopping at the first bad one.
    pub fn load(&self) -> Result<Vec<Subject>, Failure> {
        if self.files.iter().filter(|path| is_stdin(path)).count() > 1 {
            return Err(Failure::Usage(
                "- (standard input) may be given once among the files: standard input can be \
                 read only once; save the other lattices to files"
                    .into(),
            ));
        }
        if self.policies.is_empty() && !self.files.is_empty() {
            reject_settings(self.settings)?;
        }
        let policies: Vec<&str> = if self.policies.is_empty() && self.files.is_empty() {
            vec!["jax"]
        } else {
            self.policies.iter().map(String::as_str).collect()
        };
        policies
            .into_iter()
            .map(|name| from_policy(name, self.settings))
            .chain(self.files.iter().map(from_file))
            .collect()
    }
}

/// `--x64`, `--strict` and `--explicit-x64-dtypes` choose a built-in
/// policy's settings; a file has none, so asking for them with only files
/// is a mistake worth reporting.
pub(crate) fn reject_settings(settings: SettingFlags) -> Result<(), Failure> {
    if settings.any() {
        let mut flags: Vec<String> = dtype_lattice::registry::SETTINGS
            .iter()
            .map(|s| s.flag())
            .collect();
        let last = flags.pop().unwrap_or_default();
        return Err(Failure::Usage(format!(
            "{} and {last} set a built-in policy's options; a lattice file's edges are its own \
             (add --policy jax to compare with JAX)",
            flags.join(", ")
        )));
    }
    Ok(())
}

/// Output formats of the design commands' reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For reading.
    Text,
    /// One JSON object per subject, one per line.
    Json,
}

/// Items joined by ", " in lines of at most `width` characters (longer items
/// get a line of their own), each line indented.
pub fn wrap(items: &[String], indent: usize, width: usize) -> String {
    let mut text = String::new();
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && indent + line.len() + item.len() + 2 > width {
            text += &format!("{:indent$}{line},\n", "");
            line.clear();
        }
        if !line.is_empty() {
            line += ", ";
        }
        line += item;
    }
    if !line.is_empty() {
        text += &format!("{:indent$}{line}\n", "");
    }
    text
}

/// The name errors give standard input, read for the FILE `-`.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether a FILE argument means standard input (`-`).
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Loads the lattice file at `path` (`-`: standard input).
pub(crate) fn from_file(path: &PathBuf) -> Result<Subject, Failure> {
    let definition = if is_stdin(path) {
        lattice_file::read_from(std::io::stdin().lock()).map_err(|err| err.with_path(STDIN_NAME))
    } else {
        lattice_file::read(path)
    }
    .map_err(|err| Failure::Usage(err.to_string()))?;
    Ok(Subject::of_definition(definition))
}

fn from_policy(name: &str, settings: SettingFlags) -> Result<Subject, Failure> {
    Ok(Subject::of_policy(settings.policy(name)?))
}

/// The subject's graph, or a usage error saying the policy has none and
/// which command shows why.
pub fn definition(subject: &Subject) -> Result<&Definition, Failure> {
    subject.definition().map_err(|err| match &err {
        design::Error::NoGraph(no_graph) => Failure::Usage(format!(
            "{err}; `dtype-lattice check --policy {}` shows why",
            no_graph.policy()
        )),
        _ => Failure::Usage(err.to_string()),
    })
}
