"""Our nice loop and AIC search held to HoDoKu 2.2.0's own path, state by state.

Reads a HoDoKu ``/vp`` output (every step of its path per puzzle; ``puzzles/hodoku/README.md`` says how to
make one), replays each path, and at each state where HoDoKu takes a nice loop, an AIC (plain or grouped) or
a later technique, runs :func:`sudoku_server.sudoku.hodoku_loops.nice_loop_step` (the plain search, then the
grouped one, as HoDoKu's path tries them) and compares: HoDoKu's loop must be ours (the same eliminations),
and where HoDoKu took a later technique we must find no loop. Prints the counts per HoDoKu step type and the
first mismatches.

Run: ``python3 benchmarks/check_hodoku_loops.py VP_FILE [--limit N] [--skip N] [--show N]``
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

from sudoku_server.sudoku.hodoku_grid import HGrid
from sudoku_server.sudoku.hodoku_loops import nice_loop_step

LOOPS = {
    "Discontinuous Nice Loop": False,
    "Continuous Nice Loop": False,
    "AIC": False,
    "Grouped Discontinuous Nice Loop": True,
    "Grouped Continuous Nice Loop": True,
    "Grouped AIC": True,
}
#: HoDoKu's techniques tried after its grouped nice loops (a state where it took one has no loop)
LATER = (
    "Almost Locked Set",
    "Franken",
    "Forcing",
    "Brute Force",
)
ITEM = re.compile(r"^((?:r\d+c\d+,?)+)(<>|=)(\d)$")
CELLS = re.compile(r"r(\d+)c(\d+)")


def effects(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """A ``/vp`` step's placements and eliminations, ``(cell, digit)`` pairs (cells 0..80)."""
    tail = text.split("=>", 1)[1] if "=>" in text else text.rsplit(":", 1)[-1]
    place: list[tuple[int, int]] = []
    elim: list[tuple[int, int]] = []
    for item in tail.split(", "):
        m = ITEM.match(item.strip())
        if not m:
            continue
        cells = [(int(r) - 1) * 9 + int(c) - 1 for rs, cs in CELLS.findall(m.group(1)) for r in rs for c in cs]
        out = elim if m.group(2) == "<>" else place
        out += [(c, int(m.group(3))) for c in cells]
    return place, elim


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("vp")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--show", type=int, default=10)
    args = ap.parse_args()
    puzzles: list[tuple[str, list[str]]] = []
    with open(args.vp) as f:
        for line in f:
            if not line.startswith(" "):
                puzzles.append((line.split()[0], []))
            elif puzzles:
                puzzles[-1][1].append(line.strip())
    puzzles = puzzles[args.skip :]
    if args.limit:
        puzzles = puzzles[: args.limit]
    counts: Counter[str] = Counter()
    shown = 0
    for n, (puzzle, steps) in enumerate(puzzles, args.skip + 1):
        g = HGrid.from_givens([0 if ch in ".0" else int(ch) for ch in puzzle])
        for text in steps:
            name = text.split(":", 1)[0].split(" =>", 1)[0]
            place, elim = effects(text)
            grouped = LOOPS.get(name)
            later = name.startswith(LATER)
            if grouped is not None or later:
                ours = nice_loop_step(g, False) or nice_loop_step(g, True)
                want = None if later else sorted(elim)
                got = None if ours is None else sorted(ours.eliminations)
                kind = name if grouped is not None else "later"
                ok = got == want and (ours is None or later or ours.grouped == grouped)
                counts[kind + (" ok" if ok else " MISMATCH")] += 1
                if not ok and shown < args.show:
                    shown += 1
                    print(f"#{n} {puzzle} step {steps.index(text) + 1}")
                    print(f"  hodoku: {text}")
                    print(f"  ours:   {ours.kind if ours else None} {got}")
            for c, d in place:
                g.set_cell(c, d)
            g.delete(elim)
            if name.startswith("Brute Force"):
                break
    for key, v in sorted(counts.items()):
        print(f"{key:45} {v}")


if __name__ == "__main__":
    main()
