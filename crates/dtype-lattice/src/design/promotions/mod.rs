//! The promotions of a program: each call a recorder saw a framework make
//! (where in the user's code, which operation, the operands as the
//! framework held them, what it answered), judged and compared.
//!
//! A front end records [`Call`]s (the Python package does it inside JAX
//! and PyTorch, `dtype_lattice.record`); each call names the framework
//! that made it ([`Call::framework`], JAX unless
//! [`recorded_by`](Call::recorded_by) says otherwise), whose policy, under
//! the call's settings, is the **reference** every answer stands beside.
//! [`Promotions::new`] aggregates the calls by site, framework, operation,
//! operand types and configuration into [`Entry`]s, and for each says:
//!
//! - whether it **promotes** at all: an array operand's dtype is not the
//!   result's (with only Python scalars, a scalar's). `float32 * float32`
//!   does not, nor `bfloat16 * 2.0`: the Python float takes the array's
//!   type, as JAX's weak types mean it to; `int32 * 2.0` does, and
//!   `2 * 2.5`;
//! - whether it is an **implicit promotion**: one JAX refuses under
//!   `jax_numpy_dtype_promotion="strict"` (the library's strict JAX policy
//!   of the same x64 setting, asked the same `lattice_result_type` JAX's
//!   promotion asks). Strict JAX still lets Python scalars meet arrays of
//!   their own kind, so `float32 * 2.0` is not implicit while
//!   `bfloat16 * float32` and `int32 * 2.0` are. Only JAX has a strict
//!   mode, so only JAX's calls are judged implicit: a PyTorch program's
//!   calls never are, since its user has no switch that would refuse them
//!   (asking "would strict JAX refuse this?" of a port is what
//!   `compare=["jax:strict"]` answers, operand by operand as the port would
//!   hand them over);
//! - the design notebook's **criteria** the result violates
//!   ([`audit::violations`](crate::design::audit::violations)), judged on
//!   the array (strong) operands and the result: a Python scalar is not an
//!   input of fixed width. With several array operands the result is
//!   judged against each of them and against the widest;
//! - each **compared** policy's answer ([`Answer`]): its
//!   [`operation`](crate::Policy::operation) where it and the running JAX
//!   both model the operation, else its `result_type`, with weak operands
//!   given as Python scalars of their kind (`2`, `2.0`, `2j`, as
//!   [`Operand::as_argument`](crate::Operand::as_argument) writes them: every framework has those),
//!   a PyTorch 0-d tensor as a 0-d array ([`Operand::zero_dim`](crate::Operand::zero_dim): the
//!   policies that promote those apart, PyTorch's, do; the others take a
//!   strongly-typed array), a dtype the policy lacks as its refusal; and
//!   whether it differs from the recording framework's answer to the same
//!   question.
//!
//! ```
//! use dtype_lattice::design::audit::Criterion;
//! use dtype_lattice::design::promotions::{Call, Filter, Promotions, Site};
//! use dtype_lattice::registry::{PolicySpec, Settings};
//! use dtype_lattice::{DType, Typed};
//!
//! let site = |line| Site::new("model.py", line, "embed", "y = idx * scale");
//! let multiply = |line, a, b, result| {
//!     Call::new(site(line), "multiply", vec![a, b], Ok(result), Settings::default())
//! };
//! let (int32, float32) = (Typed::strong(DType::Int32), Typed::strong(DType::Float32));
//! let calls = [
//!     multiply(3, float32, float32, float32),
//!     multiply(7, int32, float32, float32),
//!     multiply(7, int32, float32, float32),
//! ];
//! let numpy = PolicySpec::parse_list("numpy").unwrap();
//! let report = Promotions::new(calls, &numpy);
//! assert_eq!(report.calls(), 3);
//! // Riskiest first: int32 * float32 loses an int32's precision past 2**24.
//! let first = &report.entries[0];
//! assert_eq!((first.call.site.line, first.call.count), (7, 2));
//! assert!(first.implicit && first.promotes);
//! assert_eq!(first.criteria, [Criterion::PrecisionLoss]);
//! // NumPy multiplies int32 by float32 in float64.
//! assert_eq!(first.compared[0].answer, Ok(Typed::strong(DType::Float64)));
//! assert!(first.compared[0].differs);
//! // The default filter hides what promotes nothing and differs nowhere.
//! let shown = report.filter(&Filter::default());
//! assert_eq!((shown.entries.len(), shown.hidden), (1, 1));
//! ```

