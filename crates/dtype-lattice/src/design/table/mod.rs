//! Promotion tables as data: what `table` prints, the Python package's
//! `policy.table()` and the explorer's grid.
//!
//! A cell is what JAX's documentation shows: the result type of two dtype
//! specifiers or Python scalar types. Labels follow the documentation too
//! ([`Labels::Short`]: `i1` for int8, `bf` for bfloat16), with a weak result
//! written as its Python type (`i*`, `f*`, `c*`).
//!
//! ```
//! use dtype_lattice::design::table::{Labels, Table, DOCS_TYPES};
//! use dtype_lattice::frameworks::jax::Jax;
//!
//! let table = Table::new(&Jax::default(), &DOCS_TYPES);
//! assert_eq!(table.labels(Labels::Short)[..3], ["b1", "u1", "u2"]);
//! // int8 (row 5) with uint8 (column 1), and with a Python int (column 15).
//! assert_eq!(table.cell_label(5, 1, Labels::Short), "i2");
//! assert_eq!(table.cell_label(5, 15, Labels::Short), "i1");
//! ```

use crate::policy::Policy;
use crate::types::{
    ArrayCall, ArrayOp, Asked, Call, CallError, DType, Family, Kind, Op, OpForm, Operand,
    Operation, Outcome, PromotionError, PyScalar, TypeSpec, Typed, Unanswered,
};

mod column;

pub use column::Column;

/// The 18 types of JAX's documentation table, in its order.
pub const DOCS_TYPES: [TypeSpec; 18] = [
    TypeSpec::DType(DType::Bool),
    TypeSpec::DType(DType::UInt8),
    TypeSpec::DType(DType::UInt16),
    TypeSpec::DType(DType::UInt32),
    TypeSpec::DType(DType::UInt64),
    TypeSpec::DType(DType::Int8),
    TypeSpec::DType(DType::Int16),
    TypeSpec::DType(DType::Int32),
    TypeSpec::DType(DType::Int64),
    TypeSpec::DType(DType::BFloat16),
    TypeSpec::DType(DType::Float16),
    TypeSpec::DType(DType::Float32),
    TypeSpec::DType(DType::Float64),
    TypeSpec::DType(DType::Complex64),
    TypeSpec::DType(DType::Complex128),
    TypeSpec::Python(PyScalar::Int),
    TypeSpec::Python(PyScalar::Float),
    TypeSpec::Python(PyScalar::Complex),
];

/// The types a table shows: the documentation's 18, or with `all` the 32
/// dtypes and Python's int, float and complex.
pub fn types(all: bool) -> Vec<TypeSpec> {
    if all {
        DType::ALL
            .into_iter()
            .map(TypeSpec::DType)
            .chain(DOCS_TYPES[15..].iter().copied())
            .collect()
    } else {
        DOCS_TYPES.to_vec()
    }
}

/// How types are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Labels {
    /// The documentation's byte-count labels: `b1`, `u1` (uint8), `i2`
    /// (int16), `bf`, `f2`, `c8` (complex64), `c16`.
    #[default]
    Short,
    /// Full dtype names.
    Names,
}

/// The label of a type in the chosen style.
pub fn type_label(spec: TypeSpec, labels: Labels) -> String {
    match spec {
        TypeSpec::DType(dtype) => dtype_label(dtype, labels),
        TypeSpec::Python(scalar) => scalar.label().to_owned(),
    }
}

/// `b1`, `u2`, `bf`, `c16`...: the kind letter and the size in bytes, as
/// the documentation's generator prints `np.dtype(d).kind + itemsize`.
/// The types that label would not tell apart keep their name: those
/// narrower than a byte, and the eleven one-byte floats (all `f1`).
///
/// ```
/// use dtype_lattice::design::table::{dtype_label, Labels};
/// use dtype_lattice::DType;
///
/// assert_eq!(dtype_label(DType::Int16, Labels::Short), "i2");
/// assert_eq!(dtype_label(DType::Float8E4M3Fn, Labels::Short), "float8_e4m3fn");
/// let labels: std::collections::HashSet<String> =
///     DType::ALL.iter().map(|&d| dtype_label(d, Labels::Short)).collect();
/// assert_eq!(labels.len(), DType::COUNT); // no two alike
/// ```
pub fn dtype_label(dtype: DType, labels: Labels) -> String {
    match (labels, dtype) {
        (Labels::Names, _) => dtype.name().to_owned(),
        (Labels::Short, DType::BFloat16) => "bf".to_owned(),
        (Labels::Short, d) if (d.bits() >= 8 && !d.is_small_float()) || d == DType::Bool => {
            format!("{}{}", d.kind().code(), d.itemsize_bits() / 8)
        }
        (Labels::Short, d) => d.name().to_owned(),
    }
}

