"""Time ``sudoku_server.solve`` against two reference solvers, in one process.

Solvers (``--solvers``, comma-separated, default ``ours,classic,naive``):
  ours     ``sudoku_server.solve(Grid.from_string(p)).to_string()`` (the core in use)
  native, python
           the same through one core (``sudoku_server.sudoku.solver.NATIVE``, ``.PYTHON``)
  native-core, python-core
           ``core.solve(grid)`` on grids parsed before the clock starts: the
           solver alone, as tdoku's own benchmark times it (answers are
           formatted after timing)
  classic  benchmarks/reference_classic.py: Norvig-style propagation + search
  naive    benchmarks/reference_naive.py: row-major 1..9 backtracking, stopped
           after ``--cap`` recursive calls per puzzle (those are "capped")
  rowprop  (optional) row-major search with singles propagation; gives the
           same row-major-first answer as naive, without a cap

Every solver gets the puzzle as an 81-character string and returns 81 digits,
so the parse and format steps are timed for all of them. All solvers run in
this one process, one after another, repeat after repeat (``--repeat``), so
they see the same machine state. Wall time via ``time.perf_counter``.

Each answer is verified after timing: every row, column and box holds 1..9,
every given is kept, and it equals the expected solution where one is known
(the kaggle CSV's solutions column; for the multi-solution serg set, the naive
solver's answer where it finished under the cap, which is the row-major-first
solution the server must give -- or rowprop's, computed untimed, when neither
naive nor rowprop is among the solvers; classic is only checked for validity
there, since it may legitimately find another solution).

Columns: puzzles/s = puzzles / time of the whole pass (median over the
repeats; wall time, or CPU time with ``--clock cpu``); median ms and worst ms
are over puzzles, of each puzzle's median wall time over the repeats; wrong = answers that failed verification or raised;
capped = naive runs stopped at the cap (their time up to the cap is included,
so naive's numbers are then a lower bound); time/classic = this solver's pass
time divided by classic's (below 1 is faster than classic).

Usage:
  python3 benchmarks/bench_solver.py --quick            # smoke run, ~1 min
  python3 benchmarks/bench_solver.py --repeat 3 --sets norvig_top95,magictour_top1465
  python3 benchmarks/bench_solver.py --solvers ours,classic --limit 200
  python3 benchmarks/bench_solver.py --datasets /path/to/datasets
  python3 benchmarks/bench_solver.py puzzles/norvig_hardest.txt puzzles/kaggle_1000.csv
  python3 benchmarks/bench_solver.py --count --sets norvig_top95,tdoku_serg_benchmark
  python3 benchmarks/bench_solver.py --count --solvers native,python --sets magictour_top1465
  python3 benchmarks/bench_solver.py --solvers native-core,python-core --sets tdoku_forum_hardest_1106
  python3 benchmarks/bench_solver.py --large --solvers native,python --time-limit 10
  python3 benchmarks/bench_solver.py --check-gaps        # native: wall time between check() calls
  python3 benchmarks/bench_solver.py --threads 2 --sets tdoku_forum_hardest_1106
  python3 benchmarks/bench_solver.py --memory            # ours over sudoku17, peak RSS
  python3 benchmarks/bench_solver.py --list              # the default sets

Standard library only.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
for _p in (str(HERE), str(REPO)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import datasets as _datasets  # noqa: E402
from reference_classic import solve_classic  # noqa: E402
from reference_naive import (  # noqa: E402
    CallLimitExceeded,
    solve_naive,
    solve_rowmajor_propagating,
)

DEFAULT_CAP = 200_000  # naive recursive calls per puzzle (~0.15 s in CPython)


@dataclass
class SetSpec:
    name: str
    filename: str
    limit: int | None = None  # default number of puzzles taken
    multi: bool = False  # puzzles have several solutions


DEFAULT_SETS = [
    SetSpec("norvig_top95", "norvig_top95.txt"),
    SetSpec("norvig_hardest", "norvig_hardest.txt"),
    SetSpec("magictour_top1465", "magictour_top1465.txt"),
    SetSpec("tdoku_forum_hardest_1106", "tdoku_forum_hardest_1106.txt"),
    SetSpec("tdoku_forum_hardest_1905_11plus", "tdoku_forum_hardest_1905_11plus.txt", 2000),
    SetSpec("sudoku17_royle_49151", "sudoku17_royle_49151.txt", 5000),
    SetSpec("kaggle_bryanpark_first10000", "kaggle_bryanpark_first10000.csv"),
    SetSpec("tdoku_serg_benchmark", "tdoku_serg_benchmark.txt", multi=True),
]
QUICK_LIMIT = 10
QUICK_LIMIT_EASY = 50  # kaggle puzzles are easy: take more of them


@dataclass
class Dataset:
    name: str
    puzzles: list[str]
    expected: list[str | None]
    multi: bool = False


@dataclass
class Run:
    """One solver over one dataset, all repeats."""

    solver: str
    pass_s: list[float] = field(default_factory=list)  # wall time per repeat
    times: list[list[float]] = field(default_factory=list)  # [repeat][puzzle]
    answers: list[list[object]] = field(default_factory=list)  # str | None | exc


# --------------------------------------------------------------- loading


def _norm(cells: str) -> str:
    return cells.replace("0", ".").replace("_", ".")


def load_file(path: Path, limit: int | None, name: str | None = None, multi: bool = False) -> Dataset:
    """Read one-line puzzles; lines that are not 81 cells are skipped.

    A CSV (``quizzes,solutions``) or ``puzzle:count:solution`` line gives the
    expected solution too.
    """
    puzzles: list[str] = []
    expected: list[str | None] = []
    with _datasets.open_text(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.replace(":", ",").split(",")
            p = fields[0].strip()
            if len(p) != 81 or any(ch not in "0123456789._" for ch in p):
                continue  # header or other non-puzzle line
            sol = None
            rest = [x.strip() for x in fields[1:]]
            for x in rest:
                if len(x) == 81 and x.isdigit() and "0" not in x:
                    sol = x
            if len(rest) >= 2 and rest[0].isdigit() and rest[0] != "1":
                sol = None  # tdoku native: solution listed but not unique
            puzzles.append(_norm(p))
            expected.append(sol)
            if limit is not None and len(puzzles) >= limit:
                break
    return Dataset(name or path.name.split(".")[0], puzzles, expected, multi)


def default_datasets_dir() -> Path | None:
    """The repository's compressed copy of the datasets (puzzles/datasets/)."""
    return _datasets.DATASETS_DIR if _datasets.DATASETS_DIR.is_dir() else None


