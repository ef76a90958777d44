//! JAX's type promotion: its lattices, its configuration and its rules.
//!
//! The lattices are data: each is an edge list written like the dict in
//! JAX's `dtypes.py`, compiled once (on first use) by the
//! [lattice engine](crate::engine). The rules after it - how operands
//! become lattice nodes, canonicalization under `jax_enable_x64` and
//! `jax_explicit_x64_dtypes`, weak types - follow JAX 0.10.2's
//! `jax._src.dtypes`, which 0.12.0.1 keeps.
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
//! Without x64, a 64-bit dtype asked for by name is truncated to 32 bits
//! with a warning, refused, or kept, as [`ExplicitX64`] says:
//!
//! ```
//! use dtype_lattice::frameworks::jax::{Config, ExplicitX64, Jax};
//! use dtype_lattice::{DType, Operand, Typed};
//!
//! let bool_uint64 = [Operand::dtype(DType::Bool), Operand::dtype(DType::UInt64)];
//! let warn = Jax::default();
//! assert_eq!(warn.result_type(&bool_uint64), Ok(Typed::strong(DType::UInt32)));
//! assert_eq!(warn.result_type_warnings(&bool_uint64).len(), 1);
//! let allow = Jax::new(Config { explicit_x64: ExplicitX64::Allow, ..Config::default() });
//! assert_eq!(allow.result_type(&bool_uint64), Ok(Typed::strong(DType::UInt64)));
//! let error = Jax::new(Config { explicit_x64: ExplicitX64::Error, ..Config::default() });
//! assert_eq!(error.result_type(&bool_uint64).unwrap_err().python_type(), "ValueError");
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
//!
//! # Files
//!
//! `lattice.rs` holds the edge lists as JAX writes its dict; `promotion.rs`
//! canonicalization, operands, weak types and errors; the private
//! `tables.rs` the hot-path tables built from the rules. `ops.rs` holds
//! `jax.numpy`'s operations and `op_tables.rs` their hot-path tables;
//! [`lax`] is `jax.lax`: its policy, and in `lax/primitives.rs` the `lax`
//! primitives as both `jax.lax` and `jax.numpy`'s operations reach them.
//! `forms.rs` holds the operators, in place and `x[...] = v`;
//! `array_ops.rs` the reductions, contractions and combinations;
//! `explicit_x64.rs` the `jax_explicit_x64_dtypes` setting.

use crate::prelude::*;
use core::fmt;
use core::hash::{Hash, Hasher};

mod array_op_tables;
mod array_ops;
mod explicit_x64;
mod forms;
mod lattice;
pub mod lax;
mod op_tables;
mod ops;
mod promotion;
mod tables;

use crate::policy::{JaxFunctions, Policy, TypedLattice};
use crate::types::{
    ArrayCall, ArrayOp, DType, Op, OpForm, Operand, OperandKind, Outcome, PromotionError, PyScalar,
    TypeSpec, Typed, Warning, WarningKind,
};
pub use explicit_x64::{ExplicitX64, ParseExplicitX64Error};
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
/// disabled, standard promotion, explicit 64-bit requests truncated with a
/// warning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    /// `jax_enable_x64`: whether 64-bit types are kept.
    pub x64: bool,
    /// `jax_numpy_dtype_promotion`.
    pub promotion: Promotion,
    /// `jax_explicit_x64_dtypes`: what a 64-bit dtype requested explicitly
    /// becomes while x64 is off.
    pub explicit_x64: ExplicitX64,
}

