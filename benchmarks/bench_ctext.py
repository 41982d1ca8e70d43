"""Text in C: one-line puzzles text to text, against the raw solve and the Python text layer (in process).

    PYTHONPATH=/path/to/tree python3 benchmarks/bench_ctext.py [--sets kaggle,top1465] [--passes 5] [--limit N]

For each set (kaggle: ``kaggle_bryanpark_first10000.csv``, its 10,000
puzzles; top1465: ``magictour_top1465.txt``), the puzzles as one block of
LF-terminated lines, and three ways through them, in CPU seconds of this
process (``time.process_time``), per puzzle, median of ``--passes``
interleaved passes (raw, old, new, raw, old, new, ...):

  raw  ``solver.solve(grid)`` on grids parsed before the clock starts
  old  the Python text layer, the server's bulk path before issue 18:
       ``text.PuzzleReader.feed_line`` per line, ``service.answer_many``,
       ``wire.replies.render_many`` (bytes in, reply bytes out)
  new  ``solver.solve_lines`` (the native core reads and writes the text;
       bytes in, reply bytes out)

and the ratios old/raw and new/raw (issue 18's target: new/raw <= 1.5).
Both text paths split the block into lines and give the same bytes (checked
on every pass). It imports the installed package (run it with PYTHONPATH set
to the tree), prints the core it measured, and refuses the pure-Python core
unless ``--allow-python``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import datasets

from sudoku_server.service.answer import answer_many
from sudoku_server.service.requests import Solve
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.text import Puzzle, PuzzleReader
from sudoku_server.wire import replies

SETS = {"kaggle": "kaggle_bryanpark_first10000.csv", "top1465": "magictour_top1465.txt"}


def raw(grids: list[Grid]) -> bytes:
    solve = solver.solve
    for grid in grids:
        solve(grid)
    return b""


def old(data: bytes) -> bytes:
    reader = PuzzleReader()
    puzzles: list[Puzzle] = []
    for lineno, line in enumerate(data.decode("utf-8", "surrogateescape").split("\n")[:-1], 1):
        for event in reader.feed_line(line, "\n", lineno):
            assert isinstance(event, Puzzle)
            puzzles.append(event)
    results = answer_many((Solve(p.grid, expected=p.expected), "the puzzle") for p in puzzles)
    return replies.render_many(results, puzzles)


def new(data: bytes) -> bytes:
    out: list[bytes | None] = []
    solver.solve_lines(data.splitlines(keepends=True), out, check=None)
    assert None not in out
    return b"".join(out)  # type: ignore[arg-type]


def cpu(fn, arg) -> tuple[float, bytes]:
    started = time.process_time()
    result = fn(arg)
    return time.process_time() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default="kaggle,top1465", help="comma-separated: kaggle, top1465")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--limit", type=int, default=None, help="the first N puzzles of each set (a smoke run)")
    parser.add_argument("--allow-python", action="store_true", help="measure the pure-Python core too")
    args = parser.parse_args()
    print(f"solver core: {solver.CORE} (sudoku_server from {Path(solver.__file__).resolve().parents[3]})")
    if solver.CORE != "native" and not args.allow_python:
        raise SystemExit("the native core is not in use: build it, or pass --allow-python")
    print("| set | puzzles | raw solve µs | old text to text µs | new text to text µs | old/raw | new/raw |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in args.sets.split(","):
        path = datasets.find(SETS[name])
        assert path is not None, SETS[name]
        lines = datasets.one_line_puzzles(path, args.limit)
        grids = [Grid.from_string(line) for line in lines]
        data = "".join(line + "\n" for line in lines).encode("ascii")
        times: dict[str, list[float]] = {"raw": [], "old": [], "new": []}
        for _ in range(args.passes):
            seconds, _ = cpu(raw, grids)
            times["raw"].append(seconds)
            seconds, old_bytes = cpu(old, data)
            times["old"].append(seconds)
            seconds, new_bytes = cpu(new, data)
            times["new"].append(seconds)
            assert old_bytes == new_bytes, "the two text paths differ"
        us = {key: statistics.median(values) / len(lines) * 1e6 for key, values in times.items()}
        print(
            f"| {name} | {len(lines)} | {us['raw']:.2f} | {us['old']:.2f} | {us['new']:.2f}"
            f" | {us['old'] / us['raw']:.2f} | {us['new'] / us['raw']:.2f} |"
        )


if __name__ == "__main__":
    main()
