"""Time UNIQUE and MINIMAL in process (issue 20: <= 10 ms median on 17-clue puzzles with one clue removed).

What is timed (wall time of ``service.answer`` of the request and
``wire.replies.render`` of its result, ``time.perf_counter``, one request at
a time, the native core unless ``--allow-python-core``):

  UNIQUE 16     sudoku17 (Royle's 49,151 minimal 17-clue puzzles) with one
                given removed at random (seeded): several solutions, the
                reply names two, where they differ and the clues that fix it
                (checked: the removed given is among them)
  UNIQUE 17     the same puzzles whole: ``UNIQUE yes``
  MINIMAL 16    the 16-clue puzzles: ``ERROR multiple ...`` (the reply of
                MINIMAL to a puzzle with several solutions, naming a cell)
  MINIMAL 17    the 17-clue puzzles whole: ``MINIMAL yes`` (17 counts)
  MINIMAL 18    with one given added from the solution: ``MINIMAL no ...``
                naming it (checked)

Columns: puzzles, median / p90 / p99 / max ms. The machine is shared:
repeat for a steadier median.

Usage:
  python3 benchmarks/bench_unique.py                    # 1000 puzzles
  python3 benchmarks/bench_unique.py --count 200 --seed 7
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benchmarks' own helpers, not the package

import corecheck
import datasets

from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Minimal, Unique
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid, cell_name
from sudoku_server.wire.replies import render


def timed(request) -> tuple[float, bytes]:
    started = time.perf_counter()
    reply = render(answer(request))
    return time.perf_counter() - started, reply


def row(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    pick = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731
    return f"| {name} | {len(ms)} | {statistics.median(ms):.2f} | {pick(0.9):.2f} | {pick(0.99):.2f} | {ms[-1]:.2f} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles of sudoku17 (the first N; default 1000)")
    parser.add_argument("--seed", type=int, default=20, help="seed of the given removed / added (default 20)")
    corecheck.add_flag(parser)
    args = parser.parse_args()
    corecheck.require_native(solver.CORE, args.allow_python_core, "in process")
    path = datasets.find("sudoku17_royle_49151.txt")
    if path is None:
        print("sudoku17_royle_49151.txt not found", file=sys.stderr)
        return 1
    puzzles = datasets.one_line_puzzles(path, args.count)
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {
        name: [] for name in ("UNIQUE 16", "UNIQUE 17", "MINIMAL 16", "MINIMAL 17", "MINIMAL 18")
    }
    for text in puzzles:
        whole = Grid.from_string(text)
        givens = [i for i, v in enumerate(whole.cells) if v]
        gone = rng.choice(givens)
        cells = list(whole.cells)
        cells[gone] = 0
        less = Grid(tuple(cells))
        solution = solver.solve(whole).cells
        added = rng.choice([i for i, v in enumerate(whole.cells) if not v])
        cells = list(whole.cells)
        cells[added] = solution[added]
        more = Grid(tuple(cells))

        seconds, reply = timed(Unique(less))
        clue = f"{cell_name(gone)}={whole.cells[gone]}".encode()
        assert reply.startswith(b"UNIQUE no ") and clue in reply.split(b" add", 1)[1].split(), reply
        times["UNIQUE 16"].append(seconds)
        seconds, reply = timed(Unique(whole))
        assert reply == b"UNIQUE yes\n", reply
        times["UNIQUE 17"].append(seconds)
        seconds, reply = timed(Minimal(less))
        assert reply.startswith(b"ERROR multiple "), reply
        times["MINIMAL 16"].append(seconds)
        seconds, reply = timed(Minimal(whole))
        assert reply == b"MINIMAL yes\n", reply
        times["MINIMAL 17"].append(seconds)
        seconds, reply = timed(Minimal(more))
        assert reply.startswith(b"MINIMAL no ") and cell_name(added).encode() in reply.split(), reply
        times["MINIMAL 18"].append(seconds)
    print(f"sudoku17, first {len(puzzles)} puzzles, seed {args.seed}")
    print("| request | puzzles | median ms | p90 ms | p99 ms | max ms |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, seconds in times.items():
        print(row(name, seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
