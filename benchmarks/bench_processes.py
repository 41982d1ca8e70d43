"""Issue 17, processes: the metrics port under a scrape flood, all workers killed, the metrics child's restarts.

Usage (from the repository root; each TREE is a checkout whose server is run
as ``cd TREE && PYTHONPATH=TREE python3 -m sudoku_server ...``)::

    python3 benchmarks/bench_processes.py flood --trees BEFORE . --rounds 3
    python3 benchmarks/bench_processes.py rescue --trees BEFORE . --storm 14
    python3 benchmarks/bench_processes.py metrics-child --trees BEFORE .

``flood``: a single-process server with ``--metrics-port``; easy-SOLVE latency
(one connection per request, the newspaper puzzle as one line, half-close,
read the answer, checked) measured ``--solves`` times in three phases: alone;
under 8 scraper processes each looping ``GET /metrics`` as fast as it can; and
with 139 half-sent HTTP requests opened first, then the 8 scrapers. Printed
per phase: p50/p99 ms, scrapes/s that returned the metrics, and how many of
the 139 the server still held when the phase ended and 5 s after they were
opened (a connection the server closed reads as EOF).
Trees alternate within each round so that drift on the shared machine hits
both alike; the summary is the median over rounds.

``rescue``: ``--workers 2``; both slots' workers killed (SIGKILL, pids from
the supervisor's log) every 0.3 s for ``--storm`` seconds, then every worker;
the figure is the time until a puzzle is answered, and the log's last
restart line.

``metrics-child``: ``--workers 1 --metrics-port P`` with P taken; the metrics
child's deaths counted over 3 s, and the delays the log gives.

Each server's solver core (its startup log's ``core=``) is printed; a
pure-Python one is refused (exit status 2) unless ``--allow-python-core``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import corecheck  # benchmarks/corecheck.py, beside this script

PUZZLE = b"7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5\n"
SOLUTION = b"798635421126974583453218679972586314564123897381497256617352948835749162249861735\n"
HALF_SENT = b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
PORTS = iter(range(21100, 21999))
#: --allow-python-core (set by main).
ALLOW_PYTHON = [False]


class Server:
    """``python3 -m sudoku_server`` from ``tree`` on 127.0.0.1, its stderr read by a thread."""

    def __init__(self, tree: str, *args: str) -> None:
        self.port = next(PORTS)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(self.port), *args],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(Path(tree).resolve())},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        core = self.wait_for(r"core=(\w+)")[0]
        if core != "native" and not ALLOW_PYTHON[0]:
            self.stop()
        corecheck.require_native(core, ALLOW_PYTHON[0], f"the server of {tree}")

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self.lines.append(raw.decode("utf-8", "replace"))

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_for(self, pattern: str, count: int = 1, timeout: float = 20) -> list:
        deadline = time.monotonic() + timeout
        while len(found := re.findall(pattern, self.log)) < count:
            if time.monotonic() > deadline:
                raise SystemExit(f"{pattern!r} not in the log:\n{self.log}")
            time.sleep(0.05)
        return found

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.reader.join(5)


def solve_once(port: int) -> float:
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(PUZZLE)
        sock.shutdown(socket.SHUT_WR)
        answer = sock.makefile("rb").read()
    took = time.perf_counter() - started
    if answer != SOLUTION:
        raise SystemExit(f"wrong answer: {answer!r}")
    return took


def latencies(port: int, count: int) -> tuple[float, float]:
    """p50 and p99 of ``count`` easy solves, in ms."""
    times = sorted(solve_once(port) for _ in range(count))
    return times[len(times) // 2] * 1000, times[min(len(times) - 1, int(len(times) * 0.99))] * 1000


def scraper(port: int, stop, counter) -> None:
    """One scrape loop (a process): GET /metrics, read to the end, again."""
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(b"GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n")
                reply = b""
                while chunk := sock.recv(65536):
                    reply += chunk
            if reply.startswith(b"HTTP/1.0 200") and b"sudoku_connections_total" in reply:
                with counter.get_lock():
                    counter.value += 1  # a scrape that returned the metrics
        except OSError:
            time.sleep(0.001)


def still_held(socks: list[socket.socket]) -> int:
    """How many of ``socks`` the server has not closed (a closed one reads as EOF or an error)."""
    held = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            if sock.recv(1, socket.MSG_PEEK):
                continue  # a reply: the server answered what it had
            continue  # EOF
        except BlockingIOError:
            held += 1
        except OSError:
            pass
    return held


def flood_phase(port: int, metrics_port: int, solves: int, scrapers: int, half_open: int) -> dict:
    socks = []
    opened = time.monotonic()
    for _ in range(half_open):
        sock = socket.create_connection(("127.0.0.1", metrics_port), timeout=5)
        sock.sendall(HALF_SENT)
        socks.append(sock)
    stop = multiprocessing.Event()
    counter = multiprocessing.Value("l", 0)
    procs = [multiprocessing.Process(target=scraper, args=(metrics_port, stop, counter)) for _ in range(scrapers)]
    for proc in procs:
        proc.start()
    time.sleep(0.5 if scrapers else 0)
    before, started = counter.value, time.monotonic()
    p50, p99 = latencies(port, solves)
    took = time.monotonic() - started
    rate = (counter.value - before) / took
    stop.set()
    for proc in procs:
        proc.join(10)
    held = still_held(socks)
    time.sleep(max(0.0, opened + 5 - time.monotonic()) if socks else 0)
    held_5s = still_held(socks)
    for sock in socks:
        sock.close()
    return {"p50": p50, "p99": p99, "scrapes/s": rate, "held": held, "held after 5 s": held_5s, "seconds": took}


def flood(args) -> None:
    results: dict[tuple[str, str], list[dict]] = {}
    phases = [("alone", 0, 0), ("8 scrapers", 8, 0), ("139 half-open + 8 scrapers", 8, 139)]
    for round_ in range(args.rounds):
        trees = args.trees if round_ % 2 == 0 else list(reversed(args.trees))
        for tree in trees:
            metrics_port = next(PORTS)
            server = Server(tree, "--metrics-port", str(metrics_port))
            try:
                server.wait_for(r"metrics on http")
                latencies(server.port, 50)  # warm up
                for name, scrapers, half_open in phases:
                    row = flood_phase(server.port, metrics_port, args.solves, scrapers, half_open)
                    results.setdefault((tree, name), []).append(row)
                    print(
                        f"round {round_} {tree:16} {name:28} p50 {row['p50']:6.2f} ms  p99 {row['p99']:6.2f} ms"
                        f"  scrapes/s {row['scrapes/s']:7.0f}  half-open still held {row['held']:3d}"
                        f" after {row['seconds']:.1f} s, {row['held after 5 s']:3d} after 5 s",
                        flush=True,
                    )
            finally:
                server.stop()
    print("\nmedians over rounds:")
    for (tree, name), rows in results.items():
        med = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
        print(
            f"{tree:16} {name:28} p50 {med['p50']:6.2f} ms  p99 {med['p99']:6.2f} ms"
            f"  scrapes/s {med['scrapes/s']:7.0f}  held {med['held']:.0f}, after 5 s {med['held after 5 s']:.0f}"
        )


def alive_workers(server: Server) -> set[int]:
    log = server.log
    started = {int(p) for p in re.findall(r"worker (\d+) started", log)}
    return started - {int(p) for p in re.findall(r"worker (\d+) died", log)}


def rescue(args) -> None:
    for tree in args.trees:
        server = Server(tree, "--workers", "2")
        try:
            server.wait_for(r"worker \d+ ready", 2)
            end = time.monotonic() + args.storm
            while time.monotonic() < end:
                for pid in alive_workers(server):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                time.sleep(0.3)
            time.sleep(0.3)
            for pid in alive_workers(server):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            killed = time.monotonic()
            while True:
                try:
                    took = solve_once(server.port) and time.monotonic() - killed
                    break
                except OSError:
                    time.sleep(0.01)
            last = [line.strip() for line in server.lines if " died " in line][-1]
            print(f"{tree:16} storm {args.storm:g} s: answered {took:.2f} s after every worker was killed")
            print(f"{'':16} last log line: {last}")
        finally:
            server.stop()


def metrics_child(args) -> None:
    for tree in args.trees:
        taken = socket.socket()
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = Server(tree, "--workers", "1", "--metrics-port", str(port))
        try:
            server.wait_for(r"worker \d+ ready")
            first = server.wait_for(r"metrics \d+ died")
            started = time.monotonic()
            count0 = len(first)
            time.sleep(3)
            deaths = re.findall(r"metrics \d+ died .*restarting it in ([\d.]+) s", server.log)
            rate = (len(deaths) - count0) / (time.monotonic() - started)
            print(f"{tree:16} metrics child: {len(deaths)} deaths in ~3 s ({rate:.1f}/s), delays logged {deaths[:8]}")
        finally:
            server.stop()
            taken.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["flood", "rescue", "metrics-child"])
    parser.add_argument("--trees", nargs="+", default=["."], help="checkouts to run, alternately")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--solves", type=int, default=400, help="easy solves per phase")
    parser.add_argument("--storm", type=float, default=14.0, help="seconds of killing before every worker is killed")
    corecheck.add_flag(parser)
    args = parser.parse_args()
    ALLOW_PYTHON[0] = args.allow_python_core
    {"flood": flood, "rescue": rescue, "metrics-child": metrics_child}[args.what](args)


if __name__ == "__main__":
    main()
