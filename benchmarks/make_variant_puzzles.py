"""Make the stored benchmark puzzles of every variant rule set (issue 27): puzzles/variants/bench_<rules>.txt.

Each set is made by ``bench_variants.make_set`` (seeded, reproducible): a
random solution of the rules, then its givens removed in random order while
the native core still counts one solution (a MINIMAL puzzle); jigsaw regions
and killer cages as that module's docstring says (a killer set is pure
killer: make_set ignores other rules beside killer, so no killer+x set). Then OR-Tools CP-SAT
(``tests/support/cpsat_oracle.solutions``, limit 2) checks that the first
``--cpsat`` puzzles of each set have exactly that one solution; a puzzle it
finds a second solution for (or the wrong one) stops the run.

File format, one puzzle per line after ``#`` comment lines (how the set was
made, the command, the CP-SAT check):
``<rules> <81 givens, 0 empty> <81 solution digits> [regions=<81 region digits 0-8>] [cages=<total>:<cell>.<cell>..;...]``
(cells 0-based row-major). ``bench_variants.py --files`` reads them back.

The ten rules that take marks (issue 29: oddeven, thermo, kropki, xv,
whispers, palindrome, renban, arrow, littlekiller, sandwich; ``--rules marks``
names them all) are made by ``marks_puzzles.make_puzzle`` (random marks a classic
solution keeps, then givens removed while the native core counts one
solution) and stored as ``<rule> <givens> <solution> <rule>=<marks>``: the
marks in the line syntax (docs/LAYOUTS.md, "Marks after a line"), so
``<givens> <rule>=<marks>`` (``.`` for ``0``) is the request line a client
sends.

Usage:
  python3 benchmarks/make_variant_puzzles.py --count 100 --cpsat 20
  python3 benchmarks/make_variant_puzzles.py --rules nonconsecutive --count 50 --cpsat 50
  python3 benchmarks/make_variant_puzzles.py --rules marks --count 500 --cpsat 500 --seed 29
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import bench_variants as bv
import marks_puzzles

from sudoku_server.sudoku.constraints import Sum
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.variants import parse_rules

OUT = Path(__file__).resolve().parent.parent / "puzzles" / "variants"

DEFAULT_RULES = "x,windoku,antiknight,antiking,nonconsecutive,jigsaw,x+antiknight,jigsaw+x,killer"


def _data(geo: Geometry) -> str:
    """The regions and cages of ``geo``, as the file writes them."""
    words = []
    regions = [u for u, name in zip(geo.units, geo.unit_names) if name.startswith("region")]
    if regions:
        of = [0] * geo.ncells
        for k, unit in enumerate(regions):
            for c in unit:
                of[c] = k
        words.append("regions=" + "".join(map(str, of)))
    cages = [c for c in geo.constraints if isinstance(c, Sum) and c.distinct]
    if cages:
        words.append("cages=" + ";".join(f"{cage.total}:{'.'.join(map(str, cage.cells))}" for cage in cages))
    return " ".join(words)


def _marks_set(rule: str, args: argparse.Namespace, cpsat_oracle: Any) -> None:
    """Make, check and store the set of one rule that takes marks (``marks_puzzles``)."""
    rng = random.Random(f"{args.seed}:{rule}")
    made = time.perf_counter()
    puzzles = [marks_puzzles.make_puzzle(rule, rng, args.cap_ms) for _ in range(args.count)]
    made = time.perf_counter() - made
    checked = time.perf_counter()
    for givens, solution, marks in puzzles[: args.cpsat]:
        _grid, geo, _variant = marks_puzzles.read_line(marks_puzzles.request_line(givens, rule, marks))
        found = cpsat_oracle.solutions(givens, geo, limit=2, seconds=600.0)
        if found != [solution]:
            raise SystemExit(f"{rule}: CP-SAT finds {len(found)} solutions, or another one: {marks}")
    checked = time.perf_counter() - checked
    given = sum(sum(1 for d in g if d) for g, _, _ in puzzles) / len(puzzles)
    cap = f", a count past {args.cap_ms:g} ms keeping its given" if args.cap_ms else ""
    lines = [
        f"# {len(puzzles)} {'near-' if args.cap_ms else ''}minimal 9x9 puzzles of rules={rule} (seed {args.seed}), made by"
        " benchmarks/make_variant_puzzles.py",
        "# (marks_puzzles.make_puzzle: random marks a classic solution keeps, then givens removed while the native",
        f"# core counts one solution{cap}; {given:.1f} givens on average), the first {min(args.cpsat, len(puzzles))}"
        " checked unique by OR-Tools CP-SAT",
        "# (tests/support/cpsat_oracle.py, limit 2).",
        f"# python3 benchmarks/make_variant_puzzles.py --rules {rule} --count {args.count}"
        f" --seed {args.seed} --cpsat {args.cpsat}" + (f" --cap-ms {args.cap_ms:g}" if args.cap_ms else ""),
        f"# <rule> <givens, 0 empty> <solution> {rule}=<marks> (docs/LAYOUTS.md, 'Marks after a line')",
    ]
    lines += [f"{rule} {''.join(map(str, g))} {''.join(map(str, s))} {rule}={marks}" for g, s, marks in puzzles]
    path = args.out / f"bench_{rule}.txt"
    path.write_text("\n".join(lines) + "\n")
    print(
        f"{path.name}: {len(puzzles)} made in {made:.1f} s ({given:.1f} givens), CP-SAT checked"
        f" {min(args.cpsat, len(puzzles))} in {checked:.1f} s",
        flush=True,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default=DEFAULT_RULES, help=f"rule sets, comma-separated (default {DEFAULT_RULES})")
    parser.add_argument("--count", type=int, default=100, help="puzzles per rule set (default 100)")
    parser.add_argument("--seed", type=int, default=27, help="the seed of every set (default 27)")
    parser.add_argument("--cpsat", type=int, default=20, help="puzzles per set checked unique by CP-SAT (default 20)")
    parser.add_argument(
        "--cap-ms",
        type=float,
        default=0.0,
        help="marks rules: a uniqueness count searching longer keeps its given (default 0: no cap)",
    )
    parser.add_argument("--out", type=Path, default=OUT, help="the folder the files go to (default puzzles/variants)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.support import cpsat_oracle

    for words in args.rules.replace("marks", ",".join(marks_puzzles.RULES)).split(","):
        if words in marks_puzzles.RULES:
            _marks_set(words, args, cpsat_oracle)
            continue
        rules = parse_rules(words)
        made = time.perf_counter()
        puzzles = bv.make_set(rules, args.count, args.seed)
        made = time.perf_counter() - made
        checked = time.perf_counter()
        for geo, givens, solution in puzzles[: args.cpsat]:
            found = cpsat_oracle.solutions(givens, geo, limit=2, seconds=600.0)
            if found != [solution]:
                raise SystemExit(f"{words}: CP-SAT finds {len(found)} solutions, or another one")
        checked = time.perf_counter() - checked
        name = "+".join(rules)
        lines = [
            f"# {len(puzzles)} minimal 9x9 puzzles of rules={name} (seed {args.seed}; killer: cages, no givens),",
            "# made by benchmarks/make_variant_puzzles.py (bench_variants.make_set: givens removed while the",
            "# native core counts one solution), the first"
            f" {min(args.cpsat, len(puzzles))} checked unique by OR-Tools CP-SAT (tests/support/cpsat_oracle.py).",
            f"# python3 benchmarks/make_variant_puzzles.py --rules {name} --count {args.count}"
            f" --seed {args.seed} --cpsat {args.cpsat}",
            "# <rules> <givens> <solution> [regions=..] [cages=total:cell.cell;..] (cells 0-based row-major)",
        ]
        for geo, givens, solution in puzzles:
            line = f"{name} {''.join(map(str, givens))} {''.join(map(str, solution))} {_data(geo)}".rstrip()
            lines.append(line)
        path = args.out / f"bench_{name.replace('+', '_')}.txt"
        path.write_text("\n".join(lines) + "\n")
        print(f"{path.name}: {len(puzzles)} made in {made:.1f} s, CP-SAT checked in {checked:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
