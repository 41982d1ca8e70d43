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
  the server's CPU µs per request (:func:`cpu_of`: its threads' run times, ``/proc/PID/task/*/schedstat``,
  in ns; else ``/proc/PID/stat``, in clock ticks: 10 ms, then send 400 puzzles or more for figures to 10-20 %). The server is warmed first with the LAST 50 puzzles of the set (not measured
  while ``--count`` leaves them out); each run sends the same puzzles again, so from the second run on
  their marks are in the server's caches, unless ``--fresh`` starts a server per run (each run then
  answers marks new to its server: what a stream of different puzzles costs).
* ``server / CP-SAT``: the two rates' ratio (issue 29: >= 100x).

Every answer (native, CP-SAT, server) is checked; a wrong one stops the run.
Figures are the medians of the runs; the load average is printed.

With ``--path`` only the request path runs, in this process (:func:`request_path`: the session, the
service and the wire around each solve; every cache cleared, then kept). With ``--trees A,B`` only the server part runs, for two source trees side by side (:func:`compare_trees`:
fresh servers A B A B ..., ``--runs`` rounds): the per-request cost before and after a change, in one run.

Usage:
  python3 benchmarks/bench_rules.py                            # every rule, 500 puzzles, 3 runs
  python3 benchmarks/bench_rules.py --trees ../before,. --rules thermo,kropki --count 450 --runs 5
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
from collections.abc import Callable, Sequence
from pathlib import Path

import corecheck
import marks_puzzles

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text import fpuzzles
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


def _clear_caches() -> None:
    """Forget every puzzle's geometry, its prepared native form and its marks read from text (each timed
    puzzle then costs what a puzzle new to the process costs)."""
    variant_geometry.cache_clear()
    solver._PREPARED.clear()
    read_marks = getattr(fpuzzles, "_read_marks", None)  # a tree before the marks were kept by their text
    if read_marks is not None:
        read_marks.cache_clear()


def in_process(puzzles: list[Stored]) -> tuple[list[float], list[float]]:
    """Per puzzle, the native solve (geometry built before) and the line-to-answer time, seconds."""
    native = solver.NATIVE
    assert native is not None
    solve_times, line_times = [], []
    _clear_caches()
    for line, solution in puzzles:
        grid, geo, _variant = marks_puzzles.read_line(line)
        t = time.perf_counter()
        answer = native.solve(grid, geometry=geo)
        solve_times.append(time.perf_counter() - t)
        if answer is None or "".join(map(str, answer.cells)) != solution:
            raise SystemExit(f"native: wrong answer for {line[:120]}")
    _clear_caches()
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


def start_server(tree: str | None = None, options: Sequence[str] = ()) -> tuple[subprocess.Popen[bytes], int]:
    """``python3 -m sudoku_server --port 0`` from a folder with no checkout (``tree``: with ``PYTHONPATH`` naming
    it); its process and port."""
    env = None if tree is None else dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", *options],
        env=env,
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
    """CPU seconds process ``pid`` has used so far: its threads' run times to the nanosecond
    (``/proc/PID/task/*/schedstat``, the first field; a thread that ended is not counted, and the server's
    solver threads live on for 10 s idle), else user + system time in clock ticks (``/proc/PID/stat``: 10 ms, too
    coarse for a few hundred requests of 50 µs)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (FileNotFoundError, ValueError, IndexError):  # no schedstat (or a thread ended while read)
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


