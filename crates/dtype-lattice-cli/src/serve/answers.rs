//! The answers of the API's GET endpoints, as plain functions over the
//! library, so that the static export ([`crate::site`]) writes the very
//! answers the server gives. The JSON of every report is the library's;
//! these add only what the page needs beside it (a drawing's file name, a
//! cell's join as a type).

use axum::http::StatusCode;
use serde_json::{json, Value};

use dtype_lattice::design::diff::{self, Comparison};
use dtype_lattice::design::explain::Report;
use dtype_lattice::design::graph::Drawing;
use dtype_lattice::design::lattice_file;
use dtype_lattice::design::table::{self, Labels, Question, Table};
use dtype_lattice::design::{Definition, Subject};
use dtype_lattice::engine::{Bound, Poset};
use dtype_lattice::registry::{self, Settings, SETTINGS};
use dtype_lattice::{
    ArrayCall, ArrayOp, Call, DType, Op, OpForm, Operand, Policy, TypeSpec, Unanswered,
};

use super::assets;
use super::editor::EDITOR_TABLE_NODES;
use super::error::ApiError;
use super::params::policy;

/// Where a policy's drawing and explanations are filed in the static
/// export: its name with its settings (`jax (x64 off, standard)` is
/// `jax-x64-off-standard`), so policies that ignore a setting share them.
pub fn graph_key(policy: &dyn Policy) -> String {
    let mut key = String::new();
    for c in policy.name().chars() {
        if c.is_ascii_alphanumeric() {
            key.push(c.to_ascii_lowercase());
        } else if !key.ends_with('-') {
            key.push('-');
        }
    }
    key.trim_matches('-').to_owned()
}

/// `GET /api/info`'s answer: the policies (with the settings each reads,
/// whether a lattice defines it, whether it has a graph to explain and
/// draw ([`Policy::has_graph`]), the operations it models, and `forms`:
/// each form it answers, with the operations it answers in that form, the
/// assignment `setitem` with none), the
/// presets (the same, with the settings they leave free, and under
/// `preset` their entry and the settings they fix), the
/// settings, the operations ([`Op::ALL`], each with its arity and the
/// forms Python has for it; then [`ArrayOp::ALL`], each with its `family`
/// and the operands the playground takes), the
/// table's types and the notebook's lattices. `mode` is `serve` or
/// `static`.
pub fn info_json(mode: &str) -> Value {
    let describe = |named: registry::NamedPolicy| {
        let built = named
            .build(Settings::default())
            .expect("the default settings contradict no preset");
        let operations: Vec<&str> = Op::ALL
            .into_iter()
            .filter(|&op| models(built.as_ref(), op))
            .map(Op::name)
            .chain(
                ArrayOp::ALL
                    .into_iter()
                    .filter(|&op| models_array_op(built.as_ref(), op))
                    .map(ArrayOp::name),
            )
            .collect();
        // Each form it answers, with the operations it answers in it
        // (asked of int8 arrays; the assignment has none), for the page's
        // form menus.
        let answers = |call: Call| {
            let probe = [Operand::array(DType::Int8, false); 2];
            built.call(call, &probe[..call.arity()]).is_some()
        };
        let forms: serde_json::Map<String, Value> = OpForm::ALL
            .into_iter()
            .filter_map(|form| {
                let ops: Vec<&str> = Op::ALL
                    .into_iter()
                    .filter(|&op| Call::new(Some(op), form).is_ok_and(answers))
                    .map(Op::name)
                    .collect();
                let assigns = Call::new(None, form).is_ok_and(answers);
                (assigns || !ops.is_empty()).then(|| (form.name().to_owned(), ops.into()))
            })
            .collect();
        let mut about = json!({
            "name": named.name(),
            "lattice": built.lattice().is_some(),
            "graph": built.has_graph(),
            "settings": named.settings(),
            "operations": operations,
            "forms": forms,
        });
        if let Some(preset) = named.preset() {
            let fixed: serde_json::Map<String, Value> = preset
                .settings
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).into()))
                .collect();
            about["preset"] = json!({ "entry": preset.entry, "settings": fixed });
        }
        about
    };
    // The entries, which the playground asks, and the presets, which the
    // table's menus list under their entries (both in `listing` order).
    let (entries, presets): (Vec<_>, Vec<_>) =
        registry::listing().partition(|named| named.preset().is_none());
    let policies: Vec<Value> = entries.into_iter().map(describe).collect();
    let presets: Vec<Value> = presets.into_iter().map(describe).collect();
    let operations: Vec<Value> = Op::ALL
        .into_iter()
        .map(|op| {
            // The forms Python writes it in (`maximum` has no operator).
            let forms: Vec<&str> = OpForm::ALL
                .into_iter()
                .filter(|&form| Call::new(Some(op), form).is_ok())
                .map(OpForm::name)
                .collect();
            json!({ "name": op.name(), "arity": op.arity(), "forms": forms })
        })
        .chain(ArrayOp::ALL.into_iter().map(|op| {
            // The operands the playground takes of what is typed (`where`'s
            // condition among them), and the family, which says whether a
            // table has it (a reduction has no pairs).
            json!({
                "name": op.name(),
                "arity": op.usual_operands(),
                "forms": ["function"],
                "family": op.family().name(),
            })
        }))
        .collect();
    let settings: Vec<Value> = SETTINGS
        .iter()
        .map(|s| json!({ "key": s.name, "values": s.values, "help": format!("{}: {}", s.option, s.help) }))
        .collect();
    let types = |all: bool| -> Vec<Value> {
        table::types(all)
            .into_iter()
            .map(|t| {
                json!({
                    "name": t.to_string(),
                    "label": table::type_label(t, Labels::Short),
                })
            })
            .collect()
    };
    let examples: Vec<Value> = assets::EXAMPLES
        .iter()
        .map(|(name, text)| {
            let description = lattice_file::parse(text)
                .ok()
                .and_then(|definition| definition.description)
                .unwrap_or_default();
            json!({ "name": name, "description": description.trim() })
        })
        .collect();
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "mode": mode,
        "policies": policies,
        "presets": presets,
        "settings": settings,
        "operations": operations,
        "types": { "docs": types(false), "all": types(true) },
        "examples": examples,
        "limits": {
            "batch_bytes": super::MAX_BATCH_BODY,
            "lattice_bytes": super::MAX_LATTICE_BODY,
            "answer_bytes": super::MAX_ANSWER_BYTES,
            "drawing_bytes": super::weight::MAX_DRAWING_BYTES,
            "table_nodes": EDITOR_TABLE_NODES,
        },
    })
}

