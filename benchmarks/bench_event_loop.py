"""The event loop's CPU per pipelined request, two trees side by side (issue 29, tenth session).

One server of each tree runs at once (``--trees A,B``, each with ``PYTHONPATH`` naming it; extra server
options after ``--``), each warmed with the set's last 50 puzzles and one pass of the first ``--count``; then
rounds of one connection pipelining the first ``--count`` puzzles as ``SOLVE <line>`` (``bench_rules.pipelined``,
every answer checked), the trees alternated (A B, B A, ...). Per round: the main thread's CPU (the event loop,
``/proc/PID/task/PID/schedstat``), the process's CPU and the wall time, µs a request. Prints per rule the
medians and the median of the rounds' B/A ratios.

The two trees must hold the same compiled core (compare a branch with its own base built alike, not with a
main that has merged a faster core since).

    cd benchmarks && PYTHONPATH=<tree> python3 bench_event_loop.py --trees <base>,<tree> --rules whispers,thermo
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence

import bench_rules


def main_cpu(pid: int) -> float:
    """CPU seconds the main thread (the event loop) of process ``pid`` has used so far."""
    with open(f"/proc/{pid}/task/{pid}/schedstat") as f:
        return int(f.read().split()[0]) / 1e9


def compare(trees: list[str], rule: str, count: int, rounds: int, options: list[str]) -> str:
    """One rule's table row: medians of the rounds for both trees."""
    stored = bench_rules.read_set(rule)
    puzzles = stored[:count]
    servers = [bench_rules.start_server(tree, options) for tree in trees]
    loop: list[list[float]] = [[], []]
    cpu: list[list[float]] = [[], []]
    wall: list[list[float]] = [[], []]
    try:
        for proc, port in servers:
            bench_rules.pipelined(port, proc.pid, stored[-50:])
            bench_rules.pipelined(port, proc.pid, puzzles)
        for round_ in range(rounds):
            for k in (0, 1) if round_ % 2 == 0 else (1, 0):
                proc, port = servers[k]
                before = main_cpu(proc.pid)
                seconds, used = bench_rules.pipelined(port, proc.pid, puzzles)
                loop[k].append((main_cpu(proc.pid) - before) / count * 1e6)
                cpu[k].append(used / count * 1e6)
                wall[k].append(seconds / count * 1e6)
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(10)
    med = statistics.median
    loop_ratio = med(b / a for a, b in zip(loop[0], loop[1]) if a)
    cpu_ratio = med(b / a for a, b in zip(cpu[0], cpu[1]) if a)
    return (
        f"| {rule} | {med(loop[0]):.1f} | {med(loop[1]):.1f} | {loop_ratio:.2f} | {med(cpu[0]):.0f}"
        f" | {med(cpu[1]):.0f} | {cpu_ratio:.2f} | {med(wall[0]):.0f} | {med(wall[1]):.0f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", required=True, help="A,B: two checkouts, each built in place")
    parser.add_argument("--rules", default="whispers,kropki,xv,arrow,thermo,oddeven")
    parser.add_argument("--count", type=int, default=200, help="requests a round (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of each tree (default: %(default)s)")
    parser.add_argument("options", nargs="*", help="server options, after --")
    args = parser.parse_args(argv)
    trees = args.trees.split(",")
    if len(trees) != 2:
        parser.error("--trees takes two trees")
    print(f"<!-- python3 benchmarks/bench_event_loop.py {' '.join(sys.argv[1:] if argv is None else argv)} -->")
    print(f"load average at the start {os.getloadavg()[0]:.2f}; {args.rounds} rounds of each, alternated; medians")
    print(
        "| rule | A event loop µs/request | B | B/A | A process CPU µs/request | B | B/A | A wall µs/request | B |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        flush=True,
    )
    for rule in args.rules.split(","):
        print(compare(trees, rule, args.count, args.rounds, args.options), flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
