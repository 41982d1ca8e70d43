"""The solver core side by side with tdoku: first solution and count(2), CPU time, in process.

    PYTHONPATH=/path/to/tree python3 benchmarks/bench_tdoku.py [--tdoku PATH/libtdoku.so]
        [--sets top1465,hardest1106,sudoku17,forum11,kaggle] [--passes 5] [--limit N]

For each set, on the same puzzles, per puzzle in CPU seconds of this process
(``time.process_time``), median of ``--passes`` interleaved passes
(ours solve, tdoku limit 1, ours count, tdoku limit 2, calibration, and again):

  ours solve     ``solver.solve(grid)``: the row-major-first solution (grids
                 parsed before the clock starts, as tdoku's own benchmark
                 times it)
  ours count(2)  ``solver.count_solutions(grid, 2)``
  tdoku 1, 2     ``TdokuSolverDpllTriadSimd(puzzle, limit, 0, out, &guesses)``
                 through ctypes (``--tdoku``: a shared library built from
                 https://github.com/t-dillon/tdoku, e.g. ``g++ -O3 -march=native
                 -shared -fPIC src/solver_dpll_triad_simd.cc src/util.cc``);
                 limit 1 stops at whatever solution it meets first, limit 2
                 is a uniqueness count
  calibration    the same ctypes call into libc's ``labs`` with tdoku's
                 argument types: the cost of a ctypes call, which tdoku's C
                 figures do not carry; "net" ratios take it off tdoku's time

Ratios are ours ÷ tdoku (below 1: ours is faster); "via ctypes" divides by
tdoku's time as called here, "net" by tdoku's time less the calibration
(ours keeps its own call: the core's Python entry point; the garbage
collector is off during ours' passes, as in ``timeit``). Without
``--tdoku`` it prints ours only. Every answer is checked (ours: a valid
solution keeping the givens; the counts of ours and tdoku must agree). It
imports the installed package (run it with PYTHONPATH set to the tree),
prints the core it measured, and refuses the pure-Python core unless
``--allow-python``.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import datasets

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid

#: name -> (file, how many puzzles at most; None: all)
SETS: dict[str, tuple[str, int | None]] = {
    "top1465": ("magictour_top1465.txt", None),
    "hardest1106": ("tdoku_forum_hardest_1106.txt", None),
    "sudoku17": ("sudoku17_royle_49151.txt", 5000),
    "forum11": ("tdoku_forum_hardest_1905_11plus.txt", 1000),
    "kaggle": ("kaggle_bryanpark_first10000.csv", None),
}

ARGTYPES = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]


def load_tdoku(path: str) -> Callable[..., int]:
    """tdoku's ``TdokuSolverDpllTriadSimd`` from the shared library at ``path`` (OSError when absent)."""
    lib = ctypes.CDLL(path)
    fn = lib.TdokuSolverDpllTriadSimd
    fn.argtypes = ARGTYPES
    fn.restype = ctypes.c_size_t
    return fn  # type: ignore[no-any-return]


