"""HAProxy and the servers behind it, for real on loopback, and the clients that load them.

``Server`` and ``HAProxy`` are started processes whose logs a thread reads (``Logged``); ``ask`` sends one
puzzle of norvig top95 and reads its answer, ``Load`` keeps ``CLIENTS`` threads asking. The ``rig`` fixture
(tests/conftest.py) starts them and stops whatever is left. The HAProxy recipe is rendered with free
loopback ports, keeping every timing value and option of deploy/haproxy.cfg.
"""

from __future__ import annotations

import itertools
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.paths import PUZZLES, REPO

HAPROXY = shutil.which("haproxy") or next((p for p in ("/usr/sbin/haproxy",) if os.access(p, os.X_OK)), None)
RECIPE = REPO / "deploy" / "haproxy.cfg"
#: The one-machine variant (issue 17): loopback, foreground, no daemon user.
LOCAL_RECIPE = REPO / "deploy" / "haproxy-local.cfg"
#: The recipe's servers run with this drain grace (deploy/haproxy.cfg header).
DRAIN_GRACE = 2.0
SHUTDOWN_GRACE = 5.0
PUZZLE_LIST = (PUZZLES / "norvig_top95.txt").read_text().split()
EXPECTED = (PUZZLES / "norvig_top95.expected").read_text().split()
#: Concurrent clients of the drain and kill tests (the issue's "40 requests in flight").
CLIENTS = 40

needs_haproxy = pytest.mark.skipif(
    HAPROXY is None, reason="haproxy is not installed (Debian package haproxy; .ci/run installs it)"
)


# -- the configuration -----------------------------------------------------------


def render_config(
    recipe: str,
    frontend_port: int,
    servers: list[tuple[str, int]],
    stats_socket: Path,
    proxy_option: str = "send-proxy",
) -> str:
    """``recipe`` with its addresses, log target and stats socket replaced for a loopback test.

    Changed: ``bind`` (127.0.0.1:``frontend_port``), the ``server`` lines
    (one per ``(name, port)`` on 127.0.0.1), ``log`` (stderr, read by the
    test), ``stats socket`` (``stats_socket``), the global ``maxconn`` (1000,
    so that HAProxy needs few descriptors) and ``user``/``group``/``daemon``
    (dropped: HAProxy runs in the foreground as the test's user).
    ``proxy_option`` replaces ``send-proxy`` (e.g. ``send-proxy-v2``).
    Everything else, every timeout and check setting, is kept as it is.

    Raises:
      ValueError: a recipe ``server`` line carries options of its own (they
        would be lost), or the recipe has no ``server`` line.
    """
    out: list[str] = []
    section = ""
    servers_done = False
    for line in recipe.splitlines():
        words = line.split()
        if line and not line[0].isspace():
            section = words[0]
        if not words or words[0].startswith("#"):
            out.append(line)
            continue
        key = words[0]
        if section == "global" and key in ("user", "group", "daemon"):
            continue
        if section == "global" and key == "maxconn":
            out.append("    maxconn 1000")
        elif section == "global" and key == "log":
            out.append("    log stderr format short local0")
        elif section == "global" and words[:2] == ["stats", "socket"]:
            out.append(f"    stats socket {stats_socket} " + " ".join(words[3:]))
        elif key == "bind":
            out.append(f"    bind 127.0.0.1:{frontend_port}")
        elif key == "server":
            if len(words) != 3:
                raise ValueError(f"recipe server line with options of its own: {line.strip()!r}")
            if not servers_done:
                out += [f"    server {name} 127.0.0.1:{port}" for name, port in servers]
                servers_done = True
        elif key == "default-server":
            out.append(re.sub(r"(?<![-\w])send-proxy(?![-\w])", proxy_option, line))
        else:
            out.append(line)
    if not servers_done:
        raise ValueError("the recipe has no server line")
    return "\n".join(out) + "\n"


def render_local(recipe: str, frontend_port: int, server_ports: list[int], stats_socket: Path) -> str:
    """``deploy/haproxy-local.cfg`` with only its three ports and its stats socket path changed.

    Raises:
      ValueError: one of the replaced values is not in the recipe exactly once.
    """
    replacements = {
        "127.0.0.1:9999": f"127.0.0.1:{frontend_port}",
        "127.0.0.1:10001": f"127.0.0.1:{server_ports[0]}",
        "127.0.0.1:10002": f"127.0.0.1:{server_ports[1]}",
        "stats socket /tmp/sudoku-haproxy-local.sock": f"stats socket {stats_socket}",
    }
    lines = recipe.splitlines()
    for old, new in replacements.items():
        found = [i for i, line in enumerate(lines) if old in line and not line.lstrip().startswith("#")]
        if len(found) != 1:
            raise ValueError(f"{old!r} is in {len(found)} configuration lines of the local recipe, not 1")
        lines[found[0]] = lines[found[0]].replace(old, new)
    return "\n".join(lines) + "\n"


