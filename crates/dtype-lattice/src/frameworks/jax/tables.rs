//! The hot path, kept apart from the rules it speeds up: every table here is
//! built from the lattices ([`super::lattice`]) and the rules
//! ([`super::promotion`]) when a process first asks, so it holds nothing they do
//! not say. BENCHMARKS.md has what each table buys.

use crate::once::Once;

use super::array_op_tables::ArrayOpTables;
use super::op_tables::OpTables;

use super::lattice::{
    is_jax_dtype, node, node_label, standard_edges, strict_edges, JAX_DTYPES, NODE_COUNT,
};
use super::{Config, ExplicitX64, Promotion};
use crate::engine::Lattice;
use crate::policy::TypedLattice;
use crate::prelude::*;
use crate::types::{DType, Kind, Operand, OperandKind, PyScalar, TypeSpec, Typed};

/// The node that stands for "no common upper bound" in the tables below.
/// Nothing joins with it, so a fold needs no branch: once a join fails,
/// every later join fails too.
pub(super) const NO_JOIN: u8 = NODE_COUNT as u8;

/// The side of the tables the hot path indexes with a node: a power of two
/// above every node and `NO_JOIN`, so that masking an index with
/// `STRIDE - 1` proves it in bounds and the compiler drops the bounds
/// check (one `and` instead of a compare and a branch).
pub(super) const STRIDE: usize = 64;

