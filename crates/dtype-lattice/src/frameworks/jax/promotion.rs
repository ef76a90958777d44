//! JAX's rules, after `jax._src.dtypes`: how an operand becomes a (dtype,
//! weak) value, canonicalization under `jax_enable_x64`, weak types, and
//! the errors. The n-ary rules read a list through the automaton of
//! [`super::tables`], built from these same rules.

use super::lattice::{is_jax_dtype, node, node_type, JAX_DTYPES};
use super::tables::{
    compiled, typed_value, weak_aware_node, Automaton, Decode, End, Input, Reading, State,
    CANONICAL_X32, NODE_DTYPE, NO_JOIN, STRIDE, TABLES, TYPED_VALUES, WEAK_RESULT,
};
use super::{Config, ExplicitX64, Promotion};
use crate::engine::Node;
use crate::types::{
    DType, NoPathReason, Operand, OperandKind, PromotionError, PyScalar, TypeList, TypeSpec, Typed,
};

/// The rules themselves depend only on the configuration (and the tables
/// they are given), so that building the tables can use them.
impl Config {
    /// This configuration's lattice's place in `Compiled`'s `lattices`.
    #[inline]
    pub(super) fn slot(&self) -> usize {
        match self.promotion {
            Promotion::Standard => usize::from(self.x64),
            Promotion::Strict => 2,
        }
    }

    /// What a lattice node stands for under this configuration: a dtype
    /// node its dtype, strongly typed (a specifier, not yet canonicalized);
    /// a weak type's node the weak value of its Python type's default
    /// dtype (`i*` is a weak `int32` without x64, `int64` with it).
    pub(super) fn node_meaning(&self, node: Node) -> Typed {
        match node_type(node) {
            TypeSpec::DType(dtype) => Typed::strong(dtype),
            TypeSpec::Python(scalar) => Typed::weak(self.default_dtype(scalar)),
        }
    }

    /// This configuration's typed lattice's place in `Compiled`'s
    /// `lattices`: the lattice does not depend on the explicit-x64 mode.
    #[inline]
    pub(super) const fn lattice_index(&self) -> usize {
        let strict = matches!(self.promotion, Promotion::Strict);
        self.x64 as usize | (strict as usize) << 1
    }

    /// This configuration's place in `Compiled`'s `tables`: two per mode
    /// without x64 (standard, strict), and two with it, where the mode
    /// changes nothing and the three share tables.
    #[inline]
    pub(super) const fn index(&self) -> usize {
        let strict = matches!(self.promotion, Promotion::Strict) as usize;
        if self.x64 {
            2 * ExplicitX64::ALL.len() + strict
        } else {
            2 * self.explicit_x64 as usize + strict
        }
    }

    /// The configuration whose tables are at `index` (see
    /// [`index`](Self::index)).
    pub(super) const fn tabled(index: usize) -> Config {
        assert!(index < TABLES);
        let promotion = if index & 1 == 0 {
            Promotion::Standard
        } else {
            Promotion::Strict
        };
        let x64 = index / 2 == ExplicitX64::ALL.len();
        let explicit_x64 = if x64 {
            ExplicitX64::Warn
        } else {
            ExplicitX64::ALL[index / 2]
        };
        Config {
            x64,
            promotion,
            explicit_x64,
        }
    }

    /// Whether a 64-bit dtype requested explicitly is truncated with a
    /// warning: x64 off, `warn`.
    pub(super) const fn truncates(&self) -> bool {
        !self.x64 && matches!(self.explicit_x64, ExplicitX64::Warn)
    }

    /// Whether one is refused: x64 off, `error`.
    pub(super) const fn refuses(&self) -> bool {
        !self.x64 && matches!(self.explicit_x64, ExplicitX64::Error)
    }

    /// What a dtype requested explicitly (`dtypes.dtype()` of a specifier,
    /// or of a join) becomes: kept under `allow`, else canonicalized (under
    /// `error`, where a change is refused, see [`refuses`](Self::refuses)).
    #[inline]
    pub(super) const fn requested(&self, dtype: DType) -> DType {
        match self.explicit_x64 {
            ExplicitX64::Allow => dtype,
            ExplicitX64::Warn | ExplicitX64::Error => self.canonicalize_dtype(dtype),
        }
    }

