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
use std::sync::OnceLock;

use crate::dtype::{DType, Kind};
use crate::error::{NoPathReason, PromotionError, TypeList};
use crate::lattice::{Lattice, Node};
use crate::operand::{Operand, OperandKind, PyScalar, TypeSpec};
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

/// The node that stands for "no common upper bound" in the tables below.
/// Nothing joins with it, so a fold needs no branch: once a join fails,
/// every later join fails too.
const NO_JOIN: u8 = NODE_COUNT as u8;

/// The side of the tables the hot path indexes with a node: a power of two
/// above every node and `NO_JOIN`, so that masking an index with
/// `STRIDE - 1` proves it in bounds and the compiler drops the bounds
/// check (one `and` instead of a compare and a branch).
const STRIDE: usize = 64;

/// The join of two nodes of `lattice`, or `NO_JOIN` (also when either is
/// `NO_JOIN`).
fn join(lattice: &Lattice, a: u8, b: u8) -> u8 {
    // Nodes are below 35, so a join fits a byte.
    lattice
        .join(usize::from(a), usize::from(b))
        .map_or(NO_JOIN, |c| c as u8)
}

/// What `promote_types` answers for each pair of types, by
/// [`TypeSpec::index`] (which reads a type with one load, where its node
/// needs a branch on the variant): the lattice's joins already mapped
/// through [`PROMOTED`], so that the answer is one load (`Option<DType>` is
/// a byte).
struct PromoteTable([[Option<DType>; STRIDE]; STRIDE]);

const _: () = assert!(TypeSpec::COUNT <= STRIDE);

impl PromoteTable {
    fn new(lattice: &Lattice) -> PromoteTable {
        let mut table = [[None; STRIDE]; STRIDE];
        for a in TypeSpec::ALL {
            for b in TypeSpec::ALL {
                table[a.index()][b.index()] = lattice.join(node(a), node(b)).map(|c| PROMOTED[c]);
            }
        }
        PromoteTable(table)
    }

    /// The answer for two types.
    #[inline]
    fn get(&self, a: TypeSpec, b: TypeSpec) -> Option<DType> {
        // The compiler does not know the indices are below
        // `TypeSpec::COUNT`; the masks keep them in bounds without a branch.
        self.0[a.index() & (STRIDE - 1)][b.index() & (STRIDE - 1)]
    }
}

/// What JAX's rules need to know of the (dtype, weak) values of a list read
/// so far, besides whether they all have one dtype (which depends on the
/// first value, and is kept apart: see [`Config::read`]).
#[derive(Clone, Copy)]
struct State {
    /// Every value is weak.
    all_weak: bool,
    /// The join of the values' dtypes; kept only while every value is weak
    /// under standard promotion, the one case whose rule reads it, and
    /// `NO_JOIN` otherwise, so that states differing only in it merge.
    by_dtype: u8,
    /// The join of the values' weak-aware nodes ([`AWARE_NODE`]).
    by_kind: u8,
}

/// The most states an [`Automaton`] may have: a state is a byte. JAX's
/// configurations need 72 at most (a unit test keeps the count below 128).
const MAX_STATES: usize = 256;

/// JAX's rules for lists of values as a deterministic automaton over
/// (dtype, weak) values ([`typed_index`]).
///
/// Folding a list through the joins themselves takes two joins per value
/// (of dtypes, and of weak-aware nodes) and a flag, then a dozen steps of
/// rules. But what the rules need of a list's prefix is one of a few
/// [`State`]s, so here each value costs one table load (the first two
/// together, one load), and the rules one more load at the end (plus the
/// "one dtype" check).
///
/// Built by exploring every state reachable from one value with the
/// lattice's joins (each state's successors under all 64 values), so the
/// tables hold exactly what the joins and rules say; O(states x 64) joins.
struct Automaton {
    /// The state after one value, by [`typed_index`].
    start: [u8; TYPED_VALUES],
    /// The state after two values, by their [`typed_index`]es: a list of
    /// three starts one load closer to its answer (4 KiB).
    pairs: [[u8; TYPED_VALUES]; TYPED_VALUES],
    /// The state after one more value, at `state << 6 | typed_index`.
    next: [u8; MAX_STATES * TYPED_VALUES],
    /// What each state answers.
    ends: [End; MAX_STATES],
    /// How operands enter it.
    decode: Decode,
}

