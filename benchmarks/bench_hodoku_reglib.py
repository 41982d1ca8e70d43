"""HoDoKu's regression library through ``HINT all``: the per-family pass table and the time per state.

Every case of ``puzzles/hodoku/reglib-1.3.txt`` and ``reglib-1.4.txt`` is
sent as the issue says: its line with the technique, candidates,
eliminations, placements and extra fields blanked (``:::<givens>:<deleted>:::``),
read by the HoDoKu layout (``sudoku_server/text/hodoku.py``) and answered
by the service's ``HINT all`` (``service.answer`` on a ``HintAll`` request:
the solver for the state's solution, then every step). A case passes when
the steps with its base code (the variant suffix dropped) give exactly its
effects, one step's or the union of them all; a ``-x`` case passes when no
step has its code (``every.passes``).

    python3 benchmarks/bench_hodoku_reglib.py              # the table (markdown) and timings
    python3 benchmarks/bench_hodoku_reglib.py --write-passing tests/hodoku_reglib_passing.txt
    python3 benchmarks/bench_hodoku_reglib.py --only 0402 --failing   # the failing ids of one code

Timings are CPU seconds (``time.process_time``) per state, one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sudoku_server.service.answer import answer
from sudoku_server.service.requests import HintAll
from sudoku_server.service.results import HintedAll
from sudoku_server.sudoku.techniques.every import passes
from sudoku_server.text import PuzzleReader
from sudoku_server.text.hodoku import read_case

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ("reglib-1.3.txt", "reglib-1.4.txt")

#: Families as HoDoKu's header groups the codes (first matching prefix wins).
FAMILIES = (
    ("00", "singles"),
    ("01", "intersections"),
    ("02", "subsets"),
    ("030", "basic fish"),
    ("031", "finned/sashimi fish"),
    ("032", "finned/sashimi fish"),
    ("03", "Franken/mutant fish"),
    ("04", "single-digit patterns"),
    ("05", "colouring"),
    ("06", "uniqueness"),
    ("07", "chains and loops"),
    ("08", "wings"),
    ("09", "ALS"),
    ("11", "Sue de Coq"),
    ("12", "templates"),
)


def family(base: str) -> str:
    return next(name for prefix, name in FAMILIES if base.startswith(prefix))


def cases(only: str = "") -> list[tuple[str, str]]:
    """``(case id, line)``: id ``reglib-1.4.txt:123`` (file and line number)."""
    out = []
    for name in FILES:
        with open(os.path.join(HERE, "puzzles", "hodoku", name), encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                if line.startswith(":") and line.split(":")[1].startswith(only):
                    out.append((f"{name}:{no}", line.rstrip("\n")))
    return out


def judge(line: str) -> tuple[bool, float]:
    """Whether the case passes, and the CPU seconds ``HINT all`` took at its state."""
    case = read_case(line)
    fields = line.split(":")
    sent = ":::" + fields[3] + ":" + (fields[4] if len(fields) > 4 else "") + ":::"
    (puzzle,) = PuzzleReader().feed_line(sent, "\n", 1)
    request = HintAll(puzzle.grid, variant=puzzle.variant)
    start = time.process_time()
    result = answer(request)
    took = time.process_time() - start
    if not isinstance(result, HintedAll):
        return False, took
    effects = {(c, d, False) for c, d in case.eliminations} | {(c, d, True) for c, d in case.placements}
    return passes(result.found, case.base, case.fail, effects), took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="codes starting with this")
    ap.add_argument("--failing", action="store_true", help="list the failing case ids")
    ap.add_argument("--write-passing", metavar="FILE", help="write the passing case ids, one a line")
    args = ap.parse_args()
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    times: list[float] = []
    passing, failing = [], []
    verdicts: dict[str, bool] = {}  # the two files share most lines: each state judged (and timed) once
    for cid, line in cases(args.only):
        if line not in verdicts:
            verdicts[line], took = judge(line)
            times.append(took)
        ok = verdicts[line]
        base = line.split(":")[1].split("-")[0]
        row = table[(cid.split(":")[0], family(base))]
        row[0] += ok
        row[1] += 1
        (passing if ok else failing).append(f"{cid} {line.split(':')[1]}")
    print("| family | reglib-1.3 | reglib-1.4 |")
    print("| --- | ---: | ---: |")
    names = list(dict.fromkeys(name for _, name in FAMILIES))
    totals = {f: [0, 0] for f in FILES}
    for name in names:
        cells = []
        for f in FILES:
            ok, n = table.get((f, name), (0, 0))
            totals[f][0] += ok
            totals[f][1] += n
            cells.append(f"{ok}/{n}" if n else "-")
        if any(c != "-" for c in cells):
            print(f"| {name} | {cells[0]} | {cells[1]} |")
    print(
        "| **all** | "
        + " | ".join(
            f"**{totals[f][0]}/{totals[f][1]}** ({100 * totals[f][0] / max(1, totals[f][1]):.1f}%)" for f in FILES
        )
        + " |"
    )
    times.sort()
    if times:
        print(
            f"\nHINT all per state (CPU s): median {times[len(times) // 2]:.3f}, p95 {times[int(len(times) * 0.95)]:.3f},"
            f" max {times[-1]:.3f} over {len(times)} states"
        )
    if args.failing:
        print("\n".join(failing))
    if args.write_passing:
        with open(args.write_passing, "w", encoding="utf-8") as f:
            f.write("# HoDoKu reglib cases HINT all passes (benchmarks/bench_hodoku_reglib.py --write-passing)\n")
            f.write("".join(cid.split()[0] + "\n" for cid in passing))


if __name__ == "__main__":
    main()
