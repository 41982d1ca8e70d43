"""The HTTP/JSON front (issue 21): its server CPU per request, its latency under hostile load, slowloris clients.

Three parts (``--parts``, all by default), each against a server started here
(``python3 -m sudoku_server --port 0 --http-port 0``, from :data:`corecheck.NEUTRAL_CWD`):

``cpu``
    Single-puzzle ``POST /api/v1/solve`` requests over 16 keep-alive
    connections (each its share of the dataset, one request at a time), 0 errors
    allowed: the server's CPU per request (``/proc/PID/stat``) against the raw
    in-process solve of the same puzzles (``sudoku.solver.solve``) measured in
    this process in the same run (target: at most 40x). Then the batch form
    (``{"puzzles": [...]}`` of up to 1000, one connection) against one pipelined
    line connection carrying the same puzzles: server CPU per puzzle (target: at
    most 3x). The sides alternate, ``--rounds`` times; medians.

``hostile``
    8 connections pipelining the 16 minimal 25x25 puzzles (frisch16) on the
    line port, again and again, while a new HTTP client asks an easy 9x9 solve
    every 0.1 s: its p99 (target: at most 1 s).

``slowloris``
    200 HTTP clients sending one header byte a second (reconnecting when
    closed) for ``--seconds``: the server's RSS growth (target: at most 20 MB)
    and the line port's easy-puzzle p99 with and without them (target: at most
    100 ms with them).

``body`` (issue 32)
    Three 1 MiB POSTs of one-digit lines (``{"puzzle": "1\\n1\\n..."}``, just under the body limit), one after
    another, while a line client asks an easy solve every 20 ms: its p99 against max(10x its unloaded p90, 250 ms),
    and the server's RSS (peak, and 3 s after, over its RSS before; target: peak at most 64 MB more).

``reset`` (issue 32)
    A STEPS batch of 200 hard puzzles whose client resets after 1 s: the server's CPU 0-1, 1-4 and 4-8 s after
    the reset (target: the work stops within 1 s; at most 25% of a core from 4 s on).

``unread`` (issue 32)
    Six clients (six loopback addresses) POST a STEPS batch of 1,000 puzzles (about 10 MB of reply) each and
    never read, under ``--idle-timeout 20``: the server's RSS 5, 25 and 75 s later (target: 50 MB in all at 75 s).

``slowbody`` (issue 32)
    500 connections (another process) sending ``GET /static/app.js`` with ``Content-Length: 100000000`` and one
    body byte every 3 s: how many are still open after 20 s (target: none), and the line port's easy p99.

``--before PATH`` runs the parts that take it (cpu, body, reset, unread, slowbody) against another checkout first
(``PYTHONPATH=PATH``, its C extensions built in place): BEFORE and AFTER in one run.

Usage::

    python3 benchmarks/bench_http.py
    python3 benchmarks/bench_http.py --parts cpu --limit 1465 --rounds 3
    python3 benchmarks/bench_http.py --parts hostile,slowloris --seconds 10
    python3 benchmarks/bench_http.py --parts cpu,body,reset --before /path/to/main

Standard library and the project only; the solver core is printed, and a
pure-Python one is refused (exit status 2) unless ``--allow-python-core``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import corecheck  # benchmarks/corecheck.py, beside this script
import datasets

REPO = Path(__file__).resolve().parent.parent

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
TICKS = os.sysconf("SC_CLK_TCK")


class Server:
    """A server subprocess with ``--http-port``: its line port, HTTP port, CPU seconds and RSS."""

    def __init__(self, *args: str, tree: str | None = None) -> None:
        env = dict(os.environ)
        if tree:  # the server of another checkout (a BEFORE tree), built in place
            env["PYTHONPATH"] = tree
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", "--http-port", "0", *args],
            cwd=corecheck.NEUTRAL_CWD,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.port = self.http_port = 0
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if "listening on 127.0.0.1:" in line:
                self.port = int(line.rsplit(":", 1)[1])
            if "HTTP on http://127.0.0.1:" in line:
                self.http_port = int(line.split("127.0.0.1:", 1)[1].split("/", 1)[0])
                break
        if not self.http_port:
            raise SystemExit("the server did not start")
        threading.Thread(target=lambda: [None for _ in self.proc.stderr or ()], daemon=True).start()

    def cpu(self) -> float:
        """CPU seconds (user + system) the server process used so far."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss_kb(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def post(conn: http.client.HTTPConnection, path: str, body: dict) -> tuple[int, dict]:
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    return response.status, json.loads(response.read())


