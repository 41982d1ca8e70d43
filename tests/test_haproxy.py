"""HAProxy, for real, on loopback, in front of two servers (issue 13; deploy/haproxy.cfg).

Each test renders ``deploy/haproxy.cfg`` with free loopback ports, its own
stats socket and log target (stderr), keeping every timing value and option
of the recipe, starts ``haproxy -f CFG -db`` in the foreground and two
servers ``python3 -m sudoku_server --proxy-protocol --drain-grace 2``, and
sends requests through HAProxy: one connection per puzzle (norvig top95,
each answer compared with ``puzzles/norvig_top95.expected``). Which server
answered a request is read from the servers' own logs: each logs the
client's address and port from the PROXY header, so a request is known by
its client socket's port. HAProxy's state (a server DOWN, retries and
redispatches) comes from its stats socket (``show stat``), polled every
20 ms; its log lines (``option tcplog`` on stderr) are only a cross-check,
since HAProxy drops a log line rather than wait for a slow reader.

Skipped when the ``haproxy`` binary is missing (Debian package ``haproxy``;
``.ci/run`` installs it). Health checks are HAProxy's own ``tcp-check``
(``PING`` -> ``PONG``), not the client.
"""

from __future__ import annotations

import collections
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
from conftest import PUZZLES, REPO

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


@pytest.fixture
def rig(tmp_path):
    """Starts servers and HAProxy, stops whatever is left at the end."""
    started: list[Logged] = []

    class Rig:
        def servers(self, *names: str, extra=()) -> list[Server]:
            """One server per name; ``extra``: more arguments for the first one."""
            made = [Server(name, *(extra if i == 0 else ())) for i, name in enumerate(names)]
            started.extend(made)
            return [server.started() for server in made]

        def recipe_servers(self, commands: list[list[str]]) -> list[Server]:
            """One server per recipe command line (``python3 -m sudoku_server ...``), on a free port each."""
            made = []
            for number, command in enumerate(commands, start=1):
                argv = [sys.executable, "-W", "error", *command[1:]]
                argv[argv.index("--port") + 1] = "0"
                made.append(Server(f"s{number}", argv=argv))
            started.extend(made)
            return [server.started() for server in made]

        def haproxy(self, servers: list[Server], proxy_option: str = "send-proxy", local: bool = False) -> HAProxy:
            proxy = HAProxy(tmp_path, servers, proxy_option, local)
            started.append(proxy)
            proxy.ready([s.name for s in servers])
            proxy.watch()
            return proxy

    try:
        yield Rig()
    finally:
        for process in started:
            process.stop()


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


# -- the recipe itself ---------------------------------------------------------