mod judge;
mod render;

use std::collections::HashMap;
use std::path::Path;

use crate::design::audit::Criterion;
use crate::registry::{PolicyInfo, PolicySpec, Settings, POLICIES};
use crate::types::{ArrayCall, DType, Op, Operand, PromotionError, Typed};

use judge::{judge, Policies};

/// Where a call was made: the first frame of the user's code (outside the
/// framework and the recorder).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Site {
    /// The source file, as the recorder names it.
    pub file: String,
    /// The line number, from 1.
    pub line: u32,
    /// The function the line is in (`<module>` at a module's top level).
    pub function: String,
    /// The source line, stripped (empty where the source is not at hand).
    pub code: String,
}

impl Site {
    /// A site from its parts.
    pub fn new(file: &str, line: u32, function: &str, code: &str) -> Site {
        Site {
            file: file.to_owned(),
            line,
            function: function.to_owned(),
            code: code.to_owned(),
        }
    }

    /// Whether the file is `root` or inside it, comparing whole path
    /// components (`src/model.py` is under `src`, not under `sr`).
    pub fn is_under(&self, root: &str) -> bool {
        Path::new(&self.file).starts_with(root)
    }
}

/// A promotion JAX refused at a call: the exception's class and message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Refusal {
    /// The Python exception class (`TypePromotionError`).
    pub error: String,
    /// Its message.
    pub message: String,
}

/// One call a recorder saw, or `count` identical ones.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// Where in the user's code.
    pub site: Site,
    /// The framework that made the call, by its registry entry (`jax`,
    /// `torch`): its policy under [`settings`](Self::settings) is the
    /// reference the report judges and compares against.
    pub framework: &'static PolicyInfo,
    /// The operation as the library names it (`add`, `true_divide`,
    /// `matmul`, `sum`), or as JAX does where the library has no name.
    pub operation: String,
    /// The operands as the framework held them: dtype and weak flag (a
    /// JAX weak type; a Python scalar elsewhere, as the dtype the
    /// framework makes of it).
    pub operands: Vec<Typed>,
    /// Which operands were 0-d tensors (PyTorch promotes those below
    /// tensors with dimensions): the positions, in order; empty for JAX,
    /// whose 0-d arrays promote as any array.
    pub zero_dim: Vec<usize>,
    /// JAX's `result_type` of the operands (with its weak flag), or the
    /// type of what another framework returned; or the refusal.
    pub result: Result<Typed, Refusal>,
    /// The framework's configuration at the call (JAX's `x64`, `strict`,
    /// `explicit_x64_dtypes`; the defaults for a framework without
    /// settings).
    pub settings: Settings,
    /// How many times the call was made.
    pub count: u64,
    /// A reduction's `dtype=`, where given.
    pub dtype: Option<DType>,
    /// A reduction's `promote_integers=`, where given.
    pub promote_integers: Option<bool>,
    /// The values of the operands that were Python scalars or 0-d arrays
    /// (NumPy's scalars among them), where the recorder read them (a
    /// position each, `None` elsewhere; empty when none was read): NumPy 1
    /// decided a type by such a value (`int8 + 300` and `int8 +
    /// np.int64(300)` are `int16` there; NumPy 2 refuses the first and
    /// makes the second `int64`), so every policy is asked with the value
    /// itself (a 0-d array as [`Operand::zero_dim_holding`]).
    pub values: Vec<Option<Operand>>,
}