/// Whether `policy` models `op` ([`Policy::array_op`] answers): asked of
/// arrays of int8 (`where`'s condition a bool one).
fn models_array_op(policy: &dyn Policy, op: ArrayOp) -> bool {
    policy
        .array_op(&ArrayCall::new(op), &table::probe(op))
        .is_some()
}

/// Whether `policy` models `op` ([`Policy::operation`] answers): asked of
/// arrays of int8, as `diff --op` asks.
pub(super) fn models(policy: &dyn Policy, op: Op) -> bool {
    let probe = [Operand::array(DType::Int8, false); 2];
    policy.operation(op, &probe[..op.arity()]).is_some()
}

/// Why `policy` has no table (or diff) of `question`, in the command
/// line's words ([`Question::unanswered`]): a unary operation is a bad
/// request (400), one the policy does not model a question it cannot
/// answer (422).
pub(super) fn unanswered(policy: &dyn Policy, question: Question) -> Option<ApiError> {
    question.unanswered(policy).map(|why| match why {
        Unanswered::NoTable(_) => ApiError::bad(why.to_string()),
        _ => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, why.to_string()),
    })
}

/// `GET /api/table`'s answer: the promotion table of `policy` over the
/// documentation's types or all of them, as `table --format json` computes
/// it, with each cell's dtype and weak flag, the errors (each message once,
/// cells refer to them by index), the caption and the legend, and what
/// `diff` compares of each cell (`compared`: its `promote_types` as a short
/// label, `null` where it fails) and of each type (`native`: whether the
/// policy has that dtype of its own; Python's types always), of each
/// column too (`column_native`: a reduction's `dtype=`).
pub fn table_json(name: &str, settings: Settings, all: bool) -> Result<Value, ApiError> {
    table_json_of(name, settings, all, Question::ResultType)
}

