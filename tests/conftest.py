"""Shared fixtures.

``server_address`` starts the real server (``python -m sudoku_server``) in a
subprocess on 127.0.0.1 with an ephemeral port and yields ``(host, port)``.
The port is read from the server's log line ``listening on HOST:PORT``.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudoku_server.sudoku import solver as _solver
from tests.support.balancers import HAProxy, Logged
from tests.support.balancers import Server as Backend
from tests.support.browser import Page, Server, find_binary, missing_or_skip
from tests.support.native import native_core_or_skip
from tests.support.servers import start_server_process
from tests.support.workers import Supervised


@pytest.fixture(params=["python", "native"])
def core(request):
    """Each solver core in turn (sudoku_server.sudoku.solver.PYTHON, .NATIVE)."""
    return _solver.PYTHON if request.param == "python" else native_core_or_skip()


@pytest.fixture(scope="session")
def native():
    """The native solver core (skipped when not built; a failure under CI)."""
    return native_core_or_skip()


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


@pytest.fixture
def supervised():
    """``supervised(*args)`` starts a ``--workers`` server (tests.support.workers.Supervised); all stopped at the end."""
    made = []

    def make(*args):
        server = Supervised(*args)
        made.append(server)
        return server

    yield make
    for server in made:
        server.stop()


@pytest.fixture
def rig(tmp_path):
    """Starts servers and HAProxy, stops whatever is left at the end."""
    started: list[Logged] = []

    class Rig:
        def servers(self, *names: str, extra=()) -> list[Backend]:
            """One server per name; ``extra``: more arguments for the first one."""
            made = [Backend(name, *(extra if i == 0 else ())) for i, name in enumerate(names)]
            started.extend(made)
            return [server.started() for server in made]

        def recipe_servers(self, commands: list[list[str]]) -> list[Backend]:
            """One server per recipe command line (``python3 -m sudoku_server ...``), on a free port each."""
            made = []
            for number, command in enumerate(commands, start=1):
                argv = [sys.executable, "-W", "error", *command[1:]]
                argv[argv.index("--port") + 1] = "0"
                made.append(Backend(f"s{number}", argv=argv))
            started.extend(made)
            return [server.started() for server in made]

        def haproxy(self, servers: list[Backend], proxy_option: str = "send-proxy", local: bool = False) -> HAProxy:
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


# -- the web page's (tests/support/browser.py): one server and one browser per module, the page per test


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Path]:
    """The screenshots' folder (module docstring); its path is written to the terminal at the end."""
    chosen = os.environ.get("SUDOKU_SERVER_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("web-page")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"web page screenshots: {folder}")
    yield folder
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
        print(f"\nweb page screenshots: {folder} ({len(list(folder.glob('*.png')))} files)")


@pytest.fixture(scope="module")
def browser():  # -> selenium WebDriver
    chromium = find_binary("chromium", "chromium-browser")
    driver_path = find_binary("chromedriver")
    if chromium is None:
        missing_or_skip("chromium")
    if driver_path is None:
        missing_or_skip("chromedriver (chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing_or_skip("selenium (pip install -e '.[test]')")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, server: Server, shots: Path, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The page, loaded afresh for this test; no script error may reach the browser's console.

    (Chromium logs every 4xx reply as a network error: an error reply is an answer here, not a fault.)
    """
    loaded = Page(browser, server, shots, request.node.name.removeprefix("test_"))
    yield loaded
    errors = [
        entry for entry in loaded.console() if entry.get("level") == "SEVERE" and entry.get("source") != "network"
    ]
    assert not errors, errors
