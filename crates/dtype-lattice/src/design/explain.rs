//! Why two nodes of a graph promote as they do, named as people write them,
//! with the error the rules give when they have no join: what `explain`
//! shows, as data for every front end.
//!
//! Inputs are node labels, dtype names or aliases, or Python scalar types:
//!
//! ```
//! use dtype_lattice::design::Definition;
//! use dtype_lattice::frameworks::jax::Jax;
//!
//! let jax = Definition::from_policy(&Jax::default()).unwrap();
//! assert_eq!(jax.resolve("f4"), jax.resolve("float32"));
//! assert_eq!(jax.resolve("float"), jax.resolve("f*"));
//! let err = jax.resolve("unit8").unwrap_err();
//! assert_eq!(err.to_string(), "no node 'unit8' in jax (x64 off, standard): did you mean 'uint8'?");
//! ```
//!
//! A [`Report`] adds the reasoning ([`Explanation`]) and, for a pair with no
//! common upper bound, the error:
//!
//! ```
//! use dtype_lattice::design::explain::Report;
//! use dtype_lattice::design::Definition;
//! use dtype_lattice::engine::Bound;
//! use dtype_lattice::frameworks::jax::Jax;
//!
//! let jax = Jax::default();
//! let definition = Definition::from_policy(&jax).unwrap();
//! let poset = definition.poset().unwrap();
//! let report = Report::new(&definition, &poset, Some(&jax), ["int4", "int8"]).unwrap();
//! assert_eq!(report.why.bound, Bound::None);
//! let err = report.error.unwrap();
//! assert_eq!(err.no_path_reason().unwrap().family(), "sub_byte_integer");
//! ```

use crate::design::Error;
use std::fmt;

use crate::design::Definition;

use crate::design::table::arguments;
use crate::engine::{Bound, Explanation, Node, Poset};
use crate::policy::Policy;
use crate::text::nearest;
use crate::types::{
    Asked, DType, NoPathReason, Operand, Outcome, PromotionError, PyScalar, TypeList, TypeSpec,
    Typed,
};

/// The explanation of one pair, with what a front end needs to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The graph's name.
    pub name: String,
    /// The inputs as given.
    pub inputs: [String; 2],
    /// Every node's label, by node.
    pub labels: Vec<String>,
    /// The reasoning: upper bounds, common ones, the outcome, the paths.
    pub why: Explanation,
    /// For a pair with no common upper bound, the error the rules give
    /// (see [`Report::new`]).
    pub error: Option<PromotionError>,
    /// Where the graph is only where the rules start
    /// ([`Policy::written_graph`]: Keras cuts joins to 32 bits, tinygrad
    /// picks among minimal bounds), what the policy answers for the pair
    /// when that is not the graph's join.
    pub rules_answer: Option<Result<Typed, PromotionError>>,
    /// With an operation ([`Report::with_operation`]), what it makes of
    /// the pair after promotion.
    pub operation: Option<OperationStep>,
}

/// The step after promotion: an operation's rule and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperationStep {
    /// The operation, with its keywords.
    pub op: Asked,
    /// How the policy computes it ([`Policy::describe_operation`],
    /// [`Policy::describe_array_op`]).
    pub rule: Option<String>,
    /// Its answer for an array of each type (a Python scalar of each
    /// Python type), with the type it computes in where the framework
    /// says.
    pub answer: Result<Outcome, PromotionError>,
}

impl OperationStep {
    /// `op`'s step under `policy` for an array of each of `types` (a
    /// Python scalar of each Python type; as [`arguments`] makes them):
    /// its rule and its answer. `None` where the policy does not model
    /// `op`.
    pub fn of(policy: &dyn Policy, op: Asked, types: &[TypeSpec]) -> Option<OperationStep> {
        let operands = arguments(op.operation(), taken(op, types));
        let answer = policy.ask(op, &operands)?;
        Some(OperationStep {
            op,
            rule: policy.describe(op.operation()),
            answer,
        })
    }
}

