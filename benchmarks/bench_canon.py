"""CANON's speed and correctness: the native minlex core against the Python one, and through the socket.

    python3 benchmarks/bench_canon.py [--limit N] [--repeat 3] [--python-limit 300] [--socket]
                                      [--dedupe] [--check 300] [--check-grids 2]

In process, one core: the native ``_canon.minlex`` on every puzzle of each
set (sudoku17: 49,151 puzzles; top1465), then on their solutions (solved
grids), and the Python core (``canon.minlex9``) on ``--python-limit`` of
them; medians of ``--repeat`` runs, in puzzles per second; and the median
and upper-quartile rates of 500-call chunks, and the rate from each item's
best of 3 calls (on a shared machine: what one core does while this process
has it). ``--socket``
starts a server (``python3 -m sudoku_server``, the installed package) and
sends ``CANON <puzzle>`` for each, pipelined on one connection, timing until
the last reply. ``--dedupe`` counts the distinct forms of each set (sudoku17
holds 49,151 distinct puzzles). ``--check N`` compares the form of N puzzles
with the independent reference (``reference_minlex.py``, tens of ms each),
``--check-grids N`` N solved grids with its brute force over all 3,359,232
geometric transformations (numpy, seconds each).
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # datasets.py, corecheck.py; the package is the installed one (or PYTHONPATH's)

import corecheck  # noqa: E402
import datasets  # noqa: E402

from sudoku_server.sudoku import canon, solver  # noqa: E402
from sudoku_server.sudoku.grid import Grid  # noqa: E402

SETS = ("sudoku17_royle_49151.txt", "magictour_top1465.txt")


def cells_of(line: str) -> bytes:
    return bytes(0 if ch in "._0" else int(ch) for ch in line)


def rate(work, count: int, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return count / statistics.median(times)


#: Items per timed chunk of :func:`chunk_rate`.
CHUNK = 500


def item_rate(minlex, items: list[bytes], most: int = 5000) -> float:
    """Items per second from each item's best of 3 calls (on its first ``most`` items): the cost of the work
    itself, without the time the machine's other processes took (a 2-core machine shared by several)."""
    total = 0
    for item in items[:most]:
        best = None
        for _ in range(3):
            started = time.perf_counter_ns()
            minlex(item)
            spent = time.perf_counter_ns() - started
            best = spent if best is None or spent < best else best
        total += best or 0
    return min(len(items), most) / (total / 1e9)