/// [`table_json`], or the table of a binary operation (in a form), as
/// `table --op OP --form FORM --format json` computes it (and `compared`
/// is the dtype of each cell's result, as `diff --op` compares); a unary
/// operation or one the policy does not model is an error
/// ([`unanswered`]).
pub fn table_json_of(
    name: &str,
    settings: Settings,
    all: bool,
    question: Question,
) -> Result<Value, ApiError> {
    let policy = policy(name, settings)?;
    if let Some(refusal) = unanswered(policy.as_ref(), question) {
        return Err(refusal);
    }
    let types = table::types(all);
    let computed = Table::of(policy.as_ref(), &types, question).ok_or_else(|| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{} gave no table", policy.name()),
        )
    })?;
    let mut value = computed.to_json(policy.as_ref(), Labels::Short, None);
    value["graph"] = json!(policy.has_graph().then(|| graph_key(policy.as_ref())));
    // What `diff` compares, so that the page compares two tables it holds
    // as `diff` does, rather than loading a diff of every two policies.
    let compared: Vec<Vec<Option<String>>> = diff::compared(policy.as_ref(), &types, question)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|d| d.map(|d| table::dtype_label(d, Labels::Short)))
                .collect()
        })
        .collect();
    let native: Vec<bool> = question
        .types(&types)
        .iter()
        .map(|spec| match spec {
            TypeSpec::DType(dtype) => policy.is_native(*dtype),
            TypeSpec::Python(_) => true,
        })
        .collect();
    // A column's dtype (a reduction's dtype=; none without it).
    let column_native: Vec<bool> = question
        .columns(&types)
        .iter()
        .map(|column| column.dtype().is_none_or(|dtype| policy.is_native(dtype)))
        .collect();
    value["compared"] = json!(compared);
    value["native"] = json!(native);
    value["column_native"] = json!(column_native);
    Ok(value)
}

/// `GET /api/diff`'s answer: `diff LEFT RIGHT --format json --labels short`
/// (with `--all` for all types), the command line's own text, or with `op`
/// `diff --op OP`'s: the two policies' results of that binary operation
/// compared; a unary operation, or one either policy does not model, is an
/// error ([`unanswered`]). The page does not ask it (it compares the two
/// tables it holds); it stays for scripts.
pub fn diff_text_of(
    left: &str,
    right: &str,
    settings: Settings,
    all: bool,
    question: Question,
) -> Result<String, ApiError> {
    let (first, second) = (policy(left, settings)?, policy(right, settings)?);
    for side in [&first, &second] {
        if let Some(refusal) = unanswered(side.as_ref(), question) {
            return Err(refusal);
        }
    }
    let report = Comparison::of(
        [left, right],
        [first.as_ref(), second.as_ref()],
        &table::types(all),
        Labels::Short,
        question,
    );
    Ok(format!("{}\n", report.to_json()))
}

