"""The browser tier's fixtures (tests/support/browser.py): one server and one browser per module, the page
loaded afresh for each test (no script error may reach the browser's console), and the screenshots' folder."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import Page, Server, find_binary, missing_or_skip


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
def page(browser, server: Server, shots: Path, wallclock, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The page, loaded afresh for this test; no script error may reach the browser's console.

    (Chromium logs every 4xx reply as a network error: an error reply is an answer here, not a fault.)
    """
    loaded = Page(browser, server, shots, request.node.name.removeprefix("test_"), wallclock)
    yield loaded
    errors = [
        entry for entry in loaded.console() if entry.get("level") == "SEVERE" and entry.get("source") != "network"
    ]
    assert not errors, errors
