//! JAX's type promotion: its lattices, its configuration and its rules.
//!
//! The lattices are data: each is an edge list written like the dict in
//! JAX's `dtypes.py`, compiled once (on first use) by the
//! [lattice engine](crate::engine). The rules after it - how operands
//! become lattice nodes, canonicalization under `jax_enable_x64`, weak
//! types - follow JAX 0.10.2's `jax._src.dtypes`.
//!
//! ```
//! use dtype_lattice::frameworks::jax::{Config, Jax, Promotion};
//! use dtype_lattice::{DType, Operand, PyScalar, Typed};
//!
//! let jax = Jax::default(); // x64 off, standard promotion: JAX's defaults
//! assert_eq!(jax.promote_types(DType::Int8, DType::UInt8), Ok(DType::Int16));
//! assert_eq!(jax.promote_types(DType::BFloat16, DType::Float16), Ok(DType::Float32));
//! assert_eq!(jax.promote_types(PyScalar::Int, PyScalar::Float), Ok(DType::Float64));
//!
//! // An int16 array plus a Python int stays int16...
//! let x = Operand::array(DType::Int16, false);
//! assert_eq!(jax.result_type(&[x, Operand::py_int(2)]), Ok(Typed::strong(DType::Int16)));
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
//!
//! # Cost
//!
//! The three lattices and the tables of the four configurations are built
//! once, together, by the first [`Jax::new`], and shared; each `Jax` value
//! carries a reference to its configuration's tables. After that
//! `promote_types`, `result_type`, `typed_result_type` and
//! `lattice_result_type` allocate nothing, whether they succeed or fail
//! (`tests/no_alloc.rs` checks it).
//! `promote_types` is a load from a table of answers, `result_type` of two
//! operands too; longer lists are read once, a table load per operand (an
//! [`Operand`]'s form is a number, read through one more table load). On a
//! dispatch path that keeps (dtype, weak) pairs for its arrays,
//! [`Jax::typed_result_type`] skips that load too.
//! BENCHMARKS.md has the numbers, against a bare table load.

use std::fmt;
use std::hash::{Hash, Hasher};

mod lattice;
mod rules;
mod tables;

use crate::policy::{Policy, TypedLattice};
use crate::types::{DType, Operand, OperandKind, PromotionError, PyScalar, TypeSpec, Typed};
use tables::{compiled, Input, Tables};

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

/// JAX's promotion rules under one [`Config`], with the tables that answer
/// them. Two values are equal when their configurations are.
#[derive(Clone, Copy)]
pub struct Jax {
    config: Config,
    /// This configuration's tables, found once by [`Jax::new`]: finding
    /// them on every call (a `OnceLock` check) doubled the cost of
    /// `promote_types` (BENCHMARKS.md).
    tables: &'static Tables,
}

impl Default for Jax {
    /// JAX's defaults: x64 off, standard promotion.
    fn default() -> Jax {
        Jax::new(Config::default())
    }
}

impl fmt::Debug for Jax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Jax").field("config", &self.config).finish()
    }
}

impl PartialEq for Jax {
    fn eq(&self, other: &Jax) -> bool {
        self.config == other.config
    }
}

impl Eq for Jax {}

impl Hash for Jax {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.config.hash(state);
    }
}

impl Jax {
    /// JAX's rules under `config`. The first call in a process builds
    /// JAX's lattices and their tables (about half a millisecond); after that
    /// this only finds them. The value carries them, so that no call needs
    /// to find them again: keep it rather than making one per call.
    pub fn new(config: Config) -> Jax {
        Jax {
            config,
            tables: &compiled().tables[config.index()],
        }
    }

    /// The configuration.
    pub const fn config(&self) -> Config {
        self.config
    }