/// `GET /api/explain`'s answer for the cell of types `cell` in `policy`'s
/// table: `explain --format json` for the two as the policy takes them
/// ([`Report::of_types`]), with `"explained": true`, the join's dtype and
/// weak flag (`"join_type"`), and with `marks` what a drawing of the
/// policy's lattice marks for the pair ([`Drawing::marks`]). A policy
/// defined by rules, or a type its lattice has no node for, answers
/// `{"explained": false, "reason"}`.
pub fn explain_json(
    name: &str,
    settings: Settings,
    cell: [TypeSpec; 2],
    marks: bool,
) -> Result<Value, ApiError> {
    let subject = Subject::of_policy(policy(name, settings)?);
    let not_explained = |reason: String| json!({ "explained": false, "reason": reason });
    let (definition, policy) = match &subject {
        Subject::Graph {
            definition,
            policy: Some(policy),
        } => (definition, policy),
        _ => {
            let reason = match subject.definition() {
                Err(no_graph) => no_graph.to_string(),
                Ok(_) => format!("{} has no graph", subject.name()),
            };
            return Ok(not_explained(reason));
        }
    };
    let poset = definition
        .poset()
        .map_err(|err| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?;
    let report = match Report::of_types(definition, &poset, policy.as_ref(), cell) {
        Ok(report) => report,
        Err(unknown) => return Ok(not_explained(unknown.to_string())),
    };
    let drawing = if marks {
        Some(Drawing::new(definition, &poset, None).map_err(|err| ApiError::bad(err.to_string()))?)
    } else {
        None
    };
    let mut value = explained(definition, &report, drawing.as_ref());
    value["types"] = json!(cell.map(|t| t.to_string()));
    Ok(value)
}

/// Every cell's [`explain_json`] (with marks) over `types`, for the
/// static export: one object per row, keyed by the column's type; `None`
/// for a policy defined by rules.
pub fn explain_rows(
    name: &str,
    settings: Settings,
    types: &[TypeSpec],
) -> Result<Option<Vec<Value>>, ApiError> {
    let subject = Subject::of_policy(policy(name, settings)?);
    let Subject::Graph {
        definition,
        policy: Some(policy),
    } = &subject
    else {
        return Ok(None);
    };
    let poset = definition
        .poset()
        .map_err(|err| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?;
    // One drawing marks every pair (Drawing::marks_of), rather than one
    // drawing of the lattice for each cell.
    let drawing = Drawing::new(definition, &poset, None)
        .map_err(|err| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?;
    let rows = types
        .iter()
        .map(|&a| {
            let row: serde_json::Map<String, Value> = types
                .iter()
                .map(|&b| {
                    let value = match Report::of_types(definition, &poset, policy.as_ref(), [a, b])
                    {
                        Ok(report) => {
                            let mut value = explained(definition, &report, Some(&drawing));
                            value["types"] = json!([a.to_string(), b.to_string()]);
                            value
                        }
                        Err(unknown) => {
                            json!({ "explained": false, "reason": unknown.to_string() })
                        }
                    };
                    (b.to_string(), value)
                })
                .collect();
            Value::Object(row)
        })
        .collect();
    Ok(Some(rows))
}

/// The command line's explain JSON, with `explained`, `join_type` and,
/// given the lattice's `drawing`, what it marks for the pair (`marks`).
pub(super) fn explained(
    definition: &Definition,
    report: &Report,
    drawing: Option<&Drawing>,
) -> Value {
    let mut value = report.to_json();
    value["explained"] = json!(true);
    value["join_type"] = match report.why.bound {
        Bound::Least(join) => {
            let node = &definition.nodes[join];
            node.dtype.map_or(
                Value::Null,
                |dtype| json!({ "dtype": dtype.name(), "weak": node.weak }),
            )
        }
        _ => Value::Null,
    };
    if let Some(reason) = report.error.as_ref().and_then(|err| err.no_path_reason()) {
        value["error"]["summary"] = json!(reason.summary());
    }
    if let Some(drawing) = drawing {
        let nodes = report.why.inputs.map(|n| report.label(n));
        if let Ok(found) = drawing.marks_of(definition, nodes) {
            value["marks"] = found.to_json();
        }
    }
    value
}

/// `GET /api/graph.svg`'s answer: the Hasse diagram of `policy`'s lattice
/// as `graph --highlight A,B` draws it.
pub fn graph_svg(
    name: &str,
    settings: Settings,
    highlight: Option<&[String; 2]>,
) -> Result<String, ApiError> {
    let subject = Subject::of_policy(policy(name, settings)?);
    let definition = subject.definition().map_err(|no_graph| {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, no_graph.to_string())
    })?;
    let poset = definition
        .poset()
        .map_err(|err| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?;
    draw(definition, &poset, highlight)
}

pub(super) fn draw(
    definition: &Definition,
    poset: &Poset,
    highlight: Option<&[String; 2]>,
) -> Result<String, ApiError> {
    let pair = highlight.map(|[a, b]| [a.as_str(), b.as_str()]);
    let drawing =
        Drawing::new(definition, poset, pair).map_err(|err| ApiError::bad(err.to_string()))?;
    super::weight::drawing_may_fit(drawing.edge_count())?;
    let svg = drawing.svg().map_err(|too_large| {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, too_large.to_string())
    })?;
    super::weight::drawing_within_limit(svg)
}
