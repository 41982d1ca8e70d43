"""Another client's easy-SOLVE latency while one client pipelines symmetric CANONs (issue 32).

    PYTHONPATH=/path/to/tree python3 benchmarks/bench_canon_fairness.py [--canons 300] [--probes 100] [--runs 3]
        [--server-args "--solver-threads 2"]

Starts a server (``python -m sudoku_server``, the tree ``PYTHONPATH`` names),
then per run: a baseline (``--probes`` easy SOLVEs, one at a time, each on a
fresh connection, 20 ms apart), and the same probes while one connection
sends ``--canons`` pipelined ``CANON`` lines of two bands of the most
symmetric grid (648 automorphisms: 20-80 ms each in the native core) and
reads their answers. Prints the probes' p50/p90/p99 in ms for both, and the
time the CANON client took; the medians of ``--runs``. Issue 32's
yardstick: the loaded p99 <= max(10x the unloaded p90, 250 ms).
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SYMMETRIC = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
TWO_BANDS = SYMMETRIC[:54] + "." * 27
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, extra: list[str]) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
        + extra,
        cwd=tempfile.gettempdir(),
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not start")


def probe(port: int) -> float:
    """Seconds from sending one easy SOLVE on a fresh connection to its answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        started = time.perf_counter()
        sock.sendall(EASY.encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
        elapsed = time.perf_counter() - started
    if len(data) != 82:
        raise SystemExit(f"unexpected reply {data!r}")
    return elapsed


def probes(port: int, count: int, stop: threading.Event | None = None) -> list[float]:
    times = []
    for _ in range(count):
        if stop is not None and stop.is_set():
            break
        times.append(probe(port))
        time.sleep(0.02)
    return times


def canon_client(port: int, count: int, done: threading.Event, took: list[float]) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        started = time.perf_counter()
        sock.sendall(b"".join(f"CANON {TWO_BANDS}\n".encode() for _ in range(count)))
        sock.shutdown(socket.SHUT_WR)
        lines = 0
        while lines < count:
            chunk = sock.recv(65536)
            if not chunk:
                break
            lines += chunk.count(b"\n")
        took.append(time.perf_counter() - started)
    done.set()


def quantiles(times: list[float]) -> tuple[float, float, float]:
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return at(0.5), at(0.9), at(0.99)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--canons", type=int, default=300)
    parser.add_argument("--probes", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--server-args", default="")
    args = parser.parse_args()
    port = free_port()
    server = start_server(port, args.server_args.split())
    rows = []
    try:
        for run in range(args.runs):
            base = quantiles(probes(port, args.probes))
            done = threading.Event()
            took: list[float] = []
            heavy = threading.Thread(target=canon_client, args=(port, args.canons, done, took))
            heavy.start()
            time.sleep(0.05)
            loaded = quantiles(probes(port, args.probes, done))
            heavy.join()
            rows.append((*base, *loaded, took[0] if took else float("nan")))
            print(
                f"run {run + 1}: unloaded p50/p90/p99 {base[0]:.1f}/{base[1]:.1f}/{base[2]:.1f} ms;"
                f" during {args.canons} CANONs {loaded[0]:.1f}/{loaded[1]:.1f}/{loaded[2]:.1f} ms;"
                f" the CANON client took {rows[-1][6]:.2f} s",
                flush=True,
            )
    finally:
        server.kill()
        server.wait()
    med = [statistics.median(column) for column in zip(*rows)]
    print(
        f"median: unloaded p50/p90/p99 {med[0]:.1f}/{med[1]:.1f}/{med[2]:.1f} ms;"
        f" loaded {med[3]:.1f}/{med[4]:.1f}/{med[5]:.1f} ms; CANON client {med[6]:.2f} s;"
        f" yardstick p99 <= {max(10 * med[1], 250):.0f} ms"
    )


if __name__ == "__main__":
    main()