def chunk_rate(minlex, items: list[bytes], repeat: int) -> tuple[float, float]:
    """The median and upper-quartile rates of chunks of :data:`CHUNK` calls over ``repeat`` runs: on a shared
    machine, the upper quartile is the rate of one core while this process has it (a chunk the scheduler
    preempted is slow)."""
    rates = []
    for _ in range(repeat):
        for start in range(0, len(items), CHUNK):
            chunk = items[start : start + CHUNK]
            started = time.perf_counter()
            for item in chunk:
                minlex(item)
            rates.append(len(chunk) / (time.perf_counter() - started))
    rates.sort()
    return statistics.median(rates), rates[len(rates) * 3 // 4]


def start_server() -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0"],
        cwd=corecheck.NEUTRAL_CWD,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    for raw in proc.stderr:
        line = raw.decode("utf-8", "replace")
        if "listening on 127.0.0.1:" in line:
            port = int(line.rsplit(":", 1)[1])
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
            return proc, port
    raise SystemExit("the server did not start")


def pipelined(port: int, lines: list[str]) -> tuple[float, list[bytes]]:
    """Seconds to send ``CANON <line>`` for every line on one connection and read every reply; the replies."""
    payload = "".join(f"CANON {line}\n" for line in lines).encode()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        started = time.perf_counter()

        def send() -> None:
            sock.sendall(payload)
            sock.shutdown(socket.SHUT_WR)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        chunks = []
        while True:
            data = sock.recv(1 << 16)
            if not data:
                break
            chunks.append(data)
        seconds = time.perf_counter() - started
        sender.join()
    return seconds, b"".join(chunks).splitlines()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--limit", type=int, default=0, help="puzzles per set (0: all)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--python-limit", type=int, default=300, help="puzzles the Python core is timed on")
    p.add_argument("--socket", action="store_true", help="also through a server's socket, pipelined")
    p.add_argument("--dedupe", action="store_true", help="count the distinct forms of each set")
    p.add_argument("--check", type=int, default=0, metavar="N", help="compare N puzzles with the reference")
    p.add_argument("--check-grids", type=int, default=0, metavar="N", help="compare N solved grids by brute force")
    corecheck.add_flag(p)
    args = p.parse_args()
    corecheck.require_native(solver.CORE, args.allow_python_core, "this process's solver")
    print(f"canon core: {canon.CORE}", flush=True)
    if canon.NATIVE is None and not args.allow_python_core:
        print("the native _canon extension is not built", file=sys.stderr)
        return 2
    minlex = canon.NATIVE.minlex if canon.NATIVE is not None else (lambda b: canon.minlex9(tuple(b)))
    server = None
    try:
        if args.socket:
            server = start_server()
            print(f"server core: {corecheck.server_core('127.0.0.1', server[1])}")
        for name in SETS:
            path = datasets.find(name)
            if path is None:
                print(f"{name}: not found")
                continue
            lines = datasets.one_line_puzzles(path, args.limit or None)
            puzzles = [cells_of(line) for line in lines]
            grids = [bytes(solver.solve(Grid(tuple(c))).cells) for c in puzzles]
            grid_lines = ["".join(map(str, g)) for g in grids]
            n = len(puzzles)
            native_p = rate(lambda: [minlex(c) for c in puzzles], n, args.repeat)
            native_g = rate(lambda: [minlex(g) for g in grids], n, args.repeat)
            few = puzzles[: args.python_limit]
            few_grids = grids[: max(1, args.python_limit // 10)]
            python_p = rate(lambda: [canon.minlex9(tuple(c)) for c in few], len(few), 1)
            python_g = rate(lambda: [canon.minlex9(tuple(g)) for g in few_grids], len(few_grids), 1)
            print(f"{name}: {n} puzzles, in process, one core (median of {args.repeat})")
            chunk_p = chunk_rate(minlex, puzzles, args.repeat)
            chunk_g = chunk_rate(minlex, grids, args.repeat)
            print(f"  native  puzzles {native_p:10,.0f}/s   solved grids {native_g:10,.0f}/s   (whole runs)")
            print(
                f"  native  puzzles {chunk_p[0]:10,.0f}/s   solved grids {chunk_g[0]:10,.0f}/s"
                f"   ({CHUNK}-call chunks, median)"
            )
            print(
                f"  native  puzzles {chunk_p[1]:10,.0f}/s   solved grids {chunk_g[1]:10,.0f}/s"
                f"   ({CHUNK}-call chunks, upper quartile)"
            )
            print(
                f"  native  puzzles {item_rate(minlex, puzzles):10,.0f}/s   solved grids"
                f" {item_rate(minlex, grids):10,.0f}/s   (each of the first 5000: best of 3 calls)"
            )
            print(
                f"  python  puzzles {python_p:10,.0f}/s   solved grids {python_g:10,.0f}/s"
                f"   (on {len(few)} and {len(few_grids)})"
            )
            if server is not None:
                port = server[1]
                sock_p = []
                sock_g = []
                for _ in range(args.repeat):
                    seconds, replies = pipelined(port, lines)
                    assert len(replies) == n and all(r.startswith(b"CANON ") for r in replies), replies[:3]
                    sock_p.append(n / seconds)
                    seconds, replies = pipelined(port, grid_lines)
                    assert len(replies) == n and all(r.startswith(b"CANON ") for r in replies), replies[:3]
                    sock_g.append(n / seconds)
                print(
                    f"  socket  puzzles {statistics.median(sock_p):10,.0f}/s   solved grids"
                    f" {statistics.median(sock_g):10,.0f}/s   (one connection, pipelined)"
                )
            if args.dedupe:
                distinct = len({minlex(c)[0] for c in puzzles})
                print(f"  dedupe: {n} puzzles, {distinct} distinct forms")
            if args.check:
                from reference_minlex import reference_minlex

                started = time.perf_counter()
                checked = puzzles[: args.check]
                for c in checked:
                    if tuple(minlex(c)[0]) != reference_minlex(tuple(c)):
                        print(f"  check: MISMATCH on {''.join(map(str, c))}")
                        return 1
                print(f"  check: {len(checked)} forms equal the reference's ({time.perf_counter() - started:.1f} s)")
            if args.check_grids:
                from reference_minlex import brute_force_grid

                started = time.perf_counter()
                for g in grids[: args.check_grids]:
                    if tuple(minlex(g)[0]) != brute_force_grid(tuple(g)):
                        print(f"  check: MISMATCH on grid {''.join(map(str, g))}")
                        return 1
                print(
                    f"  check: {min(n, args.check_grids)} grid forms equal the brute force over 3,359,232"
                    f" transformations ({time.perf_counter() - started:.1f} s)"
                )
    finally:
        if server is not None:
            server[0].terminate()
            server[0].wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
