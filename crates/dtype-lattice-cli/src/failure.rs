//! How a command fails, and how failures and warnings reach the terminal:
//! the exit codes, messages with their control characters escaped, and
//! tips for mistyped arguments.

use std::ffi::OsString;
use std::io::{self, Write};

use dtype_lattice::PromotionError;

use crate::args::Cli;

/// How a command failed.
pub enum Failure {
    /// Bad usage or input: exit 2.
    Usage(String),
    /// Promotion refused: exit 1.
    Promotion(PromotionError),
    /// The subject is not a (partial) lattice: exit 1, after the report
    /// or with this message.
    NotALattice(Option<String>),
    /// Reading the input or writing the output failed: exit 2, except for
    /// a closed pipe (`| head -1`), which is the reader's choice: exit 0.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Self {
        Failure::Io(err)
    }
}

/// `-1.5j` as `(-1.5j)`, the same Python value: clap takes negative
/// numbers as operands only when Rust reads them as floats, and would take
/// a negative complex literal for short flags. No flag starts with `-` and
/// a digit, so nothing else changes.
pub(crate) fn negative_complex_in_parentheses(arg: &OsString) -> OsString {
    let Some(text) = arg.to_str() else {
        return arg.clone();
    };
    let negative_number = text
        .strip_prefix('-')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'));
    if negative_number
        && text.ends_with(['j', 'J'])
        && dtype_lattice::Operand::python_number(text).is_ok()
    {
        return format!("({text})").into();
    }
    arg.clone()
}

/// Whether the environment allows colour on a terminal: `NO_COLOR` unset
/// or empty and `TERM` not `dumb`, as clap decides.
pub(crate) fn colour_allowed() -> bool {
    let no_colour = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
    let dumb = std::env::var_os("TERM").is_some_and(|term| term == "dumb");
    !no_colour && !dumb
}

/// `text` with every control character (C0, DEL, C1) written as Rust
/// escapes it (`\r`, `\0`, `\u{1b}`), other characters as they are; line
/// feeds and tabs are kept when `keep_lines` (clap's messages have several
/// lines).
pub(crate) fn escape_controls(text: &str, keep_lines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && !(keep_lines && matches!(c, '\n' | '\t')) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A tip for an argument clap refused and found no tip for: the closest
/// long flag of the subcommand at hand (the first argument that names one;
/// clap misses transpositions such as `--x46`), or, for a third type given
/// to `promote`, that `result-type` takes any number of operands.
pub(crate) fn tip(err: &clap::Error, args: &[OsString]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if err.kind() != ErrorKind::UnknownArgument || err.get(ContextKind::SuggestedArg).is_some() {
        return None;
    }
    let Some(ContextValue::String(given)) = err.get(ContextKind::InvalidArg) else {
        return None;
    };
    let command = <Cli as clap::CommandFactory>::command();
    let at_hand = args
        .iter()
        .skip(1)
        .find_map(|arg| command.find_subcommand(arg))
        .unwrap_or(&command);
    if !given.starts_with('-') {
        return (at_hand.get_name() == "promote").then(|| {
            "promote takes two types; result-type takes any number of operands: \
             dtype-lattice result-type A B C"
                .to_owned()
        });
    }
    let flags: Vec<&str> = at_hand
        .get_arguments()
        .filter_map(|a| a.get_long())
        .collect();
    let given = given.trim_start_matches('-');
    dtype_lattice::text::nearest(given, flags.into_iter())
        .map(|flag| format!("the nearest flag is '--{flag}'"))
}

/// Writes a framework's warning to standard error; the command goes on.
pub(crate) fn warn(message: &str) {
    let _ = writeln!(io::stderr(), "warning: {}", escape_controls(message, false));
}
