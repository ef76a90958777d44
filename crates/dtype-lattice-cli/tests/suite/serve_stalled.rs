//! Clients that hold on: connections that send nothing, half a head, part
//! of a body, too many connections, bodies too large to take, and a stop
//! while they wait. Each is let go within its deadline, and the server
//! goes on answering everyone else. Every read here has a timeout, so a
//! server that misbehaves fails a test instead of hanging it.

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use crate::support::serve::{read_until_closed, Response, Server};

/// serve/mod.rs's `HEADER_TIMEOUT` and `BODY_TIMEOUT`.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// serve/mod.rs's `WRITE_TIMEOUT`.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// serve/mod.rs's `SHUTDOWN_GRACE`.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// How late past a deadline the server may act, on a loaded machine.
const SLACK: Duration = Duration::from_secs(5);

/// The server still answers a plain question.
fn still_serving(server: &Server) {
    let answer = server.get("/api/info");
    assert_eq!(answer.status, 200, "{}", answer.text());
}

/// A connection that has sent `bytes` and waits.
fn stalled(server: &Server, bytes: &[u8]) -> TcpStream {
    let mut stream = server.connect(HEADER_TIMEOUT + SLACK * 2);
    stream.write_all(bytes).unwrap();
    stream
}

/// A request whose body will never be finished: the router is answering
/// it (the connection is busy) until the body's deadline.
fn unfinished_body(server: &Server) -> TcpStream {
    stalled(
        server,
        format!(
            "POST /api/batch HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\n{{\"fn\"",
            server.host()
        )
        .as_bytes(),
    )
}

#[test]
fn silent_connections_are_closed_and_unfinished_bodies_get_408() {
    let server = Server::start();
    let host = server.host();
    let half_head = format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\n");
    let kept_alive = format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\n\r\n");
    let unfinished = format!(
        "POST /api/lattice HTTP/1.1\r\nHost: {host}\r\nContent-Length: 1000\r\n\r\nname = "
    );
    let cases: [(&str, &str); 4] = [
        ("a connection that sends nothing", ""),
        ("half a head (a request line and one header)", &half_head),
        ("a kept-alive connection after its answer", &kept_alive),
        ("a body that stops coming", &unfinished),
    ];
    std::thread::scope(|scope| {
        let server = &server;
        scope.spawn(move || {
            // A client that asks for 100 tables of 330 KB and reads none:
            // once the kernel's buffers are full, the answer stalls, and
            // the server lets the connection go.
            let ask = format!(
                "GET /api/table?types=all&x64=true&strict=true HTTP/1.1\r\nHost: {}\r\n\r\n",
                server.host()
            );
            let mut stream = stalled(server, ask.repeat(100).as_bytes());
            std::thread::sleep(WRITE_TIMEOUT + Duration::from_secs(2));
            stream.set_read_timeout(Some(SLACK)).unwrap();
            let end = read_until_closed(&mut stream);
            let answers = end
                .bytes
                .windows(15)
                .filter(|w| w == b"HTTP/1.1 200 OK")
                .count();
            assert!(end.closed, "a reader that never reads is still connected");
            assert!(answers < 100, "all {answers} answers were written");
        });
        for (case, bytes) in cases {
            scope.spawn(move || {
                let mut stream = stalled(server, bytes.as_bytes());
                let end = read_until_closed(&mut stream);
                assert!(end.closed, "{case}: still open after {:?}", end.took);
                let deadline = if case.contains("body") {
                    BODY_TIMEOUT
                } else {
                    HEADER_TIMEOUT
                };
                assert!(
                    end.took >= deadline - Duration::from_secs(1) && end.took <= deadline + SLACK,
                    "{case}: closed after {:?}, the deadline is {deadline:?}",
                    end.took
                );
                let text = String::from_utf8_lossy(&end.bytes);
                match case {
                    "a body that stops coming" => {
                        let answer = Response::parse(&end.bytes);
                        assert_eq!(answer.status, 408, "{text}");
                        assert!(answer
                            .message()
                            .contains("did not arrive within 10 seconds"));
                        assert!(answer.header("content-security-policy").is_some());
                    }
                    "a kept-alive connection after its answer" => {
                        assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
                    }
                    _ => assert!(end.bytes.is_empty(), "{case}: {text}"),
                }
            });
        }
    });
    still_serving(&server);
}

