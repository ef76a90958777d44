//! The explorer's API: each endpoint reads its parameters, calls the
//! library, and renders the answer as the command line renders it (the
//! JSON of `explain`, `check`, `audit` and `diff` is the command line's
//! own). The builders are plain functions, so the static export
//! ([`crate::site`]) writes the very answers the server gives.
//!
//! Errors are JSON, `{"error": {"status", "message"}}`, with a 4xx status
//! that says whose fault it was; a question the library answers with "no"
//! (a pair without a join, a text that is not a lattice) is an answer, 200.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::header::{self, HeaderValue};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use dtype_lattice::design::audit::Audit;
use dtype_lattice::design::check::{self, Check};
use dtype_lattice::design::dict_text::{looks_like_dict, parse_python_dict};
use dtype_lattice::design::explain::Report;
use dtype_lattice::design::graph::Drawing;
use dtype_lattice::design::table::{self, Labels, Table};
use dtype_lattice::design::{lattice_file, Definition, Location};
use dtype_lattice::engine::{Bound, Joins, Poset};
use dtype_lattice::registry::{self, Settings, SETTINGS};
use dtype_lattice::{Policy, TypeSpec};

use super::assets;
use super::{Shared, HEAVY_WAIT};
use crate::subject::Subject;

/// An error answer: a status and a message naming the bad input, and for
/// a text, the place.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    location: Option<Location>,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            location: None,
        }
    }

    /// A request the client got wrong (400).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// What went wrong, as the response says it.
    pub fn message(&self) -> &str {
        &self.message
    }

    fn json(&self) -> Value {
        let mut error = json!({ "status": self.status.as_u16(), "message": self.message });
        if let Some(Location { line, column }) = self.location {
            error["line"] = json!(line);
            error["column"] = json!(column);
        }
        json!({ "error": error })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, json_response(&self.json())).into_response()
    }
}

/// A JSON body.
/// `body` with its content type.
fn typed(content_type: &'static str, body: impl IntoResponse) -> Response {
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static(content_type))],
        body,
    )
        .into_response()
}

fn json_response(value: &Value) -> Response {
    json_text(value.to_string())
}

fn json_text(text: String) -> Response {
    typed("application/json", text)
}

/// Answers that depend only on a policy (its name, settings included) and
/// a few choices, kept once computed: a table or a diff costs a
/// millisecond of allocation, which fifty clients at once would turn into
/// queueing. The keys are names the registry knows and the choices are
/// few, so the cache is bounded by what exists (about a hundred answers);
/// [`CACHED_ANSWERS`] caps it all the same.
static ANSWERS: OnceLock<Mutex<HashMap<String, Bytes>>> = OnceLock::new();

/// The most answers kept; past it, answers are computed each time.
pub const CACHED_ANSWERS: usize = 1024;

fn cached(key: &str) -> Option<Bytes> {
    let answers = ANSWERS.get_or_init(Mutex::default);
    answers.lock().ok()?.get(key).cloned()
}

fn keep(key: String, answer: &Bytes) {
    let answers = ANSWERS.get_or_init(Mutex::default);
    if let Ok(mut answers) = answers.lock() {
        if answers.len() < CACHED_ANSWERS {
            answers.insert(key, answer.clone());
        }
    }
}

/// The cached answer under `key`, or `compute`'s, computed off the async
/// threads and kept.
async fn answer_once(
    key: String,
    compute: impl FnOnce() -> Result<String, ApiError> + Send + 'static,
) -> Result<Bytes, ApiError> {
    if let Some(answer) = cached(&key) {
        return Ok(answer);
    }
    let answer = Bytes::from(blocking(compute).await??);
    keep(key, &answer);
    Ok(answer)
}

fn json_bytes(answer: Bytes) -> Response {
    typed("application/json", answer)
}

fn svg_response(svg: String) -> Response {
    typed("image/svg+xml", svg)
}

