//! The `dtype-lattice` command-line tool: argument parsing and rendering
//! over the `dtype-lattice` library, which holds every promotion rule.
//!
//! Exit codes: 0 success, 1 a promotion error (JAX's message on stderr) or
//! a graph that is not a lattice, 2 bad usage or input.

pub mod audit;
pub mod check;
pub mod diff;
pub mod explain;
pub mod graph;
pub mod serve;
pub mod site;
pub mod subject;
pub mod table;

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use dtype_lattice::design::graph::Drawing;
use dtype_lattice::design::table::{self as promotion_table, Table};
use dtype_lattice::design::{explain as why, Definition};
use dtype_lattice::engine::{GraphError, Poset};
use dtype_lattice::frameworks::jax::ExplicitX64;
use dtype_lattice::registry::{self, Settings};
use dtype_lattice::Policy;
use dtype_lattice::{Operand, PromotionError, TypeSpec};

use crate::table::{Format, Labels};

/// Lattice-based dtype promotion, as JAX does it.
#[derive(Debug, Parser)]
#[command(name = "dtype-lattice", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which promotion rules to use, shared by every command.
#[derive(Debug, Args, Clone)]
pub struct PolicyArgs {
    /// The promotion rules: jax, numpy, numpy-legacy, array-api, torch,
    /// tensorflow, tensorflow-safe, tensorflow-all, jax-lax (aliases: np,
    /// numpy2, pytorch, tf, array_api).
    #[arg(long, default_value = "jax", value_name = "NAME")]
    policy: String,
    #[command(flatten)]
    jax: JaxFlags,
}

impl PolicyArgs {
    /// The chosen policy, or a usage error naming the known ones.
    fn policy(&self) -> Result<Box<dyn Policy>, Failure> {
        self.jax.policy(&self.policy)
    }
}

/// JAX's settings.
#[derive(Debug, Args, Clone, Copy)]
struct JaxFlags {
    /// Enable 64-bit types (`jax_enable_x64`); off by default, as in JAX.
    #[arg(long)]
    x64: bool,
    /// Strict promotion (`jax_numpy_dtype_promotion=strict`).
    #[arg(long)]
    strict: bool,
    /// What a 64-bit dtype requested explicitly becomes while x64 is off
    /// (`jax_explicit_x64_dtypes`): a dtype given by name (int64, float64,
    /// ...), or the join of 64-bit arrays. JAX's warnings go to stderr.
    #[arg(long, value_enum, value_name = "MODE", default_value_t = ExplicitX64Mode::Warn)]
    explicit_x64_dtypes: ExplicitX64Mode,
}

/// `--explicit-x64-dtypes`' values: JAX's modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ExplicitX64Mode {
    /// Truncate it to 32 bits, with JAX's warning (JAX's default).
    Warn,
    /// Refuse it with JAX's ValueError.
    Error,
    /// Keep it.
    Allow,
}

impl From<ExplicitX64Mode> for ExplicitX64 {
    fn from(mode: ExplicitX64Mode) -> ExplicitX64 {
        match mode {
            ExplicitX64Mode::Warn => ExplicitX64::Warn,
            ExplicitX64Mode::Error => ExplicitX64::Error,
            ExplicitX64Mode::Allow => ExplicitX64::Allow,
        }
    }
}

impl JaxFlags {
    fn settings(self) -> Settings {
        Settings {
            x64: self.x64,
            strict: self.strict,
            explicit_x64: self.explicit_x64_dtypes.into(),
        }
    }

    /// Whether any flag differs from JAX's default.
    fn any(self) -> bool {
        self.settings() != Settings::default()
    }

