//! The floor the promotion benchmarks compare against: a plain indexed load
//! from a precomputed `[[u8; N]; N]` table of JAX's joins, per operand; and
//! how they use the library's answers.

use dtype_lattice::jax::{self, Jax, NODE_COUNT};
use dtype_lattice::{DType, Operand, OperandKind, PyScalar, TypeSpec};

/// Joins as bytes, `0` where there is none (the floor never reads those
/// cells; it only must not index out of bounds).
pub type Table = [[u8; NODE_COUNT]; NODE_COUNT];

/// The join table of `jax`'s lattice.
pub fn table(jax: Jax) -> Table {
    let lattice = jax.lattice();
    let mut table = [[0u8; NODE_COUNT]; NODE_COUNT];
    for (a, row) in table.iter_mut().enumerate() {
        for (b, cell) in row.iter_mut().enumerate() {
            *cell = lattice.join(a, b).map_or(0, |c| c as u8);
        }
    }
    table
}

/// The lattice node the floor reads for an operand: its dtype, or its
/// Python type's weak node.
pub fn node(operand: &Operand) -> u8 {
    let spec = match operand.kind() {
        OperandKind::DType(dtype)
        | OperandKind::ZeroDim(dtype)
        | OperandKind::Array { dtype, .. } => TypeSpec::DType(dtype),
        OperandKind::PyType(scalar) => TypeSpec::Python(scalar),
        OperandKind::PyInt(_) => TypeSpec::Python(PyScalar::Int),
        OperandKind::PyFloat(_) | OperandKind::None => TypeSpec::Python(PyScalar::Float),
        // Python bools, and any operand form added later, read as `bool`.
        _ => TypeSpec::DType(DType::Bool),
    };
    jax::node(spec) as u8
}

/// The floor of joining a list: one table load per operand after the first.
#[inline]
pub fn fold(table: &Table, nodes: &[u8]) -> u8 {
    nodes[1..]
        .iter()
        .fold(nodes[0], |acc, &x| table[usize::from(acc)][usize::from(x)])
}

/// Uses an answer the way a caller does: the value it needs on success, the
/// error on failure, whole (it is built in memory, then dropped).
/// `black_box` on the whole `Result` would instead time copying it through
/// the stack and the drop check that follows, which no caller pays once the
/// call is inlined.
#[inline(always)]
pub fn consume<T, E>(answer: Result<T, E>) {
    match answer {
        Ok(value) => {
            std::hint::black_box(value);
        }
        Err(error) => {
            std::hint::black_box(&error);
        }
    }
}
