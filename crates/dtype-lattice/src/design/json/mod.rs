//! Every report as JSON (feature `json`), in one folder, so that the command
//! line's `--format json`, the explorer's API, its static export and the
//! Python package show the same objects (`compatibility.rs` and
//! `promotions.rs` the two largest reports, here the rest). docs/lattices.md and docs/cli.md
//! describe the fields.
//!
//! The `to_json` methods are hidden from the documented API: they are the
//! front ends' wire format, which follows what those surfaces show (and
//! is documented where their users read it), not a Rust contract. A Rust
//! user reads the reports' typed fields.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::design::audit::{Audit, Criterion};
use crate::design::check::{Check, RulesCheck};
use crate::design::diff::{CellMarks, Comparison};
use crate::design::explain::{OperationStep, Report, RulesReport};
use crate::design::graph::Marks;
use crate::design::table::{self, Labels, Table};
use crate::design::Definition;
use crate::engine::{Bound, Node};
use crate::policy::Policy;
use crate::types::{OpForm, Operation, PromotionError, Typed};

mod compatibility;
mod promotions;

/// A typed result as `{"dtype", "weak"}`.
pub(super) fn typed_json(typed: &Typed) -> Value {
    json!({ "dtype": typed.dtype.name(), "weak": typed.weak })
}

/// An answer as `{"dtype", "weak"}` or `{"error": {"type", "message"}}`.
pub(super) fn answer_json(answer: &Result<Typed, PromotionError>) -> Value {
    match answer {
        Ok(typed) => typed_json(typed),
        Err(err) => json!({ "error": { "type": err.python_type(), "message": err.to_string() } }),
    }
}