/// `text` quoted and cut, for a message, as the library quotes.
fn quote(text: &str) -> String {
    dtype_lattice::text::quote(text, '\'')
}

/// A request's query parameters, checked against the ones its endpoint
/// takes.
pub struct Params(Vec<(String, String)>);

impl Params {
    /// The parameters of `query`; an unknown or repeated name is refused,
    /// naming the known ones. Every endpoint but the static files takes
    /// the settings.
    fn read(
        query: Result<Query<Vec<(String, String)>>, QueryRejection>,
        known: &[&str],
    ) -> Result<Params, ApiError> {
        let Query(pairs) =
            query.map_err(|err| ApiError::bad(format!("cannot read the query: {err}")))?;
        let mut seen: Vec<&str> = Vec::new();
        for (name, _) in &pairs {
            let allowed = known.contains(&name.as_str()) || SETTINGS.iter().any(|s| s.name == name);
            if !allowed {
                let mut all: Vec<&str> = known.to_vec();
                all.extend(SETTINGS.iter().map(|s| s.name));
                return Err(ApiError::bad(format!(
                    "unknown parameter {} (this endpoint takes {})",
                    quote(name),
                    all.join(", ")
                )));
            }
            if seen.contains(&name.as_str()) {
                return Err(ApiError::bad(format!("{} is given twice", quote(name))));
            }
            seen.push(name);
        }
        Ok(Params(pairs))
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn settings(&self) -> Result<Settings, ApiError> {
        let mut settings = Settings::default();
        for setting in SETTINGS {
            if let Some(value) = self.get(setting.name) {
                setting
                    .set(&mut settings, value)
                    .map_err(|err| ApiError::bad(err.to_string()))?;
            }
        }
        Ok(settings)
    }

    /// `types`: `docs` (the documentation's 18, the default) or `all`.
    fn all_types(&self) -> Result<bool, ApiError> {
        match self.get("types") {
            None | Some("docs") => Ok(false),
            Some("all") => Ok(true),
            Some(other) => Err(ApiError::bad(format!(
                "types={} is not a choice: give docs (the documentation's 18 types) or all",
                quote(other)
            ))),
        }
    }

    fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| ApiError::bad(format!("give the parameter {name}")))
    }

    /// `highlight=A,B`, if given.
    fn highlight(&self) -> Result<Option<[String; 2]>, ApiError> {
        let Some(text) = self.get("highlight") else {
            return Ok(None);
        };
        let pair = dtype_lattice::design::graph::pair(text)
            .map_err(|err| ApiError::bad(format!("highlight: {err}")))?;
        Ok(Some(pair.map(str::to_owned)))
    }
}

/// The policy called `name` (or an alias) under `settings`.
pub fn policy(name: &str, settings: Settings) -> Result<Box<dyn Policy>, ApiError> {
    registry::by_name(name, settings).map_err(|err| ApiError::bad(err.to_string()))
}

/// A type as the table names it: a dtype name or alias, or `int`,
/// `float`, `complex`.
fn type_spec(text: &str) -> Result<TypeSpec, ApiError> {
    text.parse::<TypeSpec>()
        .map_err(|err| ApiError::bad(err.to_string()))
}

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

/// `GET /api/info`'s answer: the policies (with the settings each reads
/// and whether a lattice defines it), the settings, the table's types and
/// the notebook's lattices. `mode` is `serve` or `static`.
pub fn info_json(mode: &str) -> Value {
    let policies: Vec<Value> = registry::POLICIES
        .iter()
        .map(|info| {
            let lattice = info.build(Settings::default()).lattice().is_some();
            json!({ "name": info.name, "lattice": lattice, "settings": info.settings })
        })
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
        "settings": settings,
        "types": { "docs": types(false), "all": types(true) },
        "examples": examples,
        "limits": {
            "batch_bytes": super::MAX_BATCH_BODY,
            "lattice_bytes": super::MAX_LATTICE_BODY,
            "table_nodes": EDITOR_TABLE_NODES,
        },
    })
}

