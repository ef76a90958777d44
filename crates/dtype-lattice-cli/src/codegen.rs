//! `codegen`: parse which tables, ask the library for them
//! ([`dtype_lattice::design::codegen`]) and write the file.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use dtype_lattice::design::codegen::{self, Codegen, Dtypes, Options, Target};
use dtype_lattice::design::table::Question;
use dtype_lattice::registry::{Settings, SETTINGS};
use dtype_lattice::{DType, OpForm, Operation};

use crate::args::{Keywords, PolicyArgs};
use crate::failure::Failure;
use crate::subject;

/// The languages, as `--lang` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// A Rust module: `const` tables, `core` only.
    Rust,
    /// A C99 header: `static const` tables.
    C,
    /// A Python module: the standard library only.
    Python,
}

impl From<Lang> for Target {
    fn from(lang: Lang) -> Target {
        match lang {
            Lang::Rust => Target::Rust,
            Lang::C => Target::C,
            Lang::Python => Target::Python,
        }
    }
}

/// `codegen`'s arguments.
#[derive(Debug, Args, Clone)]
pub(crate) struct CodegenArgs {
    /// The language to write.
    #[arg(long, value_enum)]
    lang: Lang,
    #[command(flatten)]
    rules: PolicyArgs,
    /// A lattice file (TOML; see examples/lattices/) instead of a policy:
    /// its nodes are the types, its joins the cells.
    #[arg(long, value_name = "FILE", conflicts_with = "policy")]
    lattice: Option<PathBuf>,
    /// Add this operation's table (as `table --op` computes it; one of one
    /// operand over each operand, a reduction over each dtype and
    /// `dtype=`); repeat for several.
    #[arg(long = "op", value_name = "OP")]
    ops: Vec<Operation>,
    /// Add the table of every operation the policy models: of two
    /// operands, of one, and each reduction.
    #[arg(long, conflicts_with = "ops")]
    all_ops: bool,
    /// The form the operations are asked in, as `table --form` takes it.
    #[arg(long, value_name = "FORM", conflicts_with = "all_ops")]
    form: Option<OpForm>,
    /// All 33 dtypes, not only those the framework takes.
    #[arg(long)]
    all_dtypes: bool,
    /// Only these dtypes, in this order (comma-separated): an array
    /// library's own, so that its enum maps to the tables' one to one.
    /// Every result must be among them.
    #[arg(long, value_name = "DTYPE,...", value_delimiter = ',', conflicts_with_all = ["all_dtypes", "lattice"])]
    dtypes: Vec<DType>,
    /// The C header's prefix of every name.
    #[arg(long, default_value = "dl", value_name = "NAME")]
    prefix: String,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub(crate) fn run(args: &CodegenArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if !codegen::valid_prefix(&args.prefix) {
        return Err(Failure::Usage(format!(
            "--prefix {:?} cannot begin a C name: use letters, digits and _, not starting \
             with a digit (e.g. --prefix dl)",
            args.prefix
        )));
    }
    let tables = match &args.lattice {
        Some(path) => {
            subject::reject_settings(args.rules.settings)?;
            if let Some(op) = args.ops.first() {
                let why = codegen::LatticeCodegenError::Operation(op.to_string());
                return Err(Failure::Usage(why.to_string()));
            }
            let subject = subject::from_file(path)?;
            let definition = subject::definition(&subject)?;
            Codegen::of_definition(definition)
        }
        None => {
            let policy = args.rules.policy()?;
            let questions = if args.all_ops {
                codegen::all_ops(policy.as_ref())
            } else if args.ops.is_empty() {
                // `--form setitem` alone: the assignment's table.
                let assignment = args
                    .form
                    .map(|form| crate::run::question(None, &Keywords::default(), Some(form)));
                assignment
                    .into_iter()
                    .collect::<Result<Vec<Question>, Failure>>()?
            } else {
                args.ops
                    .iter()
                    .map(|&op| crate::run::question(Some(op), &Keywords::default(), args.form))
                    .collect::<Result<Vec<Question>, Failure>>()?
            };
            let dtypes = if args.all_dtypes {
                Dtypes::All
            } else if args.dtypes.is_empty() {
                Dtypes::Framework
            } else {
                Dtypes::Only(args.dtypes.clone())
            };
            Codegen::of_policy(policy.as_ref(), &questions, &dtypes)
        }
    }
    .map_err(|err| Failure::Usage(err.to_string()))?;
    let options = Options {
        command: command_line(args),
        prefix: args.prefix.clone(),
    };
    let text = tables.render(args.lang.into(), &options);
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|err| Failure::Usage(format!("cannot write {}: {err}", path.display())))?,
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}

/// The command that writes this file again, for its header: the options
/// in one order, the settings that differ from their defaults, no output
/// file (so that the same tables always read the same).
fn command_line(args: &CodegenArgs) -> String {
    let mut words = vec![
        "dtype-lattice codegen --lang".to_owned(),
        format!("{:?}", args.lang).to_ascii_lowercase(),
    ];
    match &args.lattice {
        Some(path) => words.push(format!("--lattice {}", path.display())),
        None => words.push(format!("--policy {}", args.rules.policy)),
    }
    let defaults = Settings::default();
    for setting in SETTINGS {
        let value = setting.get(&args.rules.settings.0);
        if value != setting.get(&defaults) {
            words.push(if setting.is_flag() {
                setting.flag()
            } else {
                format!("{} {value}", setting.flag())
            });
        }
    }
    words.extend(args.ops.iter().map(|op| format!("--op {op}")));
    if args.all_ops {
        words.push("--all-ops".to_owned());
    }
    if let Some(form) = args.form {
        words.push(format!("--form {form}"));
    }
    if args.all_dtypes {
        words.push("--all-dtypes".to_owned());
    }
    if !args.dtypes.is_empty() {
        let names: Vec<&str> = args.dtypes.iter().map(|d| d.name()).collect();
        words.push(format!("--dtypes {}", names.join(",")));
    }
    if args.lang == Lang::C {
        words.push(format!("--prefix {}", args.prefix));
    }
    words.join(" ")
}
