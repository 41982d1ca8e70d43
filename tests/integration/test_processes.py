"""Issue 17, processes: no worker alive, the metrics child's back-off, the metrics port's bounds, option bounds."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from sudoku_server.app import cli
from sudoku_server.app.workers import RESCUE_DELAY
from sudoku_server.net import metrics_http
from sudoku_server.net.config import MAX_SECONDS
from sudoku_server.net.metrics_http import HTTP_POLL, HTTP_TIMEOUT, CachedApp, serve_http
from tests.support.paths import REPO
from tests.support.workers import GOOD, GOOD_ANSWER, Supervised

# -- workers: a port that accepts must serve ------------------------------------------


@pytest.fixture
def supervised():
    """Makes :class:`test_workers.Supervised` servers; kills them (and their workers) after the test."""
    made: list[Supervised] = []

    def make(*args: str) -> Supervised:
        made.append(Supervised(*args))
        return made[-1]

    yield make
    for server in made:
        server.stop()


def alive_workers(server: Supervised) -> set[int]:
    """Workers the supervisor's log says it started and that have not died yet."""
    log = server.log
    return {int(p) for p in re.findall(r"worker (\d+) started", log)} - {
        int(p) for p in re.findall(r"worker (\d+) died", log)
    }


def kill_all(server: Supervised) -> None:
    for pid in alive_workers(server):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_with_no_worker_alive_one_serves_within_a_second_whatever_the_back_off(supervised, wallclock):
    server = supervised("--workers", "2")
    server.wait_for(r"worker \d+ ready", 2)
    # Kill both slots over and over: each death doubles the back-off (0.5, 1, 2, 4 ... 30 s).
    storm_end = time.monotonic() + 2.5
    while time.monotonic() < storm_end:
        kill_all(server)
        time.sleep(0.15)
    deaths = server.wait_for(r"worker \d+ died \(signal SIGKILL\) after [\d.]+ s: restarting it in ([\d.]+) s", 5)
    assert max(float(d) for d in deaths) >= 2  # the back-off did grow
    time.sleep(0.4)  # the last rescued worker is up again
    kill_all(server)  # every worker now
    killed = time.monotonic()
    answer = server.ask(GOOD, timeout=10)  # waits in the backlog until a worker accepts
    took = time.monotonic() - killed
    assert answer == GOOD_ANSWER
    wallclock.below(took, 1.5, "with no worker alive, until one serves")
    # The log says the real delay, and the back-off the others keep.
    rescues = re.findall(
        r"worker \d+ died \(signal SIGKILL\) after [\d.]+ s: "
        r"restarting it in ([\d.]+) s \(no worker left; back-off ([\d.]+) s\)",
        server.log,
    )
    assert rescues and all(float(delay) == RESCUE_DELAY for delay, _ in rescues), server.log
    assert max(float(backoff) for _, backoff in rescues) >= 4, server.log


def test_the_metrics_child_backs_off_and_the_log_says_the_real_delay(supervised):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        server = supervised("--workers", "1", "--metrics-port", str(port))
        server.wait_for(r"worker \d+ ready")
        time.sleep(3.0)
        log = server.log
    finally:
        taken.close()
    delays = re.findall(r"metrics \d+ died \(exit status 1\) after [\d.]+ s: restarting it in ([\d.]+) s", log)
    # Started at once, then after 0.5, 1, 2 s: 3 deaths in 3 s (the issue saw 43-110 a second).
    assert 2 <= len(delays) <= 4, log
    assert delays == ["0.5", "1", "2", "4"][: len(delays)], log
    assert log.count(f"metrics: cannot listen on port {port}: Address already in use") == len(delays)


# -- the metrics port -------------------------------------------------------------------


