"""--workers 2 against --workers 1: answers/s over 64 connections, run alternately, pairwise ratios.

Usage (from the repository root)::

    python3 benchmarks/bench_workers.py                   # 5 pairs of 8 s, 64 connections, then 1000 with --workers 2
    python3 benchmarks/bench_workers.py --pairs 7 --seconds 10
    python3 benchmarks/bench_workers.py --pairs 0 --high 1000 --high-seconds 10   # the 1000-connection level only

Each run starts a fresh server (``python3 -m sudoku_server --host 127.0.0.1
--port 0 --workers N``, its log in a temporary file, kept and named when the
run had an error or the log a warning) and a separate load generator process
(this script with ``--generate``): each connection sends the next top1465
puzzle as soon as the previous answer arrives, and every answer is checked
(``benchmarks/load.py``'s ``check_answer``). The generator (one asyncio
process, its own protocol class, so that it stays cheap) runs ``--warmup``
seconds first, then counts the answers that complete within ``--seconds``.
Runs alternate 1, 2, 1, 2, ... so that drift on the shared machine hits both
alike; the figure is the median of the pairwise ratios (run 2k+1 / run 2k).
Printed per run: answers/s, p50/p99 ms, errors, requests sent again ("resent":
the server ended the session by its close grace before the request arrived,
and logged the bytes as not read; the count must equal those log lines, else
the difference is "lost"), the CPU the server took (supervisor, workers and
any other child, sampled from /proc every 0.1 s) and the generator took (its
own process time), both in cores over the measured window, and the 1-minute
load average before the run; "answers per server CPU s" (answers/s divided by
the server's cores) does not depend on how much CPU the shared machine left
the server; "generator max lag" is how late the generator's own event loop ran
(a late client looks like a slow server). Every run names the solver core from
the server's startup log (the same for all).

Exit status 1 if any run had an error (an ``ERROR`` line, a wrong answer, a
reset, a timeout, a lost request or a failed connect), else 0.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import load as _load  # noqa: E402  (benchmarks/load.py)

DEFAULT_DATASET = _load.DEFAULT_DATASET
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- the generator process ---------------------------------------------------------

#: Seconds one answer may take before it counts as an error ("timeout").
REQUEST_TIMEOUT = 30.0
#: Connects in flight at once (as load.py).
CONNECT_CONCURRENCY = 200


class _Counts:
    def __init__(self) -> None:
        self.answers = 0  # every answer, warm-up included
        self.measured = 0  # answers completed inside the measured window
        self.latencies: list[float] = []  # of those, seconds from send to the whole answer line
        self.errors: dict[str, int] = {}
        self.samples: list[str] = []
        self.reconnects = 0
        self.resent = 0  # requests the server never read (session ended first), sent again
        self.max_lag = 0.0  # seconds: the longest the generator's event loop was late
        self.marks: dict[str, tuple] = {}  # "start"/"end" of the window: (monotonic, process CPU seconds)

    def error(self, kind: str, sample: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if len(self.samples) < 5:
            self.samples.append(f"{kind}: {sample}")


class _Client(asyncio.Protocol):
    """One connection: one puzzle outstanding; the next goes out as soon as the answer line is in."""

    def __init__(self, puzzles: list[str], index: int, window: tuple, counts: _Counts) -> None:
        self.puzzles, self.index, self.window, self.counts = puzzles, index, window, counts
        self.buffer = b""
        self.puzzle = ""
        self.sent_at: float | None = None
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport
        self._send()

    def _send(self) -> None:
        if time.monotonic() >= self.window[1]:
            self.transport.close()
            return
        self.puzzle = self.puzzles[self.index % len(self.puzzles)]
        self.index += 1
        self.sent_at = time.monotonic()
        self.transport.write(self.puzzle.encode() + b"\n")

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (end := self.buffer.find(b"\n")) >= 0:
            line, self.buffer = self.buffer[: end + 1], self.buffer[end + 1 :]
            now = time.monotonic()
            self.counts.answers += 1
            if line.startswith(b"ERROR "):
                self.counts.error(
                    "ERROR " + line.split(b" ", 2)[1].decode("ascii", "replace"),
                    line.decode("ascii", "replace").strip(),
                )
            else:
                problem = _load.check_answer(self.puzzle, line)
                if problem:
                    self.counts.error("wrong", f"{self.puzzle}: {problem}")
            if self.window[0] <= now < self.window[1]:
                self.counts.measured += 1
                self.counts.latencies.append(now - self.sent_at)
            self.sent_at = None
            self._send()

    def connection_lost(self, exc) -> None:
        if self.sent_at is not None:
            if exc is None and not self.buffer:
                # The server ended the session cleanly without reading this
                # request (its close grace ran out before the request came:
                # the server logs "sent N byte(s) after its session ended: not
                # read"). Every request the server reads gets a reply
                # (PROTOCOL.md), so sending it again is safe: the next
                # connection starts with it. run() checks the count against
                # the server's log.
                self.counts.resent += 1
                self.index -= 1
            else:
                self.counts.error("reset" if exc else "lost", repr(exc) if exc else "closed inside an answer")
        if not self.closed.done():
            self.closed.set_result(None)


async def _generate(
    host: str, port: int, connections: int, seconds: float, warmup: float, puzzles: list[str]
) -> _Counts:
    loop = asyncio.get_running_loop()
    counts = _Counts()
    start = time.monotonic() + warmup
    window = (start, start + seconds)
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    stride = max(1, len(puzzles) // connections)
    clients: list[_Client] = []

    async def one(index: int) -> None:
        while time.monotonic() < window[1]:
            async with gate:
                try:
                    _, client = await asyncio.wait_for(
                        loop.create_connection(lambda: _Client(puzzles, index, window, counts), host, port), 10
                    )
                except (OSError, asyncio.TimeoutError) as error:
                    counts.error("connect", repr(error))
                    await asyncio.sleep(0.2)
                    continue
            clients.append(client)
            await client.closed
            index = client.index
            if time.monotonic() < window[1]:
                counts.reconnects += 1  # the server ended the session (it never should here)

    async def watchdog() -> None:
        while True:
            await asyncio.sleep(1)
            now = time.monotonic()
            for client in clients:
                if client.sent_at is not None and now - client.sent_at > REQUEST_TIMEOUT:
                    counts.error("timeout", f"no answer within {REQUEST_TIMEOUT:g} s")
                    client.sent_at = None
                    client.transport.abort()

    def mark(which: str) -> None:
        counts.marks[which] = (time.monotonic(), time.process_time())

    loop.call_later(max(0.0, window[0] - time.monotonic()), mark, "start")
    loop.call_later(max(0.0, window[1] - time.monotonic()), mark, "end")

    async def lag() -> None:
        """The generator's own event-loop delay: a late client looks like a slow server."""
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.01)
            counts.max_lag = max(counts.max_lag, time.monotonic() - before - 0.01)

    dog = asyncio.ensure_future(watchdog())
    lagger = asyncio.ensure_future(lag())
    await asyncio.wait(
        [asyncio.ensure_future(one(i * stride)) for i in range(connections)],
        timeout=warmup + seconds + REQUEST_TIMEOUT + 15,
    )
    dog.cancel()
    lagger.cancel()
    return counts


