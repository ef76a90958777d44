//! Posted bodies, bounded before they are read: a declared length past
//! the endpoint's limit is refused before a byte is read (and so without
//! `100 Continue`), a body past [`SMALL_BODY`] waits for one of
//! [`UPLOADS_AT_ONCE`] turns before it is buffered and keeps it until its
//! answer is computed, and a body must arrive within [`BODY_TIMEOUT`].

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRef, FromRequest, Request};
use axum::http::header::{self, HeaderMap};
use axum::http::StatusCode;
use http_body_util::BodyExt;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

use super::cache::turn;
use super::error::ApiError;
use super::{Shared, BODY_TIMEOUT, SMALL_BODY, UPLOADS_AT_ONCE};

/// A request body of at most `LIMIT` bytes, with the upload turn it holds
/// while it is in memory (if it is large enough to need one).
pub struct Posted<const LIMIT: usize> {
    bytes: Bytes,
    _turn: Option<OwnedSemaphorePermit>,
}

impl<const LIMIT: usize> Posted<LIMIT> {
    /// The body; the turn stays held for as long as `self` lives, which a
    /// handler keeps until its answer is computed.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }
}

/// What a body past its limit is told.
fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the request body is larger than this endpoint takes ({} MiB; 1 MiB for /api/batch, \
             8 MiB for a lattice): split the batch or shorten the lattice",
            limit >> 20
        ),
    )
}

/// The declared length, if the request declares one that can be read.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Waits for an upload turn, up to [`HEAVY_WAIT`](super::HEAVY_WAIT).
async fn upload_turn(shared: &Shared) -> Result<OwnedSemaphorePermit, ApiError> {
    let busy = format!("receiving {UPLOADS_AT_ONCE} other large bodies");
    turn(&shared.uploads, &busy).await
}

/// The body, read within [`BODY_TIMEOUT`] of its first byte being asked
/// for; the refusal otherwise (413, 408, 503, or 400 when the client
/// breaks off).
async fn read<const LIMIT: usize>(
    shared: &Shared,
    request: Request,
) -> Result<Posted<LIMIT>, ApiError> {
    let declared = declared_length(request.headers());
    if declared.is_some_and(|length| length > LIMIT as u64) {
        return Err(too_large(LIMIT));
    }
    // A length within the limit is a size to reserve: it fits in usize.
    let declared = declared.map(|length| length as usize);
    let mut turn = None;
    if declared.is_some_and(|length| length > SMALL_BODY) {
        turn = Some(upload_turn(shared).await?);
    }
    let mut buffer = Vec::with_capacity(declared.unwrap_or(0));
    let mut body: Body = request.into_body();
    let deadline = Instant::now() + BODY_TIMEOUT;
    while let Some(frame) = tokio::time::timeout_at(deadline, body.frame())
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} seconds ({} of {} bytes came): \
                     send it whole, at once",
                    BODY_TIMEOUT.as_secs(),
                    buffer.len(),
                    declared.map_or("its".to_owned(), |n| n.to_string())
                ),
            )
        })?
    {
        let frame =
            frame.map_err(|err| ApiError::bad(format!("cannot read the request body: {err}")))?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let length = buffer.len() + data.len();
        if length > LIMIT {
            return Err(too_large(LIMIT));
        }
        if turn.is_none() && length > SMALL_BODY {
            // A body of no declared length (chunked) shows its size only
            // as it comes.
            turn = Some(upload_turn(shared).await?);
        }
        buffer.extend_from_slice(&data);
    }
    Ok(Posted {
        bytes: Bytes::from(buffer),
        _turn: turn,
    })
}

impl<S, const LIMIT: usize> FromRequest<S> for Posted<LIMIT>
where
    Arc<Shared>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let shared = Arc::<Shared>::from_ref(state);
        read(&shared, request).await
    }
}
