//! `serve`: the explorer, a page and a JSON API over the library, on
//! loopback by default.
//!
//! The server holds no rules of its own: every answer is a library call,
//! the same the command line and the Python package make, rendered by the
//! same code as the command line's JSON ([`answers`]). The page (HTML, CSS and
//! vanilla JavaScript, [`assets`]) and the design notebook's lattice files
//! are compiled into the binary, so no request reaches the server's files.
//!
//! Every response carries a strict Content-Security-Policy (no inline
//! script or style, nothing from elsewhere). Request bodies are bounded
//! (the batch protocol's line limit for `/api/batch`, the lattice-file
//! limit for posted lattices) and refused past the bound with 413; a
//! posted lattice obeys the lattice-file limits, so one analysis costs at
//! most about 2 seconds, and at most [`HEAVY_AT_ONCE`] run at a time.
//! Bound to loopback, the server answers only requests addressed to a
//! loopback name (a web page cannot reach it by rebinding its own domain
//! to 127.0.0.1), and refuses requests sent from another origin's page.
//!
//! No client can hold the server ([`listen`]): a request's head, its body
//! and an answer's delivery each have a deadline, connections are capped
//! (a new one closes the longest-silent one past the cap), and Ctrl-C
//! stops it within [`SHUTDOWN_GRACE`]. Answers are bounded as requests
//! are ([`weight`]): one weighs at most [`MAX_ANSWER_BYTES`], all those
//! held until read at most [`ANSWER_BYTES_HELD`], and each must be read at
//! [`MIN_READ_RATE`]. DESIGN.md says why the accept loop and the socket's
//! wrapper are written here rather than taken from axum or hyper-util.
//!
//! # Files
//!
//! `mod.rs` holds the routes and guards; `listen.rs` the accept loop and
//! `stream.rs` a connection's socket; `handlers.rs` the API's handlers,
//! `params.rs` their query parameters and `body.rs` posted bodies;
//! `answers.rs` the answers of the GET endpoints, `editor.rs` the lattice
//! editor's, `cache.rs` the answers kept and the work kept off the
//! connections, `weight.rs` what answers may weigh and how fast they must
//! be read, `error.rs` the API's errors; `assets.rs` the page compiled
//! in, from `web/`.

mod answers;
pub(crate) mod assets;
mod body;
mod cache;
mod editor;
mod error;
mod handlers;
mod listen;
mod memory;
mod params;
mod stream;
mod weight;

pub(crate) use answers::{explain_rows, graph_key, graph_svg, info_json, table_json};
pub(crate) use error::ApiError;
pub(crate) use params::policy;

use std::io::{self, Write};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;

use crate::Failure;

/// The Content-Security-Policy of every response: the page's own script,
/// style and data only, images also as `data:` URLs, and no framing.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// The headers every response carries, besides `Cache-Control: no-store`
/// when the answer sets no caching of its own.
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-resource-policy", "same-origin"),
];

/// The largest body `/api/batch` takes: one request line's limit
/// ([`dtype_lattice::protocol::MAX_LINE_BYTES`], 1 MiB).
pub const MAX_BATCH_BODY: usize = dtype_lattice::protocol::MAX_LINE_BYTES;

/// The largest lattice a request may post: a lattice file's limit (8 MiB).
pub const MAX_LATTICE_BODY: usize = dtype_lattice::design::limits::MAX_BYTES;

/// How many lattice analyses (up to about 2 seconds each) run at once; the
/// rest wait their turn, up to [`HEAVY_WAIT`].
pub const HEAVY_AT_ONCE: usize = 2;

/// How long a lattice analysis waits for its turn before the server says
/// it is busy (503).
pub const HEAVY_WAIT: Duration = Duration::from_secs(10);

/// How long a client has to send a request's head (request line and
/// headers), from when the connection opens or its previous answer is
/// sent: a connection that has not sent a whole head by then is closed
/// without an answer, an idle kept-alive one included.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request's body may take to arrive, from when the handler
/// starts reading it (after its upload turn): 408 past it. 8 MiB in 10
/// seconds is 6.7 Mbit/s, far below loopback's speed.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long an answer may wait for the client to read any of it before
/// the connection is closed.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest request head (request line and headers) read, and so the
/// most a connection buffers before its request is parsed: 431 past it.
pub const MAX_HEAD_BYTES: usize = 64 << 10;

/// The most headers a request may have: 431 past it.
pub const MAX_HEADERS: usize = 100;

/// The longest request target (path and query) answered: 414 past it.
/// The API's longest query is a few hundred bytes.
pub const MAX_URI_BYTES: usize = 8 << 10;