/// The answer for a list of two or more values that ends in a state,
/// unless its values have one dtype and are not all weak (then JAX's rules
/// answer that dtype, strongly typed).
#[derive(Clone, Copy)]
struct End {
    /// `lattice_result_type`'s answer; `None` when the values have no
    /// common upper bound.
    lattice: Option<Typed>,
    /// `result_type`'s: the same, with a weak result given its kind's
    /// default dtype.
    result: Option<Typed>,
    /// Every value is weak.
    all_weak: bool,
}

impl Automaton {
    fn new(config: Config, lattice: &Lattice) -> Box<Automaton> {
        let standard = config.promotion == Promotion::Standard;
        let first = |(dtype, weak): (DType, bool)| State {
            all_weak: weak,
            by_dtype: if weak && standard {
                dtype.index() as u8
            } else {
                NO_JOIN
            },
            by_kind: weak_aware_node(dtype, weak),
        };
        let step = |state: State, (dtype, weak): (DType, bool)| {
            let all_weak = state.all_weak && weak;
            State {
                all_weak,
                by_dtype: if all_weak && standard {
                    join(lattice, state.by_dtype, dtype.index() as u8)
                } else {
                    NO_JOIN
                },
                by_kind: join(lattice, state.by_kind, weak_aware_node(dtype, weak)),
            }
        };
        let mut states = Vec::new();
        // Each state's number, by (all weak, join of dtypes, join of
        // kinds): nodes and `NO_JOIN` are below `STRIDE`.
        let mut ids = vec![None; 2 * STRIDE * STRIDE];
        let mut id = |state: State, states: &mut Vec<State>| {
            let key = usize::from(state.all_weak) * STRIDE * STRIDE
                + usize::from(state.by_dtype) * STRIDE
                + usize::from(state.by_kind);
            *ids[key].get_or_insert_with(|| {
                states.push(state);
                u8::try_from(states.len() - 1).expect("JAX's rules fit MAX_STATES states (tested)")
            })
        };
        let mut automaton = Box::new(Automaton {
            start: [0; TYPED_VALUES],
            pairs: [[0; TYPED_VALUES]; TYPED_VALUES],
            next: [0; MAX_STATES * TYPED_VALUES],
            ends: [End {
                lattice: None,
                result: None,
                all_weak: false,
            }; MAX_STATES],
            decode: Decode::new(config),
        });
        for (index, start) in automaton.start.iter_mut().enumerate() {
            *start = id(first(typed_value(index)), &mut states);
        }
        let mut from = 0;
        while from < states.len() {
            for index in 0..TYPED_VALUES {
                let to = id(step(states[from], typed_value(index)), &mut states);
                automaton.next[from << 6 | index] = to;
            }
            from += 1;
        }
        for a in 0..TYPED_VALUES {
            for b in 0..TYPED_VALUES {
                let state = automaton.start[a];
                automaton.pairs[a][b] = automaton.next[usize::from(state) << 6 | b];
            }
        }
        for (end, state) in automaton.ends.iter_mut().zip(&states) {
            *end = config.end(state);
        }
        automaton
    }

    /// The state after one more value.
    #[inline(always)]
    fn step(&self, state: u8, index: usize) -> u8 {
        self.next[usize::from(state) << 6 | index & (TYPED_VALUES - 1)]
    }
}

/// `result_type` (or, with `concrete` false, `lattice_result_type`) of
/// every list of one or two (dtype, weak) values under one configuration,
/// indexed by [`typed_index`], `None` where a pair fails. Built by the
/// general path (the automaton and the rules) over all 64 values and
/// 64 x 64 pairs, so it holds nothing the rules do not say; it makes the
/// result type of a unary or binary operation one load instead of four.
/// 8 KiB per configuration.
struct ShortLists {
    singles: [Typed; TYPED_VALUES],
    pairs: [[Option<Typed>; TYPED_VALUES]; TYPED_VALUES],
}