/// What the short labels mean, for a table's legend: each label with the
/// dtype it stands for, for the types given (labels that are names are
/// left out).
pub fn legend(types: &[TypeSpec]) -> Vec<(String, &'static str)> {
    types
        .iter()
        .filter_map(|&spec| match spec {
            TypeSpec::DType(dtype) => Some(dtype),
            TypeSpec::Python(_) => None,
        })
        .map(|dtype| (dtype_label(dtype, Labels::Short), dtype.name()))
        .filter(|(label, name)| label != name)
        .collect()
}

/// A result as a cell shows it: the dtype's label, or for a weak result
/// its Python type by kind (`i*`, `f*`, `c*`), as JAX's documentation
/// prints `lattice_result_type`.
pub fn result_label(result: Typed, labels: Labels) -> String {
    if !result.weak {
        return dtype_label(result.dtype, labels);
    }
    let scalar = match result.dtype.kind() {
        Kind::Complex => PyScalar::Complex,
        Kind::Float => PyScalar::Float,
        _ => PyScalar::Int,
    };
    scalar.label().to_owned()
}

/// The dtypes of `types` that `policy` turns into another when one stands
/// alone (`result_type` of the dtype), with what it becomes: JAX without
/// x64 makes its 64-bit types 32-bit, so a table's `u8` column means
/// uint32 there. Empty where every dtype is its own.
///
/// ```
/// use dtype_lattice::design::table::{canonicalized, DOCS_TYPES};
/// use dtype_lattice::frameworks::jax::{Config, Jax};
/// use dtype_lattice::DType;
///
/// let x32 = canonicalized(&Jax::default(), &DOCS_TYPES);
/// assert!(x32.contains(&(DType::UInt64, DType::UInt32)));
/// let x64 = Jax::new(Config { x64: true, ..Config::default() });
/// assert!(canonicalized(&x64, &DOCS_TYPES).is_empty());
/// ```
pub fn canonicalized(policy: &dyn Policy, types: &[TypeSpec]) -> Vec<(DType, DType)> {
    types
        .iter()
        .filter_map(|&spec| match spec {
            TypeSpec::DType(dtype) => Some(dtype),
            TypeSpec::Python(_) => None,
        })
        .filter_map(|dtype| {
            let alone = policy.result_type(&[Operand::dtype(dtype)]).ok()?;
            (alone.dtype != dtype).then_some((dtype, alone.dtype))
        })
        .collect()
}

/// What a table's cell asks the policy of its row's and column's types.
///
/// ```
/// use dtype_lattice::design::table::{Question, Table, DOCS_TYPES};
/// use dtype_lattice::frameworks::jax::Jax;
/// use dtype_lattice::frameworks::numpy::Numpy;
/// use dtype_lattice::{DType, Op, OpForm};
///
/// let jax = Jax::default();
/// let divide = Table::of(&jax, &DOCS_TYPES, Question::Op(Op::TrueDivide)).unwrap();
/// // int8 (row 5) / int8: JAX divides integers in its default float.
/// assert_eq!(divide.cells[5][5].as_ref().unwrap().dtype, DType::Float32);
/// // x[...] = v: NumPy casts the value, an int8 array (row 5) taking float32s
/// // (column 11); JAX's arrays are immutable.
/// let assign = Question::of(None, Some(OpForm::SetItem)).unwrap();
/// let numpy = Table::of(&Numpy, &DOCS_TYPES, assign).unwrap();
/// assert_eq!(numpy.cells[5][11].as_ref().unwrap().dtype, DType::Int8);
/// assert!(Table::of(&jax, &DOCS_TYPES, assign).unwrap().cells[5][11].is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Question {
    /// `result_type` of the two types (dtype specifiers, Python's types),
    /// the table of JAX's documentation.
    #[default]
    ResultType,
    /// A binary operation on an array of each dtype (a Python scalar of
    /// each Python type) in the form each policy has always answered it
    /// ([`Policy::default_form`]): `a / b` for [`Op::TrueDivide`].
    Op(Op),
    /// An operation in a form every policy is asked in (`2 / x`: a row of
    /// Python's types with [`OpForm::Operator`]), or the assignment
    /// `x[...] = v` of the column's value to an array of the row's dtype.
    Call(Call),
    /// An operation on whole arrays, with its keywords: a contraction or
    /// `concatenate`/`stack` of an array of each dtype, `where(c, a, b)`
    /// with a `bool` condition, `clip(a, b)`, `full_like(a, b)`, of an
    /// array of the row's dtype and one of the column's (its table has no
    /// Python types); a reduction of an array of the row's dtype with
    /// the column's `dtype=` ([`Column::Dtype`]).
    Array(ArrayCall),
}