    /// The same configuration under `warn`, whose rules `error` follows up
    /// to the first refusal.
    pub(super) const fn warn(&self) -> Config {
        Config {
            explicit_x64: ExplicitX64::Warn,
            ..*self
        }
    }

    /// See [`Jax::canonicalize_dtype`].
    #[inline]
    pub(super) const fn canonicalize_dtype(&self, dtype: DType) -> DType {
        if self.x64 {
            dtype
        } else {
            CANONICAL_X32[dtype.index()]
        }
    }

    /// See [`Jax::default_dtype`].
    pub(super) const fn default_dtype(&self, scalar: PyScalar) -> DType {
        self.canonicalize_dtype(match scalar {
            PyScalar::Bool => DType::Bool,
            PyScalar::Int => DType::Int64,
            PyScalar::Float => DType::Float64,
            PyScalar::Complex => DType::Complex128,
        })
    }

    /// See [`Jax::default_uint_dtype`].
    pub(super) const fn default_uint_dtype(&self) -> DType {
        self.canonicalize_dtype(DType::UInt64)
    }

    /// The (dtype, weak) pair JAX derives from one operand, as
    /// `result_type` reads it (`None` is the default float dtype). Python
    /// ints are not range-checked here: JAX 0.10.2 checks them only when it
    /// makes them arrays (see [`Jax::asarray`]).
    ///
    /// The n-ary functions read the same pairs from [`Decode`], which is
    /// built from this.
    pub(super) fn dtype_and_weak(&self, operand: &Operand) -> (DType, bool) {
        match operand.kind() {
            OperandKind::DType(dtype) => (self.requested(dtype), false),
            OperandKind::Array { dtype, weak } => (dtype, weak),
            OperandKind::ZeroDim(dtype) => (dtype, false),
            OperandKind::PyType(PyScalar::Bool) | OperandKind::PyBool(_) => (DType::Bool, false),
            OperandKind::PyType(scalar) => (self.default_dtype(scalar), true),
            OperandKind::PyInt(_) => (self.default_dtype(PyScalar::Int), true),
            OperandKind::PyFloat(_) => (self.default_dtype(PyScalar::Float), true),
            OperandKind::PyComplex { .. } => (self.default_dtype(PyScalar::Complex), true),
            OperandKind::None => (self.default_dtype(PyScalar::Float), false),
        }
    }

    /// The (dtype, weak) pair the tables read an operand as:
    /// [`dtype_and_weak`](Self::dtype_and_weak)'s, except that a specifier
    /// this configuration refuses keeps its 64-bit dtype, so that every
    /// list with it reaches the automaton's `wide` state and is refused
    /// there (see [`State::wide`]).
    pub(super) fn decoded(&self, operand: &Operand) -> (DType, bool) {
        match operand.kind() {
            OperandKind::DType(dtype) if self.refuses() => (dtype, false),
            _ => self.dtype_and_weak(operand),
        }
    }

    /// The dtype a lattice node (or `NO_JOIN`) stands for under this
    /// configuration; see [`NODE_DTYPE`].
    #[inline]
    pub(super) fn node_dtype(&self, node: u8) -> DType {
        let row = match (self.x64, self.explicit_x64) {
            (true, _) => 1,
            (false, ExplicitX64::Allow) => 2,
            (false, ExplicitX64::Warn | ExplicitX64::Error) => 0,
        };
        NODE_DTYPE[row][usize::from(node) & (STRIDE - 1)]
    }

    /// The error for inputs with no common upper bound. Out of line: the
    /// hot path only tests for `NO_JOIN`, and this builds the message's
    /// input list (inline, a [`TypeList`]).
    #[cold]
    #[inline(never)]
    pub(super) fn no_path(&self, nodes: impl Iterator<Item = Node>) -> PromotionError {
        let inputs: TypeList = nodes.map(node_type).collect();
        let reason = NoPathReason::for_inputs(self.promotion == Promotion::Strict, &inputs);
        PromotionError::NoPromotionPath { inputs, reason }
    }

