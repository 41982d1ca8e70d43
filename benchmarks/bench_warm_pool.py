"""GENERATE by level with warm pools (issue 20): latency before and after, and the filling's CPU share.

Two servers side by side, each ``python3 -m sudoku_server`` with
``PYTHONPATH`` set to its tree (``--before TREE``, ``--after TREE``, each
with its native core built), on 127.0.0.1 and free ports; the AFTER server
with its default warm pools (``--warm-pool 32 --warm-pool-cpu 0.08``). For
each level of ``--levels`` (hard, expert, extreme), in turn:

  1. one ``GENERATE level=L`` to each server (on AFTER it starts the pool);
  2. wait ``--wait`` seconds for that level (the pool fills in idle time),
     reading the AFTER server's CPU time (``/proc/PID/stat``, user + system)
     and its ``STAT pool_fill_seconds`` over the wait: the filling's share
     of one core, and the whole process's;
  3. ``--requests`` ``GENERATE level=L`` one after another on one
     connection to AFTER, each followed by a ``PING`` (the event loop's
     own latency: this machine's noise floor), then the same to BEFORE: wall
     time of each reply (``time.perf_counter``, send to last byte). Replies
     whose ``#`` line says ``pool=yes`` are the requests "while the pool
     lasts". AFTER repeats this ``--rounds`` times, each once its pool has
     refilled to what the wait gave (at most ``--wait`` seconds more).

Then an idle check: a fresh AFTER server that nobody asks for a level,
its CPU over ``--idle`` seconds.

Columns: replies, from pool, median / p99 / max ms (all replies), p99 of
the pooled ones and the share of them within 5 ms, median and p99 of the
PINGs. A p99 of fewer than 100 replies is their maximum. The machine is shared: repeat for steadier figures.

``--fill-cpu SECONDS`` (issue 32) measures only the CPU, for each tree:
every level's pool started (one ``GENERATE level=L`` each; five pools of
``--warm-pool`` puzzles take minutes to fill), then the CPU of every process
of the server (the supervisor, its workers and the metrics child with
``--workers N``; ``/proc``, user + system) over SECONDS, as a share of one
core: the filling with every overhead. Then a fresh server nobody asks for a
level, over ``--idle`` seconds. ``--workers`` gives the worker counts to try
(``1`` is the single process, no supervisor).

Usage:
  python3 benchmarks/bench_warm_pool.py --before BEFORE_TREE --after AFTER_TREE
  python3 benchmarks/bench_warm_pool.py --before BEFORE_TREE --after . --fill-cpu 30 --workers 1 2 --repeat 3
  python3 benchmarks/bench_warm_pool.py --after . --levels hard --wait 20 --requests 32
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benchmarks' own helpers, not the package

import corecheck

TICKS = os.sysconf("SC_CLK_TCK")


def free_port(base: int) -> int:
    """A free port from ``base`` on (``--port``: a shared machine gives each user a range), else any."""
    for port in range(base, base + 100) if base else ():
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(tree: str, extra: list[str], base: int = 0) -> tuple[subprocess.Popen, int]:
    port = free_port(base)
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    argv = [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port)]
    argv += ["--log-level", "warning", *extra]
    proc = subprocess.Popen(argv, env=env, cwd=corecheck.NEUTRAL_CWD, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"the server of {tree} did not start")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Client:
    """One held connection (KEEPALIVE): a request line, its reply (one line, or a ``#`` line and the puzzle)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")
        self.sock.sendall(b"KEEPALIVE\n")
        self.file.readline()

    def generate(self, level: str) -> tuple[float, bytes]:
        started = time.perf_counter()
        self.sock.sendall(f"GENERATE level={level}\n".encode())
        header = self.file.readline()
        self.file.readline()
        return time.perf_counter() - started, header

    def ping(self) -> float:
        """Seconds of one PING (the event loop's own latency: the noise floor of this machine)."""
        started = time.perf_counter()
        self.sock.sendall(b"PING\n")
        self.file.readline()
        return time.perf_counter() - started

    def stats(self) -> dict[str, str]:
        self.sock.sendall(b"STATS\n")
        out = {}
        while (line := self.file.readline().decode().strip()) != "END":
            _, name, value = line.split(" ", 2)
            out[name] = value
        return out

    def close(self) -> None:
        self.sock.sendall(b"QUIT\n")
        self.sock.close()


def stats_of(port: int) -> dict[str, str]:
    """The STATS fields of the server on ``port``, on a connection of its own."""
    client = Client(port)
    try:
        return client.stats()
    finally:
        client.close()


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and of its children (the workers of a supervisor), alive now."""
    total = cpu_seconds(pid)
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            total += cpu_seconds(int(child))
        except FileNotFoundError:
            pass
    return total


def fill_cpu(tree: str, workers: int, seconds: float, idle: float, base: int) -> tuple[float, float]:
    """(filling share, idle share) of one core, for ``tree`` with ``workers`` (1: a single process)."""
    extra = ["--workers", str(workers)] if workers > 1 else []
    proc, port = start(tree, extra, base)
    try:
        time.sleep(2.0)  # the workers start
        for level in ("easy", "medium", "hard", "expert", "extreme"):
            for _ in range(workers):  # each worker's pool (the balancer spreads the connections)
                client = Client(port)
                client.generate(level)
                client.close()
        time.sleep(2.0)
        before, started = tree_cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        filling = (tree_cpu_seconds(proc.pid) - before) / (time.monotonic() - started)
    finally:
        proc.terminate()
        proc.wait()
    proc, port = start(tree, extra, base)
    try:
        time.sleep(2.0)
        before, started = tree_cpu_seconds(proc.pid), time.monotonic()
        time.sleep(idle)
        resting = (tree_cpu_seconds(proc.pid) - before) / (time.monotonic() - started)
    finally:
        proc.terminate()
        proc.wait()
    return filling, resting


def fill_cpu_main(args: argparse.Namespace) -> int:
    trees = {"before": args.before, "after": args.after} if args.before else {"after": args.after}
    print("| tree | workers | filling, % of one core (median; runs) | idle, % of one core (median; runs) |")
    print("| --- | --- | --- | --- |")
    for workers in args.workers:
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        for _ in range(args.repeat):
            for name, tree in trees.items():  # interleaved: the machine's load falls on both alike
                runs[name].append(fill_cpu(tree, workers, args.fill_cpu, args.idle, args.port))
        for name, got in runs.items():
            fills = " ".join(f"{100 * f:.1f}" for f, _ in got)
            idles = " ".join(f"{100 * i:.2f}" for _, i in got)
            print(
                f"| {name} | {workers} | {100 * statistics.median(f for f, _ in got):.1f} ({fills})"
                f" | {100 * statistics.median(i for _, i in got):.2f} ({idles}) |"
            )
    return 0


def p99(ms: list[float]) -> float:
    """The 99th percentile of sorted values (the largest below 100 of them); NaN for none."""
    return ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", default=None, help="the tree before (none: AFTER only)")
    parser.add_argument("--after", default=".", help="the tree after (default: .)")
    parser.add_argument("--levels", default="hard,expert,extreme", help="levels, comma-separated")
    parser.add_argument("--wait", type=float, nargs="*", default=[20.0, 40.0, 60.0], help="seconds per level")
    parser.add_argument("--requests", type=int, default=32, help="requests per level and server (default 32)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="AFTER: batches of --requests, each once the pool has refilled (default 3)",
    )
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle check (default 10)")
    parser.add_argument("--port", type=int, default=0, help="first port to try (default: any free port)")
    parser.add_argument("--fill-cpu", type=float, default=None, help="seconds: measure only the filling's CPU")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2], help="--fill-cpu: worker counts")
    parser.add_argument("--repeat", type=int, default=3, help="--fill-cpu: runs per tree and count")
    corecheck.add_flag(parser)
    args = parser.parse_args()
    if args.fill_cpu is not None:
        return fill_cpu_main(args)
    levels = args.levels.split(",")
    waits = (args.wait * len(levels))[: len(levels)] if len(args.wait) < len(levels) else args.wait
    servers = {"after": start(args.after, [], args.port)}
    if args.before:
        servers["before"] = start(args.before, [], args.port + 1 if args.port else 0)
    try:
        for name, (_, port) in servers.items():
            corecheck.require_native(corecheck.server_core("127.0.0.1", port), args.allow_python_core, name)
        clients: dict[str, Client] = {}
        after_pid = servers["after"][0].pid
        print(
            "| level | server | replies | from pool | median ms | p99 ms | max ms | pooled p99 ms"
            " | pooled <= 5 ms | PING median ms | PING p99 ms |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        shares = []
        for level, wait in zip(levels, waits):
            for name, (_, port) in servers.items():
                clients[name] = Client(port)
                clients[name].generate(level)
            fill0, cpu0, wall0 = (
                float(stats_of(servers["after"][1])["pool_fill_seconds"]),
                cpu_seconds(after_pid),
                time.monotonic(),
            )
            time.sleep(wait)
            stats = stats_of(servers["after"][1])
            wall = time.monotonic() - wall0
            fill = (float(stats["pool_fill_seconds"]) - fill0) / wall
            process = (cpu_seconds(after_pid) - cpu0) / wall
            shares.append((level, wall, stats.get(f"pool_{level}", "0"), fill, process))
            ready = int(stats.get(f"pool_{level}", "0"))
            for name, (_, port) in servers.items():
                replies: list[tuple[float, bytes]] = []
                pings: list[float] = []
                for round_ in range(args.rounds if name == "after" else 1):
                    deadline = time.monotonic() + wait
                    while round_ and time.monotonic() < deadline:  # the pool refilled to what the wait gave
                        if int(stats_of(port).get(f"pool_{level}", "0")) >= ready:
                            break
                        time.sleep(0.5)
                    client = Client(port)  # a fresh connection: the first one may have been idle for --wait seconds
                    for _ in range(args.requests):
                        replies.append(client.generate(level))
                        pings.append(client.ping())
                    client.close()
                pooled = sorted(s * 1000 for s, header in replies if b" pool=yes" in header)
                all_ms = sorted(s * 1000 for s, _ in replies)
                ping_ms = sorted(s * 1000 for s in pings)
                within = f"{sum(ms <= 5.0 for ms in pooled) / len(pooled):.0%}" if pooled else "-"
                print(
                    f"| {level} | {name} | {len(all_ms)} | {len(pooled)} | {statistics.median(all_ms):.2f}"
                    f" | {p99(all_ms):.2f} | {all_ms[-1]:.2f} | {p99(pooled):.2f} | {within}"
                    f" | {statistics.median(ping_ms):.2f} | {p99(ping_ms):.2f} |",
                    flush=True,
                )
        print()
        print("| level | wait s | pool ready after the wait | fill CPU share of one core | process CPU share |")
        print("| --- | --- | --- | --- | --- |")
        for level, wall, ready, fill, process in shares:
            print(f"| {level} | {wall:.1f} | {ready} | {fill:.3f} | {process:.3f} |")
        for client in clients.values():
            client.close()
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(timeout=10)
    proc, port = start(args.after, [], args.port)
    try:
        cpu0 = cpu_seconds(proc.pid)
        time.sleep(args.idle)
        print(f"\nidle server (nobody asked for a level): {cpu_seconds(proc.pid) - cpu0:.3f} CPU s in {args.idle:g} s")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
