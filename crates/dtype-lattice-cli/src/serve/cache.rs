//! Work kept off the connections: answers that depend only on a policy
//! and a few choices are computed once and kept; computations run on
//! threads that may block; heavy analyses wait for one of a few places.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::body::Bytes;
use axum::http::StatusCode;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;
use super::{Shared, HEAVY_WAIT};

/// Answers that depend only on a policy (its name, settings included) and
/// a few choices, kept once computed: a table or a diff costs a
/// millisecond of allocation, which fifty clients at once would turn into
/// queueing. The keys are names the registry knows and the choices are
/// few, so the cache is bounded by what exists (about a hundred promotion
/// answers, some thousands with the operations' tables and diffs);
/// [`CACHED_ANSWERS`] and [`CACHED_BYTES`] cap it all the same.
static ANSWERS: OnceLock<Mutex<Kept>> = OnceLock::new();

/// The answers kept, and their size in all.
#[derive(Default)]
struct Kept {
    answers: HashMap<String, Bytes>,
    bytes: usize,
}

/// The most answers kept; past it, answers are computed each time.
pub const CACHED_ANSWERS: usize = 1024;

/// The most bytes of answers kept (a table of all 35 types is about
/// 230 KB); past it, answers are computed each time.
pub const CACHED_BYTES: usize = 64 << 20;

fn cached(key: &str) -> Option<Bytes> {
    let kept = ANSWERS.get_or_init(Mutex::default);
    kept.lock().ok()?.answers.get(key).cloned()
}

fn keep(key: String, answer: &Bytes) {
    let kept = ANSWERS.get_or_init(Mutex::default);
    if let Ok(mut kept) = kept.lock() {
        let fits = kept.answers.len() < CACHED_ANSWERS
            && kept.bytes + answer.len() <= CACHED_BYTES
            && !kept.answers.contains_key(&key);
        if fits {
            kept.bytes += answer.len();
            kept.answers.insert(key, answer.clone());
        }
    }
}

/// The cached answer under `key`, or `compute`'s, computed off the async
/// threads and kept.
pub(super) async fn answer_once(
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

/// Runs `work` off the async threads, as one of the few heavy analyses
/// allowed at once; 503 if none finishes in time for it to start.
pub(super) async fn heavy<T: Send + 'static>(
    shared: &Shared,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let permit = turn(&shared.heavy, "analysing other lattices").await?;
    let answer = blocking(work).await;
    drop(permit);
    answer
}

/// Runs `work` on a thread that may block, so that no computation holds
/// up the connections.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|err| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the computation failed: {err}"),
        )
    })
}

/// One of `turns`, waited for up to [`HEAVY_WAIT`]; past it, 503 saying
/// what the server is `busy` with.
pub(super) async fn turn(
    turns: &Arc<Semaphore>,
    busy: &str,
) -> Result<OwnedSemaphorePermit, ApiError> {
    tokio::time::timeout(HEAVY_WAIT, turns.clone().acquire_owned())
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server is busy {busy}: try again in a few seconds"),
            )
        })
}
