//! The explorer as its tests run it: the built binary serving on a free
//! loopback port (`serve --port 0`, the address read from what it prints),
//! and a minimal HTTP/1.1 client over a `TcpStream`, so that a test can
//! send anything, malformed requests included.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A running `dtype-lattice serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// Kept open: the server's standard output.
    _stdout: BufReader<ChildStdout>,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Server {
    /// Starts the binary on a free loopback port and waits until it says
    /// where it listens.
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// Starts `serve --port 0` with more arguments (`--host`).
    pub fn start_with(args: &[&str]) -> Server {
        Server::spawn(
            Command::new(env!("CARGO_BIN_EXE_dtype-lattice"))
                .args(["serve", "--port", "0"])
                .args(args),
        )
    }

    /// Starts it with its open-file limit lowered to `files` (by the
    /// shell's `ulimit -n`, as `prlimit --nofile` would).
    pub fn start_with_file_limit(files: u32) -> Server {
        Server::spawn(Command::new("sh").args([
            "-c",
            &format!("ulimit -n {files} && exec \"$0\" serve --port 0"),
            env!("CARGO_BIN_EXE_dtype-lattice"),
        ]))
    }

    fn spawn(command: &mut Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .expect("serve prints its address");
        // "serving the explorer at http://127.0.0.1:PORT/ (Ctrl-C stops)"
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap_or_else(|err| panic!("{url}: {err}"));
        Server {
            child,
            _stdout: stdout,
            addr,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A connection to the server, whose reads give up after `limit`.
    pub fn connect(&self, limit: Duration) -> TcpStream {
        let stream = TcpStream::connect(self.addr).expect("the server accepts");
        stream.set_read_timeout(Some(limit)).unwrap();
        stream.set_write_timeout(Some(limit)).unwrap();
        stream
    }

    /// `Host` as a browser on this machine writes it.
    pub fn host(&self) -> String {
        self.addr.to_string()
    }

    /// A GET.
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, &[], None)
    }

    /// A POST of `body`.
    pub fn post(&self, path: &str, body: &[u8]) -> Response {
        self.request("POST", path, &[], Some(body))
    }

    /// A request with these extra headers (`Host` is set unless given).
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Response {
        let mut head = format!("{method} {path} HTTP/1.1\r\n");
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("host"))
        {
            head += &format!("Host: {}\r\n", self.host());
        }
        for (name, value) in headers {
            head += &format!("{name}: {value}\r\n");
        }
        if let Some(body) = body {
            head += &format!("Content-Length: {}\r\n", body.len());
        }
        head += "Connection: close\r\n\r\n";
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body.unwrap_or_default());
        Response::parse(&self.send_raw(&bytes))
    }

    /// Sends `bytes` as they are and returns everything the server answers
    /// before it closes the connection (the request should make it close:
    /// `Connection: close`, or bytes it refuses).
    pub fn send_raw(&self, bytes: &[u8]) -> Vec<u8> {
        let mut stream = TcpStream::connect(self.addr).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        // The server may answer (413) and close before taking everything.
        let _ = stream.write_all(bytes);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        answer
    }

    /// Sends `bytes` and hangs up at once, as a client that goes away
    /// mid-request.
    pub fn send_and_hang_up(&self, bytes: &[u8]) {
        let mut stream = TcpStream::connect(self.addr).expect("the server accepts");
        let _ = stream.write_all(bytes);
    }

    /// Sends the signal `name` (`INT` for Ctrl-C, `TERM`).
    pub fn signal(&self, name: &str) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args([&format!("-{name}"), &pid])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Waits at most `limit` for the server to stop; its exit status, what
    /// it printed on standard error, and how long it took.
    pub fn wait_stopped(mut self, limit: Duration) -> (ExitStatus, String, Duration) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                start.elapsed() < limit,
                "the server did not stop within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let took = start.elapsed();
        let mut stderr = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        (status, stderr, took)
    }

    /// Sends SIGINT (Ctrl-C) and waits for the server to stop; its exit
    /// status and what it printed on standard error.
    pub fn interrupt(self) -> (ExitStatus, String) {
        self.signal("INT");
        let (status, stderr, _) = self.wait_stopped(Duration::from_secs(10));
        (status, stderr)
    }
}

/// What came on a connection until it ended.
pub struct Ending {
    pub bytes: Vec<u8>,
    /// How long it took.
    pub took: Duration,
    /// Whether the server closed it (or reset it); false when the read
    /// timeout passed first.
    pub closed: bool,
}

/// Reads from `stream` until the server closes it or the stream's read
/// timeout passes.
pub fn read_until_closed(stream: &mut TcpStream) -> Ending {
    let start = Instant::now();
    let mut bytes = Vec::new();
    let mut buf = [0u8; 8192];
    let closed = loop {
        match stream.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(err) => {
                break !matches!(
                    err.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                )
            }
        }
    };
    Ending {
        bytes,
        took: start.elapsed(),
        closed,
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// Reads a response (`Content-Length` or chunked).
    pub fn parse(bytes: &[u8]) -> Response {
        let end = bytes
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no HTTP head in {:?}", String::from_utf8_lossy(bytes)));
        let head = std::str::from_utf8(&bytes[..end]).expect("an ASCII head");
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap();
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("status line {status_line:?}"));
        let headers: Vec<(String, String)> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
            .collect();
        let rest = &bytes[end + 4..];
        let chunked = headers
            .iter()
            .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
        let body = if chunked {
            dechunk(rest)
        } else {
            rest.to_vec()
        };
        Response {
            status,
            headers,
            body,
        }
    }

    /// A header's value (names are case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("a UTF-8 body")
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&self.body)))
    }

    /// The error message of a JSON error answer.
    pub fn message(&self) -> String {
        self.json()["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message in {}", self.text()))
            .to_owned()
    }
}

fn dechunk(mut bytes: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = bytes.windows(2).position(|w| w == b"\r\n").unwrap();
        let size_text = std::str::from_utf8(&bytes[..line_end]).unwrap();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        bytes = &bytes[line_end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&bytes[..size]);
        bytes = &bytes[size + 2..];
    }
}

/// Runs the binary on `args` with `input` on standard input; its standard
/// output.
pub fn cli(args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dtype-lattice"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output.stdout
}

/// The repository's root.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What a process holds in memory, in KiB (Linux's /proc/PID/status).
#[cfg(target_os = "linux")]
pub fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in {status}"))
}
