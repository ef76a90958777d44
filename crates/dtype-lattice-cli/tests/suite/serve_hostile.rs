//! What the explorer does with requests it should not serve: too large,
//! malformed, misaddressed, from another site, for files it does not have.
//! Each is refused with a 4xx that says why, and the server answers the
//! next request as if nothing happened.

use crate::support::serve::{cli, Response, Server};

/// The server still answers a plain question.
fn still_serving(server: &Server) {
    let answer = server.post(
        "/api/batch",
        b"{\"fn\": \"promote_types\", \"args\": [\"int8\", \"uint8\"]}\n",
    );
    assert_eq!(answer.status, 200);
    assert_eq!(answer.text(), "{\"ok\":\"int16\"}\n");
}

#[test]
fn bodies_past_the_limits_are_refused_with_413() {
    let server = Server::start();
    let batch = vec![b' '; (1 << 20) + 1];
    let response = server.post("/api/batch", &batch);
    assert_eq!(response.status, 413);
    assert!(
        response.message().contains("1 MiB"),
        "{}",
        response.message()
    );
    let lattice = vec![b'#'; (8 << 20) + 1];
    let response = server.post("/api/lattice", &lattice);
    assert_eq!(response.status, 413);
    // Without a Content-Length, read as it comes: refused all the same.
    let mut chunked = format!(
        "POST /api/batch HTTP/1.1\r\nHost: {}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        server.host()
    )
    .into_bytes();
    for _ in 0..20 {
        chunked.extend_from_slice(format!("{:x}\r\n", 64 << 10).as_bytes());
        chunked.extend(std::iter::repeat_n(b' ', 64 << 10));
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let raw = server.send_raw(&chunked);
    assert!(
        raw.starts_with(b"HTTP/1.1 413"),
        "{}",
        String::from_utf8_lossy(&raw[..40.min(raw.len())])
    );
    // At the limit, a batch is answered.
    let mut full = b"{\"fn\": \"dtype\", \"args\": [\"f4\"]}\n".to_vec();
    full.resize(1 << 20, b' ');
    assert_eq!(server.post("/api/batch", &full).status, 200);
    still_serving(&server);
}

#[test]
fn bad_parameters_are_refused_with_400_naming_them() {
    let server = Server::start();
    for (path, says) in [
        ("/api/table?policy=jaxx", "did you mean 'jax'?"),
        ("/api/table?colour=red", "unknown parameter 'colour'"),
        (
            "/api/table?x64=maybe",
            "x64='maybe' is not one of its values",
        ),
        ("/api/table?types=some", "types='some' is not a choice"),
        ("/api/table?x64=true&x64=false", "'x64' is given twice"),
        ("/api/explain?a=int8", "give the parameter b"),
        (
            "/api/explain?a=int8&b=int8&marks=yes",
            "marks='yes' is not a flag",
        ),
        ("/api/explain?a=int9&b=int8", "int9"),
        ("/api/diff?left=jax", "give the parameter right"),
        (
            "/api/graph.svg?highlight=int8",
            "highlight: expected two types",
        ),
        (
            "/api/graph.svg?highlight=int8,unit8",
            "did you mean 'uint8'?",
        ),
        ("/api/batch?policy=nope", "unknown policy 'nope'"),
    ] {
        let method = if path.starts_with("/api/batch") {
            "POST"
        } else {
            "GET"
        };
        let response = server.request(method, path, &[], Some(b""));
        assert_eq!(response.status, 400, "{path}: {}", response.text());
        assert!(
            response.message().contains(says),
            "{path}: {}",
            response.message()
        );
        assert_eq!(response.header("content-type"), Some("application/json"));
    }
    let lattice = server.post("/api/lattice?syntax=yaml", b"{}");
    assert_eq!(lattice.status, 400);
    still_serving(&server);
}

#[test]
fn unknown_paths_are_404_and_no_file_is_reachable() {
    let server = Server::start();
    for path in [
        "/nothing",
        "/api",
        "/api/tables",
        "/Cargo.toml",
        "/../Cargo.toml",
        "/..%2F..%2FCargo.toml",
        "/api/examples/..%2F..%2F..%2FCargo.toml",
        "/api/examples/jax.toml",
        "/web/app.js",
        "/etc/passwd",
    ] {
        let response = server.get(path);
        assert_eq!(response.status, 404, "{path}");
        assert!(!response.text().contains("[package]"), "{path}");
    }
    still_serving(&server);
}

#[test]
fn wrong_methods_are_405() {
    let server = Server::start();
    for (method, path) in [
        ("GET", "/api/batch"),
        ("POST", "/api/table"),
        ("PUT", "/api/lattice"),
        ("DELETE", "/"),
        ("POST", "/app.js"),
    ] {
        let response = server.request(method, path, &[], Some(b"{}"));
        assert_eq!(response.status, 405, "{method} {path}");
        assert!(response.message().contains("does not take that method"));
    }
    still_serving(&server);
}

/// Bad bytes inside a batch are the protocol's business: answered line by
/// line exactly as `dtype-lattice batch` answers them.
#[test]
fn invalid_utf8_and_malformed_json_in_a_batch_are_answered_as_the_cli_does() {
    let server = Server::start();
    let body: &[u8] = b"{\"fn\": \"promote_types\", \"args\": [\"int8\"\xff]}\n\
        {\"fn\": \"promote_types\", \"args\": [\"int8\", \n\
        not json at all\n\
        {\"fn\": \"promote_types\", \"args\": [\"int8\", \"uint8\"], \"colour\": 1}\n\
        \n\
        [1, 2, 3]\n\
        {\"fn\": \"promote_types\", \"args\": [\"bfloat16\", \"float16\"]}\n";
    let response = server.post("/api/batch", body);
    assert_eq!(response.status, 200);
    assert_eq!(response.body, cli(&["batch"], body));
    let lines: Vec<&str> = std::str::from_utf8(&response.body)
        .unwrap()
        .lines()
        .collect();
    assert_eq!(lines.len(), 6, "a blank line gets no answer");
    assert!(lines[0].contains("not UTF-8"));
    assert!(lines[1].contains("not valid JSON"));
    assert_eq!(lines[5], "{\"ok\":\"float32\"}");
    still_serving(&server);
}

#[test]
fn a_lattice_that_is_not_text_is_refused_with_400() {
    let server = Server::start();
    let response = server.post("/api/lattice", b"name = \"x\xff\"\n");
    assert_eq!(response.status, 400);
    assert!(
        response.message().contains("not UTF-8"),
        "{}",
        response.message()
    );
    let svg = server.post("/api/lattice/graph.svg", b"\xc3\x28");
    assert_eq!(svg.status, 400);
    // Text that is not a lattice is an answer, with the place.
    let garbage = server.post("/api/lattice?syntax=dict", b"{{{{{");
    assert_eq!(garbage.status, 200);
    assert_eq!(garbage.json()["valid"], false);
    let garbage = server.post("/api/lattice/graph.svg", b"]]] nonsense");
    assert_eq!(garbage.status, 422);
    still_serving(&server);
}

/// An error answer made outside the handlers is still JSON naming the
/// problem, with the headers every response carries.
fn assert_json_error(raw: &[u8], status: u16, says: &str) {
    let text = String::from_utf8_lossy(&raw[..raw.len().min(300)]).into_owned();
    assert!(!raw.is_empty(), "no answer, expected {status}");
    let response = Response::parse(raw);
    assert_eq!(response.status, status, "{text}");
    assert_eq!(
        response.header("content-type"),
        Some("application/json"),
        "{text}"
    );
    assert!(
        response
            .header("content-security-policy")
            .is_some_and(|csp| csp.starts_with("default-src 'none'")),
        "{text}"
    );
    assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
    assert!(
        response.message().contains(says),
        "{status}: {}",
        response.message()
    );
}

#[test]
fn garbage_and_huge_requests_are_answered_in_json_and_do_not_stop_the_server() {
    let server = Server::start();
    let host = server.host();
    let raw = server.send_raw(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 TLS hello?\r\n\r\n");
    assert_json_error(&raw, 400, "request line (METHOD /path HTTP/1.1)");
    let raw = server.send_raw(b"GET / HTTP/9.9\r\n\r\n");
    assert_json_error(&raw, 400, "is not HTTP/1.1");
    let raw =
        server.send_raw(format!("GET / HTTP/1.1\r\nHost: {host}\r\nBad Header\r\n\r\n").as_bytes());
    assert_json_error(&raw, 400, "or a header is malformed");
    let mut huge_header = format!("GET / HTTP/1.1\r\nHost: {host}\r\nX-Big: ").into_bytes();
    huge_header.extend(std::iter::repeat_n(b'a', 1 << 20));
    huge_header.extend_from_slice(b"\r\n\r\n");
    assert_json_error(&server.send_raw(&huge_header), 431, "larger than 64 KiB");
    let mut many = format!("GET / HTTP/1.1\r\nHost: {host}\r\n");
    for i in 0..150 {
        many += &format!("X-Header-{i}: {i}\r\n");
    }
    many += "\r\n";
    assert_json_error(
        &server.send_raw(many.as_bytes()),
        431,
        "more than 100 headers",
    );
    // An address past 8 KiB is refused by the server, past 64 KiB (the
    // head's limit) before it is parsed: the same JSON either way.
    for (length, status, says) in [
        (20_000, 414, "past the 8 KiB this server reads"),
        (200_000, 431, "larger than 64 KiB"),
    ] {
        let path = format!("/api/table?policy={}", "j".repeat(length));
        let raw = server.send_raw(
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
        );
        assert_json_error(&raw, status, says);
    }
    // Half a request, then the connection closes.
    server.send_and_hang_up(b"POST /api/batch HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"fn\"");
    still_serving(&server);
}

/// Any loopback address, written out, names this machine whatever DNS
/// says: the server bound to one answers requests addressed to it or to
/// any other.
#[cfg(target_os = "linux")]
#[test]
fn every_loopback_address_is_its_own_host() {
    let server = Server::start_with(&["--host", "127.0.0.2"]);
    assert_eq!(server.addr.ip().to_string(), "127.0.0.2");
    let port = server.addr.port();
    for host in [
        format!("127.0.0.2:{port}"),
        format!("127.0.1.1:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
        format!("localhost:{port}"),
        format!("explorer.localhost:{port}"),
    ] {
        let answer = server.request("GET", "/api/info", &[("Host", &host)], None);
        assert_eq!(answer.status, 200, "{host}: {}", answer.text());
    }
    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.2:{}", port.wrapping_add(1)),
        format!("128.0.0.1:{port}"),
        format!("127.0.0.2.evil.example:{port}"),
        "127.0.0.2".to_owned(),
    ] {
        let answer = server.request("GET", "/api/info", &[("Host", &host)], None);
        assert_eq!(answer.status, 421, "{host}: {}", answer.text());
        assert!(
            answer.message().contains("loopback name"),
            "{}",
            answer.message()
        );
    }
}

#[test]
fn requests_for_other_names_or_from_other_sites_are_refused() {
    let server = Server::start();
    // What a page that rebinds its domain to 127.0.0.1 sends.
    let rebound = server.request("GET", "/api/info", &[("Host", "evil.example:8000")], None);
    assert_eq!(rebound.status, 421);
    assert!(rebound.message().contains("127.0.0.1"));
    assert!(rebound.message().contains("evil.example"));
    let localhost = server.request(
        "GET",
        "/api/info",
        &[("Host", &format!("localhost:{}", server.addr.port()))],
        None,
    );
    assert_eq!(localhost.status, 200);
    // Another site's page posting to the API.
    let cross = server.request(
        "POST",
        "/api/batch",
        &[("Origin", "https://evil.example")],
        Some(b"{\"fn\": \"dtype\", \"args\": [\"f4\"]}"),
    );
    assert_eq!(cross.status, 403);
    let own_origin = format!("http://{}", server.host());
    let own = server.request(
        "POST",
        "/api/batch",
        &[("Origin", own_origin.as_str())],
        Some(b"{\"fn\": \"dtype\", \"args\": [\"f4\"]}"),
    );
    assert_eq!(own.status, 200);
    still_serving(&server);
}

#[test]
fn many_clients_at_once_are_all_answered() {
    let server = Server::start();
    std::thread::scope(|scope| {
        for i in 0..32 {
            let server = &server;
            scope.spawn(move || {
                for _ in 0..10 {
                    let path = if i % 2 == 0 {
                        "/api/table?types=all"
                    } else {
                        "/api/explain?a=int8&b=uint16"
                    };
                    assert_eq!(server.get(path).status, 200);
                }
            });
        }
    });
    still_serving(&server);
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let server = Server::start();
    still_serving(&server);
    let (status, stderr) = server.interrupt();
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(stderr.contains("stopping"), "{stderr}");
}

#[test]
fn listening_beyond_loopback_is_warned_about() {
    use std::io::{BufRead, BufReader, Read};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dtype-lattice"))
        .args(["serve", "--host", "0.0.0.0", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(
        line.starts_with("serving the explorer at http://127.0.0.1:"),
        "{line}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(
        stderr.contains("warning: listening on 0.0.0.0:"),
        "{stderr}"
    );
    // An address that cannot be had is a usage error.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_dtype-lattice"))
        .args(["serve", "--host", "256.0.0.1", "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot listen on 256.0.0.1:0"), "{stderr}");
}
