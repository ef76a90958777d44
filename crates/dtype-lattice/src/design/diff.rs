//! Comparing two policies cell by cell, the way JAX's documentation compares
//! JAX with NumPy: a cell differs when the two `promote_types` answers
//! differ (every failure counts as the same answer), or when one of its
//! dtypes is native to one policy but not the other (the docs mark every
//! bfloat16 cell because "NumPy has none": NumPy has it only through
//! ml_dtypes).
//!
//! ```
//! use dtype_lattice::design::diff::differences;
//! use dtype_lattice::design::table::DOCS_TYPES;
//! use dtype_lattice::frameworks::jax::Jax;
//! use dtype_lattice::frameworks::numpy::Numpy;
//! use dtype_lattice::DType;
//!
//! let found = differences(&Jax::default(), &Numpy, &DOCS_TYPES);
//! // uint8 (row 1) with int8 (column 5) agree: int16.
//! assert!(!found.iter().any(|d| (d.row, d.column) == (1, 5)));
//! // int64 with float16 (row 8, column 10): JAX float16, NumPy float64.
//! let cell = found.iter().find(|d| (d.row, d.column) == (8, 10)).unwrap();
//! assert_eq!((cell.left, cell.right), (Some(DType::Float16), Some(DType::Float64)));
//! ```

use crate::design::table::{dtype_label, type_label, Column, Labels, Question};
use crate::policy::Policy;
use crate::types::{DType, TypeSpec};

/// One cell where two policies differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The row's position in the list of types compared.
    pub row: usize,
    /// The column's position in the list of types compared.
    pub column: usize,
    /// The first policy's `promote_types` answer (`None` where it fails).
    pub left: Option<DType>,
    /// The second policy's answer.
    pub right: Option<DType>,
    /// The cell's dtypes that one policy defines itself and the other does
    /// not, each with the one that does not (0 for `left`, 1 for `right`).
    pub not_native: Vec<(DType, usize)>,
}

/// Every cell over `types` (rows, then columns) where `left` and `right`
/// differ.
pub fn differences(left: &dyn Policy, right: &dyn Policy, types: &[TypeSpec]) -> Vec<Difference> {
    differences_in(left, right, types, Question::ResultType)
}

/// [`differences`] of the operation `question` asks (an array of each
/// dtype, a Python scalar of each Python type), where it asks one: a cell
/// differs when the two results' dtypes differ (a policy that does not
/// model the operation fails every cell). [`Question::ResultType`] compares
/// `promote_types`, as [`differences`] does.
///
/// ```
/// use dtype_lattice::design::diff::differences_in;
/// use dtype_lattice::design::table::DOCS_TYPES;
/// use dtype_lattice::frameworks::jax::{Config, Jax};
/// use dtype_lattice::design::table::Question;
/// use dtype_lattice::{DType, Op};
///
/// let x64 = Jax::new(Config { x64: true, ..Config::default() });
/// let divide = Question::Op(Op::TrueDivide);
/// let found = differences_in(&Jax::default(), &x64, &DOCS_TYPES, divide);
/// // int64 / int64 (row 8): an int32 array's float32 without x64, float64
/// // with it (int8 / int8 is float32 in both: JAX's own table).
/// assert!(!found.iter().any(|d| (d.row, d.column) == (5, 5)));
/// let cell = found.iter().find(|d| (d.row, d.column) == (8, 8)).unwrap();
/// assert_eq!((cell.left, cell.right), (Some(DType::Float32), Some(DType::Float64)));
/// ```
pub fn differences_in(
    left: &dyn Policy,
    right: &dyn Policy,
    types: &[TypeSpec],
    question: Question,
) -> Vec<Difference> {
    let policies = [left, right];
    let answers = policies.map(|policy| compared(policy, types, question));
    let columns = question.columns(types);
    let types = &question.types(types)[..];
    let mut found = Vec::new();
    for (row, &a) in types.iter().enumerate() {
        for (column, &b) in columns.iter().enumerate() {
            let mut dtypes: Vec<DType> = [Column::Type(a), b]
                .into_iter()
                .filter_map(Column::dtype)
                .collect();
            dtypes.dedup();
            let not_native: Vec<(DType, usize)> = dtypes
                .into_iter()
                .flat_map(|dtype| [(dtype, 0), (dtype, 1)])
                .filter(|&(dtype, side)| {
                    !policies[side].is_native(dtype) && policies[1 - side].is_native(dtype)
                })
                .collect();
            let [l, r] = answers.each_ref().map(|cells| cells[row][column]);
            if l != r || !not_native.is_empty() {
                found.push(Difference {
                    row,
                    column,
                    left: l,
                    right: r,
                    not_native,
                });
            }
        }
    }
    found
}

