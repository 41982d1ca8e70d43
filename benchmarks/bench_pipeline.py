"""The batched server path (issue 12): puzzles through the socket against the same work in-process.

Two measurements, each alternating its two sides in one run (the machines are
shared and drift: quote the ratios):

``--mode ratio`` (default): one connection pipelines a dataset (every line
sent at once, answers read as they come; with ``--connections N`` N
connections at once, each its share: lines i, i + N, ...); against it, the same text-to-text
work in this process with no socket and no thread: the server's own
``Session`` parsing 4 KiB chunks, ``service.answer`` answering each puzzle and ``wire.replies.render`` rendering it
(parse, solve, verify, render). Every answer is compared byte for byte.

``--mode threads``: ``--connections`` connections each pipeline their share of
the dataset (repeated ``--repeat`` times), against a server with
``--solver-threads 1`` and one with ``--solver-threads 2``, alternately.

Usage::

    python3 benchmarks/bench_pipeline.py --dataset kaggle_bryanpark_first10000.csv --pairs 5
    python3 benchmarks/bench_pipeline.py --dataset magictour_top1465.txt --pairs 5
    python3 benchmarks/bench_pipeline.py --dataset magictour_top1465.txt --pairs 5 --connections 64 --repeat 4
    python3 benchmarks/bench_pipeline.py --mode threads --dataset tdoku_forum_hardest_1106.txt \\
        --connections 16 --repeat 40 --pairs 5

Standard library and the project only; the server runs as a subprocess on
127.0.0.1 (``python3 -m sudoku_server --port 0``). Both sides use the
installed package (or ``PYTHONPATH``'s), never the checkout's folder by
accident; the solver core is printed, and a pure-Python one is refused (exit
status 2) unless ``--allow-python-core`` is given (``benchmarks/corecheck.py``).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

import corecheck  # benchmarks/corecheck.py, beside this script
import datasets

#: The solver core of this process (set by main): every server started must run the same.
_CORE = ["?"]


def start_server(*args: str) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", *args],
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
            core = corecheck.server_core("127.0.0.1", port)
            if core != _CORE[0]:
                proc.terminate()
                proc.wait(10)
                raise SystemExit(f"the server's solver core is {core}, this process's {_CORE[0]}")
            return proc, port
    raise SystemExit("the server did not start")


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(10)


def pipeline(port: int, data: bytes) -> tuple[bytes, float]:
    """Send ``data`` on one connection (then half-close) while reading every answer."""
    started = time.perf_counter()
    sock = socket.create_connection(("127.0.0.1", port))
    sender = threading.Thread(target=lambda: (sock.sendall(data), sock.shutdown(socket.SHUT_WR)))
    sender.start()
    chunks = []
    while True:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    sender.join()
    sock.close()
    return b"".join(chunks), time.perf_counter() - started


def in_process(data: bytes) -> tuple[bytes, float]:
    """The same text-to-text work with no socket and no thread."""
    from sudoku_server.service.answer import answer
    from sudoku_server.wire.replies import render
    from sudoku_server.wire.session import PuzzleReceived, Session

    started = time.perf_counter()
    session = Session()
    out = []
    for i in range(0, len(data), 4096):
        for event in session.receive_data(data[i : i + 4096]):
            if isinstance(event, PuzzleReceived):
                out.append(render(answer(event.request), event.ending, event.puzzle))
    session.receive_eof()
    return b"".join(out), time.perf_counter() - started


def many(port: int, shares: list[bytes]) -> tuple[list[bytes], float]:
    """Pipeline each share on its own connection, all at once; the answers in share order."""
    results: list[bytes] = [b""] * len(shares)
    started = time.perf_counter()

    def one(k: int) -> None:
        results[k] = pipeline(port, shares[k])[0]

    workers = [threading.Thread(target=one, args=(k,)) for k in range(len(shares))]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return results, time.perf_counter() - started


def ratio_mode(lines: list[str], pairs: int, connections: int = 1) -> None:
    data = ("\n".join(lines) + "\n").encode()
    shares = [("\n".join(lines[i::connections]) + "\n").encode() for i in range(connections)]
    if connections > 1:
        print(f"{connections} connections, {len(lines):,} puzzles in all, each connection pipelining its share")
    proc, port = start_server("--max-connections", str(connections + 16))
    try:
        many(port, shares)  # warm-up
        rows = []
        for _ in range(pairs):
            expected, local = in_process(data)
            answers, remote = many(port, shares)
            expected_lines = expected.splitlines(keepends=True)
            for k, answer in enumerate(answers):
                if answer != b"".join(expected_lines[k::connections]):
                    raise SystemExit("the socket's answers differ from the in-process ones")
            rows.append((len(lines) / local, len(lines) / remote, local / remote))
    finally:
        stop_server(proc)
    print("| pair | in-process puzzles/s | through the socket puzzles/s | socket / in-process |")
    print("|---:|---:|---:|---:|")
    for k, (a, b, r) in enumerate(rows, 1):
        print(f"| {k} | {a:,.0f} | {b:,.0f} | {r:.2f} |")
    print(
        f"median ratio {statistics.median(r for _, _, r in rows):.2f};"
        f" medians {statistics.median(a for a, _, _ in rows):,.0f}/s in-process,"
        f" {statistics.median(b for _, b, _ in rows):,.0f}/s through the socket"
    )


def threads_mode(lines: list[str], connections: int, repeat: int, pairs: int) -> None:
    lines = lines * repeat
    shares = [("\n".join(lines[i::connections]) + "\n").encode() for i in range(connections)]

    def run(threads: int) -> float:
        proc, port = start_server("--solver-threads", str(threads))
        try:
            results: list[tuple[bytes, float]] = []
            started = time.perf_counter()
            workers = [threading.Thread(target=lambda d=d: results.append(pipeline(port, d))) for d in shares]
            for t in workers:
                t.start()
            for t in workers:
                t.join()
            seconds = time.perf_counter() - started
        finally:
            stop_server(proc)
        answers = sum(answer.count(b"\n") for answer, _ in results)
        if answers != len(lines):
            raise SystemExit(f"{answers} answers for {len(lines)} puzzles")
        return len(lines) / seconds

    rows = []
    for _ in range(pairs):
        one, two = run(1), run(2)
        rows.append((one, two, two / one))
    print(f"{connections} connections, {len(lines):,} puzzles in all, each connection pipelining its share")
    print("| pair | --solver-threads 1 puzzles/s | --solver-threads 2 puzzles/s | ratio |")
    print("|---:|---:|---:|---:|")
    for k, (a, b, r) in enumerate(rows, 1):
        print(f"| {k} | {a:,.0f} | {b:,.0f} | {r:.2f} |")
    print(f"median ratio {statistics.median(r for _, _, r in rows):.2f}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mode", choices=("ratio", "threads"), default="ratio")
    p.add_argument("--dataset", default="kaggle_bryanpark_first10000.csv", help="a file of puzzles/datasets/")
    p.add_argument("--pairs", type=int, default=5)
    p.add_argument(
        "--connections", type=int, default=None, help="connections pipelining at once (ratio: 1, threads: 16)"
    )
    p.add_argument("--repeat", type=int, default=None, help="the dataset this many times (ratio: 1, threads: 40)")
    corecheck.add_flag(p)
    args = p.parse_args(argv)
    path = datasets.find(args.dataset)
    if path is None:
        raise SystemExit(f"no dataset {args.dataset}")
    lines = datasets.one_line_puzzles(path)
    from sudoku_server.sudoku import solver

    _CORE[0] = solver.CORE
    corecheck.require_native(solver.CORE, args.allow_python_core, "this process and the servers it starts")
    print(f"<!-- python3 benchmarks/bench_pipeline.py {' '.join(argv if argv is not None else sys.argv[1:])} -->")
    print(
        f"{args.dataset}: {len(lines):,} puzzles; solver core {solver.CORE};"
        f" {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}"
    )
    if args.mode == "ratio":
        ratio_mode(lines * (args.repeat or 1), args.pairs, args.connections or 1)
    else:
        threads_mode(lines, args.connections or 16, args.repeat or 40, args.pairs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
