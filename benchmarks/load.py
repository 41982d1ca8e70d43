"""Load generator for sudoku-server: concurrent connections, answers/s, latency, server RSS/fds.

Usage (from the repository root)::

    python3 benchmarks/load.py                      # levels 1 16 64 256 1000, 10 s each
    python3 benchmarks/load.py --seconds 5 --levels 1 16 64 --inprocess
    python3 benchmarks/load.py --mixed --seconds 10 # 16 hard connections + 1 easy one
    python3 benchmarks/load.py --connect 127.0.0.1:9999 --server-pid 1234
    python3 benchmarks/load.py --per-request        # a new connection per puzzle

Unless ``--connect`` is given it starts the server itself
(``python3 -m sudoku_server --host 127.0.0.1 --port 0 --max-connections N``,
with RLIMIT_NOFILE raised for it), reads the port from its log line
``listening on 127.0.0.1:PORT`` (the log goes to a temporary file, named in the
output) and stops it at the end. The server runs from the benchmarks folder,
so it is the installed package (or ``PYTHONPATH``'s), never the checkout's
folder by accident; its solver core (``STATS``) is printed, and a pure-Python
one is refused (exit status 2) unless ``--allow-python-core`` is given.

Each connection sends one-line puzzles from the dataset, one outstanding
request at a time on one long connection: the next puzzle goes out as soon as
the previous answer is read. The server ends a session after ``close_grace``
(0.5 s) without input once it has answered; when it closes after an answer the
connection is reopened (counted in "reconnects", not an error). A request that
was sent but got no answer before the connection closed is counted "lost".

Every answer is checked: 81 digits, every row, column and box a permutation of
1-9, every given kept. Errors are counted by kind: ``ERROR <code>`` lines,
wrong answers, resets, client timeouts (``--request-timeout``), lost requests,
failed connects.

Per level the table shows answers/s (answers completed within the level's
``--seconds``), p50/p99 latency (send to full answer line), errors, and the
server's VmRSS and open descriptors before the level, at their peak during it,
and after it (once its connections have closed). ``--inprocess`` first times
``sudoku_server.solve`` over the same puzzles in this process (one thread) and
adds the column "vs in-process" (answers/s divided by that rate).

``--mixed``: ``--hard-connections`` (16) connections send the hardest set while
one connection sends easy puzzles; the easy connection's latencies are
reported separately (goal: p99 < 100 ms).

All traffic goes to 127.0.0.1 (or the ``--connect`` address); every loop is
bounded by the level's time plus ``--request-timeout``; the script stops by
itself.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import corecheck  # benchmarks/corecheck.py, beside this script
import datasets as _datasets

REPO = Path(__file__).resolve().parent.parent

DEFAULT_DATASET = _datasets.DATASETS_DIR / "magictour_top1465.txt.gz"
FALLBACK_DATASET = REPO / "puzzles" / "norvig_top95.txt"
DEFAULT_HARD = _datasets.DATASETS_DIR / "tdoku_forum_hardest_1106.txt.gz"
DEFAULT_EASY = REPO / "puzzles" / "kaggle_1000.csv"
DEFAULT_LEVELS = [1, 16, 64, 256, 1000]
CELLS = set("123456789.0_")
LISTENING = re.compile(r"listening on (\S+):(\d+)")
#: Connects in flight at once (a burst of 1000 SYNs is fine on loopback, but
#: this keeps the accept queue short and the connect timeouts meaningful).
CONNECT_CONCURRENCY = 200
#: Seconds one connect may take before it counts as an error.
CONNECT_TIMEOUT = 10.0


# -- puzzles -------------------------------------------------------------------


def load_puzzles(path: Path, limit: int | None = None) -> list[str]:
    """One-line puzzles from a text file (one per line) or a CSV (first column).

    Comment lines, headers and anything that is not 81 cells are skipped.
    """
    puzzles = []
    with _datasets.open_text(path) as f:
        for line in f:
            text = line.strip().split(",")[0].split(":")[0].strip()
            if len(text) == 81 and set(text) <= CELLS:
                puzzles.append(text)
                if limit and len(puzzles) >= limit:
                    break
    if not puzzles:
        raise SystemExit(f"no 81-cell puzzles in {path}")
    return puzzles


def check_answer(puzzle: str, answer: bytes) -> str | None:
    """None if ``answer`` (one line) solves ``puzzle``; else what is wrong."""
    text = answer.strip().decode("ascii", "replace")
    if len(text) != 81 or not text.isdigit() or "0" in text:
        return f"not 81 digits: {text[:100]!r}"
    for i, (p, a) in enumerate(zip(puzzle, text)):
        if p in "123456789" and p != a:
            return f"given at r{i // 9 + 1}c{i % 9 + 1} changed"
    digits = set("123456789")
    for k in range(9):
        row = text[9 * k : 9 * k + 9]
        col = text[k::9]
        r0, c0 = 3 * (k // 3), 3 * (k % 3)
        box = "".join(text[9 * (r0 + i) + c0 : 9 * (r0 + i) + c0 + 3] for i in range(3))
        if set(row) != digits or set(col) != digits or set(box) != digits:
            return f"unit {k + 1} incomplete"
    return None


# -- the server process --------------------------------------------------------


def raise_nofile(needed: int) -> int:
    """Raise this process's RLIMIT_NOFILE soft limit to ``needed`` (and the hard one if root)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return soft
    if hard != resource.RLIM_INFINITY and hard < needed:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, needed))
            return needed
        except (ValueError, OSError):
            needed = hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return needed