/// `GET /api/table`'s answer: the promotion table of `policy` over the
/// documentation's types or all of them, as `table --format json` computes
/// it, with each cell's dtype and weak flag, the errors (each message once,
/// cells refer to them by index), the caption and the legend.
pub fn table_json(name: &str, settings: Settings, all: bool) -> Result<Value, ApiError> {
    let policy = policy(name, settings)?;
    let types = table::types(all);
    let computed = Table::compute(policy.as_ref(), &types);
    let mut errors: Vec<Value> = Vec::new();
    let mut error_index: HashMap<String, usize> = HashMap::new();
    let cells: Vec<Vec<Value>> = computed
        .cells
        .iter()
        .map(|row| {
            row.iter()
                .map(|cell| match cell {
                    Ok(result) => json!({
                        "label": table::result_label(*result, Labels::Short),
                        "dtype": result.dtype.name(),
                        "weak": result.weak,
                    }),
                    Err(err) => {
                        let message = format!("{}: {err}", err.python_type());
                        let index = *error_index.entry(message).or_insert_with(|| {
                            errors.push(json!({
                                "type": err.python_type(),
                                "message": err.to_string(),
                            }));
                            errors.len() - 1
                        });
                        json!({ "label": "-", "error": index })
                    }
                })
                .collect()
        })
        .collect();
    let legend: Vec<Value> = table::legend(&types)
        .into_iter()
        .map(|(label, dtype)| json!({ "label": label, "dtype": dtype }))
        .collect();
    let canonicalized: Vec<Value> = table::canonicalized(policy.as_ref(), &types)
        .into_iter()
        .map(|(from, to)| json!({ "from": from.name(), "to": to.name() }))
        .collect();
    Ok(json!({
        "name": policy.name(),
        "lattice": policy.lattice().is_some(),
        "graph": policy.lattice().map(|_| graph_key(policy.as_ref())),
        "caption": crate::table::caption(&computed, policy.as_ref(), crate::table::Labels::Short),
        "types": types.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "labels": computed.labels(Labels::Short),
        "names": computed.labels(Labels::Names),
        "legend": legend,
        "canonicalized": canonicalized,
        "errors": errors,
        "cells": cells,
    }))
}

