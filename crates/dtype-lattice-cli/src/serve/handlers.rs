//! The API's handlers: each reads its parameters, hands the work to an
//! answer builder (off the connection's thread when it is more than a
//! table load), and sends the answer with its type.

use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use dtype_lattice::design::table::Question;
use dtype_lattice::Operation;

use super::answers::{diff_text_of, explain_json, graph_svg, info_json, table_json_of};
use super::assets;
use super::body::Posted;
use super::cache::{answer_once, blocking, heavy};
use super::editor::{draw_posted, lattice_json, posted_syntax};
use super::error::{json_bytes, json_response, respond, svg_response, typed, ApiError};
use super::params::{policy, quote, type_spec, Params, QueryPairs};
use super::weight::{too_heavy, Capped};
use super::{Shared, MAX_BATCH_BODY, MAX_LATTICE_BODY};

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

/// What a cached answer is of: promotion, or an operation in a form.
fn question_key(question: Question) -> String {
    let op = question.op().map_or("result_type", Operation::name);
    match question.form() {
        Some(form) => format!("{op} {form}"),
        None => op.to_owned(),
    }
}

/// `GET /api/table?policy=NAME&types=docs|all&op=OP&form=FORM&x64=..&strict=..`.
pub async fn table(query: QueryPairs) -> Response {
    respond(
        async {
            let params = Params::read(query, &["policy", "types", "op", "form"])?;
            let (name, settings, all, question) = (
                params.get("policy").unwrap_or("jax").to_owned(),
                params.settings()?,
                params.all_types()?,
                params.question()?,
            );
            let key = format!(
                "table {} {all} {}",
                policy(&name, settings)?.name(),
                question_key(question)
            );
            let answer = answer_once(key, move || {
                table_json_of(&name, settings, all, question).map(|value| value.to_string())
            })
            .await?;
            Ok(json_bytes(answer))
        }
        .await,
    )
}

/// `GET /api/diff?left=NAME&right=NAME&types=..&op=OP&form=FORM&x64=..&strict=..`.
pub async fn diff(query: QueryPairs) -> Response {
    respond(
        async {
            let params = Params::read(query, &["left", "right", "types", "op", "form"])?;
            let (left, right) = (
                params.required("left")?.to_owned(),
                params.required("right")?.to_owned(),
            );
            let (settings, all, question) =
                (params.settings()?, params.all_types()?, params.question()?);
            // The report names the policies as asked (an alias stays one),
            // so the key holds the names asked with the settings they read.
            let key = format!(
                "diff {left}/{} {right}/{} {all} {}",
                policy(&left, settings)?.name(),
                policy(&right, settings)?.name(),
                question_key(question)
            );
            let answer = answer_once(key, move || {
                diff_text_of(&left, &right, settings, all, question)
            })
            .await?;
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
pub async fn batch(
    query: QueryPairs,
    request: Result<Posted<MAX_BATCH_BODY>, ApiError>,
) -> Response {
    respond(
        async {
            let params = Params::read(query, &["policy"])?;
            let settings = params.settings()?;
            let name = params.get("policy").unwrap_or("jax").to_owned();
            policy(&name, settings)?;
            // The body keeps its upload turn until the batch is answered.
            let input = request?;
            let small = input.bytes().len() <= INLINE_BATCH_BYTES;
            let defaults = dtype_lattice::protocol::Defaults {
                settings,
                policy: Some(name),
            };
            let answer = move || {
                let mut output = Capped::default();
                let run = dtype_lattice::protocol::run(&input.bytes()[..], &mut output, defaults);
                match (run, output.over) {
                    (Ok(()), _) => Ok(output.bytes),
                    (Err(_), Some(weight)) => Err(too_heavy(
                        "the batch's answers",
                        weight,
                        "split the batch, or run it with dtype-lattice batch, which answers \
                         any number of lines",
                    )),
                    (Err(err), None) => Err(ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        err.to_string(),
                    )),
                }
            };
            // A few lines take microseconds, less than handing them to
            // another thread; a long batch must not hold up the connections.
            let output = if small {
                answer()
            } else {
                blocking(answer).await?
            }?;
            Ok(typed("application/jsonl", output))
        }
        .await,
    )
}

/// What both lattice endpoints read first: the parameters (`syntax` and
/// `others`), the posted body, and its syntax.
fn read_posted(
    query: QueryPairs,
    others: &[&'static str],
    request: Result<Posted<MAX_LATTICE_BODY>, ApiError>,
) -> Result<(Params, Posted<MAX_LATTICE_BODY>, &'static str), ApiError> {
    let names: Vec<&'static str> = std::iter::once("syntax")
        .chain(others.iter().copied())
        .collect();
    let params = Params::read(query, &names)?;
    let input = request?;
    let syntax = posted_syntax(&params, input.bytes())?;
    Ok((params, input, syntax))
}

/// `POST /api/lattice?syntax=auto|dict|toml&a=A&b=B`: a posted lattice
/// ([`lattice_json`]); a body that is not UTF-8 is refused (400).
pub async fn lattice(
    State(shared): State<Arc<Shared>>,
    query: QueryPairs,
    request: Result<Posted<MAX_LATTICE_BODY>, ApiError>,
) -> Response {
    respond(
        async {
            let (params, input, syntax) = read_posted(query, &["a", "b"], request)?;
            let pair = match (params.get("a"), params.get("b")) {
                (Some(a), Some(b)) => Some([a.to_owned(), b.to_owned()]),
                (None, None) => None,
                _ => return Err(ApiError::bad("give both a and b, or neither")),
            };
            let value = heavy(&shared, move || {
                lattice_json(input.bytes(), syntax, pair.as_ref())
            })
            .await?;
            Ok(json_response(&value))
        }
        .await,
    )
}

/// `POST /api/lattice/graph.svg?syntax=..&highlight=A,B`: a posted
/// lattice's drawing.
pub async fn lattice_graph(
    State(shared): State<Arc<Shared>>,
    query: QueryPairs,
    request: Result<Posted<MAX_LATTICE_BODY>, ApiError>,
) -> Response {
    respond(
        async {
            let (params, input, syntax) = read_posted(query, &["highlight"], request)?;
            let highlight = params.highlight()?;
            let svg = heavy(&shared, move || {
                draw_posted(input.bytes(), syntax, highlight.as_ref())
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