#[test]
fn connections_past_the_cap_do_not_lock_out_a_request() {
    // 128 open files leave room for 96 connections (RESERVED_FILES is 32).
    let server = Server::start_with_file_limit(128);
    let host = server.host();
    let mut silent: Vec<TcpStream> = (0..160)
        .map(|i| {
            let bytes = if i % 2 == 0 {
                String::new()
            } else {
                format!("GET / HTTP/1.1\r\nHost: {host}\r\n")
            };
            stalled(&server, bytes.as_bytes())
        })
        .collect();
    // A new connection closes the one silent longest, so a request comes
    // through at once, however many silent ones there are.
    let start = std::time::Instant::now();
    still_serving(&server);
    assert!(start.elapsed() < Duration::from_secs(2));
    let first = read_until_closed(&mut silent[0]);
    assert!(first.closed && first.took < Duration::from_secs(2));
    // Connections busy with requests are not closed for newcomers: past
    // the cap, those are refused at once, with JSON saying why.
    let busy: Vec<TcpStream> = (0..110).map(|_| unfinished_body(&server)).collect();
    std::thread::sleep(Duration::from_millis(300));
    let refused = server.get("/api/info");
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert!(
        refused.message().contains("busy with requests"),
        "{}",
        refused.message()
    );
    assert!(refused.header("content-security-policy").is_some());
    drop(busy);
    drop(silent);
    // Their clients gone, the connections close and make room.
    let deadline = std::time::Instant::now() + SLACK;
    loop {
        let answer = server.get("/api/info");
        if answer.status == 200 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{}", answer.text());
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_declared_body_past_the_limit_is_refused_before_100_continue() {
    let server = Server::start();
    for (path, limit) in [
        ("/api/batch", 1 << 20),
        ("/api/lattice", 8 << 20),
        ("/api/lattice/graph.svg", 8 << 20),
    ] {
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
            server.host(),
            limit + 1
        );
        let mut stream = stalled(&server, head.as_bytes());
        let end = read_until_closed(&mut stream);
        assert!(end.closed, "{path}");
        let answer = Response::parse(&end.bytes);
        assert_eq!(answer.status, 413, "{path}: {}", answer.text());
        assert!(
            answer.message().contains("larger than this endpoint takes"),
            "{}",
            answer.message()
        );
        assert!(end.took < Duration::from_secs(2), "{path}: {:?}", end.took);
    }
    // At the limit, the client is told to go on, and answered.
    let head = format!(
        "POST /api/batch HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\
         Connection: close\r\n\r\n",
        server.host(),
        1 << 20
    );
    let mut stream = stalled(&server, head.as_bytes());
    let mut first = [0u8; 25];
    std::io::Read::read_exact(&mut stream, &mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 100 Continue\r\n\r\n");
    let mut body = b"{\"fn\": \"dtype\", \"args\": [\"f4\"]}\n".to_vec();
    body.resize(1 << 20, b' ');
    stream.write_all(&body).unwrap();
    let answer = Response::parse(&read_until_closed(&mut stream).bytes);
    assert_eq!(answer.status, 200);
    assert_eq!(answer.text(), "{\"ok\":\"float32\"}\n");
}

#[cfg(target_os = "linux")]
#[test]
fn abandoned_large_uploads_hold_at_most_a_few_bodies_in_memory() {
    const UPLOADS: usize = 12;
    let server = Server::start();
    still_serving(&server);
    let before = crate::support::serve::resident_kib(server.pid());
    let body = vec![b'#'; (8 << 20) - 1];
    let head = format!(
        "POST /api/lattice HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n",
        server.host(),
        8 << 20
    );
    let mut peak = before;
    std::thread::scope(|scope| {
        let uploads: Vec<_> = (0..UPLOADS)
            .map(|_| {
                let (server, head, body) = (&server, &head, &body);
                scope.spawn(move || {
                    let mut stream = server.connect(Duration::from_secs(3));
                    stream.write_all(head.as_bytes()).unwrap();
                    // Past the turns, the server reads nothing and the write
                    // stalls: the timeout ends it, the upload abandoned.
                    let _ = stream.write_all(body);
                    stream
                })
            })
            .collect();
        for _ in 0..20 {
            peak = peak.max(crate::support::serve::resident_kib(server.pid()));
            std::thread::sleep(Duration::from_millis(100));
        }
        for upload in uploads {
            drop(upload.join().unwrap());
        }
    });
    peak = peak.max(crate::support::serve::resident_kib(server.pid()));
    // UPLOADS_AT_ONCE (4) bodies of 8 MiB: 32 MiB; all twelve would be 96.
    // Freed bodies go back to the system (serve/memory.rs), so a fifth
    // body's worth is already a broken promise.
    let grown = (peak - before) >> 10;
    assert!(
        grown < 40,
        "memory grew by {grown} MiB for {UPLOADS} abandoned uploads (from {} MiB)",
        before >> 10
    );
    still_serving(&server);
}

#[test]
fn a_stop_does_not_wait_for_silent_connections() {
    let server = Server::start();
    let host = server.host();
    let _waiting = stalled(
        &server,
        format!("GET / HTTP/1.1\r\nHost: {host}\r\n").as_bytes(),
    );
    let _idle = stalled(&server, b"");
    std::thread::sleep(Duration::from_millis(200));
    server.signal("TERM");
    let (status, stderr, took) = server.wait_stopped(SHUTDOWN_GRACE + SLACK);
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(stderr.contains("stopping"), "{stderr}");
    assert!(took < Duration::from_secs(2), "took {took:?}: {stderr}");
}

#[test]
fn a_stop_gives_requests_under_way_the_grace_period_then_exits() {
    let server = Server::start();
    let _busy = unfinished_body(&server);
    std::thread::sleep(Duration::from_millis(200));
    server.signal("TERM");
    let (status, stderr, took) = server.wait_stopped(SHUTDOWN_GRACE + SLACK);
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(
        took >= SHUTDOWN_GRACE - Duration::from_secs(1),
        "took {took:?}"
    );
    assert!(
        stderr.contains("1 of the requests under way did not finish within 5 s"),
        "{stderr}"
    );
}

#[test]
fn a_second_ctrl_c_stops_at_once() {
    let server = Server::start();
    let _busy = unfinished_body(&server);
    std::thread::sleep(Duration::from_millis(200));
    server.signal("INT");
    std::thread::sleep(Duration::from_millis(300));
    server.signal("INT");
    let (status, stderr, took) = server.wait_stopped(SHUTDOWN_GRACE + SLACK);
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(took < Duration::from_secs(2), "took {took:?}: {stderr}");
    assert!(stderr.contains("stopped at once"), "{stderr}");
}
