//! Promotion as constant tables in another language: a policy's (or a
//! lattice file's) promotion and operation tables written as Rust, C or
//! Python source that needs nothing of this crate, for a program that
//! wants the answers without the library.
//!
//! The cells are the design tables' ([`Table`] over [`Question`]s): this
//! module only gathers them into one [`Codegen`] (the types, every
//! distinct error as data, one table per question) and each target's
//! file (`rust.rs`, `c.rs`, `python.rs`) writes that out. Operations of
//! one operand (`sqrt` of each operand) and reductions (`sum` of an array
//! of each dtype with each `dtype=`, and the type it computes in) are
//! gathered in `one.rs` and written by `rust_one.rs`, `c_one.rs` and
//! `python_one.rs`. A lattice file's cells are its joins (`lattice.rs`);
//! identifiers and literals are made in `names.rs`.
//!
//! Every file has the same readers: `promote(a, b)`, `operation(op, a,
//! b)`, `unary(op, a)`, `reduce(op, a, dtype)` and `computes_in(op, a,
//! dtype)` (in C with the prefix, `dl_reduce`); each file's header comment
//! says how to call them.
//!
//! ```
//! use dtype_lattice::design::codegen::{Codegen, Dtypes, Options, Target};
//! use dtype_lattice::design::table::Question;
//! use dtype_lattice::frameworks::jax::Jax;
//! use dtype_lattice::{ArrayCall, ArrayOp, Op};
//!
//! let questions = [
//!     Question::Op(Op::TrueDivide),
//!     Question::Op(Op::Sqrt),
//!     Question::Array(ArrayCall::new(ArrayOp::Sum)),
//! ];
//! let tables = Codegen::of_policy(&Jax::default(), &questions, &Dtypes::Framework).unwrap();
//! let options = Options { command: "dtype-lattice codegen --lang rust".into(), prefix: "dl".into() };
//! let rust = tables.render(Target::Rust, &options);
//! assert!(rust.contains("pub fn promote(a: Operand, b: Operand) -> Result<Typed, Error>"));
//! assert!(rust.contains("Float8E4M3Fn"));
//! assert!(rust.contains("pub fn unary(op: UnaryOp, a: Operand) -> Option<Result<Typed, Error>>"));
//! let python = tables.render(Target::Python, &options);
//! assert!(python.contains("def promote(a, b):"));
//! assert!(python.contains("def reduce(op, a, dtype=None):"));
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::design::table::{value, Question, Table};
use crate::policy::Policy;
use crate::types::{
    ArrayCall, ArrayOp, DType, Family, Op, Operand, PromotionError, PyScalar, TypeSpec, Typed,
};

mod c;
mod c_one;
mod lattice;
mod names;
mod one;
mod python;
mod python_one;
mod rust;
mod rust_one;

pub use lattice::{LatticeCodegenError, MAX_NODES};
pub use one::{ReductionTable, UnaryTable};

/// The languages tables are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A Rust module (no dependencies; `core` only).
    Rust,
    /// A C99 header.
    C,
    /// A Python module (the standard library only).
    Python,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 3] = [Target::Rust, Target::C, Target::Python];

    /// The name the command line takes: `rust`, `c`, `python`.
    pub const fn name(self) -> &'static str {
        match self {
            Target::Rust => "rust",
            Target::C => "c",
            Target::Python => "python",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a generated file says about itself, and its C names' prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The command line that generated it, for its header comment.
    pub command: String,
    /// The C header's prefix of every name (`dl` gives `dl_promote`,
    /// `DL_INT8`); the other targets are modules, which need none.
    pub prefix: String,
}

/// One type of the tables: a dtype (or a lattice file's node), or a Python
/// scalar type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeName {
    /// As the framework writes it: `int8`, `float8_e4m3fn`, `int`; a
    /// lattice file's label.
    pub name: String,
    /// Its Rust identifier: `Int8`, `Float8E4M3Fn`.
    pub camel: String,
    /// Its identifier in Python and, upper-cased, in C: `int8`.
    pub snake: String,
}

/// A table's cell: the result, or the index of its error in
/// [`Codegen::errors`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// The result: an index into [`Codegen::dtypes`], and whether it is weak.
    Ok {
        /// Index into [`Codegen::dtypes`].
        dtype: usize,
        /// Whether the result is weakly typed.
        weak: bool,
    },
    /// Index into [`Codegen::errors`].
    Err(usize),
}