/// The join of two nodes of `lattice`, or `NO_JOIN` (also when either is
/// `NO_JOIN`).
pub(super) fn join(lattice: &Lattice, a: u8, b: u8) -> u8 {
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
pub(super) struct PromoteTable([[Option<DType>; STRIDE]; STRIDE]);

const _: () = assert!(TypeSpec::COUNT <= STRIDE);

impl PromoteTable {
    pub(super) fn new(lattice: &Lattice) -> PromoteTable {
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
    pub(super) fn get(&self, a: TypeSpec, b: TypeSpec) -> Option<DType> {
        // The compiler does not know the indices are below
        // `TypeSpec::COUNT`; the masks keep them in bounds without a branch.
        self.0[a.index() & (STRIDE - 1)][b.index() & (STRIDE - 1)]
    }
}

/// What JAX's rules need to know of the (dtype, weak) values of a list read
/// so far, besides whether they all have one dtype (which depends on the
/// first value, and is kept apart: see [`Config::read`]).
#[derive(Clone, Copy)]
pub(super) struct State {
    /// Every value is weak.
    pub(super) all_weak: bool,
    /// The join of the values' dtypes; kept only while every value is weak
    /// under standard promotion, the one case whose rule reads it, and
    /// `NO_JOIN` otherwise, so that states differing only in it merge.
    pub(super) by_dtype: u8,
    /// The join of the values' weak-aware nodes ([`AWARE_NODE`]).
    pub(super) by_kind: u8,
    /// Some value has a 64-bit dtype, under a configuration that refuses
    /// 64-bit requests (x64 off, `error`), or a dtype JAX lacks
    /// (`complex32`); never set otherwise. Such a list may be refused, by
    /// a specifier or a join the tables cannot tell from an array's, so it
    /// is answered out of line: all such lists share one state, [`WIDE`].
    pub(super) wide: bool,
}

/// The state of every list with a value a configuration may refuse.
pub(super) const WIDE: State = State {
    all_weak: false,
    by_dtype: NO_JOIN,
    by_kind: NO_JOIN,
    wide: true,
};

/// The most states an [`Automaton`] may have: a state is a byte. JAX's
/// configurations need 72 at most (a unit test keeps the count below 128).
pub(super) const MAX_STATES: usize = 256;

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
/// lattice's joins (each state's successors under every value), so the
/// tables hold exactly what the joins and rules say; O(states x 64) joins.
pub(super) struct Automaton {
    /// The state after one value, by [`typed_index`].
    pub(super) start: [u8; TYPED_VALUES],
    /// The state after two values, by their [`typed_index`]es: a list of
    /// three starts one load closer to its answer (16 KiB, of which the
    /// 4 KiB of JAX's own dtypes are read).
    pub(super) pairs: [[u8; TYPED_VALUES]; TYPED_VALUES],
    /// The state after one more value, at `state << TYPED_BITS | typed_index`.
    pub(super) next: [u8; MAX_STATES * TYPED_VALUES],
    /// What each state answers.
    pub(super) ends: [End; MAX_STATES],
    /// How operands enter it.
    pub(super) decode: Decode,
}

/// The answer for a list of two or more values that ends in a state,
/// unless its values have one dtype and are not all weak (then JAX's rules
/// answer that dtype, strongly typed).
#[derive(Clone, Copy)]
pub(super) struct End {
    /// `lattice_result_type`'s answer; `None` when the values have no
    /// common upper bound.
    pub(super) lattice: Option<Typed>,
    /// `result_type`'s: the same, with a weak result given its kind's
    /// default dtype.
    pub(super) result: Option<Typed>,
    /// Every value is weak.
    pub(super) all_weak: bool,
    /// The [`WIDE`] state: `lattice` and `result` are `None`, and the
    /// answer is found out of line.
    pub(super) wide: bool,
    /// Values of one dtype give that dtype: not all weak, not `wide`.
    pub(super) keeps_dtype: bool,
    /// The node the values join at (`NO_JOIN` if none, or `wide`): what
    /// JAX hands `dtypes.dtype()`, a request when it is a 64-bit dtype.
    pub(super) joined: u8,
}

impl Automaton {
    pub(super) fn new(config: Config, lattice: &Lattice) -> Box<Automaton> {
        let standard = config.promotion == Promotion::Standard;
        let refused = |dtype: DType| {
            !is_jax_dtype(dtype) || config.refuses() && config.canonicalize_dtype(dtype) != dtype
        };
        let first = |(dtype, weak): (DType, bool)| {
            if refused(dtype) {
                return WIDE;
            }
            State {
                all_weak: weak,
                by_dtype: if weak && standard {
                    dtype.index() as u8
                } else {
                    NO_JOIN
                },
                by_kind: weak_aware_node(dtype, weak),
                wide: false,
            }
        };
        let step = |state: State, (dtype, weak): (DType, bool)| {
            if state.wide || refused(dtype) {
                return WIDE;
            }
            let all_weak = state.all_weak && weak;
            State {
                all_weak,
                by_dtype: if all_weak && standard {
                    join(lattice, state.by_dtype, dtype.index() as u8)
                } else {
                    NO_JOIN
                },
                by_kind: join(lattice, state.by_kind, weak_aware_node(dtype, weak)),
                wide: false,
            }
        };
        let mut states = Vec::new();
        // Each state's number, by (wide, all weak, join of dtypes, join of
        // kinds): nodes and `NO_JOIN` are below `STRIDE`.
        let mut ids = vec![None; 4 * STRIDE * STRIDE];
        let mut id = |state: State, states: &mut Vec<State>| {
            let key = usize::from(state.wide) * 2 * STRIDE * STRIDE
                + usize::from(state.all_weak) * STRIDE * STRIDE
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
            ends: [config.end(&WIDE); MAX_STATES],
            decode: Decode::new(config),
        });
        for (index, start) in automaton.start.iter_mut().enumerate() {
            *start = id(first(typed_value(index)), &mut states);
        }
        let mut from = 0;
        while from < states.len() {
            for index in 0..TYPED_VALUES {
                let to = id(step(states[from], typed_value(index)), &mut states);
                automaton.next[from << TYPED_BITS | index] = to;
            }
            from += 1;
        }
        for a in 0..TYPED_VALUES {
            for b in 0..TYPED_VALUES {
                let state = automaton.start[a];
                automaton.pairs[a][b] = automaton.next[usize::from(state) << TYPED_BITS | b];
            }
        }
        for (end, state) in automaton.ends.iter_mut().zip(&states) {
            *end = config.end(state);
        }
        automaton
    }

    /// The state after one more value.
    #[inline(always)]
    pub(super) fn step(&self, state: u8, index: usize) -> u8 {
        self.next[usize::from(state) << TYPED_BITS | index & (TYPED_VALUES - 1)]
    }
}

/// `result_type` (or, with `concrete` false, `lattice_result_type`) of
/// every list of one or two (dtype, weak) values under one configuration,
/// indexed by [`typed_index`], `None` where a pair fails or the list is
/// [`WIDE`]. Built by the general path (the automaton and the rules) over
/// JAX's 64 values and their pairs, so it holds nothing the rules do not
/// say; it makes the result type of a unary or binary operation one load
/// instead of four. 8.6 KiB per configuration.
pub(super) struct ShortLists {
    /// One [`Operand`]'s answer by its code, which spares the load that
    /// reads its (dtype, weak) index first: a unary operation is one load.
    by_code: [Option<Typed>; 256],
    singles: [Option<Typed>; TYPED_VALUES],
    pairs: [[Option<Typed>; TYPED_VALUES]; TYPED_VALUES],
    /// Whether Python's `None` has no answer here (it is an error for
    /// `lattice_result_type`, a float for `result_type`).
    none_is_error: bool,
}

impl ShortLists {
    pub(super) fn new(
        config: Config,
        automaton: &Automaton,
        concrete: bool,
        none_is_error: bool,
    ) -> ShortLists {
        let typed = |index: usize| {
            let (dtype, weak) = typed_value(index);
            Typed { dtype, weak }
        };
        let answer = |list: &[Typed]| {
            let reading = config.read(automaton, list, false)?;
            // A wide list's answer depends on more than (dtype, weak)
            // pairs: whether a value was a specifier.
            if automaton.ends[usize::from(reading.state)].wide {
                return None;
            }
            config.apply_rules(automaton, &reading, list, concrete).ok()
        };
        let mut singles = [None; TYPED_VALUES];
        let mut pairs = [[None; TYPED_VALUES]; TYPED_VALUES];
        for a in jax_typed_indices() {
            singles[a] = answer(&[typed(a)]);
            for b in jax_typed_indices() {
                pairs[a][b] = answer(&[typed(a), typed(b)]);
            }
        }
        let mut by_code = [None; 256];
        for operand in Operand::each_code() {
            if !(none_is_error && operand.is_none()) {
                by_code[usize::from(operand.code())] = singles[automaton.decode.get(&operand)];
            }
        }
        ShortLists {
            by_code,
            singles,
            pairs,
            none_is_error,
        }
    }

    /// The answer for a list of one or two operands; `None` for longer
    /// lists, pairs without an answer (their error comes from the general
    /// path) and, where it is an error, lists with Python's `None`.
    #[inline(always)]
    pub(super) fn get<T: Input>(&self, decode: &Decode, operands: &[T]) -> Option<Typed> {
        let index = |operand: &T| {
            (!(self.none_is_error && operand.is_none()))
                .then_some(operand.typed_index(decode) & (TYPED_VALUES - 1))
        };
        match operands {
            [a] => a.single(self),
            [a, b] => self.pairs[index(a)?][index(b)?],
            _ => None,
        }
    }
}

/// The tables that answer one configuration's questions.
pub(super) struct Tables {
    pub(super) promotions: PromoteTable,
    pub(super) automaton: Box<Automaton>,
    /// `result_type`'s answers for one and two operands.
    pub(super) short: ShortLists,
    /// `lattice_result_type`'s.
    pub(super) lattice_short: ShortLists,
    /// The operations' answers, built by the first operation asked
    /// (`op_tables.rs`).
    pub(super) ops: Once<OpTables>,
    /// The operations on whole arrays' answers, built by the first asked
    /// (`array_op_tables.rs`).
    pub(super) array_ops: Once<ArrayOpTables>,
}

/// How many sets of tables there are: [`Config::index`].
pub(super) const TABLES: usize = 2 * (ExplicitX64::ALL.len() + 1);

/// The tables of JAX's configurations, indexed by [`Config::index`], and
/// the typed lattice each of the four (x64, promotion) settings joins on,
/// by [`Config::lattice_index`].
pub(super) struct Compiled {
    pub(super) lattices: [TypedLattice; 4],
    /// On the heap: the eight sets (20 KiB each) overflowed a test
    /// thread's stack in a debug build while they were built in place.
    pub(super) tables: Vec<Tables>,
}

/// The compiled lattices and tables: built together by the first call that
/// needs them (about half a millisecond), then shared by every `Jax` value and
/// thread.
pub(super) fn compiled() -> &'static Compiled {
    static COMPILED: Once<Compiled> = Once::new();
    COMPILED.get_or_init(|| {
        let labels = || (0..NODE_COUNT).map(node_label);
        // Three lattices: standard without and with x64, strict.
        let lattices = [standard_edges(false), standard_edges(true), strict_edges()].map(|edges| {
            Lattice::from_edges(labels(), edges).expect("JAX's lattices are lattices (tested)")
        });
        let tables = (0..TABLES).map(|index| {
            let config = Config::tabled(index);
            let lattice = &lattices[config.slot()];
            let automaton = Automaton::new(config, lattice);
            Tables {
                promotions: PromoteTable::new(lattice),
                short: ShortLists::new(config, &automaton, true, false),
                lattice_short: ShortLists::new(config, &automaton, false, true),
                automaton,
                ops: Once::new(),
                array_ops: Once::new(),
            }
        });
        let tables = tables.collect();
        let settings = [0, 1, 2, 3].map(|index| Config {
            x64: index & 1 == 1,
            promotion: if index & 2 == 0 {
                Promotion::Standard
            } else {
                Promotion::Strict
            },
            explicit_x64: ExplicitX64::Warn,
        });
        let lattices = settings.map(|config| {
            let types = (0..NODE_COUNT)
                .map(|n| Some(config.node_meaning(n)))
                .collect();
            TypedLattice::new(lattices[config.slot()].clone(), types)
        });
        Compiled { lattices, tables }
    })
}