impl Question {
    /// The question `table --op OP --form FORM` asks: promotion without
    /// either, the operation in each policy's default form without a form,
    /// else the [`Call`] (the assignment: [`OpForm::SetItem`] with no
    /// operation), or why Python has no such call.
    pub fn of(op: Option<Op>, form: Option<OpForm>) -> Result<Question, CallError> {
        match (op, form) {
            (None, None) => Ok(Question::ResultType),
            (Some(op), None) => Ok(Question::Op(op)),
            (op, Some(form)) => Call::new(op, form).map(Question::Call),
        }
    }

    /// [`of`](Question::of) for an operation of either kind, asked with
    /// its keywords: an operation on whole arrays is asked as its function,
    /// so another form is refused for it.
    pub fn asked(asked: Option<Asked>, form: Option<OpForm>) -> Result<Question, QuestionError> {
        match (asked, form) {
            (Some(Asked::Array(call)), None | Some(OpForm::Function)) => Ok(Question::Array(call)),
            (Some(Asked::Array(call)), Some(form)) => Err(QuestionError::FormOfArrayOp {
                op: call.op(),
                form,
            }),
            (Some(Asked::Elementwise(op)), form) => {
                Question::of(Some(op), form).map_err(QuestionError::Call)
            }
            (None, form) => Question::of(None, form).map_err(QuestionError::Call),
        }
    }

    /// The policy's answer for the cell of row `a` and `column`; `None`
    /// where it does not model the operation (or the column is not one of
    /// this question's [`columns`](Question::columns)).
    pub fn ask(
        self,
        policy: &dyn Policy,
        a: TypeSpec,
        column: Column,
    ) -> Option<Result<Typed, PromotionError>> {
        let b = match (self, column) {
            (Question::Array(call), column) => {
                return Some(array_outcome(call, policy, a, column)?.map(|o| o.result()))
            }
            (_, Column::Type(b)) => b,
            (_, Column::Dtype(_)) => return None,
        };
        match self {
            Question::ResultType => Some(policy.result_type(&[a.into(), b.into()])),
            Question::Op(op) => policy.operation(op, &[value(a), value(b)]),
            Question::Call(call) => policy.call(call, &[value(a), value(b)]),
            Question::Array(_) => None,
        }
    }

    /// The type the policy computes the cell in, where it says and it
    /// differs from the result (PyTorch's opmath, a half float's
    /// accumulator): a table's second mark.
    pub fn computes_in(self, policy: &dyn Policy, a: TypeSpec, column: Column) -> Option<DType> {
        match (self, column) {
            (Question::Op(op), Column::Type(b)) => {
                let operands = [value(a), value(b)];
                let result = policy.operation(op, &operands)?.ok()?;
                policy
                    .computes_in(op, &operands)
                    .filter(|&d| d != result.dtype)
            }
            (Question::Array(call), column) => array_outcome(call, policy, a, column)?
                .ok()?
                .computes_apart(),
            _ => None,
        }
    }

