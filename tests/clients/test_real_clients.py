"""Real command-line clients against the real server, exact bytes.

Each client sends ``puzzles/newspaper.txt`` and must print exactly
``puzzles/newspaper.expected`` and exit by itself, quickly. Clients that never
half-close (plain ``nc``, ``nc.traditional``, bash ``/dev/tcp``) rely on the
server's close grace (0.5 s after the last answer); the others half-close at
end of input. A client is skipped only when its binary is not installed
(.ci/run installs them all).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.binaries import find_binary

REPO = Path(__file__).resolve().parents[2]
PUZZLES = REPO / "puzzles"
NEWSPAPER = PUZZLES / "newspaper.txt"

#: Seconds before a hung client is killed and the test fails.
RUN_TIMEOUT = 15
#: Seconds a client may take from start to exit: the answer is immediate, then
#: at most the 0.5 s close grace and the client's own shutdown.
MAX_ELAPSED = 5.0


def require(*names: str) -> str:
    path = find_binary(*names)
    if path is None:
        pytest.skip("%s is not installed" % " / ".join(names))
    return path


def require_busybox_nc() -> str:
    busybox = require("busybox")
    applets = subprocess.run([busybox, "--list"], capture_output=True, text=True).stdout
    if "nc" not in applets.split():
        pytest.skip("busybox has no nc applet")
    return busybox


def nc_openbsd() -> str:
    return require("/bin/nc.openbsd", "nc.openbsd")


# Each builder takes (port, request file) and returns (argv, stdin file or None).
Command = Callable[[int, Path], "tuple[list[str], Path | None]"]

CLIENTS: dict[str, Command] = {
    # No -N: nc never half-closes; the server's close grace ends the session.
    "nc.openbsd": lambda port, path: ([nc_openbsd(), "127.0.0.1", str(port)], path),
    "nc.openbsd -N": lambda port, path: ([nc_openbsd(), "-N", "127.0.0.1", str(port)], path),
    "ncat": lambda port, path: ([require("ncat"), "127.0.0.1", str(port)], path),
    # nc.traditional neither half-closes nor quits at end of input: it exits
    # when the server closes.
    "nc.traditional": lambda port, path: (
        [require("/bin/nc.traditional", "nc.traditional"), "127.0.0.1", str(port)],
        path,
    ),
    "busybox nc": lambda port, path: (
        [require_busybox_nc(), "nc", "127.0.0.1", str(port)],
        path,
    ),
    "socat -t 30": lambda port, path: (
        [require("socat"), "-t", "30", "-", "TCP:127.0.0.1:%d" % port],
        path,
    ),
    "bash /dev/tcp": lambda port, path: (
        [
            require("bash"),
            "-c",
            'exec 3<>/dev/tcp/127.0.0.1/%d; cat "$1" >&3; cat <&3' % port,
            "bash",
            str(path),
        ],
        None,
    ),
}


def run(argv: list[str], stdin_path: Path | None) -> tuple[subprocess.CompletedProcess, float]:
    """Run *argv* with *stdin_path* as standard input; return it and its seconds."""
    started = time.monotonic()
    if stdin_path is None:
        result = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, cwd=REPO, timeout=RUN_TIMEOUT)
    else:
        with open(stdin_path, "rb") as stdin:
            result = subprocess.run(argv, stdin=stdin, capture_output=True, cwd=REPO, timeout=RUN_TIMEOUT)
    return result, time.monotonic() - started


@pytest.mark.parametrize("client", list(CLIENTS))
def test_newspaper(server_address, client, wallclock):
    _, port = server_address
    argv, stdin_path = CLIENTS[client](port, NEWSPAPER)
    expected = (PUZZLES / "newspaper.expected").read_bytes()
    result, elapsed = run(argv, stdin_path)
    assert result.stdout == expected, result.stderr
    assert result.returncode == 0, result.stderr
    wallclock.below(elapsed, MAX_ELAPSED, "the client's run")


@pytest.mark.parametrize("client", ["nc.openbsd", "nc.openbsd -N"])
def test_top95(server_address, client):
    # PROTOCOL.md: `nc host 9999 < top95.txt` prints 95 lines.
    _, port = server_address
    argv, stdin_path = CLIENTS[client](port, PUZZLES / "norvig_top95.txt")
    expected = (PUZZLES / "norvig_top95.expected").read_bytes()
    result, _ = run(argv, stdin_path)
    assert result.stdout == expected, result.stderr
    assert len(result.stdout.splitlines()) == 95
    assert result.returncode == 0, result.stderr


def test_empty_grid_with_nc_n(server_address, wallclock):
    _, port = server_address
    argv, stdin_path = CLIENTS["nc.openbsd -N"](port, PUZZLES / "empty.txt")
    expected = (PUZZLES / "empty.expected").read_bytes()
    result, elapsed = run(argv, stdin_path)
    assert result.stdout == expected, result.stderr
    assert result.returncode == 0, result.stderr
    wallclock.below(elapsed, MAX_ELAPSED, "the client's run")


def test_telnet_with_a_pause(server_address, wallclock):
    # PROTOCOL.md, known client limits: `telnet host port < file` quits at end
    # of input before any answer, so the input is piped with a pause after it.
    # The server's close grace then ends the session; telnet adds its own
    # "Trying/Connected/Escape character" lines before the answer.
    _, port = server_address
    telnet = require("telnet")
    script = '(cat "$1"; sleep 2) | "$2" 127.0.0.1 %d' % port
    argv = [require("bash"), "-c", script, "bash", str(NEWSPAPER), telnet]
    expected = (PUZZLES / "newspaper.expected").read_bytes()
    result, elapsed = run(argv, None)
    assert result.stdout.startswith(b"Trying 127.0.0.1...\n"), result.stdout
    assert result.stdout.endswith(b"Escape character is '^]'.\n" + expected), result.stdout
    assert result.returncode == 0, result.stderr
    wallclock.below(elapsed, MAX_ELAPSED, "the client's run")
