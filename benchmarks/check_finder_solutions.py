"""Run one ``HINT all`` finder over every distinct state of HoDoKu's regression library, each effect checked
against the state's solution: a finder with no HoDoKu to compare with (3D Medusa, BUG Lite) is held to the
solution instead. Prints the states, the steps found, the states with one, and any wrong effect.

    python3 benchmarks/check_finder_solutions.py medusa       # every_medusa.medusa
    python3 benchmarks/check_finder_solutions.py bug_lite     # every_bug_lite.bug_lite
    python3 benchmarks/check_finder_solutions.py kraken       # every_kraken.kraken_fish
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from check_hodoku_kraken import states

from sudoku_server.sudoku.check import no_check
from sudoku_server.sudoku.techniques import Board, Step, unique_solution
from sudoku_server.sudoku.techniques.board import Context
from sudoku_server.text import PuzzleReader


def finder(name: str) -> Callable[[Context], list[Step]]:
    if name == "medusa":
        from sudoku_server.sudoku.techniques.every_medusa import medusa

        return medusa
    if name == "bug_lite":
        from sudoku_server.sudoku.techniques.every_bug_lite import bug_lite

        return bug_lite
    from sudoku_server.sudoku.techniques.every_kraken import kraken_fish

    return kraken_fish


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("finder", choices=("medusa", "bug_lite", "kraken"))
    ap.add_argument("--limit", type=int, default=100000)
    args = ap.parse_args()
    find = finder(args.finder)
    n = steps = with_step = wrong = 0
    times = []
    for givens, deleted in states(args.limit, 0):
        (puzzle,) = PuzzleReader().feed_line(f":::{givens}:{deleted}:::", "\n", 1)
        candidates = puzzle.variant.candidates
        assert candidates is not None
        try:
            solution = unique_solution(puzzle.grid, check=no_check)
        except Exception:  # a library state without a unique solution: skipped
            continue
        board = Board.from_state(puzzle.grid, candidates)
        start = time.process_time()
        found = find(Context(board, no_check))
        times.append(time.process_time() - start)
        n += 1
        steps += len(found)
        with_step += bool(found)
        for s in found:
            bad = [(c, d) for c, d in s.eliminations if solution[c] == d]
            bad += [(c, d) for c, d in s.placements if solution[c] != d]
            if bad:
                wrong += 1
                print(f"WRONG :::{givens}:{deleted}::: {s.technique}{s.explanation} {bad}")
    times.sort()
    print(
        f"{args.finder}: {n} states, {steps} steps at {with_step} states, {wrong} wrong; "
        f"CPU s median {times[len(times) // 2]:.4f}, p95 {times[int(len(times) * 0.95)]:.4f}, max {times[-1]:.4f}"
    )


if __name__ == "__main__":
    main()
