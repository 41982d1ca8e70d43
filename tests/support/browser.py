"""The web page's tests: the real server with its HTTP port (``Server``), the page in headless Chromium as a
person uses it (``Page``), and what the browser needs (chromium, chromedriver: a skip, or a failure under CI).

The fixtures (``server``, ``browser``, ``shots``, ``page``) are in tests/conftest.py.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.support.paths import PUZZLES, REPO
from tests.support.wallclock import Bounds

#: A 9x9 action's bound from click to its answer on screen, in seconds: the figure is 200 ms
#: (benchmarks/bench_web.py measures it); the tests allow a noisy, shared CI machine 10 times that.
ACTION_BOUND = 2.0
#: The puzzles: a hard 9x9 whose first step is a hidden single (Norvig's hardest list),
#: the README's grid, a 4x4 (GENERATE size=4 seed=5), duplicate givens, and a letter.
HINTED = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NEWSPAPER = (PUZZLES / "newspaper.txt").read_text()
SMALL = ".3...24....1..3."
INVALID = "11" + "." * 79
NOT_A_DIGIT = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.x"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1")


def missing_or_skip(what: str) -> None:
    """Skip (fail under CI) because ``what`` is missing."""
    if in_ci():
        pytest.fail(f"CI is set but {what} is missing (.ci/run installs chromium and chromium-driver)")
    pytest.skip(f"{what} is missing (apt-get install chromium chromium-driver)")


def find_binary(*names: str) -> str | None:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


# -- the server and the browser ------------------------------------------------------------


class Server:
    """The real server in a subprocess: its line port and HTTP port (read from its log), its log lines."""

    _LINE = re.compile(r"listening on (\S+):(\d+)")
    _HTTP = re.compile(r"HTTP on http://(\S+):(\d+)/")

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", "--http-port", "0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        self.log: list[str] = []
        self.line_port = self.http_port = 0
        ready = threading.Event()
        self.reader = threading.Thread(target=self._read, args=(ready,), daemon=True)
        self.reader.start()
        if not ready.wait(30) or not (self.line_port and self.http_port):
            self.stop()
            raise RuntimeError("server did not start:\n" + "".join(self.log))

    def _read(self, ready: threading.Event) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:  # read to the end, so that the log never fills the pipe
            line = raw.decode("utf-8", "replace")
            self.log.append(line)
            if match := self._LINE.search(line):
                self.line_port = int(match.group(2))
            if match := self._HTTP.search(line):
                self.http_port = int(match.group(2))
            if self.line_port and self.http_port:
                ready.set()
        ready.set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/"

    def replies(self, request: str) -> list[str]:
        """The reply lines to ``request`` on the line port: sent as a pipe sends it, then end of input."""
        with socket.create_connection(("127.0.0.1", self.line_port), timeout=30) as sock:
            sock.sendall(f"{request}\n".encode())
            sock.shutdown(socket.SHUT_WR)
            return sock.makefile("r", encoding="utf-8").read().splitlines()

    def ask(self, request: str) -> str:
        """The first line of the reply to ``request`` on the line port."""
        return self.replies(request)[0]

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        self.reader.join(10)
        assert self.proc.stderr is not None
        self.proc.stderr.close()


class Page:
    """The page in the browser, as a person uses it: paste, click a button by its words, read cells."""

    def __init__(self, driver, server: Server, shots: Path, name: str, bounds: Bounds) -> None:
        from selenium.webdriver.common.by import By

        self.by = By
        self.driver = driver
        self.shots = shots
        self.name = name
        self.shot_count = 0
        self.timings: list[tuple[str, float]] = []
        self.bounds = bounds
        driver.get(server.url)
        self.wait(lambda: driver.execute_script("return document.querySelectorAll('[data-cell]').length") > 0)

    def wait(self, ready, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline:
                raise AssertionError(f"page not ready within {timeout} s; console: {self.console()}")
            time.sleep(0.01)

    def console(self) -> list:
        return self.driver.get_log("browser")

    def element(self, css: str):
        return self.driver.find_element(self.by.CSS_SELECTOR, css)

    def paste(self, text: str) -> None:
        box = self.element('textarea[name="puzzle"]')
        box.clear()
        # a paste, as the clipboard would deliver it (send_keys would type it key by key)
        self.driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", box, text
        )

    def click(self, words: str, bound: float | None = ACTION_BOUND) -> float:
        """Click the button whose text is ``words``; wait until its answer is on screen. Returns the page's ms.

        ``bound``: the seconds it may take (None: not bounded, for sizes over 9x9), asserted with
        ``--wallclock-bounds`` (tests/support/wallclock.py).
        """
        done = self.driver.execute_script("return Number(document.body.dataset.done || 0)")
        self.driver.find_element(self.by.XPATH, f"//button[text()='{words}']").click()
        self.wait(lambda: self.driver.execute_script("return Number(document.body.dataset.done || 0)") > done)
        ms = float(self.driver.execute_script("return document.body.dataset.ms"))
        self.timings.append((words, ms))
        print(f"{self.name}: {words} on screen in {ms:.1f} ms")
        if bound is not None:
            self.bounds.below(ms / 1000, bound, f"{words} on screen")
        return ms

    def cells(self) -> list[str]:
        """Every cell's value, row-major ("" for an empty one)."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll('[data-cell]')].map((cell) => cell.value)"
        )

    def line(self) -> str:
        return "".join(value or "." for value in self.cells())

    def cell(self, name: str):
        return self.element(f'[data-cell="{name}"]')

    def names(self, css: str) -> list[str]:
        """The names (r1c1) of the cells that match ``css`` (``.lit``)."""
        return [element.get_attribute("data-cell") for element in self.driver.find_elements(self.by.CSS_SELECTOR, css)]

    def text(self, css: str) -> str:
        return self.element(css).text

    def shot(self, state: str) -> Path:
        self.shot_count += 1
        path = self.shots / f"{self.name}-{self.shot_count}-{state}.png"
        assert self.driver.save_screenshot(str(path)), path
        return path


def solution_of(server: Server, puzzle: str) -> str:
    """The solution as one line, from the line port (a one-line puzzle is answered in one line)."""
    reply = server.ask(puzzle)
    assert re.fullmatch(r"[1-9A-Za-z]+", reply), reply
    return reply


def done(page: Page) -> int:
    """How many actions the page has finished (``<body data-done>``)."""
    return page.driver.execute_script("return Number(document.body.dataset.done || 0)")


def paste_read(page: Page, text: str) -> None:
    """Paste ``text`` and wait until the page has read it onto the grid (no button pressed)."""
    before = done(page)
    page.paste(text)
    page.wait(lambda: done(page) > before)
