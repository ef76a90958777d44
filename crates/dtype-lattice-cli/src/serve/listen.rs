//! The accept loop: connections served by hyper with deadlines on every
//! read and write, a cap on how many are open, and a shutdown that ends
//! within [`SHUTDOWN_GRACE`] whatever the clients do.
//!
//! A connection is *silent* while the router is answering no request on
//! it and no answer is waiting for the client to take it: it is waiting
//! for a request's head (which must come within [`HEADER_TIMEOUT`]).
//! Silent connections are the ones a client can open for free, so they are
//! the ones that give way: past the cap, a new connection closes the one
//! that has been silent the longest, and on shutdown they close at once,
//! while requests under way get the grace period to finish.

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};
use tower_service::Service;

use super::stream::{refusal, Guarded, LINGER};
use super::weight::SendClock;
use super::{
    HEADER_TIMEOUT, MAX_CONNECTIONS, MAX_HEADERS, MAX_HEAD_BYTES, RESERVED_FILES, SHUTDOWN_GRACE,
};

/// How many refusals (503, when every connection is busy) are written at
/// once; past it, a connection over the cap is closed without a word.
const REFUSALS_AT_ONCE: usize = 16;

/// Each connection's send buffer in the kernel. Linux lets it grow to
/// 4 MiB, which would take a whole answer from the server at once: the
/// answer's deadline would never see a slow reader, and a thousand of
/// them would hold 4 GiB of the kernel's memory. Loopback moves 256 KiB
/// in well under a millisecond.
const SEND_BUFFER: usize = 256 << 10;

/// How long the accept loop rests when the process is out of file
/// descriptors, after closing a silent connection to free one.
const OUT_OF_FILES_PAUSE: Duration = Duration::from_millis(50);

/// Ctrl-C and SIGTERM, listened for from the start (a signal that comes
/// between two waits is kept, not lost).
pub struct Signals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    /// Takes over Ctrl-C and SIGTERM from their default (stopping the
    /// process at once).
    pub fn new() -> io::Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(Signals {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// Resolves at the next Ctrl-C or SIGTERM.
    async fn next(&mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// One open connection, as the accept loop and shutdown see it.
struct Connection {
    /// Requests the router is answering on it.
    busy: AtomicUsize,
    /// Whether an answer is waiting for the client to take it (its socket
    /// took part of it or nothing), set by [`Guarded`].
    sending: Arc<AtomicBool>,
    /// When it last fell silent (opened, or a request answered), as a
    /// number from [`Connections::clock`]: the smallest has been silent
    /// longest.
    silent_since: AtomicU64,
    /// Tells it to close if silent (past the cap, or on shutdown), or to
    /// finish its request and close (on shutdown).
    told: Notify,
}

impl Connection {
    /// Whether it is waiting for a request, with nothing under way.
    fn silent(&self) -> bool {
        self.busy.load(Ordering::Acquire) == 0 && !self.sending.load(Ordering::Acquire)
    }
}

/// The open connections.
struct Connections {
    open: Mutex<HashMap<u64, Arc<Connection>>>,
    /// The most open at once.
    cap: usize,
    /// Counts connections and answers, to order them.
    clock: AtomicU64,
    /// Set at Ctrl-C or SIGTERM: a connection told then finishes its
    /// request instead of going on.
    stopping: AtomicBool,
    /// Told when the last connection closes.
    emptied: Notify,
    /// Turns for writing 503s ([`REFUSALS_AT_ONCE`]).
    refusals: Semaphore,
}

impl Connections {
    fn open(&self) -> MutexGuard<'_, HashMap<u64, Arc<Connection>>> {
        // A connection's task panicking while it holds the lock leaves the
        // map as it was: still right to use.
        self.open.lock().unwrap_or_else(|err| err.into_inner())
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed)
    }

    /// Tells the connection silent longest to close, and forgets it;
    /// false if every connection is busy.
    fn close_longest_silent(open: &mut HashMap<u64, Arc<Connection>>) -> bool {
        let victim = open
            .iter()
            .filter(|(_, c)| c.silent())
            .min_by_key(|(_, c)| c.silent_since.load(Ordering::Relaxed))
            .map(|(&id, _)| id);
        match victim.and_then(|id| open.remove(&id)) {
            Some(connection) => {
                connection.told.notify_one();
                true
            }
            None => false,
        }
    }

    /// Takes `stream` in, making room past the cap, or refuses it.
    fn admit(self: &Arc<Self>, stream: TcpStream, router: &Router, http: &http1::Builder) {
        // Answers are small and wanted at once: no Nagle delay.
        let _ = stream.set_nodelay(true);
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
        let mut open = self.open();
        if open.len() >= self.cap && !Self::close_longest_silent(&mut open) {
            drop(open);
            self.refuse(stream);
            return;
        }
        let id = self.tick();
        let connection = Arc::new(Connection {
            busy: AtomicUsize::new(0),
            sending: Arc::new(AtomicBool::new(false)),
            silent_since: AtomicU64::new(id),
            told: Notify::new(),
        });
        open.insert(id, connection.clone());
        drop(open);
        let serving = serve_connection(
            self.clone(),
            id,
            connection,
            stream,
            router.clone(),
            http.clone(),
        );
        tokio::spawn(serving);
    }

    /// Answers 503 when every connection is in the middle of a request.
    fn refuse(self: &Arc<Self>, stream: TcpStream) {
        let connections = self.clone();
        tokio::spawn(async move {
            let Ok(_turn) = connections.refusals.try_acquire() else {
                return;
            };
            let answer = refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "all {} connections this server keeps are busy with requests: try again in \
                     a few seconds",
                    connections.cap
                ),
            );
            let mut stream = stream;
            let _ = tokio::time::timeout(LINGER, async {
                stream.write_all(&answer).await?;
                stream.shutdown().await?;
                // Read what the client sends until it closes, so that it
                // reads the answer instead of a reset.
                let mut sink = [0u8; 4096];
                while stream.read(&mut sink).await? > 0 {}
                Ok::<(), io::Error>(())
            })
            .await;
        });
    }

    /// Whether the server is stopping.
    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Acquire)
    }
}