# -- cpu ----------------------------------------------------------------------------------


def raw_solve(puzzles: list[str]) -> float:
    """Seconds of CPU per puzzle of the in-process solve (the native core, no text, no socket)."""
    from sudoku_server.sudoku import solver
    from sudoku_server.sudoku.grid import Grid

    grids = [Grid.from_string(p) for p in puzzles]
    started = time.process_time()
    for grid in grids:
        solver.solve(grid)
    return (time.process_time() - started) / len(grids)


def http_singles(server: Server, puzzles: list[str], connections: int = 16) -> tuple[float, int]:
    """Server CPU seconds per single-puzzle request over ``connections`` keep-alive connections; errors."""
    errors = [0]
    shares = [puzzles[i::connections] for i in range(connections)]

    def one(share: list[str]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=60)
        for puzzle in share:
            status, reply = post(conn, "/api/v1/solve", {"puzzle": puzzle})
            if status != 200 or len(reply.get("solution", "")) != 81:
                errors[0] += 1
        conn.close()

    threads = [threading.Thread(target=one, args=(share,)) for share in shares]
    before = server.cpu()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return (server.cpu() - before) / len(puzzles), errors[0]


def http_batch(server: Server, puzzles: list[str], size: int = 1000) -> tuple[float, int]:
    """Server CPU seconds per puzzle of the batch form (``size`` a request, one connection); errors."""
    errors = 0
    conn = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=60)
    before = server.cpu()
    for i in range(0, len(puzzles), size):
        status, reply = post(conn, "/api/v1/solve", {"puzzles": puzzles[i : i + size]})
        results = reply.get("results", [])
        errors += (
            (status != 200)
            + sum(1 for r in results if "solution" not in r)
            + (len(results) != len(puzzles[i : i + size]))
        )
    used = server.cpu() - before
    conn.close()
    return used / len(puzzles), errors


def line_pipelined(server: Server, puzzles: list[str]) -> tuple[float, int]:
    """Server CPU seconds per puzzle of one pipelined line connection; errors."""
    data = ("\n".join(puzzles) + "\n").encode()
    before = server.cpu()
    sock = socket.create_connection(("127.0.0.1", server.port))
    sender = threading.Thread(target=lambda: (sock.sendall(data), sock.shutdown(socket.SHUT_WR)))
    sender.start()
    chunks = []
    while chunk := sock.recv(1 << 16):
        chunks.append(chunk)
    sender.join()
    sock.close()
    used = server.cpu() - before
    lines = b"".join(chunks).split(b"\n")[: len(puzzles)]
    return used / len(puzzles), sum(1 for line in lines if len(line) != 81)


