"""The request path of two source trees side by side: one connection pipelining a dataset.

    python3 benchmarks/compare_trees.py BEFORE_TREE AFTER_TREE [--dataset kaggle_bryanpark_first10000.csv] [--rounds 5]
        [--ports P]

Each tree is a checkout with its native core built in place (``python3
setup.py build_ext --inplace``); each server runs as ``python -m
sudoku_server`` with ``PYTHONPATH`` set to its tree, on 127.0.0.1 and a free
port (``--ports P``: ports P and P + 1 instead). Every round sends the whole dataset (its one-line 9x9 puzzles, one per line) on one connection to each server in turn, A B A B ...,
half-closes, and times until the last answer byte (wall seconds). Prints
the median per tree and the median of the round-by-round ratios B/A, so the
comparison holds while the machine's speed drifts. Used across issue 16's
redesign (benchmarks/RESULTS.md); the package itself is not imported here.
Each server's solver core (``STATS``) is printed; a pure-Python one is
refused (exit status 2) unless ``--allow-python-core`` is given.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corecheck  # benchmarks/corecheck.py
import datasets  # benchmarks/datasets.py: the shipped puzzles/datasets/*.gz


def start(tree: str, port: int = 0) -> tuple[subprocess.Popen[str], int]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    argv = [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True, cwd=os.path.abspath(tree))
    assert proc.stderr is not None
    while True:
        line = proc.stderr.readline()
        if not line:
            raise SystemExit(f"the server of {tree} did not start")
        match = re.search(r"listening on \S*:(\d+)", line)
        if match:
            return proc, int(match.group(1))


def once(port: int, data: bytes) -> tuple[float, int]:
    """Seconds from the first byte sent to the last answer byte, and the answer's length."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        started = time.perf_counter()
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        got = 0
        while chunk := sock.recv(1 << 16):
            got += len(chunk)
        return time.perf_counter() - started, got


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--dataset", default="kaggle_bryanpark_first10000.csv")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ports", type=int, default=0, help="listen on this port and the next (default: free ports)")
    corecheck.add_flag(parser)
    args = parser.parse_args()
    path = datasets.find(args.dataset)
    if path is None:
        raise SystemExit(f"no dataset {args.dataset} in {datasets.DATASETS_DIR}")
    puzzles = datasets.one_line_puzzles(path)
    data = ("\n".join(puzzles) + "\n").encode()
    ports = (args.ports, args.ports + 1) if args.ports else (0, 0)
    servers = [start(args.before, ports[0]), start(args.after, ports[1])]
    try:
        for tree, (_, port) in zip((args.before, args.after), servers):
            corecheck.require_native(corecheck.server_core("127.0.0.1", port), args.allow_python_core, tree)
        lengths = [once(port, data)[1] for _, port in servers]  # warm-up, and the answers' size
        if lengths[0] != lengths[1]:
            print(f"warning: the answers differ in length: {lengths}")
        times: list[list[float]] = [[], []]
        for _ in range(args.rounds):
            for side, (_, port) in enumerate(servers):
                times[side].append(once(port, data)[0])
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait()
    ratios = [b / a for a, b in zip(*times)]
    print(f"{len(puzzles)} puzzles from {args.dataset}, one connection, {args.rounds} rounds")
    print(f"before {args.before}: median {statistics.median(times[0]) * 1000:.1f} ms")
    print(f"after  {args.after}: median {statistics.median(times[1]) * 1000:.1f} ms")
    print(f"after / before: median of the round ratios {statistics.median(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