def recipe_commands(recipe: str) -> list[list[str]]:
    """The server command lines in a recipe's header comment (``#   python3 -m sudoku_server ...``)."""
    return [
        line.lstrip("# ").split()
        for line in recipe.splitlines()
        if line.startswith("#") and re.search(r"(python3 -m sudoku_server|sudoku-server) --", line)
    ]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- processes -----------------------------------------------------------------


class Logged:
    """A subprocess whose stderr lines are read by a thread, each with its arrival time (monotonic)."""

    def __init__(self, argv: list[str], **popen) -> None:
        self.argv = argv
        self.proc = subprocess.Popen(
            argv,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
            **popen,
        )
        self.lines: list[tuple[float, str]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for raw in self.proc.stderr:
            self.lines.append((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\n")))

    @property
    def log(self) -> str:
        return "\n".join(text for _, text in list(self.lines))

    def wait_for(self, pattern: str, count: int = 1, timeout: float = 10.0) -> list[tuple[float, re.Match]]:
        """The first ``count`` (arrival time, match) of ``pattern`` in the log; fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)

        def found() -> list[tuple[float, re.Match]]:
            return [(at, m) for at, text in list(self.lines) for m in [regex.search(text)] if m]

        while len(found()) < count:
            if self.proc.poll() is not None:
                self._reader.join(5)  # the last lines, once the process is gone
                break
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        matches = found()
        assert len(matches) >= count, (
            f"{pattern!r} x{count} not in the log of {' '.join(self.argv)}"
            f" (exit status {self.proc.poll()}):\n{self.log}"
        )
        return matches[:count]

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # its own group: a supervisor's workers too
        except ProcessLookupError:
            pass
        self.proc.wait()
        self._reader.join(5)
        self.proc.stderr.close()


class Server(Logged):
    """``python3 -W error -m sudoku_server --host 127.0.0.1 --port 0 --proxy-protocol --trusted-proxy 127.0.0.1/32
    --drain-grace 2 EXTRA``."""

    def __init__(self, name: str, *extra: str, argv: list[str] | None = None) -> None:
        """``argv``: run this command instead (a recipe's own server command line)."""
        self.name = name
        super().__init__(
            argv
            or [
                sys.executable,
                "-W",
                "error",
                "-m",
                "sudoku_server",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--proxy-protocol",
                "--trusted-proxy",
                "127.0.0.1/32",
                "--drain-grace",
                f"{DRAIN_GRACE:g}",
                *extra,
            ],
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )

    def started(self) -> Server:
        ((_, match),) = self.wait_for(r"listening on 127\.0\.0\.1:(\d+)")
        self.port = int(match.group(1))
        return self

    def client_ports(self) -> list[int]:
        """Ports of the client connections this server logged (health checks, with 0 puzzles, left out).

        The address a server logs comes from the PROXY header: it is the
        client's own socket, not HAProxy's connection to the server, which
        the log names after ``via`` (the trusted proxy, issue 17).
        """
        return [int(p) for p in re.findall(r"127\.0\.0\.1:(\d+) via 127\.0\.0\.1 closed: 1 puzzle\(s\)", self.log)]

    def served(self, requests: list[Request], timeout: float = 5.0) -> set:
        """Client ports this server logged, once ``requests`` are all in its log (or after ``timeout``).

        A server logs a connection when its lingering close ends, just after
        the client has its answer.
        """
        wanted = {r.local_port for r in requests}
        deadline = time.monotonic() + timeout
        while True:
            logged = set(self.client_ports())
            if wanted <= logged or time.monotonic() > deadline or self.proc.poll() is not None:
                return logged
            time.sleep(0.05)


def _raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class HAProxy(Logged):
    """``haproxy -f CFG -db`` (foreground) on the rendered recipe; its log on stderr."""

    def __init__(
        self, workdir: Path, servers: list[Server], proxy_option: str = "send-proxy", local: bool = False
    ) -> None:
        """``local``: the one-machine recipe (:func:`render_local`) instead of the main one (:func:`render_config`)."""
        self.port = free_port()
        self.stats_socket = workdir / "haproxy.sock"
        self.config = workdir / "haproxy.cfg"
        if local:
            text = render_local(LOCAL_RECIPE.read_text(), self.port, [s.port for s in servers], self.stats_socket)
        else:
            text = render_config(
                RECIPE.read_text(), self.port, [(s.name, s.port) for s in servers], self.stats_socket, proxy_option
            )
        self.config.write_text(text)
        super().__init__([HAPROXY, "-f", str(self.config), "-db"], preexec_fn=_raise_nofile)

    def stat(self) -> dict[str, dict[str, str]]:
        """``show stat`` over the stats socket: {server name: {column: value}} for backend ``sudoku``."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(5)
            sock.connect(str(self.stats_socket))
            sock.sendall(b"show stat\n")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        columns = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(columns, line.split(","))) for line in lines[1:] if line]
        return {row["svname"]: row for row in rows if row["pxname"] == "sudoku"}

    def ready(self, names: list[str], timeout: float = 10.0) -> None:
        """Wait until every server in ``names`` is UP after a passed check (L7OK)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                stat = self.stat()
                if all(stat[n]["status"] == "UP" and stat[n]["check_status"] == "L7OK" for n in names):
                    return
            except OSError:
                stat = None
            assert time.monotonic() < deadline and self.proc.poll() is None, f"servers not UP: {stat}\n{self.log}"
            time.sleep(0.05)

    def watch(self) -> None:
        """Poll ``show stat`` every 20 ms in a thread, recording each server's status (:meth:`down_at`)."""
        self._history: list[tuple[float, dict[str, str]]] = []
        self._watching = threading.Event()

        def poll() -> None:
            while not self._watching.is_set():
                try:
                    stat = self.stat()
                except OSError:
                    return  # HAProxy is gone
                self._history.append((time.monotonic(), {name: row["status"] for name, row in stat.items()}))
                time.sleep(0.02)

        self._watcher = threading.Thread(target=poll, daemon=True)
        self._watcher.start()

    def down_at(self, name: str, timeout: float = 5.0) -> float:
        """When :meth:`watch` first saw server ``name`` DOWN (monotonic); fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            seen = [at for at, status in list(self._history) if status.get(name) == "DOWN"]
            if seen:
                return seen[0]
            assert time.monotonic() < deadline, f"{name} never DOWN: {self._history[-1:]}\n{self.log}"
            time.sleep(0.02)

    def stop(self) -> None:
        if getattr(self, "_watcher", None) is not None:
            self._watching.set()
            self._watcher.join(5)
        super().stop()

    def sessions(self) -> dict[int, tuple[str, str]]:
        """From the tcplog lines: {client port: (server name, retries field)}; ``+N``: redispatched.

        Best effort: HAProxy drops a log line rather than wait for a slow
        stderr, so tests assert on the servers' logs and ``show stat``.
        """
        found = re.findall(
            r"127\.0\.0\.1:(\d+) \[[^\]]*\] \S+ sudoku/(\S+) \S+ \d+ \S+ \d+/\d+/\d+/\d+/(\+?\d+)", self.log
        )
        return {int(port): (server, retries) for port, server, retries in found}


# -- clients -------------------------------------------------------------------


@dataclass
class Request:
    index: int  # into PUZZLE_LIST
    started: float  # monotonic
    ended: float = 0.0
    local_port: int = 0
    answer: bytes = b""
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.answer == (EXPECTED[self.index] + "\n").encode()


def ask(port: int, index: int, timeout: float = 10.0) -> Request:
    """One connection through HAProxy: send one puzzle, half-close, read to the end."""
    request = Request(index, time.monotonic())
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            request.local_port = sock.getsockname()[1]
            sock.sendall(PUZZLE_LIST[index].encode() + b"\n")
            sock.shutdown(socket.SHUT_WR)
            while chunk := sock.recv(65536):
                request.answer += chunk
    except OSError as error:
        request.error = repr(error)
    request.ended = time.monotonic()
    return request


def ask_concurrently(port: int, count: int, clients: int = 4) -> list[Request]:
    """Requests 0..count-1 through ``port``, from ``clients`` threads (each its own connections), in completion order."""
    results: list[Request] = []
    lock = threading.Lock()

    def client(first: int) -> None:
        for index in range(first, count, clients):
            request = ask(port, index)
            with lock:
                results.append(request)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


class Load:
    """``clients`` threads, each sending one request after another through ``port`` until stopped."""

    def __init__(self, port: int, clients: int = CLIENTS) -> None:
        self.port = port
        self.requests: list[Request] = []
        self._next = itertools.count()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._client, daemon=True) for _ in range(clients)]
        for thread in self._threads:
            thread.start()

    def _client(self) -> None:
        while not self._stop.is_set():
            self.requests.append(ask(self.port, next(self._next) % len(PUZZLE_LIST)))

    def in_flight(self, at: float) -> list[Request]:
        return [r for r in self.requests if r.started <= at < r.ended]

    def stop(self) -> list[Request]:
        self._stop.set()
        for thread in self._threads:
            thread.join(15)
        assert not any(t.is_alive() for t in self._threads), "a client thread hung"
        return self.requests


def describe(requests: list[Request]) -> str:
    bad = [r for r in requests if not r.ok]
    return f"{len(bad)} of {len(requests)} failed: " + "; ".join(
        f"#{r.index} port {r.local_port}: {r.error or r.answer[:60]!r}" for r in bad[:5]
    )