impl Table {
    /// The table as `table --format json` prints it and the explorer shows
    /// it: the policy's `name` and whether a `lattice` defines it, the
    /// `caption`, the rows' `types`, their `labels` in `labels` style and
    /// their full `names`, the same of the `columns` (`column_labels`,
    /// `column_names`: the rows' but for a reduction, whose columns are its
    /// `dtype=`, `"None"` first, and `column_keyword` is `"dtype"`), the
    /// rule of an operation on whole arrays in words (`rule`, where the
    /// policy gives one), the short labels' `legend` (with short labels), which
    /// dtypes the policy `canonicalized`, the `errors` (each message once),
    /// and each cell twice: in `rows` as its label (`null` where promotion
    /// fails), in `cells` as `{"label", "dtype", "weak"}` or `{"label": "-",
    /// "error": INDEX}`, a cell computed in another type with its
    /// `computes_in` and `computes_label` (PyTorch's opmath, a half
    /// float's accumulator). With `marks`, `differs_from` and `differs` (a
    /// matrix of flags) say where another policy differs.
    ///
    /// ```
    /// use dtype_lattice::design::table::{Labels, Table, DOCS_TYPES};
    /// use dtype_lattice::frameworks::jax::Jax;
    ///
    /// let jax = Jax::default();
    /// let json = Table::new(&jax, &DOCS_TYPES).to_json(&jax, Labels::Short, None);
    /// assert_eq!(json["labels"][1], "u1");
    /// assert_eq!(json["rows"][1][5], "i2"); // uint8 with int8
    /// assert_eq!(json["cells"][1][5]["dtype"], "int16");
    /// assert_eq!(json["column_labels"], json["labels"]);
    /// ```
    #[doc(hidden)]
    pub fn to_json(&self, policy: &dyn Policy, labels: Labels, marks: Option<&CellMarks>) -> Value {
        let mut errors: Vec<Value> = Vec::new();
        let mut error_index: HashMap<String, usize> = HashMap::new();
        let mut rows = Vec::with_capacity(self.cells.len());
        let mut cells = Vec::with_capacity(self.cells.len());
        for (r, row) in self.cells.iter().enumerate() {
            let (mut shown, mut typed) = (Vec::new(), Vec::new());
            for (c, cell) in row.iter().enumerate() {
                match cell {
                    Ok(result) => {
                        let label = table::result_label(*result, labels);
                        shown.push(Value::from(label.clone()));
                        let mut answer = json!({
                            "label": label,
                            "dtype": result.dtype.name(),
                            "weak": result.weak,
                        });
                        // The second mark: the type the cell computes in.
                        if let Some(d) = self.computes.get(r).and_then(|row| row[c]) {
                            answer["computes_in"] = Value::from(d.name());
                            answer["computes_label"] = Value::from(table::dtype_label(d, labels));
                        }
                        typed.push(answer);
                    }
                    Err(err) => {
                        let key = format!("{}: {err}", err.python_type());
                        let index = *error_index.entry(key).or_insert_with(|| {
                            errors.push(json!({
                                "type": err.python_type(),
                                "message": err.to_string(),
                            }));
                            errors.len() - 1
                        });
                        shown.push(Value::Null);
                        typed.push(json!({ "label": "-", "error": index }));
                    }
                }
            }
            rows.push(Value::Array(shown));
            cells.push(Value::Array(typed));
        }
        let legend: Vec<Value> = match labels {
            Labels::Short => table::legend(&self.types)
                .into_iter()
                .map(|(label, dtype)| json!({ "label": label, "dtype": dtype }))
                .collect(),
            Labels::Names => Vec::new(),
        };
        let canonicalized: Vec<Value> = table::canonicalized(policy, &self.types)
            .into_iter()
            .map(|(from, to)| json!({ "from": from.name(), "to": to.name() }))
            .collect();
        let mut value = json!({
            "name": policy.name(),
            "lattice": policy.lattice().is_some(),
            "caption": self.caption(policy, labels),
            "op": self.question.op().map(Operation::name),
            "form": self.question.form().map(OpForm::name),
            "types": self.types.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "labels": self.labels(labels),
            "names": self.labels(Labels::Names),
            "columns": self.columns.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "column_labels": self.column_labels(labels),
            "column_names": self.column_labels(Labels::Names),
            "column_keyword": self
                .columns
                .iter()
                .any(|c| matches!(c, table::Column::Dtype(_)))
                .then_some("dtype"),
            "legend": legend,
            "canonicalized": canonicalized,
            "errors": errors,
            "rows": rows,
            "cells": cells,
        });
        if let Some(rule) = self.question.op().and_then(|op| match op {
            Operation::Array(_) => policy.describe(op),
            Operation::Elementwise(_) => None,
        }) {
            value["rule"] = Value::from(rule);
        }
        if let Some(marks) = marks {
            value["differs_from"] = Value::from(marks.against.as_str());
            value["differs"] = json!(marks.cells);
        }
        value
    }
}

impl Comparison {
    /// `{"left", "right", "cells", "count", "differences": [{"row",
    /// "column", "left", "right", "not_native": [{"dtype", "policy"}]}]}`,
    /// answers as labels or `null`.
    #[doc(hidden)]
    pub fn to_json(&self) -> Value {
        let label = |d: Option<crate::DType>| d.map(|d| table::dtype_label(d, self.label_style));
        let differences: Vec<Value> = self
            .differences
            .iter()
            .map(|d| {
                let not_native: Vec<Value> = d
                    .not_native
                    .iter()
                    .map(|&(dtype, side)| json!({ "dtype": dtype.name(), "policy": self.names[side] }))
                    .collect();
                json!({
                    "row": self.labels[d.row],
                    "column": self.column_labels[d.column],
                    "left": label(d.left),
                    "right": label(d.right),
                    "not_native": not_native,
                })
            })
            .collect();
        json!({
            "left": self.names[0],
            "right": self.names[1],
            "cells": self.labels.len() * self.column_labels.len(),
            "count": self.differences.len(),
            "op": self.question.op().map(Operation::name),
            "form": self.question.form().map(OpForm::name),
            "differences": differences,
        })
    }
}

