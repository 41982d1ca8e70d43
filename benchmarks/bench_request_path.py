"""The request path: server CPU per answer against the raw in-process solve of the same puzzles (issue 18).

    PYTHONPATH=/path/to/tree python3 benchmarks/bench_request_path.py [--loadgen PATH] [--runs 3] [--seconds 3]
        [--modes rr,pipe] [--connections 64] [--window 128] [--port 0] [--server-args "--inline-budget 0"]

Two modes, each against a server of its own (``python3 -m sudoku_server``,
started with the same environment as this script, so ``PYTHONPATH`` picks
the tree measured):

  rr    ``--connections`` connections (64), each sending one top1465
        puzzle (``magictour_top1465.txt``, one-line form) and waiting for
        its answer before it sends the next (request-response);
  pipe  one connection keeping ``--window`` kaggle puzzles
        (``kaggle_bryanpark_first10000.csv``) in flight (pipelined).

The load comes from the C load generator (``--loadgen PATH``: a build of
``benchmarks/loadgen.c``, ``cc -O2 -o loadgen benchmarks/loadgen.c``), or,
without it, from a Python client in a separate process (which costs the
shared cores more: the figures are then rougher). Server CPU is the server
process's user + system time (``/proc/PID/stat``) from just before the load
starts to just after it ends, divided by the answers; the raw solve is
``solver.solve(grid)`` in this process on grids parsed before the clock
starts (``time.process_time``), per puzzle. Printed per run and as the
median of ``--runs``: answers/s, server µs per answer, raw µs per puzzle,
and their ratio (issue 18's targets: rr <= 6, pipe <= 2.5).

It imports the installed package (run it with PYTHONPATH set to the tree),
prints the core it measured, and refuses the pure-Python core unless
``--allow-python``.
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import datasets

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid

SETS = {"rr": "magictour_top1465.txt", "pipe": "kaggle_bryanpark_first10000.csv"}
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (``/proc/PID/stat``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def raw_solve(lines: list[str]) -> float:
    """CPU seconds per puzzle of ``solver.solve`` on the puzzles, parsed before the clock starts."""
    grids = [Grid.from_string(line) for line in lines]
    solve = solver.solve
    started = time.process_time()
    for grid in grids:
        solve(grid)
    return (time.process_time() - started) / len(grids)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, extra: list[str]) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
        + extra,
        cwd=tempfile.gettempdir(),  # never the checkout: PYTHONPATH names the tree
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not start")


def python_client(port: int, file: str, mode: str, connections: int, window: int, seconds: float) -> None:
    """The Python load: prints ``{"answers": N}`` (JSON) after ``seconds`` (run in a process of its own)."""
    lines = [line.encode() + b"\n" for line in Path(file).read_text().split()]
    sel = selectors.DefaultSelector()
    state = []
    for i in range(connections):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        entry = {"sock": sock, "next": i * (len(lines) // connections), "inflight": 0, "buf": b""}
        state.append(entry)
        sel.register(sock, selectors.EVENT_READ, entry)
    per_send = 1 if mode == "rr" else window

    def send(entry: dict) -> None:
        want = per_send - entry["inflight"]
        if want <= 0:
            return
        chunk = []
        for _ in range(want):
            chunk.append(lines[entry["next"] % len(lines)])
            entry["next"] += 1
        entry["sock"].sendall(b"".join(chunk))
        entry["inflight"] += want

    for entry in state:
        send(entry)
    answers = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for key, _ in sel.select(timeout=0.5):
            entry = key.data
            data = entry["sock"].recv(65536)
            if not data:
                raise SystemExit("the server closed a connection")
            buf = entry["buf"] + data
            got = buf.count(b"\n")
            entry["buf"] = buf[buf.rfind(b"\n") + 1 :]
            answers += got
            entry["inflight"] -= got
            if mode == "rr" or entry["inflight"] <= window // 2:
                send(entry)
    print(json.dumps({"answers": answers}))


def server_core(port: int) -> str:
    """The solver core the server on ``port`` uses (its ``STATS`` line ``STAT core ...``)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"STATS\n")
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while not data.endswith(b"END\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    for line in data.decode().splitlines():
        if line.startswith("STAT core "):
            return line.split(" ", 2)[2]
    raise SystemExit(f"no core in the server's STATS: {data!r}")


def drive(args, mode: str, port: int, file: str) -> tuple[int, float]:
    """Run the load once against the server on ``port``: (answers, seconds)."""
    connections = args.connections if mode == "rr" else 1
    if args.loadgen:
        command = [args.loadgen, "--port", str(port), "--file", file, "--mode", mode, "--connections", str(connections)]
        command += ["--window", str(args.window), "--seconds", str(args.seconds), "--warmup", "0", "--json"]
    else:
        command = [sys.executable, __file__, "--client", f"{port},{file},{mode},{connections},{args.window}"]
        command += ["--seconds", str(args.seconds)]
    started = time.monotonic()
    out = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + 60)
    seconds = time.monotonic() - started
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if args.loadgen and (result["errors"] or result["wrong"] or result["closed"]):
        raise SystemExit(f"the load generator saw problems: {result}")
    return int(result.get("answers_all", result["answers"])), seconds


