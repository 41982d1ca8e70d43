"""SIGUSR1 under ``--workers`` leaves the metrics process alone; the process ends as soon as the server stopped.

Issue 32: SIGUSR1 (documented in OPERATIONS.md as "each worker logs one
``stats:`` line") killed the ``--metrics-port`` child, which the supervisor
restarted 0.5 s later, on another port when the port was 0; and the process
exited about 2 s after ``server stopped`` (the interpreter freeing its heap).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request

from tests.support.paths import REPO


class _Server:
    """``python -m sudoku_server --host 127.0.0.1 --port 0 ARGS`` in its own process group, its log read by a thread."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-W", "error", "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", *args],
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self.lines.append(raw.decode("utf-8", "replace"))

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_for(self, pattern: str, count: int = 1, timeout: float = 30) -> list:
        deadline = time.monotonic() + timeout
        while True:
            found = re.findall(pattern, self.log)
            if len(found) >= count:
                return found
            assert time.monotonic() < deadline, f"{pattern!r} x{count} not in the log:\n{self.log}"
            time.sleep(0.05)

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self._reader.join(5)
        if self.proc.stderr is not None:
            self.proc.stderr.close()


def _scrape(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        body = reply.read()
    assert b"\nsudoku_connections_total " in body
    return reply.status


def test_sigusr1_to_the_supervisor_and_to_the_group_leaves_the_metrics_process_serving():
    server = _Server("--workers", "2", "--metrics-port", "0")
    try:
        (port,) = server.wait_for(r"metrics on http://127\.0\.0\.1:(\d+)/metrics \(all workers\)")
        server.wait_for(r"worker \d+ ready", count=2)
        assert _scrape(int(port)) == 200
        os.kill(server.proc.pid, signal.SIGUSR1)  # the supervisor passes it on to the workers
        server.wait_for(r"\[\d+\] stats: connections=", count=2)
        os.killpg(server.proc.pid, signal.SIGUSR1)  # the whole group: the metrics process gets it too
        server.wait_for(r"\[\d+\] stats: connections=", count=4)  # each worker again (twice at once counts once)
        time.sleep(1.0)  # twice the metrics restart back-off: a dead metrics process would have been seen
        assert "died" not in server.log
        assert _scrape(int(port)) == 200  # the same process, on the same port
        os.kill(server.proc.pid, signal.SIGTERM)
        assert server.proc.wait(timeout=30) == 0
        server._reader.join(5)
        assert re.search(r"INFO metrics \d+ stopped \(exit status 0\)\n", server.log), server.log
        assert server.log.endswith(f"INFO supervisor {server.proc.pid}: stopped\n"), server.log
        assert len(re.findall(r"metrics on http://", server.log)) == 1  # never restarted
    finally:
        server.close()


def test_a_name_filter_reads_every_workers_metrics():
    """A second break session's finding: under ``--workers`` a ``?name[]=`` scrape was empty (the merged collector
    names no metric, and the registry left such collectors out of a filter)."""
    server = _Server("--workers", "2", "--metrics-port", "0")
    try:
        (port,) = server.wait_for(r"metrics on http://127\.0\.0\.1:(\d+)/metrics \(all workers\)")
        server.wait_for(r"worker \d+ ready", count=2)
        url = f"http://127.0.0.1:{port}/metrics?name[]=sudoku_connections_total&name[]=sudoku_connections_open"
        with urllib.request.urlopen(url, timeout=10) as reply:
            names = sorted({line.split()[0] for line in reply.read().decode().splitlines() if not line.startswith("#")})
        assert names == ["sudoku_connections_open", "sudoku_connections_total"]
    finally:
        server.close()


def test_a_stopped_server_exits_zero_with_server_stopped_as_its_last_line():
    server = _Server()
    try:
        server.wait_for(r"listening on 127\.0\.0\.1:\d+")
        server.wait_for(r"solver thread\(s\)")
        os.kill(server.proc.pid, signal.SIGUSR1)
        server.wait_for(r" INFO stats: connections=0 ")
        os.kill(server.proc.pid, signal.SIGTERM)
        assert server.proc.wait(timeout=30) == 0
        server._reader.join(5)
        assert server.lines[-1].endswith(" INFO server stopped\n"), server.log
    finally:
        server.close()


def test_exit_now_runs_the_exit_handlers_flushes_and_ends_with_the_status():
    """runtime.exit_now skips the interpreter's teardown, not the exit handlers nor buffered output."""
    script = textwrap.dedent(
        """
        import atexit, sys
        from sudoku_server.app import runtime
        atexit.register(lambda: sys.stderr.write("exit handler ran\\n"))
        sys.stdout.write("buffered, not yet flushed")
        runtime.exit_now(3)
        sys.stdout.write("never")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (3, "buffered, not yet flushed", "exit handler ran\n")
