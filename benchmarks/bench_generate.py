"""Time ``sudoku_server.generate`` and compare with QQWing, in one run.

What is timed (wall time of each ``generate`` call, ``time.perf_counter``;
with ``--repeat R`` each seed's figure is its median over R calls):

  9x9 minimal    symmetry none and rot180, seeds 0 .. --seeds-1 (1000)
  9x9 full       ``generate(full=True)``, the same seeds
  16x16 minimal  symmetry none, seeds 0 .. --seeds16-1 (10)
  25x25          (``--large``) full grids, puzzles with ``givens=315``, and
                 minimal puzzles stopped through ``check`` after
                 --time-limit seconds (10)
  plain pass     (``--plain``) the same one-pass removal done the plain way:
                 each orbit in turn, kept when ``count_solutions(limit=2)``
                 is not 1, from the same full grid and order; its puzzle
                 must equal ours (checked), so the time ratio is the gain
                 of the existence proofs and grouped removals (CPU time,
                 ours and plain alternating seed by seed)
  levels         (``--levels N``) the GENERATE command with ``level=hard``,
                 ``expert`` and ``extreme``, seeds 0, 1000, ... (N of them),
                 as the server answers it (``service.answer`` of a ``Generate``:
                 puzzles from the seed, seed + 1, ... until one rates at the
                 level)
  QQWing         ``qqwing --generate N --one-line`` (and ``--symmetry
                 rotate180``), N = --qqwing (1000): its wall and CPU time
                 (of the child process) and the mean givens of its puzzles,
                 next to ours over N seeds in the same run

Columns: median / p90 / p99 / max ms per puzzle; puzzles/s = puzzles / sum
of the per-puzzle times; mean givens. The machine is shared: compare the
ratios within one run.

``--verify`` (untimed) checks every 9x9 puzzle with the reference counter
``benchmarks/reference_count.py`` (no code shared with ``sudoku_server``):
one solution, and two or more once any orbit of givens is removed.

QQWing is the Debian package ``qqwing`` (1.3.4):
``apt-get install -y qqwing``. Without it the QQWing rows are skipped.

Usage:
  python3 benchmarks/bench_generate.py                      # 9x9, 16x16, QQWing
  python3 benchmarks/bench_generate.py --repeat 3 --plain
  python3 benchmarks/bench_generate.py --large --seeds 200
  python3 benchmarks/bench_generate.py --verify --seeds 500
  python3 benchmarks/bench_generate.py --seeds 0 --seeds16 0 --qqwing 0 --levels 30
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # reference_count.py; the package is the installed one (or PYTHONPATH's)
    sys.path.insert(0, str(HERE))

from reference_count import count_solutions_reference  # noqa: E402

from sudoku_server import Grid, count_solutions, generate  # noqa: E402
from sudoku_server.sudoku.generator import SplitMix64, orbits, permutation  # noqa: E402


class Stopped(Exception):
    """Raised by the time-limit check."""


def percentile(sorted_values: list, fraction: float) -> float:
    """The value at ``fraction`` of a sorted list (nearest rank)."""
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


def time_calls(make: Callable[[int], object], seeds: range, repeat: int) -> tuple:
    """Per-seed median wall time of ``make(seed)`` over ``repeat`` calls.

    Returns (times in seconds, results of the last call per seed).
    """
    times, results = [], []
    for seed in seeds:
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            result = make(seed)
            runs.append(time.perf_counter() - start)
        times.append(statistics.median(runs))
        results.append(result)
    return times, results


def row(label: str, times: list, givens: list | None, unit: str = "ms") -> str:
    scale = 1e3 if unit == "ms" else 1.0
    ordered = sorted(times)
    rate = len(times) / sum(times) if sum(times) else float("inf")
    mean_givens = f"{statistics.mean(givens):.2f}" if givens else "-"
    return (
        f"| {label} | {len(times)} | {statistics.median(ordered) * scale:.2f} | "
        f"{percentile(ordered, 0.9) * scale:.2f} | {percentile(ordered, 0.99) * scale:.2f} | "
        f"{ordered[-1] * scale:.2f} | {rate:,.1f} | {mean_givens} |"
    )


def header(unit: str = "ms") -> str:
    return (
        f"| run | puzzles | median {unit} | p90 {unit} | p99 {unit} | max {unit} | puzzles/s | mean givens |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|"
    )


def plain_pass(seed: int, symmetry: str, size: int) -> tuple:
    """The one-pass removal with a count per orbit, from the generator's documented draws."""
    rng = SplitMix64(seed)
    rng.next()  # the symmetry pick
    rng.next()  # the full grid's key
    cell_orbits = orbits(size, symmetry)
    order = permutation(SplitMix64(rng.next()), len(cell_orbits))
    full = generate(size, seed=seed, full=True).solution
    cells = list(full.cells)
    for index in order:
        orbit = cell_orbits[index]
        kept = [cells[c] for c in orbit]
        for c in orbit:
            cells[c] = 0
        if count_solutions(Grid(tuple(cells), full.box_rows, full.box_cols), 2) != 1:
            for c, d in zip(orbit, kept):
                cells[c] = d
    return tuple(cells)


