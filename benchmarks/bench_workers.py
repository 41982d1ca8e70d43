"""--workers 2 against --workers 1 (or --solver-threads 2 against 1): answers/s under a C load generator, in pairs.

Usage (from the repository root, the package installed or on PYTHONPATH)::

    python3 benchmarks/bench_workers.py                        # 5 pairs of 8 s, 16 connections pipelining top1465
    python3 benchmarks/bench_workers.py --pairs 9 --seconds 5
    python3 benchmarks/bench_workers.py --compare solver-threads   # one process: --solver-threads 1, then 2
    python3 benchmarks/bench_workers.py --tree BEFORE --tree AFTER # two checkouts, interleaved in each pair
    python3 benchmarks/bench_workers.py --pairs 0 --high 1000 --high-seconds 8   # 1000 connections, --workers 2

The server is the INSTALLED package: ``python3 -m sudoku_server --host
127.0.0.1 --port 0 --workers N`` started from the benchmarks folder (which
holds no package: ``benchmarks/corecheck.py``), so that the checkout's folder
is not what it imports (on a fresh clone that would be the
pure-Python core). ``--tree DIR`` runs a checkout instead (``PYTHONPATH=DIR``,
its native core built in place), to set two trees side by side. Each server is
asked ``STATS`` for its ``core``; a run on the pure-Python core is refused
(exit status 2) unless ``--allow-python-core`` is given.

The load is ``benchmarks/loadgen.c``, compiled here with ``cc -O2`` into a
temporary folder: one thread, epoll, ``--connections`` connections each
keeping ``--window`` one-line puzzles in flight (``--mode pipe``; ``--mode
rr``: one at a time), every answer checked; it takes a few hundredths of a
core, so it hides nothing on a 2-core machine. It runs ``--warmup`` seconds,
then counts the answers of ``--seconds``.

Runs alternate 1, 2, 1, 2, ... (and tree by tree inside a pair) so that drift
on a shared machine hits both alike; the figure is the median of the pairwise
ratios (answers/s of the second ÷ the first). Printed per run: answers/s,
p50/p99 ms, errors, the server's CPU (supervisor, workers and any other child,
sampled from /proc every 0.05 s) in cores over the measured window, and of
it the event loops' (each process's main thread: the rest is the solver
threads, whose native solve runs beside the loop without the interpreter
lock), the
server's CPU per answer in µs (less sensitive than answers/s to the CPU the
other users of the machine leave: compare it between the two settings), the
load generator's own CPU, the 1-minute load average before the run, the
solver core, and how 16 probe connections opened together spread over the
workers (one ``STATS`` each: the ``pid`` that answered).

Exit status: 0; 1 if any run had an error (an ``ERROR`` line, a wrong answer,
a closed connection, no answer, a server that did not stop cleanly); 2 when
refused (pure-Python core) or when the load generator cannot be built.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import corecheck  # benchmarks/corecheck.py, beside this script (standard library only)
import datasets as _datasets  # benchmarks/datasets.py (standard library only)

HERE = Path(__file__).resolve().parent

DEFAULT_DATASET = _datasets.DATASETS_DIR / "magictour_top1465.txt.gz"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
#: Probe connections opened together to see how they spread over the workers.
PROBE_CONNECTIONS = 16


def build_loadgen(folder: Path) -> Path:
    """Compile benchmarks/loadgen.c into ``folder``; returns the binary. SystemExit(2) without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        print("no C compiler (cc or gcc): cannot build benchmarks/loadgen.c", file=sys.stderr)
        raise SystemExit(2)
    binary = folder / "loadgen"
    subprocess.run([compiler, "-O2", "-Wall", "-Wextra", "-o", str(binary), str(HERE / "loadgen.c")], check=True)
    return binary