impl Config {
    /// Every configuration: x64 off and on, standard and strict, each
    /// explicit-x64 mode.
    ///
    /// ```
    /// use dtype_lattice::frameworks::jax::Config;
    /// assert_eq!(Config::all().count(), 12);
    /// assert!(Config::all().any(|config| config == Config::default()));
    /// ```
    pub fn all() -> impl Iterator<Item = Config> {
        [false, true].into_iter().flat_map(|x64| {
            [Promotion::Standard, Promotion::Strict]
                .into_iter()
                .flat_map(move |promotion| {
                    ExplicitX64::ALL.map(|explicit_x64| Config {
                        x64,
                        promotion,
                        explicit_x64,
                    })
                })
        })
    }
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
    /// JAX's defaults: x64 off, standard promotion, explicit 64-bit
    /// requests truncated with a warning.
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
    /// check a Python int's range. A specifier under
    /// [`ExplicitX64::Allow`] keeps its 64-bit dtype; under
    /// [`ExplicitX64::Error`], where JAX refuses a 64-bit one (and
    /// `result_type` does), this gives what `warn` would read.
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
        if !lattice::is_jax_dtype(dtype) {
            return Err(promotion::lacks(dtype));
        }
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
            None => Err(match lacked_spec(a, b) {
                Some(dtype) => promotion::lacks(dtype),
                None => self.config.no_path_between(a, b),
            }),
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
        // `result_type` (one operand first); `None`, which this rejects,
        // and failures take the general path.
        if let [a] = operands {
            if let Some(typed) = a.single(&self.tables.lattice_short) {
                return Ok(typed);
            }
        }
        if let Some(typed) = self.tables.lattice_short.get(&automaton.decode, operands) {
            return Ok(typed);
        }
        let Some(reading) = config.read(automaton, operands, true) else {
            return Err(PromotionError::NothingToJoin);
        };
        if reading.has_none {
            return Err(config.none_operand(operands));
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
    /// read their answer from [`ShortLists`]; longer lists take the general
    /// path, and so do the short lists without an answer, out of line.
    //
    // Always inlined, with the reading and the rules: the answer then never
    // goes through memory, and a caller's branch on it folds into the rules.
    #[inline(always)]
    fn result_type_of<T: Input>(&self, operands: &[T]) -> Result<Typed, PromotionError> {
        // One operand first: a unary operation is then one comparison and
        // one load.
        if let [a] = operands {
            if let Some(typed) = a.single(&self.tables.short) {
                return Ok(typed);
            }
        }
        if operands.len() <= 2 {
            return match self
                .tables
                .short
                .get(&self.tables.automaton.decode, operands)
            {
                Some(typed) => Ok(typed),
                None => self.short_miss(operands),
            };
        }
        self.config
            .general_result_type(&self.tables.automaton, operands)
    }

    /// A list of one or two operands [`ShortLists`] has no answer for: an
    /// error, or a 64-bit request read while x64 is off. Kept out of line,
    /// so that the common path stays short (BENCHMARKS.md, "What was tried
    /// on the hot path").
    #[cold]
    #[inline(never)]
    fn short_miss<T: Input>(&self, operands: &[T]) -> Result<Typed, PromotionError> {
        self.config
            .general_result_type(&self.tables.automaton, operands)
    }

    /// `jnp.<op>(*operands)`'s result type (`jnp.true_divide`, `jnp.less`,
    /// `jnp.sqrt`, ...): the function's promotion, then what its `lax`
    /// primitive makes of the promoted type (`ops.rs`). A dtype operand
    /// stands for an array of it, a Python type for a scalar of it.
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, DType, Op, Operand, Typed};
    /// let jax = Jax::default();
    /// let x = Operand::array(DType::Int8, false);
    /// assert_eq!(jax.operation(Op::TrueDivide, &[x, x]), Ok(Typed::strong(DType::Float32)));
    /// assert_eq!(jax.operation(Op::Less, &[x, Operand::py_float(2.5)]), Ok(Typed::weak(DType::Bool)));
    /// let err = jax.operation(Op::Power, &[x, Operand::py_int(-1)]).unwrap_err();
    /// assert!(err.to_string().starts_with("Integers cannot be raised to negative powers"));
    /// ```
    #[inline]
    pub fn operation(&self, op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
        match op_tables::OpTables::of(self).get(op, operands) {
            Some(typed) => Ok(typed),
            None => self.operation_by_rules(op, operands),
        }
    }