    /// The policy called `name` under these settings, or a usage error
    /// naming the known ones.
    fn policy(self, name: &str) -> Result<Box<dyn Policy>, Failure> {
        registry::by_name(name, self.settings()).map_err(|err| Failure::Usage(err.to_string()))
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the binary promotion table JAX's documentation shows.
    ///
    /// Cells are `_lattice_result_type(a, b)`: a weak result is written as
    /// its Python type (i*, f*, c*), a failed promotion as `-`.
    Table {
        #[command(flatten)]
        rules: PolicyArgs,
        /// All 35 lattice nodes instead of the documentation's 18 types.
        #[arg(long)]
        all: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Label style [default: short for the documentation's types, names with --all].
        #[arg(long, value_enum)]
        labels: Option<Labels>,
        /// Mark the cells where this policy differs (by promote_types, as in
        /// JAX's docs): html class="d", markdown bold, text in square
        /// brackets, json "differs".
        #[arg(long, value_name = "POLICY")]
        diff: Option<String>,
        /// With --format html: the table alone, to embed in a page, instead
        /// of a standalone page with its style sheet.
        #[arg(long)]
        fragment: bool,
    },
    /// The cells where two policies differ, as a list and a count.
    ///
    /// A cell differs when the two promote_types answers differ (every
    /// failure counts as one answer), or when one of its dtypes is native to
    /// one policy but not the other (NumPy has bfloat16 only through
    /// ml_dtypes): the comparison of JAX's documentation table with NumPy.
    Diff {
        /// The first policy.
        left: String,
        /// The second policy.
        right: String,
        #[command(flatten)]
        jax: JaxFlags,
        /// All 32 dtypes and Python's int, float, complex instead of the
        /// documentation's 18 types.
        #[arg(long)]
        all: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = diff::Format::Text)]
        format: diff::Format,
        /// Label style [default: short for the documentation's types, names with --all].
        #[arg(long, value_enum)]
        labels: Option<Labels>,
    },
    /// Promote two types: `jnp.promote_types(A, B)`.
    ///
    /// A and B are dtype names (int8, bfloat16, f4, ...) or Python's
    /// int, float, complex (also written i*, f*, c*).
    Promote {
        #[command(flatten)]
        rules: PolicyArgs,
        /// First type.
        a: String,
        /// Second type.
        b: String,
    },
    /// The result type of an operation on these operands.
    ///
    /// Operands: a dtype name (a dtype specifier); int, float, complex
    /// (Python scalar types; i*, f*, c*, py:int, py:bool ... too); weak:DTYPE (a
    /// weakly-typed array); array:DTYPE (a strongly-typed array); 0d:DTYPE (a
    /// zero-dimensional array); a number literal, True,
    /// False or None (Python values). Prints the dtype, with "(weak)" when
    /// the result is weakly typed.
    #[command(name = "result-type")]
    ResultType {
        #[command(flatten)]
        rules: PolicyArgs,
        /// Print JAX's `lattice_result_type` (weak results keep the lattice's
        /// dtype); JAX only.
        #[arg(long)]
        lattice: bool,
        /// The operands.
        #[arg(required = true, allow_negative_numbers = true)]
        operands: Vec<String>,
    },
    /// Answer JSON Lines requests from stdin, one answer line per request.
    ///
    /// Request: {"fn": F, "args": [...], "x64": false, "promotion":
    /// "standard", "explicit_x64_dtypes": "warn", "policy": "jax"}; only
    /// "fn" is required, and --x64, --strict, --explicit-x64-dtypes and
    /// --policy set the defaults for requests that do not say.
    /// Every policy answers promote_types and result_type, and add and
    /// can_cast where it models them (NumPy, TensorFlow, jax.lax); JAX also
    /// answers lattice_result_type, asarray, canonicalize_dtype,
    /// safe_to_cast, and the dtype facts isdtype, issubdtype, finfo, iinfo,
    /// itemsize_bits and dtype. Answer: {"ok": V} or {"error": {"type": T,
    /// "message": M}}, with "warnings": [TEXT, ...] when JAX warned. Blank
    /// lines get no answer. The README's batch section lists the argument
    /// forms.
    Batch {
        #[command(flatten)]
        jax: JaxFlags,
        /// The policy for requests without "policy" (any name --policy
        /// takes elsewhere).
        #[arg(long, default_value = "jax", value_name = "NAME")]
        policy: String,
    },
    /// Is it a lattice? Cycles, ambiguous pairs, pairs with no upper bound,
    /// and the join's laws checked on every triple.
    ///
    /// The subject is a lattice file (TOML, see examples/lattices/) or a
    /// built-in policy. Exit 0 for a (partial) lattice, 1 for anything else,
    /// 2 for a bad file.
    Check {
        #[command(flatten)]
        subject: subject::SubjectArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = subject::Format::Text)]
        format: subject::Format,
        /// How many ambiguous pairs and pairs with no upper bound to list
        /// (the counts are always exact).
        #[arg(long, value_name = "N", default_value_t = dtype_lattice::design::check::EXAMPLES)]
        max_examples: usize,
    },
    /// The design notebook's criteria on every pair of dtypes: dropped
    /// components, overflow, precision loss, results wider than the inputs.
    ///
    /// Give several lattice files and --policy options to compare them side
    /// by side (policies first).
    Audit {
        #[command(flatten)]
        subjects: subject::SubjectsArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = subject::Format::Text)]
        format: subject::Format,
    },
    /// Why A and B promote as they do: their upper bounds, the common ones,
    /// the least, and a shortest path from each to it.
    ///
    /// A and B are node labels, dtype names or aliases (mapped to their
    /// node), or int, float, complex (the nodes i*, f*, c*). Exit 1 when the
    /// pair has no join (the policy's error on stderr).
    Explain {
        /// First type.
        a: String,
        /// Second type.
        b: String,
        #[command(flatten)]
        subject: subject::SubjectArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = explain::Format::Text)]
        format: explain::Format,
    },
    /// Draw the Hasse diagram (the graph without implied edges).
    ///
    /// SVG is laid out by this tool (no Graphviz needed); DOT is for
    /// Graphviz. Kinds are coloured, weak types dashed.
    Graph {
        #[command(flatten)]
        subject: subject::SubjectArgs,
        /// Output format [default: from --output's extension (.svg, .dot,
        /// .gv), else svg].
        #[arg(long, value_enum)]
        format: Option<graph::Format>,
        /// Write the drawing to this file instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Mark a pair, their join and the shortest paths to it: `A,B`.
        #[arg(long, value_name = "A,B")]
        highlight: Option<String>,
    },
    /// Serve the explorer: the promotion table of any policy, explanations
    /// and drawings, a result_type playground and a lattice editor.
    ///
    /// Prints the address once listening and serves until Ctrl-C. The page
    /// and its API (under /api, see docs/cli.md) answer with this tool's
    /// library; everything served is compiled in.
    Serve {
        /// The address to listen on. Anything but loopback lets other
        /// machines reach the explorer (a warning says so).
        #[arg(long, default_value = "127.0.0.1", value_name = "ADDRESS")]
        host: String,
        /// The port; 0 picks a free one (the address printed says which).
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// Open the page in a browser once listening.
        #[arg(long)]
        open: bool,
    },
    /// Write the explorer as static files into DIR, every answer of the
    /// built-in policies precomputed, for hosting beside documentation.
    ///
    /// The playground and the lattice editor need `serve`.
    Site {
        /// The folder to write (created if needed).
        dir: std::path::PathBuf,
    },
    /// Print a shell completion script.
    ///
    /// Generated from this tool's arguments, e.g.
    /// `dtype-lattice completions bash > /etc/bash_completion.d/dtype-lattice`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    ///
    /// Generated from this tool's arguments, e.g.
    /// `dtype-lattice man > dtype-lattice.1; man ./dtype-lattice.1`.
    Man,
}

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
    let result = run(cli, &mut out);
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