def generate(host: str, port: int, connections: int, seconds: float, warmup: float, dataset: Path, seed: int) -> dict:
    """The load of one run (one process, asyncio); the figures of its measured window, and its own CPU."""
    import random

    puzzles = _load.load_puzzles(dataset)
    random.Random(seed).shuffle(puzzles)
    _load.raise_nofile(connections + 256)
    counts = asyncio.run(_generate(host, port, connections, seconds, warmup, puzzles))
    (start, cpu_start), (end, cpu_end) = counts.marks["start"], counts.marks["end"]
    return {
        "answers": counts.answers,
        "measured": counts.measured,
        "per_s": counts.measured / seconds,
        "p50_ms": _ms(_load.percentile(counts.latencies, 50)),
        "p99_ms": _ms(_load.percentile(counts.latencies, 99)),
        "errors": counts.errors,
        "samples": counts.samples,
        "reconnects": counts.reconnects,
        "resent": counts.resent,
        "generator_max_lag_ms": round(counts.max_lag * 1000, 1),
        # The measured window, in CLOCK_MONOTONIC (the same clock in every process).
        "window": [start, end],
        "generator_cores": (cpu_end - cpu_start) / (end - start),
    }


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


# -- the server --------------------------------------------------------------------


class Server:
    """``python3 -m sudoku_server --host 127.0.0.1 --port 0 --workers N``, ready once every worker accepts."""

    def __init__(self, workers: int, nofile: int, extra: list[str]) -> None:
        self.log = tempfile.NamedTemporaryFile(prefix=f"bench-workers-{workers}-", suffix=".log", delete=False)  # noqa: SIM115 (kept open for the server)
        self.argv = [
            sys.executable,
            "-m",
            "sudoku_server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--workers",
            str(workers),
            *extra,
        ]

        def limits() -> None:
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            if soft < nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (min(nofile, hard), hard))

        self.proc = subprocess.Popen(
            self.argv,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            preexec_fn=limits,
            start_new_session=True,
        )
        ready = r"worker \d+ ready" if workers > 1 else r"solver thread\(s\)"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = Path(self.log.name).read_text(errors="replace")
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", text)
            if match and len(re.findall(ready, text)) >= (workers if workers > 1 else 1):
                self.port = int(match.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise SystemExit("server did not start:\n" + Path(self.log.name).read_text(errors="replace"))

    def cpu_seconds(self) -> float:
        """User + system CPU of the server process and its children (alive ones, and reaped ones' totals)."""
        total = 0.0
        todo = [self.proc.pid]
        while todo:
            pid = todo.pop()
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                # utime stime cutime cstime: fields 14-17 (1-based) of /proc/PID/stat
                total += sum(int(x) for x in fields[11:15]) / CLOCK_TICKS
                for task in Path(f"/proc/{pid}/task").iterdir():
                    todo += [int(c) for c in (task / "children").read_text().split()]
            except (OSError, IndexError, ValueError):
                continue
        return total

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()

    def unread(self) -> int:
        """Sessions the server ended with bytes it did not read (the close grace had run out)."""
        return len(re.findall(r"after its session ended: not read", Path(self.log.name).read_text(errors="replace")))

    def core(self) -> str:
        """The solver core the server named in its startup log (``core=python``)."""
        match = re.search(r"core=(\w+)", Path(self.log.name).read_text(errors="replace"))
        return match.group(1) if match else "?"

    def notable(self) -> str:
        text = Path(self.log.name).read_text(errors="replace")
        bad = [line for line in text.splitlines() if " WARNING " in line or " ERROR " in line or "Traceback" in line]
        return f"{len(bad)} warning/error line(s) in {self.log.name}" + (f", first: {bad[0]}" if bad else "")


# -- one run -----------------------------------------------------------------------


def run(workers: int, connections: int, args: argparse.Namespace) -> dict:
    load1 = os.getloadavg()[0]
    server = Server(workers, connections + 512, args.server_arg)
    seconds = args.seconds if connections == args.connections else args.high_seconds
    samples = []  # (monotonic, the server's CPU seconds), every 0.1 s
    try:
        with tempfile.TemporaryFile() as out:
            generator = subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--generate",
                    "127.0.0.1",
                    str(server.port),
                    str(connections),
                    str(seconds),
                    str(args.warmup),
                    str(args.dataset),
                    str(args.seed),
                ],
                cwd=REPO,
                stdout=out,
                stdin=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + seconds + args.warmup + REQUEST_TIMEOUT + 60
            while generator.poll() is None and time.monotonic() < deadline:
                samples.append((time.monotonic(), server.cpu_seconds()))
                time.sleep(0.1)
            if generator.poll() is None:
                generator.kill()
            if generator.wait() != 0:
                raise SystemExit(f"the generator failed (exit status {generator.returncode})")
            out.seek(0)
            result = json.loads(out.read())
    finally:
        server.stop()
    start, end = result["window"]

    def cpu_at(moment: float) -> float:
        return min(samples, key=lambda sample: abs(sample[0] - moment))[1]

    if result["resent"] != server.unread():
        # A request that went unanswered without the server saying it did not read it is lost.
        result["errors"]["lost"] = result["errors"].get("lost", 0) + abs(result["resent"] - server.unread())
    result.update(
        workers=workers,
        connections=connections,
        load1=load1,
        server_cores=(cpu_at(end) - cpu_at(start)) / (end - start),
        core=server.core(),
        server_exit=server.proc.returncode,
        server_log=server.notable(),
    )
    if not result["errors"] and result["server_exit"] == 0 and result["server_log"].startswith("0 "):
        os.unlink(server.log.name)  # nothing to look at: keep only the logs of runs that went wrong
    return result


