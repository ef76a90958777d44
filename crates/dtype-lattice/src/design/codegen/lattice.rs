//! A lattice file's tables: its nodes are the types, a cell is the join of
//! two, and a pair without one carries the error `explain` gives it (JAX's
//! rules' where the nodes stand for types, else why there is no join).

use std::fmt;

use super::{Builder, Cell, CodeTable, Codegen, CodegenError, ErrorEntry};
use crate::design::explain::Report;
use crate::design::Definition;
use crate::engine::{Bound, GraphError};

/// Why a lattice file has no tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LatticeCodegenError {
    /// Its edges are no partial order (a cycle, an edge to itself).
    Graph {
        /// The file's `name`.
        name: String,
        /// Why.
        error: GraphError,
    },
    /// An operation was asked of it: a graph has only promotion.
    Operation(String),
    /// More nodes than a generated table holds ([`MAX_NODES`]).
    TooManyNodes(usize),
}

/// The most nodes a lattice file's table is generated for: its cells grow
/// as the square (a million here, some megabytes of source).
pub const MAX_NODES: usize = 1024;

impl fmt::Display for LatticeCodegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LatticeCodegenError::Graph { name, error } => write!(
                f,
                "{name} has no promotion tables: {error}; `dtype-lattice check` on the file \
                 shows the whole story"
            ),
            LatticeCodegenError::TooManyNodes(n) => write!(
                f,
                "a table of {n} nodes would have {} cells; codegen writes lattices of at most \
                 {MAX_NODES} nodes",
                n * n
            ),
            LatticeCodegenError::Operation(op) => write!(
                f,
                "a lattice file has only its promotion table, not {op}'s: leave out --op, or \
                 generate a built-in policy's (--policy NAME)"
            ),
        }
    }
}

impl std::error::Error for LatticeCodegenError {}

impl Codegen {
    /// The promotion table of a lattice file (or any graph): every node an
    /// operand and a possible result (weak where the node is), a cell the
    /// join of its row and column.
    ///
    /// ```
    /// use dtype_lattice::design::codegen::{Cell, Codegen};
    /// use dtype_lattice::design::{Definition, DictSpec};
    ///
    /// let edges = [
    ///     ("bool", vec!["int8", "uint8"]),
    ///     ("int8", vec!["int16"]),
    ///     ("uint8", vec!["int16"]),
    /// ];
    /// let spec = DictSpec { name: "sketch", edges: &edges, dtypes: &[], weak: &[] };
    /// let graph = Definition::from_dict(&spec).unwrap();
    /// let tables = Codegen::of_definition(&graph).unwrap();
    /// let names: Vec<&str> = tables.dtypes.iter().map(|t| t.name.as_str()).collect();
    /// let (int8, uint8, int16) = (1, 2, 3);
    /// assert_eq!(names[int8], "int8");
    /// assert_eq!(tables.tables[0].cells[int8][uint8], Cell::Ok { dtype: int16, weak: false });
    /// ```
    pub fn of_definition(definition: &Definition) -> Result<Codegen, CodegenError> {
        let graph_error = |error| {
            CodegenError::Lattice(LatticeCodegenError::Graph {
                name: definition.name.clone(),
                error,
            })
        };
        let poset = definition.poset().map_err(graph_error)?;
        let n = poset.len();
        if n > MAX_NODES {
            return Err(CodegenError::Lattice(LatticeCodegenError::TooManyNodes(n)));
        }
        let mut builder = Builder::default();
        let mut cells = Vec::with_capacity(n);
        for a in 0..n {
            let mut row = Vec::with_capacity(n);
            for b in 0..n {
                row.push(match poset.least_upper_bound(a, b) {
                    Bound::Least(join) => Cell::Ok {
                        dtype: join,
                        weak: definition.nodes[join].weak,
                    },
                    _ => Cell::Err(builder.error(no_join(definition, &poset, a, b))?),
                });
            }
            cells.push(row);
        }
        Ok(Codegen {
            subject: definition.name.clone(),
            dtypes: super::names::label_names(poset.labels().iter().map(String::as_str)),
            scalars: Vec::new(),
            errors: builder.errors,
            tables: vec![CodeTable {
                name: "promote".to_owned(),
                camel: String::new(),
                rows: (0..n).collect(),
                columns: (0..n).collect(),
                cells,
            }],
            unary: Vec::new(),
            reductions: Vec::new(),
        })
    }
}

/// The error of a pair without a join, as `explain` words it: the rules'
/// exception and message where it has them, else its outcome.
fn no_join(
    definition: &Definition,
    poset: &crate::engine::Poset,
    a: usize,
    b: usize,
) -> ErrorEntry {
    let labels = [poset.label(a), poset.label(b)];
    match Report::new(definition, poset, None, labels) {
        Ok(report) => match report.error {
            Some(err) => ErrorEntry {
                exception: err.python_type().to_owned(),
                message: err.to_string(),
            },
            None => ErrorEntry {
                exception: "LatticeError".to_owned(),
                message: report.outcome(),
            },
        },
        // Labels of the poset always resolve; kept as data all the same.
        Err(err) => ErrorEntry {
            exception: "LatticeError".to_owned(),
            message: err.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::DictSpec;

    #[test]
    fn a_lattice_past_the_limit_is_refused_before_any_cell() {
        let labels: Vec<String> = (0..=MAX_NODES).map(|i| format!("n{i}")).collect();
        let edges: Vec<(String, Vec<String>)> = labels
            .windows(2)
            .map(|pair| (pair[0].clone(), vec![pair[1].clone()]))
            .collect();
        let spec = DictSpec {
            name: "chain",
            edges: &edges,
            dtypes: &[],
            weak: &[],
        };
        let chain = Definition::from_dict(&spec).unwrap();
        let err = Codegen::of_definition(&chain).unwrap_err();
        assert_eq!(
            err,
            CodegenError::Lattice(LatticeCodegenError::TooManyNodes(MAX_NODES + 1))
        );
        assert!(err.to_string().contains("at most 1024 nodes"));
    }
}