/// The most connections open at once, whatever the open-file limit
/// allows; the cap in force is the smaller of this and the open-file limit
/// less [`RESERVED_FILES`]. Past the cap, a new connection closes the one
/// that has been waiting longest for a request; when every connection is
/// in the middle of a request, it is answered 503.
pub const MAX_CONNECTIONS: usize = 1024;

/// Open files kept for the server itself (standard streams, the listener,
/// the runtime's and the signals' descriptors, a refused connection)
/// when the cap on connections is sized from the open-file limit.
pub const RESERVED_FILES: usize = 32;

/// A body larger than this waits for one of [`UPLOADS_AT_ONCE`] turns
/// before it is read, and keeps it until its answer is computed.
pub const SMALL_BODY: usize = 64 << 10;

/// How many large bodies may be in memory at once (at most 32 MiB of
/// lattices); the rest wait their turn, up to [`HEAVY_WAIT`], then 503.
pub const UPLOADS_AT_ONCE: usize = 4;

/// The most one answer may weigh (a drawing, a batch's answers, a posted
/// lattice's analysis): past it, the server answers 422 saying how to get
/// it otherwise (a drawing: `dtype-lattice graph FILE -o FILE.dot`).
/// Answers are held in memory until read, so they are bounded as requests
/// are; the posted lattices' limits allow a drawing of 47 MB.
pub const MAX_ANSWER_BYTES: usize = 8 << 20;

/// The most bytes of answers held for all clients together, until each
/// has read its own: past it, an answer is refused with 503 and
/// `Retry-After` (every answer counts, a cached one too, so the bound is
/// simple to state).
pub const ANSWER_BYTES_HELD: usize = 64 << 20;

/// The slowest an answer may be read, in bytes per second on average:
/// an answer of N bytes has [`WRITE_TIMEOUT`] plus N / this to be read
/// (18 s for 8 MiB), then its connection is closed. Loopback reads at
/// gigabytes a second; this frees the share of [`ANSWER_BYTES_HELD`] a
/// slow reader holds.
pub const MIN_READ_RATE: usize = 1 << 20;

/// What a 503 tells the client to wait before trying again.
pub const RETRY_AFTER: Duration = Duration::from_secs(5);

/// How long the requests under way may take to finish once Ctrl-C or
/// SIGTERM asks the server to stop; a second Ctrl-C stops it at once.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// What `serve` was asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to listen on: an IP address or a host name.
    pub host: String,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Whether to open the page in a browser once listening.
    pub open: bool,
}

/// What every handler shares.
pub struct Shared {
    /// Turns for the lattice analyses.
    pub heavy: Arc<Semaphore>,
    /// Turns for holding a large body in memory.
    pub uploads: Arc<Semaphore>,
    /// The bytes of answers that may still be held, one permit a byte
    /// ([`ANSWER_BYTES_HELD`] in all).
    pub answers: Arc<Semaphore>,
    /// The port requests must be addressed to when the server listens on
    /// loopback; `None` when it listens elsewhere (then the user chose to
    /// be reached by other names).
    pub loopback_port: Option<u16>,
}

/// The explorer's routes, with its headers and guards.
pub fn router(shared: Arc<Shared>) -> Router {
    let mut router = Router::new().route("/", get(assets::index));
    for file in assets::FILES {
        router = router.route(
            &format!("/{}", file.path),
            get(move || async move { file.response() }),
        );
    }
    router
        .route("/api/info", get(handlers::info))
        .route("/api/table", get(handlers::table))
        .route("/api/diff", get(handlers::diff))
        .route("/api/explain", get(handlers::explain))
        .route("/api/graph.svg", get(handlers::graph))
        .route("/api/batch", post(handlers::batch))
        .route("/api/lattice", post(handlers::lattice))
        .route("/api/lattice/graph.svg", post(handlers::lattice_graph))
        .route("/api/examples", get(handlers::examples))
        .route("/api/examples/{name}", get(handlers::example))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(shared.clone(), guard))
        .with_state(shared)
}

async fn not_found() -> Response {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page or endpoint: the explorer is at / and its API under /api (see docs/cli.md)",
    )
    .into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint does not take that method: /api/batch and /api/lattice take POST, \
         the rest GET",
    )
    .into_response()
}