impl ShortLists {
    fn new(config: Config, automaton: &Automaton, concrete: bool) -> ShortLists {
        let typed = |index: usize| {
            let (dtype, weak) = typed_value(index);
            Typed { dtype, weak }
        };
        let answer = |list: &[Typed]| {
            let reading = config.read(automaton, list, false)?;
            config.apply_rules(automaton, &reading, list, concrete).ok()
        };
        let mut singles = [Typed::strong(DType::Bool); TYPED_VALUES];
        let mut pairs = [[None; TYPED_VALUES]; TYPED_VALUES];
        for (a, row) in pairs.iter_mut().enumerate() {
            singles[a] = answer(&[typed(a)]).expect("one operand always has an answer");
            for (b, cell) in row.iter_mut().enumerate() {
                *cell = answer(&[typed(a), typed(b)]);
            }
        }
        ShortLists { singles, pairs }
    }

    /// The answer for a list of one or two operands; `None` for longer
    /// lists, pairs without an answer (their error comes from the general
    /// path) and, if `none_is_error`, lists with Python's `None`.
    #[inline(always)]
    fn get<T: Input>(&self, decode: &Decode, operands: &[T], none_is_error: bool) -> Option<Typed> {
        let index = |operand: &T| {
            (!(none_is_error && operand.is_none()))
                .then_some(operand.typed_index(decode) & (TYPED_VALUES - 1))
        };
        match operands {
            [a] => Some(self.singles[index(a)?]),
            [a, b] => self.pairs[index(a)?][index(b)?],
            _ => None,
        }
    }
}

/// The tables that answer one configuration's questions.
struct Tables {
    promotions: PromoteTable,
    automaton: Box<Automaton>,
    /// `result_type`'s answers for one and two operands.
    short: ShortLists,
    /// `lattice_result_type`'s.
    lattice_short: ShortLists,
}

/// JAX's three lattices (standard without and with x64, strict), indexed
/// by [`Config::slot`], and the tables of the four configurations, indexed
/// by [`Config::index`].
struct Compiled {
    lattices: [Lattice; 3],
    tables: [Tables; 4],
}

/// The compiled lattices and tables: built together by the first call that
/// needs them (about half a millisecond), then shared by every `Jax` value and
/// thread.
fn compiled() -> &'static Compiled {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let labels = || (0..NODE_COUNT).map(node_label);
        let lattices = [standard_edges(false), standard_edges(true), strict_edges()].map(|edges| {
            Lattice::from_edges(labels(), edges).expect("JAX's lattices are lattices (tested)")
        });
        let tables = [0, 1, 2, 3].map(|index| {
            let config = Config {
                x64: index & 1 == 1,
                promotion: if index & 2 == 0 {
                    Promotion::Standard
                } else {
                    Promotion::Strict
                },
            };
            let lattice = &lattices[config.slot()];
            let automaton = Automaton::new(config, lattice);
            Tables {
                promotions: PromoteTable::new(lattice),
                short: ShortLists::new(config, &automaton, true),
                lattice_short: ShortLists::new(config, &automaton, false),
                automaton,
            }
        });
        Compiled { lattices, tables }
    })
}

/// What `promote_types` reports for a join at each node: the dtype itself,
/// or for a weak type its Python type's 64-bit dtype, whatever x64 says;
/// that is, the node's dtype under x64.
const PROMOTED: [DType; STRIDE] = NODE_DTYPE[1];

/// The node a (dtype, weak) pair joins at, indexed by [`typed_index`]: a
/// strong value's own dtype, a weak value's Python type by kind
/// (`bfloat16` and the small floats count as float). `bool` has no weak
/// form and stays itself. A table rather than a branch on `weak`, which
/// varies between operands.
const AWARE_NODE: [u8; TYPED_VALUES] = {
    let mut out = [0u8; TYPED_VALUES];
    let mut i = 0;
    while i < DType::COUNT {
        out[i] = i as u8;
        out[DType::COUNT + i] = match DType::ALL[i].kind() {
            Kind::Bool => i as u8,
            Kind::Signed | Kind::Unsigned => DType::COUNT as u8,
            Kind::Float => DType::COUNT as u8 + 1,
            Kind::Complex => DType::COUNT as u8 + 2,
        };
        i += 1;
    }
    out
};

/// A (dtype, weak) pair as one index below 64: the dtype, plus 32 when
/// weak. Arithmetic the compiler knows stays below 64, so indexing a
/// table of 64 needs no bounds check.
#[inline]
const fn typed_index(dtype: DType, weak: bool) -> usize {
    (weak as usize) << 5 | dtype.index()
}