    /// The columns of the question's table over `types`: each of its
    /// [`types`](Question::types), but for a reduction, which takes one
    /// array, the `dtype=` it is asked with: without it, then each dtype
    /// (only the one asked where the call has one, none where the
    /// operation takes no `dtype=`).
    ///
    /// ```
    /// use dtype_lattice::design::table::{Column, Question, DOCS_TYPES};
    /// use dtype_lattice::{ArrayCall, ArrayOp, DType};
    ///
    /// let sum = Question::Array(ArrayCall::new(ArrayOp::Sum));
    /// let columns = sum.columns(&DOCS_TYPES);
    /// assert_eq!(columns.len(), 16); // no dtype=, then the 15 dtypes
    /// assert_eq!(columns[1], Column::Dtype(Some(DType::Bool)));
    /// let argmax = Question::Array(ArrayCall::new(ArrayOp::ArgMax));
    /// assert_eq!(argmax.columns(&DOCS_TYPES), [Column::Dtype(None)]);
    /// ```
    pub fn columns(self, types: &[TypeSpec]) -> Vec<Column> {
        match self {
            Question::Array(call) if call.op().family() == Family::Reduction => {
                let asked = Column::Dtype(call.dtype());
                if call.dtype().is_some() || !call.op().takes_dtype() {
                    return vec![asked];
                }
                let each = self.types(types).into_iter().filter_map(|t| match t {
                    TypeSpec::DType(d) => Some(Column::Dtype(Some(d))),
                    TypeSpec::Python(_) => None,
                });
                std::iter::once(asked).chain(each).collect()
            }
            _ => self.types(types).into_iter().map(Column::Type).collect(),
        }
    }

    /// Why `policy` has no table of this question: the operation takes one
    /// operand, or the policy does not model it (asked of two `int8`
    /// arrays); `None` where it has one. Every front end refuses a table
    /// with these words.
    ///
    /// ```
    /// use dtype_lattice::design::table::Question;
    /// use dtype_lattice::frameworks::jax::Jax;
    /// use dtype_lattice::Op;
    ///
    /// let why = Question::Op(Op::Sqrt).unanswered(&Jax::default()).unwrap();
    /// assert!(why.to_string().starts_with("sqrt takes one operand, so it has no table"));
    /// assert_eq!(Question::Op(Op::Add).unanswered(&Jax::default()), None);
    /// ```
    pub fn unanswered(self, policy: &dyn Policy) -> Option<Unanswered> {
        let (op, arity) = match self {
            Question::ResultType => return None,
            Question::Array(call) => {
                let probe = TypeSpec::DType(DType::Int8);
                let column = self.columns(&[probe])[0];
                return self.ask(policy, probe, column).is_none().then(|| {
                    Unanswered::ArrayOpNotModelled {
                        policy: policy.name(),
                        op: call.op(),
                    }
                });
            }
            Question::Op(op) => (Some(op), op.arity()),
            Question::Call(call) => (call.op(), call.arity()),
        };
        if let (Some(op), 1) = (op, arity) {
            return Some(Unanswered::NoTable(op));
        }
        let probe = TypeSpec::DType(DType::Int8);
        if self.ask(policy, probe, probe.into()).is_some() {
            return None;
        }
        Some(match (self, op) {
            (Question::Call(call), _) => policy.unanswered(call),
            (_, Some(op)) => Unanswered::NotModelled {
                policy: policy.name(),
                op,
            },
            (_, None) => return None,
        })
    }

    /// The types of `types` the question's table has as rows (and, but
    /// for a reduction, columns): all of them, but only the dtypes for an
    /// operation on whole arrays, which is asked of arrays (a table of Python scalars would ask `matmul(2, x)`, which
    /// the golden data does not check; `result-type --op` asks a Python
    /// scalar beside an array).
    pub fn types(self, types: &[TypeSpec]) -> Vec<TypeSpec> {
        match self {
            Question::Array(_) => types
                .iter()
                .copied()
                .filter(|t| matches!(t, TypeSpec::DType(_)))
                .collect(),
            _ => types.to_vec(),
        }
    }

    /// The operation asked, if any.
    pub fn op(self) -> Option<Operation> {
        match self {
            Question::ResultType => None,
            Question::Op(op) => Some(op.into()),
            Question::Call(call) => call.op().map(Operation::from),
            Question::Array(call) => Some(call.op().into()),
        }
    }

    /// The form asked, where one is: `None` for promotion and for each
    /// policy's default form.
    pub fn form(self) -> Option<OpForm> {
        match self {
            Question::Call(call) => Some(call.form()),
            _ => None,
        }
    }
}

