"""RATE's time and rating per puzzle on the stored marks sets (issue 29: named steps, the search otherwise).

For each rule of ``--rules``, the first ``--count`` puzzles of
``puzzles/variants/bench_<rule>.txt`` (CP-SAT-checked unique puzzles,
puzzles/SOURCES.md): :func:`sudoku_server.sudoku.rating.rate` on the
puzzle's grid and geometry, CPU time (``time.process_time``) per puzzle, in
process, on the solver core and technique engine in use. Prints a markdown
table per rule: median, 90th percentile and worst ms; how many puzzles the
path solved without the search step; the steps of the rule's own
technique (its pair or sum step), of its line step (thermometer bounds,
renban run, whispers neighbours) and of the search over all the paths.

Imports the installed package (``pip install -e .`` or a wheel), not the
checkout: run it as ``python3 benchmarks/bench_rule_rating.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rating import rate
from sudoku_server.sudoku.rules import rule_of
from sudoku_server.sudoku.techniques import Board, steps_on
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line

RULES = ["oddeven", "thermo", "kropki", "xv", "whispers", "palindrome", "renban", "arrow", "littlekiller", "sandwich"]
SETS = Path(__file__).resolve().parent.parent / "puzzles" / "variants"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per rule (default 20)")
    parser.add_argument("--rules", default=",".join(RULES), help="comma-separated rule words (default: the ten)")
    args = parser.parse_args()
    print(f"core {solver.CORE}, {args.count} puzzles per rule, load average {os.getloadavg()[0]:.2f}")
    print("| rule | puzzles | median ms | p90 ms | worst ms | no search | rule's steps | line steps | search steps |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for word in args.rules.split(","):
        rows = [r for r in (SETS / f"bench_{word}.txt").read_text().splitlines() if r and not r.startswith("#")]
        times, plain, own, lined, searched = [], 0, 0, 0, 0
        step, line = rule_of(word).step, rule_of(word).line
        for row in rows[: args.count]:
            _, givens, solution, marks = row.split(" ", 3)
            puzzle = marks_line(f"{givens} {marks}", 1, "\n")
            geometry = variant_geometry(puzzle.variant)  # type: ignore[union-attr]
            grid = Grid(tuple(int(ch) for ch in givens), 3, 3)
            start = time.process_time()
            rate(grid, geometry=geometry)
            times.append((time.process_time() - start) * 1000)
            steps = steps_on(Board.from_grid(grid, geometry), [int(ch) for ch in solution])
            names = [s.technique for s in steps]
            plain += "search" not in names
            own += sum(1 for name in names if step and name == step.name)
            lined += sum(1 for name in names if line and name == line.name)
            searched += names.count("search")
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"| {word} | {len(times)} | {statistics.median(times):.1f} | {p90:.1f} | {times[-1]:.1f} "
            f"| {plain} | {own} | {lined} | {searched} |"
        )


if __name__ == "__main__":
    main()
