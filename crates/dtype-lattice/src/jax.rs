//! JAX's type promotion: its lattices, its configuration and its rules.
//!
//! The lattices are data: each is an edge list written like the dict in
//! JAX's `dtypes.py`, compiled once (on first use) by the
//! [lattice engine](crate::lattice). The rules after it - how operands
//! become lattice nodes, canonicalization under `jax_enable_x64`, weak
//! types - follow JAX 0.10.2's `jax._src.dtypes`.
//!
//! ```
//! use dtype_lattice::jax::{Config, Jax, Promotion};
//! use dtype_lattice::{DType, Operand, PyScalar, Typed};
//!
//! let jax = Jax::default(); // x64 off, standard promotion: JAX's defaults
//! assert_eq!(jax.promote_types(DType::Int8, DType::UInt8), Ok(DType::Int16));
//! assert_eq!(jax.promote_types(DType::BFloat16, DType::Float16), Ok(DType::Float32));
//! assert_eq!(jax.promote_types(PyScalar::Int, PyScalar::Float), Ok(DType::Float64));
//!
//! // An int16 array plus a Python int stays int16...
//! let x = Operand::Array { dtype: DType::Int16, weak: false };
//! assert_eq!(jax.result_type(&[x, Operand::PyInt(2)]), Ok(Typed::strong(DType::Int16)));
//! // ...and uint32 with int32 gives int32 without x64, int64 with it.
//! assert_eq!(jax.promote_types(DType::UInt32, DType::Int32), Ok(DType::Int32));
//! let x64 = Jax::new(Config { x64: true, ..Config::default() });
//! assert_eq!(x64.promote_types(DType::UInt32, DType::Int32), Ok(DType::Int64));
//!
//! // Strict promotion allows only weak-type promotions.
//! let strict = Jax::new(Config { promotion: Promotion::Strict, ..Config::default() });
//! assert!(strict.promote_types(DType::Float32, DType::Int32).is_err());
//! assert_eq!(strict.promote_types(DType::Float32, PyScalar::Float), Ok(DType::Float32));
//! ```

use std::sync::OnceLock;

use crate::dtype::{DType, Kind};
use crate::error::{NoPathReason, PromotionError};
use crate::lattice::{Lattice, Node};
use crate::operand::{Operand, PyScalar, TypeSpec};
use crate::policy::{Policy, Typed};

/// The standard lattice with x64 enabled, as "node -> nodes it may promote
/// to" (JAX's `_type_promotion_lattice`). Without x64 the only change is
/// the `uint32` row: see [`UINT32_X64`] and [`UINT32_X32`].
const STANDARD: &[(&str, &[&str])] = &[
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
const UINT32_X64: (&str, &[&str]) = ("uint32", &["int64", "uint64"]);

/// `uint32`'s successors without x64, where there is no 64-bit type to go
/// to: JAX accepts `int32` there.
const UINT32_X32: (&str, &[&str]) = ("uint32", &["int32", "uint64"]);

/// The strict lattice: each weak type promotes to its own kind's types and to
/// the next weak type; strong types promote to nothing but themselves.
fn strict_edges() -> Vec<(Node, Node)> {
    let (int, float, complex) = (
        weak_node(PyScalar::Int),
        weak_node(PyScalar::Float),
        weak_node(PyScalar::Complex),
    );
    let of_kind = |kinds: &'static [Kind], from: Node| {
        DType::ALL
            .into_iter()
            .filter(move |d| kinds.contains(&d.kind()))
            .map(move |d| (from, d.index()))
    };
    of_kind(&[Kind::Unsigned, Kind::Signed], int)
        .chain(of_kind(&[Kind::Float], float))
        .chain(of_kind(&[Kind::Complex], complex))
        .chain([(int, float), (float, complex)])
        .collect()
}

/// Number of lattice nodes: the 32 dtypes, then `i*`, `f*`, `c*`.
pub const NODE_COUNT: usize = DType::COUNT + 3;

/// The lattice node of a type: a dtype's index, or 32..35 for the weak types.
pub fn node(spec: TypeSpec) -> Node {
    match spec {
        TypeSpec::DType(dtype) => dtype.index(),
        TypeSpec::Python(scalar) => weak_node(scalar),
    }
}

/// The type at a lattice node.
///
/// # Panics
///
/// If `node` is not below [`NODE_COUNT`].
pub fn node_type(node: Node) -> TypeSpec {
    match DType::from_index(node) {
        Some(dtype) => TypeSpec::DType(dtype),
        None => TypeSpec::Python(
            [PyScalar::Int, PyScalar::Float, PyScalar::Complex][node - DType::COUNT],
        ),
    }
}

