//! A connection's socket as hyper sees it: writes that make no progress
//! end the connection after [`WRITE_TIMEOUT`], as do writes past the
//! answer's own deadline ([`SendClock`]), hyper's own answers to requests
//! it cannot parse are replaced by the explorer's (JSON, with the security
//! headers), and a closing connection reads what the client is still
//! sending for a moment, so that the client reads the answer instead of a
//! reset.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

use super::error::ApiError;
use super::weight::SendClock;
use super::{
    MAX_HEADERS, MAX_HEAD_BYTES, MAX_LATTICE_BODY, RETRY_AFTER, SECURITY_HEADERS, WRITE_TIMEOUT,
};

/// How long a closing connection goes on reading (and discarding) what
/// the client still sends after the answer. Closing a socket with unread
/// bytes makes the kernel reset the connection, and a client still
/// sending (a body refused with 413, a head refused with 431) would lose
/// the answer with it.
pub const LINGER: Duration = Duration::from_secs(2);

/// A socket with a deadline on writes, the explorer's answer in place of
/// hyper's bare ones, and a lingering close.
pub struct Guarded<S> {
    inner: S,
    /// Armed while a write waits for the client to read.
    stalled: Option<Pin<Box<Sleep>>>,
    /// The answer that replaces hyper's, and how much of it is written.
    replacement: Option<(Vec<u8>, usize)>,
    /// Armed once the connection is closing and reads what is left.
    lingering: Option<Pin<Box<Sleep>>>,
    /// Set while the socket has not taken all it was given: an answer is
    /// on its way, and a stop lets it finish.
    sending: Arc<AtomicBool>,
    /// When the answer being sent must have been read.
    clock: Arc<SendClock>,
    /// Looks for a declared body length hyper cannot represent.
    lengths: LengthScan,
}

impl<S> Guarded<S> {
    pub fn new(inner: S, sending: Arc<AtomicBool>, clock: Arc<SendClock>) -> Guarded<S> {
        Guarded {
            inner,
            stalled: None,
            replacement: None,
            lingering: None,
            sending,
            clock,
            lengths: LengthScan::default(),
        }
    }
}

/// Polls a write of `buf` to `inner`, failing once no byte could be
/// written for [`WRITE_TIMEOUT`], or at `deadline`: a client that asks and
/// never reads, or reads a byte now and then, must not hold its
/// connection.
fn write_in_time<S: AsyncWrite + Unpin>(
    inner: &mut S,
    stalled: &mut Option<Pin<Box<Sleep>>>,
    deadline: Option<Instant>,
    cx: &mut Context<'_>,
    buf: &[u8],
) -> Poll<io::Result<usize>> {
    let now = Instant::now();
    if deadline.is_some_and(|deadline| now >= deadline) {
        return Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client read the answer slower than the server sends it",
        )));
    }
    if let Poll::Ready(result) = Pin::new(inner).poll_write(cx, buf) {
        *stalled = None;
        return Poll::Ready(result);
    }
    let limit = deadline.map_or(now + WRITE_TIMEOUT, |d| d.min(now + WRITE_TIMEOUT));
    let timer = stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(limit)));
    ready!(timer.as_mut().poll(cx));
    Poll::Ready(Err(io::Error::new(
        io::ErrorKind::TimedOut,
        "the client read nothing of the answer in time",
    )))
}

impl<S: AsyncRead + AsyncWrite + Unpin> Guarded<S> {
    /// Writes what is left of the replacement answer.
    fn poll_replacement(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((answer, written)) = &mut self.replacement {
            if *written == answer.len() {
                break;
            }
            let more = ready!(write_in_time(
                &mut self.inner,
                &mut self.stalled,
                None,
                cx,
                &answer[*written..]
            ))?;
            if more == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += more;
        }
        Poll::Ready(Ok(()))
    }

