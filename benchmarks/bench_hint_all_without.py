"""``HINT all``'s CPU time per state with and without some of its enumerators, alternating state by state.

At every ``--step``-th distinct state of ``puzzles/hodoku/reglib-1.4.txt`` it times
:func:`~sudoku_server.sudoku.techniques.every.all_steps` (the solution given, every effect checked) with
every enumerator (after) and with the ``--without`` ones left out (before), in turn, in one process, so
the comparison holds while the machine's load drifts. Prints median, p95 and max per side (CPU seconds,
``time.process_time``) and the median of the per-state ratios.

    python3 benchmarks/bench_hint_all_without.py --without "Kraken fish,3D Medusa,BUG Lite" --step 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from check_hodoku_kraken import states

from sudoku_server.sudoku.check import no_check
from sudoku_server.sudoku.techniques import Board, every, unique_solution
from sudoku_server.text import PuzzleReader


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--without", required=True, help="enumerator names (every.ENUMERATORS), comma-separated")
    ap.add_argument("--step", type=int, default=5)
    args = ap.parse_args()
    left_out = set(args.without.split(","))
    full = every.ENUMERATORS
    assert left_out <= {name for name, _ in full}, left_out - {name for name, _ in full}
    fewer = tuple(e for e in full if e[0] not in left_out)
    before: list[float] = []
    after: list[float] = []
    for givens, deleted in states(100000, 0)[:: args.step]:
        (puzzle,) = PuzzleReader().feed_line(f":::{givens}:{deleted}:::", "\n", 1)
        assert puzzle.variant.candidates is not None
        try:
            solution = unique_solution(puzzle.grid, check=no_check)
        except Exception:  # a library state without a unique solution: skipped
            continue
        for enumerators, times in ((fewer, before), (full, after)):
            every.ENUMERATORS = enumerators
            board = Board.from_state(puzzle.grid, puzzle.variant.candidates)
            start = time.process_time()
            every.all_steps(board, solution, kraken=True)
            times.append(time.process_time() - start)
    every.ENUMERATORS = full
    ratios = [a / b for a, b in zip(after, before, strict=True) if b]
    for name, times in (("before", before), ("after", after)):
        s = sorted(times)
        print(
            f"{name}: median {s[len(s) // 2]:.3f}, p95 {s[int(len(s) * 0.95)]:.3f}, max {s[-1]:.3f} s over {len(s)} states"
        )
    print(f"after/before per state: median {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