    /// `jnp.sum`, `jnp.matmul`, `jnp.where`, ... with their keywords
    /// (`ArrayCall`): the result and the type the reduction or
    /// `dot_general` runs in (`array_ops.rs`), read from the
    /// configuration's tables where the call has no keywords
    /// (`array_op_tables.rs`).
    ///
    /// ```
    /// use dtype_lattice::{frameworks::jax::Jax, ArrayCall, ArrayOp, DType, Operand};
    /// let jax = Jax::default();
    /// let half = Operand::array(DType::Float16, false);
    /// let mean = jax.array_op(&ArrayCall::new(ArrayOp::Mean), &[half]).unwrap();
    /// assert_eq!((mean.result().dtype, mean.computes_in()), (DType::Float16, Some(DType::Float32)));
    /// ```
    #[inline]
    pub fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Result<Outcome, PromotionError> {
        match array_op_tables::ArrayOpTables::of(self).get(call, operands) {
            Some(outcome) => Ok(outcome),
            None => self.array_op_by_rules(call, operands),
        }
    }

    /// What the array-op tables leave to the rules: keywords, Python
    /// values, errors. Out of line, as for the elementwise operations.
    #[cold]
    #[inline(never)]
    fn array_op_by_rules(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Result<Outcome, PromotionError> {
        array_ops::array_op(self, *call, operands)
    }

    /// What the tables leave to the rules: errors, and the Python values
    /// that matter. Out of line, so that the table's path stays short.
    #[cold]
    #[inline(never)]
    fn operation_by_rules(&self, op: Op, operands: &[Operand]) -> Result<Typed, PromotionError> {
        ops::operation(self, op, operands)
    }

    /// `jax._src.dtypes.safe_to_cast`: whether `input` can be cast to
    /// `output` without leaving the promotion lattice's order, i.e. whether
    /// promoting the two gives `output`. `output` is a dtype specifier.
    pub fn safe_to_cast(&self, input: Operand, output: DType) -> Result<bool, PromotionError> {
        let config = &self.config;
        // JAX reads both before it compares them, so under `error` a
        // 64-bit output is refused even where the input is the same.
        let requests = [input, Operand::dtype(output)];
        let (dtype, _) = config.dtype_and_weak(&input);
        if let Some(lacked) = [dtype, output]
            .into_iter()
            .find(|&d| !lattice::is_jax_dtype(d))
        {
            return Err(promotion::lacks(lacked));
        }
        if let Some(dtype) = config.first_refused(&requests, false, false) {
            return Err(PromotionError::ExplicitX64Refused { dtype });
        }
        let (dtype, _) = config.dtype_and_weak(&input);
        let output = config.requested(output);
        if dtype == output {
            return Ok(true);
        }
        Ok(self.result_type(&[input, Operand::dtype(output)])?.dtype == output)
    }

    /// The warnings JAX issues for [`result_type`](Self::result_type) of
    /// `operands`, in its order: one per 64-bit dtype requested while x64
    /// is off under [`ExplicitX64::Warn`] (each specifier, then the join if
    /// 64-bit arrays meet at a 64-bit dtype), none otherwise. Kept apart
    /// from `result_type`, which stays a table load; this reads the
    /// operands again.
    ///
    /// ```
    /// use dtype_lattice::frameworks::jax::Jax;
    /// use dtype_lattice::{DType, Operand, Typed};
    ///
    /// let jax = Jax::default();
    /// let x = Operand::array(DType::Int64, false); // made while x64 was on
    /// let operands = [x, Operand::dtype(DType::Int8)];
    /// assert_eq!(jax.result_type(&operands), Ok(Typed::strong(DType::Int32)));
    /// let warnings = jax.result_type_warnings(&operands);
    /// assert_eq!(
    ///     warnings[0].message,
    ///     "Explicitly requested dtype int64 requested in dtype is not available, and will be \
    ///      truncated to dtype int32. To enable more dtypes, set the jax_enable_x64 \
    ///      configuration option or the JAX_ENABLE_X64 shell environment variable. See \
    ///      https://github.com/jax-ml/jax#current-gotchas for more."
    /// );
    /// assert!(jax.result_type_warnings(&[Operand::dtype(DType::Int8)]).is_empty());
    /// ```
    pub fn result_type_warnings(&self, operands: &[Operand]) -> Vec<Warning> {
        self.warnings(&[(operands, true)], false)
    }

    /// The warnings JAX issues for
    /// [`lattice_result_type`](Self::lattice_result_type) of `operands`: as
    /// [`result_type_warnings`](Self::result_type_warnings), except that
    /// nothing after a `None` is read (JAX raises there).
    pub fn lattice_result_type_warnings(&self, operands: &[Operand]) -> Vec<Warning> {
        self.warnings(&[(operands, true)], true)
    }

    /// The warnings JAX issues for [`safe_to_cast`](Self::safe_to_cast):
    /// it reads `input` and `output`, then, unless they are one dtype,
    /// takes `result_type` of `input` and the output it read, so a 64-bit
    /// specifier as input warns twice.
    ///
    /// ```
    /// use dtype_lattice::frameworks::jax::Jax;
    /// use dtype_lattice::{DType, Operand};
    ///
    /// let jax = Jax::default();
    /// assert_eq!(jax.safe_to_cast(Operand::dtype(DType::Int64), DType::Int8), Ok(false));
    /// assert_eq!(jax.safe_to_cast_warnings(Operand::dtype(DType::Int64), DType::Int8).len(), 2);
    /// ```
    pub fn safe_to_cast_warnings(&self, input: Operand, output: DType) -> Vec<Warning> {
        let config = &self.config;
        let (dtype, _) = config.dtype_and_weak(&input);
        let read = config.requested(output);
        let reads = [input, Operand::dtype(output)];
        let promoted = [input, Operand::dtype(read)];
        if dtype == read {
            self.warnings(&[(&reads, false)], false)
        } else {
            self.warnings(&[(&reads, false), (&promoted, true)], false)
        }
    }

    /// The warnings for what these calls request, one call after the
    /// other: each call's operands, and with `true` their join (see
    /// [`Config::requests`]).
    fn warnings(&self, calls: &[(&[Operand], bool)], lattice: bool) -> Vec<Warning> {
        let mut warnings = Vec::new();
        if !self.config.truncates() {
            return warnings;
        }
        for &(operands, join) in calls {
            let went_on = self.config.requests(operands, lattice, join, |dtype| {
                warnings.push(truncation_warning(dtype, self.canonicalize_dtype(dtype)));
                true
            });
            if !went_on {
                break;
            }
        }
        warnings
    }
}

/// JAX's warning when it truncates a requested 64-bit dtype.
fn truncation_warning(requested: DType, truncated: DType) -> Warning {
    Warning {
        kind: WarningKind::User,
        message: format!(
            "Explicitly requested dtype {requested} requested in dtype is not available, and \
             will be truncated to dtype {truncated}. To enable more dtypes, set the \
             jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment \
             variable. See https://github.com/jax-ml/jax#current-gotchas for more."
        ),
    }
}

impl Policy for Jax {
    /// `jax (x64 off, standard)`, with `, explicit-x64 MODE` after the
    /// promotion when the mode is not JAX's default.
    fn name(&self) -> String {
        let mode = match self.config.explicit_x64 {
            ExplicitX64::Warn => String::new(),
            other => format!(", explicit-x64 {other}"),
        };
        format!(
            "jax (x64 {}, {}{mode})",
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
        Some(&compiled().lattices[self.config.lattice_index()])
    }

    /// Every dtype but PyTorch's `complex32`.
    fn is_native(&self, dtype: DType) -> bool {
        lattice::is_jax_dtype(dtype)
    }

    /// `jnp.<op>` (`jnp.true_divide`, `jnp.less`, ...): see
    /// [`Jax::operation`].
    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        Some(Jax::operation(self, op, operands))
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        Some(ops::describe(op))
    }