@needs_haproxy
@pytest.mark.parametrize("recipe", [RECIPE, LOCAL_RECIPE], ids=["haproxy.cfg", "haproxy-local.cfg"])
def test_the_recipe_as_shipped_is_valid_haproxy_configuration(recipe):
    result = subprocess.run([HAPROXY, "-c", "-f", str(recipe)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_rendered_configuration_keeps_every_timing_and_check_setting(tmp_path):
    recipe = RECIPE.read_text()
    rendered = render_config(recipe, 1234, [("a", 1), ("b", 2)], tmp_path / "s.sock")
    kept = [
        line
        for line in recipe.splitlines()
        if re.match(r"\s*(timeout|retries|option|balance|tcp-check|default-server|mode)\b", line)
    ]
    assert len(kept) >= 12
    for line in kept:
        assert line in rendered.splitlines(), line
    assert "inter 500ms fastinter 250ms downinter 1s fall 2 rise 2 send-proxy check-send-proxy" in rendered
    assert "    server a 127.0.0.1:1\n    server b 127.0.0.1:2\n" in rendered
    assert "10.0.0.11" not in rendered and "daemon" not in rendered


# -- HAProxy in front of two servers -------------------------------------------------


@needs_haproxy
@pytest.mark.parametrize("proxy_option", ["send-proxy", "send-proxy-v2"])
def test_requests_are_split_and_each_server_logs_the_clients_own_address(rig, proxy_option):
    s1, s2 = rig.servers("s1", "s2")
    proxy = rig.haproxy([s1, s2], proxy_option)
    results = ask_concurrently(proxy.port, 24)
    assert len(results) == 24 and all(r.ok for r in results), describe(results)
    clients = {r.local_port for r in results}
    deadline = time.monotonic() + 10
    while len(s1.client_ports()) + len(s2.client_ports()) < 24 and time.monotonic() < deadline:
        time.sleep(0.05)
    on_s1, on_s2 = set(s1.client_ports()), set(s2.client_ports())
    # The address each server logged is the client's own (its port is the
    # client socket's, not HAProxy's outgoing one): it came in the PROXY header.
    assert on_s1 | on_s2 == clients and not on_s1 & on_s2, (sorted(clients), s1.log, s2.log)
    assert len(on_s1) >= 2 and len(on_s2) >= 2, (len(on_s1), len(on_s2))  # leastconn: by load, not turns
    # HAProxy's own log agrees on which server took each connection (for the lines it did not drop).
    served = {"s1": on_s1, "s2": on_s2}
    logged = {port: server for port, (server, _) in proxy.sessions().items() if port in clients}
    assert len(logged) >= 12 and all(port in served[server] for port, server in logged.items()), proxy.log


@needs_haproxy
@pytest.mark.parametrize("workers", [1, 2], ids=["one-process", "workers-2"])
def test_sigterm_drains_one_server_with_no_answer_lost(rig, workers):
    s1, s2 = rig.servers("s1", "s2", extra=("--workers", str(workers)))
    proxy = rig.haproxy([s1, s2])
    load = Load(proxy.port)
    time.sleep(1.0)
    signalled = time.monotonic()
    s1.proc.send_signal(signal.SIGTERM)
    s1.proc.wait(DRAIN_GRACE + SHUTDOWN_GRACE + 1 + 2)
    exited = time.monotonic()
    time.sleep(0.5)  # requests still arrive after the server is gone
    requests = load.stop()
    in_flight = load.in_flight(signalled)

    down_at = proxy.down_at("s1", timeout=1)
    ((drain_at, _),) = s1.wait_for(r"draining for 2 s: PING answers ERROR draining", timeout=1)
    ((closed_at, _),) = s1.wait_for(r"stopped accepting", timeout=1)
    on_s1 = s1.served([])  # s1 has exited: its log is complete
    after = [r for r in requests if r.started >= signalled]
    summary = (
        f"{len(requests)} requests, {len(in_flight)} in flight at SIGTERM"
        f" ({sum(r.local_port in on_s1 for r in in_flight)} on s1),"
        f" {len(after)} sent after it ({sum(r.local_port in on_s1 for r in after)} to s1 while it drained);"
        f" s1 marked DOWN {down_at - signalled:.2f} s after SIGTERM,"
        f" listener closed at {closed_at - signalled:.2f} s, exit at {exited - signalled:.2f} s"
    )
    print(f"s1 with --workers {workers}: {summary}")
    assert all(r.ok for r in requests), describe(requests) + "\n" + summary
    assert len(in_flight) >= CLIENTS - 4, summary
    assert len(after) >= CLIENTS, summary
    assert s1.proc.returncode == 0, s1.log
    assert drain_at - signalled < 0.5
    # HAProxy took it out within its drain grace, before it stopped accepting.
    assert down_at - signalled < DRAIN_GRACE, summary
    assert down_at < closed_at, summary
    assert exited - signalled <= DRAIN_GRACE + SHUTDOWN_GRACE + 1, summary
    assert s2.proc.poll() is None


@needs_haproxy
def test_sigkill_of_one_server_new_requests_are_still_answered(rig):
    s1, s2 = rig.servers("s1", "s2")
    proxy = rig.haproxy([s1, s2])
    load = Load(proxy.port)
    time.sleep(1.0)
    s2.proc.send_signal(signal.SIGKILL)
    s2.proc.wait(5)
    killed = time.monotonic()
    down_at = proxy.down_at("s2", timeout=5)
    time.sleep(0.5)
    requests = load.stop()

    before = [r for r in requests if r.started < killed]
    after = [r for r in requests if r.started >= killed]
    lost = [r for r in before if not r.ok]
    on_s1 = s1.served(after)
    backend = proxy.stat()["BACKEND"]
    summary = (
        f"{len(requests)} requests: {len(before)} sent before SIGKILL ({len(lost)} lost, in flight on s2),"
        f" {len(after)} after it; HAProxy retried {backend['wretr']} connection(s) and redispatched"
        f" {backend['wredis']}; s2 marked DOWN {down_at - killed:.2f} s after it died"
    )
    print(summary)
    # Only connections that were open on the killed server may fail. The client
    # ports wrap around in a long run: a lost request's port may come back for
    # a later request s1 served, so s1 may log a port no more often than
    # answered requests had it.
    logged = collections.Counter(s1.client_ports())
    answered = collections.Counter(r.local_port for r in requests if r.ok)
    assert not any(logged[r.local_port] > answered[r.local_port] for r in lost), describe(before) + "\n" + summary
    assert all(r.ok for r in after), describe(after) + "\n" + summary
    assert len(after) >= CLIENTS, summary
    assert all(r.local_port in on_s1 for r in after), summary
    # Connections sent to s2 before HAProxy saw it down were retried on s1.
    assert int(backend["wredis"]) > 0, summary
    assert down_at - killed < DRAIN_GRACE, summary


# -- the one-machine recipe (issue 17) --------------------------------------------------


def test_the_local_recipe_keeps_every_setting_of_the_main_one():
    recipe, local = RECIPE.read_text(), LOCAL_RECIPE.read_text()
    settings = [
        line
        for line in recipe.splitlines()
        if re.match(r"\s*(timeout|retries|option|balance|tcp-check|default-server|mode)\b", line)
    ]
    assert len(settings) >= 12
    for line in settings:
        assert line in local.splitlines(), line
    configured = [line.split() for line in local.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert ["bind", "127.0.0.1:9999"] in configured
    assert ["server", "s1", "127.0.0.1:10001"] in configured and ["server", "s2", "127.0.0.1:10002"] in configured
    assert not any(words[0] in ("user", "group", "daemon", "chroot") for words in configured)
    assert "10.0.0." not in "\n".join(" ".join(words) for words in configured)


def test_every_recipe_server_command_sets_a_trusted_proxy():
    from sudoku_server.app.cli import build_parser, check_proxy_options

    local = recipe_commands(LOCAL_RECIPE.read_text())
    assert [command[command.index("--port") + 1] for command in local] == ["10001", "10002"]
    for recipe, trusted in ((LOCAL_RECIPE, ["127.0.0.1/32"]), (RECIPE, ["10.0.0.10/32"])):
        commands = recipe_commands(recipe.read_text())
        assert commands, recipe
        for command in commands:
            parser = build_parser()
            args = parser.parse_args(command[3:] if command[0] == "python3" else command[1:])
            check_proxy_options(parser, args)  # exits (fails the test) on --proxy-protocol without a trusted proxy
            assert args.proxy_protocol and [str(n) for n in args.trusted_proxy] == trusted, command


@needs_haproxy
def test_the_local_recipe_in_front_of_its_two_servers(rig):
    s1, s2 = rig.recipe_servers(recipe_commands(LOCAL_RECIPE.read_text()))
    proxy = rig.haproxy([s1, s2], local=True)
    results = ask_concurrently(proxy.port, 16)
    assert len(results) == 16 and all(r.ok for r in results), describe(results)  # the exact answers
    clients = {r.local_port for r in results}
    deadline = time.monotonic() + 10
    while len(s1.client_ports()) + len(s2.client_ports()) < len(clients) and time.monotonic() < deadline:
        time.sleep(0.05)
    on_s1, on_s2 = set(s1.client_ports()), set(s2.client_ports())
    # Each server logged the client's own port as the PROXY header claimed it,
    # "via 127.0.0.1": the trusted proxy it came through (client_ports' pattern).
    assert on_s1 | on_s2 == clients and not on_s1 & on_s2, (sorted(clients), s1.log, s2.log)
    assert "refused" not in s1.log + s2.log