def request_path(rules: list[str], count: int, runs: int) -> None:
    """The request path in this process, µs per request: ``SOLVE <line>`` read by a session
    (``wire.session.Session``), answered by the service (``service.answer.answer``) and rendered
    (``wire.replies.render``), every answer checked; on a tree with the marks lines' fast path, the lines taken
    and answered as the server takes them (``Session.take_plain(marks=True)``, ``text.marksline.solve_marks``).
    "cold": every cache cleared first (each puzzle new); "warm": the same puzzles again, the caches kept;
    "native solve": the native core's prepare and search alone (:func:`in_process`), and what the path costs
    beside it. Times are this process's CPU time (``time.process_time``: on a shared machine the wall time
    counts the other processes' turns too). Medians of ``runs``."""
    from sudoku_server.service.answer import answer
    from sudoku_server.wire import replies
    from sudoku_server.wire.session import RequestReceived, Session

    try:  # a tree with the marks lines' fast path (issue 29): the server takes them as it takes plain lines
        from sudoku_server.text.marksline import solve_marks
    except ImportError:
        solve_marks = None

    def once(puzzles: list[Stored], cold: bool) -> float:
        if cold:
            _clear_caches()
        session = Session()
        started = time.process_time()
        out = []
        data = "".join(f"SOLVE {line}\n" for line, _ in puzzles).encode()
        events: list[object] = []
        if solve_marks is not None and session.buffer_plain(data):
            # as net.connection does: the lines taken first (Session.take_plain), each answered by the fast
            # path (InlineSolver.solve; one whose search passes the event loop's 0.5 ms goes to a solver thread
            # in either tree, not counted here), one it does not answer read the usual way
            lines, first = session.take_plain(len(puzzles), marks=True)
            for k, line in enumerate(lines):
                reply = solve_marks(line)
                if reply is not None:
                    out.append(reply)
                    continue
                for event in session.taken_events(line, first + k):
                    if isinstance(event, RequestReceived):
                        out.append(replies.render(answer(event.request), event.ending, event.puzzle))
            events = session.receive_more() if session.backlog else []
        else:
            events = session.receive_data(data)
        while True:
            for event in events:
                if isinstance(event, RequestReceived):
                    out.append(replies.render(answer(event.request), event.ending, event.puzzle))
            if not session.backlog:
                break
            events = session.receive_more()
        seconds = time.process_time() - started
        if b"".join(out).decode().splitlines() != [solution for _, solution in puzzles]:
            raise SystemExit("request path: a wrong answer")
        return seconds / len(puzzles) * 1e6

    print(
        "| rule | puzzles | cold µs/request | warm µs/request | native solve µs/request | cold outside the native"
        " solve µs/request |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |", flush=True)
    for rule in rules:
        puzzles = read_set(rule)[:count]
        once(puzzles, True)  # the code paths warmed
        cold = statistics.median(once(puzzles, True) for _ in range(runs))
        warm = statistics.median(once(puzzles, False) for _ in range(runs))
        native = native_part(puzzles, lambda: once(puzzles, True), runs)
        shown = ("-", "-") if native is None else (f"{native:.0f}", f"{cold - native:.0f}")
        print(f"| {rule} | {len(puzzles)} | {cold:.0f} | {warm:.0f} | {shown[0]} | {shown[1]} |", flush=True)


def native_part(puzzles: list[Stored], run: Callable[[], object], runs: int) -> float | None:
    """The native core's part of the request path, µs per request: each puzzle's prepare (``like=`` the classic
    geometry), search and independent check on the arrays its rules compile to, as ``solver.solve_nine_arrays``
    does them (captured from one ``run`` of the fast path; a line the native reader answers in one call,
    ``solver.solve_marks_line``, is read to its arrays by ``_native.read_marks`` first, out of the clock); the
    same arrays as the usual path's (``tests/unit/test_marks_fast_path.py``). None on a tree without the fast
    path. Median of ``runs``."""
    solve_nine_arrays = getattr(solver, "solve_nine_arrays", None)
    if solve_nine_arrays is None:
        return None
    solve_marks_line = getattr(solver, "solve_marks_line", None)
    native = solver._native
    captured: list[tuple[Sequence[int], dict[str, bytes]]] = []

    def capture(cells: Sequence[int], arrays: dict[str, bytes], *, check: Callable[[], None] | None = None) -> object:
        captured.append((cells, arrays))
        return solve_nine_arrays(cells, arrays, check=check)

    def capture_line(line: bytes, reader: object, *, check: Callable[[], None] | None = None) -> object:
        got = solve_marks_line(line, reader, check=check)  # type: ignore[misc]
        if got is not False:
            givens, arrays = native.read_marks(line, reader)
            captured.append((tuple(givens), arrays))
        return got

    solver.solve_nine_arrays = capture  # type: ignore[attr-defined]
    if solve_marks_line is not None:
        solver.solve_marks_line = capture_line  # type: ignore[attr-defined]
    try:
        run()
    finally:
        solver.solve_nine_arrays = solve_nine_arrays  # type: ignore[attr-defined]
        if solve_marks_line is not None:
            solver.solve_marks_line = solve_marks_line  # type: ignore[attr-defined]
    like = solver._CLASSIC.get(3 * 32 + 3) or solver._classic(solver._NINE)
    units = solver._NINE.geometry.unit_array

    def once() -> float:
        started = time.process_time()
        for cells, arrays in captured:
            prepared = native.prepare(9, units, False, like=like, **arrays)
            found = native.solve(cells, prepared, None)
            native.verify(cells, found, prepared)
        return (time.process_time() - started) / len(puzzles) * 1e6

    return statistics.median(once() for _ in range(runs))


