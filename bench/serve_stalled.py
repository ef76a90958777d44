#!/usr/bin/env python3
"""The explorer while clients hold on: `dtype-lattice serve` (release build)
on a free loopback port, measured in three phases, each bounded in time:

1. quiet: a few clients asking GET /api/info and GET /api/table in a loop
   (latency percentiles, the floor for what follows);
2. stalled: the same while 500 connections hang in the middle of their
   request's head (a request line and one header, then nothing), then how
   many of them the server still holds after its header timeout;
3. uploads: the same while 60 connections each send 8 MiB minus one byte of
   an 8 MiB /api/lattice body and stop (abandoned uploads), with the
   server's resident memory before, at its peak and after, and what each
   upload was answered.

Then Ctrl-C, and how long the server takes to stop. Python's standard
library only. BENCHMARKS.md has results ("Clients that hold on").

    python3 bench/serve_stalled.py                # builds the release binary first
    DTYPE_LATTICE_BIN=path/to/dtype-lattice python3 bench/serve_stalled.py
    python3 bench/serve_stalled.py --stalled 200 --uploads 20 --seconds 5
"""

import argparse
import http.client
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER_TIMEOUT = 10  # serve/mod.rs's HEADER_TIMEOUT, seconds
ENDPOINTS = ["/api/info", "/api/table?policy=jax"]


def binary():
    path = os.environ.get("DTYPE_LATTICE_BIN")
    if path:
        return path
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "dtype-lattice-cli"], cwd=ROOT, check=True
    )
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "dtype-lattice")


def resident_mib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Load:
    """A few clients asking the endpoints in turn on kept-alive connections,
    until stopped; each request's latency, and the failures."""

    def __init__(self, port, clients):
        self.port, self.stop = port, threading.Event()
        self.latencies = {path: [] for path in ENDPOINTS}
        self.failures = []
        self.threads = [threading.Thread(target=self.client, args=(i,)) for i in range(clients)]

    def client(self, index):
        connection = None
        turn = index
        while not self.stop.is_set():
            path = ENDPOINTS[turn % len(ENDPOINTS)]
            turn += 1
            start = time.perf_counter()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
                connection.request("GET", path)
                response = connection.getresponse()
                body = response.read()
                if response.status != 200 or not body:
                    self.failures.append(f"{path}: {response.status}")
                else:
                    self.latencies[path].append(time.perf_counter() - start)
            except (OSError, http.client.HTTPException) as err:
                # A kept-alive connection the server closed (its idle
                # timeout) is retried on a new one, as browsers do.
                if connection is not None and isinstance(
                    err, (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)
                ):
                    connection.close()
                    connection = None
                    continue
                self.failures.append(f"{path}: {err!r}")
                connection = None
        if connection is not None:
            connection.close()

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join()

    def rows(self, phase):
        rows = []
        for path, times in self.latencies.items():
            ms = sorted(t * 1000 for t in times)
            if not ms:
                rows.append((phase, path, 0, None, None, None, None))
                continue
            pct = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
            rows.append((phase, path, len(ms), statistics.median(ms), pct(0.9), pct(0.99), ms[-1]))
        return rows


def stalled_connection(port, host):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(f"GET /api/info HTTP/1.1\r\nHost: {host}\r\n".encode())
    return s