def run_mode(args, mode: str, lines: list[str], file: str) -> dict[str, float]:
    port = args.port or free_port()
    server = start_server(port, args.server_args.split())
    try:
        drive(args, mode, port, file) if args.warm else None  # warm-up: imports, caches
        before = cpu_of(server.pid)
        answers, seconds = drive(args, mode, port, file)
        server_cpu = cpu_of(server.pid) - before
        core = server_core(port)
        if core != "native" and not args.allow_python:
            raise SystemExit(f"the server's solver core is {core}: build the native one, or pass --allow-python")
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    raw = raw_solve(lines)
    per_answer = server_cpu / max(1, answers)
    print(f"{mode}: server solver core {core}")
    return {
        "answers": answers,
        "per_s": answers / seconds,
        "server_us": per_answer * 1e6,
        "raw_us": raw * 1e6,
        "ratio": per_answer / raw,
        "cores": server_cpu / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loadgen", help="path of a build of benchmarks/loadgen.c (default: a Python client)")
    parser.add_argument("--modes", default="rr,pipe", help="comma-separated: rr, pipe")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of load per run")
    parser.add_argument("--connections", type=int, default=64, help="rr mode's connections")
    parser.add_argument("--window", type=int, default=128, help="pipe mode's puzzles in flight")
    parser.add_argument("--limit", type=int, default=None, help="the first N puzzles of each set (a smoke run)")
    parser.add_argument("--port", type=int, default=0, help="the server's port (0: any free one)")
    parser.add_argument("--server-args", default="", help='more options for the server ("--inline-budget 0")')
    parser.add_argument("--no-warm", dest="warm", action="store_false", help="no warm-up run before the measured one")
    parser.add_argument("--allow-python", action="store_true", help="measure the pure-Python core too")
    parser.add_argument("--client", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        port, file, mode, connections, window = args.client.split(",")
        python_client(int(port), file, mode, int(connections), int(window), args.seconds)
        return
    print(f"solver core: {solver.CORE} (sudoku_server from {Path(solver.__file__).resolve().parents[3]})")
    if solver.CORE != "native" and not args.allow_python:
        raise SystemExit("the native core is not in use: build it, or pass --allow-python")
    print(f"load: {'C load generator' if args.loadgen else 'Python client (separate process)'}")
    print(f"server: python3 -m sudoku_server {args.server_args}".rstrip())
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.modes.split(","):
            path = datasets.find(SETS[mode])
            assert path is not None, SETS[mode]
            lines = datasets.one_line_puzzles(path, args.limit)
            file = str(Path(tmp) / f"{mode}.txt")
            Path(file).write_text("".join(line + "\n" for line in lines))
            runs = [run_mode(args, mode, lines, file) for _ in range(args.runs)]
            print(f"\n{mode} ({SETS[mode]}, {len(lines)} puzzles):")
            print("| run | answers | answers/s | server cores | server µs/answer | raw µs/puzzle | ratio |")
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
            for index, r in enumerate(runs, 1):
                print(
                    f"| {index} | {r['answers']} | {r['per_s']:.0f} | {r['cores']:.2f} | {r['server_us']:.1f}"
                    f" | {r['raw_us']:.2f} | {r['ratio']:.1f} |"
                )
            med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            print(
                f"| median | {med['answers']:.0f} | {med['per_s']:.0f} | {med['cores']:.2f} | {med['server_us']:.1f}"
                f" | {med['raw_us']:.2f} | {med['ratio']:.1f} |"
            )
            print(f"{mode} median ratio: {med['ratio']:.2f} (server µs per answer ÷ raw µs per puzzle)")


if __name__ == "__main__":
    main()
