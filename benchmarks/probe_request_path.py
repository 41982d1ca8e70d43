"""Why request-response costs what it costs: syscalls, wake-ups and answers per wake-up of the server (issue 28).

    PYTHONPATH=/path/to/tree python3 benchmarks/probe_request_path.py --loadgen PATH [--connections 64]
        [--seconds 3] [--runs 3] [--server-args "..."]

Starts a server (``python -m sudoku_server``, the tree ``PYTHONPATH`` names),
runs the C load generator (``benchmarks/loadgen.c``) in request-response mode
over ``--connections`` connections on top1465, and reads the server's own
counters from ``/proc`` around the measured window: CPU (user + system),
read and write system calls (``/proc/PID/io`` ``syscr``/``syscw``: every
``recv``/``read``/``send``/``write``, epoll not included), and context
switches (``/proc/PID/status``: voluntary ones are the event loop going to
sleep in ``epoll_wait`` with nothing to do, i.e. its wake-ups). Printed per
answer, with the price of one system call on this machine (a non-blocking
``read`` that finds nothing, timed in this process): the same code costs
more where system calls cost more (kernel mitigations, virtual machines),
which is how two machines differ by 2-3x on this figure.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "puzzles" / "datasets" / "magictour_top1465.txt.gz"
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def counters(pid: int) -> dict[str, float]:
    """The server's CPU seconds, read/write syscalls and context switches so far (``/proc``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    out: dict[str, float] = {"cpu": (int(fields[11]) + int(fields[12])) / TICKS}
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            key, value = line.split(":")
            if key in ("syscr", "syscw"):
                out[key] = float(value)
    out["voluntary"] = out["involuntary"] = 0.0
    for task in os.listdir(f"/proc/{pid}/task"):  # every thread: the event loop and the solver threads
        with open(f"/proc/{pid}/task/{task}/status") as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches"):
                    out["voluntary"] += float(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches"):
                    out["involuntary"] += float(line.split()[1])
    return out


def syscall_price(count: int = 200000) -> float:
    """Microseconds of one non-blocking ``read`` that finds nothing (EAGAIN), in this process."""
    a, b = socket.socketpair()
    a.setblocking(False)
    fd = a.fileno()
    started = time.perf_counter()
    for _ in range(count):
        try:
            os.read(fd, 16384)
        except BlockingIOError:
            pass
    elapsed = time.perf_counter() - started
    a.close()
    b.close()
    return elapsed / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loadgen", required=True)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--server-args", default="")
    args = parser.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as plain, gzip.open(DATA, "rt") as f:
        plain.writelines(line[:81] + "\n" for line in f if len(line) >= 81 and not line.startswith("#"))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
        + args.server_args.split(),
        cwd=tempfile.gettempdir(),
        stdout=subprocess.DEVNULL,
    )
    rows = []
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        for _ in range(args.runs):
            command = [args.loadgen, "--port", str(port), "--file", plain.name, "--mode", "rr"]
            command += ["--connections", str(args.connections), "--seconds", str(args.seconds), "--warmup", "0.5"]
            loadgen = subprocess.Popen([*command, "--json"], stdout=subprocess.PIPE, text=True)
            time.sleep(0.5)
            before = counters(server.pid)
            out, _ = loadgen.communicate(timeout=120)
            after = counters(server.pid)
            answers = json.loads(out)["answers"]
            row = {key: (after[key] - before[key]) / max(1, answers) for key in after}
            row["answers"] = answers
            rows.append(row)
            print(
                f"answers {answers}: server {row['cpu'] * 1e6:.0f} µs/answer, {row['syscr']:.2f} reads +"
                f" {row['syscw']:.2f} writes per answer, {row['voluntary']:.2f} sleeps (wake-ups) and"
                f" {row['involuntary']:.2f} preemptions per answer",
                flush=True,
            )
    finally:
        server.kill()
        server.wait()
        os.unlink(plain.name)
    med = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
    price = syscall_price()
    print(
        f"median: {med['cpu'] * 1e6:.0f} µs/answer; {med['syscr'] + med['syscw']:.2f} read/write syscalls and"
        f" {med['voluntary']:.2f} wake-ups per answer; one empty non-blocking read costs {price:.2f} µs here"
    )


if __name__ == "__main__":
    main()