def part_cpu(opts: argparse.Namespace) -> None:
    """Every tree's server (``--before``: both) up at once, measured in turn within each round (the order
    alternating), so that the machine's load falls on both sides alike; medians per tree."""
    path = datasets.find(opts.dataset)
    if path is None:
        raise SystemExit(f"no dataset {opts.dataset}")
    puzzles = datasets.one_line_puzzles(path, opts.limit)
    labelled = trees(opts)
    servers = [Server(tree=tree) for _, tree in labelled]
    figures: list[dict[str, list[float]]] = [{"raw": [], "single": [], "line": [], "batch": []} for _ in servers]
    errors = [0 for _ in servers]
    try:
        for server in servers:
            corecheck.require_native(corecheck.server_core("127.0.0.1", server.port), opts.allow_python_core, "server")
            http_singles(server, puzzles[:200])  # warm up (imports, first allocations)
        for round_ in range(opts.rounds):
            order = list(range(len(servers)))
            if round_ % 2:
                order.reverse()
            for i in order:
                server, mine = servers[i], figures[i]
                mine["raw"].append(raw_solve(puzzles))
                for name, measure in (("single", http_singles), ("line", line_pipelined), ("batch", http_batch)):
                    cpu, bad = measure(server, puzzles)
                    mine[name].append(cpu)
                    errors[i] += bad
    finally:
        for server in servers:
            server.stop()
    print(f"dataset {opts.dataset}: {len(puzzles)} puzzles, {opts.rounds} round(s), medians")
    print(
        "| tree | raw solve | HTTP single request (16 keep-alive connections) | ratio | target | line, pipelined |"
        " HTTP batch per puzzle | ratio | target | errors |"
    )
    print("|---|---:|---:|---:|---|---:|---:|---:|---|---:|")
    for (label, _), mine, bad in zip(labelled, figures, errors):
        raw, single, line, batch = (statistics.median(mine[k]) for k in ("raw", "single", "line", "batch"))
        # the server's CPU clock counts in ticks (10 ms): a small --limit may measure 0 for the line side
        versus = f"{batch / line:.2f}x line" if line > 0 else "(under one clock tick)"
        print(
            f"| {label} | {raw * 1e6:.1f} µs | {single * 1e6:.1f} µs | {single / raw:.1f}x raw | <= 40x |"
            f" {line * 1e6:.1f} µs | {batch * 1e6:.1f} µs | {versus} | <= 3x | {bad} |"
        )
    for (label, _), mine in zip(labelled, figures):
        rounds = ", ".join(f"{v * 1e6:.0f}" for v in mine["single"])
        print(f"{label}: single-request µs per round: {rounds}")


def trees(opts: argparse.Namespace) -> list[tuple[str, str | None]]:
    """``[(label, tree)]``: this tree, and with ``--before PATH`` that one first (BEFORE, then AFTER)."""
    if not opts.before:
        return [("this tree", None)]
    return [(f"BEFORE ({opts.before})", opts.before), ("AFTER (this tree)", None)]


# -- hostile ----------------------------------------------------------------------------------


