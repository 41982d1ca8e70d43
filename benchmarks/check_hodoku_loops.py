"""Our nice loop, AIC and chain searches held to HoDoKu 2.2.0's own path, state by state.

Reads a HoDoKu ``/vp`` output (every step of its path per puzzle; ``puzzles/hodoku/README.md`` says how to
make one) and replays each path. At each state where HoDoKu takes a nice loop, an AIC (plain or grouped) or
a later technique, it runs :func:`sudoku_server.sudoku.hodoku_loops.nice_loop_step` (the plain search, then
the grouped one, as HoDoKu's path tries them); at each state where HoDoKu takes a Turbot Fish, an X-Chain,
an XY-Chain or a technique after one, :func:`sudoku_server.sudoku.hodoku_chains.chain_step`. HoDoKu's step
must be ours (the same eliminations), and where HoDoKu took a later technique we must find none. Prints
the counts per HoDoKu step type and the first mismatches.

Run: ``python3 benchmarks/check_hodoku_loops.py VP_FILE [--limit N] [--skip N] [--show N]``
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

from sudoku_server.sudoku.hodoku_chains import chain_step
from sudoku_server.sudoku.hodoku_grid import HGrid
from sudoku_server.sudoku.hodoku_loops import nice_loop_step
from sudoku_server.sudoku.hodoku_rating import STEPS

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
NAMES = [name for name, *_ in STEPS]
#: ``/vp`` names that are not :data:`STEPS` names -> the STEPS name whose place they take
ALIASES = (
    ("Discontinuous Nice", "Nice Loop/AIC"),
    ("Continuous Nice", "Nice Loop/AIC"),
    ("AIC", "Nice Loop/AIC"),
    ("Grouped", "Grouped Nice Loop/AIC"),
    ("Almost Locked Set Chain", "Almost Locked Set XY-Chain"),
    ("Forcing Chain", "Forcing Chain"),
    ("Forcing Net", "Forcing Net"),
    ("Simple Colors", "Simple Colors"),
    ("Multi Colors", "Multi Colors"),
    ("Brute Force", "Forcing Net"),
    ("Finned Franken", "Franken X-Wing"),
)
CHAINS = ("Turbot Fish", "X-Chain", "XY-Chain")
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


def place_of(name: str) -> int:
    """The index in :data:`STEPS` of a ``/vp`` step name (its alias's)."""
    for prefix, alias in ALIASES:
        if name.startswith(prefix):
            return NAMES.index(alias)
    return NAMES.index(name)


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
            elif puzzles and line.startswith("   ") and not line.startswith("    "):
                puzzles[-1][1].append(line.strip())  # a step (a net's chains, under it, are indented less)
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
            at = place_of(name)
            for kind in CHAINS:
                if at < NAMES.index(kind):
                    continue
                chain = chain_step(g, kind)
                want = sorted(elim) if at == NAMES.index(kind) else None
                got = None if chain is None else sorted(chain.eliminations)
                label = kind if want is not None else f"after {kind}"
                counts[label + (" ok" if got == want else " MISMATCH")] += 1
                if got != want and shown < args.show:
                    shown += 1
                    print(f"#{n} {puzzle} step {steps.index(text) + 1}")
                    print(f"  hodoku: {text}")
                    print(f"  ours:   {kind} {got}")
            for c, d in place:
                g.set_cell(c, d)
            g.delete(elim)
            if name.startswith("Brute Force"):
                break
    for key, v in sorted(counts.items()):
        print(f"{key:45} {v}")


if __name__ == "__main__":
    main()