impl Call {
    /// One call.
    pub fn new(
        site: Site,
        operation: &str,
        operands: Vec<Typed>,
        result: Result<Typed, Refusal>,
        settings: Settings,
    ) -> Call {
        Call {
            site,
            framework: &POLICIES[0],
            operation: operation.to_owned(),
            operands,
            zero_dim: Vec::new(),
            result,
            settings,
            count: 1,
            dtype: None,
            promote_integers: None,
            values: Vec::new(),
        }
    }

    /// The call as `framework` made it (the registry's entry, such as
    /// [`policy_info("torch")`](crate::registry::policy_info)), with the
    /// operands at `zero_dim` 0-d tensors.
    ///
    /// ```
    /// use dtype_lattice::design::promotions::{Call, Promotions, Site};
    /// use dtype_lattice::registry::{policy_info, PolicySpec, Settings};
    /// use dtype_lattice::{DType, Typed};
    ///
    /// // torch.ones(3, dtype=torch.int8) * torch.tensor(1000): PyTorch keeps int8.
    /// let [int8, int64] = [DType::Int8, DType::Int64].map(Typed::strong);
    /// let site = Site::new("model.py", 3, "f", "y = x * scale");
    /// let call = Call::new(site, "multiply", vec![int8, int64], Ok(int8), Settings::default())
    ///     .recorded_by(policy_info("torch").unwrap(), vec![1]);
    /// let report = Promotions::new([call], &PolicySpec::parse_list("jax:x64").unwrap());
    /// let entry = &report.entries[0];
    /// assert_eq!(entry.configuration, "torch");
    /// // A port hands JAX a 0-d int64 array, which JAX promotes as any array.
    /// assert_eq!(entry.compared[0].answer, Ok(int64));
    /// assert_eq!(entry.compared[0].reference, Ok(int8));
    /// ```
    pub fn recorded_by(self, framework: &'static PolicyInfo, zero_dim: Vec<usize>) -> Call {
        Call {
            framework,
            zero_dim,
            ..self
        }
    }

    /// The call with the values of its Python scalar operands
    /// ([`values`](Self::values)).
    ///
    /// ```
    /// use dtype_lattice::design::promotions::{Call, Promotions, Refusal, Site};
    /// use dtype_lattice::registry::{policy_info, PolicySpec, Settings};
    /// use dtype_lattice::{DType, Operand, Typed};
    ///
    /// // np.arange(3, dtype=np.int8) + 300: NumPy 2 refuses the value.
    /// let site = Site::new("old.py", 5, "<module>", "y = x + 300");
    /// let refusal = Refusal {
    ///     error: "OverflowError".into(),
    ///     message: "Python integer 300 out of bounds for int8".into(),
    /// };
    /// let operands = vec![Typed::strong(DType::Int8), Typed::weak(DType::Int64)];
    /// let call = Call::new(site, "add", operands, Err(refusal), Settings::default())
    ///     .recorded_by(policy_info("numpy").unwrap(), vec![])
    ///     .with_values(vec![None, Some(Operand::py_int(300))]);
    /// let report = Promotions::new([call], &PolicySpec::parse_list("numpy1").unwrap());
    /// // NumPy 1 chose int16 for 300.
    /// assert_eq!(report.entries[0].compared[0].answer, Ok(Typed::strong(DType::Int16)));
    /// ```
    pub fn with_values(self, values: Vec<Option<Operand>>) -> Call {
        Call { values, ..self }
    }

    /// The value of the operand at `index`, where it was a Python scalar
    /// or a 0-d array whose value the recorder read.
    pub fn value(&self, index: usize) -> Option<Operand> {
        self.values.get(index).copied().flatten()
    }

