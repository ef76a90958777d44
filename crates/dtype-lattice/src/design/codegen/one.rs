//! The tables of one operand: an elementwise operation of one (`sqrt`,
//! `negative`) over the operand space, and a reduction (`sum`, `argmax`)
//! over the dtypes with each `dtype=`, with the type it computes in.
//!
//! A one-operand operation is asked as `table --op` asks a pair: of an
//! array of each dtype, then of a Python scalar of each type (`True`, `2`,
//! `2.0`, `2j`). A reduction's cells are its design [`Table`]'s: rows the
//! dtypes, columns `dtype=` absent then each dtype (only absent where the
//! operation takes no `dtype=`).

use std::fmt::Write as _;

use super::{names, Builder, Cell, CodegenError, ABSENT};
use crate::design::table::{value, Column, Question, Table};
use crate::policy::Policy;
use crate::types::{ArrayCall, DType, Op, TypeSpec, Unanswered};

/// The table of an elementwise operation of one operand.
///
/// ```
/// use dtype_lattice::design::codegen::{Cell, Codegen, Dtypes};
/// use dtype_lattice::design::table::Question;
/// use dtype_lattice::frameworks::numpy::Numpy;
/// use dtype_lattice::{DType, Op};
///
/// let only = Dtypes::Only(vec![DType::Int8, DType::Float16]);
/// let tables = Codegen::of_policy(&Numpy, &[Question::Op(Op::Sqrt)], &only).unwrap();
/// let sqrt = &tables.unary[0];
/// // sqrt of an int8 array is float16 (dtype 1) in NumPy.
/// assert_eq!(sqrt.cells[0], Some(Cell::Ok { dtype: 1, weak: false }));
/// assert_eq!(sqrt.codes()[0], Codegen::code(Cell::Ok { dtype: 1, weak: false }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnaryTable {
    /// The operation's name (`sqrt`).
    pub name: String,
    /// Its Rust identifier (`Sqrt`).
    pub camel: String,
    /// By operand index (the dtypes, then the scalars): the cell, `None`
    /// where the policy does not answer for that operand.
    pub cells: Vec<Option<Cell>>,
}

impl UnaryTable {
    /// Each operand's cell code ([`Codegen::code`](super::Codegen::code)),
    /// [`ABSENT`] where the policy gives none.
    pub fn codes(&self) -> Vec<u16> {
        self.cells
            .iter()
            .map(|cell| cell.map_or(ABSENT, super::Codegen::code))
            .collect()
    }
}

/// The table of a reduction: an array of each dtype reduced without
/// `dtype=` and with each.
///
/// ```
/// use dtype_lattice::design::codegen::{Cell, Codegen, Dtypes, ABSENT};
/// use dtype_lattice::design::table::Question;
/// use dtype_lattice::frameworks::numpy::Numpy;
/// use dtype_lattice::{ArrayCall, ArrayOp, DType};
///
/// let only = Dtypes::Only(vec![DType::Int8, DType::Int64]);
/// let sum = Question::Array(ArrayCall::new(ArrayOp::Sum));
/// let tables = Codegen::of_policy(&Numpy, &[sum], &only).unwrap();
/// let grid = tables.reductions[0].grid(2);
/// // NumPy sums int8 (row 0) in int64 (dtype 1) without dtype= (column 0),
/// // and in int8 with dtype=int8 (column 1).
/// assert_eq!(grid[0][0], Codegen::code(Cell::Ok { dtype: 1, weak: false }));
/// assert_eq!(grid[0][1], Codegen::code(Cell::Ok { dtype: 0, weak: false }));
/// // argmax takes no dtype=: only its first column has cells.
/// let argmax = Question::Array(ArrayCall::new(ArrayOp::ArgMax));
/// let tables = Codegen::of_policy(&Numpy, &[argmax], &only).unwrap();
/// assert_eq!(tables.reductions[0].grid(2)[0][1], ABSENT);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReductionTable {
    /// The reduction's name (`sum`).
    pub name: String,
    /// Its Rust identifier (`Sum`).
    pub camel: String,
    /// The `dtype=` of each column: `None` without it, else an index
    /// into [`Codegen::dtypes`](super::Codegen::dtypes).
    pub columns: Vec<Option<usize>>,
    /// `cells[a][column]`, `a` a dtype's index.
    pub cells: Vec<Vec<Cell>>,
    /// `computes[a][column]`: the dtype (an index) the framework computes
    /// in, where it says and it differs from the result's; `None` also
    /// where that dtype is not one of the generated ones.
    pub computes: Vec<Vec<Option<usize>>>,
}

impl ReductionTable {
    /// The cells as a full grid `grid[a][d]`, `d` 0 without `dtype=` and
    /// one more than the dtype's index with it; [`ABSENT`] where the
    /// reduction takes no such `dtype=`. `n` is the number of dtypes.
    pub fn grid(&self, n: usize) -> Vec<Vec<u16>> {
        self.spread(n, |row, column| {
            let cell = self.cells.get(row)?.get(column)?;
            Some(super::Codegen::code(*cell))
        })
    }