/// An operation explained under a policy defined by rules (NumPy's,
/// PaddlePaddle's, MLX's): there is no graph to trace, so the report is
/// the operands' promotion as the policy's `result_type` answers it, then
/// the operation's rule and answer. What `explain --op` shows for such a
/// policy.
///
/// ```
/// use dtype_lattice::design::explain::RulesReport;
/// use dtype_lattice::registry::{by_name, Settings};
/// use dtype_lattice::{Asked, DType, Op, TypeSpec, Typed};
///
/// let numpy = by_name("numpy", Settings::default()).unwrap();
/// let int8 = TypeSpec::DType(DType::Int8);
/// let divide = Asked::Elementwise(Op::TrueDivide);
/// let report = RulesReport::new(numpy.as_ref(), divide, &[int8, int8]).unwrap();
/// assert_eq!(report.promotion, Ok(Typed::strong(DType::Int8)));
/// assert_eq!(report.operation.answer.unwrap().result(), Typed::strong(DType::Float64));
/// assert!(report.operation.rule.is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesReport {
    /// The policy's name, with its settings.
    pub name: String,
    /// The two types as the policy names them (one for a unary
    /// operation).
    pub inputs: Vec<String>,
    /// The operands' `result_type` under the policy.
    pub promotion: Result<Typed, PromotionError>,
    /// The operation's rule and answer.
    pub operation: OperationStep,
}

/// The first of `types`, as many as `op` takes at most (a unary
/// operation the first).
fn taken(op: Asked, types: &[TypeSpec]) -> &[TypeSpec] {
    &types[..types.len().min(*op.operation().operands().end())]
}

impl RulesReport {
    /// `op` on an array of each of `types` under `policy` (the operands
    /// [`arguments`] makes; a unary operation takes the first); `None`
    /// where the policy does not model `op`.
    pub fn new(policy: &dyn Policy, op: Asked, types: &[TypeSpec]) -> Option<RulesReport> {
        let types = taken(op, types);
        let operation = OperationStep::of(policy, op, types)?;
        let operands: Vec<_> = types
            .iter()
            .map(|&t| crate::design::table::value(t))
            .collect();
        Some(RulesReport {
            name: policy.name(),
            inputs: types.iter().map(ToString::to_string).collect(),
            promotion: policy.result_type(&operands),
            operation,
        })
    }
}

impl Report {
    /// Explains `inputs` (see [`Definition::resolve`]) in `definition`,
    /// validated as `poset`. For a pair with no common upper bound the
    /// report carries the error of `policy` (the one the definition came
    /// from), or without one the error JAX's rules give for those types
    /// under standard promotion; none when a node stands for no type.
    pub fn new(
        definition: &Definition,
        poset: &Poset,
        policy: Option<&dyn Policy>,
        inputs: [&str; 2],
    ) -> Result<Report, Error> {
        let [a, b] = [
            definition.resolve(inputs[0])?,
            definition.resolve(inputs[1])?,
        ];
        let why = Explanation::new(poset, a, b);
        let error = match why.bound {
            Bound::None => no_path_error(definition, policy, a, b),
            Bound::Least(_) | Bound::Ambiguous(_) => None,
        };
        Ok(Report {
            name: definition.name.clone(),
            inputs: inputs.map(str::to_owned),
            labels: poset.labels().to_vec(),
            why,
            error,
            rules_answer: None,
            operation: None,
        })
    }