class Server:
    """``python3 -m sudoku_server --host 127.0.0.1 --port 0 ARGS`` from a neutral folder; ready once it accepts.

    Args:
      args: the server's arguments after the address.
      ready: the log line to wait for, and how many times.
      tree: a checkout to run (``PYTHONPATH=tree``); None: the installed package.
      folder: the working folder (``corecheck.NEUTRAL_CWD``: ``-m`` imports from it, so not the checkout).
    """

    def __init__(self, args: list[str], ready: tuple[str, int], tree: Path | None, folder: Path) -> None:
        self.log = tempfile.NamedTemporaryFile(prefix="bench-workers-", suffix=".log", delete=False)  # noqa: SIM115 (kept open for the server)
        env = dict(os.environ)
        if tree is not None:
            env["PYTHONPATH"] = str(tree.resolve())
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", *args],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            start_new_session=True,
        )
        pattern, count = ready
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = self.text()
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", text)
            if match and len(re.findall(pattern, text)) >= count:
                self.port = int(match.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise SystemExit("server did not start:\n" + self.text())

    def text(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def stats(self, text: str) -> dict[str, str]:
        return dict(line.split(" ", 2)[1:] for line in text.splitlines() if line.startswith("STAT "))

    def spread(self) -> list[int]:
        """Connections per worker pid, most first, for :data:`PROBE_CONNECTIONS` opened together."""
        socks = [socket.create_connection(("127.0.0.1", self.port), timeout=10) for _ in range(PROBE_CONNECTIONS)]
        pids = []
        try:
            for sock in socks:
                sock.sendall(b"STATS\n")
                data = b""
                while b"END" not in data:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                pids.append(self.stats(data.decode("ascii", "replace")).get("pid", "?"))
        finally:
            for sock in socks:
                sock.close()
        return sorted(collections.Counter(pids).values(), reverse=True)

    def cpu_seconds(self) -> tuple[float, float]:
        """CPU seconds (user + system) of the server process and its children (alive ones, and reaped
        ones' totals), and of their main threads alone (each process's event loop)."""
        total = loops = 0.0
        todo = [self.proc.pid]
        while todo:
            pid = todo.pop()
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                # utime stime cutime cstime: fields 14-17 (1-based) of /proc/PID/stat
                total += sum(int(x) for x in fields[11:15]) / CLOCK_TICKS
                main = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                loops += sum(int(x) for x in main[11:13]) / CLOCK_TICKS
                for task in Path(f"/proc/{pid}/task").iterdir():
                    todo += [int(c) for c in (task / "children").read_text().split()]
            except (OSError, IndexError, ValueError):
                continue
        return total, loops

    def stop(self) -> int:
        """SIGTERM, wait (SIGKILL after 20 s); returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()
        return self.proc.returncode


def setting(args: argparse.Namespace, level: int) -> tuple[list[str], tuple[str, int]]:
    """The server arguments of one side of a pair, and the log line that says it is ready."""
    if args.compare == "workers":
        return ["--workers", str(level), *args.server_arg], (r"worker \d+ ready", level)
    return ["--solver-threads", str(level), *args.server_arg], (r"solver thread\(s\)", 1)


def run(
    level: int,
    tree: Path | None,
    args: argparse.Namespace,
    loadgen: Path,
    puzzles: Path,
    connections: int | None = None,
    seconds: float | None = None,
) -> dict:
    """One run: a fresh server, the load (``--connections``, ``--seconds`` unless given), the measured figures."""
    connections = connections or args.connections
    seconds = seconds or args.seconds
    load1 = os.getloadavg()[0]
    server_args, ready = setting(args, level)
    server = Server(server_args, ready, tree, corecheck.NEUTRAL_CWD)
    samples: list[tuple[float, tuple[float, float]]] = []  # (monotonic, the server's CPU seconds: all, loops)
    try:
        core = corecheck.server_core("127.0.0.1", server.port)
        if core != "native" and not args.allow_python_core:
            corecheck.require_native(core, False, f"the server of {tree or 'the installed package'}")
        spread = server.spread() if args.compare == "workers" and level > 1 else []
        argv = [str(loadgen), "--port", str(server.port), "--file", str(puzzles), "--json"]
        argv += ["--connections", str(connections), "--mode", args.mode, "--window", str(args.window)]
        argv += ["--seconds", str(seconds), "--warmup", str(args.warmup)]
        with tempfile.TemporaryFile() as out:
            generator = subprocess.Popen(argv, stdout=out, stdin=subprocess.DEVNULL)
            deadline = time.monotonic() + seconds + args.warmup + 60
            while generator.poll() is None and time.monotonic() < deadline:
                samples.append((time.monotonic(), server.cpu_seconds()))
                time.sleep(0.05)
            samples.append((time.monotonic(), server.cpu_seconds()))
            if generator.poll() is None:
                generator.kill()
            generator.wait()
            out.seek(0)
            result = json.loads(out.read() or b"{}")
    finally:
        status = server.stop()
    if not result:
        raise SystemExit(f"the load generator printed nothing (exit status {generator.returncode})")
    start, end = result["window_start"], result["window_end"]

    def cpu_at(moment: float) -> tuple[float, float]:
        return min(samples, key=lambda sample: abs(sample[0] - moment))[1]

    cpu = cpu_at(end)[0] - cpu_at(start)[0]
    loops = cpu_at(end)[1] - cpu_at(start)[1]
    bad = [line for line in server.text().splitlines() if " WARNING " in line or " ERROR " in line]
    if status == 0 and not bad and not (result["errors"] or result["wrong"] or result["closed"]):
        os.unlink(server.log.name)  # nothing to look at: keep only the logs of runs that went wrong
    result.update(
        level=level,
        connections=connections,
        tree=Path(os.path.abspath(tree)).name if tree else "installed",  # its folder name: BEFORE, AFTER
        core=core,
        load1=load1,
        server_cores=cpu / (end - start),
        loop_cores=loops / (end - start),
        us_per_answer=cpu / result["answers"] * 1e6 if result["answers"] else 0.0,
        spread=spread,
        server_exit=status,
        server_log=f"{len(bad)} warning/error line(s) in {server.log.name}" if bad else "",
    )
    return result


def row(result: dict, label: str, connections: int) -> str:
    more = f" ({result['connections']} connections)" if result["connections"] != connections else ""
    spread = "/".join(str(n) for n in result["spread"]) or "-"
    errors = result["errors"] + result["wrong"] + result["closed"]
    return (
        f"| {result['tree']} | {label} {result['level']}{more} | {result['answers']} | {result['per_s']:.0f} |"
        f" {result['p50_ms']:.1f} | {result['p99_ms']:.1f} | {errors} | {result['server_cores']:.2f} |"
        f" {result['loop_cores']:.2f} |"
        f" {result['us_per_answer']:.1f} | {result['cpu_cores']:.3f} | {result['load1']:.2f} |"
        f" {result['core']} | {spread} |"
    )


HEADER = (
    "| tree | setting | answers | answers/s | p50 ms | p99 ms | errors | server CPU (cores) |"
    " of which event loops | server CPU µs per answer | loadgen CPU (cores) | load avg before | core | spread |\n"
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__
    )
    p.add_argument("--pairs", type=int, default=5, help="pairs of runs (1, then 2) (default: %(default)s)")
    p.add_argument("--seconds", type=float, default=8.0, help="measured seconds per run (default: %(default)s)")
    p.add_argument("--warmup", type=float, default=1.0, help="seconds of load before them (default: %(default)s)")
    p.add_argument("--connections", type=int, default=16, help="connections (default: %(default)s)")
    p.add_argument(
        "--high",
        type=int,
        default=0,
        metavar="N",
        help="then one run per tree with N connections and the setting 2; 0: none (default: %(default)s)",
    )
    p.add_argument("--high-seconds", type=float, default=8.0, help="measured seconds of it (default: %(default)s)")
    p.add_argument("--mode", choices=("pipe", "rr"), default="pipe", help="loadgen's mode (default: %(default)s)")
    p.add_argument("--window", type=int, default=16, help="puzzles in flight per connection (default: %(default)s)")
    p.add_argument(
        "--compare",
        choices=("workers", "solver-threads"),
        default="workers",
        help="--workers 1 vs 2 (under the supervisor), or --solver-threads 1 vs 2 (one process) (default: %(default)s)",
    )
    p.add_argument("--dataset", type=Path, default=DEFAULT_DATASET, help="one-line puzzles (default: top1465)")
    p.add_argument(
        "--tree",
        type=Path,
        action="append",
        default=[],
        help="run this checkout (PYTHONPATH=TREE) instead of the installed package; repeat to interleave trees",
    )
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra server argument (repeat), the same for every run",
    )
    corecheck.add_flag(p)
    p.add_argument("--json", type=Path, help="also write every run's figures to this file")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    label = "--workers" if args.compare == "workers" else "--solver-threads"
    trees: list[Path | None] = list(args.tree) or [None]
    with tempfile.TemporaryDirectory(prefix="bench-workers-") as scratch:
        folder = Path(scratch)
        loadgen = build_loadgen(folder)
        dataset = args.dataset if args.dataset.exists() else _datasets.find(args.dataset.name)
        if dataset is None:
            dataset = HERE.parent / "puzzles" / args.dataset.name
        lines = _datasets.one_line_puzzles(dataset)
        puzzles = folder / "puzzles.txt"
        puzzles.write_text("".join(line + "\n" for line in lines))
        print(
            f"dataset {dataset.name} ({len(lines)} puzzles); {args.connections} connections, mode {args.mode}"
            f" (window {args.window if args.mode == 'pipe' else 1}); {args.pairs} pairs of {args.warmup:g} s"
            f" warm-up + {args.seconds:g} s; {label} 1 vs 2; CPUs {os.cpu_count()}; server args"
            f" {' '.join(args.server_arg) or '(defaults)'}",
            flush=True,
        )
        print(HEADER, flush=True)
        results: list[dict] = []
        ratios: dict[str, list[float]] = collections.defaultdict(list)
        for _ in range(args.pairs):
            for tree in trees:
                pair = [run(level, tree, args, loadgen, puzzles) for level in (1, 2)]
                for result in pair:
                    print(row(result, label, args.connections), flush=True)
                results += pair
                if pair[0]["per_s"]:
                    ratios[pair[0]["tree"]].append(pair[1]["per_s"] / pair[0]["per_s"])
        for tree in trees if args.high else []:
            result = run(2, tree, args, loadgen, puzzles, args.high, args.high_seconds)
            print(row(result, label, args.connections), flush=True)
            results.append(result)
    failed = False
    for result in results:
        if result["errors"] or result["wrong"] or result["closed"] or not result["answers"] or result["server_exit"]:
            failed = True
            print(
                f"{result['tree']} {label} {result['level']}: errors {result['errors']}, wrong {result['wrong']},"
                f" closed {result['closed']}, server exit {result['server_exit']}; first: {result['first_problem']}"
            )
        if result["server_log"]:
            print(f"{result['tree']} {label} {result['level']}: {result['server_log']}")
    print(f"\nsolver core of every run: {', '.join(sorted({r['core'] for r in results}))}")
    loads = [r["load1"] for r in results]
    if loads:
        print(
            f"load average (1 min) before the runs: {min(loads):.2f}-{max(loads):.2f}, median {statistics.median(loads):.2f}"
        )
    for tree, values in ratios.items():
        mine = [r for r in results if r["tree"] == tree and r["connections"] == args.connections]

        def median(key: str, level: int, rows: list[dict] = mine) -> float:
            return statistics.median(r[key] for r in rows if r["level"] == level)

        print(
            f"{tree}: pairwise ratios ({label} 2 / 1): {', '.join(f'{x:.2f}' for x in values)}\n"
            f"{tree}: median ratio {statistics.median(values):.2f}x (min {min(values):.2f}, max {max(values):.2f});"
            f" median answers/s: 1 {median('per_s', 1):.0f}, 2 {median('per_s', 2):.0f};"
            f" median server CPU µs per answer: 1 {median('us_per_answer', 1):.1f},"
            f" 2 {median('us_per_answer', 2):.1f}; median server cores: 1 {median('server_cores', 1):.2f},"
            f" 2 {median('server_cores', 2):.2f}, of which event loops: 1 {median('loop_cores', 1):.2f},"
            f" 2 {median('loop_cores', 2):.2f}; loadgen CPU at most {max(r['cpu_cores'] for r in mine):.3f} cores"
        )
    if args.json:
        args.json.write_text(json.dumps({"ratios": ratios, "runs": results}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