class ServerProcess:
    """``python3 -m sudoku_server`` on 127.0.0.1, port 0, logging to a temporary file."""

    def __init__(self, max_connections: int, nofile: int, extra: Sequence[str]) -> None:
        self.log = tempfile.NamedTemporaryFile(prefix="sudoku-server-load-", suffix=".log", delete=False)  # noqa: SIM115 (kept open for the server)
        argv = [
            sys.executable,
            "-m",
            "sudoku_server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--max-connections",
            str(max_connections),
            *extra,
        ]
        self.argv = argv

        def limits() -> None:
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            if soft < nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, max(hard, nofile)))

        self.proc = subprocess.Popen(
            argv,
            cwd=corecheck.NEUTRAL_CWD,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
            preexec_fn=limits,
        )
        self.pid = self.proc.pid
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            text = Path(self.log.name).read_text(errors="replace")
            match = LISTENING.search(text)
            if match:
                self.host, self.port = match.group(1), int(match.group(2))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise SystemExit("server did not start:\n" + Path(self.log.name).read_text(errors="replace"))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                print("server did not stop within 15 s of SIGTERM: killed", file=sys.stderr)
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def log_summary(self) -> str:
        text = Path(self.log.name).read_text(errors="replace")
        counts = collections.Counter()
        for line in text.splitlines():
            for word in (
                "WARNING",
                "ERROR",
                "Traceback",
                "unexpected error",
                "refused",
                "reset the connection",
                "went away",
            ):
                if word in line:
                    counts[word] += 1
        results = collections.Counter(re.findall(r"result=(\S+)", text))
        return (
            f"server log {self.log.name}: {len(text.splitlines())} lines; results {dict(results)};"
            f" notable {dict(counts)}; exit status {self.proc.returncode}"
        )


def server_usage(pid: int | None) -> tuple[int | None, int | None]:
    """(VmRSS in kB, open descriptors) of ``pid``, or (None, None)."""
    if pid is None:
        return None, None
    try:
        rss = None
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        return rss, len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, ValueError):
        return None, None


# -- clients -------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    answers: int = 0
    in_window: int = 0
    errors: collections.Counter = field(default_factory=collections.Counter)
    reconnects: int = 0
    samples: list[str] = field(default_factory=list)

    def error(self, kind: str, sample: str = "") -> None:
        self.errors[kind] += 1
        if sample and len(self.samples) < 5:
            self.samples.append(f"{kind}: {sample}")


async def close_writer(writer: asyncio.StreamWriter | None) -> None:
    if writer is None:
        return
    writer.close()
    try:
        await asyncio.wait_for(writer.wait_closed(), 2)
    except (OSError, asyncio.TimeoutError):
        pass