/// Forgets its connection when the connection's task ends, however.
struct Registered {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut open = self.connections.open();
        open.remove(&self.id);
        if open.is_empty() {
            self.connections.emptied.notify_waiters();
        }
    }
}

/// A request the router is answering: the connection is busy until it is
/// answered (or the client goes away).
struct Busy {
    connections: Arc<Connections>,
    connection: Arc<Connection>,
}

impl Busy {
    fn new(connections: &Arc<Connections>, connection: &Arc<Connection>) -> Busy {
        connection.busy.fetch_add(1, Ordering::AcqRel);
        Busy {
            connections: connections.clone(),
            connection: connection.clone(),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let now = self.connections.tick();
        self.connection.silent_since.store(now, Ordering::Relaxed);
        self.connection.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves one connection until it closes, is closed to make room, or the
/// server stops.
async fn serve_connection(
    connections: Arc<Connections>,
    id: u64,
    connection: Arc<Connection>,
    stream: TcpStream,
    router: Router,
    http: http1::Builder,
) {
    let _registered = Registered {
        connections: connections.clone(),
        id,
    };
    let clock = Arc::new(SendClock::default());
    let service = {
        let (connections, connection) = (connections.clone(), connection.clone());
        let clock = clock.clone();
        hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let busy = Busy::new(&connections, &connection);
            // hyper reads a request only once the last answer is handed
            // over whole: its deadline is over.
            clock.clear();
            request.extensions_mut().insert(clock.clone());
            let mut router = router.clone();
            async move {
                let answer = router.call(request).await;
                drop(busy);
                answer
            }
        })
    };
    let stream = Guarded::new(stream, connection.sending.clone(), clock);
    let serving = http.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(serving);
    loop {
        tokio::select! {
            // An error here is the client's doing (it went away, sent what
            // is not HTTP, or was too slow), and hyper has answered it if it
            // could: nothing to report.
            _ = serving.as_mut() => return,
            () = connection.told.notified() => {
                if connection.silent() {
                    return;
                }
                if connections.stopping() {
                    // The answer under way is sent, then the connection
                    // closes; the accept loop stops waiting after the grace.
                    serving.as_mut().graceful_shutdown();
                    let _ = serving.as_mut().await;
                    return;
                }
                // Told to make room just as a request came: it goes on, and
                // counts again.
                connections.open().insert(id, connection.clone());
            }
        }
    }
}

/// The most connections open at once: [`MAX_CONNECTIONS`], or fewer when
/// the open-file limit is lower, so that the server never runs out of
/// descriptors for the connections it keeps.
fn connection_cap() -> (usize, Option<usize>) {
    let files = open_file_limit();
    let cap = files.map_or(MAX_CONNECTIONS, |files| {
        files
            .saturating_sub(RESERVED_FILES)
            .clamp(8, MAX_CONNECTIONS)
    });
    (cap, files)
}

/// The process's open-file limit (its soft limit), if the system says.
#[cfg(unix)]
fn open_file_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the limit into the struct it is given,
    // which lives through the call.
    let status = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    (status == 0).then(|| usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<usize> {
    None
}

/// Whether an accept failed for want of descriptors or memory: the
/// connection waits in the kernel's queue until one is freed.
fn out_of_resources(err: &io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(
            err.raw_os_error(),
            Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = err;
        false
    }
}

/// Serves `router` on `listener` until Ctrl-C or SIGTERM, then stops
/// within [`SHUTDOWN_GRACE`] (at once at a second signal).
pub async fn serve(listener: TcpListener, router: Router, mut signals: Signals) {
    let (cap, files) = connection_cap();
    if cap < MAX_CONNECTIONS {
        let _ = writeln!(
            io::stderr(),
            "note: at most {cap} connections at once (the open-file limit is {}; raise it with \
             ulimit -n for more)",
            files.unwrap_or(0)
        );
    }
    let connections = Arc::new(Connections {
        open: Mutex::new(HashMap::new()),
        cap,
        clock: AtomicU64::new(0),
        stopping: AtomicBool::new(false),
        emptied: Notify::new(),
        refusals: Semaphore::new(REFUSALS_AT_ONCE),
    });
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS)
        // One buffer per write: [`Guarded`] recognises hyper's own answers
        // whole.
        .writev(false);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => connections.admit(stream, &router, &http),
                Err(err) if out_of_resources(&err) => {
                    Connections::close_longest_silent(&mut connections.open());
                    tokio::time::sleep(OUT_OF_FILES_PAUSE).await;
                }
                // The client gave up before it was accepted.
                Err(_) => {}
            },
            () = signals.next() => break,
        }
    }
    drop(listener);
    stop(&connections, &mut signals).await;
}

/// Closes the silent connections, lets the busy ones finish for up to
/// [`SHUTDOWN_GRACE`] or until the next signal, and says how it went.
async fn stop(connections: &Connections, signals: &mut Signals) {
    let _ = writeln!(
        io::stderr(),
        "stopping: finishing the requests under way (at most {} s; Ctrl-C again stops at once)",
        SHUTDOWN_GRACE.as_secs()
    );
    connections.stopping.store(true, Ordering::Release);
    let emptied = connections.emptied.notified();
    tokio::pin!(emptied);
    emptied.as_mut().enable();
    {
        let open = connections.open();
        if open.is_empty() {
            return;
        }
        for connection in open.values() {
            connection.told.notify_one();
        }
    }
    let busy = || connections.open().len();
    tokio::select! {
        () = emptied => {}
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            let _ = writeln!(
                io::stderr(),
                "stopped: {} of the requests under way did not finish within {} s",
                busy(),
                SHUTDOWN_GRACE.as_secs()
            );
        }
        () = signals.next() => {
            let _ = writeln!(io::stderr(), "stopped at once: {} requests cut off", busy());
        }
    }
}