    /// `jnp.sum`, `jnp.matmul`, `jnp.where`, ...: every [`ArrayOp`], with
    /// the type the reduction or `dot_general` runs in (`array_ops.rs`).
    fn array_op(
        &self,
        call: &ArrayCall,
        operands: &[Operand],
    ) -> Option<Result<Outcome, PromotionError>> {
        Some(Jax::array_op(self, call, operands))
    }

    fn describe_array_op(&self, op: ArrayOp) -> Option<String> {
        Some(array_ops::describe(op))
    }

    /// `a / b` and `2 / x` (the `jax.numpy` function, or Python's own
    /// arithmetic between two Python numbers), `b.__rtruediv__(a)`, and
    /// `a /= b`, which rebinds `a` to `a / b`: a JAX array is immutable.
    ///
    /// ```
    /// use dtype_lattice::frameworks::jax::Jax;
    /// use dtype_lattice::{DType, Op, OpForm, Operand, Policy, Typed};
    /// let x = Operand::array(DType::Int8, false);
    /// let iadd = Jax::default().operation_as(Op::Add, OpForm::InPlace, &[x, Operand::py_float(0.5)]);
    /// assert_eq!(iadd, Some(Ok(Typed::weak(DType::Float32)))); // x rebound, not int8
    /// ```
    fn operation_as(
        &self,
        op: Op,
        form: OpForm,
        operands: &[Operand],
    ) -> Option<Result<Typed, PromotionError>> {
        forms::operation_as(self, op, form, operands)
    }

