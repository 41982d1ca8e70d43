"""Variant requests over one connection, pipelined: server CPU per answer against the raw solve (issue 27).

    PYTHONPATH=/path/to/tree python3 benchmarks/bench_variant_requests.py [--rules x,antiknight,windoku]
        [--puzzles 300] [--passes 3] [--runs 3]

Makes ``--puzzles`` minimal puzzles per rule set in this process
(``sudoku.variant_generator.generate_variant``, seeds 1, 2, ...), then per
rule set and run: the raw solve of each in this process
(``solver.solve(grid, geometry=...)`` on grids built before the clock starts,
``time.process_time``), and a server (``python -m sudoku_server``, the tree
``PYTHONPATH`` names) answering them over one fresh connection: ``RULES
<set>`` then every puzzle ``--passes`` times, sent at once, answers read as
they come (every answer checked against the raw solve). Server CPU is the
server process's user + system time (``/proc/PID/stat``) around the exchange,
divided by the answers. Prints µs per answer, raw µs per puzzle and their
ratio (issue 27's target: <= 3x), the medians of ``--runs``.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.variant_generator import generate_variant
from sudoku_server.sudoku.variants import Variant, variant_geometry

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def text_of(cells) -> str:
    return "".join("." if v == 0 else str(v) for v in cells)


def exchange(port: int, rules: str, lines: list[str]) -> list[str]:
    with socket.create_connection(("127.0.0.1", port), timeout=300) as sock:
        sock.sendall(f"RULES {rules}\n".encode())
        data = b""
        while b"\n" not in data:
            data += sock.recv(4096)
        sender = threading_send(sock, "".join(line + "\n" for line in lines).encode())
        data = b""
        while data.count(b"\n") < len(lines):
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            data += chunk
        sender.join()
    return data.decode().splitlines()


def threading_send(sock: socket.socket, payload: bytes):
    import threading

    thread = threading.Thread(target=sock.sendall, args=(payload,))
    thread.start()
    return thread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="x,antiknight,windoku")
    parser.add_argument("--puzzles", type=int, default=300)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"solver core: {solver.CORE} (sudoku_server from {os.path.dirname(solver.__file__)})")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=tempfile.gettempdir(),
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        print("| rules | answers | server µs/answer | raw µs/puzzle | ratio |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for rules in args.rules.split(","):
            variant = Variant(tuple(rules.split("+")))
            made = [generate_variant(variant, 9, seed=seed).puzzle for seed in range(1, args.puzzles + 1)]
            geometry = variant_geometry(variant, 3, 3)
            answers = {text_of(g.cells): text_of(solver.solve(g, geometry=geometry).cells) for g in made}
            lines = [text_of(g.cells) for g in made] * args.passes
            rows = []
            for _ in range(args.runs):
                started = time.process_time()
                for g in made:
                    solver.solve(g, geometry=geometry)
                raw = (time.process_time() - started) / len(made)
                before = cpu_of(server.pid)
                got = exchange(port, rules, lines)
                time.sleep(0.05)  # the server's last writes are counted
                used = cpu_of(server.pid) - before
                wrong = sum(1 for line, reply in zip(lines, got) if reply != answers[line])
                if len(got) != len(lines) or wrong:
                    raise SystemExit(f"{rules}: {len(got)} replies for {len(lines)} puzzles, {wrong} wrong")
                rows.append((used / len(lines), raw))
            server_us = statistics.median(r[0] for r in rows) * 1e6
            raw_us = statistics.median(r[1] for r in rows) * 1e6
            print(f"| {rules} | {len(lines)} | {server_us:.1f} | {raw_us:.1f} | {server_us / raw_us:.1f} |", flush=True)
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
