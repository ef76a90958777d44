//! The floor the promotion benchmarks compare against: a plain indexed load
//! from a precomputed `[[u8; N]; N]` table of JAX's joins, per operand; and
//! how they use the library's answers.

use dtype_lattice::engine::Node;
use dtype_lattice::frameworks::jax::Jax;
use dtype_lattice::{DType, Operand, OperandKind, Policy, PyScalar, TypeSpec, Typed};

/// The nodes of JAX's lattices: JAX's 32 dtypes (all but PyTorch's
/// `complex32`) and `i*`, `f*`, `c*`.
pub const NODES: usize = DType::COUNT - 1 + 3;

/// Joins as bytes, `0` where there is none (the floor never reads those
/// cells; it only must not index out of bounds).
pub type Table = [[u8; NODES]; NODES];

/// The types that stand at JAX's lattice nodes, one per node: every
/// dtype JAX has, and Python's `int`, `float`, `complex` (its `bool` is the `bool`
/// dtype's node).
pub fn node_types() -> Vec<TypeSpec> {
    TypeSpec::ALL
        .into_iter()
        .filter(|&spec| {
            spec != TypeSpec::Python(PyScalar::Bool) && spec != TypeSpec::DType(DType::Complex32)
        })
        .collect()
}

/// The node of `jax`'s lattice where `spec` stands: a dtype's own node
/// (a specifier, before canonicalization), a Python type's weak node.
pub fn node_of(jax: &Jax, spec: TypeSpec) -> Node {
    let lattice = jax.lattice().expect("JAX is a lattice");
    let typed = match spec {
        TypeSpec::DType(dtype) => Typed::strong(dtype),
        TypeSpec::Python(_) => jax.dtype_and_weak_type(spec.into()),
    };
    lattice.node_of(typed).expect("every type has a node")
}

/// The join table of `jax`'s lattice.
pub fn table(jax: Jax) -> Table {
    let lattice = jax.lattice().expect("JAX is a lattice");
    assert_eq!(lattice.len(), NODES);
    let mut table = [[0u8; NODES]; NODES];
    for (a, row) in table.iter_mut().enumerate() {
        for (b, cell) in row.iter_mut().enumerate() {
            *cell = lattice.join(a, b).map_or(0, |c| c as u8);
        }
    }
    table
}

/// The lattice node the floor reads for an operand: its dtype, or its
/// Python type's weak node.
pub fn node(jax: &Jax, operand: &Operand) -> u8 {
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
    node_of(jax, spec) as u8
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