async def connection(
    host: str,
    port: int,
    puzzles: Sequence[str],
    start: int,
    deadline: float,
    stats: Stats,
    args: argparse.Namespace,
    connect_gate: asyncio.Semaphore,
) -> None:
    """One client: send a puzzle, read its answer, repeat until ``deadline``."""
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    index = start
    opened = 0
    max_requests = args.max_requests_per_connection
    try:
        while time.monotonic() < deadline and (not max_requests or index - start < max_requests):
            if writer is not None and reader is not None:
                await asyncio.sleep(0)  # let a pending EOF be seen before reusing the connection
                if reader.at_eof():
                    await close_writer(writer)
                    writer = reader = None
                    stats.reconnects += 1
            if writer is None:
                async with connect_gate:
                    try:
                        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), CONNECT_TIMEOUT)
                    except (OSError, asyncio.TimeoutError) as error:
                        stats.error("connect", repr(error))
                        await asyncio.sleep(0.2)
                        continue
                opened += 1
            puzzle = puzzles[index % len(puzzles)]
            index += 1
            sent = time.perf_counter()
            try:
                writer.write(puzzle.encode() + b"\n")
                if args.per_request:
                    await writer.drain()
                    writer.write_eof()
                await writer.drain()
                line = await asyncio.wait_for(reader.readline(), args.request_timeout)
            except asyncio.TimeoutError:
                stats.error("timeout", f"no answer within {args.request_timeout:g} s")
                await close_writer(writer)
                writer = reader = None
                continue
            except (ConnectionError, OSError) as error:
                stats.error("reset", repr(error))
                await close_writer(writer)
                writer = reader = None
                continue
            received = time.monotonic()
            if not line.endswith(b"\n"):
                stats.error("lost", f"connection closed with {line[:60]!r} of an answer after {opened} connect(s)")
                await close_writer(writer)
                writer = reader = None
                continue
            stats.answers += 1
            stats.latencies.append(time.perf_counter() - sent)
            if received <= deadline:
                stats.in_window += 1
            if line.startswith(b"ERROR "):
                code = line.split(b" ", 2)[1].decode("ascii", "replace")
                stats.error(f"ERROR {code}", line.decode("ascii", "replace").strip())
            else:
                problem = check_answer(puzzle, line)
                if problem:
                    stats.error("wrong", f"{puzzle}: {problem}")
            if args.per_request:
                await close_writer(writer)
                writer = reader = None
    finally:
        await close_writer(writer)


def percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.0f}"


async def run_level(
    host: str,
    port: int,
    groups: list[tuple[str, int, Sequence[str]]],
    seconds: float,
    args: argparse.Namespace,
    pid: int | None,
) -> tuple[dict[str, Stats], dict]:
    """Run each group (name, connections, puzzles) at once for ``seconds``.

    Returns per-group stats and the server's usage before, at peak, after.
    """
    usage = {"before": server_usage(pid)}
    peak = list(usage["before"])
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    started = time.monotonic()
    deadline = started + seconds
    stats = {name: Stats() for name, _, _ in groups}
    tasks = []
    for name, count, puzzles in groups:
        stride = max(1, len(puzzles) // max(1, count))
        for i in range(count):
            tasks.append(
                asyncio.ensure_future(connection(host, port, puzzles, i * stride, deadline, stats[name], args, gate))
            )

    async def sample() -> None:
        while True:
            rss, fds = server_usage(pid)
            if rss is not None:
                peak[0] = max(peak[0] or 0, rss)
                peak[1] = max(peak[1] or 0, fds)
            await asyncio.sleep(0.25)

    sampler = asyncio.ensure_future(sample())
    hard_stop = seconds + args.request_timeout + CONNECT_TIMEOUT + 5
    done, pending = await asyncio.wait(tasks, timeout=hard_stop)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=5)
        for name in stats:
            stats[name].error("client-hang")
    for task in done:
        if task.exception() is not None:
            first = next(iter(stats.values()))
            first.error("client-exception", repr(task.exception()))
    usage["drained_s"] = time.monotonic() - deadline
    # After: wait until the server's descriptors are back where they were
    # (lingering closes take up to 2 s), at most 10 s.
    before_fds = usage["before"][1]
    settle = time.monotonic() + 10
    while pid is not None and time.monotonic() < settle:
        _, fds = server_usage(pid)
        if fds is None or before_fds is None or fds <= before_fds:
            break
        await asyncio.sleep(0.25)
    sampler.cancel()
    usage["peak"] = tuple(peak)
    usage["after"] = server_usage(pid)
    return stats, usage


def usage_cells(usage: dict) -> tuple[str, str]:
    def fmt(index: int, scale: float, unit: str) -> str:
        values = [usage[k][index] for k in ("before", "peak", "after")]
        if values[0] is None:
            return "-"
        return " / ".join(f"{v / scale:.0f}" for v in values) + unit

    return fmt(0, 1024, " MB"), fmt(1, 1, "")