    /// Explains a cell of `policy`'s promotion table
    /// ([`Table`](crate::design::table::Table)): each dtype as the policy
    /// takes it alone (JAX without x64 makes `uint64` a `uint32` before
    /// promoting), each Python scalar type at the node where it stands, so
    /// that the join is the cell's answer. `definition` (validated as
    /// `poset`) is the policy's graph ([`Definition::from_policy`]).
    ///
    /// ```
    /// use dtype_lattice::design::explain::Report;
    /// use dtype_lattice::design::Definition;
    /// use dtype_lattice::engine::Bound;
    /// use dtype_lattice::frameworks::jax::Jax;
    /// use dtype_lattice::{DType, TypeSpec};
    ///
    /// let jax = Jax::default(); // x64 off
    /// let definition = Definition::from_policy(&jax).unwrap();
    /// let poset = definition.poset().unwrap();
    /// let cell = [TypeSpec::DType(DType::UInt64), TypeSpec::DType(DType::Int8)];
    /// let report = Report::of_types(&definition, &poset, &jax, cell).unwrap();
    /// assert_eq!(report.inputs, ["uint32", "int8"]);
    /// let Bound::Least(join) = report.why.bound else { panic!() };
    /// assert_eq!(report.label(join), "int32"); // the table's i4
    /// ```
    pub fn of_types(
        definition: &Definition,
        poset: &Poset,
        policy: &dyn Policy,
        types: [TypeSpec; 2],
    ) -> Result<Report, Error> {
        for spec in types {
            let TypeSpec::Python(scalar) = spec else {
                continue;
            };
            // A policy whose Python scalars take the other operand's dtype
            // (the Array API's, PyTorch's) marks where one stands alone,
            // a strong node whose joins are not the table's.
            let weak_node = definition
                .nodes
                .iter()
                .any(|node| node.python == Some(scalar) && node.weak);
            if !weak_node {
                return Err(Error::UnknownNode(UnknownNode {
                    input: scalar.name().to_owned(),
                    subject: definition.name.clone(),
                    suggestion: None,
                    by_rule: true,
                }));
            }
        }
        let inputs = types.map(|spec| match spec {
            TypeSpec::DType(dtype) => policy
                .result_type(&[Operand::dtype(dtype)])
                .map_or(dtype, |alone| alone.dtype)
                .name()
                .to_owned(),
            TypeSpec::Python(scalar) => scalar.name().to_owned(),
        });
        let mut report = Report::new(definition, poset, Some(policy), [&inputs[0], &inputs[1]])?;
        if policy.lattice().is_none() {
            let answer = policy.result_type(&[Operand::from(types[0]), Operand::from(types[1])]);
            let joined = match report.why.bound {
                Bound::Least(join) => {
                    let node = &definition.nodes[join];
                    node.dtype.map(|dtype| Typed {
                        dtype,
                        weak: node.weak,
                    })
                }
                _ => None,
            };
            if answer.as_ref().ok() != joined.as_ref() {
                report.rules_answer = Some(answer);
            }
        }
        Ok(report)
    }

    /// The report with `op`'s step added: its rule and its answer for an
    /// array of each of `types` under `policy`; `None` where the policy
    /// does not model `op`.
    ///
    /// ```
    /// use dtype_lattice::design::explain::Report;
    /// use dtype_lattice::design::Definition;
    /// use dtype_lattice::frameworks::jax::Jax;
    /// use dtype_lattice::{Asked, DType, Op, TypeSpec, Typed};
    ///
    /// let jax = Jax::default();
    /// let definition = Definition::from_policy(&jax).unwrap();
    /// let poset = definition.poset().unwrap();
    /// let types = [TypeSpec::DType(DType::Int32), TypeSpec::DType(DType::Int32)];
    /// let report = Report::of_types(&definition, &poset, &jax, types).unwrap();
    /// let divide = Asked::Elementwise(Op::TrueDivide);
    /// let report = report.with_operation(&jax, divide, types).unwrap();
    /// let step = report.operation.as_ref().unwrap();
    /// assert_eq!(step.answer.as_ref().unwrap().result(), Typed::strong(DType::Float32));
    /// assert!(step.rule.as_ref().unwrap().contains("promote_args_inexact"));
    /// ```
    pub fn with_operation(
        mut self,
        policy: &dyn Policy,
        op: Asked,
        types: [TypeSpec; 2],
    ) -> Option<Report> {
        self.operation = Some(OperationStep::of(policy, op, &types)?);
        Some(self)
    }

    /// A node's label.
    pub fn label(&self, node: Node) -> &str {
        &self.labels[node]
    }

    /// The labels of `nodes`.
    pub fn labels_of(&self, nodes: &[Node]) -> Vec<&str> {
        nodes.iter().map(|&n| self.label(n)).collect()
    }