/// `GET /api/diff`'s answer: `diff LEFT RIGHT --format json --labels short`
/// (with `--all` for all types), the command line's own text.
pub fn diff_text(
    left: &str,
    right: &str,
    settings: Settings,
    all: bool,
) -> Result<String, ApiError> {
    let (first, second) = (policy(left, settings)?, policy(right, settings)?);
    let report = crate::diff::Report::new(
        [left, right],
        [first.as_ref(), second.as_ref()],
        &table::types(all),
        crate::table::Labels::Short,
    );
    Ok(report.render(crate::diff::Format::Json))
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
                Err(crate::Failure::Usage(message)) => message,
                _ => format!("{} has no graph", subject.name()),
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
    let mut value = explained(definition, &poset, &report, marks);
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
    let rows = types
        .iter()
        .map(|&a| {
            let row: serde_json::Map<String, Value> = types
                .iter()
                .map(|&b| {
                    let value = match Report::of_types(definition, &poset, policy.as_ref(), [a, b])
                    {
                        Ok(report) => {
                            let mut value = explained(definition, &poset, &report, true);
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
/// if asked, the drawing's `marks`.
fn explained(definition: &Definition, poset: &Poset, report: &Report, marks: bool) -> Value {
    let mut value = crate::explain::json(report);
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
    if marks {
        let nodes = report.why.inputs.map(|n| report.label(n));
        if let Some(found) = Drawing::new(definition, poset, Some(nodes))
            .ok()
            .and_then(|drawing| drawing.marks())
        {
            value["marks"] = json!({
                "inputs": found.inputs,
                "targets": found.targets,
                "role": found.role,
                "edges": found.edges,
                "caption": found.caption,
            });
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
    let definition = subject.definition().map_err(|err| match err {
        crate::Failure::Usage(message) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message),
        _ => ApiError::bad("no graph"),
    })?;
    let poset = definition
        .poset()
        .map_err(|err| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?;
    draw(definition, &poset, highlight)
}

fn draw(
    definition: &Definition,
    poset: &Poset,
    highlight: Option<&[String; 2]>,
) -> Result<String, ApiError> {
    let pair = highlight.map(|[a, b]| [a.as_str(), b.as_str()]);
    let drawing =
        Drawing::new(definition, poset, pair).map_err(|err| ApiError::bad(err.to_string()))?;
    drawing
        .svg()
        .map_err(|too_large| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, too_large.to_string()))
}

/// The most nodes the editor's join table shows; larger graphs are
/// checked, audited and drawn, but a table of thousands of columns is
/// read by no one.
pub const EDITOR_TABLE_NODES: usize = 64;

/// How a posted lattice is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Syntax {
    /// A lattice file.
    Toml,
    /// A dict of lists, Python or JSON.
    Dict,
}

impl Syntax {
    fn name(self) -> &'static str {
        match self {
            Syntax::Toml => "toml",
            Syntax::Dict => "dict",
        }
    }

    /// `syntax`: `auto` (the default: a dict when the text starts as one,
    /// [`looks_like_dict`]), `dict`, `python`, `json` or `toml`.
    fn of(params: &Params, text: &str) -> Result<Syntax, ApiError> {
        match params.get("syntax") {
            None | Some("auto") if looks_like_dict(text) => Ok(Syntax::Dict),
            None | Some("auto" | "toml") => Ok(Syntax::Toml),
            Some("dict" | "python" | "json") => Ok(Syntax::Dict),
            Some(other) => Err(ApiError::bad(format!(
                "syntax={} is not a choice: give auto, dict (Python or JSON) or toml",
                quote(other)
            ))),
        }
    }
}

/// The definition a posted text describes, or why it does not describe
/// one (with the place).
fn read_lattice(bytes: &[u8], syntax: Syntax) -> Result<Definition, ApiError> {
    let unprocessable = |message: String, location: Option<Location>| ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        message,
        location,
    };
    match syntax {
        Syntax::Toml => lattice_file::parse_bytes(bytes).map_err(|err| {
            let location = err.location();
            unprocessable(err.with_path("lattice").to_string(), location)
        }),
        Syntax::Dict => {
            let text = std::str::from_utf8(bytes).map_err(|err| {
                let offset = err.valid_up_to();
                unprocessable(
                    format!(
                        "byte {offset} (0x{:02x}) is not UTF-8: paste UTF-8 text",
                        bytes[offset]
                    ),
                    None,
                )
            })?;
            let dict = parse_python_dict(text)
                .map_err(|err| unprocessable(err.to_string(), err.location()))?;
            dict.definition("pasted")
                .map_err(|err| unprocessable(format!("dict: {err}"), None))
        }
    }
}

/// `POST /api/lattice`'s answer for a posted text: whether it is a
/// lattice and why not (`check --format json`), the audit (`audit
/// --format json`), its join table (up to [`EDITOR_TABLE_NODES`] nodes:
/// each cell a node's index into `labels`, -1 for a pair with no upper
/// bound, -2 for an ambiguous one), its drawing, and with `pair` the
/// explanation of that pair with the drawing marking it. A text that
/// describes no graph answers `{"valid": false, "error"}` with the place.
pub fn lattice_json(bytes: &[u8], syntax: &str, pair: Option<&[String; 2]>) -> Value {
    let syntax = match syntax {
        "toml" => Syntax::Toml,
        _ => Syntax::Dict,
    };
    let definition = match read_lattice(bytes, syntax) {
        Ok(definition) => definition,
        Err(err) => {
            let mut value = err.json();
            value["valid"] = json!(false);
            value["syntax"] = json!(syntax.name());
            return value;
        }
    };
    let mut value = json!({
        "valid": true,
        "syntax": syntax.name(),
        "name": definition.name,
        "description": definition.description,
    });
    let checked: Result<Check, _> = check::check(&definition, check::EXAMPLES);
    let checked = match checked {
        Ok(checked) => checked,
        Err(err) => {
            value["valid"] = json!(false);
            value["error"] = json!({ "status": 422, "message": err.to_string() });
            return value;
        }
    };
    value["check"] = crate::check::graph_json(&definition, &checked);
    value["audit"] = Audit::of_definition(&definition)
        .map(|audit| crate::audit::json(&audit))
        .unwrap_or(Value::Null);
    let poset = definition.poset().ok();
    value["table"] = match &poset {
        Some(poset) if poset.len() <= EDITOR_TABLE_NODES => node_table(poset),
        Some(_) => json!({
            "omitted": format!(
                "{} nodes: the table is shown up to {EDITOR_TABLE_NODES}",
                definition.nodes.len()
            )
        }),
        None => json!({ "omitted": "the edges form a cycle, so no pair has a join" }),
    };
    let Some(poset) = poset else {
        value["svg"] = Value::Null;
        value["svg_note"] = json!("a graph with a cycle is not drawn: remove an edge of the cycle");
        return value;
    };
    if let Some([a, b]) = pair {
        value["explain"] = match Report::new(&definition, &poset, None, [a, b]) {
            Ok(report) => explained(&definition, &poset, &report, false),
            Err(unknown) => json!({ "explained": false, "reason": unknown.to_string() }),
        };
    }
    let highlight =
        pair.filter(|[a, b]| definition.resolve(a).is_ok() && definition.resolve(b).is_ok());
    match draw(&definition, &poset, highlight) {
        Ok(svg) => value["svg"] = json!(svg),
        Err(err) => {
            value["svg"] = Value::Null;
            value["svg_note"] = json!(err.message);
        }
    }
    value
}

/// The join of every pair of nodes, as indices.
fn node_table(poset: &Poset) -> Value {
    let joins = Joins::new(poset.clone());
    let n = poset.len();
    let cells: Vec<Vec<i64>> = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| match joins.join(a, b) {
                    Some(join) => join as i64,
                    None if joins.is_ambiguous(a, b) => -2,
                    None => -1,
                })
                .collect()
        })
        .collect();
    json!({ "labels": poset.labels(), "cells": cells })
}

/// Runs `work` off the async threads, as one of the few heavy analyses
/// allowed at once; 503 if none finishes in time for it to start.
async fn heavy<T: Send + 'static>(
    shared: &Shared,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let permit = tokio::time::timeout(HEAVY_WAIT, shared.heavy.acquire())
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy analysing other lattices: try again in a few seconds",
            )
        })?;
    let answer = blocking(work).await;
    drop(permit);
    answer
}

