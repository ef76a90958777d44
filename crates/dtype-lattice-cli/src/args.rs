//! The command line: every subcommand and flag (clap). The settings'
//! flags and the policy lists are made from the library's registry, so a
//! setting or a framework added there appears here with its help.

use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Parser, Subcommand};
use dtype_lattice::registry::{self, Settings, SETTINGS};
use dtype_lattice::{Asked, DType, OpForm, Operand, Operation, Policy};

use crate::failure::Failure;
use crate::table::{Format, Labels};
use crate::{codegen, compatibility, diff, explain, graph, subject};

/// Lattice-based dtype promotion, as JAX does it.
#[derive(Debug, Parser)]
#[command(name = "dtype-lattice", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print the binary promotion table JAX's documentation shows.
    ///
    /// Cells are `_lattice_result_type(a, b)`: a weak result is written as
    /// its Python type (i*, f*, c*), a failed promotion as `-`.
    Table {
        #[command(flatten)]
        rules: PolicyArgs,
        /// All 33 dtypes and Python's int, float, complex instead of the
        /// documentation's 18 types.
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
        /// The table of an operation instead of promotion: `a OP b` on an
        /// array of the row's dtype and one of the column's (a Python scalar
        /// for int, float, complex). Binary operations: add, subtract,
        /// multiply, true_divide, floor_divide, remainder, power, maximum,
        /// equal, not_equal, less, less_equal, greater, greater_equal,
        /// bitwise_and, bitwise_or, bitwise_xor, logical_and; on whole
        /// arrays: matmul, dot, tensordot, einsum, where (with a bool
        /// condition), clip (the column the bound), concatenate, stack,
        /// full_like (the column the fill value).
        #[arg(long, value_name = "OP")]
        op: Option<Operation>,
        #[command(flatten)]
        keywords: Keywords,
        /// The operation as a program writes it (function, operator,
        /// reflected, inplace; setitem without --op: the dtype of an array
        /// of the row's dtype after `x[...] = v` of the column's). Without
        /// it, the form the policy has always answered.
        #[arg(long, value_name = "FORM")]
        form: Option<OpForm>,
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
        settings: SettingFlags,
        /// All 33 dtypes and Python's int, float, complex instead of the
        /// documentation's 18 types.
        #[arg(long)]
        all: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = diff::Format::Text)]
        format: diff::Format,
        /// Label style [default: short for the documentation's types, names with --all].
        #[arg(long, value_enum)]
        labels: Option<Labels>,
        /// Compare an operation's results instead of promotion (their
        /// dtypes), as `table --op` computes them.
        #[arg(long, value_name = "OP")]
        op: Option<Operation>,
        #[command(flatten)]
        keywords: Keywords,
        /// The form of the operation compared, as `table --form` takes it.
        #[arg(long, value_name = "FORM")]
        form: Option<OpForm>,
    },
    /// How far apart every two policies are: differing cells of the
    /// promotion table and of addition, what they fall on, and a few
    /// telling pairs answered by every policy.
    ///
    /// The markdown is docs/compatibility.md: `dtype-lattice compatibility
    /// > docs/compatibility.md` writes it.
    Compatibility {
        #[command(flatten)]
        settings: SettingFlags,
        /// Output format.
        #[arg(long, value_enum, default_value_t = compatibility::Format::Markdown)]
        format: compatibility::Format,
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
    /// zero-dimensional array; 0d:DTYPE=VALUE holding a value, which numpy1
    /// reads); a number literal, True,
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
        /// The result of this operation (true_divide, less, sqrt, ...; sum,
        /// mean, matmul, where, clip, concatenate, ...: NumPy's names)
        /// instead of promotion; a dtype name then stands for an array of
        /// it, int, float, complex for a Python scalar. Prints "(computes
        /// in T)" after the result where the framework computes in another
        /// type.
        #[arg(long, value_name = "OP", conflicts_with = "lattice")]
        op: Option<Operation>,
        #[command(flatten)]
        keywords: Keywords,
        /// The operation as a program writes it: function (lib.op(a, b)),
        /// operator (a OP b), reflected (b.__rOP__(a)), inplace (a OP= b),
        /// or setitem (a[...] = b, without --op). Without it, the form the
        /// policy has always answered: the function, or the operator where
        /// docs/policies.md says so.
        #[arg(long, value_name = "FORM", conflicts_with = "lattice")]
        form: Option<OpForm>,
        /// The operands.
        #[arg(required = true, allow_negative_numbers = true)]
        operands: Vec<String>,
    },
    /// Answer JSON Lines requests from stdin, one answer line per request.
    ///
    /// Request: {"fn": F, "args": [...], "policy": "jax", "x64": false,
    /// "strict": false, "explicit_x64_dtypes": "warn"} ("promotion":
    /// "strict" is kept as another spelling of "strict": true); only "fn" is
    /// required, and --policy and the settings' flags set the defaults for
    /// requests that do not say. Every policy answers promote_types and
    /// result_type, and add, can_cast, lattice_result_type, asarray,
    /// canonicalize_dtype and safe_to_cast where its framework has them;
    /// the dtype facts isdtype, issubdtype, finfo, iinfo, itemsize_bits and
    /// dtype are the same for every policy. Answer: {"ok": V} or {"error": {"type": T,
    /// "message": M}}, with "warnings": [TEXT, ...] when JAX warned. Blank
    /// lines get no answer. The README's batch section lists the argument
    /// forms.
    Batch {
        #[command(flatten)]
        settings: SettingFlags,
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
        /// How many ambiguous pairs and pairs with no upper bound to list, at
        /// most 1000 (the counts are always exact).
        #[arg(
            long,
            value_name = "N",
            default_value_t = dtype_lattice::design::check::EXAMPLES,
            value_parser = clap::builder::RangedU64ValueParser::<usize>::new()
                .range(0..=dtype_lattice::design::check::MAX_EXAMPLES as u64)
        )]
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
        /// Second type (not with an --op on one array, as sum).
        b: Option<String>,
        #[command(flatten)]
        subject: subject::SubjectArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = explain::Format::Text)]
        format: explain::Format,
        /// Go on to an operation (true_divide, less, ...; sum, matmul,
        /// where, ...): after the join, its rule and what it gives for an
        /// array of each type, and the type it computes in where the
        /// framework says. Built-in policies only.
        #[arg(long, value_name = "OP")]
        op: Option<Operation>,
        #[command(flatten)]
        keywords: Keywords,
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
    /// Write the promotion (and operations) as constant tables in Rust, C
    /// or Python that need nothing of this tool.
    ///
    /// Promotion is `table`'s cells over the dtypes the framework takes
    /// and Python's bool, int, float and complex; each --op adds its table.
    /// Errors are data: each cell's exception and exact message. A lattice
    /// file (--lattice FILE) gives the table of its joins.
    Codegen(codegen::CodegenArgs),
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

