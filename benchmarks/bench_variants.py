"""The native core on every variant rule set, beside OR-Tools CP-SAT, on the same minimal puzzles (issue 19).

For each rule set (``--rules``, comma-separated ``+``-joined lists; default
every rule alone, a combination, and killer) this makes ``--count`` 9x9
puzzles, seeded and reproducible (``--seed``), then times per puzzle:

* ``native``: ``solver.NATIVE.solve(grid, geometry=...)`` (the
  row-major-first solution, what SOLVE answers), one call per puzzle, wall
  time (``time.perf_counter``). A jigsaw or killer puzzle is a geometry of
  its own: its time includes preparing it (``_native.prepare``, once per
  geometry), which the unit and peer rules share.
* ``cp-sat``: OR-Tools CP-SAT on the first ``--cpsat`` puzzles (one worker
  thread, one solution asked for), from a model of the same geometry: one
  integer variable per cell (its givens or pencilmarks as its domain),
  AllDifferent per unit, ``!=`` per extra differ pair (anti-knight,
  anti-king), ``x[a] - x[b]`` outside {-1, 1} per nonconsecutive pair, and
  per cage AllDifferent and the sum. Both answers are checked against the
  puzzle's known solution.

How the puzzles are made (everything from ``random.Random(seed)``):

* a solution: cells in row-major order, each given the first digit of a
  random digit order that leaves a solution (``count_solutions(limit=1)`` of
  the native core);
* unit and peer rules: that solution's cells removed in random order while
  the count stays 1: a MINIMAL puzzle (no given can go);
* jigsaw: a solution of the other rules first, then regions it keeps (the
  boxes, then random exchanges of two cells holding the same digit between
  neighbouring regions, each region kept connected), then as above;
* killer: pure killer, no givens: random connected cages of 2 to 5 cells
  with distinct digits of the solution cover the grid; while a second
  solution exists, the cage of the first cell where it differs is split in
  two connected parts. The cages are not minimal.

Columns: puzzles; native median, p90 and worst ms per puzzle; native
puzzles/s (over the whole set); CP-SAT median ms and puzzles/s (over its
subset); native/CP-SAT rate ratio; mean givens (cages for killer).

With ``--files``, the stored sets puzzles/variants/bench_*.txt
(benchmarks/make_variant_puzzles.py made them, with how, and CP-SAT checked
them) are read instead of made: every set's puzzles are timed by the native
core, then by CP-SAT, in the same run (issue 27's numbers).

Usage:
  python3 benchmarks/bench_variants.py --files --cpsat 20    # the stored sets
  python3 benchmarks/bench_variants.py                       # 1,000 per rule set, minutes
  python3 benchmarks/bench_variants.py --count 100 --rules x,killer --cpsat 20
  python3 benchmarks/bench_variants.py --table results.md    # also write the Markdown table
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from corecheck import add_flag, require_native

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.constraints import Sum
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.variants import RULES, Cage, Variant, parse_rules, variant_geometry
from sudoku_server.text import Puzzle
from sudoku_server.text.fpuzzles import marks_line

DEFAULT_RULES = "x,windoku,antiknight,antiking,nonconsecutive,jigsaw,x+antiknight,killer"
N = 9


def _orthogonal(c: int) -> list[int]:
    r, col = divmod(c, N)
    return [
        rr * N + cc
        for rr, cc in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1))
        if 0 <= rr < N and 0 <= cc < N
    ]


def _connected(cells: Sequence[int]) -> bool:
    want = set(cells)
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for p in _orthogonal(todo.pop()):
            if p in want and p not in seen:
                seen.add(p)
                todo.append(p)
    return len(seen) == len(want)


def random_regions(rng: random.Random, solution: Sequence[int]) -> tuple[int, ...]:
    """Jigsaw regions that ``solution`` (a classic one) keeps: the boxes, then random exchanges of two cells
    holding the same digit between neighbouring regions, each region kept connected."""
    regions = list(variant_geometry(Variant()).box_of)
    for _ in range(1500):
        a = rng.randrange(N * N)
        b = rng.choice(_orthogonal(a))
        ra, rb = regions[a], regions[b]
        if ra == rb:
            continue
        back = [
            s
            for s in range(N * N)
            if regions[s] == rb and solution[s] == solution[a] and ra in {regions[p] for p in _orthogonal(s)}
        ]
        if not back:
            continue
        s = rng.choice(back)
        regions[a], regions[s] = rb, ra
        if not all(_connected([c for c in range(N * N) if regions[c] == r]) for r in (ra, rb)):
            regions[a], regions[s] = ra, rb
    order = list(dict.fromkeys(regions))  # numbered in the order they first appear
    return tuple(order.index(r) for r in regions)


def _count(cells: Sequence[int], geo: Geometry, limit: int = 2) -> int:
    return solver.NATIVE.count_solutions(Grid.trusted(tuple(cells), 3, 3), limit, geometry=geo)  # type: ignore[union-attr]


def random_solution(geo: Geometry, rng: random.Random) -> tuple[int, ...] | None:
    """A solution of ``geo``: row-major cells, each the first digit of a random order that leaves one."""
    cells = [0] * (N * N)
    for c in range(N * N):
        for d in rng.sample(range(1, N + 1), N):
            cells[c] = d
            if _count(cells, geo, 1):
                break
        else:
            return None
    return tuple(cells)


def minimal(solution: tuple[int, ...], geo: Geometry, rng: random.Random) -> tuple[int, ...]:
    """``solution`` with cells removed in random order while the puzzle keeps one solution."""
    cells = list(solution)
    for c in rng.sample(range(N * N), N * N):
        cells[c] = 0
        if _count(cells, geo) != 1:
            cells[c] = solution[c]
    return tuple(cells)


def random_cages(solution: tuple[int, ...], rng: random.Random) -> list[list[int]]:
    """Connected cages of 2 to 5 cells (fewer where boxed in) with distinct digits, covering the grid."""
    owner = [-1] * (N * N)
    cages: list[list[int]] = []
    for start in rng.sample(range(N * N), N * N):
        if owner[start] >= 0:
            continue
        cells, digits, want = [start], {solution[start]}, rng.randint(2, 5)
        owner[start] = len(cages)
        while len(cells) < want:
            options = [p for c in cells for p in _orthogonal(c) if owner[p] < 0 and solution[p] not in digits]
            if not options:
                break
            p = rng.choice(options)
            owner[p] = len(cages)
            cells.append(p)
            digits.add(solution[p])
        cages.append(sorted(cells))
    return cages


def killer_geometry(solution: tuple[int, ...], cages: list[list[int]]) -> Geometry:
    return variant_geometry(
        Variant(
            ("killer",), cages=tuple(Cage(tuple(c), sum(solution[x] for x in c), str(k)) for k, c in enumerate(cages))
        )
    )


def _split(cells: list[int], at: int, rng: random.Random) -> list[list[int]]:
    """Split a cage in connected parts: ``at`` with some of its neighbours in the cage, and the rest's components."""
    part = [at]
    want = rng.randint(1, max(1, len(cells) // 2))
    while len(part) < want:
        options = [p for c in part for p in _orthogonal(c) if p in cells and p not in part]
        if not options:
            break
        part.append(rng.choice(options))
    rest = [c for c in cells if c not in part]
    parts = [sorted(part)]
    while rest:
        comp = [rest[0]]
        todo = [rest[0]]
        while todo:
            for p in _orthogonal(todo.pop()):
                if p in rest and p not in comp:
                    comp.append(p)
                    todo.append(p)
        parts.append(sorted(comp))
        rest = [c for c in rest if c not in comp]
    return parts


def other_solution(geo: Geometry, solution: tuple[int, ...]) -> tuple[int, ...] | None:
    """A solution of the empty grid under ``geo`` other than ``solution`` (None: it is unique)."""
    first = solver.NATIVE.solve(Grid.trusted((0,) * (N * N), 3, 3), geometry=geo).cells  # type: ignore[union-attr]
    if first != solution:
        return first
    # one cell barred from its digit (pencilmarks): the first cell whose other digits still allow a solution
    full = (1 << N) - 1
    for c in range(N * N):
        masks = tuple(full & ~(1 << (solution[c] - 1)) if k == c else full for k in range(N * N))
        variant = Variant(("killer",), cages=_cages_of(geo), candidates=masks)
        barred = variant_geometry(variant)
        if _count([0] * (N * N), barred, 1):
            return solver.NATIVE.solve_any(Grid.trusted((0,) * (N * N), 3, 3), geometry=barred).cells  # type: ignore[union-attr]
    return None


def _cages_of(geo: Geometry) -> tuple[Cage, ...]:
    return tuple(
        Cage(c.cells, c.total, name.removeprefix("cage "))
        for c, name in zip(geo.constraints, geo.constraint_names)
        if isinstance(c, Sum)
    )


def make_killer(rng: random.Random) -> tuple[Geometry, tuple[int, ...], tuple[int, ...]]:
    """A pure killer puzzle with one solution: (geometry, empty givens, solution)."""
    solution = random_solution(variant_geometry(Variant()), rng)
    assert solution is not None
    cages = random_cages(solution, rng)
    while True:
        geo = killer_geometry(solution, cages)
        if _count([0] * (N * N), geo) == 1:
            return geo, (0,) * (N * N), solution
        other = other_solution(geo, solution)
        assert other is not None
        at = next(c for c in range(N * N) if other[c] != solution[c])
        k = next(i for i, cage in enumerate(cages) if at in cage)
        if len(cages[k]) == 1:  # cannot happen: a one-cell cage fixes its digit
            raise AssertionError("a one-cell cage differs")
        cages[k : k + 1] = _split(cages[k], at, rng)


def make_set(rules: tuple[str, ...], count: int, seed: int) -> list[tuple[Geometry, tuple[int, ...], tuple[int, ...]]]:
    """``count`` puzzles of ``rules``: (geometry, givens, solution), from ``random.Random(seed)``."""
    rng = random.Random(f"{seed}:{'+'.join(rules)}")
    out = []
    while len(out) < count:
        if "killer" in rules:
            out.append(make_killer(rng))
            continue
        if "jigsaw" in rules:  # a classic solution first, then regions it keeps
            solution = random_solution(variant_geometry(Variant(tuple(r for r in rules if r != "jigsaw"))), rng)
            if solution is None:
                continue
            geo = variant_geometry(Variant(rules, regions=random_regions(rng, solution)))
        else:
            geo = variant_geometry(Variant(rules))
            solution = random_solution(geo, rng)
            if solution is None:
                continue
        out.append((geo, minimal(solution, geo, rng), solution))
    return out


def cpsat_solve(geo: Geometry, givens: Sequence[int], seconds: float = 60.0) -> tuple[int, ...] | None:
    """A solution from OR-Tools CP-SAT (one worker), from the tests' model of ``geo``'s constraint kinds
    (``tests/support/cpsat_oracle.model_of``: every kind, the sandwich's "between" lines too; this
    benchmark's own model, used before, lacked them and so answered other grids on the sandwich set)."""
    from ortools.sat.python import cp_model

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.support.cpsat_oracle
    from tests.support import cpsat_oracle

    model, x = cpsat_oracle.model_of(givens, geo)
    cp = cp_model.CpSolver()
    cp.parameters.num_workers = 1
    cp.parameters.max_time_in_seconds = seconds
    status = cp.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return tuple(int(cp.Value(v)) for v in x)


STORED = Path(__file__).resolve().parent.parent / "puzzles" / "variants"


def read_set(path: Path) -> list[tuple[Geometry, tuple[int, ...], tuple[int, ...]]]:
    """A stored set (make_variant_puzzles.py's format): (geometry, givens, solution) per puzzle."""
    out = []
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        words = line.split()
        rules = parse_rules(words[0])
        givens = tuple(int(ch) for ch in words[1])
        solution = tuple(int(ch) for ch in words[2])
        regions: tuple[int, ...] | None = None
        cages: tuple[Cage, ...] = ()
        marks = [word for word in words[3:] if word.partition("=")[0] in RULES]
        if marks:  # a set of a rule that takes marks (issue 29): the line syntax, read as a request is
            puzzle = marks_line(f"{words[1]} {' '.join(marks)}", 1, "\n")
            assert isinstance(puzzle, Puzzle) and puzzle.variant is not None, line[:100]
            out.append((variant_geometry(puzzle.variant), givens, solution))
            continue
        for word in words[3:]:
            key, _, value = word.partition("=")
            if key == "regions":
                regions = tuple(int(ch) for ch in value)
            elif key == "cages":
                cages = tuple(
                    Cage(tuple(int(c) for c in cells.split(".")), int(total), str(k))
                    for k, (total, _, cells) in enumerate(part.partition(":") for part in value.split(";"))
                )
        out.append((variant_geometry(Variant(rules, regions=regions, cages=cages)), givens, solution))
    return out


def _ms(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1e3


def measure(
    rules: tuple[str, ...],
    count: int,
    seed: int,
    cpsat: int,
    stored: list[tuple[Geometry, tuple[int, ...], tuple[int, ...]]] | None = None,
) -> dict[str, object]:
    made = time.perf_counter()
    puzzles = make_set(rules, count, seed) if stored is None else stored[:count]
    made = time.perf_counter() - made
    native = solver.NATIVE
    assert native is not None
    times, wrong = [], 0
    if not {"jigsaw", "killer"} & set(rules):  # one geometry for the set: prepared before the clock starts
        native.count_solutions(Grid.trusted(puzzles[0][1], 3, 3), 1, geometry=puzzles[0][0])
    for geo, givens, solution in puzzles:
        grid = Grid.trusted(givens, 3, 3)
        t = time.perf_counter()
        answer = native.solve(grid, geometry=geo)
        times.append(time.perf_counter() - t)
        wrong += answer.cells != solution
    cp_times, cp_wrong = [], 0
    for geo, givens, solution in puzzles[:cpsat]:
        t = time.perf_counter()
        answer_cp = cpsat_solve(geo, givens)
        cp_times.append(time.perf_counter() - t)
        cp_wrong += answer_cp != solution
    if "killer" in rules:
        clues = statistics.mean(len(_cages_of(geo)) for geo, _, _ in puzzles)
    else:
        clues = statistics.mean(sum(1 for d in g if d) for _, g, _ in puzzles)
    rate = len(times) / sum(times)
    cp_rate = len(cp_times) / sum(cp_times) if cp_times else 0.0
    return {
        "rules": "+".join(rules),
        "puzzles": len(puzzles),
        "median": statistics.median(times) * 1e3,
        "p90": _ms(times, 0.9),
        "worst": max(times) * 1e3,
        "rate": rate,
        "cp_n": len(cp_times),
        "cp_median": statistics.median(cp_times) * 1e3 if cp_times else 0.0,
        "cp_rate": cp_rate,
        "ratio": rate / cp_rate if cp_rate else 0.0,
        "clues": clues,
        "wrong": wrong + cp_wrong,
        "made": made,
    }


HEADER = (
    "| rules | puzzles | givens (cages) | native median ms | p90 ms | worst ms | native puzzles/s"
    " | CP-SAT puzzles | CP-SAT median ms | CP-SAT puzzles/s | native / CP-SAT | wrong |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def row(r: dict[str, object]) -> str:
    return (
        f"| {r['rules']} | {r['puzzles']} | {r['clues']:.1f} | {r['median']:.3f} | {r['p90']:.3f} | {r['worst']:.2f}"
        f" | {r['rate']:.0f} | {r['cp_n']} | {r['cp_median']:.2f} | {r['cp_rate']:.0f} | {r['ratio']:.0f}x"
        f" | {r['wrong']} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--rules", help=f"rule sets, comma-separated (default {DEFAULT_RULES}; with --files: every stored set)"
    )
    parser.add_argument("--count", type=int, default=1000, help="puzzles per rule set (default 1000)")
    parser.add_argument("--seed", type=int, default=19, help="the seed of every set (default 19)")
    parser.add_argument("--cpsat", type=int, default=50, help="puzzles per rule set also solved by CP-SAT (default 50)")
    parser.add_argument("--table", type=Path, help="also write the Markdown table to this file")
    parser.add_argument("--files", action="store_true", help="the stored sets of puzzles/variants/bench_*.txt")
    add_flag(parser)
    args = parser.parse_args(argv)
    require_native(solver.CORE if solver.NATIVE is not None else "python", args.allow_python_core, "in process")
    if solver.NATIVE is None:
        print("no native core: nothing to measure", file=sys.stderr)
        return 2
    print(f"seed {args.seed}, {args.count} 9x9 puzzles per rule set, CP-SAT on the first {args.cpsat}; one thread")
    print(HEADER, flush=True)
    rows = []
    if args.files:
        wanted = None if args.rules is None else {parse_rules(words) for words in args.rules.split(",")}
        paths = sorted(STORED.glob("bench_*.txt"))
        named = [(parse_rules(p.stem[len("bench_") :].replace("_", "+")), p) for p in paths]
        jobs = [(rules, read_set(p)) for rules, p in named if wanted is None or rules in wanted]
    else:
        jobs = [(parse_rules(words), None) for words in (args.rules or DEFAULT_RULES).split(",")]
    for rules, stored in jobs:
        result = measure(rules, args.count, args.seed, args.cpsat, stored)
        rows.append(row(result))
        print(rows[-1] + f"  (made in {result['made']:.1f} s)", flush=True)
    if args.table:
        args.table.write_text(HEADER + "\n" + "\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
