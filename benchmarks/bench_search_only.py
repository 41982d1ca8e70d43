"""The native search alone on the stored sets of the marks rules (issue 29): the geometry prepared first.

``bench_rules.py``'s "solve" column times ``solver.NATIVE.solve`` on a geometry
of its own per puzzle, so it includes preparing that geometry in C
(``_native.prepare``). This times the search alone: per puzzle, one untimed
solve (the geometry is prepared and kept), then ``--calls`` timed solves,
``solve_any`` and ``count_solutions`` (limit 2); the per-puzzle figure is the
mean of its calls. Prints the median, mean and worst ms of each, and the
puzzles whose solve is slowest. Every answer is checked against the stored
solution.

Usage:
  python3 benchmarks/bench_search_only.py --rules sandwich
  python3 benchmarks/bench_search_only.py --rules sandwich,littlekiller --calls 5 --slowest 3
  python3 benchmarks/bench_search_only.py --rules littlekiller --calls 1 --clock cpu   # on a busy machine
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence

import bench_rules
import marks_puzzles

from sudoku_server.sudoku import solver


def _timed(function, calls: int, clock=time.perf_counter) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    start = clock()
    for _ in range(calls):
        result = function()
    return (clock() - start) / calls, result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default="sandwich", help="rules, comma-separated (default sandwich)")
    parser.add_argument("--count", type=int, default=500, help="puzzles per rule (default 500: the stored sets)")
    parser.add_argument("--calls", type=int, default=3, help="timed calls per puzzle and function (default 3)")
    parser.add_argument("--slowest", type=int, default=0, help="print the puzzles of the slowest solves (default 0)")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall: time.perf_counter (default); cpu: this thread's CPU time (time.thread_time), which a busy"
        " machine inflates less",
    )
    args = parser.parse_args(argv)
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    native = solver.NATIVE
    if native is None:
        raise SystemExit("the native core is not built")
    print(f"load average at the start {os.getloadavg()[0]:.2f}; {args.calls} calls per puzzle, ms ({args.clock} clock)")
    print(
        "| rule | puzzles | solve median | solve mean | solve worst | any mean | any worst | count mean | count worst"
        " | solve nodes median | solve nodes worst |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for rule in args.rules.split(","):
        rows = []
        for line, solution in bench_rules.read_set(rule)[: args.count]:
            grid, geo, _variant = marks_puzzles.read_line(line)
            native.solve(grid, geometry=geo)  # prepares the geometry
            solve_t, solved = _timed(lambda: native.solve(grid, geometry=geo), args.calls, clock)
            nodes = solver._native.last_nodes()  # the last solve's search nodes
            any_t, _ = _timed(lambda: native.solve_any(grid, geometry=geo), args.calls, clock)
            count_t, count = _timed(lambda: native.count_solutions(grid, geometry=geo), args.calls, clock)
            if solved.to_string() != solution or count != 1:  # type: ignore[attr-defined]
                raise SystemExit(f"{rule}: a wrong answer for {line}")
            rows.append((solve_t * 1e3, any_t * 1e3, count_t * 1e3, nodes, line))
        solve, any_, count, node = ([r[k] for r in rows] for k in range(4))
        print(
            f"| {rule} | {len(rows)} | {statistics.median(solve):.3f} | {statistics.mean(solve):.3f} | {max(solve):.2f}"
            f" | {statistics.mean(any_):.3f} | {max(any_):.2f} | {statistics.mean(count):.3f} | {max(count):.2f}"
            f" | {statistics.median(node):.0f} | {max(node)} |"
        )
        for solve_ms, _any, _count, _nodes, line in sorted(rows)[::-1][: args.slowest]:
            print(f"  {solve_ms:.2f} ms: {line}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