def row(result: dict) -> str:
    errors = sum(result["errors"].values())
    error_cell = (
        "0" if not errors else f"{errors} ({', '.join(f'{k} {v}' for k, v in sorted(result['errors'].items()))})"
    )
    per_core = result["per_s"] / result["server_cores"] if result["server_cores"] else 0.0
    return (
        f"| {result['workers']} | {result['connections']} | {result['measured']} | {result['per_s']:.1f} |"
        f" {result['p50_ms']:.0f} | {result['p99_ms']:.0f} | {error_cell} | {result['resent']} |"
        f" {result['server_cores']:.2f} | {per_core:.0f} | {result['generator_cores']:.2f} |"
        f" {result['generator_max_lag_ms']:.0f} | {result['load1']:.2f} |"
    )


HEADER = (
    "| workers | connections | answers | answers/s | p50 ms | p99 ms | errors | resent |"
    " server CPU (cores) | answers per server CPU s | generator CPU (cores) | generator max lag ms |"
    " load avg before |\n|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__
    )
    p.add_argument("--pairs", type=int, default=5, help="pairs of runs (--workers 1, then 2) (default: %(default)s)")
    p.add_argument("--seconds", type=float, default=8.0, help="measured seconds per run (default: %(default)s)")
    p.add_argument(
        "--warmup", type=float, default=1.0, help="seconds of load before the measured window (default: %(default)s)"
    )
    p.add_argument("--connections", type=int, default=64, help="connections of the pairs (default: %(default)s)")
    p.add_argument(
        "--high",
        type=int,
        default=1000,
        help="then one run with this many connections and --workers 2; 0: none (default: %(default)s)",
    )
    p.add_argument(
        "--high-seconds", type=float, default=8.0, help="measured seconds of that run (default: %(default)s)"
    )
    p.add_argument("--dataset", type=Path, default=DEFAULT_DATASET, help="one-line puzzles (default: top1465)")
    p.add_argument("--seed", type=int, default=1, help="shuffle seed of the dataset order (default: %(default)s)")
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra server argument (repeat), the same for every run",
    )
    p.add_argument("--json", type=Path, help="also write every run's figures to this file")
    p.add_argument(
        "--generate",
        nargs=7,
        metavar=("HOST", "PORT", "CONNECTIONS", "SECONDS", "WARMUP", "DATASET", "SEED"),
        help=argparse.SUPPRESS,
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.generate:
        host, port, connections, seconds, warmup, dataset, seed = args.generate
        print(
            json.dumps(
                generate(host, int(port), int(connections), float(seconds), float(warmup), Path(dataset), int(seed))
            )
        )
        return 0
    print(
        f"dataset {args.dataset.name}; {args.connections} connections, {args.pairs} pairs of"
        f" {args.warmup:g} s warm-up + {args.seconds:g} s; CPUs {os.cpu_count()}; server args"
        f" {' '.join(args.server_arg) or '(defaults)'}",
        flush=True,
    )
    print(HEADER, flush=True)
    results: list[dict] = []
    ratios: list[float] = []
    for _ in range(args.pairs):
        pair = [run(workers, args.connections, args) for workers in (1, 2)]
        for result in pair:
            print(row(result), flush=True)
        results += pair
        ratios.append(pair[1]["per_s"] / pair[0]["per_s"])
    if args.high:
        result = run(2, args.high, args)
        print(row(result), flush=True)
        results.append(result)
    failed = False
    for result in results:
        if result["errors"] or result["server_exit"] != 0:
            failed = True
            print(
                f"run with --workers {result['workers']}, {result['connections']} connections: errors"
                f" {result['errors']}, server exit {result['server_exit']}; {result['samples'][:3]};"
                f" the generator's event loop was up to {result['generator_max_lag_ms']:.0f} ms late"
            )
    cores = {r["core"] for r in results}
    print(f"\nsolver core of every run: {', '.join(sorted(cores))}")
    if ratios:
        ones = [r["per_s"] for r in results if r["workers"] == 1 and r["connections"] == args.connections]
        twos = [r["per_s"] for r in results if r["workers"] == 2 and r["connections"] == args.connections]
        gen = [r["generator_cores"] for r in results if r["connections"] == args.connections]
        print(f"pairwise ratios (workers 2 / workers 1): {', '.join(f'{x:.2f}' for x in ratios)}")
        print(
            f"median ratio {statistics.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f});"
            f" median answers/s: workers 1 {statistics.median(ones):.1f}, workers 2 {statistics.median(twos):.1f};"
            f" generator CPU {min(gen):.2f}-{max(gen):.2f} cores"
        )
    for result in results:
        if not result["server_log"].startswith("0 "):
            print(f"--workers {result['workers']}, {result['connections']} connections: {result['server_log']}")
    if args.json:
        args.json.write_text(json.dumps({"ratios": ratios, "runs": results}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