/// How many (dtype, weak) values there are: every [`typed_index`] is
/// below it. A power of two, so that masking an index with
/// `TYPED_VALUES - 1` proves it in bounds without changing it.
const TYPED_VALUES: usize = 2 * DType::COUNT;

// `typed_index` and the tables indexed by it (`state << 6 | typed_index`)
// take 32 dtypes.
const _: () = assert!(DType::COUNT == 32);

/// The (dtype, weak) pair at a [`typed_index`] below 64.
fn typed_value(index: usize) -> (DType, bool) {
    (DType::ALL[index % DType::COUNT], index >= DType::COUNT)
}

/// The node a (dtype, weak) pair joins at; see [`AWARE_NODE`].
#[inline]
const fn weak_aware_node(dtype: DType, weak: bool) -> u8 {
    AWARE_NODE[typed_index(dtype, weak)]
}

/// `canonicalize_dtype` without x64: the 64-bit types become their 32-bit
/// counterparts.
const CANONICAL_X32: [DType; DType::COUNT] = {
    let mut out = DType::ALL;
    let mut i = 0;
    while i < DType::COUNT {
        out[i] = match DType::ALL[i] {
            DType::Int64 => DType::Int32,
            DType::UInt64 => DType::UInt32,
            DType::Float64 => DType::Float32,
            DType::Complex128 => DType::Complex64,
            other => other,
        };
        i += 1;
    }
    out
};

// The hot path reads the tables below, indexed by `x64`, instead of matching
// on a dtype: with varied inputs such a match is a mispredicted jump that
// costs more than the join itself.

/// The dtype each lattice node stands for, canonicalized: a weak type's is
/// its Python type's default dtype. The entries past the nodes (`NO_JOIN`
/// among them) are never reported.
const NODE_DTYPE: [[DType; STRIDE]; 2] = [node_dtypes(false), node_dtypes(true)];

const fn node_dtypes(x64: bool) -> [DType; STRIDE] {
    let config = Config {
        x64,
        promotion: Promotion::Standard,
    };
    let mut out = [DType::Bool; STRIDE];
    let mut i = 0;
    while i < DType::COUNT {
        out[i] = config.canonicalize_dtype(DType::ALL[i]);
        i += 1;
    }
    out[DType::COUNT] = config.default_dtype(PyScalar::Int);
    out[DType::COUNT + 1] = config.default_dtype(PyScalar::Float);
    out[DType::COUNT + 2] = config.default_dtype(PyScalar::Complex);
    out
}

/// The concrete dtype `result_type` gives a weak result of each dtype: the
/// default dtype of its kind.
const WEAK_RESULT: [[DType; DType::COUNT]; 2] = [weak_results(false), weak_results(true)];

const fn weak_results(x64: bool) -> [DType; DType::COUNT] {
    let config = Config {
        x64,
        promotion: Promotion::Standard,
    };
    let mut out = DType::ALL;
    let mut i = 0;
    while i < DType::COUNT {
        out[i] = match DType::ALL[i].kind() {
            Kind::Bool => DType::Bool,
            Kind::Signed => config.default_dtype(PyScalar::Int),
            Kind::Unsigned => config.default_uint_dtype(),
            Kind::Float => config.default_dtype(PyScalar::Float),
            Kind::Complex => config.default_dtype(PyScalar::Complex),
        };
        i += 1;
    }
    out
}

/// What one pass over a non-empty list learns: with the [`Automaton`]'s
/// answer for its end state, enough to apply every rule of JAX's
/// `_lattice_result_type`.
struct Reading {
    /// The first operand's (dtype, weak) pair.
    first: (DType, bool),
    /// Every operand has the first one's dtype.
    all_equal: bool,
    /// Some operand is `None` (only looked for when asked).
    has_none: bool,
    /// The automaton's state after the last operand.
    state: u8,
}

/// What the n-ary functions read from each of their inputs: JAX's
/// (dtype, weak) pair, as a [`typed_index`]. One generic reading serves
/// [`Operand`]s and [`Typed`] values alike.
trait Input {
    /// The (dtype, weak) pair's [`typed_index`] under the configuration
    /// `decode` was built for. Readers mask it with `TYPED_VALUES - 1`
    /// (no change to the value) so that the compiler drops their tables'
    /// bounds checks.
    fn typed_index(&self, decode: &Decode) -> usize;
    /// Whether this is Python's `None`.
    fn is_none(&self) -> bool;
}

