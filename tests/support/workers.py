"""``python -W error -m sudoku_server --workers N`` as a supervised process group, and the request it is asked."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

from tests.support.examples import GOOD, GOOD_ANSWER  # noqa: F401 (GOOD_ANSWER: what a worker answers to GOOD)
from tests.support.paths import REPO


class Supervised:
    """``python -W error -m sudoku_server --workers N`` on 127.0.0.1, its log read by a thread."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-W", "error", "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", *args],
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: the cleanup reaches the workers too
        )
        self.lines: list = []
        self.port = None
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace")
            self.lines.append(line)
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
                break
        assert self.port, self.log
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        for raw in self.proc.stderr:
            self.lines.append(raw.decode("utf-8", "replace"))

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_for(self, pattern: str, count: int = 1, timeout: float = 15) -> list:
        deadline = time.monotonic() + timeout
        while True:
            found = re.findall(pattern, self.log)
            if len(found) >= count:
                return found
            assert time.monotonic() < deadline, f"{pattern!r} x{count} not in log:\n{self.log}"
            time.sleep(0.05)

    def ask(self, data: bytes = GOOD, timeout: float = 10) -> bytes:
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
            return sock.makefile("rb").read()

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self._reader.join(5)  # every process of the group is gone: the pipe is at its end
        self.proc.stderr.close()