# --------------------------------------------------------------- checking

_UNITS = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [[r * 9 + c for r in range(br, br + 3) for c in range(bc, bc + 3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
)
_FULL = set("123456789")


def is_valid_solution(puzzle: str, answer: object) -> bool:
    if not isinstance(answer, str) or len(answer) != 81:
        return False
    if any(p != "." and p != a for p, a in zip(puzzle, answer)):
        return False
    return all({answer[i] for i in unit} == _FULL for unit in _UNITS)


# --------------------------------------------------------------- solvers


class Capped(Exception):
    pass


#: Grids parsed before timing, for the ``*-core`` solvers (filled per dataset).
_PARSED: dict = {}


def _core(name: str):
    """The solver core named ``native`` or ``python`` (None when native is not built)."""
    from sudoku_server.sudoku import solver as core_module

    return core_module.NATIVE if name == "native" else core_module.PYTHON


def make_solvers(names: list[str], cap: int) -> dict[str, Callable[[str], str | None]]:
    solvers: dict[str, Callable[[str], str | None]] = {}
    for name in names:
        if name in ("ours", "native", "python"):
            try:
                from sudoku_server import Grid, UnsolvableError, solve
            except Exception as exc:
                print(f"<!-- {name} skipped: cannot import sudoku_server: {exc!r} -->")
                continue
            if name != "ours":
                core = _core(name)
                if core is None:
                    print(f"<!-- {name} skipped: the native core is not built -->")
                    continue
                solve = core.solve

            def ours(p: str, Grid=Grid, solve=solve, Unsolvable=UnsolvableError) -> str | None:
                try:
                    return solve(Grid.from_string(p)).to_string()
                except Unsolvable:
                    return None

            solvers[name] = ours
        elif name in ("native-core", "python-core"):
            from sudoku_server import UnsolvableError

            core = _core(name.split("-")[0])
            if core is None:
                print(f"<!-- {name} skipped: the native core is not built -->")
                continue

            def core_only(p: str, solve=core.solve, parsed=_PARSED, Unsolvable=UnsolvableError):
                try:
                    return solve(parsed[p])  # a Grid: formatted after timing
                except Unsolvable:
                    return None

            solvers[name] = core_only
        elif name == "classic":
            solvers[name] = solve_classic
        elif name == "naive":

            def naive(p: str, cap: int = cap) -> str | None:
                try:
                    return solve_naive(p, cap)
                except CallLimitExceeded:
                    raise Capped from None

            solvers[name] = naive
        elif name == "rowprop":
            solvers[name] = solve_rowmajor_propagating
        else:
            raise SystemExit(f"unknown solver {name!r}")
    return solvers


# --------------------------------------------------------------- timing


#: The clock of every timing (``--clock``): wall time, or this process's CPU
#: time (fairer on a shared machine: time given to other processes is left out).
CLOCK = time.perf_counter


def time_pass(fn: Callable[[str], object], puzzles: list[str]) -> tuple[float, list[float], list[object]]:
    """(pass time by CLOCK, per-puzzle wall times, answers)."""
    times: list[float] = []
    answers: list[object] = []
    clock = time.perf_counter  # per puzzle: cheap (process_time is a system call)
    gc.collect()
    start = CLOCK()
    for p in puzzles:
        t0 = clock()
        try:
            a = fn(p)
        except Exception as exc:
            a = exc
        times.append(clock() - t0)
        answers.append(a)
    return CLOCK() - start, times, answers


def bench_dataset(ds: Dataset, solvers: dict[str, Callable], repeat: int) -> dict[str, Run]:
    runs = {name: Run(name) for name in solvers}
    if any(name.endswith("-core") for name in solvers):
        from sudoku_server import Grid

        _PARSED.clear()
        _PARSED.update((p, Grid.from_string(p)) for p in ds.puzzles)
    for r in range(repeat):
        for name, fn in solvers.items():
            print(f"  {ds.name}: {name} pass {r + 1}/{repeat} ...", file=sys.stderr, flush=True)
            wall, times, answers = time_pass(fn, ds.puzzles)
            answers = [a.to_string() if hasattr(a, "to_string") else a for a in answers]
            run = runs[name]
            run.pass_s.append(wall)
            run.times.append(times)
            run.answers.append(answers)
    return runs


def verify(ds: Dataset, runs: dict[str, Run]) -> dict[str, tuple[int, int]]:
    """(wrong, capped) per solver; also fills row-major expectations (multi)."""
    expected = list(ds.expected)
    naive = runs.get("naive") or runs.get("rowprop")
    if ds.multi and naive is not None:
        for i, a in enumerate(naive.answers[0]):
            if isinstance(a, str) and expected[i] is None:
                expected[i] = a
    elif ds.multi and any(name in runs for name in ("ours", "native", "python", "native-core", "python-core")):
        # Neither row-major reference was timed: compute the row-major-first
        # answers untimed, so that ours is still checked against them.
        for i, p in enumerate(ds.puzzles):
            if expected[i] is None:
                expected[i] = solve_rowmajor_propagating(p)
    out = {}
    for name, run in runs.items():
        wrong_idx: set[int] = set()
        capped_idx: set[int] = set()
        for answers in run.answers:
            for i, a in enumerate(answers):
                if isinstance(a, Capped):
                    capped_idx.add(i)
                    continue
                ok = is_valid_solution(ds.puzzles[i], a)
                exp = expected[i]
                if ok and exp is not None and not (ds.multi and name == "classic"):
                    ok = a == exp
                if not ok:
                    wrong_idx.add(i)
        out[name] = (len(wrong_idx), len(capped_idx))
    return out


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def fmt_ms(x: float) -> str:
    return f"{x:.2f}" if x < 100 else f"{x:,.0f}"


def report(ds: Dataset, runs: dict[str, Run], checks: dict[str, tuple[int, int]]) -> list[str]:
    rows = []
    n = len(ds.puzzles)
    classic_pass = statistics.median(runs["classic"].pass_s) if "classic" in runs else None
    for name, run in runs.items():
        pass_s = statistics.median(run.pass_s)
        per_puzzle = [statistics.median(ts) for ts in zip(*run.times)] if n else [0.0]
        wrong, capped = checks[name]
        rate = n / pass_s if pass_s > 0 else float("inf")
        ratio = f"{pass_s / classic_pass:.2f}" if classic_pass else "-"
        lb = "≥" if capped else ""
        rows.append(
            f"| {ds.name} | {name} | {n} | {lb}{fmt_rate(rate)} | "
            f"{fmt_ms(statistics.median(per_puzzle) * 1e3)} | {lb}{fmt_ms(max(per_puzzle) * 1e3)} | "
            f"{wrong} | {capped if name == 'naive' else '-'} | {lb}{ratio} |"
        )
    return rows


TABLE_HEAD = [
    "| dataset | solver | puzzles | puzzles/s | median ms | worst ms | wrong | capped | time/classic |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
]


# --------------------------------------------------------------- modes


def count_mode(datasets: list[Dataset], repeat: int, core_names: list[str]) -> None:
    """solve vs count_solutions(grid, 2) per core, on grids parsed before timing."""
    from sudoku_server import Grid, UnsolvableError

    cores = []
    for name in core_names:
        core = _core(name if name in ("native", "python") else "ours") if name != "ours" else None
        if name == "ours":
            from sudoku_server.sudoku import solver as core_module

            core = core_module.NATIVE if core_module.CORE == "native" else core_module.PYTHON
        if core is None:
            print(f"<!-- {name} skipped: not available -->")
            continue
        cores.append(core)

    print(
        "| dataset | core | puzzles | solve /s | count(2) /s | solve median ms | count median ms "
        "| count worst ms | count/solve time | counts |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for ds in datasets:
        grids = [Grid.from_string(p) for p in ds.puzzles]
        for core in cores:

            def do_solve(g, solve=core.solve) -> object:
                try:
                    return solve(g)
                except UnsolvableError:
                    return None

            def do_count(g, count=core.count_solutions) -> object:
                return count(g, 2)

            s_pass, c_pass, s_t, c_t = [], [], [], []
            counts: list[object] = []
            for r in range(repeat):
                print(f"  {ds.name}: {core.name} count pass {r + 1}/{repeat} ...", file=sys.stderr, flush=True)
                w, t, _ = time_pass(do_solve, grids)
                s_pass.append(w)
                s_t.append(t)
                w, t, counts = time_pass(do_count, grids)
                c_pass.append(w)
                c_t.append(t)
            n = len(ds.puzzles)
            sp, cp = statistics.median(s_pass), statistics.median(c_pass)
            s_pp = [statistics.median(x) for x in zip(*s_t)]
            c_pp = [statistics.median(x) for x in zip(*c_t)]
            hist: dict[str, int] = {}
            for c in counts:
                key = str(c) if isinstance(c, int) else type(c).__name__
                hist[key] = hist.get(key, 0) + 1
            hist_s = ", ".join(f"{k}: {v}" for k, v in sorted(hist.items()))
            print(
                f"| {ds.name} | {core.name} | {n} | {fmt_rate(n / sp)} | {fmt_rate(n / cp)} | "
                f"{fmt_ms(statistics.median(s_pp) * 1e3)} | {fmt_ms(statistics.median(c_pp) * 1e3)} | "
                f"{fmt_ms(max(c_pp) * 1e3)} | {cp / sp:.2f} | {hist_s} |",
                flush=True,
            )


def threads_mode(datasets: list[Dataset], threads: int, repeat: int) -> None:
    """Native solves in 1 thread and in ``threads`` threads at once (the lock is released)."""
    import threading

    from sudoku_server import Grid
    from sudoku_server.sudoku import solver as core_module

    core = core_module.NATIVE
    if core is None:
        raise SystemExit("--threads needs the native core")
    print(f"| dataset | puzzles | 1 thread /s | {threads} threads /s | speed-up |")
    print("|---|---:|---:|---:|---:|")
    for ds in datasets:
        grids = [Grid.from_string(p) for p in ds.puzzles]

        def run(k: int, parts: int) -> None:
            for g in grids[k::parts]:
                core.solve(g)

        rates = {}
        for parts in (1, threads):
            walls = []
            for _ in range(repeat):
                workers = [threading.Thread(target=run, args=(k, parts)) for k in range(parts)]
                start = time.perf_counter()
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()
                walls.append(time.perf_counter() - start)
            rates[parts] = len(grids) / statistics.median(walls)
        print(
            f"| {ds.name} | {len(grids)} | {fmt_rate(rates[1])} | {fmt_rate(rates[threads])} | "
            f"{rates[threads] / rates[1]:.2f}x |",
            flush=True,
        )


def peak_rss_mib() -> float:
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return kib / (1024 * 1024) if sys.platform == "darwin" else kib / 1024


# --------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Time sudoku_server.solve against reference solvers.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("Usage:", 1)[1],
    )
    ap.add_argument("files", nargs="*", type=Path, help="dataset files instead of the default sets")
    ap.add_argument(
        "--datasets",
        type=Path,
        default=None,
        help="directory of the default sets, plain or .gz (default: the repository's puzzles/datasets/)",
    )
    ap.add_argument("--sets", default=None, help="comma-separated default set names to run")
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles per set")
    ap.add_argument("--repeat", type=int, default=1, help="passes per solver; medians are reported")
    ap.add_argument(
        "--solvers",
        default=None,
        help="comma-separated: ours, classic, naive, rowprop (default ours,classic,naive; ours alone with --memory)",
    )
    ap.add_argument(
        "--cap",
        type=int,
        default=DEFAULT_CAP,
        help=f"naive: recursive calls per puzzle before giving up (default {DEFAULT_CAP})",
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help=f"smoke run: first {QUICK_LIMIT} puzzles per set ({QUICK_LIMIT_EASY} for kaggle)",
    )
    ap.add_argument(
        "--count",
        action="store_true",
        help="time count_solutions(grid, 2) vs solve, per core in --solvers (ours, native, python)",
    )
    ap.add_argument(
        "--threads", type=int, default=0, metavar="N", help="native: solves/s in 1 thread and in N threads at once"
    )
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time with perf_counter (wall, default) or process_time (cpu)",
    )
    ap.add_argument(
        "--check-gaps",
        action="store_true",
        help="native: wall time between check() calls on long 9x9, 16x16 and 25x25 searches",
    )
    ap.add_argument("--memory", action="store_true", help="run over sudoku17 and print peak RSS")
    ap.add_argument("--list", action="store_true", help="list the default sets and exit")
    ap.add_argument(
        "--large",
        action="store_true",
        help="16x16 and 25x25 sets (gecode_16x16_janko55, gecode_25x25_frisch16, empty"
        " and sparse grids): per-puzzle times under --time-limit",
    )
    ap.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        help="--large: seconds per puzzle before it counts as not solved (default 60)",
    )
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.large:
        ddir = args.datasets or default_datasets_dir()
        return large_mode(ddir, args.time_limit, args.limit, (args.solvers or "ours").split(","))
    if args.check_gaps:
        return check_gaps_mode()

    if args.list:
        for s in DEFAULT_SETS:
            print(f"{s.name:34} {s.filename:40} first {s.limit or 'all'}{' (multi)' if s.multi else ''}")
        return 0
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")

    rss_start = peak_rss_mib()
    datasets: list[Dataset] = []
    if args.files:
        for path in args.files:
            # Not known to be unique: check ours against the row-major-first
            # answer (naive/rowprop), which for a unique puzzle is the solution.
            datasets.append(load_file(path, args.limit, multi=True))
    else:
        ddir = args.datasets or default_datasets_dir()
        if ddir is None:
            ap.error("no datasets directory: pass --datasets DIR or dataset files")
        specs = DEFAULT_SETS
        if args.memory and not args.sets:
            specs = [s for s in DEFAULT_SETS if s.name.startswith("sudoku17")]
        if args.sets:
            wanted = args.sets.split(",")
            unknown = set(wanted) - {s.name for s in DEFAULT_SETS}
            if unknown:
                ap.error(f"unknown set(s) {sorted(unknown)}; see --list")
            specs = [s for s in DEFAULT_SETS if s.name in wanted]
        for spec in specs:
            limit = spec.limit
            if args.quick:
                limit = QUICK_LIMIT_EASY if spec.name.startswith("kaggle") else QUICK_LIMIT
            if args.limit is not None:
                limit = args.limit if limit is None else min(limit, args.limit)
            path = _datasets.find(spec.filename, ddir)
            if path is None:
                print(f"<!-- missing {spec.filename} in {ddir}, skipped -->")
                continue
            datasets.append(load_file(path, limit, spec.name, spec.multi))

    solver_names = [s for s in (args.solvers or ("ours" if args.memory else "ours,classic,naive")).split(",") if s]

    print(
        f"<!-- {' '.join(['python3', 'benchmarks/bench_solver.py', *(argv if argv is not None else sys.argv[1:])])} -->"
    )
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, {os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M:%S')}; "
        f"repeat {args.repeat}; naive cap {args.cap:,} calls; {args.clock} clock; "
        f"load average at start {os.getloadavg()[0]:.2f}.\n"
    )

    if args.count:
        count_mode(datasets, args.repeat, [s for s in (args.solvers or "ours").split(",") if s])
        return 0
    if args.threads:
        threads_mode(datasets, args.threads, args.repeat)
        return 0

    solvers = make_solvers(solver_names, args.cap)
    print("\n".join(TABLE_HEAD), flush=True)
    total_wrong = 0
    for ds in datasets:
        if not ds.puzzles:
            continue
        runs = bench_dataset(ds, solvers, args.repeat)
        checks = verify(ds, runs)
        total_wrong += sum(w for w, _ in checks.values())
        print("\n".join(report(ds, runs, checks)), flush=True)

    if args.memory:
        print(
            f"\npeak RSS: {peak_rss_mib():.1f} MiB after the run "
            f"(at start, after imports: {rss_start:.1f} MiB; ru_maxrss)"
        )
    return 1 if total_wrong else 0