def verify(made) -> str | None:
    """None when the puzzle is unique and minimal by the reference counter, else the problem."""
    cells = list(made.puzzle.cells)
    if count_solutions_reference(cells, 2) != 1:
        return f"seed {made.seed} {made.symmetry}: not unique"
    for orbit in orbits(made.size, made.symmetry):
        given = [bool(cells[c]) for c in orbit]
        if any(given) != all(given):
            return f"seed {made.seed} {made.symmetry}: not symmetric at {orbit}"
        if given[0]:
            trial = cells[:]
            for c in orbit:
                trial[c] = 0
            if count_solutions_reference(trial, 2) != 2:
                return f"seed {made.seed} {made.symmetry}: orbit {orbit} can be removed"
    return None


def qqwing(count: int, symmetry: str | None) -> tuple | None:
    """(wall s, child CPU s, puzzles, mean givens) of one ``qqwing --generate`` run."""
    exe = shutil.which("qqwing")
    if exe is None:
        return None
    command = [exe, "--generate", str(count), "--one-line"]
    if symmetry:
        command += ["--symmetry", symmetry]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    puzzles = [line.strip() for line in out.splitlines() if len(line.strip()) == 81]
    givens = statistics.mean(sum(ch != "." for ch in p) for p in puzzles)
    return wall, cpu, len(puzzles), givens