fn weak_node(scalar: PyScalar) -> Node {
    match scalar {
        PyScalar::Bool => DType::Bool.index(),
        PyScalar::Int => DType::COUNT,
        PyScalar::Float => DType::COUNT + 1,
        PyScalar::Complex => DType::COUNT + 2,
    }
}

/// The label of a lattice node: the dtype name, or `i*`, `f*`, `c*`.
pub fn node_label(node: Node) -> &'static str {
    match node_type(node) {
        TypeSpec::DType(dtype) => dtype.name(),
        TypeSpec::Python(scalar) => scalar.label(),
    }
}

fn label_node(label: &str) -> Node {
    (0..NODE_COUNT)
        .find(|&n| node_label(n) == label)
        .unwrap_or_else(|| panic!("JAX lattice table names unknown node {label:?}"))
}

fn compile(edges: Vec<(Node, Node)>) -> Lattice {
    let labels = (0..NODE_COUNT).map(node_label);
    Lattice::from_edges(labels, edges).expect("JAX's lattices are lattices (tested)")
}

fn standard_edges(x64: bool) -> Vec<(Node, Node)> {
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

/// Whether JAX promotes implicitly between types of different kinds
/// (`jax_numpy_dtype_promotion`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Promotion {
    /// JAX's default lattice.
    #[default]
    Standard,
    /// Only weak types promote implicitly.
    Strict,
}

impl Promotion {
    /// `standard` or `strict`, as JAX's flag spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Promotion::Standard => "standard",
            Promotion::Strict => "strict",
        }
    }
}

/// JAX's settings that affect promotion. The default is JAX's: x64
/// disabled, standard promotion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    /// `jax_enable_x64`: whether 64-bit types are kept.
    pub x64: bool,
    /// `jax_numpy_dtype_promotion`.
    pub promotion: Promotion,
}

/// JAX's promotion rules under one [`Config`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Jax {
    config: Config,
}

impl Jax {
    /// JAX's rules under `config`.
    pub const fn new(config: Config) -> Jax {
        Jax { config }
    }

    /// The configuration.
    pub const fn config(&self) -> Config {
        self.config
    }

