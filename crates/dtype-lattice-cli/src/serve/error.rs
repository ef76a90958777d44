//! The API's answers that are not answers: errors, as JSON with a 4xx
//! status that says whose fault it was, and the typed bodies every handler
//! sends.

use axum::body::Bytes;
use axum::http::header::{self, HeaderValue};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use dtype_lattice::design::Location;

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

    /// The error with the place in the posted text it concerns.
    pub(super) fn at(mut self, location: Option<Location>) -> ApiError {
        self.location = location;
        self
    }

    /// A request the client got wrong (400).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// What went wrong, as the response says it.
    pub fn message(&self) -> &str {
        &self.message
    }

    pub(super) fn json(&self) -> Value {
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
        let mut response = (self.status, json_response(&self.json())).into_response();
        // Every 503 is a turn not had in time (an upload's, an analysis's,
        // a share of the answers held): worth trying again shortly.
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(super::RETRY_AFTER.as_secs()),
            );
        }
        response
    }
}

/// `body` with its content type.
pub(super) fn typed(content_type: &'static str, body: impl IntoResponse) -> Response {
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static(content_type))],
        body,
    )
        .into_response()
}

pub(super) fn json_response(value: &Value) -> Response {
    json_text(value.to_string())
}

fn json_text(text: String) -> Response {
    typed("application/json", text)
}
pub(super) fn json_bytes(answer: Bytes) -> Response {
    typed("application/json", answer)
}

pub(super) fn svg_response(svg: String) -> Response {
    typed("image/svg+xml", svg)
}

/// The answer of a builder, or its error.
pub(super) fn respond(answer: Result<Response, ApiError>) -> Response {
    answer.unwrap_or_else(IntoResponse::into_response)
}
