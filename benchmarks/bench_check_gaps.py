"""The largest gap between two calls of the stop hook (``check``) in RATE, HINT, STEPS and GENERATE.

The server pauses a long job by blocking inside its ``check`` callable
(sudoku/check.py), so the longest stretch of work between two calls bounds
how late a pause can come. This benchmark passes a ``check`` that records
``time.perf_counter()`` at every call and reports, per workload, the largest
gap (milliseconds), the number of calls, the wall time, and where the two
calls around the largest gap came from (file:line of the caller). Gaps are
measured twice: wall time (``perf_counter``, what a paused job waits) and the
thread's CPU time (``thread_time``, the work itself: on a shared machine a
wall gap also holds the time other processes had the core), and the CPU gap
once more without the interpreter's garbage-collection pauses in it
(``gc.callbacks``): a full collection (generation 2) takes 3-5 ms while the
dynamic forcing-chain search holds its thousands of closures, and no
``check`` can run inside it.

Workloads: ``rating.rate`` on the first ``--hard`` puzzles of
tdoku_forum_hardest_1106.txt (the forum's hardest), ``generator.generate``
at 16x16 (seed 1) and ``rate`` of that puzzle, and ``generate(25, givens=...)``.

Usage (from a worktree root; ``--tree`` imports another tree's package):
  python3 benchmarks/bench_check_gaps.py --hard 8
  python3 benchmarks/bench_check_gaps.py --tree BEFORE --hard 8 --budget 20

Standard library only (plus the project).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Budget(Exception):
    """The workload passed its time budget (reported as 'stopped')."""


class GapCheck:
    """A check that records the gaps between its calls and stops after ``budget`` seconds."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.start = self.last = time.perf_counter()
        self.last_cpu = time.thread_time()
        self.max_cpu_gap = 0.0
        self.max_work_gap = 0.0  # CPU gap minus the GC pauses inside it
        self.gc_in_gap = 0.0
        self.gc_started = 0.0
        self.max_gc_pause = 0.0
        self.max_gap = 0.0
        self.calls = 0
        self.where = ("start", "start")
        self.prev_site = "start"
        gc.callbacks.append(self._gc)

    def _gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.gc_started = time.thread_time()
        else:
            pause = time.thread_time() - self.gc_started
            self.gc_in_gap += pause
            self.max_gc_pause = max(self.max_gc_pause, pause)

    def __call__(self) -> None:
        now = time.perf_counter()
        cpu = time.thread_time()
        self.calls += 1
        gap = now - self.last
        frame = sys._getframe(1)
        site = f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno}"
        if gap > self.max_gap:
            self.max_gap = gap
        if cpu - self.last_cpu > self.max_cpu_gap:
            self.max_cpu_gap = cpu - self.last_cpu
        if cpu - self.last_cpu - self.gc_in_gap > self.max_work_gap:
            self.max_work_gap = cpu - self.last_cpu - self.gc_in_gap
            self.where = (self.prev_site, site)
        self.gc_in_gap = 0.0
        self.last_cpu = cpu
        self.prev_site = site
        self.last = now
        if now - self.start > self.budget:
            raise Budget

    def finish(self) -> None:
        """Count the stretch from the last call to the end of the work as a gap too."""
        gap = time.perf_counter() - self.last
        self.max_gap = max(self.max_gap, gap)
        gc.callbacks.remove(self._gc)
        cpu = time.thread_time() - self.last_cpu
        self.max_cpu_gap = max(self.max_cpu_gap, cpu)
        if cpu - self.gc_in_gap > self.max_work_gap:
            self.max_work_gap = cpu - self.gc_in_gap
            self.where = (self.prev_site, "end")