    /// Reads and drops what the client sends until it closes or
    /// [`LINGER`] has passed.
    fn poll_linger(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let timer = self
            .lingering
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(LINGER)));
        if timer.as_mut().poll(cx).is_ready() {
            return Poll::Ready(());
        }
        let mut scratch = [0u8; 8192];
        loop {
            let mut buf = ReadBuf::new(&mut scratch);
            match Pin::new(&mut self.inner).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) if !buf.filled().is_empty() => continue,
                Poll::Ready(_) => return Poll::Ready(()),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        ready!(Pin::new(&mut self.inner).poll_read(cx, buf))?;
        let this = &mut *self;
        this.lengths.feed(&buf.filled()[before..]);
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.replacement.is_some() {
            // hyper writes nothing after its answer to a request it could
            // not parse; should it, the bytes would follow an answer that
            // closes the connection, where no client reads them.
            return Poll::Ready(Ok(buf.len()));
        }
        if let Some(status) = hyper_refusal(buf) {
            let answer = if self.lengths.huge {
                refusal(StatusCode::PAYLOAD_TOO_LARGE, &huge_length_message())
            } else {
                refusal(status, &parse_error_message(status))
            };
            self.replacement = Some((answer, 0));
            return Poll::Ready(Ok(buf.len()));
        }
        let this = &mut *self;
        // A write is an answer: the lengths declared before it are its
        // request's, read and accepted by hyper.
        this.lengths.huge = false;
        let deadline = this.clock.deadline();
        let written = write_in_time(&mut this.inner, &mut this.stalled, deadline, cx, buf);
        let whole = matches!(written, Poll::Ready(Ok(n)) if n == buf.len());
        this.sending.store(!whole, Ordering::Release);
        written
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_replacement(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.lingering.is_none() {
            ready!(self.poll_replacement(cx))?;
            ready!(Pin::new(&mut self.inner).poll_shutdown(cx))?;
        }
        self.poll_linger(cx).map(Ok)
    }
}

/// The status of the answer hyper writes by itself when it cannot parse a
/// request (400, 414 or 431), if `buf` is one: a bare head (no body, no
/// Content-Security-Policy, which every answer of the router carries).
/// hyper writes it alone, as the last bytes of the connection; it flattens
/// writes into one buffer ([`Guarded`] does not take vectored writes), so
/// the head comes in one piece. (Behind a pipelined answer that is not yet
/// sent it would share that answer's buffer and go out as hyper wrote it;
/// browsers do not pipeline.)
fn hyper_refusal(buf: &[u8]) -> Option<StatusCode> {
    let status = match buf.get(..13)? {
        b"HTTP/1.1 400 " => StatusCode::BAD_REQUEST,
        b"HTTP/1.1 414 " => StatusCode::URI_TOO_LONG,
        b"HTTP/1.1 431 " => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        _ => return None,
    };
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&buf[..end]).ok()?.to_ascii_lowercase();
    let bare = end + 4 == buf.len()
        && head.contains("\r\ncontent-length: 0")
        && !head.contains("\r\ncontent-security-policy:");
    bare.then_some(status)
}

/// Reads the request lines as they come for a `Content-Length` whose
/// value is a number hyper cannot hold (past `u64::MAX - 2`): hyper
/// refuses it as a head too large (431) or a malformed one (400), where
/// the client should hear what it is, a body too large (413). Only the
/// start of each line is kept, so the scan costs no memory.
struct LengthScan {
    /// The current line's first bytes.
    line: [u8; LengthScan::KEPT],
    /// How many bytes of the current line came (past `KEPT`, counted only).
    length: usize,
    /// Whether a line since the last answer declared such a length.
    huge: bool,
}

impl Default for LengthScan {
    fn default() -> LengthScan {
        LengthScan {
            line: [0; LengthScan::KEPT],
            length: 0,
            huge: false,
        }
    }
}

impl LengthScan {
    /// Enough for the header's name and a number a hundred digits long.
    const KEPT: usize = 128;

    fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let end = bytes.iter().position(|&b| b == b'\n');
            let part = &bytes[..end.unwrap_or(bytes.len())];
            let kept = part.len().min(Self::KEPT.saturating_sub(self.length));
            self.line[self.length.min(Self::KEPT)..][..kept].copy_from_slice(&part[..kept]);
            self.length = self.length.saturating_add(part.len());
            let Some(end) = end else { return };
            self.huge |= self.declares_huge_length();
            self.length = 0;
            bytes = &bytes[end + 1..];
        }
    }

    fn declares_huge_length(&self) -> bool {
        let line = &self.line[..self.length.min(Self::KEPT)];
        let name = b"content-length:";
        if line.len() < name.len() || !line[..name.len()].eq_ignore_ascii_case(name) {
            return false;
        }
        let value = line[name.len()..].trim_ascii();
        if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
            return false;
        }
        let cut = self.length > Self::KEPT;
        cut || std::str::from_utf8(value)
            .ok()
            .and_then(|digits| digits.parse::<u64>().ok())
            .is_none_or(|length| length > u64::MAX - 2)
    }
}