    /// The outcome in a sentence: the join, or why there is none.
    pub fn outcome(&self) -> String {
        let [a, b] = self.why.inputs.map(|n| self.label(n));
        match &self.why.bound {
            Bound::Least(join) => format!("join: {}", self.label(*join)),
            Bound::None => format!("no join: {a} and {b} have no common upper bound"),
            Bound::Ambiguous(candidates) => format!(
                "no join: {{{a}, {b}}} has {} minimal common upper bounds ({}) and no least one, so {} is not a lattice",
                candidates.len(),
                self.labels_of(candidates).join(", "),
                self.name
            ),
        }
    }
}

/// The error for a pair with no common upper bound: the policy's own, or
/// else the one JAX's rules give for those types (standard promotion);
/// none when a node stands for no type.
fn no_path_error(
    definition: &Definition,
    policy: Option<&dyn Policy>,
    a: Node,
    b: Node,
) -> Option<PromotionError> {
    let (x, y) = (definition.type_spec(a)?, definition.type_spec(b)?);
    match policy {
        Some(policy) => policy.promote_types(x, y).err(),
        None => {
            let inputs: TypeList = [x, y].into_iter().collect();
            let reason = NoPathReason::for_inputs(false, &inputs);
            Some(PromotionError::NoPromotionPath { inputs, reason })
        }
    }
}

impl Definition {
    /// The node an input names, tried in this order: a node label as
    /// written; Python's `int`, `float`, `complex` (or `i*`, `f*`, `c*`) as
    /// the node where that Python type stands ([`NodeDef::python`](crate::design::NodeDef::python)); a
    /// strong node of any dtype name or alias
    /// [`DType::from_name`] accepts, as the node of that dtype.
    ///
    /// Fails with the nearest label when nothing matches.
    pub fn resolve(&self, input: &str) -> Result<Node, Error> {
        if let Some(node) = self.node(input) {
            return Ok(node);
        }
        let weak = PyScalar::from_name(input)
            .filter(|&scalar| scalar != PyScalar::Bool)
            .and_then(|scalar| self.nodes.iter().position(|n| n.python == Some(scalar)));
        let dtype = || {
            let dtype = DType::from_name(input).ok()?;
            self.nodes
                .iter()
                .position(|n| n.dtype == Some(dtype) && !n.weak)
                .or_else(|| self.nodes.iter().position(|n| n.dtype == Some(dtype)))
        };
        weak.or_else(dtype).ok_or_else(|| {
            Error::UnknownNode(UnknownNode {
                input: input.to_owned(),
                subject: self.name.clone(),
                suggestion: self.nearest_label(input),
                by_rule: false,
            })
        })
    }

    /// The type a node stands for, as `promote_types` takes it: the
    /// Python scalar type that stands there, else a strong node's dtype.
    /// `None` for opaque nodes and weak nodes no Python type stands at.
    ///
    /// ```
    /// use dtype_lattice::design::Definition;
    /// use dtype_lattice::frameworks::jax::Jax;
    /// use dtype_lattice::{DType, PyScalar, TypeSpec};
    ///
    /// let jax = Definition::from_policy(&Jax::default()).unwrap();
    /// assert_eq!(jax.type_spec(jax.resolve("i1").unwrap()), Some(TypeSpec::DType(DType::Int8)));
    /// assert_eq!(jax.type_spec(jax.resolve("c*").unwrap()), Some(TypeSpec::Python(PyScalar::Complex)));
    /// ```
    pub fn type_spec(&self, node: Node) -> Option<TypeSpec> {
        let def = self.nodes.get(node)?;
        match (def.python, def.dtype) {
            (Some(scalar), _) => Some(TypeSpec::Python(scalar)),
            (None, Some(dtype)) if !def.weak => Some(TypeSpec::DType(dtype)),
            _ => None,
        }
    }

    fn nearest_label(&self, input: &str) -> Option<String> {
        nearest(input, self.nodes.iter().map(|n| n.label.as_str())).map(str::to_owned)
    }
}

/// An input that names no node of a [`Definition`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownNode {
    input: String,
    subject: String,
    suggestion: Option<String>,
    /// A Python scalar type the policy promotes by a rule of its own, not
    /// at a node of its graph.
    by_rule: bool,
}

