"""Time GENERATE rules=... per rule set (9x9), and RATE on unit-rule variants beside classic RATE, in one run.

What is timed (wall time of each call, ``time.perf_counter``, in this process):

  generate   ``variant_generator.generate_variant(Variant(rules), seed=s)``
             for each rule set, seeds 0, --spacing, 2 * --spacing, ...
             (--seeds of them): median / p90 / max ms, mean givens (mean
             cages for killer, a pure killer: no givens). The rule sets
             are interleaved seed by seed, so the machine's load falls on
             all of them alike.
  rate       (``--rate N``) ``rating.rate`` of N generated puzzles per
             rule set (classic, x, windoku, jigsaw: the unit rules), the
             rule sets interleaved seed by seed; per level, the median ms
             of each rule set and its ratio to classic's median at the
             same level (the issue's target: within 2x).

Every generated puzzle is checked (untimed) unique under its rules with the
solver's ``count_solutions(limit=2)``.

The machine is shared: compare within one run. The script imports the
installed package (or the one on ``PYTHONPATH``) and prints the solver core
it measured; it refuses the pure-Python core unless --allow-python-core.

Usage:
  python3 benchmarks/bench_variant_generate.py                  # 30 seeds per rule set
  python3 benchmarks/bench_variant_generate.py --seeds 100 --rate 40
  python3 benchmarks/bench_variant_generate.py --rules x,killer --seeds 5
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import corecheck

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.generator import generate
from sudoku_server.sudoku.rating import LEVELS, rate
from sudoku_server.sudoku.techniques import native
from sudoku_server.sudoku.variant_generator import generate_variant
from sudoku_server.sudoku.variants import Variant, parse_rules, variant_geometry

#: The rule sets timed by default: each rule alone, and two combinations.
RULE_SETS = ("x", "windoku", "antiknight", "antiking", "nonconsecutive", "jigsaw", "killer", "x+antiking", "jigsaw+x")

#: The unit-rule sets RATE is compared on (beside classic).
RATE_SETS = ("classic", "x", "windoku", "jigsaw")


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_generate(rule_sets: list[str], seeds: int, spacing: int) -> None:
    times: dict[str, list[float]] = {r: [] for r in rule_sets}
    sizes: dict[str, list[int]] = {r: [] for r in rule_sets}
    partial: dict[str, int] = dict.fromkeys(rule_sets, 0)
    for k in range(seeds):
        for rules in rule_sets:
            variant = Variant(parse_rules(rules))
            start = time.perf_counter()
            made = generate_variant(variant, seed=k * spacing)
            times[rules].append((time.perf_counter() - start) * 1000)
            geo = variant_geometry(made.variant, 3, 3)
            if solver.count_solutions(made.puzzle, 2, geometry=geo) != 1:
                raise SystemExit(f"rules={rules} seed={k * spacing}: the puzzle is not unique")
            sizes[rules].append(len(made.variant.cages) if made.variant.cages else made.givens)
            partial[rules] += not made.minimal
    print(f"\nGENERATE 9x9, {seeds} seeds (0, {spacing}, ...), ms per puzzle")
    print("| rules | median | p90 | max | mean givens (killer: cages) | minimal=no |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for rules in rule_sets:
        t = times[rules]
        print(
            f"| {rules} | {statistics.median(t):.1f} | {_p(t, 0.9):.1f} | {max(t):.1f}"
            f" | {statistics.mean(sizes[rules]):.1f} | {partial[rules]} |"
        )


def bench_rate(count: int, spacing: int) -> None:
    by_level: dict[str, dict[str, list[float]]] = {s: {} for s in RATE_SETS}
    for k in range(count):
        for rules in RATE_SETS:
            seed = k * spacing + 7
            if rules == "classic":
                made, geometry = generate(seed=seed), None
            else:
                made = generate_variant(Variant(parse_rules(rules)), seed=seed)
                geometry = variant_geometry(made.variant, 3, 3)
            start = time.perf_counter()
            rating = rate(made.puzzle, geometry=geometry)
            ms = (time.perf_counter() - start) * 1000
            by_level[rules].setdefault(rating.level, []).append(ms)
    print(f"\nRATE 9x9, {count} generated puzzles per rule set: median ms per level (puzzles), ratio to classic")
    print("| level | " + " | ".join(RATE_SETS) + " |")
    print("| --- |" + " ---: |" * len(RATE_SETS))
    for level in LEVELS:
        base = by_level["classic"].get(level)
        cells = []
        for rules in RATE_SETS:
            t = by_level[rules].get(level)
            if not t:
                cells.append("-")
                continue
            text = f"{statistics.median(t):.1f} ({len(t)})"
            if base and rules != "classic":
                text += f" {statistics.median(t) / statistics.median(base):.2f}x"
            cells.append(text)
        print(f"| {level} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=30, help="seeds per rule set (30)")
    parser.add_argument("--spacing", type=int, default=1000, help="seeds are 0, S, 2S, ... (1000)")
    parser.add_argument("--rules", default=",".join(RULE_SETS), help="comma-separated rule sets")
    parser.add_argument("--rate", type=int, default=20, help="puzzles per rule set for the RATE table (20; 0: none)")
    corecheck.add_flag(parser)
    args = parser.parse_args()
    engine = "native" if native.engine(81, 9) is not None else "python"
    corecheck.require_native(solver.CORE, args.allow_python_core, "in process")
    print(f"Python {platform.python_version()}; solver core: {solver.CORE}; technique engine: {engine}")
    rule_sets = [r for r in args.rules.split(",") if r]
    if args.seeds:
        bench_generate(rule_sets, args.seeds, args.spacing)
    if args.rate:
        bench_rate(args.rate, args.spacing)


if __name__ == "__main__":
    main()
