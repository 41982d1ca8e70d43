"""The ten rules that take marks (issue 29): in process, CP-SAT, and pipelined SOLVE requests, in one run.

Reads the stored sets puzzles/variants/bench_<rule>.txt
(benchmarks/make_variant_puzzles.py made them: minimal, unique, checked by
CP-SAT) and, per rule, each of ``--runs`` runs times:

* ``solve``: the native core, in this process, on each puzzle:
  ``solver.NATIVE.solve(grid, geometry=...)``, the geometry read from the
  puzzle's line before the clock starts; each puzzle is a geometry of its own,
  so the time includes preparing it (``_native.prepare``). Median and worst
  ms (issue 29: median <= 1 ms, worst <= 20 ms over 500 puzzles), and
  puzzles/s over the set (the mean, which the server's rate compares with).
* ``line``: the same from the text: the line read (``marks_line``), the
  geometry built (``variant_geometry``, its cache cleared first) and solved:
  what a request costs in Python and C before the wire. Median µs.
* ``CP-SAT``: OR-Tools CP-SAT, DEFAULT parameters, the model built per puzzle
  (``tests/support/cpsat_oracle.model_of``: one variable per cell, the
  constraints' kinds), on the first ``--cpsat`` puzzles: build + solve wall
  time; puzzles/s over the set.
* ``server``: a server started from the installed package (``python3 -m
  sudoku_server`` in a folder with no checkout; ``PYTHONPATH`` names another
  tree), ONE connection, every puzzle sent at once as ``SOLVE <givens>
  <rule>=<marks>``, answers read as they come and each checked against the
  stored solution: requests/s over the exchange (wall), µs per request, and
  the server's CPU µs per request (``/proc/PID/stat``).
* ``server / CP-SAT``: the two rates' ratio (issue 29: >= 100x).

Every answer (native, CP-SAT, server) is checked; a wrong one stops the run.
Figures are the medians of the runs; the load average is printed.

Usage:
  python3 benchmarks/bench_rules.py                            # every rule, 500 puzzles, 3 runs
  python3 benchmarks/bench_rules.py --rules thermo,oddeven --cpsat 100 --runs 5
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
from collections.abc import Sequence
from pathlib import Path

import corecheck
import marks_puzzles

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line

STORED = Path(__file__).resolve().parent.parent / "puzzles" / "variants"
TICKS = os.sysconf("SC_CLK_TCK")

Stored = tuple[str, str]  # (request line without the verb, solution text)


def read_set(rule: str) -> list[Stored]:
    """bench_<rule>.txt as (``<givens> <rule>=<marks>``, solution) pairs."""
    out = []
    for line in (STORED / f"bench_{rule}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            _rule, givens, solution, *fields = line.split()
            out.append((f"{givens.replace('0', '.')} {' '.join(fields)}", solution))
    return out


def in_process(puzzles: list[Stored]) -> tuple[list[float], list[float]]:
    """Per puzzle, the native solve (geometry built before) and the line-to-answer time, seconds."""
    native = solver.NATIVE
    assert native is not None
    solve_times, line_times = [], []
    variant_geometry.cache_clear()
    for line, solution in puzzles:
        grid, geo, _variant = marks_puzzles.read_line(line)
        t = time.perf_counter()
        answer = native.solve(grid, geometry=geo)
        solve_times.append(time.perf_counter() - t)
        if answer is None or "".join(map(str, answer.cells)) != solution:
            raise SystemExit(f"native: wrong answer for {line[:120]}")
    variant_geometry.cache_clear()
    for line, solution in puzzles:
        t = time.perf_counter()
        puzzle = marks_line(line, 1, "\n")
        assert puzzle is not None and puzzle.variant is not None  # type: ignore[union-attr]
        geo = variant_geometry(puzzle.variant)  # type: ignore[union-attr]
        answer = native.solve(puzzle.grid, geometry=geo)  # type: ignore[union-attr]
        line_times.append(time.perf_counter() - t)
        if answer is None or "".join(map(str, answer.cells)) != solution:
            raise SystemExit(f"native: wrong answer for {line[:120]}")
    return solve_times, line_times


def cpsat(puzzles: list[Stored]) -> list[float]:
    """Per puzzle, CP-SAT (default parameters) building its model and solving it, seconds."""
    from ortools.sat.python import cp_model

    from tests.support import cpsat_oracle

    times = []
    for line, solution in puzzles:
        grid, geo, _variant = marks_puzzles.read_line(line)
        t = time.perf_counter()
        model, x = cpsat_oracle.model_of(grid.cells, geo)
        cp = cp_model.CpSolver()
        status = cp.Solve(model)
        found = "".join(str(cp.Value(v)) for v in x) if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else ""
        times.append(time.perf_counter() - t)
        if found != solution:
            raise SystemExit(f"CP-SAT: wrong answer for {line[:120]}")
    return times


def start_server() -> tuple[subprocess.Popen[bytes], int]:
    """``python3 -m sudoku_server --port 0`` from a folder with no checkout; its process and port."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0"],
        cwd=corecheck.NEUTRAL_CWD,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    for raw in proc.stderr:
        text = raw.decode("utf-8", "replace")
        if "listening on 127.0.0.1:" in text:
            port = int(text.rsplit(":", 1)[1])
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()  # type: ignore[union-attr]
            core = corecheck.server_core("127.0.0.1", port)
            if core != solver.CORE:
                proc.terminate()
                raise SystemExit(f"the server's solver core is {core}, this process's {solver.CORE}")
            return proc, port
    raise SystemExit("the server did not start")