    /// The lattice in force: standard with or without x64, or strict. Built
    /// on first use, then shared.
    pub fn lattice(&self) -> &'static Lattice {
        static X64: OnceLock<Lattice> = OnceLock::new();
        static X32: OnceLock<Lattice> = OnceLock::new();
        static STRICT: OnceLock<Lattice> = OnceLock::new();
        match (self.config.promotion, self.config.x64) {
            (Promotion::Strict, _) => STRICT.get_or_init(|| compile(strict_edges())),
            (Promotion::Standard, true) => X64.get_or_init(|| compile(standard_edges(true))),
            (Promotion::Standard, false) => X32.get_or_init(|| compile(standard_edges(false))),
        }
    }

    /// `canonicalize_dtype`: without x64, 64-bit types become their 32-bit
    /// counterparts; with it, every dtype is its own.
    ///
    /// ```
    /// use dtype_lattice::{jax::Jax, DType};
    /// assert_eq!(Jax::default().canonicalize_dtype(DType::Complex128), DType::Complex64);
    /// ```
    pub const fn canonicalize_dtype(&self, dtype: DType) -> DType {
        if self.config.x64 {
            return dtype;
        }
        match dtype {
            DType::Int64 => DType::Int32,
            DType::UInt64 => DType::UInt32,
            DType::Float64 => DType::Float32,
            DType::Complex128 => DType::Complex64,
            other => other,
        }
    }

    /// The dtype of a Python scalar of this type, and the default dtype of
    /// a weakly-typed value of that kind: `int64` / `float64` / `complex128`
    /// with x64, `int32` / `float32` / `complex64` without; `bool` always.
    pub const fn default_dtype(&self, scalar: PyScalar) -> DType {
        self.canonicalize_dtype(match scalar {
            PyScalar::Bool => DType::Bool,
            PyScalar::Int => DType::Int64,
            PyScalar::Float => DType::Float64,
            PyScalar::Complex => DType::Complex128,
        })
    }

    /// The default unsigned integer dtype: `uint64` with x64, else `uint32`.
    pub const fn default_uint_dtype(&self) -> DType {
        self.canonicalize_dtype(DType::UInt64)
    }

    /// The (dtype, weak) pair JAX derives from one operand, as
    /// `result_type` reads it (`None` is the default float dtype). Python
    /// ints are not range-checked here: JAX 0.10.2 checks them only when it
    /// makes them arrays (see [`asarray`](Self::asarray)).
    fn dtype_and_weak(&self, operand: &Operand) -> (DType, bool) {
        match *operand {
            Operand::DType(dtype) => (self.canonicalize_dtype(dtype), false),
            Operand::Array { dtype, weak } => (dtype, weak),
            Operand::ZeroDim(dtype) => (dtype, false),
            Operand::PyType(PyScalar::Bool) | Operand::PyBool(_) => (DType::Bool, false),
            Operand::PyType(scalar) => (self.default_dtype(scalar), true),
            Operand::PyInt(_) => (self.default_dtype(PyScalar::Int), true),
            Operand::PyFloat(_) => (self.default_dtype(PyScalar::Float), true),
            Operand::None => (self.default_dtype(PyScalar::Float), false),
        }
    }

    /// The type of `jnp.asarray(value)`: for a Python scalar value, its
    /// default dtype (weak for int and float), with JAX's `OverflowError`
    /// when an int does not fit; any other operand's own (dtype, weak) pair.
    ///
    /// ```
    /// use dtype_lattice::{jax::Jax, DType, Operand, Typed};
    /// let jax = Jax::default();
    /// assert_eq!(jax.asarray(Operand::PyInt(7)), Ok(Typed::weak(DType::Int32)));
    /// let err = jax.asarray(Operand::PyInt(1 << 40)).unwrap_err();
    /// assert_eq!(err.to_string(), "Python int 1099511627776 too large to convert to int32");
    /// ```
    pub fn asarray(&self, value: Operand) -> Result<Typed, PromotionError> {
        let (dtype, weak) = self.dtype_and_weak(&value);
        if let Operand::PyInt(value) = value {
            let fits = dtype
                .iinfo()
                .is_ok_and(|info| (info.min..=info.max).contains(&value));
            if !fits {
                return Err(PromotionError::IntOverflow { value, dtype });
            }
        }
        Ok(Typed { dtype, weak })
    }

    /// The dtype a lattice node stands for: a weak type's is its Python
    /// type's 64-bit dtype, canonicalized.
    fn node_dtype(&self, node: Node) -> DType {
        match node_type(node) {
            TypeSpec::DType(dtype) => self.canonicalize_dtype(dtype),
            TypeSpec::Python(scalar) => self.default_dtype(scalar),
        }
    }

    fn no_path(&self, nodes: impl Iterator<Item = Node>) -> PromotionError {
        let mut inputs: Vec<TypeSpec> = Vec::new();
        for spec in nodes.map(node_type) {
            if !inputs.contains(&spec) {
                inputs.push(spec);
            }
        }
        let reason = NoPathReason::for_inputs(self.config.promotion == Promotion::Strict, &inputs);
        PromotionError::NoPromotionPath { inputs, reason }
    }

    /// `jnp.promote_types(a, b)`: the join of two types. A weak result is
    /// reported as its Python type's 64-bit dtype whatever x64 says, and
    /// nothing is canonicalized.
    pub fn promote_types(
        &self,
        a: impl Into<TypeSpec>,
        b: impl Into<TypeSpec>,
    ) -> Result<DType, PromotionError> {
        let (a, b) = (node(a.into()), node(b.into()));
        match self.lattice().join(a, b) {
            Some(c) => Ok(match node_type(c) {
                TypeSpec::DType(dtype) => dtype,
                TypeSpec::Python(scalar) => Jax::new(Config {
                    x64: true,
                    ..self.config
                })
                .default_dtype(scalar),
            }),
            None => Err(PromotionError::NoPromotionPath {
                inputs: vec![node_type(a), node_type(b)],
                reason: NoPathReason::for_inputs(
                    self.config.promotion == Promotion::Strict,
                    &[node_type(a), node_type(b)],
                ),
            }),
        }
    }

    /// `jax._src.dtypes._lattice_result_type`: the (dtype, weak) result of an
    /// operation, before weak results are given a concrete default.
    ///
    /// ```
    /// use dtype_lattice::{jax::Jax, DType, Operand, Typed};
    /// let weak = |dtype| Operand::Array { dtype, weak: true };
    /// let jax = Jax::default();
    /// assert_eq!(
    ///     jax.lattice_result_type(&[weak(DType::Int16), weak(DType::Int8)]),
    ///     Ok(Typed::weak(DType::Int16))
    /// );
    /// ```
    pub fn lattice_result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        if operands.is_empty() {
            return Err(PromotionError::NothingToJoin);
        }
        if operands.contains(&Operand::None) {
            return Err(PromotionError::NoneOperand);
        }
        self.join_operands(operands)
    }

    /// The lattice result of a non-empty list of operands (`None` read as
    /// the default float dtype).
    fn join_operands(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let pairs = || operands.iter().map(|op| self.dtype_and_weak(op));
        let Some((first_dtype, first_weak)) = pairs().next() else {
            return Err(PromotionError::NoOperands);
        };
        let all_equal = pairs().all(|(dtype, _)| dtype == first_dtype);
        let all_weak = pairs().all(|(_, weak)| weak);
        let result = if operands.len() == 1 {
            Typed {
                dtype: first_dtype,
                weak: first_weak,
            }
        } else if all_equal && !all_weak {
            Typed::strong(first_dtype)
        } else if all_weak && self.config.promotion == Promotion::Standard {
            // Weak values among themselves promote as their dtypes do.
            let nodes = || pairs().map(|(dtype, _)| dtype.index());
            let joined = self
                .lattice()
                .join_all(nodes())
                .ok_or_else(|| self.no_path(nodes()))?;
            Typed::weak(self.node_dtype(joined))
        } else {
            let nodes = || pairs().map(|(dtype, weak)| weak_aware_node(dtype, weak));
            let joined = self
                .lattice()
                .join_all(nodes())
                .ok_or_else(|| self.no_path(nodes()))?;
            Typed {
                dtype: self.node_dtype(joined),
                weak: joined >= DType::COUNT,
            }
        };
        Ok(Typed {
            weak: result.weak && result.dtype != DType::Bool,
            ..result
        })
    }

    /// `jax.dtypes.result_type(*operands, return_weak_type_flag=True)`: like
    /// [`lattice_result_type`](Self::lattice_result_type), but a weak result
    /// takes the default dtype of its kind.
    ///
    /// JAX 0.10.2 raises `KeyError` for a weak sub-byte integer result here;
    /// this gives the default integer dtype of its signedness instead.
    ///
    /// ```
    /// use dtype_lattice::{jax::Jax, DType, Operand, Typed};
    /// let weak_int16 = Operand::Array { dtype: DType::Int16, weak: true };
    /// assert_eq!(Jax::default().result_type(&[weak_int16]), Ok(Typed::weak(DType::Int32)));
    /// ```
    pub fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let result = self.join_operands(operands)?;
        if !result.weak {
            return Ok(result);
        }
        Ok(Typed::weak(match result.dtype.kind() {
            Kind::Bool => DType::Bool,
            Kind::Signed => self.default_dtype(PyScalar::Int),
            Kind::Unsigned => self.default_uint_dtype(),
            Kind::Float => self.default_dtype(PyScalar::Float),
            Kind::Complex => self.default_dtype(PyScalar::Complex),
        }))
    }

    /// `jax._src.dtypes.safe_to_cast`: whether `input` can be cast to
    /// `output` without leaving the promotion lattice's order, i.e. whether
    /// promoting the two gives `output`.
    pub fn safe_to_cast(&self, input: Operand, output: DType) -> Result<bool, PromotionError> {
        let (dtype, _) = self.dtype_and_weak(&input);
        let output = self.canonicalize_dtype(output);
        if dtype == output {
            return Ok(true);
        }
        Ok(self.result_type(&[input, Operand::DType(output)])?.dtype == output)
    }
}

