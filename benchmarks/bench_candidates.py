"""CANDIDATES' time per puzzle on the stored marks sets (issue 29: median <= 20 ms).

For each rule of ``--rules``, the first ``--count`` puzzles of
``puzzles/variants/bench_<rule>.txt`` (CP-SAT-checked unique puzzles,
puzzles/SOURCES.md): :func:`sudoku_server.sudoku.candidates.true_candidates`
on the puzzle's grid and geometry, CPU time (``time.process_time``) per
puzzle, in process, on the solver core in use. Prints a markdown table:
median and worst ms per rule.

Imports the installed package (``pip install -e .`` or a wheel), not the
checkout: run it as ``python3 benchmarks/bench_candidates.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.candidates import true_candidates
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line

RULES = ["oddeven", "thermo", "kropki", "xv", "whispers", "palindrome", "renban", "arrow", "littlekiller", "sandwich"]
SETS = Path(__file__).resolve().parent.parent / "puzzles" / "variants"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50, help="puzzles per rule (default 50)")
    parser.add_argument("--rules", default=",".join(RULES), help="comma-separated rule words (default: the ten)")
    args = parser.parse_args()
    print(f"core {solver.CORE}, {args.count} puzzles per rule, load average {os.getloadavg()[0]:.2f}")
    print("| rule | puzzles | median ms | worst ms |\n| --- | ---: | ---: | ---: |")
    for rule in args.rules.split(","):
        rows = [r for r in (SETS / f"bench_{rule}.txt").read_text().splitlines() if r and not r.startswith("#")]
        times = []
        for row in rows[: args.count]:
            _, givens, _, marks = row.split(" ", 3)
            puzzle = marks_line(f"{givens} {marks}", 1, "\n")
            geometry = variant_geometry(puzzle.variant)  # type: ignore[union-attr]
            grid = Grid(tuple(int(ch) for ch in givens), 3, 3)
            start = time.process_time()
            true_candidates(grid, geometry=geometry)
            times.append((time.process_time() - start) * 1000)
        print(f"| {rule} | {len(times)} | {statistics.median(times):.2f} | {max(times):.2f} |")


if __name__ == "__main__":
    main()