impl UnknownNode {
    /// The input that matched nothing.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The label the input most resembles, if one is close.
    pub fn suggestion(&self) -> Option<&str> {
        self.suggestion.as_deref()
    }
}

impl fmt::Display for UnknownNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no node '{}' in {}",
            self.input.escape_debug(),
            self.subject
        )?;
        if self.by_rule {
            return write!(
                f,
                ": {} promotes Python's {} by a rule (it takes the other operand's kind), \
                 not at a node of its graph",
                self.subject, self.input
            );
        }
        match &self.suggestion {
            Some(label) => write!(f, ": did you mean '{label}'?"),
            None => write!(
                f,
                ": give a node label, a dtype name or alias, or int, float, complex"
            ),
        }
    }
}

impl std::error::Error for UnknownNode {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Poset;
    use crate::frameworks::jax::{Config, Jax};

    #[test]
    fn inputs_resolve_by_label_alias_and_python_type() {
        let jax = Definition::from_policy(&Jax::new(Config::default())).unwrap();
        let node = |label| jax.node(label).unwrap();
        assert_eq!(jax.resolve("int"), Ok(node("i*")));
        assert_eq!(jax.resolve("complex"), Ok(node("c*")));
        assert_eq!(jax.resolve("bool"), Ok(node("bool")));
        assert_eq!(jax.resolve("<c8"), Ok(node("complex64")));
        assert_eq!(jax.resolve("double"), Ok(node("float64")));
        let Err(Error::UnknownNode(err)) = jax.resolve("nothing-like-it") else {
            panic!("an unknown node");
        };
        assert_eq!(err.suggestion(), None);
        assert_eq!(err.input(), "nothing-like-it");
        assert!(jax.resolve(&"x".repeat(10_000)).is_err());
    }

    #[test]
    fn opaque_sketches_resolve_by_label_only() {
        let poset = Poset::from_dict(&[("A", &["C", "D"][..]), ("B", &["C", "D"])]).unwrap();
        let lattice_free = Definition {
            name: "sketch".into(),
            description: None,
            nodes: poset
                .labels()
                .iter()
                .map(|l| crate::design::NodeDef::from_label(l))
                .collect(),
            edges: poset.edges().collect(),
        };
        let c = poset.node("C").unwrap();
        assert_eq!(lattice_free.resolve("C"), Ok(c));
        assert_eq!(lattice_free.type_spec(c), None);
        assert_eq!(
            lattice_free.resolve("int8").unwrap_err().to_string(),
            "no node 'int8' in sketch: give a node label, a dtype name or alias, or int, float, complex"
        );
    }

    /// The explanation of every table cell joins where the table answers,
    /// in every configuration of JAX and every policy with a lattice.
    #[test]
    fn cells_join_at_the_table_answer() {
        use crate::design::table::{types, Table};
        use crate::registry::{by_name, with_lattice, Settings};
        for name in with_lattice() {
            for (x64, strict) in [(false, false), (true, false), (false, true), (true, true)] {
                let settings = Settings {
                    x64,
                    strict,
                    ..Settings::default()
                };
                let policy = by_name(name, settings).unwrap();
                let definition = Definition::from_policy(policy.as_ref()).unwrap();
                let poset = definition.poset().unwrap();
                let all = types(true);
                let table = Table::new(policy.as_ref(), &all);
                for (r, &a) in all.iter().enumerate() {
                    for (c, &b) in all.iter().enumerate() {
                        let Ok(report) =
                            Report::of_types(&definition, &poset, policy.as_ref(), [a, b])
                        else {
                            // A type the policy's graph has no node for.
                            continue;
                        };
                        let joined = match report.why.bound {
                            Bound::Least(join) => {
                                let node = &definition.nodes[join];
                                node.dtype.map(|dtype| crate::Typed {
                                    dtype,
                                    weak: node.weak,
                                })
                            }
                            _ => None,
                        };
                        assert_eq!(
                            joined,
                            table.cells[r][c].clone().ok(),
                            "{} {a} {b}",
                            policy.name()
                        );
                    }
                }
            }
        }
    }
}