    /// Whether the operand at `index` was a 0-d tensor.
    pub fn is_zero_dim(&self, index: usize) -> bool {
        self.zero_dim.contains(&index)
    }

    /// The call with a reduction's keywords: `dtype=` and JAX's
    /// `promote_integers=`, where given.
    ///
    /// ```
    /// use dtype_lattice::design::promotions::{Call, Promotions, Site};
    /// use dtype_lattice::registry::{PolicySpec, Settings};
    /// use dtype_lattice::{DType, Typed};
    ///
    /// let (int8, float16) = (Typed::strong(DType::Int8), Typed::strong(DType::Float16));
    /// let site = Site::new("m.py", 4, "f", "total = x.sum(dtype=jnp.int8)");
    /// let keyed = Call::new(site.clone(), "sum", vec![int8], Ok(int8), Settings::default())
    ///     .with_keywords(Some(DType::Int8), None);
    /// let mean = Call::new(site, "mean", vec![float16], Ok(float16), Settings::default());
    /// let report = Promotions::new([keyed, mean], &PolicySpec::parse_list("numpy").unwrap());
    /// let sum = report.entries.iter().find(|e| e.call.operation == "sum").unwrap();
    /// assert_eq!(sum.gives, Some(Ok(int8)));
    /// // JAX sums a float16 mean in float32 and casts back.
    /// let mean = report.entries.iter().find(|e| e.call.operation == "mean").unwrap();
    /// assert_eq!(mean.computes_in, Some(DType::Float32));
    /// ```
    pub fn with_keywords(self, dtype: Option<DType>, promote_integers: Option<bool>) -> Call {
        Call {
            dtype,
            promote_integers,
            ..self
        }
    }
}

/// What a compared answer answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// The operation's result ([`Policy::operation`](crate::Policy::operation)), where both policies
    /// model it.
    Operation(Op),
    /// The promotion ([`Policy::result_type`](crate::Policy::result_type)).
    Promotion,
    /// A reduction's result, with its keywords
    /// ([`Policy::array_op`](crate::Policy::array_op)), where both
    /// policies model it.
    Array(ArrayCall),
}

impl Question {
    /// The operation's name, or `result_type`.
    pub fn name(self) -> &'static str {
        match self {
            Question::Operation(op) => op.name(),
            Question::Promotion => "result_type",
            Question::Array(call) => call.op().name(),
        }
    }
}

/// One compared policy's answer for an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The policy as the user named it, in full form (`numpy`,
    /// `strict=true`).
    pub spec: String,
    /// The policy built, by its name (`jax (x64 off, strict)`).
    pub policy: String,
    /// What was asked.
    pub question: Question,
    /// The policy's answer.
    pub answer: Result<Typed, PromotionError>,
    /// The recording framework's answer to the same question (its
    /// policy's, under the call's settings).
    pub reference: Result<Typed, PromotionError>,
    /// Whether the two differ: their dtypes differ, or exactly one fails.
    /// (The weak flag is JAX's own notion and is not compared.)
    pub differs: bool,
}

impl Answer {
    /// Whether the compared policy refuses the call.
    pub fn fails(&self) -> bool {
        self.answer.is_err()
    }
}

/// The calls at one site of one operation on one list of operand types,
/// under one configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The calls: where, which operation on which operands, JAX's result,
    /// its configuration, and how many (`count`).
    pub call: Call,
    /// The operation as the library knows it, where it does (and the
    /// operands are its number).
    pub op: Option<Op>,
    /// The recording framework's policy's name (`jax (x64 off,
    /// standard)`, `torch`).
    pub configuration: String,
    /// What the operation then gives under the running JAX, as the library
    /// models it (`true_divide` of two int32 promotes to int32 and gives
    /// float32; `less` gives bool; `sum` of int8 accumulates in int32 with
    /// x64 off), where it models the operation.
    pub gives: Option<Result<Typed, PromotionError>>,
    /// The type the running JAX computes the call in, where it differs
    /// from the result: a `float16` `mean` sums in `float32`.
    pub computes_in: Option<DType>,
    /// Whether an array operand's dtype (with only Python scalars, a
    /// scalar's) is not the result's, or JAX refused.
    pub promotes: bool,
    /// Whether strict JAX refuses it (module docs); false for the calls
    /// of frameworks without a strict mode.
    pub implicit: bool,
    /// The design notebook's criteria the result violates, in order.
    pub criteria: Vec<Criterion>,
    /// Each compared policy's answer, in the order they were given.
    pub compared: Vec<Answer>,
}

