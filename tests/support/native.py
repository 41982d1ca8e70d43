"""The native solver core, or a skip (a failure where ``SUDOKU_SERVER_REQUIRE_NATIVE`` is set, as in CI)."""

from __future__ import annotations

import os

import pytest

from sudoku_server.sudoku import solver as _solver

#: Set (to anything but "" or "0") where the native solver core must be
#: present: tests that need it then fail instead of being skipped. .ci/run
#: sets it.
REQUIRE_NATIVE_ENV = "SUDOKU_SERVER_REQUIRE_NATIVE"


def native_core_or_skip():
    """The native solver core; skip the test when it is not built (fail under CI)."""
    if _solver.NATIVE is None:
        if os.environ.get(REQUIRE_NATIVE_ENV, "") not in ("", "0"):
            pytest.fail(f"{REQUIRE_NATIVE_ENV} is set but the native core is missing: {_solver.NATIVE_MISSING}")
        pytest.skip("the native core is not built (python3 -m pip install -e .)")
    return _solver.NATIVE


def native_core_for_module():
    """The native solver core, for a test module that needs it throughout: call at module level; skips the
    whole module when the core is not built (fails it under CI, where ``SUDOKU_SERVER_REQUIRE_NATIVE`` is set)."""
    if _solver.NATIVE is None:
        if os.environ.get(REQUIRE_NATIVE_ENV, "") not in ("", "0"):
            pytest.fail(f"the native core is required: {_solver.NATIVE_MISSING}", pytrace=False)
        pytest.skip(f"no native core: {_solver.NATIVE_MISSING}", allow_module_level=True)
    return _solver.NATIVE
