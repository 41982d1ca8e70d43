"""The session's cost per plain one-line puzzle, in process (any tree: run it with PYTHONPATH set to the tree).

    PYTHONPATH=/path/to/tree python3 benchmarks/bench_session_lines.py [--set kaggle_bryanpark_first10000.csv] [--passes 3]
        [--grids]

``wire.session.Session().receive_data`` of a dataset's one-line puzzles as one
LF-terminated block (what a pipelining client sends): CPU microseconds per
line (``time.process_time``), the best of ``--passes``. Nothing is solved.
``--grids``: each puzzle as 9 rows of 9 cells instead (the general reader,
not the plain-line fast path); the figure is then per puzzle.
Compare two trees by running it alternately with each one's PYTHONPATH.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import datasets

from sudoku_server.wire.session import Session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", default="kaggle_bryanpark_first10000.csv")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--grids", action="store_true", help="9 rows a puzzle instead of one line")
    args = parser.parse_args()
    path = datasets.find(args.set)
    assert path is not None, args.set
    lines = datasets.one_line_puzzles(path)
    if args.grids:
        data = "".join(line[r : r + 9] + "\n" for line in lines for r in range(0, 81, 9)).encode("ascii")
    else:
        data = "".join(line + "\n" for line in lines).encode("ascii")
    best = []
    for _ in range(args.passes):
        session = Session()
        started = time.process_time()
        events = session.receive_data(data)
        best.append(time.process_time() - started)
        assert len(events) == len(lines)
    tree = Path(sys.modules[Session.__module__].__file__ or "").resolve().parents[2]
    unit = "puzzle of 9 rows" if args.grids else "line"
    print(f"{tree}: {min(best) / len(lines) * 1e6:.2f} µs a {unit} ({len(lines)} puzzles of {args.set})")


if __name__ == "__main__":
    main()
