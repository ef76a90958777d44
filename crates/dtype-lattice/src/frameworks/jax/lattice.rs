//! JAX's lattices as data: the edge list of `jax._src.dtypes`, written as
//! JAX writes its dict, and the numbering of the nodes (JAX's 32 dtypes,
//! then the weak types `i*`, `f*`, `c*`).

use crate::engine::Node;
use crate::prelude::*;
use crate::types::{DType, Kind, PyScalar, TypeSpec};

/// The standard lattice with x64 enabled, as "node -> nodes it may promote
/// to" (JAX's `_type_promotion_lattice`). Without x64 the only change is
/// the `uint32` row: see [`UINT32_X64`] and [`UINT32_X32`].
pub(super) const STANDARD: &[(&str, &[&str])] = &[
    ("bool", &["i*"]),
    (
        "i*",
        &[
            "uint8", "uint2", "uint4", "int8", "int2", "int4", "int1", "uint1",
        ],
    ),
    ("uint8", &["int16", "uint16"]),
    ("uint16", &["int32", "uint32"]),
    ("uint64", &["f*"]),
    ("int8", &["int16"]),
    ("int16", &["int32"]),
    ("int32", &["int64"]),
    ("int64", &["f*"]),
    (
        "f*",
        &[
            "float4_e2m1fn",
            "float6_e2m3fn",
            "float6_e3m2fn",
            "float8_e3m4",
            "float8_e4m3",
            "float8_e8m0fnu",
            "float8_e4m3b11fnuz",
            "float8_e4m3fn",
            "float8_e4m3fnuz",
            "float8_e5m2",
            "float8_e5m2fnuz",
            "bfloat16",
            "float16",
            "c*",
        ],
    ),
    ("bfloat16", &["float32"]),
    ("float16", &["float32"]),
    ("float32", &["float64", "complex64"]),
    ("float64", &["complex128"]),
    ("c*", &["complex64"]),
    ("complex64", &["complex128"]),
];

/// `uint32`'s successors with x64: a mix with a signed type needs 64 bits.
pub(super) const UINT32_X64: (&str, &[&str]) = ("uint32", &["int64", "uint64"]);

/// `uint32`'s successors without x64, where there is no 64-bit type to go
/// to: JAX accepts `int32` there.
pub(super) const UINT32_X32: (&str, &[&str]) = ("uint32", &["int32", "uint64"]);

/// The strict lattice: each weak type promotes to its own kind's types and to
/// the next weak type; strong types promote to nothing but themselves.
pub(super) fn strict_edges() -> Vec<(Node, Node)> {
    let (int, float, complex) = (
        weak_node(PyScalar::Int),
        weak_node(PyScalar::Float),
        weak_node(PyScalar::Complex),
    );
    let of_kind = |kinds: &'static [Kind], from: Node| {
        JAX_DTYPES
            .iter()
            .copied()
            .filter(move |d| kinds.contains(&d.kind()))
            .map(move |d| (from, d.index()))
    };
    of_kind(&[Kind::Unsigned, Kind::Signed], int)
        .chain(of_kind(&[Kind::Float], float))
        .chain(of_kind(&[Kind::Complex], complex))
        .chain([(int, float), (float, complex)])
        .collect()
}

/// JAX's dtypes: the first 32 of [`DType::ALL`] (PyTorch's `complex32`
/// comes after them), so that a dtype's node is its index.
pub(super) const JAX_DTYPES: &[DType] = DType::ALL.split_at(32).0;

/// Whether JAX has `dtype` (it lacks PyTorch's `complex32`).
pub(super) const fn is_jax_dtype(dtype: DType) -> bool {
    dtype.index() < JAX_DTYPES.len()
}

/// Number of lattice nodes: JAX's 32 dtypes, then `i*`, `f*`, `c*`.
pub(super) const NODE_COUNT: usize = JAX_DTYPES.len() + 3;

/// The lattice node of a type: a dtype's index, or 32..35 for the weak
/// types; [`NODE_COUNT`], which joins with nothing, for a dtype JAX lacks.
pub(super) fn node(spec: TypeSpec) -> Node {
    match spec {
        TypeSpec::DType(dtype) if is_jax_dtype(dtype) => dtype.index(),
        TypeSpec::DType(_) => NODE_COUNT,
        TypeSpec::Python(scalar) => weak_node(scalar),
    }
}

/// The type at a lattice node.
///
/// # Panics
///
/// If `node` is not below [`NODE_COUNT`].
pub(super) fn node_type(node: Node) -> TypeSpec {
    match JAX_DTYPES.get(node) {
        Some(&dtype) => TypeSpec::DType(dtype),
        None => TypeSpec::Python(
            [PyScalar::Int, PyScalar::Float, PyScalar::Complex][node - JAX_DTYPES.len()],
        ),
    }
}

pub(super) fn weak_node(scalar: PyScalar) -> Node {
    match scalar {
        PyScalar::Bool => DType::Bool.index(),
        PyScalar::Int => JAX_DTYPES.len(),
        PyScalar::Float => JAX_DTYPES.len() + 1,
        PyScalar::Complex => JAX_DTYPES.len() + 2,
    }
}

/// The label of a lattice node: the dtype name, or `i*`, `f*`, `c*`.
pub(super) fn node_label(node: Node) -> &'static str {
    match node_type(node) {
        TypeSpec::DType(dtype) => dtype.name(),
        TypeSpec::Python(scalar) => scalar.label(),
    }
}

pub(super) fn label_node(label: &str) -> Node {
    (0..NODE_COUNT)
        .find(|&n| node_label(n) == label)
        .unwrap_or_else(|| panic!("JAX lattice table names unknown node {label:?}"))
}

pub(super) fn standard_edges(x64: bool) -> Vec<(Node, Node)> {
    let uint32 = if x64 { UINT32_X64 } else { UINT32_X32 };
    STANDARD
        .iter()
        .chain([&uint32])
        .flat_map(|&(from, targets)| {
            targets
                .iter()
                .map(move |&to| (label_node(from), label_node(to)))
        })
        .collect()
}
