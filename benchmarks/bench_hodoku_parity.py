"""HoDoKu parity: our HoDoKu level and score (RATE's ``hodoku=``) against HoDoKu 2.2.0's own, per source.

Reads ``puzzles/hodoku/rated-2.2.0.txt`` (``<puzzle> <level> <score> <source>``, rated by HoDoKu 2.2.0
``/bs`` with its default settings, the puzzles it had to guess left out; ``puzzles/hodoku/README.md``)
and prints, per source and overall, how many levels and scores are equal, then the slowest ratings.

Run: ``python3 benchmarks/bench_hodoku_parity.py [--limit N] [--source NAME] [--show N]``
(imports the installed package, or the worktree with ``PYTHONPATH=$PWD``).
"""

from __future__ import annotations

import argparse
import pathlib
import time
from collections import Counter, defaultdict

from sudoku_server.sudoku.hodoku_rating import hodoku_rating

DATA = pathlib.Path(__file__).resolve().parent.parent / "puzzles" / "hodoku" / "rated-2.2.0.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N puzzles")
    ap.add_argument("--source", default="", help="only puzzles of this source (kaggle, sudoku17, top1465)")
    ap.add_argument("--show", type=int, default=10, help="print up to N mismatches")
    args = ap.parse_args()
    rows = [line.split() for line in DATA.read_text().splitlines() if line.strip()]
    if args.source:
        rows = [r for r in rows if r[3] == args.source]
    if args.limit:
        rows = rows[: args.limit]
    per: dict[str, Counter[str]] = defaultdict(Counter)
    times: list[tuple[float, str]] = []
    shown = 0
    for puzzle, level, score, source in rows:
        givens = [0 if ch in ".0" else int(ch) for ch in puzzle]
        t0 = time.perf_counter()
        r = hodoku_rating(givens)
        dt = time.perf_counter() - t0
        times.append((dt, puzzle))
        for key in (source, "all"):
            c = per[key]
            c["n"] += 1
            c["level"] += r.level == level
            c["score"] += r.score == int(score)
            c["incomplete"] += not r.complete
        if (r.level != level or r.score != int(score)) and shown < args.show:
            shown += 1
            print(f"mismatch {puzzle} hodoku={level}:{score} ours={r.field}")
    print(f"{'source':10} {'puzzles':>7} {'level=':>8} {'score=':>8} {'stopped':>7}")
    for key, c in sorted(per.items(), key=lambda kv: kv[0] == "all"):
        n = c["n"]
        print(f"{key:10} {n:7d} {100 * c['level'] / n:7.2f}% {100 * c['score'] / n:7.2f}% {c['incomplete']:7d}")
    times.sort()
    if times:
        p95 = times[int(0.95 * (len(times) - 1))][0]
        print(
            f"time per puzzle: median {1000 * times[len(times) // 2][0]:.1f} ms, p95 {1000 * p95:.1f} ms, "
            f"max {1000 * times[-1][0]:.1f} ms"
        )


if __name__ == "__main__":
    main()