impl Input for Operand {
    #[inline(always)]
    fn typed_index(&self, decode: &Decode) -> usize {
        decode.get(self)
    }

    #[inline(always)]
    fn is_none(&self) -> bool {
        Operand::is_none(*self)
    }
}

impl Input for Typed {
    #[inline(always)]
    fn typed_index(&self, _: &Decode) -> usize {
        typed_index(self.dtype, self.weak)
    }

    #[inline(always)]
    fn is_none(&self) -> bool {
        false
    }
}

/// The [`typed_index`] of every operand under one configuration, by its
/// code: reading an [`Operand`] is then one load, with none of the
/// configuration's choices (canonical dtypes, default dtypes) as branches.
struct Decode([u8; 256]);

impl Decode {
    /// Built from [`Config::dtype_and_weak`], on one operand of each code.
    fn new(config: Config) -> Decode {
        let mut table = [0; 256];
        for operand in Operand::each_code() {
            let (dtype, weak) = config.dtype_and_weak(&operand);
            table[usize::from(operand.code())] = typed_index(dtype, weak) as u8;
        }
        Decode(table)
    }

    #[inline(always)]
    fn get(&self, operand: &Operand) -> usize {
        usize::from(self.0[usize::from(operand.code())])
    }
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
    /// use dtype_lattice::{jax::Jax, DType};
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

    /// The lattice in force: standard with or without x64, or strict. Built
    /// on first use, then shared.
    pub fn lattice(&self) -> &'static Lattice {
        &compiled().lattices[self.config.slot()]
    }

    /// The (dtype, weak) pair [`result_type`](Self::result_type) reads from
    /// an operand (JAX's `_dtype_and_weaktype`, with a dtype specifier
    /// canonicalized and a Python type or value given its default dtype);
    /// what [`typed_result_type`](Self::typed_result_type) takes. Unlike
    /// [`asarray`](Self::asarray) it never fails: `result_type` does not
    /// check a Python int's range.
    ///
    /// ```
    /// use dtype_lattice::{jax::Jax, DType, Operand, PyScalar, Typed};
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
    /// use dtype_lattice::{jax::Jax, DType, Operand, Typed};
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
    /// use dtype_lattice::{jax::Jax, DType, Operand, Typed};
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
    /// use dtype_lattice::{jax::Jax, DType, Operand, Typed};
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
    /// use dtype_lattice::{jax::Jax, DType, Operand, Typed};
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

/// The rules themselves depend only on the configuration (and the tables
/// they are given), so that building the tables can use them.
impl Config {
    /// This configuration's lattice's place in [`Compiled`]'s `lattices`.
    #[inline]
    fn slot(&self) -> usize {
        match self.promotion {
            Promotion::Standard => usize::from(self.x64),
            Promotion::Strict => 2,
        }
    }

    /// This configuration's place in [`Compiled`]'s `tables`.
    #[inline]
    const fn index(&self) -> usize {
        let strict = matches!(self.promotion, Promotion::Strict);
        self.x64 as usize | (strict as usize) << 1
    }

    /// See [`Jax::canonicalize_dtype`].
    #[inline]
    const fn canonicalize_dtype(&self, dtype: DType) -> DType {
        if self.x64 {
            dtype
        } else {
            CANONICAL_X32[dtype.index()]
        }
    }

    /// See [`Jax::default_dtype`].
    const fn default_dtype(&self, scalar: PyScalar) -> DType {
        self.canonicalize_dtype(match scalar {
            PyScalar::Bool => DType::Bool,
            PyScalar::Int => DType::Int64,
            PyScalar::Float => DType::Float64,
            PyScalar::Complex => DType::Complex128,
        })
    }

    /// See [`Jax::default_uint_dtype`].
    const fn default_uint_dtype(&self) -> DType {
        self.canonicalize_dtype(DType::UInt64)
    }