impl Entry {
    /// Whether some compared policy's answer differs or fails.
    pub fn differs(&self) -> bool {
        self.compared.iter().any(|a| a.differs || a.fails())
    }

    /// The key that sorts the riskiest first ([`Promotions::new`]).
    fn risk(&self) -> impl Ord + '_ {
        let severity = self
            .criteria
            .first()
            .map_or(Criterion::ALL.len(), |&c| c as usize);
        let differing = self
            .compared
            .iter()
            .filter(|a| a.differs || a.fails())
            .count();
        (
            self.call.result.is_ok(),
            severity,
            !self.implicit,
            !self.promotes,
            std::cmp::Reverse(differing),
            std::cmp::Reverse(self.call.count),
            (
                &self.call.site.file,
                self.call.site.line,
                &self.call.operation,
            ),
        )
    }
}

/// Which entries a report keeps. The default keeps every entry that
/// promotes, differs from a compared policy, or computes in another type
/// than it returns (a `float16` `mean` summed in `float32`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only entries where a compared policy's answer differs or fails.
    pub differences: bool,
    /// Only entries violating this criterion.
    pub criterion: Option<Criterion>,
    /// Only sites in this file or under this directory ([`Site::is_under`]).
    pub under: Option<String>,
    /// Only implicit promotions.
    pub implicit: bool,
    /// Also the entries that promote nothing and match every compared
    /// policy (`float32 + float32`), hidden otherwise.
    pub noops: bool,
}

impl Filter {
    /// Whether the filter keeps `entry`.
    pub fn keeps(&self, entry: &Entry) -> bool {
        (self.noops || entry.promotes || entry.differs() || entry.computes_in.is_some())
            && (!self.differences || entry.differs())
            && self
                .criterion
                .is_none_or(|criterion| entry.criteria.contains(&criterion))
            && self
                .under
                .as_deref()
                .is_none_or(|root| entry.call.site.is_under(root))
            && (!self.implicit || entry.implicit)
    }
}

/// A program's promotions: its entries, riskiest first.
///
/// The order: calls JAX refused; then by the most serious criterion
/// violated, in the notebook's order (a dropped component, overflow,
/// precision loss, a result wider than its inputs, none); then implicit
/// promotions before the rest, entries that promote before those that do
/// not, more compared policies differing before fewer, more calls before
/// fewer; then by file, line and operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Promotions {
    /// The entries, riskiest first.
    pub entries: Vec<Entry>,
    /// The compared policies, in full form ([`PolicySpec`]'s display).
    pub compared: Vec<String>,
    /// How many entries filters have left out.
    pub hidden: usize,
    /// How many calls a compiler traced (`torch.compile`), which were not
    /// recorded: compiled code runs the compiler's graph, whose types are
    /// the compiler's to choose, so the report says so rather than guess.
    pub compiled: u64,
}

