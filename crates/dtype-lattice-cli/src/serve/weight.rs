//! What answers weigh. A request is bounded before it is read, but its
//! answer is made in memory and stays there until the client has read it,
//! so answers are bounded too: one answer at most [`MAX_ANSWER_BYTES`],
//! the answers held for all clients together at most
//! [`ANSWER_BYTES_HELD`] (503 past it, since memory spent on one slow
//! reader is memory refused to the next), and each must be read at
//! [`MIN_READ_RATE`] on average after a first [`WRITE_TIMEOUT`], or the
//! connection is cut: a client that reads slowly would otherwise keep its
//! share of the budget as long as it likes.

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

use super::error::ApiError;
use super::{Shared, ANSWER_BYTES_HELD, MAX_ANSWER_BYTES, MIN_READ_RATE, WRITE_TIMEOUT};

/// The most of an answer handed to hyper at once: hyper copies what it
/// is given into its write buffer, so an answer handed over whole would
/// be held twice.
const CHUNK: usize = 64 << 10;

/// How the answer past [`MAX_ANSWER_BYTES`] is refused; `advice` says how
/// to get it otherwise. `weight` is as much as was made before it was
/// refused, all of it or not.
pub fn too_heavy(what: &str, weight: usize, advice: &str) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        format!(
            "{what} would weigh at least {:.1} MB, more than the {} MiB this server sends in one \
             answer: {advice}",
            weight as f64 / 1e6,
            MAX_ANSWER_BYTES >> 20
        ),
    )
}

/// The most a drawing may weigh: half an answer, so that a posted
/// lattice's analysis has the other half beside it.
pub const MAX_DRAWING_BYTES: usize = MAX_ANSWER_BYTES / 2;

/// The fewest bytes an edge of a drawing takes: its `<path>` element's
/// fixed text is about 100 bytes before the nodes' names and the curve.
const EDGE_BYTES_AT_LEAST: usize = 100;

/// Refuses a drawing of `edges` edges that cannot fit in
/// [`MAX_DRAWING_BYTES`], before it is laid out: laying out and writing
/// the 47 MB drawing of 250,000 edges takes a second and 100 MB.
pub fn drawing_may_fit(edges: usize) -> Result<(), ApiError> {
    let at_least = edges.saturating_mul(EDGE_BYTES_AT_LEAST);
    if at_least <= MAX_DRAWING_BYTES {
        return Ok(());
    }
    Err(drawing_too_heavy(&format!(
        "at least {:.1} MB ({edges} edges)",
        at_least as f64 / 1e6
    )))
}

/// `svg`, or its refusal when it weighs more than [`MAX_DRAWING_BYTES`].
pub fn drawing_within_limit(svg: String) -> Result<String, ApiError> {
    if svg.len() <= MAX_DRAWING_BYTES {
        return Ok(svg);
    }
    Err(drawing_too_heavy(&format!(
        "{:.1} MB",
        svg.len() as f64 / 1e6
    )))
}

/// What a drawing past [`MAX_DRAWING_BYTES`] is told: how to get it.
fn drawing_too_heavy(weight: &str) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        format!(
            "the drawing would weigh {weight}, more than the {} MiB this server sends for \
             one: draw it with the command line (dtype-lattice graph FILE -o drawing.dot for \
             Graphviz, or -o drawing.svg), or read its summary, the check and audit",
            MAX_DRAWING_BYTES >> 20
        ),
    )
}

/// An answer written as it is computed (a batch's), refused as soon as
/// it passes [`MAX_ANSWER_BYTES`] rather than after: a megabyte of
/// one-byte requests answers fifty.
#[derive(Default)]
pub struct Capped {
    pub bytes: Vec<u8>,
    /// How much was asked to be written in all, once past the limit.
    pub over: Option<usize>,
}