impl Report {
    /// The explanation as `explain --format json` prints it (see
    /// docs/lattices.md): `name`, the two `inputs` (each its `input` text,
    /// `node`, `upper_bounds` and `path`), the `common_upper_bounds`, the
    /// `outcome` (`join`, `no_upper_bound` or `ambiguous`) and its
    /// `summary` in a sentence, the `join` or
    /// the `candidates`, the policy's `error` for a failed pair, and its
    /// `rules_answer` (`{"dtype", "weak"}` or `{"error": {"type",
    /// "message"}}`) where its rules go on after its graph and answer
    /// otherwise than the join (`null` elsewhere), and with `explain --op`
    /// the `operation`'s step (`{"op", "rule", "answer"}`, else `null`).
    #[doc(hidden)]
    pub fn to_json(&self) -> Value {
        let why = &self.why;
        let names = |nodes: &[Node]| json!(self.labels_of(nodes));
        let (outcome, join, candidates) = match &why.bound {
            Bound::Least(join) => ("join", json!(self.label(*join)), json!([])),
            Bound::None => ("no_upper_bound", Value::Null, json!([])),
            Bound::Ambiguous(candidates) => ("ambiguous", Value::Null, names(candidates)),
        };
        let inputs: Vec<Value> = (0..2)
            .map(|i| {
                json!({
                    "input": self.inputs[i],
                    "node": self.label(why.inputs[i]),
                    "upper_bounds": names(&why.upper_bounds[i]),
                    "path": why.paths.as_ref().map(|paths| names(&paths[i])),
                })
            })
            .collect();
        let error = self.error.as_ref().map(|err| {
            json!({
                "type": err.python_type(),
                "family": err.no_path_reason().map(|reason| reason.family()),
                "message": err.to_string(),
            })
        });
        let rules_answer = self.rules_answer.as_ref().map(answer_json);
        let operation = self.operation.as_ref().map(OperationStep::to_json);
        json!({
            "name": self.name,
            "inputs": inputs,
            "common_upper_bounds": names(&why.common),
            "outcome": outcome,
            "summary": self.outcome(),
            "join": join,
            "candidates": candidates,
            "error": error,
            "rules_answer": rules_answer,
            "operation": operation,
        })
    }
}

impl OperationStep {
    /// `{"op", "call", "rule", "answer"}` (`call` with the keywords:
    /// `sum(dtype=int64)`), the answer as `{"dtype", "weak"}` (with
    /// `"computes_in"` where the framework computes in another type) or
    /// `{"error": {"type", "message"}}`.
    #[doc(hidden)]
    pub fn to_json(&self) -> Value {
        let mut answer = answer_json(&self.answer.clone().map(|o| o.result()));
        if let Some(dtype) = self.answer.as_ref().ok().and_then(|o| o.computes_apart()) {
            answer["computes_in"] = json!(dtype.name());
        }
        json!({
            "op": self.op.operation().name(),
            "call": self.op.to_string(),
            "rule": self.rule,
            "answer": answer,
        })
    }
}

impl RulesReport {
    /// `explain --op --format json` for a policy defined by rules: `name`,
    /// `inputs` (the types' names), `outcome` (`"rules"`: no graph to
    /// trace), the `result_type` of the operands and the `operation`'s
    /// step (as [`Report::to_json`] gives them).
    #[doc(hidden)]
    pub fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "inputs": self.inputs,
            "outcome": "rules",
            "result_type": answer_json(&self.promotion),
            "operation": self.operation.to_json(),
        })
    }
}