/// `-1.5j` as `(-1.5j)`, the same Python value: clap takes negative
/// numbers as operands only when Rust reads them as floats, and would take
/// a negative complex literal for short flags. No flag starts with `-` and
/// a digit, so nothing else changes.
fn negative_complex_in_parentheses(arg: &OsString) -> OsString {
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
fn colour_allowed() -> bool {
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
fn tip(err: &clap::Error, args: &[OsString]) -> Option<String> {
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
    dtype_lattice::types::nearest(given, flags.into_iter())
        .map(|flag| format!("the nearest flag is '--{flag}'"))
}

fn run(cli: Cli, out: &mut dyn Write) -> Result<(), Failure> {
    match cli.command {
        Command::Serve { host, port, open } => {
            serve::run(&serve::Options { host, port, open }, out)?;
        }
        Command::Site { dir } => {
            let written = site::write(&dir)?;
            writeln!(
                out,
                "wrote {} files ({:.1} MB) to {}; serve the folder with any static file server",
                written.files,
                written.bytes as f64 / 1e6,
                dir.display()
            )?;
        }
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "dtype-lattice", &mut script);
            out.write_all(&script)?;
        }
        Command::Man => {
            let page = clap_mangen::Man::new(<Cli as clap::CommandFactory>::command());
            let mut roff = Vec::new();
            page.render(&mut roff)?;
            out.write_all(&roff)?;
        }
        Command::Table {
            rules,
            all,
            format,
            labels,
            diff,
            fragment,
        } => {
            let policy = rules.policy()?;
            let labels = labels.unwrap_or(if all { Labels::Names } else { Labels::Short });
            let table = Table::compute(policy.as_ref(), &promotion_table::types(all));
            let marks = match diff {
                Some(_) if format == Format::Csv => {
                    return Err(Failure::Usage(
                        "--diff marks cells in text, markdown, html and json; for csv use the diff command".into(),
                    ))
                }
                Some(name) => {
                    let other = rules.jax.policy(&name)?;
                    Some(table::Marks::new(policy.as_ref(), other.as_ref(), &name, &table))
                }
                None => None,
            };
            let text = table::render(
                &table,
                policy.as_ref(),
                labels,
                marks.as_ref(),
                format,
                fragment,
            );
            out.write_all(text.as_bytes())?;
        }
        Command::Diff {
            left,
            right,
            jax,
            all,
            format,
            labels,
        } => {
            let (first, second) = (jax.policy(&left)?, jax.policy(&right)?);
            let labels = labels.unwrap_or(if all { Labels::Names } else { Labels::Short });
            let report = diff::Report::new(
                [&left, &right],
                [first.as_ref(), second.as_ref()],
                &promotion_table::types(all),
                labels,
            );
            out.write_all(report.render(format).as_bytes())?;
        }
        Command::Promote { rules, a, b } => {
            let parse = |s: &str| {
                s.parse::<TypeSpec>()
                    .map_err(|err| Failure::Usage(err.to_string()))
            };
            let result = rules
                .policy()?
                .promote_types(parse(&a)?, parse(&b)?)
                .map_err(Failure::Promotion)?;
            writeln!(out, "{result}")?;
        }
        Command::ResultType {
            rules,
            lattice,
            operands,
        } => {
            let operands = operands
                .iter()
                .map(|s| {
                    s.parse::<Operand>()
                        .map_err(|err| Failure::Usage(err.to_string()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let policy = rules.policy()?;
            let warnings = if lattice {
                policy.lattice_result_type_warnings(&operands)
            } else {
                policy.result_type_warnings(&operands)
            };
            for warning in warnings {
                warn(&warning.message);
            }
            let result = if lattice {
                policy.lattice_result_type(&operands).ok_or_else(|| {
                    Failure::Usage(format!(
                        "--lattice shows JAX's lattice_result_type, which {} does not have; \
                         use it with --policy jax",
                        policy.name()
                    ))
                })?
            } else {
                policy.result_type(&operands)
            };
            writeln!(out, "{}", result.map_err(Failure::Promotion)?)?;
        }
        Command::Batch { jax, policy } => {
            // An unknown default is a usage error now, not one per request.
            jax.policy(&policy)?;
            let defaults = dtype_lattice::protocol::Defaults {
                settings: jax.settings(),
                policy: Some(policy),
            };
            dtype_lattice::protocol::run(io::stdin().lock(), &mut *out, defaults)?
        }
        Command::Check {
            subject,
            format,
            max_examples,
        } => check::run(&subject.load()?, format, max_examples, out)?,
        Command::Audit { subjects, format } => audit::run(&subjects.load()?, format, out)?,
        Command::Explain {
            subject,
            a,
            b,
            format,
        } => {
            let subject = subject.load()?;
            let definition = subject.definition()?;
            let poset = poset(definition)?;
            let report = why::Report::new(definition, &poset, subject.policy(), [&a, &b])
                .map_err(|err| Failure::Usage(err.to_string()))?;
            out.write_all(escape_controls(&explain::render(&report, format), true).as_bytes())?;
            out.flush()?;
            if let Some(failure) = explain::failure(&report) {
                return Err(failure);
            }
        }
        Command::Graph {
            subject,
            format,
            output,
            highlight,
        } => {
            let format = match (format, &output) {
                (Some(format), _) => format,
                (None, Some(path)) => graph::Format::from_path(path).map_err(Failure::Usage)?,
                (None, None) => graph::Format::Svg,
            };
            let pair = match &highlight {
                Some(text) => Some(highlight_pair(text)?),
                None => None,
            };
            let subject = subject.load()?;
            let definition = subject.definition()?;
            let poset = poset(definition)?;
            let drawing = Drawing::new(definition, &poset, pair)
                .map_err(|err| Failure::Usage(err.to_string()))?;
            let text = match format {
                graph::Format::Dot => drawing.dot(),
                graph::Format::Svg => drawing
                    .svg()
                    .map_err(|too_large| Failure::Usage(format!("{too_large} (--format dot)")))?,
            };
            match output {
                Some(path) => std::fs::write(&path, text).map_err(|err| {
                    Failure::Usage(format!("cannot write {}: {err}", path.display()))
                })?,
                None => out.write_all(text.as_bytes())?,
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// Writes a framework's warning to standard error; the command goes on.
fn warn(message: &str) {
    let _ = writeln!(io::stderr(), "warning: {}", escape_controls(message, false));
}

/// The definition as a partial order; a cycle means it is not a lattice
/// (exit 1), any other defect is bad input (exit 2).
fn poset(definition: &Definition) -> Result<Poset, Failure> {
    definition.poset().map_err(|err| match err {
        GraphError::Cycle { .. } => {
            Failure::NotALattice(Some(format!("{} is not a lattice: {err}", definition.name)))
        }
        other => Failure::Usage(other.to_string()),
    })
}

/// `A,B` as two inputs.
fn highlight_pair(text: &str) -> Result<[&str; 2], Failure> {
    match text.split_once(',').map(|(a, b)| (a.trim(), b.trim())) {
        Some((a, b)) if !a.is_empty() && !b.is_empty() && !b.contains(',') => Ok([a, b]),
        _ => Err(Failure::Usage(format!(
            "--highlight takes two types separated by a comma, such as 'int8,uint8'; got '{}'",
            text.escape_debug()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dtype_lattice::design::NodeDef;

    fn definition(edges: Vec<(usize, usize)>) -> Definition {
        Definition {
            name: "sketch".into(),
            description: None,
            nodes: ["a", "b"].map(NodeDef::from_label).to_vec(),
            edges,
        }
    }

    /// The help text lists the policies by hand (clap's attributes take
    /// literal text); this keeps it in step with the registry.
    #[test]
    fn policy_help_names_every_policy_and_alias() {
        let command = <Cli as clap::CommandFactory>::command();
        for subcommand in ["table", "promote", "result-type", "check"] {
            let sub = command.find_subcommand(subcommand).unwrap();
            let policy = sub
                .get_arguments()
                .find(|a| a.get_long() == Some("policy"))
                .unwrap();
            let help = policy.get_help().unwrap().to_string();
            for name in registry::POLICY_NAMES {
                assert!(help.contains(name), "{subcommand}: {name} in {help}");
            }
            for (alias, _) in registry::ALIASES {
                assert!(help.contains(alias), "{subcommand}: {alias} in {help}");
            }
        }
    }

    #[test]
    fn a_cycle_is_not_a_lattice_and_other_defects_are_bad_input() {
        match poset(&definition(vec![(0, 1), (1, 0)])) {
            Err(Failure::NotALattice(Some(message))) => assert_eq!(
                message,
                "sketch is not a lattice: the edges form a cycle: a -> b -> a; \
                 promotion must only go one way, remove one of these edges"
            ),
            _ => panic!("a cycle must be refused (exit 1)"),
        }
        assert!(matches!(
            poset(&definition(vec![(1, 1)])),
            Err(Failure::Usage(_))
        ));
        assert!(poset(&definition(vec![(0, 1)])).is_ok());
    }
}
