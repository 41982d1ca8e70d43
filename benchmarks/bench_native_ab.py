"""Two builds of the native core in one process, puzzle by puzzle: the search's CPU time, A against B.

``bench_search_only.py`` times one tree per process, so two trees compared on
a busy machine differ by whatever the load did between the runs (a few
percent). This loads two built ``_native`` extension files (say main's and a
branch's) into the same process, prepares each puzzle's geometry in both
(``prepare(..., like=None)``: the geometry alone, untimed), and per puzzle
alternates A's and B's ``solve`` ``--calls`` times, keeping each one's least
CPU time (``time.thread_time``); the answers must agree. Prints per rule the
mean, median and worst ms and the mean and worst nodes of each, and B's total
over A's. The noise is about 2% on a loaded machine.

Usage (each path an ``_native*.so`` built by ``setup.py build_ext --inplace``):
  PYTHONPATH=$PWD python3 benchmarks/bench_native_ab.py A.so B.so --rules littlekiller,arrow
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from types import ModuleType

import bench_rules
import marks_puzzles

from sudoku_server.sudoku import solver


def load(path: str, folder: str) -> ModuleType:
    """The extension module at path, loaded under the package's name beside the imported one, from a copy
    in a folder of its own (the interpreter hands back a module already loaded from the same file, such
    as the tree's own on PYTHONPATH)."""
    os.mkdir(folder)
    copy = shutil.copy(path, folder)
    spec = importlib.util.spec_from_file_location("sudoku_server.sudoku.solver._native", copy)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parser_of_two(doc: str, rules: str) -> argparse.ArgumentParser:
    """The arguments both A/B scripts take: the two ``_native*.so`` files, ``--rules`` (default ``rules``) and
    ``--count``."""
    parser = argparse.ArgumentParser(
        description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("a", help="the first _native*.so (A)")
    parser.add_argument("b", help="the second _native*.so (B)")
    parser.add_argument("--rules", default=rules, help=f"rules, comma-separated (default {rules})")
    parser.add_argument("--count", type=int, default=500, help="puzzles per rule (default 500: the stored sets)")
    return parser


def load_two(a: str, b: str, prefix: str) -> tuple[ModuleType, ModuleType]:
    """The two builds at ``a`` and ``b``, loaded side by side (:func:`load`)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        cores = load(a, os.path.join(folder, "a")), load(b, os.path.join(folder, "b"))
    if cores[0] is cores[1]:
        raise SystemExit("A and B loaded as one module")
    return cores


def main(argv: Sequence[str] | None = None) -> int:
    parser = parser_of_two(__doc__, "littlekiller")
    parser.add_argument("--calls", type=int, default=3, help="solves of each per puzzle, the least kept (default 3)")
    args = parser.parse_args(argv)
    cores = load_two(args.a, args.b, "native_ab_")
    print(f"load average at the start {os.getloadavg()[0]:.2f}; least of {args.calls} solves, ms (cpu clock)")
    print("| rule | puzzles | A mean | A median | A worst | A nodes mean / worst | B mean | B median | B worst |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for rule in args.rules.split(","):
        times: tuple[list[float], list[float]] = ([], [])
        nodes: tuple[list[int], list[int]] = ([], [])
        for line, solution in bench_rules.read_set(rule)[: args.count]:
            grid, geo, _variant = marks_puzzles.read_line(line)
            arrays = solver._constraint_arrays(geo) if geo.constraints else {}
            classic = geo.key == ("classic", 3, 3)
            prepared = [core.prepare(geo.size, geo.unit_array, classic, like=None, **arrays) for core in cores]
            answers = [core.solve(grid.cells, p, None) for core, p in zip(cores, prepared, strict=True)]
            if answers[0] != answers[1] or "".join(map(str, answers[0])) != solution:
                raise SystemExit(f"{rule}: the answers differ for {line}")
            best = [float("inf"), float("inf")]
            for _ in range(args.calls):
                for k in (0, 1):
                    start = time.thread_time()
                    cores[k].solve(grid.cells, prepared[k], None)
                    best[k] = min(best[k], time.thread_time() - start)
            for k in (0, 1):
                times[k].append(best[k] * 1e3)
                nodes[k].append(cores[k].last_nodes())
        a, b = times
        print(
            f"| {rule} | {len(a)} | {statistics.mean(a):.3f} | {statistics.median(a):.3f} | {max(a):.2f}"
            f" | {statistics.mean(nodes[0]):.1f} / {max(nodes[0])} | {statistics.mean(b):.3f}"
            f" | {statistics.median(b):.3f} | {max(b):.2f} |"
        )
        print(f"B/A {sum(b) / sum(a):.3f}; B's nodes mean / worst {statistics.mean(nodes[1]):.1f} / {max(nodes[1])}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
