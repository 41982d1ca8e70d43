"""Two builds of the native core in one process on the marks line's one call (issue 29): its whole cost, and its prepare.

``bench_native_ab.py`` times the search alone, on geometries prepared out of
the clock and solved several times (so the search is warm). A quick rule's
request is one native call, ``solve_marks`` (``_native_marksline.h``): the
line read, its geometry prepared like the classic one, searched, checked and
written, each puzzle new. This times that call per line over each stored set
(``puzzles/variants/bench_<rule>.txt``), each line once a pass, for two built
``_native`` extension files A and B in turn (A B A B ..., ``--runs`` passes
each), and again on the same lines with their solutions as givens: the same
marks to read and prepare, a search with nothing to do: what the call costs
before and after the search. Every answer is checked. Prints per rule the
medians in µs per line (CPU time of this process) and B's over A's.

Usage (each path an ``_native*.so`` built by ``setup.py build_ext --inplace``):
  PYTHONPATH=$PWD python3 benchmarks/bench_marks_ab.py A.so B.so --rules whispers,palindrome,thermo
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Sequence

import bench_rules
from bench_native_ab import load_two, parser_of_two

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.rules import RULES
from sudoku_server.sudoku.rules._native_marks import reader_words


def main(argv: Sequence[str] | None = None) -> int:
    parser = parser_of_two(__doc__, "whispers,palindrome,thermo")
    parser.add_argument("--runs", type=int, default=9, help="passes over the lines per build (default 9)")
    args = parser.parse_args(argv)
    cores = load_two(args.a, args.b, "marks_ab_")
    words = reader_words(RULES.items())
    units = solver._NINE.geometry.unit_array
    readers = [core.marks_reader(words) for core in cores]
    likes = [core.prepare(9, units, True) for core in cores]
    print(f"load average at the start {os.getloadavg()[0]:.2f}; medians of {args.runs} passes, µs per line (cpu)")
    print("| rule | puzzles | A call | A prepare | B call | B prepare | call B/A | prepare B/A |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for rule in args.rules.split(","):
        stored = bench_rules.read_set(rule)[: args.count]
        lines = [f"SOLVE {line}\n".encode() for line, _ in stored]
        solved = [f"SOLVE {solution} {line.split(' ', 1)[1]}\n".encode() for line, solution in stored]
        answers = [f"{solution}\n".encode() for _, solution in stored]
        times: dict[tuple[int, int], list[float]] = {(k, w): [] for k in (0, 1) for w in (0, 1)}
        for _ in range(args.runs):
            for k in (0, 1):
                call, reader, like = cores[k].solve_marks, readers[k], likes[k]
                for w, batch in enumerate((lines, solved)):
                    start = time.process_time()
                    got = [call(line, reader, like) for line in batch]
                    times[k, w].append((time.process_time() - start) / len(batch) * 1e6)
                    if got != answers:
                        raise SystemExit(f"{rule}: a wrong answer from {'AB'[k]}")
        m = {key: statistics.median(value) for key, value in times.items()}
        print(
            f"| {rule} | {len(lines)} | {m[0, 0]:.1f} | {m[0, 1]:.1f} | {m[1, 0]:.1f} | {m[1, 1]:.1f}"
            f" | {m[1, 0] / m[0, 0]:.2f} | {m[1, 1] / m[0, 1]:.2f} |",
            flush=True,
        )
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
