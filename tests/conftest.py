"""Shared fixtures, and each test's tier.

A test's tier is the folder it is in (tests/unit, tests/integration, tests/clients, tests/browser,
tests/slow): ``pytest_itemcollected`` gives it that marker, so ``-m unit`` runs one tier and the
default run (``addopts`` in pyproject.toml) leaves out ``slow``. A test module
outside a tier folder is an error that names the folders (CONTRIBUTING.md "Where a new test goes").

``server_address`` starts the real server (``python -m sudoku_server``) in a
subprocess on 127.0.0.1 with an ephemeral port and yields ``(host, port)``.
The port is read from the server's log line ``listening on HOST:PORT``.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio.testing

from sudoku_server.sudoku import solver as _solver
from tests.support.native import native_core_or_skip
from tests.support.servers import start_server_process
from tests.support.wallclock import PROPERTY, Bounds
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


TESTS = Path(__file__).resolve().parent
#: The tier folders, each a marker of the same name (registered in pyproject.toml).
TIERS = ("unit", "integration", "clients", "browser", "slow")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one and a half workers per core (3 on 2 cores).

    About a third of the default run waits (servers starting, sockets,
    Chromium, subprocesses): with one worker per core the README's command
    kept 2 cores 121% busy (``/usr/bin/time``), and a third worker took the
    run from 271 s to 217 s on the same machine (benchmarks/RESULTS.md, "The
    test suite a new user can trust"). ``-n N`` still sets it by hand.
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores + cores // 2)


def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark ``item`` with its folder's tier; a test outside the tier folders is a collection error."""
    folder = Path(item.path).resolve().relative_to(TESTS).parts[0]
    if folder not in TIERS:
        raise pytest.UsageError(
            f"{item.nodeid}: a test module belongs in a tier folder, tests/{{{','.join(TIERS)}}}/"
            " (CONTRIBUTING.md, 'Where a new test goes')"
        )
    item.add_marker(folder)


# -- wall-clock bounds (tests/support/wallclock.py) --------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--wallclock-bounds",
        action="store_true",
        help="assert the wall-clock upper bounds of the wallclock tests (by hand, on a quiet machine; .ci/run does not);"
        " else they are only reported",
    )


#: Real seconds of an idle run after which the fake clock jumps to the next timer (``fake_clock``).
FAKE_CLOCK_IDLE = 0.1


@pytest.fixture
def fake_clock(mock_clock: trio.testing.MockClock) -> trio.testing.MockClock:
    """trio's MockClock for a test that runs the server in its own trio run: ``trio.current_time()``, the server's
    timers (the close grace, the idle and interactive timeouts) and the test's ``trio.sleep`` are on it, so a
    timer's end is asserted exactly, with no real wait.

    It jumps to the next timer once every task has waited :data:`FAKE_CLOCK_IDLE` real seconds (trio's
    ``autojump_threshold``), not at once: a solve in a worker thread (the inline budget's overflow) is not
    something trio can see, and a threshold of 0 would jump past a timer while a thread is still solving.
    Passed to the test (not only required by a fixture), so that pytest-trio gives it to ``trio.run``.
    """
    mock_clock.autojump_threshold = FAKE_CLOCK_IDLE
    return mock_clock


@pytest.fixture
def wallclock(request: pytest.FixtureRequest) -> Iterator[Bounds]:
    """This test's wall-clock bounds: asserted with --wallclock-bounds, recorded and reported otherwise."""
    bounds = Bounds(enforce=request.config.getoption("--wallclock-bounds"))
    yield bounds
    request.node.user_properties.append((PROPERTY, bounds.figures))


@pytest.hookimpl(tryfirst=True)  # before -m selects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that takes the ``wallclock`` fixture is marked ``wallclock`` (``-m wallclock`` runs them alone)."""
    for item in items:
        if "wallclock" in getattr(item, "fixturenames", ()):
            item.add_marker("wallclock")


_PAST_BOUND: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "teardown":
        return
    for key, figures in report.user_properties:
        if key == PROPERTY:
            for what, seconds, bound in figures:
                if bound is None and seconds:
                    _PAST_BOUND.append(f"{report.nodeid}: does not hold: {what}")
                elif bound is not None and seconds >= bound:
                    _PAST_BOUND.append(f"{report.nodeid}: {what or 'elapsed'} {seconds:.3f} s, bound {bound} s")


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if _PAST_BOUND and not config.getoption("--wallclock-bounds"):
        terminalreporter.section("wall-clock figures past their bound (not asserted without --wallclock-bounds)")
        for line in _PAST_BOUND:
            terminalreporter.write_line(line)
