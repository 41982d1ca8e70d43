"""Spoofed PROXY headers against a ``--proxy-protocol`` port (issue 17), old tree and new.

Starts ``python3 -m sudoku_server --host 127.0.0.1 --port P --proxy-protocol
--max-connections-per-ip 2 EXTRA`` from a tree (``--tree``, run with
``PYTHONPATH=<tree>``), opens ``--connections`` connections from 127.0.0.1
that each send a PROXY v1 header claiming another source (192.0.2.1,
192.0.2.2, ...; ``--same-source``: all the same one), holds them all open,
then sends ``PING`` on each and reads one line. A connection is *admitted*
when it answers ``PONG``, *refused* when it got an ``ERROR`` line, *closed*
when it ended without a word. Prints one line per case and the distinct
replies.

    python3 benchmarks/proxy_spoof.py --tree BEFORE --port 22100
    python3 benchmarks/proxy_spoof.py --tree . --port 22101 --extra "--trusted-proxy 192.0.2.254/32"
    python3 benchmarks/proxy_spoof.py --tree . --port 22102 --extra "--trusted-proxy 127.0.0.1/32" --same-source
"""

from __future__ import annotations

import argparse
import collections
import os
import shlex
import socket
import subprocess
import sys
import time


def start(tree: str, port: int, extra: list[str]) -> subprocess.Popen:
    argv = [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port)]
    argv += ["--proxy-protocol", "--max-connections-per-ip", "2", *extra]
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    proc = subprocess.Popen(argv, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited {proc.returncode}: {proc.stderr.read().decode().strip()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not listen in 15 s")


def run(port: int, connections: int, same_source: bool) -> collections.Counter:
    socks = []
    for i in range(connections):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        source = "192.0.2.1" if same_source else f"192.0.2.{i + 1}"
        sock.sendall(f"PROXY TCP4 {source} 127.0.0.1 {40000 + i} {port}\r\n".encode())
        socks.append(sock)
    time.sleep(0.3)  # every header read, every admission decided, all held at once
    outcomes: collections.Counter = collections.Counter()
    for sock in socks:
        try:
            sock.sendall(b"PING\n")
        except OSError:
            pass
        data = b""
        try:
            while not data.endswith(b"\n"):
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        line = data.decode("ascii", "replace").strip()
        kind = "admitted" if line == "PONG" else "refused" if line.startswith("ERROR") else "closed"
        outcomes[(kind, line)] += 1
    for sock in socks:
        sock.close()
    return outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", required=True, help="the checkout to run the server from")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--connections", type=int, default=40)
    parser.add_argument("--same-source", action="store_true", help="every header claims 192.0.2.1")
    parser.add_argument("--extra", default="", help="more server options, one shell-quoted string")
    args = parser.parse_args()
    extra = shlex.split(args.extra)
    proc = start(args.tree, args.port, extra)
    try:
        outcomes = run(args.port, args.connections, args.same_source)
    finally:
        proc.terminate()
        proc.wait(10)
    totals = collections.Counter()
    for (kind, _), n in outcomes.items():
        totals[kind] += n
    claims = "one claimed source" if args.same_source else f"{args.connections} claimed sources"
    print(
        f"{args.tree} {' '.join(extra) or '(no extra options)'}, {claims}: "
        f"{totals['admitted']} admitted, {totals['refused']} refused, {totals['closed']} closed silently"
    )
    for (kind, line), n in sorted(outcomes.items()):
        print(f"  {n:3d} x {kind}: {line!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