/// What [`differences_in`] compares of one policy, cell by cell over
/// `types` (rows, then [`Question::columns`]): the `promote_types` answer, or where
/// `question` asks an operation the dtype of its result; `None` where it
/// fails or the policy does not model the operation. A front end that holds two policies' answers
/// compares them as [`differences_in`] does, with [`Policy::is_native`].
///
/// ```
/// use dtype_lattice::design::diff::compared;
/// use dtype_lattice::design::table::{Question, DOCS_TYPES};
/// use dtype_lattice::frameworks::jax::Jax;
/// use dtype_lattice::DType;
///
/// // int64 with int64 (row 8): promote_types keeps int64 even without
/// // x64, where the table's result_type gives int32.
/// let cells = compared(&Jax::default(), &DOCS_TYPES, Question::ResultType);
/// assert_eq!(cells[8][8], Some(DType::Int64));
/// ```
pub fn compared(
    policy: &dyn Policy,
    types: &[TypeSpec],
    question: Question,
) -> Vec<Vec<Option<DType>>> {
    let columns = question.columns(types);
    let types = &question.types(types)[..];
    types
        .iter()
        .map(|&a| {
            columns
                .iter()
                .map(|&b| match (question, b) {
                    (Question::ResultType, Column::Type(b)) => policy.promote_types(a, b).ok(),
                    _ => match question.ask(policy, a, b) {
                        Some(Ok(typed)) => Some(typed.dtype),
                        _ => None,
                    },
                })
                .collect()
        })
        .collect()
}

/// The cells of a table where another policy differs, for marking them
/// as JAX's documentation marks where JAX departs from NumPy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellMarks {
    /// The other policy's name, as the user called it, for the legend.
    pub against: String,
    /// `cells[row][column]`: whether that cell differs.
    pub cells: Vec<Vec<bool>>,
}

impl CellMarks {
    /// The cells of the table over `types` (computed under `policy`) where
    /// `other`, called `name`, differs.
    pub fn new(
        policy: &dyn Policy,
        other: &dyn Policy,
        name: &str,
        types: &[TypeSpec],
    ) -> CellMarks {
        CellMarks::of(policy, other, name, types, Question::ResultType)
    }

    /// [`new`](CellMarks::new) for the table of `question`
    /// ([`differences_in`]).
    pub fn of(
        policy: &dyn Policy,
        other: &dyn Policy,
        name: &str,
        types: &[TypeSpec],
        question: Question,
    ) -> CellMarks {
        let size = question.types(types).len();
        let mut cells = vec![vec![false; question.columns(types).len()]; size];
        for d in differences_in(policy, other, types, question) {
            cells[d.row][d.column] = true;
        }
        CellMarks {
            against: name.to_owned(),
            cells,
        }
    }
}

/// Two policies compared over a list of types: what `diff` reports.
///
/// ```
/// use dtype_lattice::design::diff::Comparison;
/// use dtype_lattice::design::table::{Labels, DOCS_TYPES};
/// use dtype_lattice::frameworks::jax::Jax;
/// use dtype_lattice::frameworks::numpy::Numpy;
///
/// let diff = Comparison::new(["jax", "numpy"], [&Jax::default(), &Numpy], &DOCS_TYPES, Labels::Short);
/// assert!(diff.summary().ends_with("of 324 cells differ between jax and numpy"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The policies' names, as the user gave them.
    pub names: [String; 2],
    /// The labels of the rows compared.
    pub labels: Vec<String>,
    /// The labels of the columns: the rows' but for a reduction's table
    /// (its `dtype=`, [`Question::columns`]).
    pub column_labels: Vec<String>,
    /// How answers are written.
    pub label_style: Labels,
    /// The cells that differ, rows first.
    pub differences: Vec<Difference>,
    /// What was compared: promotion, or an operation (in a form).
    pub question: Question,
}

impl Comparison {
    /// Compares two policies over `types`; `names` are what the user
    /// called them.
    pub fn new(
        names: [&str; 2],
        policies: [&dyn Policy; 2],
        types: &[TypeSpec],
        label_style: Labels,
    ) -> Comparison {
        Comparison::of(names, policies, types, label_style, Question::ResultType)
    }

    /// [`new`](Comparison::new) for the operation `question` asks, on an
    /// array of each type ([`differences_in`]).
    pub fn of(
        names: [&str; 2],
        policies: [&dyn Policy; 2],
        types: &[TypeSpec],
        label_style: Labels,
        question: Question,
    ) -> Comparison {
        Comparison {
            names: names.map(str::to_owned),
            labels: question
                .types(types)
                .iter()
                .map(|&t| type_label(t, label_style))
                .collect(),
            column_labels: question
                .columns(types)
                .iter()
                .map(|&c| c.label(label_style))
                .collect(),
            label_style,
            differences: differences_in(policies[0], policies[1], types, question),
            question,
        }
    }

    /// A cell's answer as the report writes it: its label, `-` for a
    /// failed promotion.
    pub fn answer(&self, dtype: Option<DType>) -> String {
        dtype.map_or_else(|| "-".to_owned(), |d| dtype_label(d, self.label_style))
    }

    /// `N of M cells differ between A and B`.
    pub fn summary(&self) -> String {
        let cells = self.labels.len() * self.column_labels.len();
        let of = match self.question {
            Question::ResultType => String::new(),
            Question::Op(op) => format!(" of {op}"),
            Question::Call(call) => format!(" of {call}"),
            Question::Array(call) => format!(" of {call}"),
        };
        format!(
            "{} of {cells} cells{of} differ between {} and {}",
            self.differences.len(),
            self.names[0],
            self.names[1]
        )
    }
}