/// An error as data: the Python exception the framework raises and its
/// message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ErrorEntry {
    /// The exception's class name (`TypePromotionError`, `TypeError`);
    /// `LatticeError` for a lattice file's pair without a join that no
    /// framework rule words.
    pub exception: String,
    /// The message, exactly.
    pub message: String,
}

/// One table: the promotion of two operands, or an operation on them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeTable {
    /// `promote`, or the operation's name (`true_divide`, `matmul`).
    pub name: String,
    /// The operation's Rust identifier (`TrueDivide`); empty for `promote`.
    pub camel: String,
    /// The operands that are rows, as indices into the operand space
    /// (the dtypes, then the scalars).
    pub rows: Vec<usize>,
    /// The operands that are columns, likewise.
    pub columns: Vec<usize>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<Cell>>,
}

impl CodeTable {
    /// The cells as a full grid over the operand space, `grid[a][b]` by
    /// operand index: each cell's code ([`Codegen::code`]), [`ABSENT`]
    /// where the table has no such row or column. One load answers a
    /// cell, whatever the table.
    pub fn grid(&self, operands: usize) -> Vec<Vec<u16>> {
        let mut grid = vec![vec![ABSENT; operands]; operands];
        for (&a, row) in self.rows.iter().zip(&self.cells) {
            for (&b, &cell) in self.columns.iter().zip(row) {
                // Out of the operand space, a cell has nowhere to go.
                if let Some(slot) = grid.get_mut(a).and_then(|r| r.get_mut(b)) {
                    *slot = Codegen::code(cell);
                }
            }
        }
        grid
    }
}

/// The code of a cell a table does not have (an operation on whole arrays
/// with a Python scalar): an error code no error has, as
/// error indices stay below `0x3fff`.
pub const ABSENT: u16 = 0xffff;

/// Tables ready to be written out: the types, the errors, and the tables.
/// The operand space is the dtypes (indices `0..dtypes.len()`) then the
/// Python scalar types; the first table is promotion, over every operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Codegen {
    /// What the tables are of: the policy with its settings, or the
    /// lattice file's name.
    pub subject: String,
    /// The dtypes (a lattice file's nodes), in the enum's order.
    pub dtypes: Vec<TypeName>,
    /// The Python scalar types that are operands (weak where the policy
    /// makes them so), in the enum's order.
    pub scalars: Vec<TypeName>,
    /// Every distinct error of the cells, in order of first appearance.
    pub errors: Vec<ErrorEntry>,
    /// Promotion first, then each operation of two operands.
    pub tables: Vec<CodeTable>,
    /// Each elementwise operation of one operand.
    pub unary: Vec<UnaryTable>,
    /// Each reduction.
    pub reductions: Vec<ReductionTable>,
}

/// Which dtypes the tables cover, in the order of their enum.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Dtypes {
    /// Those the framework takes (it promotes them with themselves, or
    /// takes them alone), in the library's order.
    #[default]
    Framework,
    /// All of [`DType::ALL`].
    All,
    /// These, in this order: an adopter's own dtypes, so that its enum and
    /// the tables' map one to one (a conversion the compiler makes
    /// nothing of). A result outside them (`int8 + 1j` without a
    /// complex dtype) is an error cell saying so, as a dtype the
    /// framework refuses alone is by default.
    Only(Vec<DType>),
}

/// Why no tables could be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodegenError {
    /// The policy has no table of this question (not modelled, or a
    /// one-operand operation asked in a form), in the library's words.
    Unanswered {
        /// The question's operation.
        what: String,
        /// Why.
        why: String,
    },
    /// More distinct errors or types than a cell's 15 bits encode.
    TooLarge(usize),
    /// The lattice file has no tables (see [`LatticeCodegenError`]).
    Lattice(LatticeCodegenError),
    /// [`Dtypes::Only`] names no dtype, or one twice.
    BadDtypes(String),
}

