"""A backend stopped under load behind HAProxy, with the one-machine recipe (issue 17).

Renders ``deploy/haproxy-local.cfg`` with ports from ``--base-port`` (the
frontend, then the two servers) and a stats socket in a temporary directory,
nothing else changed; starts the two servers with the command lines of the
recipe's header (``--proxy-protocol --trusted-proxy 127.0.0.1/32 --drain-grace
2``, ports replaced) and ``haproxy -db -f``; runs ``--clients`` threads that
each send one norvig top95 puzzle per connection through HAProxy, half-close
and compare the answer with ``puzzles/norvig_top95.expected``; sends SIGTERM
to server s1 after a third of ``--seconds``; prints requests, wrong or failed
answers, and how many the stopped server logged.

    python3 benchmarks/haproxy_stop.py --base-port 22200 --seconds 9 --clients 40
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RECIPE = REPO / "deploy" / "haproxy-local.cfg"
PUZZLES = (REPO / "puzzles" / "norvig_top95.txt").read_text().split()
EXPECTED = (REPO / "puzzles" / "norvig_top95.expected").read_text().split()


def render(frontend: int, servers: tuple[int, int], stats: Path) -> str:
    text = RECIPE.read_text()
    for old, new in (
        ("bind 127.0.0.1:9999", f"bind 127.0.0.1:{frontend}"),
        ("127.0.0.1:10001", f"127.0.0.1:{servers[0]}"),
        ("127.0.0.1:10002", f"127.0.0.1:{servers[1]}"),
        ("stats socket /tmp/sudoku-haproxy-local.sock", f"stats socket {stats}"),
    ):
        text = "\n".join(line if line.lstrip().startswith("#") else line.replace(old, new) for line in text.split("\n"))
    return text


def server_commands(ports: tuple[int, int]) -> list[list[str]]:
    commands = [
        line.lstrip("# ").split()
        for line in RECIPE.read_text().splitlines()
        if line.startswith("#") and "python3 -m sudoku_server --" in line
    ]
    out = []
    for command, port in zip(commands, ports, strict=True):
        argv = [sys.executable, *command[1:]]
        argv[argv.index("--port") + 1] = str(port)
        out.append(argv)
    return out


def wait_port(port: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing listens on {port} (exit status {proc.poll()})")


def ask(port: int, index: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(PUZZLES[index].encode() + b"\n")
            sock.shutdown(socket.SHUT_WR)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    except OSError:
        return False
    return answer == (EXPECTED[index] + "\n").encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-port", type=int, required=True, help="frontend; the servers get the next two")
    parser.add_argument("--seconds", type=float, default=9.0)
    parser.add_argument("--clients", type=int, default=40)
    args = parser.parse_args()
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    frontend, ports = args.base_port, (args.base_port + 1, args.base_port + 2)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "haproxy.cfg"
        config.write_text(render(frontend, ports, Path(tmp) / "haproxy.sock"))
        logs = [open(Path(tmp) / f"s{i}.log", "w+b") for i in (1, 2)]  # noqa: SIM115 (closed below)
        servers = [
            subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=log)
            for argv, log in zip(server_commands(ports), logs, strict=True)
        ]
        proxy = subprocess.Popen(
            [haproxy, "-db", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            for port, proc in zip(ports, servers, strict=True):
                wait_port(port, proc)
            wait_port(frontend, proxy)
            time.sleep(1.5)  # both servers UP (rise 2 at 500 ms)
            results: list[tuple[float, bool]] = []
            stop = threading.Event()
            counter = iter(range(10**9))

            def client() -> None:
                while not stop.is_set():
                    started = time.monotonic()
                    results.append((started, ask(frontend, next(counter) % len(PUZZLES))))

            threads = [threading.Thread(target=client, daemon=True) for _ in range(args.clients)]
            began = time.monotonic()
            for thread in threads:
                thread.start()
            time.sleep(args.seconds / 3)
            signalled = time.monotonic()
            servers[0].send_signal(signal.SIGTERM)
            time.sleep(args.seconds - (signalled - began))
            stop.set()
            for thread in threads:
                thread.join(15)
            status = servers[0].wait(10)
        finally:
            for proc in [proxy, *servers]:
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
        logs[0].seek(0)
        on_s1 = len(re.findall(rb" via 127\.0\.0\.1 closed: 1 puzzle", logs[0].read()))
        for log in logs:
            log.close()
    lost = [at for at, ok in results if not ok]
    after = sum(1 for at, _ in results if at >= signalled)
    print(
        f"{len(results)} requests through HAProxy ({args.clients} clients, {args.seconds:g} s), SIGTERM to s1 at"
        f" {signalled - began:.1f} s ({after} requests sent after it): {len(lost)} lost;"
        f" s1 answered {on_s1} and exited with status {status}"
    )
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