def probe_http(port: int) -> float:
    """Seconds for a new HTTP client's easy solve (connect, POST, answer)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    status, reply = post(conn, "/api/v1/solve", {"puzzle": EASY})
    conn.close()
    if status != 200:
        return float("inf")
    return time.perf_counter() - started


def probe_line(port: int) -> float:
    """Seconds for a new line client's easy solve."""
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(EASY.encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    if len(data) != 82:
        return float("inf")
    return time.perf_counter() - started


def probes(fn, port: int, seconds: float, spacing: float = 0.1) -> list[float]:
    """``fn(port)`` every ``spacing`` s (each in its own thread) for ``seconds``: the latencies."""
    results: list[float] = []
    threads = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        thread = threading.Thread(target=lambda: results.append(fn(port)))
        thread.start()
        threads.append(thread)
        time.sleep(spacing)
    for thread in threads:
        thread.join()
    return results


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def part_hostile(opts: argparse.Namespace) -> None:
    path = datasets.find("gecode_25x25_frisch16.txt")
    assert path is not None
    with datasets.open_text(path) as f:
        big = [line.strip() for line in f if len(line.strip()) == 625]
    payload = ("\n".join(big) + "\n").encode()
    server = Server()
    stop = threading.Event()

    def attacker() -> None:
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
                    sock.sendall(payload)
                    sock.shutdown(socket.SHUT_WR)
                    while not stop.is_set() and sock.recv(65536):
                        pass
            except OSError:
                time.sleep(0.1)

    try:
        probe_http(server.http_port)
        attackers = [threading.Thread(target=attacker, daemon=True) for _ in range(8)]
        for thread in attackers:
            thread.start()
        time.sleep(1.0)
        latencies = probes(probe_http, server.http_port, opts.seconds)
        stop.set()
    finally:
        server.stop()
    print(f"hostile: 8 line connections pipelining frisch16 25x25; {len(latencies)} HTTP easy solves, one per 0.1 s")
    print("| measure | p50 | p99 | max | target |")
    print("|---|---:|---:|---:|---|")
    print(
        f"| HTTP easy solve under hostile load | {statistics.median(latencies) * 1000:.0f} ms |"
        f" {p99(latencies) * 1000:.0f} ms | {max(latencies) * 1000:.0f} ms | p99 <= 1000 ms |"
    )


# -- slowloris ------------------------------------------------------------------------------------


def slowloris(port: int, clients: int, seconds: float, opened) -> None:
    """In a child process (its own interpreter lock): ``clients`` connections, each sending one header byte a
    second, reopened when the server closes them, for ``seconds``; ``opened.value``: connections opened."""
    request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"a" * 4000 + b"\r\n\r\n"
    socks: list[tuple[socket.socket, int]] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tick = time.monotonic()
        kept = []
        for sock, sent in socks:
            try:
                sock.send(request[sent : sent + 1])
                kept.append((sock, sent + 1))
            except OSError:
                sock.close()
        while len(kept) < clients:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            except OSError:
                break
            opened.value += 1
            kept.append((sock, 0))
        socks = kept
        time.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
    for sock, _ in socks:
        sock.close()


def part_slowloris(opts: argparse.Namespace) -> None:
    import multiprocessing

    server = Server()
    opened = multiprocessing.Value("i", 0)
    try:
        for _ in range(20):
            probe_line(server.port)
        baseline = probes(probe_line, server.port, opts.seconds / 2, 0.05)
        rss_before = server.rss_kb()
        child = multiprocessing.Process(target=slowloris, args=(server.http_port, 200, opts.seconds + 2, opened))
        child.start()
        peak = rss_before
        sampler_stop = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not sampler_stop.is_set():
                peak = max(peak, server.rss_kb())
                sampler_stop.wait(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        time.sleep(1.0)
        loaded = probes(probe_line, server.port, opts.seconds, 0.05)
        http_ok = probe_http(server.http_port)
        child.join()
        sampler_stop.set()
        sampler.join()
    finally:
        server.stop()
    print(
        f"slowloris: 200 HTTP clients (another process) sending one header byte a second for {opts.seconds:g} s"
        f" ({opened.value} connections opened); line easy solves every 50 ms"
    )
    print("| measure | value | target |")
    print("|---|---:|---|")
    print(f"| server RSS growth (peak - before) | {(peak - rss_before) / 1024:.1f} MB | <= 20 MB |")
    print(
        f"| line easy p99 without / with them | {p99(baseline) * 1000:.1f} ms / {p99(loaded) * 1000:.1f} ms |"
        f" with <= 100 ms |"
    )
    print(f"| an HTTP easy solve meanwhile | {http_ok * 1000:.1f} ms | |")


# -- slowbody (issue 32) -----------------------------------------------------------------------


def slow_bodies(port: int, clients: int, seconds: float, still_open) -> None:
    """In a child process: ``clients`` connections each sending ``GET /static/app.js`` with ``Content-Length:
    100000000`` and one body byte every 3 s (never reopened); ``still_open.value``: those the server has not
    closed after ``seconds``."""
    import select

    socks = []
    for _ in range(clients):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            break
        sock.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\nx")
        sock.setblocking(False)
        socks.append(sock)
    open_ = dict.fromkeys(socks, True)
    end = time.monotonic() + seconds
    next_byte = time.monotonic() + 3
    while time.monotonic() < end:
        readable, _, _ = select.select([s for s in socks if open_[s]], [], [], 0.5)
        for sock in readable:
            try:
                while sock.recv(65536):
                    pass
                open_[sock] = False  # EOF: the server closed it
            except BlockingIOError:
                pass
            except OSError:
                open_[sock] = False
        if time.monotonic() >= next_byte:
            next_byte += 3
            for sock in socks:
                if open_[sock]:
                    try:
                        sock.send(b"x")
                    except OSError:
                        open_[sock] = False
    still_open.value = sum(open_.values())
    for sock in socks:
        sock.close()


def part_slowbody(opts: argparse.Namespace) -> None:
    """500 slow-body connections on a static route (``slow_bodies``) for 20 s: how many the server still holds
    (target: none, the documented body timeout is 10 s), and the line port's easy p99 without and with them."""
    import multiprocessing

    print("| tree | slow-body connections | still open after 20 s | line easy p99 without | with | target |")
    print("|---|---:|---:|---:|---:|---|")
    for label, tree in trees(opts):
        server = Server(tree=tree)
        still_open = multiprocessing.Value("i", -1)
        try:
            for _ in range(20):
                probe_line(server.port)
            baseline = probes(probe_line, server.port, 3, 0.05)
            child = multiprocessing.Process(target=slow_bodies, args=(server.http_port, 500, 20.0, still_open))
            child.start()
            time.sleep(1.0)
            loaded = probes(probe_line, server.port, 15, 0.05)
            child.join()
        finally:
            server.stop()
        print(
            f"| {label} | 500 | {still_open.value} | {p99(baseline) * 1000:.1f} ms | {p99(loaded) * 1000:.1f} ms |"
            " 0 open; p99 <= max(10x unloaded p90, 250 ms) |"
        )


# -- body (issue 32) ---------------------------------------------------------------------------


def probe_series(fn, port: int, stop: threading.Event, spacing: float = 0.02) -> list[float]:
    """``fn(port)`` one after another (``spacing`` apart) until ``stop`` is set: the latencies."""
    results: list[float] = []
    while not stop.is_set():
        results.append(fn(port))
        time.sleep(spacing)
    return results


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def part_body(opts: argparse.Namespace) -> None:
    """A 1 MiB POST of one-digit lines (``{"puzzle": "1\\n1\\n..."}``), three times: another client's easy line
    SOLVE (p99 against max(10x its unloaded p90, 250 ms)) and the server's RSS (peak and 3 s after, against its RSS
    before: peak at most 64 MB more)."""
    body = json.dumps({"puzzle": "1\n" * ((1024 * 1024 - 32) // 3)}).encode()  # just under the 1 MiB limit
    print(
        "| tree | statuses, time of the 3 POSTs | line easy p90 unloaded | p99 during | target | RSS before | peak |"
        " 3 s after |"
    )
    print("|---|---|---:|---:|---|---:|---:|---:|")
    for label, tree in trees(opts):
        server = Server(tree=tree)
        try:
            for _ in range(20):
                probe_line(server.port)
            stop = threading.Event()
            threading.Timer(opts.seconds / 2, stop.set).start()
            unloaded = probe_series(probe_line, server.port, stop)
            rss_before = server.rss_kb()
            peak = [rss_before]
            stop = threading.Event()
            loaded: list[float] = []
            prober = threading.Thread(target=lambda: loaded.extend(probe_series(probe_line, server.port, stop)))

            def sample() -> None:
                while not stop.is_set():
                    peak[0] = max(peak[0], server.rss_kb())
                    time.sleep(0.02)

            sampler = threading.Thread(target=sample)
            prober.start()
            sampler.start()
            statuses = []
            started = time.perf_counter()
            for _ in range(3):
                conn = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=120)
                conn.request("POST", "/api/v1/solve", body=body)
                response = conn.getresponse()
                response.read()
                statuses.append(response.status)
                conn.close()
            posts = time.perf_counter() - started
            time.sleep(0.5)
            stop.set()
            prober.join()
            sampler.join()
            time.sleep(3)
            rss_after = server.rss_kb()
        finally:
            server.stop()
        p90, p99_loaded = quantile(unloaded, 0.9), quantile(loaded, 0.99)
        target = max(10 * p90, 0.25)
        print(
            f"| {label} | {statuses} in {posts:.2f} s | {p90 * 1000:.1f} ms | {p99_loaded * 1000:.1f} ms"
            f" (max {max(loaded) * 1000:.0f} ms, {len(loaded)} probes) | <= {target * 1000:.0f} ms |"
            f" {rss_before / 1024:.0f} MB | +{(peak[0] - rss_before) / 1024:.0f} MB | +{(rss_after - rss_before) / 1024:.0f} MB |"
        )


# -- reset (issue 32) ---------------------------------------------------------------------------


def part_reset(opts: argparse.Namespace) -> None:
    """A batch of the hardest puzzles' STEPS whose client resets after 1 s: the server's CPU from 1 s and from 4 s
    after the reset (target: the job stops within 1 s; at most 25% of a core from 4 s on)."""
    import struct

    path = datasets.find(opts.dataset)
    if path is None:
        raise SystemExit(f"no dataset {opts.dataset}")
    puzzles = datasets.one_line_puzzles(path, 200)
    body = json.dumps({"puzzles": puzzles}).encode()
    print("| tree | server CPU 0-1 s after the reset | 1-4 s | 4-8 s | target |")
    print("|---|---:|---:|---:|---|")
    for label, tree in trees(opts):
        server = Server(tree=tree)
        try:
            sock = socket.create_connection(("127.0.0.1", server.http_port))
            sock.sendall(b"POST /api/v1/steps HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            time.sleep(1.0)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
            reset_cpu = server.cpu()
            time.sleep(1.0)
            one = server.cpu()
            time.sleep(3.0)
            four = server.cpu()
            time.sleep(4.0)
            eight = server.cpu()
        finally:
            server.stop()
        print(
            f"| {label} | {(one - reset_cpu) * 100:.0f}% | {(four - one) / 3 * 100:.0f}% |"
            f" {(eight - four) / 4 * 100:.0f}% | <= 25% from 4 s |"
        )


# -- unread (issue 32) ---------------------------------------------------------------------------


def part_unread(opts: argparse.Namespace) -> None:
    """Six clients (six addresses, 127.0.0.2 to .7) each POST a STEPS batch of 1,000 puzzles (a reply of about
    10 MB) and never read it, under ``--idle-timeout 20``: the server's RSS over its RSS before, 5, 25 and 75 s
    later (target: at most 50 MB in all at 75 s), and the server CPU those 75 s."""
    rows = (REPO / "puzzles" / "kaggle_1000.csv").read_text().split("\n")[1:]
    puzzles = [row.split(",")[0] for row in rows if row][:1000]
    body = json.dumps({"puzzles": puzzles}).encode()
    request = b"POST /api/v1/steps HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
    print("| tree | RSS before | +5 s | +25 s | +75 s | server CPU in the 75 s | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for label, tree in trees(opts):
        server = Server("--idle-timeout", "20", tree=tree)
        socks = []
        try:
            before, cpu = server.rss_kb(), server.cpu()
            for i in range(6):
                sock = socket.socket()
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.bind((f"127.0.0.{i + 2}", 0))
                sock.connect(("127.0.0.1", server.http_port))
                sock.sendall(request)
                socks.append(sock)
            started = time.monotonic()
            held = []
            for mark in (5, 25, 75):
                time.sleep(max(0.0, started + mark - time.monotonic()))
                held.append((server.rss_kb() - before) / 1024)
            used = server.cpu() - cpu
        finally:
            for sock in socks:
                sock.close()
            server.stop()
        print(
            f"| {label} | {before / 1024:.0f} MB | +{held[0]:.0f} MB | +{held[1]:.0f} MB | +{held[2]:.0f} MB |"
            f" {used:.1f} s | <= 50 MB at 75 s |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--parts",
        default="cpu,hostile,slowloris",
        help="comma-separated: cpu, hostile, slowloris, body, reset, unread, slowbody",
    )
    parser.add_argument("--before", default=None, help="another checkout (built in place) measured first: BEFORE")
    parser.add_argument("--dataset", default="magictour_top1465.txt")
    parser.add_argument("--limit", type=int, default=None, help="puzzles of the dataset (cpu)")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the sides (cpu)")
    parser.add_argument("--seconds", type=float, default=10.0, help="probe time (hostile, slowloris)")
    corecheck.add_flag(parser)
    opts = parser.parse_args(argv)
    from sudoku_server.sudoku import solver

    corecheck.require_native(solver.CORE, opts.allow_python_core, "this process")
    print(f"machine: {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}")
    parts = {
        "cpu": part_cpu,
        "hostile": part_hostile,
        "slowloris": part_slowloris,
        "body": part_body,
        "reset": part_reset,
        "unread": part_unread,
        "slowbody": part_slowbody,
    }
    for name in opts.parts.split(","):
        parts[name.strip()](opts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