/// Runs `work` on a thread that may block, so that no computation holds
/// up the connections.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|err| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the computation failed: {err}"),
        )
    })
}

/// A body within its limit, or the refusal (413 past the limit).
fn body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        let status = rejection.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            "the request body is larger than this endpoint takes (1 MiB for /api/batch, \
             8 MiB for a lattice): split the batch or shorten the lattice"
                .to_owned()
        } else {
            format!("cannot read the request body: {}", rejection.body_text())
        };
        ApiError::new(status, message)
    })
}

/// The answer of a builder, or its error.
fn respond(answer: Result<Response, ApiError>) -> Response {
    answer.unwrap_or_else(IntoResponse::into_response)
}

type QueryPairs = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// `GET /api/info`.
pub async fn info(query: QueryPairs) -> Response {
    static INFO: OnceLock<Bytes> = OnceLock::new();
    respond(Params::read(query, &[]).map(|_| {
        json_bytes(
            INFO.get_or_init(|| Bytes::from(info_json("serve").to_string()))
                .clone(),
        )
    }))
}

/// `GET /api/table?policy=NAME&types=docs|all&x64=..&strict=..`.
pub async fn table(query: QueryPairs) -> Response {
    respond(
        async {
            let params = Params::read(query, &["policy", "types"])?;
            let (name, settings, all) = (
                params.get("policy").unwrap_or("jax").to_owned(),
                params.settings()?,
                params.all_types()?,
            );
            let key = format!("table {} {all}", policy(&name, settings)?.name());
            let answer = answer_once(key, move || {
                table_json(&name, settings, all).map(|value| value.to_string())
            })
            .await?;
            Ok(json_bytes(answer))
        }
        .await,
    )
}