impl Promotions {
    /// Aggregates `calls` by site, operation, operand types and
    /// configuration (summing their counts) and judges each entry against
    /// the policies in `compare` (module docs), riskiest first.
    pub fn new(calls: impl IntoIterator<Item = Call>, compare: &[PolicySpec]) -> Promotions {
        type Key = (
            Site,
            &'static str,
            String,
            Vec<Typed>,
            Vec<usize>,
            Settings,
            Option<DType>,
            Option<bool>,
            Vec<Option<String>>,
        );
        let mut index: HashMap<Key, usize> = HashMap::new();
        let mut merged: Vec<Call> = Vec::new();
        for call in calls {
            let key = (
                call.site.clone(),
                call.framework.name,
                call.operation.clone(),
                call.operands.clone(),
                call.zero_dim.clone(),
                call.settings,
                call.dtype,
                call.promote_integers,
                // A value by its Python literal (an `Operand` of a float
                // is not `Hash`).
                (call.values.iter())
                    .map(|value| value.map(|v| v.to_string()))
                    .collect(),
            );
            match index.get(&key) {
                Some(&i) => merged[i].count += call.count,
                None => {
                    index.insert(key, merged.len());
                    merged.push(call);
                }
            }
        }
        let mut policies = Policies(HashMap::new());
        let mut entries: Vec<Entry> = merged
            .into_iter()
            .map(|call| judge(call, compare, &mut policies))
            .collect();
        entries.sort_by(|a, b| a.risk().cmp(&b.risk()));
        Promotions {
            entries,
            compared: compare.iter().map(ToString::to_string).collect(),
            hidden: 0,
            compiled: 0,
        }
    }

    /// The report with `calls` made inside code `torch.compile` traced,
    /// which the recorder counted but could not record as eager calls.
    ///
    /// ```
    /// use dtype_lattice::design::promotions::Promotions;
    /// let report = Promotions::new([], &[]).with_compiled(3);
    /// assert_eq!(report.to_json()["compiled"], 3);
    /// assert!(report.to_string().contains("3 calls made under torch.compile were not recorded"));
    /// ```
    pub fn with_compiled(self, calls: u64) -> Promotions {
        Promotions {
            compiled: calls,
            ..self
        }
    }

    /// The entries `filter` keeps; the rest count as [`hidden`](Self::hidden).
    ///
    /// ```
    /// use dtype_lattice::design::promotions::{Call, Filter, Promotions, Site};
    /// use dtype_lattice::registry::Settings;
    /// use dtype_lattice::{DType, Typed};
    ///
    /// let [int8, uint8, int16] = [DType::Int8, DType::UInt8, DType::Int16].map(Typed::strong);
    /// let call = |file: &str| Call::new(
    ///     Site::new(file, 1, "f", ""), "add", vec![int8, uint8], Ok(int16), Settings::default());
    /// let report = Promotions::new([call("src/a.py"), call("tests/b.py")], &[]);
    /// let mine = report.filter(&Filter { under: Some("src".into()), ..Filter::default() });
    /// assert_eq!(mine.entries.len(), 1);
    /// assert_eq!(mine.entries[0].call.site.file, "src/a.py");
    /// ```
    pub fn filter(&self, filter: &Filter) -> Promotions {
        let entries: Vec<Entry> = self
            .entries
            .iter()
            .filter(|entry| filter.keeps(entry))
            .cloned()
            .collect();
        Promotions {
            hidden: self.hidden + self.entries.len() - entries.len(),
            entries,
            compared: self.compared.clone(),
            compiled: self.compiled,
        }
    }

    /// How many calls the entries count.
    pub fn calls(&self) -> u64 {
        self.entries.iter().map(|entry| entry.call.count).sum()
    }

    /// The frameworks that made the entries' calls, by registry name, in
    /// order of first appearance.
    pub fn frameworks(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for entry in &self.entries {
            if !names.contains(&entry.call.framework.name) {
                names.push(entry.call.framework.name);
            }
        }
        names
    }

    /// The distinct configurations of the entries' calls, by policy name,
    /// in order of first appearance.
    pub fn configurations(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for entry in &self.entries {
            if !names.contains(&entry.configuration.as_str()) {
                names.push(&entry.configuration);
            }
        }
        names
    }
}

#[cfg(test)]
mod tests;