    /// The (dtype, weak) pair JAX derives from one operand, as
    /// `result_type` reads it (`None` is the default float dtype). Python
    /// ints are not range-checked here: JAX 0.10.2 checks them only when it
    /// makes them arrays (see [`Jax::asarray`]).
    ///
    /// The n-ary functions read the same pairs from [`Decode`], which is
    /// built from this.
    fn dtype_and_weak(&self, operand: &Operand) -> (DType, bool) {
        match operand.kind() {
            OperandKind::DType(dtype) => (self.canonicalize_dtype(dtype), false),
            OperandKind::Array { dtype, weak } => (dtype, weak),
            OperandKind::ZeroDim(dtype) => (dtype, false),
            OperandKind::PyType(PyScalar::Bool) | OperandKind::PyBool(_) => (DType::Bool, false),
            OperandKind::PyType(scalar) => (self.default_dtype(scalar), true),
            OperandKind::PyInt(_) => (self.default_dtype(PyScalar::Int), true),
            OperandKind::PyFloat(_) => (self.default_dtype(PyScalar::Float), true),
            OperandKind::None => (self.default_dtype(PyScalar::Float), false),
        }
    }

    /// The dtype a lattice node (or `NO_JOIN`) stands for under this
    /// configuration; see [`NODE_DTYPE`].
    #[inline]
    fn node_dtype(&self, node: u8) -> DType {
        NODE_DTYPE[usize::from(self.x64)][usize::from(node) & (STRIDE - 1)]
    }

    /// The error for inputs with no common upper bound. Out of line: the
    /// hot path only tests for `NO_JOIN`, and this builds the message's
    /// input list (inline, a [`TypeList`]).
    #[cold]
    #[inline(never)]
    fn no_path(&self, nodes: impl Iterator<Item = Node>) -> PromotionError {
        let inputs: TypeList = nodes.map(node_type).collect();
        let reason = NoPathReason::for_inputs(self.promotion == Promotion::Strict, &inputs);
        PromotionError::NoPromotionPath { inputs, reason }
    }

    /// The error for two types with no common upper bound, built inline
    /// with fixed offsets only, where [`no_path`](Self::no_path) is a call
    /// that writes its answer through memory: the caller's answer then
    /// stays in registers on the path without error too.
    #[inline(always)]
    fn no_path_between(&self, a: TypeSpec, b: TypeSpec) -> PromotionError {
        // Named by their nodes, as `no_path` names them: Python's `bool`
        // is the `bool` dtype, as in JAX's message.
        let (a, b) = (node_type(node(a)), node_type(node(b)));
        PromotionError::NoPromotionPath {
            inputs: TypeList::pair(a, b),
            reason: self.no_path_reason(a, b),
        }
    }

    /// Out of line: only the reason, a byte, comes back (in a register).
    #[cold]
    #[inline(never)]
    fn no_path_reason(&self, a: TypeSpec, b: TypeSpec) -> NoPathReason {
        NoPathReason::for_inputs(self.promotion == Promotion::Strict, &[a, b])
    }

    /// Reads a list of operands once, through `automaton`; `None` for no
    /// operands. `track_none` asks whether any operand is `None` (only
    /// `lattice_result_type` cares).
    #[inline(always)]
    fn read<T: Input>(
        &self,
        automaton: &Automaton,
        operands: &[T],
        track_none: bool,
    ) -> Option<Reading> {
        let decode = &automaton.decode;
        let (first, rest) = operands.split_first()?;
        let first_index = first.typed_index(decode) & (TYPED_VALUES - 1);
        let mut has_none = track_none && first.is_none();
        // Any of the low 5 bits set: some dtype differs from the first.
        let mut differs = 0;
        let (mut state, rest) = match rest.split_first() {
            Some((second, rest)) => {
                let index = second.typed_index(decode) & (TYPED_VALUES - 1);
                differs |= index ^ first_index;
                has_none |= track_none && second.is_none();
                (automaton.pairs[first_index][index], rest)
            }
            None => (automaton.start[first_index], rest),
        };
        for operand in rest {
            let index = operand.typed_index(decode);
            differs |= index ^ first_index;
            has_none |= track_none && operand.is_none();
            state = automaton.step(state, index);
        }
        Some(Reading {
            first: typed_value(first_index),
            all_equal: differs % DType::COUNT == 0,
            has_none,
            state,
        })
    }

