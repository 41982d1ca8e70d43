"""Slot exhaustion by trickling (issue 17): N connections send INTERACTIVE, then one byte every few seconds.

Usage (from the repository root; the sockets need a raised descriptor limit)::

    ulimit -n 8192
    python3 benchmarks/tricklers.py                       # 1,032 tricklers, 24 s, this checkout
    python3 benchmarks/tricklers.py --server-cwd BEFORE --port 20500
    python3 benchmarks/tricklers.py --tricklers 1032 --every 4 --seconds 24

Starts ``python3 -m sudoku_server --host 127.0.0.1 --port PORT`` in
``--server-cwd`` (with ``PYTHONPATH`` set to it, so that ``-m`` imports that
checkout), opens ``--tricklers`` connections from 127.0.0.2, each sending
``INTERACTIVE`` and then one byte of a comment line that never ends every
``--every`` seconds, and, from 127.0.0.1, a fresh client every 2 s (after
the first 6 s) sending one easy puzzle and half-closing. It prints, as a
markdown table, what each fresh client got (solved, ``ERROR busy``...) and
how long it took, and how many tricklers the server still held at the end.
Standard library only; the server is killed at the end.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

PUZZLE = b"7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5\n"
SOLUTION = b"798635421126974583453218679972586314564123897381497256617352948835749162249861735\n"


def start_server(cwd: Path, port: int) -> subprocess.Popen:
    """The server of ``cwd`` on 127.0.0.1:``port``, its descriptor limit raised; waits for its listening line."""

    def raise_limit() -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(8192, hard), hard))

    env = dict(os.environ, PYTHONPATH=str(cwd), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=cwd,
        env=env,
        stderr=subprocess.DEVNULL,
        preexec_fn=raise_limit,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def fresh_client(port: int) -> tuple[str, float]:
    """One easy puzzle from 127.0.0.1: (what came back, seconds)."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.1", 0)) as sock:
            sock.sendall(PUZZLE)
            sock.shutdown(socket.SHUT_WR)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError as error:
        return f"error {type(error).__name__}", time.monotonic() - started
    elapsed = time.monotonic() - started
    if data == SOLUTION:
        return "solved", elapsed
    return re.sub(r"\d+ connections", "N connections", data.decode("ascii", "replace").strip()), elapsed


def run(opts: argparse.Namespace) -> None:
    proc = start_server(Path(opts.server_cwd).resolve(), opts.port)
    sel = selectors.DefaultSelector()
    held: list[socket.socket] = []
    told: dict[str, int] = {}
    try:
        for _ in range(opts.tricklers):
            sock = socket.create_connection(("127.0.0.1", opts.port), timeout=5, source_address=("127.0.0.2", 0))
            sock.sendall(b"INTERACTIVE\n")
            sock.setblocking(False)
            sel.register(sock, selectors.EVENT_READ)
            held.append(sock)
        started = time.monotonic()
        next_trickle = started
        next_probe = started + 6
        probes: list[tuple[str, float]] = []
        while time.monotonic() - started < opts.seconds:
            now = time.monotonic()
            if now >= next_trickle:
                for sock in held:
                    try:
                        sock.send(b"#")
                    except OSError:
                        pass
                next_trickle += opts.every
            if now >= next_probe:
                probes.append(fresh_client(opts.port))
                next_probe += 2
            for key, _ in sel.select(timeout=0.05):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    data = sock.recv(65536)
                except OSError:
                    data = b""
                for line in data.decode("ascii", "replace").splitlines():
                    if not line.startswith("INTERACTIVE on"):
                        told[re.sub(r"\d+", "N", line)] = told.get(re.sub(r"\d+", "N", line), 0) + 1
                if not data:
                    sel.unregister(sock)
                    held.remove(sock)
                    sock.close()
        results = [what for what, _ in probes]
        seconds = [s for _, s in probes]
        print(f"| server | {opts.server_cwd} |")
        print("| --- | --- |")
        print(f"| tricklers | {opts.tricklers} from 127.0.0.2, INTERACTIVE then 1 byte every {opts.every:g} s |")
        print(f"| run | {opts.seconds:g} s |")
        print(f"| fresh clients (127.0.0.1, one puzzle each, every 2 s) | {len(probes)} |")
        for what in sorted(set(results)):
            print(f"| got `{what}` | {results.count(what)} |")
        if seconds:
            print(f"| fresh client seconds, median / max | {statistics.median(seconds):.3f} / {max(seconds):.3f} |")
        print(f"| tricklers still held at the end | {len(held)} |")
        for line, count in sorted(told.items()):
            print(f"| tricklers told `{line}` | {count} |")
    finally:
        for sock in held:
            sock.close()
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server-cwd", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--port", type=int, default=20500)
    parser.add_argument("--tricklers", type=int, default=1032)
    parser.add_argument("--every", type=float, default=4.0, help="seconds between two bytes of a trickler")
    parser.add_argument("--seconds", type=float, default=24.0, help="length of the run")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