    /// `canonicalize_dtype`: without x64, 64-bit types become their 32-bit
    /// counterparts; with it, every dtype is its own.
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType};
    /// assert_eq!(Jax::default().canonicalize_dtype(DType::Complex128), DType::Complex64);
    /// ```
    #[inline]
    pub const fn canonicalize_dtype(&self, dtype: DType) -> DType {
        self.config.canonicalize_dtype(dtype)
    }

    /// The dtype of a Python scalar of this type, and the default dtype of
    /// a weakly-typed value of that kind: `int64` / `float64` / `complex128`
    /// with x64, `int32` / `float32` / `complex64` without; `bool` always.
    pub const fn default_dtype(&self, scalar: PyScalar) -> DType {
        self.config.default_dtype(scalar)
    }

    /// The default unsigned integer dtype: `uint64` with x64, else `uint32`.
    pub const fn default_uint_dtype(&self) -> DType {
        self.config.default_uint_dtype()
    }

    /// The (dtype, weak) pair [`result_type`](Self::result_type) reads from
    /// an operand (JAX's `_dtype_and_weaktype`, with a dtype specifier
    /// canonicalized and a Python type or value given its default dtype);
    /// what [`typed_result_type`](Self::typed_result_type) takes. Unlike
    /// [`asarray`](Self::asarray) it never fails: `result_type` does not
    /// check a Python int's range.
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType, Operand, PyScalar, Typed};
    /// let jax = Jax::default();
    /// assert_eq!(jax.dtype_and_weak_type(Operand::py_int(1 << 40)), Typed::weak(DType::Int32));
    /// assert_eq!(jax.dtype_and_weak_type(Operand::dtype(DType::Float64)), Typed::strong(DType::Float32));
    /// assert_eq!(jax.dtype_and_weak_type(PyScalar::Complex.into()), Typed::weak(DType::Complex64));
    /// ```
    pub fn dtype_and_weak_type(&self, operand: Operand) -> Typed {
        let (dtype, weak) = self.config.dtype_and_weak(&operand);
        Typed { dtype, weak }
    }

    /// The type of `jnp.asarray(value)`: for a Python scalar value, its
    /// default dtype (weak for int and float), with JAX's `OverflowError`
    /// when an int does not fit; any other operand's own (dtype, weak) pair.
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType, Operand, Typed};
    /// let jax = Jax::default();
    /// assert_eq!(jax.asarray(Operand::py_int(7)), Ok(Typed::weak(DType::Int32)));
    /// let err = jax.asarray(Operand::py_int(1 << 40)).unwrap_err();
    /// assert_eq!(err.to_string(), "Python int 1099511627776 too large to convert to int32");
    /// ```
    pub fn asarray(&self, value: Operand) -> Result<Typed, PromotionError> {
        let (dtype, weak) = self.config.dtype_and_weak(&value);
        if let OperandKind::PyInt(value) = value.kind() {
            let fits = dtype
                .iinfo()
                .is_ok_and(|info| (info.min..=info.max).contains(&value));
            if !fits {
                return Err(PromotionError::IntOverflow { value, dtype });
            }
        }
        Ok(Typed { dtype, weak })
    }

    /// `jnp.promote_types(a, b)`: the join of two types. A weak result is
    /// reported as its Python type's 64-bit dtype whatever x64 says, and
    /// nothing is canonicalized.
    #[inline]
    pub fn promote_types(
        &self,
        a: impl Into<TypeSpec>,
        b: impl Into<TypeSpec>,
    ) -> Result<DType, PromotionError> {
        let (a, b) = (a.into(), b.into());
        match self.tables.promotions.get(a, b) {
            Some(dtype) => Ok(dtype),
            None => Err(self.config.no_path_between(a, b)),
        }
    }

    /// `jax._src.dtypes._lattice_result_type`: the (dtype, weak) result of an
    /// operation, before weak results are given a concrete default.
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType, Operand, Typed};
    /// let weak = |dtype| Operand::array(dtype, true);
    /// let jax = Jax::default();
    /// assert_eq!(
    ///     jax.lattice_result_type(&[weak(DType::Int16), weak(DType::Int8)]),
    ///     Ok(Typed::weak(DType::Int16))
    /// );
    /// ```
    #[inline]
    pub fn lattice_result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let (config, automaton) = (&self.config, &self.tables.automaton);
        // One or two operands read their answer from a table, as in
        // `result_type`; `None`, which this rejects, and failures take the
        // general path.
        if let Some(typed) = self
            .tables
            .lattice_short
            .get(&automaton.decode, operands, true)
        {
            return Ok(typed);
        }
        let Some(reading) = config.read(automaton, operands, true) else {
            return Err(PromotionError::NothingToJoin);
        };
        if reading.has_none {
            return Err(PromotionError::NoneOperand);
        }
        config.apply_rules(automaton, &reading, operands, false)
    }

    /// `jax.dtypes.result_type(*operands, return_weak_type_flag=True)`: like
    /// [`lattice_result_type`](Self::lattice_result_type), but a weak result
    /// takes the default dtype of its kind.
    ///
    /// JAX 0.10.2 raises `KeyError` for a weak sub-byte integer result here;
    /// this gives the default integer dtype of its signedness instead.
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType, Operand, Typed};
    /// let weak_int16 = Operand::array(DType::Int16, true);
    /// assert_eq!(Jax::default().result_type(&[weak_int16]), Ok(Typed::weak(DType::Int32)));
    /// ```
    #[inline]
    pub fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        self.result_type_of(operands)
    }

    /// [`result_type`](Self::result_type) of values already read as JAX
    /// reads every operand: a dtype and a weak flag, as an array library
    /// keeps them for its arrays. The rules and answers are the same; only
    /// the table load that reads an [`Operand`]'s form is skipped.
    ///
    /// [`Jax::dtype_and_weak_type`] gives the pair for any operand, Python
    /// scalars included (a Python `2` is a weak value of the default int
    /// dtype).
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType, Operand, Typed};
    /// let jax = Jax::default();
    /// let two = jax.dtype_and_weak_type(Operand::py_int(2));
    /// assert_eq!(two, Typed::weak(DType::Int32));
    /// let x = Typed::strong(DType::Int8);
    /// assert_eq!(jax.typed_result_type(&[x, two]), Ok(Typed::strong(DType::Int8)));
    /// assert_eq!(
    ///     jax.typed_result_type(&[x, two]),
    ///     jax.result_type(&[Operand::array(DType::Int8, false), Operand::py_int(2)])
    /// );
    /// ```
    #[inline]
    pub fn typed_result_type(&self, values: &[Typed]) -> Result<Typed, PromotionError> {
        self.result_type_of(values)
    }

    /// One or two operands, the shapes of unary and binary operations,
    /// read their answer from [`ShortLists`]; longer lists, and pairs
    /// without an answer (for the error), take the general path.
    //
    // Always inlined, with the reading and the rules: the answer then never
    // goes through memory, and a caller's branch on it folds into the rules.
    #[inline(always)]
    fn result_type_of<T: Input>(&self, operands: &[T]) -> Result<Typed, PromotionError> {
        let config = &self.config;
        match self
            .tables
            .short
            .get(&self.tables.automaton.decode, operands, false)
        {
            Some(typed) => Ok(typed),
            None => config.general_result_type(&self.tables.automaton, operands),
        }
    }

    /// `jax._src.dtypes.safe_to_cast`: whether `input` can be cast to
    /// `output` without leaving the promotion lattice's order, i.e. whether
    /// promoting the two gives `output`.
    pub fn safe_to_cast(&self, input: Operand, output: DType) -> Result<bool, PromotionError> {
        let (dtype, _) = self.config.dtype_and_weak(&input);
        let output = self.canonicalize_dtype(output);
        if dtype == output {
            return Ok(true);
        }
        Ok(self.result_type(&[input, Operand::dtype(output)])?.dtype == output)
    }
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

    /// The lattice in force (standard with or without x64, or strict), its
    /// weak nodes standing for their Python types' default dtypes. Built on
    /// first use, then shared.
    fn lattice(&self) -> Option<&TypedLattice> {
        Some(&compiled().lattices[self.config.index()])
    }

    fn lattice_result_type(&self, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(Jax::lattice_result_type(self, operands))
    }
}