/// Why `table --op OP --form FORM` asks nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuestionError {
    /// Python has no such call of an elementwise operation.
    Call(CallError),
    /// An operation on whole arrays is asked as its function only.
    FormOfArrayOp {
        /// The operation.
        op: ArrayOp,
        /// The form asked.
        form: OpForm,
    },
}

impl std::fmt::Display for QuestionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QuestionError::Call(err) => err.fmt(f),
            QuestionError::FormOfArrayOp { op, form } => write!(
                f,
                "{op} is asked as its function, not in form '{form}': leave the form out"
            ),
        }
    }
}

impl std::error::Error for QuestionError {}

/// The answer of `call` for the cell of row `a` and `column`: with an
/// array of each type (a pair's table), or for a reduction an array of
/// `a` with the column's `dtype=`.
fn array_outcome(
    call: ArrayCall,
    policy: &dyn Policy,
    a: TypeSpec,
    column: Column,
) -> Option<Result<Outcome, PromotionError>> {
    match column {
        Column::Type(b) => policy.array_op(&call, &arguments(Operation::Array(call.op()), &[a, b])),
        Column::Dtype(dtype) => {
            let call = match dtype {
                Some(dtype) => call.with_dtype(dtype).ok()?,
                None => call.without_dtype(),
            };
            policy.array_op(&call, &[value(a)])
        }
    }
}

/// An operand of an operation: an array of the dtype, or a Python scalar of
/// the type (not the dtype or type itself, which no operation takes).
pub fn value(spec: TypeSpec) -> Operand {
    Operand::from(spec).as_argument()
}

/// The operands an operation is asked with for `types`: an array of each
/// dtype (a Python scalar of each Python type), after `where`'s condition,
/// a `bool` array, which the types do not name.
///
/// ```
/// use dtype_lattice::design::table::arguments;
/// use dtype_lattice::{ArrayOp, DType, Operand, Operation, TypeSpec};
/// let int8 = TypeSpec::DType(DType::Int8);
/// let condition = Operand::array(DType::Bool, false);
/// assert_eq!(arguments(Operation::Array(ArrayOp::Where), &[int8, int8])[0], condition);
/// ```
pub fn arguments(operation: Operation, types: &[TypeSpec]) -> Vec<Operand> {
    let condition = (operation == Operation::Array(ArrayOp::Where))
        .then_some(Operand::array(DType::Bool, false));
    condition
        .into_iter()
        .chain(types.iter().map(|&t| value(t)))
        .collect()
}

/// Arrays of int8, which every framework has, as many as `op` usually
/// takes ([`ArrayOp::usual_operands`]; `where`'s condition a bool array):
/// what asks whether a policy models `op`.
pub fn probe(op: ArrayOp) -> Vec<Operand> {
    let types = vec![TypeSpec::DType(DType::Int8); op.usual_operands().min(2)];
    arguments(Operation::Array(op), &types)
}

/// `result_type` (or an operation) of every pair of a list of types under
/// one policy; a reduction of an array of each type with each `dtype=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The types of the rows.
    pub types: Vec<TypeSpec>,
    /// What the columns stand for: the same types, or a reduction's
    /// `dtype=` ([`Question::columns`]).
    pub columns: Vec<Column>,
    /// `cells[row][column]`: the policy's answer for the two.
    pub cells: Vec<Vec<Result<Typed, PromotionError>>>,
    /// What each cell asks.
    pub question: Question,
    /// `computes[row][column]`: the type the policy computes the cell in,
    /// where it says and that differs from the result (a second mark);
    /// empty when no cell has one.
    pub computes: Vec<Vec<Option<DType>>>,
}

impl Table {
    /// The table of `result_type` over pairs of `types` under `policy`.
    /// With a weak result labelled by its kind, for JAX this is the table
    /// of `lattice_result_type` its documentation prints.
    pub fn new(policy: &dyn Policy, types: &[TypeSpec]) -> Table {
        Table::of(policy, types, Question::ResultType).expect("every policy has result_type")
    }

