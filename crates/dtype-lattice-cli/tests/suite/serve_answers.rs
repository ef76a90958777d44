//! What the explorer sends back, and how it reads requests' addresses:
//! answers past their weight are refused with a way to get them, slow
//! readers are cut off and hold no more than the server's budget for
//! answers, and a request's host is read as RFC 9112 says. Every read has
//! a timeout and every loop a bound, so a server that misbehaves fails a
//! test instead of hanging it.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use crate::support::serve::{Response, Server};

/// serve/mod.rs's `MAX_ANSWER_BYTES`, `ANSWER_BYTES_HELD`,
/// `WRITE_TIMEOUT` and `MIN_READ_RATE`.
const MAX_ANSWER_BYTES: usize = 8 << 20;
const ANSWER_BYTES_HELD: u64 = 64 << 20;
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
const MIN_READ_RATE: f64 = (1 << 20) as f64;

/// A graph of `n` nodes below `n` others, each below all: `n * n` edges,
/// the drawing's weight growing with them (500 x 500, within the
/// lattice-file limits, draws 47 MB).
fn bipartite(n: usize) -> Vec<u8> {
    let tops: Vec<String> = (0..n).map(|j| format!("'b{j}'")).collect();
    let tops = tops.join(", ");
    let mut text = String::from("{\n");
    for i in 0..n {
        text += &format!("    'a{i}': [{tops}],\n");
    }
    text += "}\n";
    text.into_bytes()
}

#[test]
fn a_drawing_past_its_weight_is_refused_with_a_way_to_get_it() {
    let server = Server::start();
    let text = bipartite(160);
    let answer = server.post("/api/lattice", &text);
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(answer.body.len() < MAX_ANSWER_BYTES);
    let value = answer.json();
    assert_eq!(value["valid"], true);
    assert!(value["check"].is_object(), "the summary is still given");
    assert!(value["svg"].is_null());
    let note = value["svg_note"].as_str().unwrap();
    assert!(note.contains("the drawing would weigh"), "{note}");
    assert!(
        note.contains("dtype-lattice graph FILE -o drawing.dot"),
        "{note}"
    );
    let drawing = server.post("/api/lattice/graph.svg", &text);
    assert_eq!(drawing.status, 422, "{}", drawing.text());
    assert!(drawing.message().contains("more than the 4 MiB"));
    // Smaller, it is drawn.
    let drawn = server.post("/api/lattice/graph.svg", &bipartite(20));
    assert_eq!(drawn.status, 200);
    assert!(drawn.text().starts_with("<svg"));
}

#[test]
fn a_batch_whose_answers_weigh_too_much_is_refused() {
    let server = Server::start();
    // Each line of garbage gets an answer fifty times its size.
    let batch = "x\n".repeat(200_000);
    let answer = server.post("/api/batch", batch.as_bytes());
    assert_eq!(answer.status, 422, "{}", &answer.text()[..200]);
    assert!(
        answer.message().contains("would weigh at least")
            && answer.message().contains("split the batch"),
        "{}",
        answer.message()
    );
    assert_eq!(server.post("/api/batch", b"x\n").status, 200);
}

/// Keeps the client's kernel from reading the answer for it: a receive
/// buffer of megabytes would take a whole answer at loopback speed
/// whatever the client reads.
fn small_receive_buffer(stream: &std::net::TcpStream) {
    socket2::SockRef::from(stream)
        .set_recv_buffer_size(32 << 10)
        .unwrap();
}

/// How a slow reader's answer ended.
struct SlowRead {
    status: u16,
    bytes: usize,
    took: Duration,
    closed: bool,
}

