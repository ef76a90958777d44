//! `serve`: the explorer, a page and a JSON API over the library, on
//! loopback by default.
//!
//! The server holds no rules of its own: every answer is a library call,
//! the same the command line and the Python package make, rendered by the
//! same code as the command line's JSON ([`api`]). The page (HTML, CSS and
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

mod answers;
pub(crate) mod assets;
mod cache;
mod editor;
mod error;
mod handlers;
mod params;

pub(crate) use answers::{diff_text, explain_rows, graph_key, graph_svg, info_json, table_json};
pub(crate) use error::ApiError;
pub(crate) use params::policy;

use std::io::{self, Write};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::serve::ListenerExt;
use axum::Router;
use tokio::sync::Semaphore;

use crate::Failure;

/// The Content-Security-Policy of every response: the page's own script,
/// style and data only, images also as `data:` URLs, and no framing.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

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
    pub heavy: Semaphore,
    /// The port requests must be addressed to when the server listens on
    /// loopback; `None` when it listens elsewhere (then the user chose to
    /// be reached by other names).
    pub loopback_port: Option<u16>,
}

/// The explorer's routes, with its headers and guards.
pub fn router(shared: Arc<Shared>) -> Router {
    let lattice_limit = DefaultBodyLimit::max(MAX_LATTICE_BODY);
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
        .route(
            "/api/batch",
            post(handlers::batch).layer(DefaultBodyLimit::max(MAX_BATCH_BODY)),
        )
        .route("/api/lattice", post(handlers::lattice).layer(lattice_limit))
        .route(
            "/api/lattice/graph.svg",
            post(handlers::lattice_graph).layer(lattice_limit),
        )
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

/// Refuses requests addressed to a name other than loopback's (when
/// listening on loopback) or sent by another origin's page, then adds the
/// security headers to whatever answers.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let refusal = if let Some(port) = shared.loopback_port {
        refuse_host(request.headers(), port)
    } else {
        None
    }
    .or_else(|| refuse_origin(request.headers()));
    let mut response = match refusal {
        Some(refusal) => refusal.into_response(),
        None => next.run(request).await,
    };
    let headers = response.headers_mut();
    let fixed = [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
        (
            header::HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("same-origin"),
        ),
    ];
    for (name, value) in fixed {
        headers.insert(name, value);
    }
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The names loopback answers to.
fn is_loopback_name(host: &str) -> bool {
    matches!(host, "localhost" | "127.0.0.1" | "[::1]") || host.ends_with(".localhost")
}

/// A request whose `Host` is not loopback's name and port: what a page
/// that rebinds its own domain to 127.0.0.1 would send.
fn refuse_host(headers: &HeaderMap, port: u16) -> Option<ApiError> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
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
                "this server answers requests addressed to 127.0.0.1:{port} or localhost:{port} \
                 only (Host was {})",
                host.map_or("missing".to_owned(), |h| format!("'{}'", h.escape_debug()))
            ),
        )
    })
}

/// A request a page of another origin sent (browsers name the page's
/// origin in `Origin`): the explorer's own page is the only one that may
/// use the API from a browser.
fn refuse_origin(headers: &HeaderMap) -> Option<ApiError> {
    let origin = headers.get(header::ORIGIN)?.to_str().unwrap_or("");
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
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
/// listening; in-flight requests are finished before it returns.
pub fn run(options: &Options, out: &mut dyn Write) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|err| Failure::Usage(format!("cannot start the server: {err}")))?;
    runtime.block_on(serve(options, out))
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
    let url = page_url(address);
    writeln!(out, "serving the explorer at {url} (Ctrl-C stops)")?;
    out.flush()?;
    if options.open {
        open_browser(&url);
    }
    let shared = Arc::new(Shared {
        heavy: Semaphore::new(HEAVY_AT_ONCE),
        loopback_port: loopback.then_some(address.port()),
    });
    // Answers are small and wanted at once: no Nagle delay.
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
    axum::serve(listener, router(shared))
        .with_graceful_shutdown(shutdown())
        .await?;
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

/// Resolves at Ctrl-C or SIGTERM.
async fn shutdown() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    let _ = writeln!(io::stderr(), "stopping: finishing the requests under way");
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
        ] {
            assert!(
                refuse_host(&headers(&[("host", host)]), 8000).is_none(),
                "{host}"
            );
        }
        for host in ["evil.example:8000", "127.0.0.1:8001", "127.0.0.1", "[::1]"] {
            assert!(
                refuse_host(&headers(&[("host", host)]), 8000).is_some(),
                "{host}"
            );
        }
        assert!(refuse_host(&headers(&[]), 8000).is_some());
    }

    #[test]
    fn only_the_pages_own_origin_may_call() {
        let own = headers(&[
            ("host", "127.0.0.1:8000"),
            ("origin", "http://127.0.0.1:8000"),
        ]);
        assert!(refuse_origin(&own).is_none());
        let other = headers(&[
            ("host", "127.0.0.1:8000"),
            ("origin", "https://evil.example"),
        ]);
        assert!(refuse_origin(&other).is_some());
        assert!(refuse_origin(&headers(&[("host", "127.0.0.1:8000")])).is_none());
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