    /// The table of `question` over `types` (rows, and [`Question::columns`]);
    /// `None` where the policy does not model the operation, or it is an
    /// elementwise one of one operand.
    pub fn of(policy: &dyn Policy, types: &[TypeSpec], question: Question) -> Option<Table> {
        let arity = match question {
            Question::ResultType | Question::Array(_) => 2,
            Question::Op(op) => op.arity(),
            Question::Call(call) => call.arity(),
        };
        if arity != 2 {
            return None;
        }
        let columns = question.columns(types);
        let types = &question.types(types)[..];
        let cells = types
            .iter()
            .map(|&a| {
                columns
                    .iter()
                    .map(|&b| question.ask(policy, a, b))
                    .collect()
            })
            .collect::<Option<_>>()?;
        let computes: Vec<Vec<Option<DType>>> = types
            .iter()
            .map(|&a| {
                columns
                    .iter()
                    .map(|&b| question.computes_in(policy, a, b))
                    .collect()
            })
            .collect();
        let any = computes.iter().flatten().any(Option::is_some);
        Some(Table {
            types: types.to_vec(),
            columns,
            cells,
            question,
            computes: if any { computes } else { Vec::new() },
        })
    }

    /// The sentence above the table: the policy with its settings, how to
    /// read a cell, and what a dtype becomes when the policy does not keep
    /// it alone (JAX without x64: `u8 gives uint32`).
    pub fn caption(&self, policy: &dyn Policy, labels: Labels) -> String {
        let label = |dtype| dtype_label(dtype, labels);
        let canonical: Vec<String> = canonicalized(policy, &self.types)
            .into_iter()
            .map(|(from, to)| format!("{} gives {}", label(from), to))
            .collect();
        let canonical = if canonical.is_empty() {
            String::new()
        } else {
            format!(" Taken alone, {}.", canonical.join(", "))
        };
        let what = match self.question {
            Question::ResultType => "the result type of each pair, row with column".to_owned(),
            Question::Op(op) => format!(
                "the type {op} of an array of the row's dtype and one of the column's gives \
                 (Python's types: a scalar of each)"
            ),
            Question::Call(call) if call.op().is_none() => "the dtype of x after x[...] = v, x an \
                array of the row's dtype, v one of the column's (Python's types: a scalar of each)"
                .to_owned(),
            Question::Call(call) => format!(
                "the type {call} gives, with a an array of the row's dtype and b one of the \
                 column's (Python's types: a scalar of each)"
            ),
            Question::Array(call) if call.op().family() == Family::Reduction => {
                let each = self.columns.len() > 1;
                let asked = if each {
                    call.without_dtype().written("a, dtype=...")
                } else {
                    call.written("a")
                };
                let columns = if each {
                    " and dtype= the column's (None: without it, the framework's own choice)"
                } else {
                    ""
                };
                format!(
                    "the type {asked} gives, with a an array of the row's dtype{columns}; a second \
                     label where it computes in another type"
                )
            }
            Question::Array(call) => {
                let written = match call.op() {
                    ArrayOp::Where => "where(c, a, b), c a bool array,",
                    ArrayOp::Clip => "clip(a, b)",
                    ArrayOp::FullLike => "full_like(a, b)",
                    ArrayOp::Concatenate | ArrayOp::Stack => "the sequence [a, b]",
                    _ => "the product of a and b",
                };
                format!(
                    "the type {call} gives for {written} with a an array of the row's dtype and \
                     b one of the column's; a second label where it computes in another type"
                )
            }
        };
        let fails = match self.question {
            Question::ResultType => "promotion fails",
            _ => "it raises",
        };
        format!(
            "{}: {what}; i*, f*, c* are weak (Python's int, float, complex), - where \
             {fails}.{canonical}",
            policy.name()
        )
    }

    /// The rows' labels.
    pub fn labels(&self, labels: Labels) -> Vec<String> {
        self.types.iter().map(|&t| type_label(t, labels)).collect()
    }

    /// The columns' labels ([`Column::label`]).
    pub fn column_labels(&self, labels: Labels) -> Vec<String> {
        self.columns.iter().map(|&c| c.label(labels)).collect()
    }

    /// A cell's label ([`result_label`]), `-` where promotion fails.
    ///
    /// # Panics
    ///
    /// If `row` is not below the number of rows or `column` below that of
    /// columns.
    pub fn cell_label(&self, row: usize, column: usize, labels: Labels) -> String {
        match &self.cells[row][column] {
            Ok(result) => result_label(*result, labels),
            Err(_) => "-".to_owned(),
        }
    }
}