/// Posts `body` to `/api/lattice` and reads the answer at about `rate`
/// bytes a second, for at most `limit`.
fn read_slowly(server: &Server, body: &[u8], rate: usize, limit: Duration) -> SlowRead {
    let mut stream = server.connect(Duration::from_secs(30));
    let head = format!(
        "POST /api/lattice HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.host(),
        body.len()
    );
    small_receive_buffer(&stream);
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut first = [0u8; 12];
    if stream.read_exact(&mut first).is_err() {
        return SlowRead {
            status: 0,
            bytes: 0,
            took: Duration::ZERO,
            closed: true,
        };
    }
    let status = std::str::from_utf8(&first[9..12])
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let start = Instant::now();
    let mut bytes = first.len();
    let mut buf = vec![0u8; rate / 10];
    let closed = loop {
        if start.elapsed() > limit {
            break false;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break true,
            Ok(n) => bytes += n,
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    SlowRead {
        status,
        bytes,
        took: start.elapsed(),
        closed,
    }
}

#[cfg(target_os = "linux")]
#[test]
fn slow_readers_are_cut_off_and_hold_no_more_than_the_budget() {
    const READERS: usize = 12;
    const RATE: usize = 100_000;
    let server = Server::start();
    assert_eq!(server.get("/api/info").status, 200);
    let before = crate::support::serve::resident_kib(server.pid());
    // The largest answer a lattice gets in a few seconds here: its drawing
    // just under the drawing's limit, about 4 MB in all.
    let text = bipartite(140);
    let weight = 4_000_000.0;
    let allowed = WRITE_TIMEOUT + Duration::from_secs_f64(weight / MIN_READ_RATE);
    let mut peak = before;
    let mut info_worst = Duration::ZERO;
    let ends: Vec<SlowRead> = std::thread::scope(|scope| {
        let readers: Vec<_> = (0..READERS)
            .map(|_| {
                let (server, text) = (&server, &text);
                scope.spawn(move || read_slowly(server, text, RATE, allowed * 2))
            })
            .collect();
        let start = Instant::now();
        while start.elapsed() < allowed * 2 && !readers.iter().all(|r| r.is_finished()) {
            peak = peak.max(crate::support::serve::resident_kib(server.pid()));
            let asked = Instant::now();
            assert_eq!(server.get("/api/info").status, 200);
            info_worst = info_worst.max(asked.elapsed());
            std::thread::sleep(Duration::from_millis(250));
        }
        readers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let answered: Vec<&SlowRead> = ends.iter().filter(|end| end.status == 200).collect();
    assert!(!answered.is_empty(), "no reader was answered");
    for end in &answered {
        assert!(
            end.closed,
            "a slow reader was still connected after {:?}",
            end.took
        );
        // The cut closes the connection behind what the kernels' buffers
        // still hold for the client (about 600 KB here, 6 s at its pace).
        assert!(
            end.took < allowed + Duration::from_secs(10),
            "a slow reader kept its answer for {:?}, past {allowed:?}",
            end.took
        );
        assert!(
            end.bytes < 4_000_000,
            "read {} bytes at {RATE} B/s",
            end.bytes
        );
    }
    for end in &ends {
        assert!(
            [200, 503].contains(&end.status),
            "a reader got {}",
            end.status
        );
    }
    let grown = (peak.saturating_sub(before)) << 10;
    assert!(
        grown < ANSWER_BYTES_HELD + (32 << 20),
        "memory grew by {} MiB with {READERS} slow readers",
        grown >> 20
    );
    // Loose: the machine may be building while the tests run.
    assert!(info_worst < Duration::from_secs(5), "{info_worst:?}");
}

#[test]
fn one_host_and_the_targets_authority_are_what_a_request_is_addressed_to() {
    let server = Server::start();
    let host = server.host();
    let ask = |raw: String| Response::parse(&server.send_raw(raw.as_bytes()));
    let twice = ask(format!(
        "GET /api/info HTTP/1.1\r\nHost: {host}\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    ));
    assert_eq!(twice.status, 400, "{}", twice.text());
    assert!(
        twice.message().contains("2 Host headers"),
        "{}",
        twice.message()
    );
    let none = ask("GET /api/info HTTP/1.1\r\nConnection: close\r\n\r\n".to_owned());
    assert_eq!(none.status, 400, "{}", none.text());
    let elsewhere = ask(format!(
        "GET http://evil.example/api/info HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    ));
    assert_eq!(elsewhere.status, 421, "{}", elsewhere.text());
    assert!(elsewhere.message().contains("evil.example"));
    let here = ask(format!(
        "GET http://{host}/api/info HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    ));
    assert_eq!(here.status, 200, "{}", here.text());
}

#[test]
fn any_declared_length_past_the_limit_is_413() {
    let server = Server::start();
    for length in [
        "8388609",
        "18446744073709551613",
        "18446744073709551615",
        "99999999999999999999999999",
    ] {
        let raw = server.send_raw(
            format!(
                "POST /api/lattice HTTP/1.1\r\nHost: {}\r\nContent-Length: {length}\r\n\r\n",
                server.host()
            )
            .as_bytes(),
        );
        let answer = Response::parse(&raw);
        assert_eq!(answer.status, 413, "{length}: {}", answer.text());
        assert!(
            answer.message().contains("larger than this endpoint takes"),
            "{length}: {}",
            answer.message()
        );
        assert!(answer.header("content-security-policy").is_some());
    }
    let still = server.get("/api/info");
    assert_eq!(still.status, 200);
}