def error_cell(stats: Stats) -> str:
    total = sum(stats.errors.values())
    if not total:
        return "0"
    return f"{total} (" + ", ".join(f"{k} {v}" for k, v in sorted(stats.errors.items())) + ")"


# -- in-process baseline ---------------------------------------------------------


def inprocess_rate(puzzles: Sequence[str], seconds: float) -> tuple[float, int]:
    """Puzzles per second of ``sudoku_server.solve`` in this thread, over ``puzzles`` in order."""
    from sudoku_server import Grid, solve

    count = 0
    started = time.perf_counter()
    deadline = started + seconds
    for puzzle in puzzles:
        solve(Grid.from_string(puzzle))
        count += 1
        if time.perf_counter() >= deadline:
            break
    return count / (time.perf_counter() - started), count


# -- main ------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__
    )
    p.add_argument(
        "--levels",
        type=int,
        nargs="*",
        default=DEFAULT_LEVELS,
        metavar="N",
        help="connection counts to run, one level each (default: %(default)s)",
    )
    p.add_argument("--seconds", type=float, default=10.0, help="duration of each level (default: %(default)s)")
    p.add_argument(
        "--dataset",
        type=Path,
        default=None,
        help=f"one-line puzzles (default: {DEFAULT_DATASET}, else {FALLBACK_DATASET})",
    )
    p.add_argument("--connect", metavar="HOST:PORT", help="use a running server instead of starting one")
    p.add_argument("--server-pid", type=int, help="with --connect: the server's pid, for RSS and descriptors")
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument for the started server (repeat), e.g. --server-arg=--solver-threads=4",
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=30.0,
        help="client-side wait for one answer before counting a timeout (default: %(default)s)",
    )
    p.add_argument(
        "--per-request",
        action="store_true",
        help="open a new connection per puzzle (send, half-close, read) instead of one long one",
    )
    p.add_argument("--max-requests-per-connection", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument(
        "--inprocess", action="store_true", help="time sudoku_server.solve in this process first and show the ratio"
    )
    p.add_argument(
        "--mixed",
        action="store_true",
        help="16 connections send the hardest set while 1 sends easy puzzles (instead of --levels)",
    )
    p.add_argument("--hard", type=Path, default=DEFAULT_HARD, help="--mixed: hard puzzles (default: %(default)s)")
    p.add_argument("--easy", type=Path, default=DEFAULT_EASY, help="--mixed: easy puzzles (default: %(default)s)")
    p.add_argument("--hard-connections", type=int, default=16, help="--mixed: hard connections (default: 16)")
    p.add_argument("--seed", type=int, default=1, help="shuffle seed for the dataset order (default: 1)")
    corecheck.add_flag(p)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.mixed:
        hard = load_puzzles(args.hard)
        easy = load_puzzles(args.easy)
        most = args.hard_connections + 1
    else:
        dataset = args.dataset or (DEFAULT_DATASET if DEFAULT_DATASET.exists() else FALLBACK_DATASET)
        puzzles = load_puzzles(dataset)
        random.Random(args.seed).shuffle(puzzles)
        most = max(args.levels, default=1)
    nofile = raise_nofile(most + 256)
    if nofile < most + 16:
        print(f"warning: RLIMIT_NOFILE is {nofile}, below the {most} connections asked", file=sys.stderr)

    server = None
    if args.connect:
        host, _, port_text = args.connect.rpartition(":")
        host, port, pid = host.strip("[]"), int(port_text), args.server_pid
    else:
        server = ServerProcess(most + 64, most + 256, args.server_arg)
        host, port, pid = server.host, server.port, server.pid
        print(f"server: {' '.join(server.argv[1:])} (pid {pid}, port {port}, log {server.log.name})")
    try:
        corecheck.require_native(
            corecheck.server_core(host, port), args.allow_python_core, f"the server at port {port}"
        )
        if args.mixed:
            return run_mixed(host, port, pid, hard, easy, args)
        return run_levels(host, port, pid, dataset, puzzles, args)
    finally:
        if server is not None:
            server.stop()
            print(server.log_summary())


def run_levels(
    host: str, port: int, pid: int | None, dataset: Path, puzzles: list[str], args: argparse.Namespace
) -> int:
    rate = None
    if args.inprocess:
        # Timed with the server idle, over the same (shuffled) puzzles; timed
        # again after the levels, since other load on the machine moves it.
        rate, count = inprocess_rate(puzzles, max(args.seconds, 5.0))
        print(f"in-process: sudoku_server.solve, one thread, {dataset.name}: {rate:.1f} puzzles/s ({count} puzzles)")
    mode = "new connection per puzzle" if args.per_request else "one long connection each"
    print(
        f"\ndataset {dataset.name} ({len(puzzles)} puzzles, shuffled, seed {args.seed}); {args.seconds:g} s"
        f" per level; {mode}; one request outstanding per connection\n"
    )
    header = (
        "| connections | answers | answers/s | p50 ms | p99 ms | errors | reconnects |"
        " server RSS before/peak/after | server fds before/peak/after |"
    )
    rule = "|---:|---:|---:|---:|---:|---|---:|---|---|"
    if rate:
        header += " vs in-process |"
        rule += "---:|"
    rows = []
    samples = []
    failed = False
    for level in args.levels:
        print(f"level {level}: running ...", file=sys.stderr, flush=True)
        stats, usage = asyncio.run(run_level(host, port, [("all", level, puzzles)], args.seconds, args, pid))
        s = stats["all"]
        per_s = s.in_window / args.seconds
        rss, fds = usage_cells(usage)
        row = (
            f"| {level} | {s.answers} | {per_s:.1f} | {ms(percentile(s.latencies, 50))} |"
            f" {ms(percentile(s.latencies, 99))} | {error_cell(s)} | {s.reconnects} | {rss} | {fds} |"
        )
        if rate:
            row += f" {per_s / rate:.0%} |"
        rows.append(row)
        print(row, file=sys.stderr, flush=True)
        samples += [f"level {level}: {x}" for x in s.samples]
        failed |= bool(s.errors)
        if server_usage(pid) == (None, None) and pid is not None:
            print("the server is gone", file=sys.stderr)
            break
    if args.inprocess:
        again, count = inprocess_rate(puzzles, max(args.seconds, 5.0))
        print(
            f"in-process again after the levels: {again:.1f} puzzles/s ({count} puzzles);"
            f" the ratio column uses the first, {rate:.1f}/s"
        )
    print(header)
    print(rule)
    for row in rows:
        print(row)
    if samples:
        print("\nerror samples:")
        for line in samples[:20]:
            print(f"  {line}")
    return 1 if failed else 0


def run_mixed(host: str, port: int, pid: int | None, hard: list[str], easy: list[str], args: argparse.Namespace) -> int:
    n = args.hard_connections
    print(
        f"\nmixed: {n} connections send {args.hard.name} ({len(hard)} puzzles) while 1 sends"
        f" {args.easy.name} ({len(easy)} puzzles); {args.seconds:g} s\n"
    )
    stats, usage = asyncio.run(run_level(host, port, [("hard", n, hard), ("easy", 1, easy)], args.seconds, args, pid))
    rss, fds = usage_cells(usage)
    print("| group | connections | answers | answers/s | p50 ms | p90 ms | p99 ms | max ms | errors | reconnects |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for name, count in (("hard", n), ("easy", 1)):
        s = stats[name]
        print(
            f"| {name} | {count} | {s.answers} | {s.in_window / args.seconds:.1f} |"
            f" {ms(percentile(s.latencies, 50))} | {ms(percentile(s.latencies, 90))} |"
            f" {ms(percentile(s.latencies, 99))} | {ms(max(s.latencies, default=None))} |"
            f" {error_cell(s)} | {s.reconnects} |"
        )
    p99 = percentile(stats["easy"].latencies, 99)
    verdict = "met" if p99 is not None and p99 < 0.1 else "NOT met"
    print(f"\nserver RSS before/peak/after: {rss}; fds before/peak/after: {fds}")
    print(f"goal easy p99 < 100 ms: {verdict} (p99 {ms(p99)} ms over {len(stats['easy'].latencies)} answers)")
    samples = stats["hard"].samples + stats["easy"].samples
    if samples:
        print("\nerror samples:")
        for line in samples[:20]:
            print(f"  {line}")
    return 0 if verdict == "met" else 1


if __name__ == "__main__":
    sys.exit(main())