impl Check {
    /// The check of `definition` (the graph it was made from) as `check
    /// --format json` prints it: `name`, `nodes`, `edges`, whether it is a
    /// `lattice`, the `cycle`, the `ambiguous` pairs with their candidates,
    /// the pairs with `no_upper_bound`, their exact counts, whether the
    /// lists were `truncated`, and the `laws` checked.
    #[doc(hidden)]
    pub fn to_json(&self, definition: &Definition) -> Value {
        let label = |node: usize| definition.nodes[node].label.as_str();
        let pair = |&(a, b): &(usize, usize)| [label(a), label(b)];
        let laws = self.laws.as_ref().map(|laws| {
            json!({
                "commutative": laws.not_commutative.is_none(),
                "associative": laws.not_associative.is_none(),
                "pairs": laws.pairs,
                "triples": laws.triples,
                "exhaustive": laws.exhaustive,
                "not_commutative": laws.not_commutative.as_ref().map(pair),
                "not_associative": laws.not_associative.map(|t| t.map(label)),
            })
        });
        let ambiguous: Vec<Value> = self
            .ambiguous
            .iter()
            .map(|a| {
                json!({
                    "pair": pair(&a.pair),
                    "candidates": a.candidates.iter().map(|&c| label(c)).collect::<Vec<_>>(),
                    "candidate_count": a.candidate_count,
                })
            })
            .collect();
        json!({
            "name": definition.name,
            "nodes": definition.nodes.iter().map(|n| n.label.as_str()).collect::<Vec<_>>(),
            "edges": self.edges.iter().map(pair).collect::<Vec<_>>(),
            "lattice": self.is_lattice(),
            "cycle": self.cycle,
            "ambiguous": ambiguous,
            "ambiguous_count": self.ambiguous_count,
            "no_upper_bound": self.no_upper_bound.iter().map(pair).collect::<Vec<_>>(),
            "no_upper_bound_count": self.no_upper_bound_count,
            "truncated": self.is_truncated(),
            "laws": laws,
        })
    }
}

impl RulesCheck {
    /// The check of the policy called `name` as `check --format json`
    /// prints it: the graph fields of [`Check::to_json`] (no edges, not a
    /// lattice), `left_out` (the types the policy promotes with nothing,
    /// not even themselves), `not_commutative`: the `count`, the ordered
    /// `pairs` checked and the `examples` (up to `examples` of them, as
    /// `[a, b]`), and `non_associative`: the `count`, the `triples` checked,
    /// an `example` and the `examples` (up to `examples`, as `[a, b, c]`).
    #[doc(hidden)]
    pub fn to_json(&self, name: &str, examples: usize) -> Value {
        let labels: Vec<String> = self.types.iter().map(ToString::to_string).collect();
        let no_upper_bound: Vec<[&str; 2]> = self
            .no_upper_bound
            .iter()
            .map(|&(a, b)| [labels[a].as_str(), labels[b].as_str()])
            .collect();
        let example = self.example().map(|e| {
            json!({
                "types": e.types.map(|t| t.to_string()),
                "text": e.to_string(),
            })
        });
        let not_commutative: Vec<[&str; 2]> = self
            .not_commutative
            .iter()
            .take(examples)
            .map(|&(a, b)| [labels[a].as_str(), labels[b].as_str()])
            .collect();
        let triples: Vec<[String; 3]> = self
            .non_associative
            .iter()
            .take(examples)
            .map(|e| e.types.map(|t| t.to_string()))
            .collect();
        json!({
            "name": name,
            "nodes": labels,
            "left_out": self.left_out.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "edges": Value::Null,
            "lattice": false,
            "cycle": Value::Null,
            "ambiguous": [],
            "no_upper_bound": no_upper_bound,
            "not_commutative": {
                "count": self.not_commutative.len(),
                "pairs": self.pairs(),
                "examples": not_commutative,
            },
            "non_associative": {
                "count": self.non_associative.len(),
                "triples": self.triples(),
                "example": example,
                "examples": triples,
            },
        })
    }
}

impl Audit {
    /// The audit as `audit --format json` prints it: `{"name", "pairs",
    /// "undefined", "opaque", "criteria"}`, each criterion's findings as
    /// `[a, b, join]`.
    #[doc(hidden)]
    pub fn to_json(&self) -> Value {
        let criteria: Map<String, Value> = Criterion::ALL
            .into_iter()
            .map(|criterion| (criterion.name().to_owned(), json!(self.findings(criterion))))
            .collect();
        json!({
            "name": self.name,
            "pairs": self.pairs,
            "undefined": self.undefined,
            "opaque": self.opaque,
            "criteria": criteria,
        })
    }
}

impl Marks {
    /// What a drawing marks, as the explorer sets it on a drawing:
    /// `{"inputs", "targets", "role", "edges", "caption"}`.
    #[doc(hidden)]
    pub fn to_json(&self) -> Value {
        json!({
            "inputs": self.inputs,
            "targets": self.targets,
            "role": self.role,
            "edges": self.edges,
            "caption": self.caption,
        })
    }
}