    /// JAX's rules on a reading of a non-empty list of operands (`None`
    /// read as the default float dtype), in JAX's order: one operand is
    /// itself; operands of one dtype, not all weak, give that dtype
    /// strongly; otherwise the automaton's end state answers (weak
    /// operands among themselves, under standard promotion, join as their
    /// dtypes; otherwise weak operands join as their Python types).
    /// `concrete` gives a weak result its kind's default dtype, as
    /// `result_type` does.
    #[inline(always)]
    fn apply_rules<T: Input>(
        &self,
        automaton: &Automaton,
        reading: &Reading,
        operands: &[T],
        concrete: bool,
    ) -> Result<Typed, PromotionError> {
        let (dtype, _) = reading.first;
        // A branch: the number of operands is what a call site fixes, so
        // it predicts well.
        if operands.len() == 1 {
            return Ok(self.single(reading.first, concrete));
        }
        let end = automaton.ends[usize::from(reading.state)];
        if reading.all_equal && !end.all_weak {
            return Ok(Typed::strong(dtype));
        }
        match if concrete { end.result } else { end.lattice } {
            Some(typed) => Ok(typed),
            None => Err(self.no_path_in(
                &automaton.decode,
                operands,
                end.all_weak && self.promotion == Promotion::Standard,
            )),
        }
    }

    /// The rules' answer for one operand: itself, except that `bool` is
    /// never weak; with `concrete`, as [`apply_rules`](Self::apply_rules)
    /// says.
    #[inline(always)]
    fn single(&self, (dtype, weak): (DType, bool), concrete: bool) -> Typed {
        let typed = Typed {
            dtype,
            weak: weak && dtype != DType::Bool,
        };
        if concrete {
            self.concrete(typed)
        } else {
            typed
        }
    }

    /// What the rules answer for a list of two or more values that ends
    /// in `state`, unless the values have one dtype (see [`End`]): the
    /// join of their dtypes if all are weak under standard promotion, else
    /// of their weak-aware nodes; weak if it is so, or if it is a Python
    /// type's node; `bool` never weak.
    fn end(&self, state: &State) -> End {
        let by_dtype = state.all_weak && self.promotion == Promotion::Standard;
        let joined = if by_dtype {
            state.by_dtype
        } else {
            state.by_kind
        };
        let lattice = (joined != NO_JOIN).then(|| {
            let dtype = self.node_dtype(joined);
            let weak = by_dtype || usize::from(joined) >= DType::COUNT;
            Typed {
                dtype,
                weak: weak && dtype != DType::Bool,
            }
        });
        End {
            lattice,
            result: lattice.map(|typed| self.concrete(typed)),
            all_weak: state.all_weak,
        }
    }

    /// `result_type`'s answer for a (`lattice_result_type`) result: a weak
    /// result takes its kind's default dtype.
    #[inline]
    fn concrete(&self, typed: Typed) -> Typed {
        let default = WEAK_RESULT[usize::from(self.x64)][typed.dtype.index()];
        Typed {
            dtype: if typed.weak { default } else { typed.dtype },
            weak: typed.weak,
        }
    }

    /// The error for operands whose nodes have no join: their dtypes' nodes
    /// if weak values join as dtypes, else their weak-aware nodes.
    #[cold]
    #[inline(never)]
    fn no_path_in<T: Input>(
        &self,
        decode: &Decode,
        operands: &[T],
        by_dtype: bool,
    ) -> PromotionError {
        self.no_path(operands.iter().map(|operand| {
            let (dtype, weak) = typed_value(operand.typed_index(decode));
            usize::from(weak_aware_node(dtype, weak && !by_dtype))
        }))
    }

    /// [`Jax::result_type`] by reading the operands through the automaton
    /// and applying the rules, as [`ShortLists`] is built.
    #[inline(always)]
    fn general_result_type<T: Input>(
        &self,
        automaton: &Automaton,
        operands: &[T],
    ) -> Result<Typed, PromotionError> {
        match self.read(automaton, operands, false) {
            Some(reading) => self.apply_rules(automaton, &reading, operands, true),
            None => Err(PromotionError::NoOperands),
        }
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
            assert_eq!(jax.lattice().len(), NODE_COUNT, "{}", jax.name());
        }
    }
}