/// What `promote_types` reports for a join at each node: the dtype itself,
/// or for a weak type its Python type's 64-bit dtype, whatever x64 says;
/// that is, the node's dtype under x64. (`promote_types` requests nothing
/// explicitly, so the explicit-x64 mode does not change it.)
pub(super) const PROMOTED: [DType; STRIDE] = NODE_DTYPE[1];

/// The node a (dtype, weak) pair joins at, indexed by [`typed_index`]: a
/// strong value's own dtype, a weak value's Python type by kind
/// (`bfloat16` and the small floats count as float). `bool` has no weak
/// form and stays itself. A table rather than a branch on `weak`, which
/// varies between operands.
pub(super) const AWARE_NODE: [u8; TYPED_VALUES] = {
    let mut out = [NO_JOIN; TYPED_VALUES];
    let mut i = 0;
    while i < JAX_DTYPES.len() {
        let dtype = JAX_DTYPES[i];
        out[typed_index(dtype, false)] = i as u8;
        let weak = JAX_DTYPES.len() as u8;
        out[typed_index(dtype, true)] = match dtype.kind() {
            Kind::Bool => i as u8,
            Kind::Signed | Kind::Unsigned => weak,
            Kind::Float => weak + 1,
            Kind::Complex => weak + 2,
        };
        i += 1;
    }
    out
};