def metrics_server(*args: str) -> tuple[subprocess.Popen, int, threading.Thread]:
    """A single-process server with ``--metrics-port 0``; returns it, its metrics port and its log reader."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", *args],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    lines: list[str] = []
    assert proc.stderr is not None
    for raw in proc.stderr:
        lines.append(raw.decode())
        found = re.search(r"metrics on http://127\.0\.0\.1:(\d+)/metrics", lines[-1])
        if found:
            reader = threading.Thread(target=lambda: [lines.append(r.decode()) for r in proc.stderr], daemon=True)
            reader.start()
            return proc, int(found.group(1)), reader
    proc.wait()
    proc.stderr.close()
    raise AssertionError("".join(lines))


def closed_after(sock: socket.socket, started: float) -> float:
    """Seconds from ``started`` until the server closes ``sock`` (reads until the end; a reply counts as read)."""
    sock.settimeout(HTTP_TIMEOUT + 5)
    while sock.recv(65536):
        pass
    return time.monotonic() - started


def test_half_sent_and_idle_connections_are_closed_at_the_timeout_and_the_scrape_still_answers(wallclock):
    proc, port, reader = metrics_server()
    try:
        started = time.monotonic()
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
        half = []
        for _ in range(8):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")  # never the blank line that ends it
            half.append(sock)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            assert response.status == 200
            body = response.read().decode()
        wallclock.below(time.monotonic() - started, 1, "a scrape beside the held connections")
        assert "\nsudoku_connections_total 0.0\n" in body and "sudoku_solve_seconds_bucket" in body
        times = [closed_after(sock, started) for sock in idle + half]
        for sock in idle + half:
            sock.close()
    finally:
        proc.terminate()
        proc.wait(10)
        reader.join(5)
        assert proc.stderr is not None
        proc.stderr.close()
    # Closed 3 s after accept: idle ones by the socket timeout, half-sent ones by the deadline (looked at every 0.25 s).
    assert all(t >= HTTP_TIMEOUT - 0.05 for t in times), times
    wallclock.at_most(max(times), HTTP_TIMEOUT + HTTP_POLL + 0.75, "the last close after the timeout")


def test_connections_over_the_bound_are_closed_at_once_and_free_slots_serve(wallclock):
    registry = _Registry()
    server = serve_http(registry, "127.0.0.1", 0, timeout=2.0, connections=2)
    port = server.server_address[1]
    try:
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        time.sleep(0.1)
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", port)) as extra:
            # no slot: closed at once, nothing sent
            wallclock.below(closed_after(extra, started), 0.5, "a connection over the bound closed")
        for sock in held:
            sock.close()
        time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            assert response.read() == b"# HELP probe_total A probe\n# TYPE probe_total counter\nprobe_total 1.0\n"
    finally:
        server.shutdown()
        server.server_close()


class _Registry:
    """A collector whose every collect counts (a render)."""

    def __init__(self) -> None:
        self.renders = 0

    def collect(self):
        from prometheus_client.core import CounterMetricFamily

        self.renders += 1
        yield CounterMetricFamily("probe", "A probe", value=1)


def test_a_scrape_flood_renders_once_per_cache_period():
    registry = _Registry()
    server = serve_http(registry, "127.0.0.1", 0, rate=10000)  # 50 scrapes well within the cache's second
    port = server.server_address[1]
    try:
        for _ in range(50):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
                assert response.read().endswith(b"probe_total 1.0\n")
        first = registry.renders
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/", headers={"Accept": "application/openmetrics-text"}
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.read().endswith(b"# EOF\n")  # another kind of request: rendered for itself
    finally:
        server.shutdown()
        server.server_close()
    assert first == 1 and registry.renders == 2


def test_the_cache_renders_again_after_its_period():
    calls = []

    def app(environ, start_response):
        calls.append(1)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"n=%d\n" % len(calls)]

    cached = CachedApp(app, seconds=0.2)
    said = []
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/metrics", "QUERY_STRING": ""}
    assert cached(environ, lambda *a: said.append(a)) == [b"n=1\n"]
    assert cached(environ, lambda *a: said.append(a)) == [b"n=1\n"]
    time.sleep(0.25)
    assert cached(environ, lambda *a: said.append(a)) == [b"n=2\n"]
    assert said == [("200 OK", [("Content-Type", "text/plain")])] * 3
    assert (metrics_http.HTTP_CACHE_SECONDS, metrics_http.HTTP_ACCEPT_RATE) == (1.0, 50)  # as OPERATIONS.md says


def test_connections_are_accepted_at_the_documented_rate_at_most():
    server = serve_http(_Registry(), "127.0.0.1", 0)
    port = server.server_address[1]
    try:
        started = time.monotonic()
        for _ in range(26):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
                assert response.status == 200
        took = time.monotonic() - started
    finally:
        server.shutdown()
        server.server_close()
    assert took >= 25 / metrics_http.HTTP_ACCEPT_RATE - 0.01, took  # 26 accepts: 25 intervals of 20 ms


# -- option bounds ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "bound"),
    [
        ("--drain-grace", "inf", "0..86400"),
        ("--drain-grace", "nan", "0..86400"),
        ("--drain-grace", "-1", "0..86400"),
        ("--drain-grace", "86401", "0..86400"),
        ("--shutdown-grace", "1e400", "above 0 and at most 86400"),
        ("--close-grace", "inf", "above 0 and at most 86400"),
        ("--idle-timeout", "-inf", "above 0 and at most 86400"),
        ("--interactive-timeout", "1e9", "above 0 and at most 86400"),
        ("--solve-timeout", "NaN", "above 0 and at most 86400"),
        ("--queue-timeout", "0", "above 0 and at most 86400"),
        ("--connection-budget", "inf", "above 0 and at most 86400"),
        ("--budget-window", "100000", "above 0 and at most 86400"),
    ],
)
def test_an_infinite_or_absurd_grace_or_timeout_is_refused(option, value, bound, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--port", "0", f"{option}={value}"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == f"sudoku-server: error: argument {option}: must be {bound} seconds, got {value}"


def test_the_bounds_themselves_are_accepted():
    args = cli.build_parser().parse_args(["--drain-grace", "0", "--shutdown-grace", "86400", "--close-grace", "0.01"])
    assert (args.drain_grace, args.shutdown_grace, args.close_grace) == (0.0, MAX_SECONDS, 0.01)


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, **(env or {})},
    )


def test_drain_grace_inf_refused_at_start():
    result = run("--drain-grace", "inf")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "sudoku-server: error: argument --drain-grace: must be 0..86400 seconds, got inf"
    )


@pytest.mark.parametrize("workers", [(), ("--workers", "2")])
def test_a_missing_multiprocess_dir_is_named(workers):
    result = run(*workers, env={"PROMETHEUS_MULTIPROC_DIR": "/nonexistent"})
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "sudoku-server: error: PROMETHEUS_MULTIPROC_DIR=/nonexistent is not a directory"
    )
    assert "cannot listen" not in result.stderr


def test_a_multiprocess_dir_that_is_a_file_is_named(tmp_path):
    path = tmp_path / "file"
    path.write_text("")
    result = run(env={"PROMETHEUS_MULTIPROC_DIR": str(path)})
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == f"sudoku-server: error: PROMETHEUS_MULTIPROC_DIR={path} is not a directory"