def cpu_of(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def pipelined(port: int, pid: int, puzzles: list[Stored]) -> tuple[float, float]:
    """Every puzzle as ``SOLVE <line>`` at once on one connection: (wall seconds, server CPU seconds)."""
    data = "".join(f"SOLVE {line}\n" for line, _ in puzzles).encode()
    before = cpu_of(pid)
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
    wall = time.perf_counter() - started
    sender.join()
    sock.close()
    time.sleep(0.05)  # the server's last writes are counted
    used = cpu_of(pid) - before
    answers = b"".join(chunks).decode().splitlines()
    wrong = [line for (line, solution), got in zip(puzzles, answers) if got != solution]
    if len(answers) != len(puzzles) or wrong:
        raise SystemExit(f"server: {len(answers)} answers for {len(puzzles)}, wrong: {wrong[:1]} {answers[:2]}")
    return wall, used


HEADER = (
    "| rule | puzzles | givens | solve median ms | solve worst ms | solve puzzles/s | line median µs | CP-SAT puzzles"
    " | CP-SAT median ms | CP-SAT puzzles/s | server µs/request | server CPU µs/request | server requests/s"
    " | server / CP-SAT |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--rules", default=",".join(marks_puzzles.RULES), help="rules, comma-separated (default all ten)"
    )
    parser.add_argument("--count", type=int, default=500, help="puzzles per rule (default 500: the stored sets)")
    parser.add_argument("--cpsat", type=int, default=100, help="puzzles per rule also solved by CP-SAT (default 100)")
    parser.add_argument("--runs", type=int, default=3, help="runs per rule; figures are their medians (default 3)")
    corecheck.add_flag(parser)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support.cpsat_oracle
    corecheck.require_native(solver.CORE, args.allow_python_core, "this process and the server it starts")
    print(f"<!-- python3 benchmarks/bench_rules.py {' '.join(argv if argv is not None else sys.argv[1:])} -->")
    print(f"{os.cpu_count()} CPUs; load average at the start {os.getloadavg()[0]:.2f}; {args.runs} runs, medians")
    print(HEADER, flush=True)
    proc, port = start_server()
    try:
        for rule in args.rules.split(","):
            puzzles = read_set(rule)[: args.count]
            pipelined(port, proc.pid, puzzles[:50])  # warm-up
            runs = []
            for _ in range(args.runs):
                solve_t, line_t = in_process(puzzles)
                cp_t = cpsat(puzzles[: args.cpsat])
                wall, cpu = pipelined(port, proc.pid, puzzles)
                runs.append(
                    (
                        statistics.median(solve_t) * 1e3,
                        max(solve_t) * 1e3,
                        statistics.median(line_t) * 1e6,
                        statistics.median(cp_t) * 1e3,
                        len(cp_t) / sum(cp_t),
                        wall / len(puzzles) * 1e6,
                        cpu / len(puzzles) * 1e6,
                        len(puzzles) / wall,
                        (len(puzzles) / wall) / (len(cp_t) / sum(cp_t)),
                        len(solve_t) / sum(solve_t),
                    )
                )
            m = [statistics.median(r[k] for r in runs) for k in range(len(runs[0]))]
            worst = max(r[1] for r in runs)
            givens = statistics.mean(sum(ch != "." for ch in line.split()[0]) for line, _ in puzzles)
            print(
                f"| {rule} | {len(puzzles)} | {givens:.1f} | {m[0]:.3f} | {worst:.2f} | {m[9]:,.0f} | {m[2]:.0f} | {min(args.cpsat, len(puzzles))}"
                f" | {m[3]:.2f} | {m[4]:.0f} | {m[5]:.0f} | {m[6]:.0f} | {m[7]:,.0f} | {m[8]:.0f}x |",
                flush=True,
            )
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
