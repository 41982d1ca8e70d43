"""A person at a terminal, for real: tmux runs the client in a shell against the
real server, and the test types into it with pauses (``send-keys``) and reads
the screen (``capture-pane``).

Skipped where tmux is missing (``.ci/run`` installs it). Each test runs its own
tmux server on a socket of its own (``tmux -L``) and kills only that one.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from tests.support.clienttools import CLIENT, PUZZLES, REPO

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")

NEWSPAPER = (PUZZLES / "newspaper.txt").read_text()
NEWSPAPER_ANSWER = (PUZZLES / "newspaper.expected").read_text()
INKALA = (PUZZLES / "inkala.txt").read_text()
INKALA_ANSWER = (PUZZLES / "inkala.expected").read_text()


class Tmux:
    """One tmux server (its own socket) with one window running *command*."""

    def __init__(self, command: str, width: int = 160, height: int = 60) -> None:
        self.socket = "sudoku-client-test-%s" % uuid.uuid4().hex[:12]
        self._tmux("new-session", "-d", "-s", "client", "-x", str(width), "-y", str(height), command)

    def _tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, "-f", os.devnull, *args], capture_output=True, text=True, timeout=10
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    def type_line(self, text: str) -> None:
        self._tmux("send-keys", "-t", "client", "-l", text)
        self._tmux("send-keys", "-t", "client", "Enter")

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "client", *keys)

    def screen(self) -> list[str]:
        """The window's lines (wrapped lines joined), trailing blank lines dropped."""
        lines = self._tmux("capture-pane", "-p", "-J", "-t", "client").split("\n")
        while lines and not lines[-1].strip():
            lines.pop()
        return [line.rstrip() for line in lines]

    def wait_screen(self, expected: list, timeout: float = 15) -> list[str]:
        """Wait until the screen is *expected* (strings, or compiled patterns for a line)."""
        expected = list(expected)
        while expected and expected[-1] == "":
            expected.pop()  # the screen has no trailing blank lines either
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if len(screen) == len(expected) and all(
                want.fullmatch(got) if isinstance(want, re.Pattern) else want == got
                for want, got in zip(expected, screen)
            ):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError("screen:\n%s\n\nexpected:\n%s" % ("\n".join(screen), expected))
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def _lines(text: str) -> list[str]:
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def test_a_person_types_two_puzzles_and_ends_with_ctrl_d(server_address):
    host, port = server_address
    client = "PYTHONPATH=%s %s %s --host %s --port %d" % (
        shlex.quote(str(REPO)),
        shlex.quote(sys.executable),
        shlex.quote(str(CLIENT)),
        host,
        port,
    )
    tmux = Tmux('cd %s && %s; echo "exit status $?"; sleep 60' % (shlex.quote(str(REPO)), client))
    try:
        hint = (
            "sudoku-client: connected to %s:%d; type or paste puzzles (each is answered when it is complete), Ctrl-D to end"
            % (host, port)
        )
        tmux.wait_screen([hint])
        # Row by row, with pauses longer than the server's close grace (0.5 s).
        for number, row in enumerate(_lines(NEWSPAPER), start=1):
            tmux.type_line(row)
            time.sleep(0.7 if number in (1, 5, 9) else 0.1)
        screen = [hint, *_lines(NEWSPAPER), *_lines(NEWSPAPER_ANSWER)]
        tmux.wait_screen(screen)
        time.sleep(1.0)  # the session stays open
        tmux.type_line(INKALA.rstrip("\n"))
        screen += [INKALA.rstrip("\n"), INKALA_ANSWER.rstrip("\n")]
        tmux.wait_screen(screen)
        tmux.keys("C-d")
        tmux.wait_screen(
            screen
            + [
                re.compile(r"sudoku-client: 2 puzzles: 2 solved, 0 errors; \d+\.\d\d s, \d+(\.\d)? puzzles/s"),
                "exit status 0",
            ]
        )
    finally:
        tmux.close()
