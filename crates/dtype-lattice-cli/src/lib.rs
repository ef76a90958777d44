//! The `dtype-lattice` command-line tool: argument parsing and rendering
//! over the `dtype-lattice` library, which holds every promotion rule.
//!
//! Exit codes: 0 success, 1 a promotion error (JAX's message on stderr) or
//! a graph that is not a lattice, 2 bad usage or input.
//!
//! # Files
//!
//! `lib.rs` (the entry and exit codes), `args.rs` (every subcommand and
//! flag; the settings' flags made from the registry's table), `failure.rs`
//! (failures, escaping, tips), `run.rs` (what each command does),
//! `subject.rs` (what the design commands look at), one module per command
//! (`table.rs`, `diff.rs`, `explain.rs`, `check.rs`, `audit.rs`, `graph.rs`,
//! `compatibility.rs`, `codegen.rs`), and the explorer: `serve/` (the server) and
//! `site.rs` (the static export).

mod args;
mod audit;
mod check;
mod codegen;
mod compatibility;
mod diff;
mod explain;
mod failure;
mod graph;
mod run;
mod serve;
mod site;
mod subject;
mod table;

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

pub use args::Cli;
use failure::{colour_allowed, escape_controls, negative_complex_in_parentheses, tip, Failure};

/// Runs the tool on these arguments (the first is the program name),
/// writing to standard output, and returns its exit code.
pub fn main(args: impl IntoIterator<Item = impl Into<OsString> + Clone>) -> ExitCode {
    use std::io::IsTerminal;
    let stdout = io::stdout();
    let colour = stdout.is_terminal() && colour_allowed();
    main_to(args, &mut stdout.lock(), colour)
}

/// Runs the tool on these arguments, writing its output (help and version
/// included) to `out`, ANSI-coloured help when `colour`; errors go to
/// standard error. Every failed write is an error (exit 2, with a message
/// saying so) except a closed pipe, which ends the output quietly (exit
/// 0). Messages never carry raw control characters: they are written as
/// escapes (`\u{1b}`), so a hostile label cannot drive the terminal.
pub fn main_to(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    out: &mut dyn Write,
    colour: bool,
) -> ExitCode {
    /// The output, remembering whether a write failed (to tell a failed
    /// write from a failed read of standard input).
    struct Output<'a> {
        inner: &'a mut dyn Write,
        failed: bool,
    }
    impl Write for Output<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let written = self.inner.write(buf);
            self.failed |= written.is_err();
            written
        }
        fn flush(&mut self) -> io::Result<()> {
            let flushed = self.inner.flush();
            self.failed |= flushed.is_err();
            flushed
        }
    }
    /// Writes a message to standard error; if that fails there is no one
    /// left to tell.
    fn report(message: &str) {
        let _ = writeln!(io::stderr(), "{message}");
    }
    use std::io::IsTerminal;
    let mut out = Output {
        inner: out,
        failed: false,
    };
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(args.iter().map(negative_complex_in_parentheses)) {
        Ok(cli) => cli,
        Err(err) if err.use_stderr() => {
            let rendered = err.render();
            // Clap's colours are escape sequences in its text, as are any
            // in the arguments it quotes: colour only arguments free of
            // control characters. Plain, clap drops escape sequences; the
            // other control characters are escaped here.
            let hostile = args
                .iter()
                .any(|arg| arg.to_string_lossy().chars().any(char::is_control));
            if !hostile && io::stderr().is_terminal() && colour_allowed() {
                let _ = write!(io::stderr(), "{}", rendered.ansi());
            } else {
                let _ = write!(
                    io::stderr(),
                    "{}",
                    escape_controls(&rendered.to_string(), true)
                );
            }
            if let Some(tip) = tip(&err, &args) {
                report(&escape_controls(&format!("\n  tip: {tip}"), true));
            }
            return ExitCode::from(2);
        }
        // --help and --version: the text is the tool's own.
        Err(err) => {
            let rendered = err.render();
            let text = if colour {
                rendered.ansi().to_string()
            } else {
                rendered.to_string()
            };
            return match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(err) => {
                    report(&format!("error: cannot write the output: {err}"));
                    ExitCode::from(2)
                }
            };
        }
    };
    let result = run::run(cli, &mut out);
    let escaped = |message: &str| escape_controls(message, false);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            report(&format!("error: {}", escaped(&message)));
            ExitCode::from(2)
        }
        Err(Failure::Promotion(err)) => {
            report(&escaped(&format!("{}: {err}", err.python_type())));
            ExitCode::from(1)
        }
        Err(Failure::NotALattice(message)) => {
            if let Some(message) = message {
                report(&format!("error: {}", escaped(&message)));
            }
            ExitCode::from(1)
        }
        // A closed pipe (`| head -1`) is the reader's choice, not an error.
        Err(Failure::Io(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(err)) => {
            let what = if out.failed {
                "cannot write the output"
            } else {
                "cannot read the input"
            };
            report(&format!("error: {what}: {}", escaped(&err.to_string())));
            ExitCode::from(2)
        }
    }
}