def calibration() -> Callable[..., int]:
    """libc's ``labs`` declared with tdoku's argument types: a ctypes call that does no work."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    fn = libc.labs
    fn.argtypes = ARGTYPES
    fn.restype = ctypes.c_size_t
    return fn  # type: ignore[no-any-return]


def time_ours(grids: list[Grid], limit: int) -> tuple[float, list[object]]:
    """(CPU seconds, answers): solve (limit 1) or count_solutions(grid, 2) over ``grids``.

    The garbage collector is off while the clock runs (as in ``timeit``):
    the answers kept for checking would otherwise make it walk them again
    and again, which a caller that drops each answer never pays.
    """
    out: list[object] = []
    add = out.append
    gc.collect()
    gc.disable()
    try:
        return _time_ours(grids, limit, add), out
    finally:
        gc.enable()


def _time_ours(grids: list[Grid], limit: int, add: Callable[[object], None]) -> float:
    if limit == 1:
        solve = solver.solve
        start = time.process_time()
        for grid in grids:
            add(solve(grid))
    else:
        count = solver.count_solutions
        start = time.process_time()
        for grid in grids:
            add(count(grid, 2))
    return time.process_time() - start


def time_foreign(fn: Callable[..., int], puzzles: list[bytes], limit: int) -> tuple[float, list[int], int]:
    """(CPU seconds, counts, guesses in all) of ``fn`` over ``puzzles`` at ``limit``."""
    buf = ctypes.create_string_buffer(82)
    guesses = ctypes.c_size_t(0)
    ref = ctypes.byref(guesses)
    counts: list[int] = []
    add = counts.append
    total = 0
    start = time.process_time()
    for p in puzzles:
        add(fn(p, limit, 0, buf, ref))
        total += guesses.value
    return time.process_time() - start, counts, total


def check_ours(grids: list[Grid], solutions: list[object], counts: list[object]) -> int:
    """How many of ours are wrong: an invalid solution, or a count other than 1 (every set is unique)."""
    wrong = sum(1 for g, s in zip(grids, solutions) if not isinstance(s, Grid) or solver.verify(g, s) is not None)
    return wrong + sum(1 for c in counts if c != 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--tdoku", help="path of a built libtdoku shared library (without it: ours only)")
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    ap.add_argument("--passes", type=int, default=5, help="interleaved passes; medians are printed (default 5)")
    ap.add_argument("--limit", type=int, help="at most this many puzzles of each set")
    ap.add_argument("--allow-python", action="store_true", help="measure the pure-Python core if it is the one in use")
    args = ap.parse_args(argv)
    names = [s for s in args.sets.split(",") if s]
    unknown = sorted(set(names) - set(SETS))
    if unknown:
        ap.error(f"unknown set(s) {unknown}; known: {', '.join(SETS)}")
    if args.passes < 1:
        ap.error("--passes must be >= 1")
    if solver.CORE != "native" and not args.allow_python:
        print(f"solver core: {solver.CORE}; refusing to measure it (build the native core, or --allow-python)")
        return 2
    tdoku = load_tdoku(args.tdoku) if args.tdoku else None
    calib = calibration() if tdoku is not None else None
    print(f"<!-- python3 benchmarks/bench_tdoku.py {' '.join(sys.argv[1:] if argv is None else argv)} -->")
    print(
        f"solver core: {solver.CORE}; Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M:%S')}; CPU time, median of {args.passes} "
        f"interleaved passes; load average at start {os.getloadavg()[0]:.2f}; tdoku: {args.tdoku or 'not given'}\n"
    )
    if tdoku is None:
        print("| set | puzzles | ours solve µs | ours count(2) µs | wrong |")
        print("|---|---:|---:|---:|---:|")
    else:
        print(
            "| set | puzzles | ours solve µs | tdoku limit 1 µs | solve ÷ tdoku (net) | solve ÷ tdoku via ctypes"
            " | ours count(2) µs | tdoku limit 2 µs | count ÷ tdoku (net) | count ÷ tdoku via ctypes"
            " | ctypes call µs | tdoku guesses 1 / 2 | wrong |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    failed = 0
    for name in names:
        filename, most = SETS[name]
        path = datasets.find(filename)
        if path is None:
            print(f"<!-- missing {filename}, skipped -->")
            continue
        limit = most if args.limit is None else min(args.limit, most or args.limit)
        lines = datasets.one_line_puzzles(path, limit)
        grids = [Grid.from_string(p) for p in lines]
        raw = [p.encode("ascii") for p in lines]
        n = len(grids)
        t: dict[str, list[float]] = {k: [] for k in ("o1", "o2", "t1", "t2", "cal")}
        wrong = 0
        g1 = g2 = 0
        for _ in range(args.passes):
            sec, solutions = time_ours(grids, 1)
            t["o1"].append(sec)
            if tdoku is not None and calib is not None:
                sec, _counts, g1 = time_foreign(tdoku, raw, 1)
                t["t1"].append(sec)
            sec, counts = time_ours(grids, 2)
            t["o2"].append(sec)
            if tdoku is not None and calib is not None:
                sec, tcounts, g2 = time_foreign(tdoku, raw, 2)
                t["t2"].append(sec)
                t["cal"].append(time_foreign(calib, raw, 1)[0])
                wrong += sum(1 for a, b in zip(counts, tcounts) if a != b)
            wrong += check_ours(grids, solutions, counts)
        failed += wrong
        us = {k: statistics.median(v) / n * 1e6 for k, v in t.items() if v}
        if tdoku is None:
            print(f"| {name} | {n} | {us['o1']:.2f} | {us['o2']:.2f} | {wrong} |", flush=True)
            continue
        net1, net2 = us["t1"] - us["cal"], us["t2"] - us["cal"]
        print(
            f"| {name} | {n} | {us['o1']:.2f} | {us['t1']:.2f} | {us['o1'] / net1:.2f} | {us['o1'] / us['t1']:.2f}"
            f" | {us['o2']:.2f} | {us['t2']:.2f} | {us['o2'] / net2:.2f} | {us['o2'] / us['t2']:.2f}"
            f" | {us['cal']:.2f} | {g1 / n:.1f} / {g2 / n:.1f} | {wrong} |",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
