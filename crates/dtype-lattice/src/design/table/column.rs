//! What a table's column stands for ([`Column`]): the second operand's
//! type, or a reduction's `dtype=`.

use super::{dtype_label, type_label, Labels};
use crate::types::{DType, TypeSpec};

/// What a table's column stands for: the second operand's type, or in
/// the table of a reduction (which takes one array) the `dtype=` the
/// row's array is reduced with.
///
/// ```
/// use dtype_lattice::design::table::{Column, Labels, Question, Table, DOCS_TYPES};
/// use dtype_lattice::frameworks::numpy::Numpy;
/// use dtype_lattice::{ArrayCall, ArrayOp, DType};
///
/// let sum = Question::Array(ArrayCall::new(ArrayOp::Sum));
/// let table = Table::of(&Numpy, &DOCS_TYPES, sum).unwrap();
/// assert_eq!(table.column_labels(Labels::Short)[..3], ["None", "b1", "u1"]);
/// // int8 (row 5) without dtype=: NumPy sums small integers in int64;
/// // with dtype=int16 (column 7), in int16.
/// assert_eq!(table.cells[5][0].as_ref().unwrap().dtype, DType::Int64);
/// assert_eq!(table.cells[5][7].as_ref().unwrap().dtype, DType::Int16);
/// assert_eq!(table.columns[7], Column::Dtype(Some(DType::Int16)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    /// An operand of the type: an array of the dtype, a Python scalar of
    /// the Python type (a value, as a row's).
    Type(TypeSpec),
    /// A reduction's `dtype=`; `None` without it (the framework's own
    /// choice).
    Dtype(Option<DType>),
}

impl Column {
    /// The column's label in the chosen style; `None` for a reduction
    /// without `dtype=`, as Python writes the default.
    pub fn label(self, labels: Labels) -> String {
        match self {
            Column::Type(spec) => type_label(spec, labels),
            Column::Dtype(Some(dtype)) => dtype_label(dtype, labels),
            Column::Dtype(None) => "None".to_owned(),
        }
    }

    /// The dtype the column names, if any.
    pub fn dtype(self) -> Option<DType> {
        match self {
            Column::Type(TypeSpec::DType(dtype)) | Column::Dtype(Some(dtype)) => Some(dtype),
            _ => None,
        }
    }
}

impl From<TypeSpec> for Column {
    fn from(spec: TypeSpec) -> Column {
        Column::Type(spec)
    }
}

impl std::fmt::Display for Column {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Column::Type(spec) => spec.fmt(f),
            Column::Dtype(Some(dtype)) => dtype.fmt(f),
            Column::Dtype(None) => f.write_str("None"),
        }
    }
}