/// The node a (dtype, weak) pair joins at: a weak value's Python type (by
/// kind; `bfloat16` and the small floats count as float), a strong value's
/// own dtype. `bool` has no weak form.
fn weak_aware_node(dtype: DType, weak: bool) -> Node {
    if !weak {
        return dtype.index();
    }
    weak_node(match dtype.kind() {
        Kind::Bool => PyScalar::Bool,
        Kind::Signed | Kind::Unsigned => PyScalar::Int,
        Kind::Float => PyScalar::Float,
        Kind::Complex => PyScalar::Complex,
    })
}

impl Policy for Jax {
    fn name(&self) -> String {
        format!(
            "jax (x64 {}, {})",
            if self.config.x64 { "on" } else { "off" },
            self.config.promotion.name()
        )
    }

    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        Jax::promote_types(self, a, b)
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        Jax::result_type(self, operands)
    }

    fn lattice(&self) -> Option<&Lattice> {
        Some(Jax::lattice(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_configs() -> impl Iterator<Item = Jax> {
        [false, true].into_iter().flat_map(|x64| {
            [Promotion::Standard, Promotion::Strict]
                .into_iter()
                .map(move |promotion| Jax::new(Config { x64, promotion }))
        })
    }

    #[test]
    fn every_table_label_is_a_node() {
        for (from, targets) in STANDARD.iter().chain([&UINT32_X32, &UINT32_X64]) {
            for label in std::iter::once(from).chain(targets.iter()) {
                assert!((0..NODE_COUNT).any(|n| node_label(n) == *label), "{label}");
            }
        }
    }

    #[test]
    fn all_three_lattices_compile() {
        for jax in all_configs() {
            assert_eq!(jax.lattice().len(), NODE_COUNT, "{}", jax.name());
        }
    }
}