/// Refuses requests that name no host or two, addressed to a name other
/// than loopback's (when listening on loopback), sent by another origin's
/// page or for an address past [`MAX_URI_BYTES`]; holds the answer within
/// the answers' bounds ([`weight::hold`]), then adds the security headers
/// to whatever answers.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let refusal = refuse_unclear_host(&request).or_else(|| {
        let host = addressed_to(&request);
        shared
            .loopback_port
            .and_then(|port| refuse_host(host, port))
            .or_else(|| refuse_origin(request.headers(), host))
            .or_else(|| refuse_long_uri(&request))
    });
    let mut response = match refusal {
        Some(refusal) => refusal.into_response(),
        None => {
            let clock = request
                .extensions()
                .get::<Arc<weight::SendClock>>()
                .cloned();
            weight::hold(&shared, clock, next.run(request).await).await
        }
    };
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(
            header::HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The names loopback answers to: `localhost` and its subdomains, and any
/// loopback address written out (127.0.0.0/8, `[::1]`), which no DNS
/// answer can make point elsewhere.
fn is_loopback_name(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    let address = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => v6.parse().map(IpAddr::V6),
        None => host.parse().map(IpAddr::V4),
    };
    address.is_ok_and(|ip| ip.is_loopback())
}

/// A request that does not say once which host it is for: RFC 9112
/// (section 3.2) answers 400 to two `Host` headers, and to an HTTP/1.1
/// request without one, since the guards below could read either name.
fn refuse_unclear_host(request: &Request) -> Option<ApiError> {
    let hosts = request.headers().get_all(header::HOST).iter().count();
    let missing = hosts == 0 && request.version() == axum::http::Version::HTTP_11;
    (hosts > 1 || missing).then(|| {
        ApiError::bad(format!(
            "the request has {} Host headers: send exactly one, naming the server \
             (such as Host: 127.0.0.1:8000)",
            if hosts == 0 {
                "no".to_owned()
            } else {
                hosts.to_string()
            }
        ))
    })
}

/// The host a request is addressed to: the authority of an absolute-form
/// target (`GET http://host/path`), which RFC 9112 (section 3.2.2) says
/// replaces `Host`, else `Host`.
fn addressed_to(request: &Request) -> Option<&str> {
    match request.uri().authority() {
        Some(authority) => Some(authority.as_str()),
        None => request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok()),
    }
}

/// A request addressed to a host that is not loopback's name and port:
/// what a page that rebinds its own domain to 127.0.0.1 would send.
fn refuse_host(host: Option<&str>, port: u16) -> Option<ApiError> {
    let allowed = host.is_some_and(|host| {
        let (name, given_port) = match host.rsplit_once(':') {
            Some((name, port)) if !name.ends_with(']') || host.starts_with('[') => {
                (name, port.parse::<u16>().ok())
            }
            _ => (host, Some(80)),
        };
        is_loopback_name(&name.to_ascii_lowercase()) && given_port == Some(port)
    });
    (!allowed).then(|| {
        ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server answers requests addressed to a loopback name and its port only, \
                 such as 127.0.0.1:{port} or localhost:{port} (the request was addressed to {})",
                host.map_or("no host".to_owned(), |h| format!("'{}'", h.escape_debug()))
            ),
        )
    })
}

/// A request for an address longer than the API's longest by far.
fn refuse_long_uri(request: &Request) -> Option<ApiError> {
    let length = request
        .uri()
        .path_and_query()
        .map_or(0, |target| target.as_str().len());
    (length > MAX_URI_BYTES).then(|| {
        ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the address is {length} bytes long, past the {} KiB this server reads: \
                 shorten the query",
                MAX_URI_BYTES >> 10
            ),
        )
    })
}

/// A request a page of another origin sent (browsers name the page's
/// origin in `Origin`): the explorer's own page is the only one that may
/// use the API from a browser.
fn refuse_origin(headers: &HeaderMap, host: Option<&str>) -> Option<ApiError> {
    let origin = headers.get(header::ORIGIN)?.to_str().unwrap_or("");
    let host = host.unwrap_or("");
    let same = origin
        .strip_prefix("http://")
        .is_some_and(|rest| rest.eq_ignore_ascii_case(host));
    (!same).then(|| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "requests from other sites' pages are refused (Origin '{}')",
                origin.escape_debug()
            ),
        )
    })
}

/// Serves until Ctrl-C (or SIGTERM), printing the address to `out` once
/// listening; the requests under way get [`SHUTDOWN_GRACE`] to finish.
pub fn run(options: &Options, out: &mut dyn Write) -> Result<(), Failure> {
    memory::give_back_large_blocks();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|err| Failure::Usage(format!("cannot start the server: {err}")))?;
    let served = runtime.block_on(serve(options, out));
    // An analysis cut off by the stop may still be running on the blocking
    // pool: its answer is no longer wanted, so it is not waited for.
    runtime.shutdown_background();
    served
}

