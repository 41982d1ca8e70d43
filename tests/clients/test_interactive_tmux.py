"""A person at the keyboard, for real: nc and telnet in tmux, typing with pauses (issue 11).

Each test starts the real server, runs the client in a detached tmux session,
types a bordered grid row by row (``send-keys``), reads the screen
(``capture-pane``), waits past the close grace, types a second puzzle, and
ends with QUIT. Skipped where tmux or the client is missing (``.ci/run``
installs them).
"""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid

import pytest

from tests.support.examples import NEWSPAPER, NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.servers import start_server_process, stop_server_process

ANSWER_ROW = "| 7 9 8 | 6 3 5 | 4 2 1 |"  # the first solved row of NEWSPAPER


class Tmux:
    """One detached tmux session on a private server socket."""

    def __init__(self, command: str) -> None:
        self.socket = f"sudoku-test-{uuid.uuid4().hex[:8]}"
        # The wrapper keeps the pane (and its last screen) after the client exits.
        wrapped = f'{command}; echo "[client exited $?]"; sleep 60'
        self._run("new-session", "-d", "-s", "t", "-x", "120", "-y", "80", wrapped)

    def _run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout

    def type_line(self, text: str) -> None:
        self._run("send-keys", "-t", "t", "-l", text)
        self._run("send-keys", "-t", "t", "Enter")

    def screen(self) -> str:
        return self._run("capture-pane", "-p", "-t", "t", "-S", "-200")

    def wait_for(self, text: str, timeout: float = 5.0, count: int = 1) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if screen.count(text) >= count:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on the screen:\n{screen}")
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def server():
    proc, host, port = start_server_process()
    try:
        yield host, port
    finally:
        stop_server_process(proc)


def typing_session(tmux: Tmux, prompt_after_close: bool) -> None:
    """Type a grid row by row (about 2 s in all), a puzzle later, then QUIT."""
    for row in NEWSPAPER.splitlines():
        tmux.type_line(row)
        time.sleep(0.15)
    tmux.wait_for(ANSWER_ROW)
    time.sleep(1.0)  # twice the close grace: a piped session would be over
    tmux.type_line(NEWSPAPER_LINE)
    tmux.wait_for(NEWSPAPER_SOLUTION)
    tmux.type_line("QUIT")
    tmux.wait_for("BYE")
    if prompt_after_close:
        # nc notices the closed connection only when a write fails: the
        # server lingers 2 s after BYE, then an Enter or two end nc.
        for _ in range(8):
            if "[client exited" in tmux.screen():
                break
            tmux.type_line("")
            time.sleep(0.6)


@pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("nc.openbsd") is None, reason="needs tmux and nc (netcat-openbsd)"
)
def test_typing_into_nc(server):
    host, port = server
    tmux = Tmux(f"nc.openbsd {host} {port}")
    try:
        typing_session(tmux, prompt_after_close=True)
        screen = tmux.wait_for("[client exited 0]")
    finally:
        tmux.close()
    assert screen.count(ANSWER_ROW) == 1 and screen.count(NEWSPAPER_SOLUTION) == 1


@pytest.mark.skipif(shutil.which("tmux") is None or shutil.which("telnet") is None, reason="needs tmux and telnet")
def test_typing_into_telnet(server):
    host, port = server
    tmux = Tmux(f"telnet {host} {port}")
    try:
        tmux.wait_for("Escape character")
        typing_session(tmux, prompt_after_close=False)
        screen = tmux.wait_for("Connection closed by foreign host.")
    finally:
        tmux.close()
    assert screen.count(ANSWER_ROW) == 1 and screen.count(NEWSPAPER_SOLUTION) == 1
    assert "command not found" not in screen  # nothing typed reached a shell