/// `GET /api/diff?left=NAME&right=NAME&types=..&x64=..&strict=..`.
pub async fn diff(query: QueryPairs) -> Response {
    respond(
        async {
            let params = Params::read(query, &["left", "right", "types"])?;
            let (left, right) = (
                params.required("left")?.to_owned(),
                params.required("right")?.to_owned(),
            );
            let (settings, all) = (params.settings()?, params.all_types()?);
            // The report names the policies as asked (an alias stays one),
            // so the key holds the names asked with the settings they read.
            let key = format!(
                "diff {left}/{} {right}/{} {all}",
                policy(&left, settings)?.name(),
                policy(&right, settings)?.name()
            );
            let answer = answer_once(key, move || diff_text(&left, &right, settings, all)).await?;
            Ok(json_bytes(answer))
        }
        .await,
    )
}

/// `GET /api/explain?policy=NAME&a=TYPE&b=TYPE&x64=..&strict=..`.
pub async fn explain(query: QueryPairs) -> Response {
    respond(
        async {
            let params = Params::read(query, &["policy", "a", "b", "marks"])?;
            let name = params.get("policy").unwrap_or("jax").to_owned();
            let cell = [
                type_spec(params.required("a")?)?,
                type_spec(params.required("b")?)?,
            ];
            let marks = match params.get("marks") {
                None | Some("false" | "0" | "off") => false,
                Some("true" | "1" | "on") => true,
                Some(other) => {
                    return Err(ApiError::bad(format!(
                        "marks={} is not a flag: give true or false",
                        quote(other)
                    )))
                }
            };
            let settings = params.settings()?;
            let value = blocking(move || explain_json(&name, settings, cell, marks)).await??;
            Ok(json_response(&value))
        }
        .await,
    )
}

/// `GET /api/graph.svg?policy=NAME&highlight=A,B&x64=..&strict=..`.
pub async fn graph(query: QueryPairs) -> Response {
    respond(
        async {
            let params = Params::read(query, &["policy", "highlight"])?;
            let name = params.get("policy").unwrap_or("jax").to_owned();
            let (settings, highlight) = (params.settings()?, params.highlight()?);
            let svg = match highlight {
                // A drawing without marks is the same for every visitor.
                None => {
                    let key = format!("graph {}", policy(&name, settings)?.name());
                    answer_once(key, move || graph_svg(&name, settings, None)).await?
                }
                Some(pair) => {
                    Bytes::from(blocking(move || graph_svg(&name, settings, Some(&pair))).await??)
                }
            };
            Ok(typed("image/svg+xml", svg))
        }
        .await,
    )
}

/// The largest batch answered on the connection's own thread: a few
/// request lines.
const INLINE_BATCH_BYTES: usize = 4 << 10;