    /// The error for two types with no common upper bound, built inline
    /// with fixed offsets only, where [`no_path`](Self::no_path) is a call
    /// that writes its answer through memory: the caller's answer then
    /// stays in registers on the path without error too.
    #[inline(always)]
    pub(super) fn no_path_between(&self, a: TypeSpec, b: TypeSpec) -> PromotionError {
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
    pub(super) fn no_path_reason(&self, a: TypeSpec, b: TypeSpec) -> NoPathReason {
        NoPathReason::for_inputs(self.promotion == Promotion::Strict, &[a, b])
    }

    /// Reads a list of operands once, through `automaton`; `None` for no
    /// operands. `track_none` asks whether any operand is `None` (only
    /// `lattice_result_type` cares).
    #[inline(always)]
    pub(super) fn read<T: Input>(
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
            all_equal: differs & (TYPED_VALUES / 2 - 1) == 0,
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
    /// `result_type` does. A list in the `wide` state (only under `error`)
    /// is answered out of line, by [`refused_or`](Self::refused_or).
    #[inline(always)]
    pub(super) fn apply_rules<T: Input>(
        &self,
        automaton: &Automaton,
        reading: &Reading,
        operands: &[T],
        concrete: bool,
    ) -> Result<Typed, PromotionError> {
        let (dtype, _) = reading.first;
        let end = automaton.ends[usize::from(reading.state)];
        // A branch: the number of operands is what a call site fixes, so
        // it predicts well.
        if operands.len() == 1 && !end.wide {
            return Ok(self.single(reading.first, concrete));
        }
        if reading.all_equal && end.keeps_dtype {
            return Ok(Typed::strong(dtype));
        }
        match if concrete { end.result } else { end.lattice } {
            Some(typed) => Ok(typed),
            None => self.no_answer(&automaton.decode, operands, end, concrete),
        }
    }

    /// The answer where the end state has none: the error for operands
    /// without a common upper bound, or, in the `wide` state, the answer
    /// under `error`. Out of line, as [`no_path`](Self::no_path).
    #[cold]
    #[inline(never)]
    fn no_answer<T: Input>(
        &self,
        decode: &Decode,
        operands: &[T],
        end: End,
        concrete: bool,
    ) -> Result<Typed, PromotionError> {
        if end.wide {
            if let Some(dtype) = lacked(decode, operands) {
                return Err(lacks(dtype));
            }
            return self.refused_or(operands, concrete);
        }
        let by_dtype = end.all_weak && self.promotion == Promotion::Standard;
        Err(self.no_path_in(decode, operands, by_dtype))
    }

    /// Under `error`, for a list with a 64-bit dtype: the refusal of the
    /// first 64-bit dtype JAX would request, or, if it requests none (64-bit
    /// arrays that keep their dtype), the answer under `warn`, whose rules
    /// are the same up to the first request.
    fn refused_or<T: Input>(
        &self,
        operands: &[T],
        concrete: bool,
    ) -> Result<Typed, PromotionError> {
        if let Some(dtype) = self.first_refused(operands, !concrete, true) {
            return Err(PromotionError::ExplicitX64Refused { dtype });
        }
        let warn = self.warn();
        let automaton = &compiled().tables[warn.index()].automaton;
        match warn.read(automaton, operands, false) {
            Some(reading) => warn.apply_rules(automaton, &reading, operands, concrete),
            None => Err(PromotionError::NoOperands),
        }
    }

    /// The first dtype this configuration refuses among those JAX
    /// requests for these operands (see [`requests`](Self::requests));
    /// `None` if it refuses none.
    pub(super) fn first_refused<T: Input>(
        &self,
        operands: &[T],
        lattice: bool,
        join: bool,
    ) -> Option<DType> {
        let mut refused = None;
        if self.refuses() {
            self.requests(operands, lattice, join, |dtype| {
                refused = Some(dtype);
                false
            });
        }
        refused
    }

    /// `lattice_result_type`'s error for a list with `None`, which JAX
    /// raises when it reaches it: unless a 64-bit specifier before it is
    /// refused first.
    #[cold]
    #[inline(never)]
    pub(super) fn none_operand(&self, operands: &[Operand]) -> PromotionError {
        match self.first_refused(operands, true, false) {
            Some(dtype) => PromotionError::ExplicitX64Refused { dtype },
            None => PromotionError::NoneOperand,
        }
    }

    /// What JAX's `result_type` (or with `lattice`, `lattice_result_type`)
    /// hands `dtypes.dtype()` as an explicit request that x64 being off
    /// changes, in JAX's order: each 64-bit dtype specifier among the
    /// operands, then, with `join`, the operands' join when it is a 64-bit
    /// dtype (64-bit arrays meeting there: one operand, or operands of one
    /// dtype not all weak, are answered without it). With `lattice`, a
    /// `None` ends the reading (JAX raises there). Calls `each` on each
    /// request until it returns false; returns whether it read to the end.
    /// With x64 on nothing is changed, so nothing is requested.
    ///
    /// Under `warn` each request is a warning, under `error` the first is
    /// refused; `allow` keeps them (and never calls this).
    pub(super) fn requests<T: Input>(
        &self,
        operands: &[T],
        lattice: bool,
        join: bool,
        mut each: impl FnMut(DType) -> bool,
    ) -> bool {
        if self.x64 {
            return true;
        }
        let changed = |dtype: DType| self.canonicalize_dtype(dtype) != dtype;
        for operand in operands {
            if lattice && operand.is_none() {
                return false;
            }
            match operand.request() {
                Some(dtype) if changed(dtype) && !each(dtype) => return false,
                _ => {}
            }
        }
        if !join || operands.len() < 2 {
            return true;
        }
        // The join as `warn` reads the operands: requests before it are
        // truncated (or, under `error`, refused before it matters).
        let warn = self.warn();
        let automaton = &compiled().tables[warn.index()].automaton;
        let Some(reading) = warn.read(automaton, operands, false) else {
            return true;
        };
        let end = automaton.ends[usize::from(reading.state)];
        if reading.all_equal && end.keeps_dtype {
            return true;
        }
        match DType::ALL.get(usize::from(end.joined)) {
            Some(&dtype) if changed(dtype) => each(dtype),
            _ => true,
        }
    }

    /// The rules' answer for one operand: itself, except that `bool` is
    /// never weak; with `concrete`, as [`apply_rules`](Self::apply_rules)
    /// says.
    #[inline(always)]
    pub(super) fn single(&self, (dtype, weak): (DType, bool), concrete: bool) -> Typed {
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
    pub(super) fn end(&self, state: &State) -> End {
        if state.wide {
            return End {
                lattice: None,
                result: None,
                all_weak: false,
                wide: true,
                keeps_dtype: false,
                joined: NO_JOIN,
            };
        }
        let by_dtype = state.all_weak && self.promotion == Promotion::Standard;
        let joined = if by_dtype {
            state.by_dtype
        } else {
            state.by_kind
        };
        let lattice = (joined != NO_JOIN).then(|| {
            let dtype = self.node_dtype(joined);
            let weak = by_dtype || usize::from(joined) >= JAX_DTYPES.len();
            Typed {
                dtype,
                weak: weak && dtype != DType::Bool,
            }
        });
        End {
            lattice,
            result: lattice.map(|typed| self.concrete(typed)),
            all_weak: state.all_weak,
            wide: false,
            keeps_dtype: !state.all_weak,
            joined,
        }
    }

    /// `result_type`'s answer for a (`lattice_result_type`) result: a weak
    /// result takes its kind's default dtype.
    #[inline]
    pub(super) fn concrete(&self, typed: Typed) -> Typed {
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
    pub(super) fn no_path_in<T: Input>(
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
    pub(super) fn general_result_type<T: Input>(
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

/// The first operand of a dtype JAX lacks (PyTorch's `complex32`), read
/// through `decode`: such lists end in the `wide` state.
fn lacked<T: Input>(decode: &Decode, operands: &[T]) -> Option<DType> {
    operands
        .iter()
        .map(|operand| typed_value(operand.typed_index(decode)).0)
        .find(|&dtype| !is_jax_dtype(dtype))
}

/// What `jnp.<name>` says of a dtype JAX lacks.
#[cold]
pub(super) fn lacks(dtype: DType) -> PromotionError {
    PromotionError::NoSuchDType {
        module: "jax.numpy",
        dtype,
    }
}