    /// `x[...] = v`: JAX's arrays are immutable.
    fn assign(&self, target: Operand, value: Operand) -> Option<Result<Typed, PromotionError>> {
        Some(Err(forms::assign(self, target, value)))
    }

    fn jax(&self) -> Option<&dyn JaxFunctions> {
        Some(self)
    }
}

/// Each function as [`Jax`]'s own method of that name answers it.
impl JaxFunctions for Jax {
    fn lattice_result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        Jax::lattice_result_type(self, operands)
    }

    fn asarray(&self, value: Operand) -> Result<Typed, PromotionError> {
        Jax::asarray(self, value)
    }

    fn canonicalize_dtype(&self, dtype: DType) -> DType {
        Jax::canonicalize_dtype(self, dtype)
    }

    fn safe_to_cast(&self, input: Operand, output: DType) -> Result<bool, PromotionError> {
        Jax::safe_to_cast(self, input, output)
    }

    fn may_warn(&self) -> bool {
        self.config.truncates()
    }

    fn result_type_warnings(&self, operands: &[Operand]) -> Vec<Warning> {
        Jax::result_type_warnings(self, operands)
    }

    fn lattice_result_type_warnings(&self, operands: &[Operand]) -> Vec<Warning> {
        Jax::lattice_result_type_warnings(self, operands)
    }

    fn safe_to_cast_warnings(&self, input: Operand, output: DType) -> Vec<Warning> {
        Jax::safe_to_cast_warnings(self, input, output)
    }
}

/// The dtype JAX lacks among two types, which no table answers for.
#[cold]
fn lacked_spec(a: TypeSpec, b: TypeSpec) -> Option<DType> {
    [a, b].into_iter().find_map(|spec| match spec {
        TypeSpec::DType(dtype) if !lattice::is_jax_dtype(dtype) => Some(dtype),
        _ => None,
    })
}

#[cfg(test)]
mod tests;
