#!/usr/bin/env python3
"""The explorer while clients read its answers slowly: `dtype-lattice serve`
(release build) on a free loopback port; N clients each post the largest
lattice the limits allow for its answer (500 nodes below 500 others, every
pair an edge: 250,000 edges, 1.95 MB of JSON; its drawing alone weighed
47 MB) and read the answer at R bytes a second, with a small receive
buffer so that their kernel does not read for them; meanwhile one client
asks GET /api/info every 200 ms. Reports the server's resident memory
(VmRSS, sampled every 100 ms) before and at its peak, what each client was
answered and read, and /api/info's latencies. Every client and the whole
run are bounded in time; traffic goes to 127.0.0.1 only. Python's
standard library only. BENCHMARKS.md ("Clients that read slowly") has results.

    python3 bench/serve_slow_readers.py            # builds the release binary first
    DTYPE_LATTICE_BIN=path/to/dtype-lattice python3 bench/serve_slow_readers.py
    python3 bench/serve_slow_readers.py --clients 20 --rate 200000 --seconds 60
"""

import argparse
import json
import signal
import socket
import statistics
import subprocess
import threading
import time

# The release binary and the server's memory, read as the stalled-client
# benchmark reads them (this script runs from bench/, beside it).
from serve_stalled import binary, resident_mib



def lattice(n=500):
    return json.dumps({f"a{i}": [f"b{j}" for j in range(n)] for i in range(n)}).encode()


def slow_reader(port, body, rate, seconds, result):
    """Posts `body` and reads the answer at `rate` bytes a second."""
    start = time.monotonic()
    result.update(status=None, read=0, took=None, ended="time")
    try:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 << 10)
        sock.settimeout(seconds)
        sock.connect(("127.0.0.1", port))
        head = (
            f"POST /api/lattice HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        sock.sendall(head.encode() + body)
        chunk = max(1, rate // 10)
        first = b""
        while time.monotonic() - start < seconds:
            data = sock.recv(chunk)
            if not data:
                result["ended"] = "closed"
                break
            if len(first) < 1024:
                first += data
                if result["status"] is None and len(first) >= 12:
                    result["status"] = int(first[9:12])
                    result["answered_after"] = time.monotonic() - start
            result["read"] += len(data)
            time.sleep(0.1)
        sock.close()
        if result["status"] != 200 and b'"message":"' in first:
            result["message"] = first.split(b'"message":"')[1].split(b'"')[0].decode()
    except OSError as err:
        result["ended"] = type(err).__name__
    result["took"] = time.monotonic() - start


def info_client(port, stop, latencies, failures):
    while not stop.is_set():
        start = time.monotonic()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(
                    f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    "Connection: close\r\n\r\n".encode()
                )
                answer = b""
                while True:
                    data = sock.recv(65536)
                    if not data:
                        break
                    answer += data
            if answer.startswith(b"HTTP/1.1 200"):
                latencies.append((time.monotonic() - start) * 1000)
            else:
                failures.append(answer[:40])
        except OSError as err:
            failures.append(repr(err))
        stop.wait(0.2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--rate", type=int, default=200_000, help="bytes a second")
    parser.add_argument("--seconds", type=float, default=60, help="each client's bound")
    args = parser.parse_args()
    body = lattice()
    server = subprocess.Popen(
        [binary(), "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    line = server.stdout.readline()
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    time.sleep(0.3)
    before = resident_mib(server.pid)
    stop = threading.Event()
    latencies, failures = [], []
    info = threading.Thread(target=info_client, args=(port, stop, latencies, failures))
    info.start()
    results = [{} for _ in range(args.clients)]
    readers = [
        threading.Thread(target=slow_reader, args=(port, body, args.rate, args.seconds, r))
        for r in results
    ]
    start = time.monotonic()
    for reader in readers:
        reader.start()
    peak, samples = before, []
    while any(r.is_alive() for r in readers) and time.monotonic() - start < args.seconds + 5:
        rss = resident_mib(server.pid)
        peak = max(peak, rss)
        samples.append((round(time.monotonic() - start, 1), round(rss)))
        time.sleep(0.1)
    for reader in readers:
        reader.join(timeout=5)
    stop.set()
    info.join(timeout=10)
    after = resident_mib(server.pid)
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    statuses = {}
    for r in results:
        statuses[r.get("status")] = statuses.get(r.get("status"), 0) + 1
    answered = [r for r in results if r.get("status") == 200]
    print(f"clients {args.clients}, reading at {args.rate} B/s, lattice {len(body)} bytes")
    print(f"server RSS: before {before:.0f} MiB, peak {peak:.0f} MiB, after {after:.0f} MiB")
    print(f"answers: {statuses}")
    if answered:
        reads = sorted(r["read"] for r in answered)
        tooks = sorted(r["took"] for r in answered)
        print(
            f"200s: read {reads[0]}..{reads[-1]} bytes, ended after {tooks[0]:.1f}..{tooks[-1]:.1f} s, "
            f"ends {sorted(set(r['ended'] for r in answered))}"
        )
    refusals = {}
    for r in results:
        if r.get("message"):
            refusals[r["message"]] = refusals.get(r["message"], 0) + 1
    for message, count in refusals.items():
        print(f"  {count} x {message}")
    if latencies:
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        print(
            f"/api/info: {len(latencies)} answered, {len(failures)} failed, "
            f"p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms"
        )
    print("RSS samples (s, MiB), every 2 s:", samples[::20])


if __name__ == "__main__":
    main()