async fn serve(options: &Options, out: &mut dyn Write) -> Result<(), Failure> {
    let listener = tokio::net::TcpListener::bind((options.host.as_str(), options.port))
        .await
        .map_err(|err| {
            Failure::Usage(format!(
                "cannot listen on {}:{}: {err}{}",
                options.host.escape_debug(),
                options.port,
                if err.kind() == io::ErrorKind::AddrInUse {
                    " (choose another --port, or --port 0 for a free one)"
                } else {
                    ""
                }
            ))
        })?;
    let address = listener.local_addr()?;
    let loopback = address.ip().is_loopback();
    if !loopback {
        let _ = writeln!(
            io::stderr(),
            "warning: listening on {address}, which other machines may reach; the explorer \
             is meant for loopback (--host 127.0.0.1)"
        );
    }
    // Before the address is printed: from then on a signal stops the
    // server in order rather than killing it.
    let signals = listen::Signals::new()
        .map_err(|err| Failure::Usage(format!("cannot listen for Ctrl-C: {err}")))?;
    let url = page_url(address);
    writeln!(out, "serving the explorer at {url} (Ctrl-C stops)")?;
    out.flush()?;
    if options.open {
        open_browser(&url);
    }
    let shared = Arc::new(Shared {
        heavy: Arc::new(Semaphore::new(HEAVY_AT_ONCE)),
        uploads: Arc::new(Semaphore::new(UPLOADS_AT_ONCE)),
        answers: Arc::new(Semaphore::new(ANSWER_BYTES_HELD)),
        loopback_port: loopback.then_some(address.port()),
    });
    listen::serve(listener, router(shared), signals).await;
    Ok(())
}

/// The page's address; an unspecified address (0.0.0.0) is reached at
/// loopback.
fn page_url(address: SocketAddr) -> String {
    let ip = address.ip();
    let shown = if ip.is_unspecified() {
        "127.0.0.1".to_owned()
    } else if ip.is_ipv6() {
        format!("[{ip}]")
    } else {
        ip.to_string()
    };
    format!("http://{shown}:{}/", address.port())
}

/// Starts the system's browser on `url`; a failure is reported, not fatal.
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let started = std::process::Command::new(command.0)
        .args(&command.1)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(err) = started {
        let _ = writeln!(
            io::stderr(),
            "note: cannot start a browser ({} {url}: {err}); open the address yourself",
            command.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for &(name, value) in pairs {
            map.insert(
                header::HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        map
    }

    #[test]
    fn only_loopback_names_on_the_right_port_are_answered() {
        for host in [
            "127.0.0.1:8000",
            "localhost:8000",
            "[::1]:8000",
            "LOCALHOST:8000",
            "127.0.0.2:8000",
            "127.0.1.1:8000",
            "127.255.255.254:8000",
            "app.localhost:8000",
        ] {
            assert!(refuse_host(Some(host), 8000).is_none(), "{host}");
        }
        for host in [
            "evil.example:8000",
            "127.0.0.1:8001",
            "127.0.0.1",
            "[::1]",
            "128.0.0.1:8000",
            "127.0.0.1.evil.example:8000",
            "localhost.evil.example:8000",
            "[::2]:8000",
            "::1:8000",
            "127.1:8000",
        ] {
            assert!(refuse_host(Some(host), 8000).is_some(), "{host}");
        }
        assert!(refuse_host(None, 8000).is_some());
    }

    #[test]
    fn only_the_pages_own_origin_may_call() {
        let own = headers(&[
            ("host", "127.0.0.1:8000"),
            ("origin", "http://127.0.0.1:8000"),
        ]);
        assert!(refuse_origin(&own, Some("127.0.0.1:8000")).is_none());
        let other = headers(&[
            ("host", "127.0.0.1:8000"),
            ("origin", "https://evil.example"),
        ]);
        assert!(refuse_origin(&other, Some("127.0.0.1:8000")).is_some());
        let no_origin = headers(&[("host", "127.0.0.1:8000")]);
        assert!(refuse_origin(&no_origin, Some("127.0.0.1:8000")).is_none());
    }

    #[test]
    fn the_page_is_reached_at_loopback() {
        assert_eq!(
            page_url("0.0.0.0:8000".parse().unwrap()),
            "http://127.0.0.1:8000/"
        );
        assert_eq!(page_url("[::1]:80".parse().unwrap()), "http://[::1]:80/");
    }
}
