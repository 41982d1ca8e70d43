"""The sudoku-server command line: --version, --help, and a busy port."""

from __future__ import annotations

import re
import subprocess
import sys

from sudoku_server.app.workers import MAX_WORKERS
from sudoku_server.wire.session import INTERACTIVE_AFTER
from tests.support.paths import REPO
from tests.support.servers import start_server_process, stop_server_process


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_server", *args], cwd=REPO, capture_output=True, text=True, timeout=30
    )


def test_version():
    result = run("--version")
    assert (result.returncode, result.stdout) == (0, "sudoku-server 0.3.0 (protocol 2)\n")


def test_help_lists_every_option():
    out = run("--help").stdout
    for option in (
        "--host",
        "--port",
        "--solve-timeout",
        "--idle-timeout",
        "--close-grace",
        "--max-line-bytes",
        "--max-connections",
        "--solver-threads",
        "--shutdown-grace",
        "--interactive-timeout",
        "--queue-timeout",
        "--connection-budget",
        "--budget-window",
        "--log-level",
        "--log-queue",
        "--version",
    ):
        assert option in out, option


def test_a_port_in_use_is_named_with_a_hint():
    proc, host, port = start_server_process()
    try:
        result = run("--host", host, "--port", str(port))
    finally:
        stop_server_process(proc)
    assert result.returncode == 1
    assert re.search(
        rf" ERROR cannot listen on {re.escape(host)} port {port}: Address already in use"
        r" \(is another server running\? choose another with --port\)\n$",
        result.stderr,
    ), result.stderr


def test_option_bounds_come_from_their_one_definition():
    result = run("--workers", str(MAX_WORKERS + 1))
    assert result.returncode == 2
    assert f"--workers: must be 1..{MAX_WORKERS} or auto, got {MAX_WORKERS + 1}" in result.stderr, result.stderr
    assert f"arrive over more than {INTERACTIVE_AFTER:g} s" in " ".join(run("--help").stdout.split())