def closed_by_server(sock):
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def upload(port, host, results, index):
    """Sends 8 MiB - 1 of an 8 MiB body and stops; what the server answers."""
    body = b"#" * ((8 << 20) - 1)
    head = f"POST /api/lattice HTTP/1.1\r\nHost: {host}\r\nContent-Length: {8 << 20}\r\n\r\n"
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=25)
        s.sendall(head.encode())
        try:
            s.sendall(body)
        except OSError:
            pass  # the server stopped reading: answered, or waiting for a turn
        answer = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
        s.close()
        results[index] = answer.split(b" ", 2)[1].decode() if answer else "closed"
    except OSError as err:
        results[index] = type(err).__name__


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stalled", type=int, default=500)
    parser.add_argument("--uploads", type=int, default=60)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0, help="of load in each phase")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.stalled + args.uploads + 64
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))

    exe = binary()
    server = subprocess.Popen(
        [exe, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = server.stdout.readline()
        url = next(w for w in line.split() if w.startswith("http://"))
        host = url[len("http://") :].rstrip("/")
        port = int(host.rsplit(":", 1)[1])
        version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
        load_avg = lambda: open("/proc/loadavg").read().split()[:3]
        print(f"{version}; {os.cpu_count()} cores, load average {' '.join(load_avg())}")
        print(
            f"{args.clients} clients on {', '.join(ENDPOINTS)}, {args.seconds:g} s a phase; "
            f"{args.stalled} stalled connections; {args.uploads} abandoned 8 MiB uploads"
        )
        rows, notes = [], []

        rss_start = resident_mib(server.pid)
        with Load(port, args.clients) as load:
            time.sleep(args.seconds)
        rows += load.rows("quiet")
        quiet_failures = list(load.failures)

        socks = [stalled_connection(port, host) for _ in range(args.stalled)]
        opened = time.monotonic()
        with Load(port, args.clients) as load:
            time.sleep(min(args.seconds, HEADER_TIMEOUT - 2))
            rss_stalled = resident_mib(server.pid)
        rows += load.rows(f"{args.stalled} stalled")
        stalled_failures = list(load.failures)
        held_during = sum(not closed_by_server(s) for s in socks)
        time.sleep(max(0.0, HEADER_TIMEOUT + 2 - (time.monotonic() - opened)))
        held_after = sum(not closed_by_server(s) for s in socks)
        for s in socks:
            s.close()
        notes.append(
            f"stalled connections still open {min(args.seconds, HEADER_TIMEOUT - 2):g} s after "
            f"opening: {held_during} of {args.stalled}; {HEADER_TIMEOUT + 2} s after: "
            f"{held_after}; server RSS with them open: {rss_stalled:.0f} MiB"
        )

        time.sleep(1)
        rss_before = resident_mib(server.pid)
        results = [None] * args.uploads
        uploads = [
            threading.Thread(target=upload, args=(port, host, results, i))
            for i in range(args.uploads)
        ]
        peak = rss_before
        with Load(port, args.clients) as load:
            for thread in uploads:
                thread.start()
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                peak = max(peak, resident_mib(server.pid))
                time.sleep(0.05)
        rows += load.rows(f"{args.uploads} uploads")
        upload_failures = list(load.failures)
        for thread in uploads:
            while thread.is_alive():
                peak = max(peak, resident_mib(server.pid))
                thread.join(0.05)
        time.sleep(2)
        rss_after = resident_mib(server.pid)
        answers = {}
        for result in results:
            answers[result] = answers.get(result, 0) + 1
        notes.append(
            f"server RSS: {rss_start:.0f} MiB at start; {rss_before:.0f} MiB before the uploads, "
            f"{peak:.0f} MiB at their peak, {rss_after:.0f} MiB 2 s after the last was answered "
            f"(VmHWM {resident_mib(server.pid, 'VmHWM'):.0f} MiB)"
        )
        notes.append(
            "uploads answered: "
            + ", ".join(f"{answer}: {count}" for answer, count in sorted(answers.items()))
        )

        start = time.monotonic()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
            notes.append(f"Ctrl-C: stopped in {time.monotonic() - start:.2f} s")
        except subprocess.TimeoutExpired:
            notes.append("Ctrl-C: still running after 30 s")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    print()
    print("| phase | endpoint | answered | p50 ms | p90 ms | p99 ms | max ms |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    fmt = lambda v: "-" if v is None else f"{v:.2f}"
    for phase, path, n, p50, p90, p99, top in rows:
        print(f"| {phase} | {path} | {n} | {fmt(p50)} | {fmt(p90)} | {fmt(p99)} | {fmt(top)} |")
    print()
    for note in notes:
        print(f"- {note}")
    failures = quiet_failures + stalled_failures + upload_failures
    print(f"- failed requests: {len(failures)}" + (f" ({failures[:5]})" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
