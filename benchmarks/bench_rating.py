"""Agreement of ``sudoku_server.sudoku.rating`` with public ratings, its speed, and hodoku-py's.

Sections (any combination; ``--all`` for the three datasets):

  --hodoku FILE   HoDoKu's technique exemplars (hodoku_exemplars_1.0.txt, not
                  shipped: GPL-3.0). For each section whose technique the engine
                  implements, its puzzles whose path starts with singles only
                  (``s`` or ``ssts`` before the technique; ``x`` ones are left
                  out): apply singles (and, for ``ssts``, the SSTS techniques:
                  intersections, subsets, basic fish, XY-Wing, simple colouring)
                  until the engine's finder for that technique finds a step.
                  Every step applied is checked against the solution.
  --qqwing        qqwing_levels.tsv (QQWing 1.3.4's own level of 1,600 puzzles):
                  agreement of ``Rating.qqwing``; RATE time per puzzle.
  --diabolical    sudokuexchange_diabolical_se.txt (Sukaku Explainer ratings >= 5.0):
                  ``Rating.se`` within 0.3 of the published rating, mean absolute
                  error, Spearman rank correlation, confusion by 0.5 bucket,
                  ``hardest`` consistent with ``se``; RATE time per puzzle.
  --forum11 N     N puzzles spread evenly over tdoku_forum_hardest_1905_11plus.txt
                  (every one rated 11.0 or more by Sudoku Explainer): ``rate``'s
                  se, method and hardest technique, seconds per puzzle (p50, max).
                  With ``--nested`` each puzzle is also solved with the path where
                  every search step is first offered to the named finders
                  "dynamic forcing chains plus" then "nested forcing chains"
                  (SE 9.0+, then 9.5+ and 10.0+: levels 1, 2, 3 of
                  :mod:`sudoku_server.sudoku.techniques.nested`, not in the path):
                  se, hardest, search steps left, seconds.
  --top1465       magictour_top1465.txt (``--stride K``: every K-th puzzle): RATE
                  CPU time per puzzle, its p50/p90/p95/max, and the puzzles over
                  100 ms.
  --sixteen N     RATE on the generated 16x16 puzzles of seeds 0..N-1 (GENERATE
                  size=16 seed=s): CPU time per puzzle.
  --peer-python PY  also time hodoku-py (``hodoku.Solver().rate``) with that Python
                  (a venv with ``pip install hodoku-py``) on the first
                  ``--peer-limit`` puzzles of each timed set, in this same run,
                  one puzzle after another (benchmarks/peer_hodoku.py); ours is
                  timed on the same puzzles for the ratio.

RATE time is ``rating.rate(Grid.from_string(p))`` CPU time of this process
(time.process_time; the machine may be shared): the uniqueness check, the
whole path with every step checked against the solution, and the QQWing
level; printed as p50 / p90 / p95 / max. Every step of every path is checked
(a wrong step raises TechniqueError and the benchmark stops). The first line
names the solver core and the technique engine measured (``native``: the C
extension ``_engine``; ``python``); a pure-Python measurement needs
``--allow-python``.

Usage:
  python3 benchmarks/bench_rating.py --all --hodoku HODOKU/hodoku_exemplars_1.0.txt
  python3 benchmarks/bench_rating.py --diabolical --limit 200
  python3 benchmarks/bench_rating.py --forum11 20 --nested
  python3 benchmarks/bench_rating.py --top1465 --diabolical --sixteen 3
  python3 benchmarks/bench_rating.py --qqwing --diabolical --peer-python VENV/bin/python --peer-limit 100

HODOKU is wherever you keep HoDoKu's exemplar file (it is not shipped); VENV is
a virtual environment with ``pip install hodoku-py``.

Standard library only (plus the project).
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # datasets.py; the package is the installed one (or PYTHONPATH's)

import datasets  # noqa: E402

from sudoku_server import generate  # noqa: E402
from sudoku_server.sudoku import solver  # noqa: E402
from sudoku_server.sudoku.grid import Grid  # noqa: E402
from sudoku_server.sudoku.rating import rate  # noqa: E402
from sudoku_server.sudoku.techniques import Board, find_step, next_step_on, unique_solution  # noqa: E402

try:  # a tree before issue 18 has no native technique engine
    from sudoku_server.sudoku.techniques import native
except ImportError:  # pragma: no cover - the BEFORE tree
    native = None

# HoDoKu section -> the engine's finder for that technique
HODOKU_SECTIONS = {
    "0100": "pointing",
    "0101": "claiming",
    "0110": "naked pair",  # locked pair
    "0111": "naked triple",  # locked triple
    "0200": "naked pair",
    "0201": "naked triple",
    "0202": "naked quadruple",
    "0210": "hidden pair",
    "0211": "hidden triple",
    "0212": "hidden quadruple",
    "0300": "X-Wing",
    "0301": "Swordfish",
    "0302": "Jellyfish",
    "0400": "skyscraper",
    "0401": "two-string kite",
    "0402": "empty rectangle",
    "0403": "two strong links",  # turbot fish: any chain of two strong links
    "0500": "simple colouring",
    "0600": "unique rectangle type 1",
    "0601": "unique rectangle type 2",
    "0602": "unique rectangle type 3",
    "0603": "unique rectangle type 4",
    "0610": "BUG",
    "0701": "X-chain",
    "0702": "XY-chain",
    "0703": "XY-chain",  # remote pair: an XY-chain of one digit pair
    "0706": "nice loop",
    "0707": "AIC",  # discontinuous nice loop: an AIC from a candidate to itself
    "0708": "AIC",
    "0800": "XY-Wing",
    "0801": "XYZ-Wing",
    "0803": "W-Wing",
    "1202": "forcing chains",  # forcing chain verity: cell and unit forcing chains
}

SINGLES = ("full house", "hidden single", "naked single")
SSTS = SINGLES + (
    "pointing",
    "claiming",
    "naked pair",
    "hidden pair",
    "naked triple",
    "hidden triple",
    "naked quadruple",
    "hidden quadruple",
    "X-Wing",
    "Swordfish",
    "Jellyfish",
    "XY-Wing",
    "simple colouring",
)


def read_hodoku(path: Path):
    """(section code, section name, puzzle, path codes) for every exemplar puzzle line."""
    section = name = None
    out = []
    with datasets.open_text(path) as f:
        for raw in f:
            line = raw.strip()
            if line.startswith("#") and len(line) > 5 and line[1:5].isdigit() and line[5] == ":":
                section, name = line[1:5], line[6:].strip()
                continue
            if "#" in line and len(line.split("#")[0].strip()) == 81:
                puzzle, codes = line.split("#", 1)
                out.append((section, name, puzzle.strip(), codes.split()))
    return out


def hodoku_section(args) -> None:
    rows = read_hodoku(Path(args.hodoku))
    by = collections.OrderedDict()
    skipped_x = 0
    for section, name, puzzle, codes in rows:
        if not codes:
            continue
        if codes[0] == "x":
            skipped_x += 1
            continue
        by.setdefault((section, name), []).append((puzzle, codes[0]))
    print(f"\n## HoDoKu exemplars ({args.hodoku})\n")
    print(
        f"{sum(len(v) for v in by.values())} puzzles start with singles (s or ssts); {skipped_x} start with x (left out)\n"
    )
    print("| section | HoDoKu technique | engine finder | puzzles | found | share |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    total = found_total = 0
    not_impl = []
    checked = 0
    for (section, name), items in by.items():
        finder = HODOKU_SECTIONS.get(section)
        if finder is None:
            not_impl.append(f"{section} {name} ({len(items)})")
            continue
        found = 0
        for puzzle, start in items:
            grid = Grid.from_string(puzzle)
            solution = unique_solution(grid)
            board = Board.from_grid(grid)
            allowed = SINGLES if start == "s" else SSTS
            ok = False
            for _ in range(200):
                step = find_step(board, finder)
                if step is not None:
                    verify(step, solution)
                    checked += 1
                    ok = True
                    break
                for tech in allowed:
                    step = find_step(board, tech)
                    if step is not None:
                        break
                if step is None:
                    break
                verify(step, solution)
                checked += 1
                board.apply(step)
            found += ok
        total += len(items)
        found_total += found
        print(f"| {section} | {name} | {finder} | {len(items)} | {found} | {100 * found / len(items):.0f}% |")
    print(f"| all | | | {total} | {found_total} | {100 * found_total / max(1, total):.0f}% |")
    print(f"\nNot implemented (puzzles): {', '.join(not_impl)}")
    print(f"Steps checked against the solution: {checked}, all sound.")


def verify(step, solution) -> None:
    for c, d in step.placements:
        assert solution[c] == d, step.describe()
    for c, d in step.eliminations:
        assert solution[c] != d, step.describe()


def time_rate(puzzles):
    """(ratings, CPU seconds per puzzle) of ``rate`` on one-line puzzles (or grids), in order."""
    ratings, times = [], []
    for p in puzzles:
        grid = Grid.from_string(p) if isinstance(p, str) else p
        t0 = time.process_time()
        r = rate(grid)
        times.append(time.process_time() - t0)
        ratings.append(r)
    return ratings, times


def pct(times, q):
    s = sorted(times)
    return s[min(len(s) - 1, int(q * len(s)))]


def spread(times) -> str:
    """``median X ms, p90 ..., p95 ..., max ...`` of CPU seconds."""
    return (
        f"median {1000 * statistics.median(times):.1f} ms, p90 {1000 * pct(times, 0.9):.1f} ms, "
        f"p95 {1000 * pct(times, 0.95):.1f} ms, max {1000 * max(times):.1f} ms"
    )


def engine_name() -> str:
    if native is None:
        return "python (a tree without the native engine)"
    return "native" if native.engine(81, 9) is not None else "python"


def top1465_section(args, timed):
    path = datasets.find("magictour_top1465.txt", args.datasets)
    with datasets.open_text(path) as f:
        rows = [line.split()[0] for line in f if line.strip()]
    rows = rows[:: max(1, args.stride)]
    if args.limit:
        rows = rows[: args.limit]
    ratings, times = time_rate(rows)
    slow = sum(t > 0.1 for t in times)
    print(f"\n## top1465 ({path.name}, {len(rows)} puzzles, every {max(1, args.stride)})\n")
    print(f"RATE CPU time: {spread(times)}; over 100 ms: {slow}; steps checked: {sum(r.steps for r in ratings)}")
    timed.append(("top1465", rows, times))


def sixteen_section(args):
    grids = [generate(16, seed=s).puzzle for s in range(args.sixteen)]
    ratings, times = time_rate(grids)
    print(f"\n## 16x16 (generated, seeds 0..{args.sixteen - 1})\n")
    print(f"RATE CPU time: {spread(times)}; levels: {', '.join(r.level for r in ratings)}")


def qqwing_section(args, timed):
    path = datasets.find("qqwing_levels.tsv", args.datasets)
    rows = []
    with datasets.open_text(path) as f:
        for line in f:
            if line.strip():
                p, level = line.split()
                rows.append((p, level))
    if args.limit:
        step = max(1, len(rows) // args.limit)
        rows = rows[::step][: args.limit]
    ratings, times = time_rate([p for p, _ in rows])
    levels = ("simple", "easy", "intermediate", "expert")
    conf = collections.Counter((lvl, r.qqwing) for (_, lvl), r in zip(rows, ratings))
    agree = sum(v for (a, b), v in conf.items() if a == b)
    print(f"\n## QQWing levels ({path.name}, {len(rows)} puzzles)\n")
    print(f"Agreement: {agree}/{len(rows)} = {100 * agree / len(rows):.1f}%\n")
    print("| QQWing \\ ours | " + " | ".join(levels) + " |")
    print("| --- |" + " ---: |" * len(levels))
    for a in levels:
        print(f"| {a} | " + " | ".join(str(conf[(a, b)]) for b in levels) + " |")
    print(f"\nRATE CPU time: {spread(times)}; steps checked: {sum(r.steps for r in ratings)}")
    timed.append(("qqwing_levels", [p for p, _ in rows], times))


def spearman(xs, ys):
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy)


def bucket(v):
    lo = int(v * 2 + 1e-9) / 2
    return f"{lo:.1f}-{lo + 0.4:.1f}"


def diabolical_section(args, timed):
    path = datasets.find("sudokuexchange_diabolical_se.txt", args.datasets)
    rows = []
    with datasets.open_text(path) as f:
        for line in f:
            if line.strip():
                p, r = line.split()
                rows.append((p, float(r)))
    if args.limit:
        rows = rows[: args.limit]
    ratings, times = time_rate([p for p, _ in rows])
    pub = [r for _, r in rows]
    ours = [r.se for r in ratings]
    err = [abs(a - b) for a, b in zip(pub, ours)]
    within = sum(e <= 0.3 + 1e-9 for e in err)
    consistent = all(r.hardest is not None and r.hardest.se == r.se for r in ratings)
    print(f"\n## SE ratings ({path.name}, {len(rows)} puzzles, Sukaku Explainer ratings)\n")
    print(
        f"Within 0.3: {within}/{len(rows)} = {100 * within / len(rows):.1f}%; exact: "
        f"{sum(e < 0.05 for e in err)}; mean absolute error {statistics.mean(err):.3f}; "
        f"Spearman rank correlation {spearman(pub, ours):.3f}; hardest step sets se: {consistent}\n"
    )
    buckets = sorted({bucket(v) for v in pub + ours})
    conf = collections.Counter((bucket(a), bucket(b)) for a, b in zip(pub, ours))
    print("| published \\ ours | " + " | ".join(buckets) + " |")
    print("| --- |" + " ---: |" * len(buckets))
    for a in buckets:
        if any(conf[(a, b)] for b in buckets):
            print(f"| {a} | " + " | ".join(str(conf[(a, b)] or "") for b in buckets) + " |")
    hardest = collections.Counter(r.hardest.technique for r in ratings)
    print("\nHardest technique: " + ", ".join(f"{k} {v}" for k, v in hardest.most_common()))
    print(f"\nRATE CPU time: {spread(times)}; steps checked: {sum(r.steps for r in ratings)}")
    timed.append(("diabolical", [p for p, _ in rows], times))


def peer_section(args, timed):
    """Time ours and hodoku-py puzzle by puzzle, interleaved, so both see the same machine load."""
    print(f"\n## Speed against hodoku-py ({args.peer_python})\n")
    print("Interleaved: each puzzle is rated by ours, then by hodoku-py (a persistent subprocess).\n")
    print("| set | puzzles | ours median ms | ours p95 ms | hodoku-py median ms | hodoku-py p95 ms | median ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    proc = subprocess.Popen(
        [args.peer_python, str(HERE / "peer_hodoku.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    try:
        for name, puzzles, _ in timed:
            n = min(len(puzzles), args.peer_limit)
            if n < len(puzzles) and name == "qqwing_levels":
                idx = list(range(0, len(puzzles), max(1, len(puzzles) // n)))[:n]
            else:
                idx = list(range(n))
            ours, theirs = [], []
            for i in idx:
                p = puzzles[i]
                t0 = time.perf_counter()
                rate(Grid.from_string(p))
                ours.append(time.perf_counter() - t0)
                proc.stdin.write(p + "\n")
                proc.stdin.flush()
                theirs.append(json.loads(proc.stdout.readline())["seconds"])
            ratio = statistics.median(theirs) / statistics.median(ours)
            print(
                f"| {name} | {len(idx)} | {1000 * statistics.median(ours):.1f} | {1000 * pct(ours, 0.95):.1f} | "
                f"{1000 * statistics.median(theirs):.1f} | {1000 * pct(theirs, 0.95):.1f} | {ratio:.1f}x |"
            )
    finally:
        proc.stdin.close()
        proc.wait()


def nested_path(grid):
    """(hardest step, search steps left) of the path where a search step is first offered to the SE 9.0+ finders."""
    board = Board.from_grid(grid)
    solution = unique_solution(grid)
    hardest, searches = None, 0
    while True:
        step = next_step_on(board, solution)
        if step is None:
            return hardest, searches
        if step.technique == "search":
            alt = find_step(board, "dynamic forcing chains plus") or find_step(board, "nested forcing chains")
            if alt is not None:
                verify(alt, solution)
                step = alt
            else:
                searches += 1
        if hardest is None or step.se > hardest.se:
            hardest = step
        board.apply(step)


def forum11_section(args) -> None:
    path = datasets.find("tdoku_forum_hardest_1905_11plus.txt", args.datasets)
    if path is None:
        print("forum 11+: dataset not found")
        return
    every = datasets.one_line_puzzles(path)
    n = max(1, args.forum11)
    picks = [(i * len(every)) // n for i in range(n)]
    print(f"\n## forum 11+ ({len(picks)} of {len(every)} puzzles, spread evenly; SE rates every one 11.0 or more)")
    head = "| # | rate se | method | hardest | s |"
    if args.nested:
        head += " nested se | hardest | searches left | s |"
    print(head)
    print("|" + " --- |" * (head.count("|") - 1))
    ses, nses, times, ntimes = [], [], [], []
    names, nnames = collections.Counter(), collections.Counter()
    for i in picks:
        grid = Grid.from_string(every[i])
        t0 = time.perf_counter()
        r = rate(grid)
        dt = time.perf_counter() - t0
        ses.append(r.se)
        times.append(dt)
        names[r.hardest.technique if r.hardest else "none"] += 1
        row = f"| {i} | {r.se:.1f} | {r.method} | {r.hardest.technique if r.hardest else 'none'} | {dt:.2f} |"
        if args.nested:
            t0 = time.perf_counter()
            hardest, left = nested_path(grid)
            ndt = time.perf_counter() - t0
            nses.append(hardest.se)
            ntimes.append(ndt)
            nnames[hardest.technique] += 1
            row += f" {hardest.se:.1f} | {hardest.technique} | {left} | {ndt:.2f} |"
        print(row, flush=True)
    print(
        f"\nrate: se min {min(ses):.1f}, median {statistics.median(ses):.1f}; hardest {dict(names)};"
        f" seconds p50 {statistics.median(times):.2f}, max {max(times):.2f}"
    )
    if args.nested:
        print(
            f"nested path: se min {min(nses):.1f}, median {statistics.median(nses):.1f}; hardest {dict(nnames)};"
            f" seconds p50 {statistics.median(ntimes):.2f}, max {max(ntimes):.2f}"
        )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hodoku", metavar="FILE", help="path of hodoku_exemplars_1.0.txt")
    ap.add_argument("--qqwing", action="store_true")
    ap.add_argument("--diabolical", action="store_true")
    ap.add_argument("--all", action="store_true", help="--qqwing --diabolical (and --hodoku if given)")
    ap.add_argument(
        "--limit", type=int, default=0, help="at most this many puzzles per set (spread over qqwing's levels)"
    )
    ap.add_argument("--top1465", action="store_true", help="RATE CPU time on magictour_top1465")
    ap.add_argument("--stride", type=int, default=1, help="--top1465: every K-th puzzle (1)")
    ap.add_argument("--sixteen", type=int, default=0, metavar="N", help="RATE on generated 16x16 seeds 0..N-1")
    ap.add_argument("--allow-python", action="store_true", help="measure even if the core or engine is pure Python")
    ap.add_argument("--datasets", type=Path, help="directory of the dataset files")
    ap.add_argument("--forum11", type=int, default=0, metavar="N", help="N puzzles of the forum 11+ set")
    ap.add_argument("--nested", action="store_true", help="with --forum11: also the path with the SE 9.0+ finders")
    ap.add_argument("--peer-python", metavar="PY", help="a Python with hodoku-py installed")
    ap.add_argument("--peer-limit", type=int, default=100, help="puzzles per set timed with hodoku-py")
    args = ap.parse_args(argv)
    if args.all:
        args.qqwing = args.diabolical = True
    print(
        f"Python {sys.version.split()[0]}; solver core: {solver.CORE}; technique engine: {engine_name()}; "
        f"command: python3 benchmarks/bench_rating.py {' '.join(argv or sys.argv[1:])}"
    )
    if (solver.CORE != "native" or engine_name() != "native") and not args.allow_python:
        print("refusing a pure-Python measurement (build the extensions, or pass --allow-python)")
        return 2
    timed = []
    if args.top1465:
        top1465_section(args, timed)
    if args.sixteen:
        sixteen_section(args)
    if args.hodoku:
        hodoku_section(args)
    if args.qqwing:
        qqwing_section(args, timed)
    if args.diabolical:
        diabolical_section(args, timed)
    if args.forum11:
        forum11_section(args)
    if args.peer_python and timed:
        peer_section(args, timed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
