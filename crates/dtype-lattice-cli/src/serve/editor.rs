//! The lattice editor's answers: a posted text (a dict of lists, Python or
//! JSON, or a lattice file) read into a graph, then checked, audited,
//! tabled, drawn and, for a pair, explained.

use axum::http::StatusCode;
use serde_json::{json, Value};

use dtype_lattice::design::audit::Audit;
use dtype_lattice::design::check::{self, Check};
use dtype_lattice::design::dict_text::{looks_like_dict, parse_python_dict};
use dtype_lattice::design::explain::Report;
use dtype_lattice::design::{lattice_file, Definition, DefinitionError, Location, Origin, Subject};
use dtype_lattice::engine::{Joins, Poset};

use super::answers::{draw, explained};
use super::error::ApiError;
use super::params::{quote, Params};

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
    /// The syntax [`name`](Self::name) names.
    fn named(name: &str) -> Syntax {
        if name == "toml" {
            Syntax::Toml
        } else {
            Syntax::Dict
        }
    }

    pub(super) fn name(self) -> &'static str {
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
    let unprocessable = |message: String, location: Option<Location>| {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message).at(location)
    };
    match syntax {
        Syntax::Toml => lattice_file::parse_bytes(bytes).map_err(|err| {
            let location = err.location();
            unprocessable(err.with_path("lattice").to_string(), location)
        }),
        Syntax::Dict => {
            let refused = |err: DefinitionError| unprocessable(err.to_string(), err.location());
            let text = DefinitionError::text(bytes, Origin::DictText).map_err(refused)?;
            let dict = parse_python_dict(text).map_err(refused)?;
            dict.definition("pasted").map_err(refused)
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
    let syntax = Syntax::named(syntax);
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
    let checked = Check::new(&definition, check::EXAMPLES);
    let checked = match checked {
        Ok(checked) => checked,
        Err(err) => {
            value["valid"] = json!(false);
            value["error"] = json!({ "status": 422, "message": err.to_string() });
            return value;
        }
    };
    value["check"] = checked.to_json(&definition);
    let subject = Subject::of_definition(definition);
    value["audit"] = Audit::new(&subject)
        .map(|audit| audit.to_json())
        .unwrap_or(Value::Null);
    let Subject::Graph { definition, .. } = subject else {
        unreachable!("a graph stays a graph")
    };
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
            Ok(report) => explained(&definition, &report, None),
            Err(unknown) => json!({ "explained": false, "reason": unknown.to_string() }),
        };
    }
    let highlight =
        pair.filter(|[a, b]| definition.resolve(a).is_ok() && definition.resolve(b).is_ok());
    match draw(&definition, &poset, highlight) {
        Ok(svg) => value["svg"] = json!(svg),
        Err(err) => {
            value["svg"] = Value::Null;
            value["svg_note"] = json!(err.message());
        }
    }
    value
}

/// `POST /api/lattice/graph.svg`'s answer: the drawing of a posted text
/// in `syntax` (a name [`posted_syntax`] gives), marking `highlight`.
pub(super) fn draw_posted(
    bytes: &[u8],
    syntax: &str,
    highlight: Option<&[String; 2]>,
) -> Result<String, ApiError> {
    let definition = read_lattice(bytes, Syntax::named(syntax))?;
    let poset = definition
        .poset()
        .map_err(|err| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, err.to_string()))?;
    draw(&definition, &poset, highlight)
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

/// The syntax of a posted text, after refusing one that is not UTF-8.
pub(super) fn posted_syntax(params: &Params, input: &[u8]) -> Result<&'static str, ApiError> {
    let text = DefinitionError::text(input, Origin::DictText)
        .map_err(|err| ApiError::bad(format!("the body is not UTF-8 text: {err}")))?;
    Ok(Syntax::of(params, text)?.name())
}