def compare_trees(trees: list[str], rules: list[str], count: int, rounds: int) -> None:
    """The server's CPU per request of two trees, side by side: per rule and round, a fresh server of each tree
    in turn (A B A B ..., so that the machine's drift hits both), warmed with the set's last 50 puzzles, then
    sent the first ``count`` on one connection (each puzzle's marks new to that server). Prints per tree the
    median server CPU and wall µs per request, and the median of the rounds' CPU ratios B/A."""
    print(
        f"| rule | puzzles | {trees[0]} CPU µs/request | {trees[1]} CPU µs/request | CPU B/A (median of rounds)"
        f" | {trees[0]} wall µs/request | {trees[1]} wall µs/request |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |", flush=True)
    for rule in rules:
        stored = read_set(rule)
        puzzles, warm = stored[:count], stored[-50:]
        cpu: list[list[float]] = [[], []]
        wall: list[list[float]] = [[], []]
        for _ in range(rounds):
            for k, tree in enumerate(trees):
                proc, port = start_server(tree)
                try:
                    pipelined(port, proc.pid, warm)
                    w, c = pipelined(port, proc.pid, puzzles)
                finally:
                    proc.terminate()
                    proc.wait(10)
                cpu[k].append(c / len(puzzles) * 1e6)
                wall[k].append(w / len(puzzles) * 1e6)
        ratio = statistics.median(b / a for a, b in zip(cpu[0], cpu[1]) if a)
        print(
            f"| {rule} | {len(puzzles)} | {statistics.median(cpu[0]):.0f} | {statistics.median(cpu[1]):.0f}"
            f" | {ratio:.2f} | {statistics.median(wall[0]):.0f} | {statistics.median(wall[1]):.0f} |",
            flush=True,
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
    parser.add_argument(
        "--fresh", action="store_true", help="a server of its own per run: every puzzle's marks new to it"
    )
    parser.add_argument(
        "--trees",
        help="A,B: two source trees (native cores built in place); only the servers' CPU per request, side by side"
        " (compare_trees), --runs rounds",
    )
    parser.add_argument(
        "--path", action="store_true", help="only the request path in this process (request_path), cold and warm"
    )
    corecheck.add_flag(parser)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support.cpsat_oracle
    corecheck.require_native(solver.CORE, args.allow_python_core, "this process and the server it starts")
    print(f"<!-- python3 benchmarks/bench_rules.py {' '.join(argv if argv is not None else sys.argv[1:])} -->")
    print(f"{os.cpu_count()} CPUs; load average at the start {os.getloadavg()[0]:.2f}; {args.runs} runs, medians")
    if args.path:
        request_path(args.rules.split(","), args.count, args.runs)
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
        return 0
    if args.trees:
        compare_trees(args.trees.split(","), args.rules.split(","), args.count, args.runs)
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
        return 0
    print(HEADER, flush=True)
    proc, port = start_server()
    try:
        for rule in args.rules.split(","):
            stored = read_set(rule)
            puzzles = stored[: args.count]
            warm = stored[-50:]  # the warm-up: not measured unless --count reaches them
            pipelined(port, proc.pid, warm)
            runs = []
            for run in range(args.runs):
                solve_t, line_t = in_process(puzzles)
                cp_t = cpsat(puzzles[: args.cpsat])
                if args.fresh and run:
                    proc.terminate()
                    proc.wait(10)
                    proc, port = start_server()
                    pipelined(port, proc.pid, warm)
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