impl fmt::Display for CodegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodegenError::Unanswered { what, why } => {
                write!(
                    f,
                    "no table of {what} to generate: {why}; leave out --op {what}"
                )
            }
            CodegenError::TooLarge(n) => write!(
                f,
                "{n} distinct errors or types do not fit a cell's 15 bits (at most {}); \
                 generate fewer operations at a time",
                MAX_ENTRIES
            ),
            CodegenError::Lattice(err) => err.fmt(f),
            CodegenError::BadDtypes(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CodegenError {}

/// Whether `prefix` can begin C identifiers (`[A-Za-z_][A-Za-z0-9_]*`),
/// as [`Options::prefix`] must.
///
/// ```
/// use dtype_lattice::design::codegen::valid_prefix;
/// assert!(valid_prefix("jax_x64"));
/// assert!(!valid_prefix("9lives") && !valid_prefix("a-b") && !valid_prefix(""));
/// ```
pub fn valid_prefix(prefix: &str) -> bool {
    prefix.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A cell is a `u16`: the top bit says error; the rest is the error's
/// index, or the result's dtype index times two plus its weak bit.
const MAX_ENTRIES: usize = 0x3fff;

/// The questions whose tables `--all-ops` writes: every elementwise
/// operation (of two operands, then of one), every operation on two whole
/// arrays and every reduction that `policy` models, in the library's order.
///
/// ```
/// use dtype_lattice::design::codegen::all_ops;
/// use dtype_lattice::design::table::Question;
/// use dtype_lattice::frameworks::numpy::Numpy;
/// use dtype_lattice::{ArrayCall, ArrayOp, Op};
///
/// let ops = all_ops(&Numpy);
/// assert!(ops.contains(&Question::Op(Op::Add)));
/// assert!(ops.contains(&Question::Op(Op::Sqrt)));
/// assert!(ops.contains(&Question::Array(ArrayCall::new(ArrayOp::Sum))));
/// ```
pub fn all_ops(policy: &dyn Policy) -> Vec<Question> {
    let unary = Op::ALL
        .into_iter()
        .filter(|&op| op.arity() == 1)
        .filter(|&op| {
            let probe = value(TypeSpec::DType(DType::Int8));
            policy.operation(op, &[probe]).is_some()
        })
        .map(Question::Op);
    let reductions = ArrayOp::ALL
        .into_iter()
        .filter(|op| op.family() == Family::Reduction)
        .map(|op| Question::Array(ArrayCall::new(op)))
        .filter(|q| q.unanswered(policy).is_none());
    all_binary(policy)
        .into_iter()
        .chain(unary)
        .chain(reductions)
        .collect()
}

/// The questions of two operands among [`all_ops`]: every binary
/// elementwise operation and every operation on two whole arrays that
/// `policy` models, in the library's order.
pub fn all_binary(policy: &dyn Policy) -> Vec<Question> {
    let elementwise = Op::ALL
        .into_iter()
        .filter(|op| op.arity() == 2)
        .map(Question::Op);
    let arrays = ArrayOp::ALL
        .into_iter()
        .filter(|op| op.family() != Family::Reduction)
        .map(|op| Question::Array(ArrayCall::new(op)));
    elementwise
        .chain(arrays)
        .filter(|q| q.unanswered(policy).is_none())
        .collect()
}

impl Codegen {
    /// The tables of `policy`: promotion (`result_type` of two types) and
    /// each of `questions`, over `dtypes` (by default those the framework
    /// has: a dtype it refuses even with itself, and alone, is left out)
    /// and Python's bool, int, float and complex.
    pub fn of_policy(
        policy: &dyn Policy,
        questions: &[Question],
        dtypes: &Dtypes,
    ) -> Result<Codegen, CodegenError> {
        let only = matches!(dtypes, Dtypes::Only(_));
        let dtypes: Vec<DType> = match dtypes {
            Dtypes::Framework => DType::ALL.into_iter().filter(|&d| has(policy, d)).collect(),
            Dtypes::All => DType::ALL.to_vec(),
            Dtypes::Only(listed) => {
                checked(listed)?;
                listed.clone()
            }
        };
        let types: Vec<TypeSpec> = dtypes
            .iter()
            .map(|&d| TypeSpec::DType(d))
            .chain(PyScalar::ALL.into_iter().map(TypeSpec::Python))
            .collect();
        let mut builder = Builder::default();
        // A question asked twice (`--op add --op add`) is one table: two
        // would be two enum members of one name.
        let mut asked = Vec::new();
        let all = std::iter::once(Question::ResultType)
            .chain(questions.iter().copied())
            .filter(|q| {
                let first = !asked.contains(q);
                asked.push(*q);
                first
            });
        let (mut tables, mut unary, mut reductions) = (Vec::new(), Vec::new(), Vec::new());
        for question in all {
            let what = name_of(question);
            match question {
                Question::Op(op) if op.arity() == 1 => {
                    unary.push(one::unary(&mut builder, policy, op, &types, &dtypes, only)?);
                    continue;
                }
                Question::Call(call) if call.arity() == 1 => {
                    return Err(CodegenError::Unanswered {
                        what,
                        why: "codegen asks an operation of one operand in each policy's \
                              default form, without --form"
                            .to_owned(),
                    })
                }
                Question::Array(call) if call.op().family() == Family::Reduction => {
                    reductions.push(one::reduction(
                        &mut builder,
                        policy,
                        call,
                        &types,
                        &dtypes,
                        only,
                    )?);
                    continue;
                }
                _ => {}
            }
            if let Some(why) = question.unanswered(policy) {
                return Err(CodegenError::Unanswered {
                    what,
                    why: why.to_string(),
                });
            }
            let Some(table) = Table::of(policy, &types, question) else {
                return Err(CodegenError::Unanswered {
                    what: what.clone(),
                    why: format!("{} gave no table of {what}", policy.name()),
                });
            };
            tables.push(builder.table(&what, &table, &types, &dtypes, only)?);
        }
        Ok(Codegen {
            subject: policy.name(),
            dtypes: names::dtype_names(&dtypes),
            scalars: names::scalar_names(&PyScalar::ALL),
            errors: builder.errors,
            tables,
            unary,
            reductions,
        })
    }

    /// The number of operands: the dtypes and the scalars.
    pub fn operands(&self) -> usize {
        self.dtypes.len() + self.scalars.len()
    }

    /// An operand's name (an index into the operand space, below
    /// [`operands`](Codegen::operands)).
    fn operand(&self, index: usize) -> &TypeName {
        match index.checked_sub(self.dtypes.len()) {
            Some(scalar) => &self.scalars[scalar],
            None => &self.dtypes[index],
        }
    }

    /// The cell as its `u16` code (see the generated files' comments).
    pub fn code(cell: Cell) -> u16 {
        // Both fit: `Builder` refuses more than MAX_ENTRIES of either.
        match cell {
            Cell::Ok { dtype, weak } => ((dtype as u16) << 1) | u16::from(weak),
            Cell::Err(index) => 0x8000 | index as u16,
        }
    }

    /// The operations' names, as the enums of the targets name them.
    fn op_names(&self) -> Vec<TypeName> {
        let names = self.tables[1..].iter().map(|t| (&t.name, &t.camel));
        op_names(names)
    }

    /// The one-operand operations' names likewise.
    fn unary_names(&self) -> Vec<TypeName> {
        op_names(self.unary.iter().map(|t| (&t.name, &t.camel)))
    }

    /// The reductions' names likewise.
    fn reduction_names(&self) -> Vec<TypeName> {
        op_names(self.reductions.iter().map(|t| (&t.name, &t.camel)))
    }

    /// The file for `target`.
    pub fn render(&self, target: Target, options: &Options) -> String {
        match target {
            Target::Rust => rust::render(self, options),
            Target::C => c::render(self, options),
            Target::Python => python::render(self, options),
        }
    }

    /// The header's lines, for every target's comment: what generated the
    /// file and from what.
    fn header(&self, options: &Options) -> Vec<String> {
        let list = |names: Vec<TypeName>| {
            let names: Vec<String> = names.into_iter().map(|t| t.name).collect();
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        };
        vec![
            format!(
                "Generated by dtype-lattice {} ({}); do not edit, regenerate instead.",
                env!("CARGO_PKG_VERSION"),
                options.command
            ),
            format!("Promotion of: {}.", self.subject),
            format!("Operations: {}.", list(self.op_names())),
            format!(
                "Operations of one operand: {}; reductions: {}.",
                list(self.unary_names()),
                list(self.reduction_names())
            ),
            "Cells and error messages are the library's; the errors carry the framework's \
             exception name and exact message."
                .to_owned(),
        ]
    }
}

/// Operations' names and Rust identifiers as [`TypeName`]s.
fn op_names<'a>(names: impl Iterator<Item = (&'a String, &'a String)>) -> Vec<TypeName> {
    names
        .map(|(name, camel)| TypeName {
            name: name.clone(),
            camel: camel.clone(),
            snake: name.clone(),
        })
        .collect()
}

/// A question's table's name: `promote`, the operation's, or `setitem`.
fn name_of(question: Question) -> String {
    match (question, question.op()) {
        (Question::ResultType, _) => "promote".to_owned(),
        (_, Some(op)) => op.to_string(),
        (_, None) => question.form().map_or_else(String::new, |f| f.to_string()),
    }
}

/// [`Dtypes::Only`]'s list: at least one dtype, each once.
fn checked(listed: &[DType]) -> Result<(), CodegenError> {
    if listed.is_empty() {
        return Err(CodegenError::BadDtypes(
            "--dtypes names no dtype: list at least one (e.g. --dtypes bool,int32,float32)"
                .to_owned(),
        ));
    }
    for (i, dtype) in listed.iter().enumerate() {
        if listed[..i].contains(dtype) {
            return Err(CodegenError::BadDtypes(format!(
                "--dtypes names {dtype} twice: name each once"
            )));
        }
    }
    Ok(())
}

/// Whether the framework has `dtype`: it promotes it with itself, or
/// takes it alone.
fn has(policy: &dyn Policy, dtype: DType) -> bool {
    policy.promote_types(dtype.into(), dtype.into()).is_ok()
        || policy.result_type(&[Operand::dtype(dtype)]).is_ok()
}

/// Gathers the errors while tables are added, each distinct one once.
#[derive(Default)]
struct Builder {
    errors: Vec<ErrorEntry>,
    seen: HashMap<ErrorEntry, usize>,
}

impl Builder {
    fn error(&mut self, entry: ErrorEntry) -> Result<usize, CodegenError> {
        if let Some(&index) = self.seen.get(&entry) {
            return Ok(index);
        }
        let index = self.errors.len();
        if index >= MAX_ENTRIES {
            return Err(CodegenError::TooLarge(index + 1));
        }
        self.seen.insert(entry.clone(), index);
        self.errors.push(entry);
        Ok(index)
    }

    fn promotion_error(&mut self, err: &PromotionError) -> Result<usize, CodegenError> {
        self.error(ErrorEntry {
            exception: err.python_type().to_owned(),
            message: err.to_string(),
        })
    }

    /// An answer as a cell: its result over `dtypes`, or its error. `only`:
    /// `dtypes` is the caller's list (which a result outside it has to
    /// join).
    fn cell(
        &mut self,
        answer: &Result<Typed, PromotionError>,
        dtypes: &[DType],
        only: bool,
    ) -> Result<Cell, CodegenError> {
        let fix = if only {
            "add it to --dtypes"
        } else {
            "generate with --all-dtypes"
        };
        Ok(match answer {
            Ok(Typed { dtype, weak }) => match dtypes.iter().position(|d| d == dtype) {
                Some(dtype) => Cell::Ok { dtype, weak: *weak },
                // A result the framework refuses alone cannot be named by
                // the enum: say so in the cell.
                None => Cell::Err(self.error(ErrorEntry {
                    exception: "NotGenerated".to_owned(),
                    message: format!(
                        "the result {dtype} is not one of the generated dtypes; {fix}"
                    ),
                })?),
            },
            Err(err) => Cell::Err(self.promotion_error(err)?),
        })
    }

    /// A design table as a code table: its types as operand indices, its
    /// cells as results over `dtypes` or errors. `only`: `dtypes` is the
    /// caller's list (which a result outside it has to join).
    fn table(
        &mut self,
        name: &str,
        table: &Table,
        types: &[TypeSpec],
        dtypes: &[DType],
        only: bool,
    ) -> Result<CodeTable, CodegenError> {
        if dtypes.len() > MAX_ENTRIES {
            return Err(CodegenError::TooLarge(dtypes.len()));
        }
        let operand = |spec: &TypeSpec| types.iter().position(|t| t == spec);
        let rows = table.types.iter().filter_map(operand).collect();
        let columns = table
            .columns
            .iter()
            .filter_map(|c| match c {
                crate::design::table::Column::Type(spec) => operand(spec),
                crate::design::table::Column::Dtype(_) => None,
            })
            .collect();
        let mut cells = Vec::with_capacity(table.cells.len());
        for row in &table.cells {
            let mut out = Vec::with_capacity(row.len());
            for cell in row {
                out.push(self.cell(cell, dtypes, only)?);
            }
            cells.push(out);
        }
        Ok(CodeTable {
            name: name.to_owned(),
            camel: if name == "promote" {
                String::new()
            } else {
                names::camel(name)
            },
            rows,
            columns,
            cells,
        })
    }
}
