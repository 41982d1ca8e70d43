"""Our Kraken fish (``HINT all``'s ``0371``/``0372`` lines) held to HoDoKu 2.2.0's own search, state by state.

For each distinct state of HoDoKu's regression library (``puzzles/hodoku/reglib-1.4.txt``, every code, its
fields blanked as ``bench_hodoku_reglib.py`` sends them) it runs ``HINT all`` (``service.answer``; every
elimination is checked against the state's solution there) and HoDoKu's ``getAllKrakenFishes`` with its
"find all steps" defaults, through ``benchmarks/hodoku/KrakenDriver.java`` (ours: it calls HoDoKu's classes,
it holds none of HoDoKu's code). Prints how many states agree exactly (the set of ``(code, elimination)``)
and the first differences.

Build HoDoKu from source (``puzzles/hodoku/README.md``), then the driver::

    javac --release 8 -cp HODOKU/classes -d HODOKU/classes benchmarks/hodoku/KrakenDriver.java
    python3 benchmarks/check_hodoku_kraken.py --classes HODOKU/classes [--limit N] [--skip N] [--show N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sudoku_server.service.answer import answer
from sudoku_server.service.requests import HintAll
from sudoku_server.service.results import HintedAll
from sudoku_server.text import PuzzleReader

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODES = ("0371", "0372")


def states(limit: int, skip: int) -> list[tuple[str, str]]:
    """``(givens, deleted)`` of reglib-1.4's distinct states, in file order."""
    seen: dict[tuple[str, str], None] = {}
    with open(os.path.join(HERE, "puzzles", "hodoku", "reglib-1.4.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(":"):
                fields = line.rstrip("\n").split(":")
                seen.setdefault((fields[3], fields[4] if len(fields) > 4 else ""), None)
    return list(seen)[skip : skip + limit]


def ours(givens: str, deleted: str) -> tuple[set[str], float]:
    (puzzle,) = PuzzleReader().feed_line(f":::{givens}:{deleted}:::", "\n", 1)
    start = time.process_time()
    result = answer(HintAll(puzzle.grid, variant=puzzle.variant))
    took = time.process_time() - start
    assert isinstance(result, HintedAll), result
    out = set()
    for f in result.found:
        if f.code in CODES:
            ((c, d),) = f.step.eliminations
            out.add(f"{f.code} r{c // 9 + 1}c{c % 9 + 1}<>{d}")
    return out, took


def hodoku(classes: str, rows: list[tuple[str, str]]) -> list[set[str]]:
    lines = "".join(givens.replace("+", "").replace(".", "0") + " " + deleted + "\n" for givens, deleted in rows)
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(
            [
                "java",
                "-Djava.awt.headless=true",
                "-Djava.util.Arrays.useLegacyMergeSort=true",
                f"-Djava.io.tmpdir={tmp}",
                "-cp",
                classes,
                "solver.KrakenDriver",
            ],
            input=lines,
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp,
        )
    got = [line[len("KRAKEN ") :] for line in run.stdout.splitlines() if line.startswith("KRAKEN")]
    assert len(got) == len(rows), (len(got), len(rows))
    return [set(g.split(" | ")) - {""} for g in got]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--classes", required=True, help="HoDoKu's compiled classes with KrakenDriver")
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args()
    rows = states(args.limit, args.skip)
    theirs = hodoku(args.classes, rows)
    same = with_kraken = 0
    extra = missing = 0
    shown = 0
    times = []
    for (givens, deleted), want in zip(rows, theirs, strict=True):
        got, took = ours(givens, deleted)
        times.append(took)
        with_kraken += bool(want)
        if got == want:
            same += 1
            continue
        extra += len(got - want)
        missing += len(want - got)
        if shown < args.show:
            shown += 1
            print(f":::{givens}:{deleted}:::")
            print("  ours only:  ", sorted(got - want))
            print("  HoDoKu only:", sorted(want - got))
    times.sort()
    print(
        f"{same}/{len(rows)} states agree ({with_kraken} with a Kraken fish in HoDoKu); "
        f"{extra} lines ours only, {missing} HoDoKu's only; HINT all CPU s median {times[len(times) // 2]:.3f}, "
        f"p95 {times[int(len(times) * 0.95)]:.3f}, max {times[-1]:.3f}"
    )


if __name__ == "__main__":
    main()