/// What a declared length past any number hyper holds is told.
fn huge_length_message() -> String {
    format!(
        "the request body is larger than this endpoint takes (its Content-Length is past \
         any size this server reads; at most 1 MiB for /api/batch, {} MiB for a lattice): \
         split the batch or shorten the lattice",
        MAX_LATTICE_BODY >> 20
    )
}

/// What the explorer says where hyper would answer `status` bare.
fn parse_error_message(status: StatusCode) -> String {
    match status {
        StatusCode::URI_TOO_LONG => format!(
            "the request's address is too long to read: the request line and headers take \
             at most {} KiB, so shorten the query",
            MAX_HEAD_BYTES >> 10
        ),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => format!(
            "the request's head (its request line and headers) is larger than {} KiB or has \
             more than {MAX_HEADERS} headers: shorten the address or send fewer or smaller headers",
            MAX_HEAD_BYTES >> 10
        ),
        _ => "the request is not HTTP/1.1 this server can read: its request line (METHOD \
              /path HTTP/1.1) or a header is malformed"
            .to_owned(),
    }
}

/// A whole answer of `status` with an error `message`, as the router
/// sends it (JSON and the security headers), that closes the connection:
/// for the refusals made outside the router.
pub fn refusal(status: StatusCode, message: &str) -> Vec<u8> {
    let body = ApiError::new(status, message).json().to_string();
    let mut head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\ncache-control: no-store\r\n",
        status.as_str(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    if status == StatusCode::SERVICE_UNAVAILABLE {
        head += &format!("retry-after: {}\r\n", RETRY_AFTER.as_secs());
    }
    for (name, value) in SECURITY_HEADERS {
        head += &format!("{name}: {value}\r\n");
    }
    head += "\r\n";
    let mut answer = head.into_bytes();
    answer.extend_from_slice(body.as_bytes());
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_bare_refusals_are_replaced() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\
                     date: Sun, 23 Nov 2026 10:00:00 GMT\r\n\r\n";
        assert_eq!(
            hyper_refusal(bare),
            Some(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE)
        );
        let ours = refusal(StatusCode::BAD_REQUEST, "no");
        assert_eq!(hyper_refusal(&ours), None, "the router's answers pass");
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nmore";
        assert_eq!(hyper_refusal(with_body), None);
        assert_eq!(hyper_refusal(b"HTTP/1.1 100 Continue\r\n\r\n"), None);
        assert_eq!(hyper_refusal(b"HTTP/1.1 400 "), None, "an incomplete head");
    }

    #[test]
    fn lengths_no_number_holds_are_found_across_reads() {
        let scan = |parts: &[&[u8]]| {
            let mut scan = LengthScan::default();
            for part in parts {
                scan.feed(part);
            }
            scan.huge
        };
        assert!(scan(&[
            b"POST / HTTP/1.1\r\nContent-Length: 18446744073709551615\r\n"
        ]));
        assert!(scan(&[
            b"POST / HTTP/1.1\r\ncontent-LENGTH:  184467440",
            b"73709551614\r\n"
        ]));
        let long = format!("Content-Length: {}\r\n", "9".repeat(300));
        assert!(scan(&[long.as_bytes()]));
        assert!(!scan(&[b"Content-Length: 18446744073709551613\r\n"]));
        assert!(!scan(&[
            b"Content-Length: 12\r\n",
            b"X-Content-Length: 99999999999999999999999\r\n"
        ]));
        assert!(!scan(&[b"Content-Length: nope\r\n"]));
    }

    #[test]
    fn a_refusal_is_json_with_the_security_headers() {
        let answer = String::from_utf8(refusal(StatusCode::SERVICE_UNAVAILABLE, "busy")).unwrap();
        assert!(answer.starts_with("HTTP/1.1 503 Service Unavailable\r\n"));
        assert!(answer.contains("\r\nretry-after: 5\r\n"));
        assert!(answer.contains("\r\ncontent-security-policy: default-src 'none';"));
        assert!(answer.contains("\r\nx-content-type-options: nosniff\r\n"));
        assert!(answer.ends_with("\r\n\r\n{\"error\":{\"status\":503,\"message\":\"busy\"}}"));
    }
}
