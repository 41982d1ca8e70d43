"""Shared fixtures.

``server_address`` starts the real server (``python -m sudoku_server``) in a
subprocess on 127.0.0.1 with an ephemeral port and yields ``(host, port)``.
The port is read from the server's log line ``listening on HOST:PORT``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_server.sudoku import solver as _solver

REPO = Path(__file__).resolve().parent.parent
PUZZLES = REPO / "puzzles"

#: Set (to anything but "" or "0") where the native solver core must be
#: present: tests that need it then fail instead of being skipped. .ci/run
#: sets it.
REQUIRE_NATIVE_ENV = "SUDOKU_SERVER_REQUIRE_NATIVE"


def native_core_or_skip():
    """The native solver core; skip the test when it is not built (fail under CI)."""
    if _solver.NATIVE is None:
        if os.environ.get(REQUIRE_NATIVE_ENV, "") not in ("", "0"):
            pytest.fail(f"{REQUIRE_NATIVE_ENV} is set but the native core is missing: {_solver.NATIVE_MISSING}")
        pytest.skip("the native core is not built (python3 -m pip install -e .)")
    return _solver.NATIVE


@pytest.fixture(params=["python", "native"])
def core(request):
    """Each solver core in turn (sudoku_server.sudoku.solver.PYTHON, .NATIVE)."""
    return _solver.PYTHON if request.param == "python" else native_core_or_skip()


@pytest.fixture(scope="session")
def native():
    """The native solver core (skipped when not built; a failure under CI)."""
    return native_core_or_skip()


_LISTENING = re.compile(r"listening on (\S+):(\d+)")


def start_server_process(*extra_args: str) -> tuple[subprocess.Popen, str, int]:
    """Start ``python -m sudoku_server --host 127.0.0.1 --port 0 EXTRA...``.

    Returns the process and the (host, port) it listens on. Raises
    RuntimeError if the server exits or prints no listening line in 20 s.
    """
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", *extra_args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=env,
    )
    lines = []
    assert proc.stderr is not None
    for raw in proc.stderr:
        line = raw.decode("utf-8", "replace")
        lines.append(line)
        match = _LISTENING.search(line)
        if match:
            return proc, match.group(1), int(match.group(2))
        if len(lines) > 50:
            break
    proc.kill()
    raise RuntimeError("server did not start:\n" + "".join(lines))


def stop_server_process(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()


@pytest.fixture(scope="session")
def server_address():
    """(host, port) of a real server subprocess shared by the whole session."""
    proc, host, port = start_server_process()
    # Drain stderr in the background so the server never blocks on a full pipe.
    import threading

    def drain():
        assert proc.stderr is not None
        for _ in proc.stderr:
            pass

    thread = threading.Thread(target=drain, daemon=True)
    thread.start()
    try:
        yield host, port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        thread.join(timeout=5)
        if proc.stderr is not None:
            proc.stderr.close()