/// Which promotion rules to use, shared by every command.
#[derive(Debug, Args, Clone)]
pub(crate) struct PolicyArgs {
    #[arg(long, default_value = "jax", value_name = "NAME", help = policy_help())]
    pub(crate) policy: String,
    #[command(flatten)]
    pub(crate) settings: SettingFlags,
}

/// `--policy`'s help: the registry's entries, their aliases, and the
/// presets, each with what it stands for.
pub(crate) fn policy_help() -> String {
    let names: Vec<&str> = registry::POLICIES.iter().map(|info| info.name).collect();
    let aliases: Vec<&str> = registry::POLICIES
        .iter()
        .flat_map(|info| info.aliases.iter().copied())
        .collect();
    let presets: Vec<String> = registry::PRESETS
        .iter()
        .map(|preset| format!("{} = {preset}", preset.name))
        .collect();
    format!(
        "The promotion rules: {} (aliases: {}; presets: {})",
        names.join(", "),
        aliases.join(", "),
        presets.join(", ")
    )
}

/// The flags of the registry's [settings](SETTINGS): `--x64` for a flag,
/// `--explicit-x64-dtypes MODE` for a choice, each with the table's help.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SettingFlags(pub(crate) Settings);

impl PolicyArgs {
    /// The chosen policy, or a usage error naming the known ones.
    pub(crate) fn policy(&self) -> Result<Box<dyn Policy>, Failure> {
        self.settings.policy(&self.policy)
    }
}

impl SettingFlags {
    /// The policy called `name` under these settings, or a usage error
    /// naming the known ones.
    pub(crate) fn policy(self, name: &str) -> Result<Box<dyn Policy>, Failure> {
        registry::by_name(name, self.0).map_err(|err| Failure::Usage(err.to_string()))
    }

    /// Whether any flag differs from its default.
    pub(crate) fn any(self) -> bool {
        self.0 != Settings::default()
    }
}

impl FromArgMatches for SettingFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = SettingFlags::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for setting in SETTINGS {
            let value = if setting.is_flag() {
                if !matches.get_flag(setting.name) {
                    continue;
                }
                "true"
            } else {
                match matches.get_one::<String>(setting.name) {
                    Some(value) => value.as_str(),
                    None => continue,
                }
            };
            setting
                .set(&mut self.0, value)
                .map_err(|err| clap::Error::raw(clap::error::ErrorKind::InvalidValue, err))?;
        }
        Ok(())
    }
}

impl Args for SettingFlags {
    fn augment_args(command: clap::Command) -> clap::Command {
        SETTINGS.iter().fold(command, |command, setting| {
            let help = format!("{} ({})", capitalized(setting.help), setting.option);
            let arg = Arg::new(setting.name)
                .long(setting.flag().trim_start_matches('-').to_owned())
                .help(help);
            command.arg(if setting.is_flag() {
                arg.action(ArgAction::SetTrue)
            } else {
                arg.value_name("MODE")
                    .value_parser(clap::builder::PossibleValuesParser::new(setting.values))
                    .default_value(setting.values[0])
            })
        })
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The keywords of an operation, as every command that asks one takes them
/// (`result-type`, `explain`, `table`, `diff`).
#[derive(Args, Clone, Debug, Default)]
pub struct Keywords {
    /// The operation's dtype= (a reduction's accumulator, a contraction's
    /// preferred_element_type, full_like's dtype). A reduction's table
    /// then has this one column.
    #[arg(long, value_name = "DTYPE", requires = "op")]
    pub dtype: Option<DType>,
    /// JAX's promote_integers= of sum, prod, cumsum and cumprod.
    #[arg(long, value_name = "BOOL", requires = "op")]
    pub promote_integers: Option<bool>,
    /// The initial= of sum, prod, max and min: a Python number (300,
    /// -2.5, 1j, True), which NumPy converts to the reduction's type.
    #[arg(
        long,
        value_name = "NUMBER",
        requires = "op",
        allow_hyphen_values = true
    )]
    pub initial: Option<Operand>,
}

impl Keywords {
    /// `op` asked with these keywords, or the first it does not take.
    pub fn asked(&self, op: Operation) -> Result<Asked, Failure> {
        op.asked(self.dtype, self.promote_integers)
            .and_then(|asked| match self.initial {
                Some(value) => asked.with_initial(value),
                None => Ok(asked),
            })
            .map_err(|err| Failure::Usage(err.to_string()))
    }
}