class _OverTime(Exception):
    pass


def _timed_solve(grid, limit_s: float, solve=None):
    """(seconds, solution or None) for one solve stopped by ``check`` after ``limit_s``."""
    if solve is None:
        from sudoku_server import solve

    deadline = time.perf_counter() + limit_s

    def check() -> None:
        if time.perf_counter() > deadline:
            raise _OverTime()

    started = time.perf_counter()
    try:
        solution = solve(grid, check=check)
    except _OverTime:
        return time.perf_counter() - started, None
    return time.perf_counter() - started, solution


def _sparse_puzzles(box: int, count: int, keep: float, seed: int = 1):
    """Puzzles made by blanking most of a solved grid (``keep``: share of cells kept)."""
    import random

    from sudoku_server import Grid

    rng = random.Random(seed)
    n = box * box
    # A solved grid by the classic pattern, then shuffled digits, rows within
    # bands and columns within stacks (all keep it solved).
    base = [[(box * (r % box) + r // box + c) % n + 1 for c in range(n)] for r in range(n)]
    out = []
    for _ in range(count):
        digits = list(range(1, n + 1))
        rng.shuffle(digits)
        rows = [b * box + i for b in range(box) for i in rng.sample(range(box), box)]
        cols = [b * box + i for b in range(box) for i in rng.sample(range(box), box)]
        cells = [digits[base[r][c] - 1] if rng.random() < keep else 0 for r in rows for c in cols]
        out.append(Grid(tuple(cells), box, box))
    return out


def _secs(seconds: float, limit_s: float) -> str:
    return f"{seconds:.3f}" if seconds != math.inf else f"> {limit_s:g}"


def large_mode(ddir: Path | None, limit_s: float, limit: int | None, core_names: list[str]) -> int:
    """Time each core on 16x16 and 25x25: each puzzle under ``limit_s`` seconds."""
    from sudoku_server import Grid, verify_solution
    from sudoku_server.sudoku import solver as core_module

    cores = []
    for name in core_names:
        core = (
            (core_module.NATIVE if core_module.CORE == "native" else core_module.PYTHON)
            if name == "ours"
            else _core(name)
        )
        if core is None:
            print(f"<!-- {name} skipped: not available -->")
            continue
        cores.append((name, core))
    print(f"<!-- python3 benchmarks/bench_solver.py {' '.join(sys.argv[1:])} -->")
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M:%S')};"
        f" time limit {limit_s:g} s per puzzle; load average {os.getloadavg()[0]:.2f}.\n"
    )
    sets = []
    for name, box in (("gecode_16x16_janko55.txt", 4), ("gecode_25x25_frisch16.txt", 5)):
        path = _datasets.find(name, ddir)
        if path is None:
            print(f"<!-- missing {name}, skipped -->")
            continue
        with _datasets.open_text(path) as f:
            lines = [line.strip() for line in f if line.strip()]
        grids = [Grid.from_string(line, box, box) for line in lines[:limit]]
        sets.append((name.rsplit(".", 1)[0], grids))
    for box in (4, 5):
        n = box * box
        sets.append((f"empty {n}x{n}", [Grid(tuple([0] * (n * n)), box, box)]))
        for keep in (0.10, 0.30, 0.40):
            sets.append((f"sparse {n}x{n} ({keep:.0%} kept, 5 puzzles)", _sparse_puzzles(box, 5, keep)))
    print("| set | core | puzzles | solved | within 1 s | within 10 s | median s | worst s | wrong |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, grids in sets:
        for core_name, core in cores:
            times, solved, wrong, per = [], 0, 0, []
            for grid in grids:
                seconds, solution = _timed_solve(grid, limit_s, core.solve)
                times.append(seconds if solution is not None else math.inf)
                if solution is not None:
                    solved += 1
                    if verify_solution(grid, solution) is not None:
                        wrong += 1
                per.append(f"{seconds:.2f}" + ("" if solution is not None else "+"))
            times.sort()
            print(
                f"| {name} | {core_name} | {len(grids)} | {solved} | {sum(t <= 1 for t in times)} |"
                f" {sum(t <= 10 for t in times)} | {_secs(times[len(times) // 2], limit_s)} |"
                f" {_secs(times[-1], limit_s)} | {wrong} |",
                flush=True,
            )
            if "25x25" in name or len(grids) <= 5:
                print(
                    f"<!-- {name} ({core_name}): seconds per puzzle (+ = stopped at the limit): {' '.join(per)} -->",
                    flush=True,
                )
    return 0


def check_gaps_mode() -> int:
    """Wall time between consecutive check() calls of the native core (and before the first)."""
    from sudoku_server import Grid
    from sudoku_server.sudoku import solver as core_module

    core = core_module.NATIVE
    if core is None:
        raise SystemExit("--check-gaps needs the native core")
    print(f"<!-- python3 benchmarks/bench_solver.py {' '.join(sys.argv[1:])} -->")
    print("Gaps in wall time include the time the machine gave to other processes; gaps in")
    print("this thread's CPU time (time.thread_time) are the search's own.\n")
    print("| search | check calls | median gap ms | p99 gap ms | max gap ms | p99 CPU gap ms | max CPU gap ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    searches = [
        (
            "count, empty 9x9 (limit 10^18), 2 s",
            lambda check: core.count_solutions(Grid((0,) * 81), 10**18, check=check),
        ),
        ("count, empty 16x16, 2 s", lambda check: core.count_solutions(Grid((0,) * 256, 4, 4), 10**18, check=check)),
        ("count, empty 25x25, 2 s", lambda check: core.count_solutions(Grid((0,) * 625, 5, 5), 10**18, check=check)),
        ("solve, frisch16 #1 (25x25), 2 s", None),
    ]
    path = _datasets.find("gecode_25x25_frisch16.txt")
    if path is not None:
        with _datasets.open_text(path) as f:
            first = Grid.from_string(f.readline().strip(), 5, 5)
        searches[-1] = (searches[-1][0], lambda check: core.solve(first, check=check))
    for label, run in searches:
        if run is None:
            continue
        stamps: list[float] = []
        cpu: list[float] = []

        def check() -> None:
            stamps.append(time.perf_counter())
            cpu.append(time.thread_time())
            if stamps[-1] - start > 2.0:
                raise _OverTime()

        start, cpu_start = time.perf_counter(), time.thread_time()
        try:
            run(check)
        except _OverTime:
            pass
        gaps = sorted(b - a for a, b in zip([start] + stamps, stamps))
        cpu_gaps = sorted(b - a for a, b in zip([cpu_start] + cpu, cpu))
        if not gaps:
            print(f"| {label} | 0 | - | - | - | - | - |")
            continue

        def p99(xs: list) -> float:
            return xs[min(len(xs) - 1, int(len(xs) * 0.99))] * 1e3

        print(
            f"| {label} | {len(gaps)} | {statistics.median(gaps) * 1e3:.3f} | {p99(gaps):.3f} |"
            f" {gaps[-1] * 1e3:.3f} | {p99(cpu_gaps):.3f} | {cpu_gaps[-1] * 1e3:.3f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