/// A (dtype, weak) pair as one index below [`TYPED_VALUES`]
/// ([`Typed::index`]): arithmetic the compiler knows stays below it, so
/// indexing a table of that many needs no bounds check.
#[inline]
pub(super) const fn typed_index(dtype: DType, weak: bool) -> usize {
    Typed { dtype, weak }.index()
}

/// How many (dtype, weak) values there are room for: every
/// [`typed_index`] is below it, a power of two. The indices of no value
/// (between the strong dtypes and the weak ones) read as `complex32`,
/// whose lists are [`WIDE`], and are never decoded.
pub(super) const TYPED_VALUES: usize = Typed::COUNT;

/// The [`typed_index`] of each of JAX's (dtype, weak) values: a table
/// leaves the others without an answer (their lists are [`WIDE`]).
pub(super) fn jax_typed_indices() -> impl Iterator<Item = usize> + Clone {
    let strong = JAX_DTYPES.iter().map(|&d| typed_index(d, false));
    strong
        .clone()
        .chain(JAX_DTYPES.iter().map(|&d| typed_index(d, true)))
}

/// `TYPED_VALUES` is `1 << TYPED_BITS`.
pub(super) const TYPED_BITS: u32 = TYPED_VALUES.trailing_zeros();

/// The (dtype, weak) pair at a [`typed_index`]; `complex32` at an index of
/// no value.
pub(super) fn typed_value(index: usize) -> (DType, bool) {
    let weak = index >= TYPED_VALUES / 2;
    let dtype = DType::from_index(index % (TYPED_VALUES / 2)).unwrap_or(DType::Complex32);
    (dtype, weak)
}

/// The node a (dtype, weak) pair joins at; see [`AWARE_NODE`].
#[inline]
pub(super) const fn weak_aware_node(dtype: DType, weak: bool) -> u8 {
    AWARE_NODE[typed_index(dtype, weak)]
}