def run(name: str, work, budget: float) -> dict:
    check = GapCheck(budget)
    t0 = time.perf_counter()
    status = "done"
    try:
        work(check)
    except Budget:
        status = "stopped"
    check.finish()
    wall = time.perf_counter() - t0
    row = {
        "name": name,
        "status": status,
        "wall_s": wall,
        "calls": check.calls,
        "max_gap_ms": check.max_gap * 1000,
        "max_cpu_gap_ms": check.max_cpu_gap * 1000,
        "max_work_gap_ms": check.max_work_gap * 1000,
        "where": f"{check.where[0]} -> {check.where[1]}",
    }
    print(
        f"{name:36} {status:7} wall {wall:7.3f} s  calls {check.calls:7}  max gap wall {check.max_gap * 1000:6.2f} ms"
        f" cpu {check.max_cpu_gap * 1000:6.2f} ms, without GC {check.max_work_gap * 1000:6.2f} ms"
        f" ({row['where']}); longest GC pause {check.max_gc_pause * 1000:5.2f} ms",
        flush=True,
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, default=HERE.parent, help="the tree whose sudoku_server is imported")
    ap.add_argument("--hard", type=int, default=8, help="forum-hardest puzzles rated (default 8)")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds per workload before it is stopped")
    ap.add_argument("--no-large", action="store_true", help="skip the 16x16 and 25x25 workloads")
    args = ap.parse_args()
    sys.path.insert(0, str(args.tree))
    sys.path.insert(1, str(HERE))
    import datasets

    from sudoku_server.sudoku import generator
    from sudoku_server.sudoku.grid import Grid
    from sudoku_server.sudoku.rating import rate
    from sudoku_server.sudoku.techniques import next_step, solve_steps

    path = datasets.find("tdoku_forum_hardest_1106.txt")
    assert path is not None
    hard = datasets.one_line_puzzles(path, args.hard)
    rows = []
    for i, p in enumerate(hard):
        g = Grid.from_string(p)
        rows.append(run(f"RATE forum-hardest #{i + 1}", lambda c, g=g: rate(g, check=c), args.budget))
    g = Grid.from_string(hard[0])
    rows.append(run("HINT forum-hardest #1", lambda c: next_step(g, check=c), args.budget))
    rows.append(run("STEPS forum-hardest #1", lambda c: solve_steps(g, check=c), args.budget))
    if not args.no_large:
        g16 = generator.generate(16, seed=1).puzzle
        rows.append(run("GENERATE size=16 seed=1", lambda c: generator.generate(16, seed=1, check=c), args.budget))
        rows.append(run("RATE generated 16x16 (seed 1)", lambda c: rate(g16, check=c), args.budget))
        rows.append(run("HINT generated 16x16 (seed 1)", lambda c: next_step(g16, check=c), args.budget))
        rows.append(
            run(
                "GENERATE size=25 givens=400 seed=4",
                lambda c: generator.generate(25, seed=4, givens=400, check=c),
                args.budget,
            )
        )
        g25 = generator.generate(25, seed=4, givens=400).puzzle
        rows.append(run("RATE generated 25x25 (seed 4, 400)", lambda c: rate(g25, check=c), args.budget))
        rows.append(run("GENERATE size=25 seed=4", lambda c: generator.generate(25, seed=4, check=c), args.budget))
    nine = [r for r in rows if "forum" in r["name"] and r["name"].startswith("RATE")]
    print(
        f"forum-hardest RATE: median wall {statistics.median(r['wall_s'] for r in nine):.3f} s,"
        f" max gap wall {max(r['max_gap_ms'] for r in nine):.2f} ms cpu {max(r['max_cpu_gap_ms'] for r in nine):.2f} ms"
        f" without GC {max(r['max_work_gap_ms'] for r in nine):.2f} ms;"
        f" all workloads max gap wall {max(r['max_gap_ms'] for r in rows):.2f} ms"
        f" cpu {max(r['max_cpu_gap_ms'] for r in rows):.2f} ms"
        f" without GC {max(r['max_work_gap_ms'] for r in rows):.2f} ms"
    )


if __name__ == "__main__":
    main()
