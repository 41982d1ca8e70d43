"""The switch for the technique engine's native searches (the C extension ``_engine``, ``_engine.c``).

The extension runs the hot loops of Nishio and dynamic forcing chains
(:mod:`.dynamic`), the breadth-first searches of chains (:mod:`.chains`),
the chains of strong links on one digit (:mod:`.links`) and the unique
loops' walks (:mod:`.unique_loops`) on 9x9 boards; the Python code beside
each call is the oracle, and tests/test_engine_native.py and
tests/unit/test_engine_walks.py run both on samples of puzzles and compare
every step. The extension is optional (built by setup.py when a compiler is
there); without it, or with ``SUDOKU_SERVER_PURE_PYTHON`` set to anything but
``""`` or ``"0"`` at import, or with :data:`ENABLED` set to False, the Python
code runs.
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["ENABLED", "engine", "table_bytes"]


def _load() -> ModuleType | None:
    if os.environ.get("SUDOKU_SERVER_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from sudoku_server.sudoku.techniques import _engine  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _engine  # type: ignore[no-any-return]


_ENGINE = _load()

#: False makes every finder use its Python code (the differential tests switch it).
ENABLED = True


def engine(ncells: int, size: int) -> ModuleType | None:
    """The native module for a board of ``ncells`` cells and ``size`` digits, or None (use Python).

    The extension handles 9x9 boards (81 cells, 9 digits) with any units.
    """
    if not ENABLED or _ENGINE is None or ncells != 81 or size != 9:
        return None
    return _ENGINE


def table_bytes(table: list[int]) -> bytes:
    """An implication table (per candidate id, a set of ids as an int) as the extension reads it.

    Returns:
      bytes: 729 sets of 96 little-endian bytes.
    """
    return b"".join([v.to_bytes(96, "little") for v in table])