/// `canonicalize_dtype` without x64: the 64-bit types become their 32-bit
/// counterparts.
pub(super) const CANONICAL_X32: [DType; DType::COUNT] = {
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

/// The dtype each lattice node stands for when a join reports it (JAX
/// hands it to `dtypes.dtype()`): a dtype node's, as an explicit request
/// reads it; a weak type's, its Python type's default dtype. Rows: x64
/// off (`warn`, and `error` where it does not refuse), x64 on, x64 off
/// under `allow`. The entries past the nodes (`NO_JOIN` among them) are
/// never reported.
pub(super) const NODE_DTYPE: [[DType; STRIDE]; 3] = [
    node_dtypes(false, ExplicitX64::Warn),
    node_dtypes(true, ExplicitX64::Warn),
    node_dtypes(false, ExplicitX64::Allow),
];

pub(super) const fn node_dtypes(x64: bool, explicit_x64: ExplicitX64) -> [DType; STRIDE] {
    let config = Config {
        x64,
        promotion: Promotion::Standard,
        explicit_x64,
    };
    let mut out = [DType::Bool; STRIDE];
    let mut i = 0;
    while i < JAX_DTYPES.len() {
        out[i] = config.requested(JAX_DTYPES[i]);
        i += 1;
    }
    out[i] = config.default_dtype(PyScalar::Int);
    out[i + 1] = config.default_dtype(PyScalar::Float);
    out[i + 2] = config.default_dtype(PyScalar::Complex);
    out
}

/// The concrete dtype `result_type` gives a weak result of each dtype: the
/// default dtype of its kind.
pub(super) const WEAK_RESULT: [[DType; DType::COUNT]; 2] =
    [weak_results(false), weak_results(true)];

pub(super) const fn weak_results(x64: bool) -> [DType; DType::COUNT] {
    let config = Config {
        x64,
        promotion: Promotion::Standard,
        explicit_x64: ExplicitX64::Warn,
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
pub(super) struct Reading {
    /// The first operand's (dtype, weak) pair.
    pub(super) first: (DType, bool),
    /// Every operand has the first one's dtype.
    pub(super) all_equal: bool,
    /// Some operand is `None` (only looked for when asked).
    pub(super) has_none: bool,
    /// The automaton's state after the last operand.
    pub(super) state: u8,
}

/// What the n-ary functions read from each of their inputs: JAX's
/// (dtype, weak) pair, as a [`typed_index`]. One generic reading serves
/// [`Operand`]s and [`Typed`] values alike.
pub(super) trait Input {
    /// The (dtype, weak) pair's [`typed_index`] under the configuration
    /// `decode` was built for. Readers mask it with `TYPED_VALUES - 1`
    /// (no change to the value) so that the compiler drops their tables'
    /// bounds checks.
    fn typed_index(&self, decode: &Decode) -> usize;
    /// The answer for this value alone: [`ShortLists::get`] of one.
    fn single(&self, lists: &ShortLists) -> Option<Typed>;
    /// Whether this is Python's `None`.
    fn is_none(&self) -> bool;
    /// The dtype this requests explicitly: a dtype specifier's. (Read
    /// only out of line, by [`Config::requests`].)
    fn request(&self) -> Option<DType>;
}

impl Input for Operand {
    #[inline(always)]
    fn typed_index(&self, decode: &Decode) -> usize {
        decode.get(self)
    }

    #[inline(always)]
    fn single(&self, lists: &ShortLists) -> Option<Typed> {
        lists.by_code[usize::from(self.code())]
    }

    #[inline(always)]
    fn is_none(&self) -> bool {
        Operand::is_none(*self)
    }

    fn request(&self) -> Option<DType> {
        match self.kind() {
            OperandKind::DType(dtype) => Some(dtype),
            _ => None,
        }
    }
}

impl Input for Typed {
    #[inline(always)]
    fn typed_index(&self, _: &Decode) -> usize {
        typed_index(self.dtype, self.weak)
    }

    #[inline(always)]
    fn single(&self, lists: &ShortLists) -> Option<Typed> {
        lists.singles[typed_index(self.dtype, self.weak) & (TYPED_VALUES - 1)]
    }

    #[inline(always)]
    fn is_none(&self) -> bool {
        false
    }

    fn request(&self) -> Option<DType> {
        None
    }
}

/// The [`typed_index`] of every operand under one configuration, by its
/// code: reading an [`Operand`] is then one load, with none of the
/// configuration's choices (canonical dtypes, default dtypes) as branches.
pub(super) struct Decode([u8; 256]);

impl Decode {
    /// Built from [`Config::decoded`], on one operand of each code.
    pub(super) fn new(config: Config) -> Decode {
        let mut table = [0; 256];
        for operand in Operand::each_code() {
            let (dtype, weak) = config.decoded(&operand);
            table[usize::from(operand.code())] = typed_index(dtype, weak) as u8;
        }
        Decode(table)
    }

    #[inline(always)]
    pub(super) fn get(&self, operand: &Operand) -> usize {
        usize::from(self.0[usize::from(operand.code())])
    }
}