/// `POST /api/batch?policy=NAME&x64=..&strict=..`: the batch protocol,
/// JSON Lines in and out, exactly as `dtype-lattice batch` answers (the
/// parameters are its flags).
pub async fn batch(query: QueryPairs, request: Result<Bytes, BytesRejection>) -> Response {
    respond(
        async {
            let params = Params::read(query, &["policy"])?;
            let settings = params.settings()?;
            let name = params.get("policy").unwrap_or("jax").to_owned();
            policy(&name, settings)?;
            let input = body(request)?;
            let small = input.len() <= INLINE_BATCH_BYTES;
            let defaults = dtype_lattice::protocol::Defaults {
                settings,
                policy: Some(name),
            };
            let answer = move || {
                let mut output = Vec::new();
                dtype_lattice::protocol::run(&input[..], &mut output, defaults).map(|()| output)
            };
            // A few lines take microseconds, less than handing them to
            // another thread; a long batch must not hold up the connections.
            let output = if small {
                answer()
            } else {
                blocking(answer).await?
            }
            .map_err(|err| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?;
            Ok(typed("application/jsonl", output))
        }
        .await,
    )
}

/// `POST /api/lattice?syntax=auto|dict|toml&a=A&b=B`: a posted lattice
/// ([`lattice_json`]); a body that is not UTF-8 is refused (400).
pub async fn lattice(
    State(shared): State<Arc<Shared>>,
    query: QueryPairs,
    request: Result<Bytes, BytesRejection>,
) -> Response {
    respond(
        async {
            let params = Params::read(query, &["syntax", "a", "b"])?;
            let input = body(request)?;
            let syntax = posted_syntax(&params, &input)?;
            let pair = match (params.get("a"), params.get("b")) {
                (Some(a), Some(b)) => Some([a.to_owned(), b.to_owned()]),
                (None, None) => None,
                _ => return Err(ApiError::bad("give both a and b, or neither")),
            };
            let value = heavy(&shared, move || lattice_json(&input, syntax, pair.as_ref())).await?;
            Ok(json_response(&value))
        }
        .await,
    )
}

/// The syntax of a posted text, after refusing one that is not UTF-8.
fn posted_syntax(params: &Params, input: &[u8]) -> Result<&'static str, ApiError> {
    let text = std::str::from_utf8(input).map_err(|err| {
        ApiError::bad(format!(
            "the body is not UTF-8 text (byte {} is 0x{:02x}): post the lattice as UTF-8",
            err.valid_up_to(),
            input[err.valid_up_to()]
        ))
    })?;
    Ok(Syntax::of(params, text)?.name())
}

/// `POST /api/lattice/graph.svg?syntax=..&highlight=A,B`: a posted
/// lattice's drawing.
pub async fn lattice_graph(
    State(shared): State<Arc<Shared>>,
    query: QueryPairs,
    request: Result<Bytes, BytesRejection>,
) -> Response {
    respond(
        async {
            let params = Params::read(query, &["syntax", "highlight"])?;
            let input = body(request)?;
            let syntax = if posted_syntax(&params, &input)? == "toml" {
                Syntax::Toml
            } else {
                Syntax::Dict
            };
            let highlight = params.highlight()?;
            let svg = heavy(&shared, move || {
                let definition = read_lattice(&input, syntax)?;
                let poset = definition.poset().map_err(|err| {
                    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, err.to_string())
                })?;
                draw(&definition, &poset, highlight.as_ref())
            })
            .await??;
            Ok(svg_response(svg))
        }
        .await,
    )
}

/// `GET /api/examples`: the notebook's lattice files by name.
pub async fn examples(query: QueryPairs) -> Response {
    respond(Params::read(query, &[]).map(|_| {
        let names: Vec<&str> = assets::EXAMPLES.iter().map(|(name, _)| *name).collect();
        json_response(&json!({ "examples": names }))
    }))
}

/// `GET /api/examples/NAME`: one of them, as TOML text.
pub async fn example(Path(name): Path<String>) -> Response {
    match assets::example(&name) {
        Some(text) => typed("text/plain; charset=utf-8", text),
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no example {}: GET /api/examples lists them", quote(&name)),
        )
        .into_response(),
    }
}
