"""The one module on Hypercorn's internals (``net/http_hypercorn.py``) runs on the versions it was tested with.

A Hypercorn outside :data:`~sudoku_server.net.http_hypercorn.TESTED_HYPERCORN` fails here first: the module
subclasses ``TCPServer`` and ``H11Protocol`` and calls their private parts named below.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import re

from sudoku_server.net import http_hypercorn
from tests.support.paths import REPO


def test_installed_hypercorn_is_a_tested_version():
    version = importlib.metadata.version("hypercorn")
    assert ".".join(version.split(".")[:2]) in http_hypercorn.TESTED_HYPERCORN


def test_pyproject_pins_the_tested_range():
    pins = re.findall(r'"(hypercorn[^"]*)"', (REPO / "pyproject.toml").read_text(), re.IGNORECASE)
    assert pins == [f"hypercorn>={http_hypercorn.TESTED_HYPERCORN[0]},<0.19"]


def test_installed_h11_is_the_pinned_version():
    """The HTTP port's refusals of malformed requests carry h11's own words (tests/integration/
    test_http_refusals_as_json.py holds them exactly): h11 is pinned, and the installed one is that version."""
    (pin,) = re.findall(r'"h11==([^"]+)"', (REPO / "pyproject.toml").read_text())
    assert importlib.metadata.version("h11") == pin == "0.16.0"


def test_the_internals_it_uses_are_there():
    from hypercorn.protocol.h11 import H11Protocol
    from hypercorn.trio.tcp_server import TCPServer

    assert list(inspect.signature(TCPServer.__init__).parameters) == [
        "self", "app", "config", "context", "state", "stream"
    ]  # fmt: skip
    for name in ("protocol_send", "_read_data", "_close", "_initiate_server_close", "run"):
        assert callable(getattr(TCPServer, name)), name
    assert re.search(r"event\.method == b\"PRI\"", inspect.getsource(H11Protocol._check_protocol))
    assert "h2c" in inspect.getsource(H11Protocol._check_protocol)