def qqwing_version() -> str:
    exe = shutil.which("qqwing")
    if exe is None:
        return "not installed"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
    return out.splitlines()[0] if out else "unknown version"


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=1000, help="9x9 seeds 0..N-1 (1000)")
    ap.add_argument("--seeds16", type=int, default=10, help="16x16 seeds 0..N-1 (10)")
    ap.add_argument("--repeat", type=int, default=1, help="calls per seed; the median is kept (1)")
    ap.add_argument("--qqwing", type=int, default=1000, help="puzzles QQWing generates per run; 0 skips it")
    ap.add_argument("--plain", action="store_true", help="also time the plain one-pass removal")
    ap.add_argument("--plain-seeds16", type=int, default=3, help="16x16 seeds for --plain (3)")
    ap.add_argument("--large", action="store_true", help="also 25x25")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per 25x25 minimal puzzle (10)")
    ap.add_argument("--verify", action="store_true", help="check every 9x9 puzzle with the reference counter")
    ap.add_argument(
        "--levels", type=int, default=0, help="seeds for GENERATE level=hard/expert/extreme; 0 skips it (0)"
    )
    args = ap.parse_args(argv)

    print(
        f"# bench_generate: Python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}; QQWing: {qqwing_version()}"
    )
    print(f"# python3 benchmarks/bench_generate.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    print()
    seeds = range(args.seeds)
    generate(9, seed=0)  # build the 9x9 engine before timing
    made: dict = {}
    if args.seeds or args.seeds16:
        print(header())
    for symmetry in ("none", "rot180") if args.seeds else ():
        times, results = time_calls(lambda s, sym=symmetry: generate(9, seed=s, symmetry=sym), seeds, args.repeat)
        made[symmetry] = (times, results)
        print(row(f"9x9 minimal, {symmetry}", times, [r.givens for r in results]), flush=True)
    if args.seeds:
        times, _ = time_calls(lambda s: generate(9, seed=s, full=True), seeds, args.repeat)
        print(row("9x9 full grid", times, None), flush=True)
    if args.seeds16:
        generate(16, seed=0, full=True)
        times16, results16 = time_calls(lambda s: generate(16, seed=s), range(args.seeds16), args.repeat)
        print(row("16x16 minimal, none", times16, [r.givens for r in results16]), flush=True)
        times, _ = time_calls(lambda s: generate(16, seed=s, full=True), range(args.seeds16), args.repeat)
        print(row("16x16 full grid", times, None), flush=True)

    if args.large:
        print()
        print(header("s"))
        generate(25, seed=0, full=True)  # builds the 25x25 engine (about a second)
        times, _ = time_calls(lambda s: generate(25, seed=s, full=True), range(5), 1)
        print(row("25x25 full grid", times, None, "s"), flush=True)
        times, results = time_calls(lambda s: generate(25, seed=s, givens=315), range(5), 1)
        print(row("25x25 givens=315", times, [r.givens for r in results], "s"), flush=True)
        for seed in range(3):
            start = time.perf_counter()

            def check(start=start):
                if time.perf_counter() - start > args.time_limit:
                    raise Stopped

            try:
                result = generate(25, seed=seed, check=check)
                print(f"25x25 minimal seed {seed}: {time.perf_counter() - start:.2f} s, {result.givens} givens")
            except Stopped:
                print(f"25x25 minimal seed {seed}: stopped after {args.time_limit:g} s")

    if args.plain:
        print()
        print("Plain one-pass removal (a count_solutions(limit=2) per orbit), same grids and order,")
        print("interleaved with ours seed by seed (CPU time, time.process_time):")
        print()
        print("| run | puzzles | plain median ms | ours median ms | plain / ours (sum of times) | same puzzles |")
        print("|---|---:|---:|---:|---:|---|")
        cases = [(9, "none", seeds), (9, "rot180", seeds)]
        if args.seeds16 and args.plain_seeds16:
            cases.append((16, "none", range(args.plain_seeds16)))
        for size, symmetry, case_seeds in cases:
            plain_times, ours_times, same = [], [], True
            for seed in case_seeds:
                start = time.process_time()
                ours = generate(size, seed=seed, symmetry=symmetry)
                ours_times.append(time.process_time() - start)
                start = time.process_time()
                plain = plain_pass(seed, symmetry, size)
                plain_times.append(time.process_time() - start)
                same = same and plain == ours.puzzle.cells
            print(
                f"| {size}x{size} {symmetry} | {len(plain_times)} | {statistics.median(plain_times) * 1e3:.2f} | "
                f"{statistics.median(ours_times) * 1e3:.2f} | {sum(plain_times) / sum(ours_times):.2f} | {same} |",
                flush=True,
            )

    if args.levels:
        from sudoku_server.service.answer import answer
        from sudoku_server.sudoku import solver
        from sudoku_server.wire.replies import render
        from sudoku_server.wire.verbs import generate_request, parse_command

        try:
            from sudoku_server.sudoku.techniques import native

            engine = "native" if native.engine(81, 9) is not None else "python"
        except ImportError:  # a tree before issue 18
            engine = "python (a tree without the native engine)"
        print()
        print(
            f"GENERATE level=... over seeds 0, 1000, ..., {(args.levels - 1) * 1000} (CPU ms per request, "
            f"time.process_time; solver core {solver.CORE}, technique engine {engine}):"
        )
        print()
        print("| request | requests | median ms | p90 ms | p95 ms | max ms | seeds tried (median) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for level in ("hard", "expert", "extreme"):
            times, tried = [], []
            for k in range(args.levels):
                command = parse_command(f"GENERATE level={level} seed={k * 1000}", 1, "\n")
                start = time.process_time()
                reply = render(answer(generate_request(command)))
                times.append(time.process_time() - start)
                seed = int(reply.split(b" seed=")[1].split()[0])
                tried.append(seed - k * 1000 + 1)
            times.sort()
            print(
                f"| level={level} | {len(times)} | {statistics.median(times) * 1e3:.0f} | "
                f"{percentile(times, 0.9) * 1e3:.0f} | {percentile(times, 0.95) * 1e3:.0f} | {times[-1] * 1e3:.0f} | "
                f"{statistics.median(tried):g} |",
                flush=True,
            )

    if args.qqwing:
        print()
        print(
            f"QQWing side by side ({args.qqwing} puzzles each; ours: seeds 0..{args.qqwing - 1}, "
            "one call each, wall and CPU time of the whole run):"
        )
        print()
        print("| generator | symmetry | puzzles | wall s | puzzles/s (wall) | CPU s | puzzles/s (CPU) | mean givens |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for ours_symmetry, qq_symmetry in (("none", None), ("rot180", "rotate180")):
            result = qqwing(args.qqwing, qq_symmetry)
            if result is None:
                print("| QQWing | - | not installed (apt-get install -y qqwing) | | | | | |")
            else:
                wall, cpu, count, givens = result
                print(
                    f"| QQWing | {qq_symmetry or 'none'} | {count} | {wall:.2f} | {count / wall:,.1f} | "
                    f"{cpu:.2f} | {count / cpu:,.1f} | {givens:.2f} |",
                    flush=True,
                )
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            ours = [generate(9, seed=s, symmetry=ours_symmetry) for s in range(args.qqwing)]
            wall = time.perf_counter() - wall_start
            cpu = time.process_time() - cpu_start
            givens = statistics.mean(r.givens for r in ours)
            print(
                f"| sudoku-server | {ours_symmetry} | {len(ours)} | {wall:.2f} | {len(ours) / wall:,.1f} | "
                f"{cpu:.2f} | {len(ours) / cpu:,.1f} | {givens:.2f} |",
                flush=True,
            )

    if args.verify:
        print()
        problems = 0
        for symmetry in ("none", "rot180"):
            for result in made[symmetry][1]:
                problem = verify(result)
                if problem:
                    problems += 1
                    print("VERIFY", problem)
        print(f"verify: {2 * len(seeds)} puzzles checked with the reference counter, {problems} problems")
        if problems:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