#[cfg(test)]
mod tests {
    use super::lattice::{node_label, NODE_COUNT, STANDARD, UINT32_X32, UINT32_X64};
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
    fn the_automata_fit_their_tables() {
        for jax in all_configs() {
            let automaton = &jax.tables.automaton;
            let states = automaton.start.iter().chain(&automaton.next).max();
            let states = usize::from(*states.unwrap()) + 1;
            eprintln!("{}: {states} states", jax.name());
            assert!(states < 128, "{}: {states} states", jax.name());
        }
    }

    /// JAX's `promote_types` reads every type but `int`, `float` and
    /// `complex` with `np.dtype`, so Python's `bool` is the `bool` dtype,
    /// errors included (conformance/generate_jax.py checks this against
    /// real JAX on every pair before it writes the golden file); the
    /// promotion table gives it a row of its own.
    #[test]
    fn python_bool_promotes_as_the_bool_dtype() {
        let (python, dtype) = (
            TypeSpec::Python(PyScalar::Bool),
            TypeSpec::DType(DType::Bool),
        );
        for jax in all_configs() {
            for other in TypeSpec::ALL {
                let expected = jax.promote_types(dtype, other);
                assert_eq!(jax.promote_types(python, other), expected, "{other}");
                assert_eq!(
                    jax.promote_types(other, python),
                    jax.promote_types(other, dtype)
                );
            }
        }
    }

    #[test]
    fn all_three_lattices_compile() {
        for jax in all_configs() {
            assert_eq!(
                Policy::lattice(&jax).unwrap().len(),
                NODE_COUNT,
                "{}",
                jax.name()
            );
        }
    }
}