impl io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let total = self.bytes.len() + buf.len();
        if total > MAX_ANSWER_BYTES {
            self.over = Some(total);
            return Err(io::ErrorKind::FileTooLarge.into());
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// How long an answer of `bytes` may take to be read.
pub fn sending_time(bytes: usize) -> Duration {
    WRITE_TIMEOUT + Duration::from_secs_f64(bytes as f64 / MIN_READ_RATE as f64)
}

/// When the answer a connection is sending must have been read: set when
/// sending starts, enforced by the connection's socket ([`Guarded`]),
/// which sees every write, so that a client that takes a byte now and
/// then is cut off as surely as one that takes nothing.
///
/// [`Guarded`]: super::stream::Guarded
#[derive(Debug, Default)]
pub struct SendClock(Mutex<Option<Instant>>);

impl SendClock {
    /// The deadline of the answer being sent, if any.
    pub fn deadline(&self) -> Option<Instant> {
        *self.0.lock().unwrap_or_else(|err| err.into_inner())
    }

    fn set(&self, deadline: Option<Instant>) {
        *self.0.lock().unwrap_or_else(|err| err.into_inner()) = deadline;
    }

    /// Forgets the last answer's deadline: a new request has begun.
    pub fn clear(&self) {
        self.set(None);
    }
}

/// `response` as it is sent: refused when it weighs too much, or when the
/// answers already held leave no room for it (503), else metered out in
/// [`CHUNK`]s, holding its share of the budget until the client has taken
/// it or gone, and given its connection's `clock` a deadline.
pub async fn hold(shared: &Shared, clock: Option<Arc<SendClock>>, response: Response) -> Response {
    let (parts, body) = response.into_parts();
    let weight = body.size_hint().exact();
    if let Some(weight) = weight.filter(|&w| w > MAX_ANSWER_BYTES as u64) {
        return heavier_than_allowed(usize::try_from(weight).unwrap_or(usize::MAX));
    }
    // Every answer here is already in memory: this takes it without a copy.
    let bytes = match axum::body::to_bytes(body, MAX_ANSWER_BYTES).await {
        Ok(bytes) => bytes,
        Err(_) => return heavier_than_allowed(MAX_ANSWER_BYTES + 1),
    };
    if bytes.is_empty() {
        return Response::from_parts(parts, Body::empty());
    }
    // An answer is at most MAX_ANSWER_BYTES, which fits in u32.
    let share = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    let Ok(permit) = shared.answers.clone().try_acquire_many_owned(share) else {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is holding {} MiB of answers for other clients, its most: \
                 try again in a few seconds",
                ANSWER_BYTES_HELD >> 20
            ),
        )
        .into_response();
    };
    let metered = Metered {
        bytes,
        _permit: permit,
        clock,
        started: false,
    };
    Response::from_parts(parts, Body::new(metered))
}

fn heavier_than_allowed(weight: usize) -> Response {
    too_heavy(
        "the answer",
        weight,
        "ask for less (a shorter batch, a smaller lattice), or ask the dtype-lattice \
         command, which writes answers of any size",
    )
    .into_response()
}

/// An answer handed to hyper a chunk at a time, with the budget it holds
/// and the clock it starts.
struct Metered {
    bytes: Bytes,
    _permit: OwnedSemaphorePermit,
    clock: Option<Arc<SendClock>>,
    /// Whether hyper has asked for a chunk: sending has started.
    started: bool,
}

impl HttpBody for Metered {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if self.bytes.is_empty() {
            return Poll::Ready(None);
        }
        if !self.started {
            self.started = true;
            let deadline = Instant::now() + sending_time(self.bytes.len());
            if let Some(clock) = &self.clock {
                clock.set(Some(deadline));
            }
        }
        let size = CHUNK.min(self.bytes.len());
        let chunk = self.bytes.split_to(size);
        Poll::Ready(Some(Ok(Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.bytes.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.bytes.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::Semaphore;

    fn shared(answer_bytes: usize) -> Shared {
        Shared {
            heavy: Arc::new(Semaphore::new(1)),
            uploads: Arc::new(Semaphore::new(1)),
            answers: Arc::new(Semaphore::new(answer_bytes)),
            loopback_port: None,
        }
    }

    fn held(shared: &Shared, body: Vec<u8>) -> Response {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(hold(shared, None, Body::from(body).into_response()))
    }

    #[test]
    fn answers_hold_their_share_until_dropped_and_past_the_budget_get_503() {
        let shared = shared(1000);
        let first = held(&shared, vec![b'x'; 600]);
        assert_eq!(first.status(), StatusCode::OK);
        assert_eq!(shared.answers.available_permits(), 400);
        let second = held(&shared, vec![b'x'; 600]);
        assert_eq!(second.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(second.headers()["retry-after"], "5");
        drop(first);
        assert_eq!(shared.answers.available_permits(), 1000);
        assert_eq!(held(&shared, vec![b'x'; 600]).status(), StatusCode::OK);
    }

    #[test]
    fn an_answer_past_the_limit_is_refused_saying_how_to_get_it() {
        let shared = shared(ANSWER_BYTES_HELD);
        let refused = held(&shared, vec![b'x'; MAX_ANSWER_BYTES + 1]);
        assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(shared.answers.available_permits(), ANSWER_BYTES_HELD);
        let svg = "<svg/>".repeat(MAX_DRAWING_BYTES / 6 + 1);
        let message = drawing_within_limit(svg).unwrap_err().message().to_owned();
        assert!(
            message.contains("dtype-lattice graph FILE -o drawing.dot"),
            "{message}"
        );
    }

    #[test]
    fn a_capped_answer_stops_at_the_limit() {
        use std::io::Write;
        let mut capped = Capped::default();
        capped.write_all(&vec![b'x'; MAX_ANSWER_BYTES]).unwrap();
        assert!(capped.write_all(b"y").is_err());
        assert_eq!(capped.over, Some(MAX_ANSWER_BYTES + 1));
        assert_eq!(capped.bytes.len(), MAX_ANSWER_BYTES);
    }

    #[test]
    fn an_answer_of_8_mib_has_18_seconds() {
        assert_eq!(sending_time(0), WRITE_TIMEOUT);
        assert_eq!(
            sending_time(MAX_ANSWER_BYTES).as_secs(),
            WRITE_TIMEOUT.as_secs() + 8
        );
    }
}