    /// The computation dtypes likewise: a dtype's index, [`ABSENT`] where
    /// none is given.
    pub fn computes_grid(&self, n: usize) -> Vec<Vec<u16>> {
        self.spread(n, |row, column| {
            // A dtype index fits: `Builder` refuses more than 15 bits of them.
            let dtype = (*self.computes.get(row)?.get(column)?)?;
            Some(dtype as u16)
        })
    }

    /// An `n` by `n + 1` grid of `code(row, column)` for each of the
    /// table's columns, put in its `dtype=`'s slot. Out of the grid, a
    /// cell has nowhere to go.
    fn spread(&self, n: usize, code: impl Fn(usize, usize) -> Option<u16>) -> Vec<Vec<u16>> {
        let mut grid = vec![vec![ABSENT; n.saturating_add(1)]; n];
        for (row, slots) in grid.iter_mut().enumerate().take(self.cells.len()) {
            for (column, dtype) in self.columns.iter().enumerate() {
                let slot = dtype.map_or(Some(0), |d| d.checked_add(1));
                let cell = slot.and_then(|slot| slots.get_mut(slot));
                if let (Some(value), Some(cell)) = (code(row, column), cell) {
                    *cell = value;
                }
            }
        }
        grid
    }
}

/// Asks `policy` `op` of each operand of `types` (the dtypes, then the
/// scalars); refused where the policy does not model it, in the library's
/// words.
pub(super) fn unary(
    builder: &mut Builder,
    policy: &dyn Policy,
    op: Op,
    types: &[TypeSpec],
    dtypes: &[DType],
    only: bool,
) -> Result<UnaryTable, CodegenError> {
    let probe = TypeSpec::DType(DType::Int8);
    if policy.operation(op, &[value(probe)]).is_none() {
        return Err(CodegenError::Unanswered {
            what: op.to_string(),
            why: Unanswered::NotModelled {
                policy: policy.name(),
                op,
            }
            .to_string(),
        });
    }
    let mut cells = Vec::with_capacity(types.len());
    for &spec in types {
        cells.push(match policy.operation(op, &[value(spec)]) {
            Some(answer) => Some(builder.cell(&answer, dtypes, only)?),
            None => None,
        });
    }
    Ok(UnaryTable {
        name: op.to_string(),
        camel: names::camel(op.name()),
        cells,
    })
}

/// The reduction's design table over `types` as a [`ReductionTable`].
pub(super) fn reduction(
    builder: &mut Builder,
    policy: &dyn Policy,
    call: ArrayCall,
    types: &[TypeSpec],
    dtypes: &[DType],
    only: bool,
) -> Result<ReductionTable, CodegenError> {
    let question = Question::Array(call);
    let what = call.op().to_string();
    if let Some(why) = question.unanswered(policy) {
        return Err(CodegenError::Unanswered {
            what,
            why: why.to_string(),
        });
    }
    let Some(table) = Table::of(policy, types, question) else {
        return Err(CodegenError::Unanswered {
            why: format!("{} gave no table of {what}", policy.name()),
            what,
        });
    };
    let index = |dtype: DType| dtypes.iter().position(|&d| d == dtype);
    let columns = table
        .columns
        .iter()
        .map(|column| match column {
            Column::Dtype(dtype) => dtype.and_then(index),
            Column::Type(_) => None,
        })
        .collect();
    let mut cells = Vec::with_capacity(table.cells.len());
    for row in &table.cells {
        let mut out = Vec::with_capacity(row.len());
        for answer in row {
            out.push(builder.cell(answer, dtypes, only)?);
        }
        cells.push(out);
    }
    let computes = table
        .computes
        .iter()
        .map(|row| row.iter().map(|d| d.and_then(index)).collect())
        .collect();
    Ok(ReductionTable {
        name: what,
        camel: names::camel(call.op().name()),
        columns,
        cells,
        computes,
    })
}

/// How a language writes a nested table: a comment naming a block, and
/// the brackets of a block and of a row (Python ends a row with a comma,
/// so that a row of one number is still a tuple).
pub(super) struct Nesting {
    pub(super) comment: (&'static str, &'static str),
    pub(super) open: &'static str,
    pub(super) close: &'static str,
    pub(super) row_end: &'static str,
}

/// Writes each reduction's block of rows, `[a][d]`: its cells, or the
/// dtypes it computes in (`cells` false), as `nesting` writes tables.
pub(super) fn reduction_grids(
    out: &mut String,
    tables: &super::Codegen,
    n: usize,
    cells: bool,
    nesting: &Nesting,
) {
    let Nesting {
        comment: (before, after),
        open,
        close,
        row_end,
    } = nesting;
    for table in &tables.reductions {
        let rows = if cells {
            table.grid(n)
        } else {
            table.computes_grid(n)
        };
        let _ = writeln!(out, "    {before}{}{after}\n    {open}", table.name);
        for row in rows {
            let _ = writeln!(
                out,
                "        {open}{}{row_end}{close},",
                names::numbers(&row)
            );
        }
        let _ = writeln!(out, "    {close},");
    }
}
