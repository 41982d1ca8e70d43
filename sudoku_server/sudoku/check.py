"""The stop hook every long computation of the domain calls: one definition.

A :data:`Check` is called with no arguments, with the interpreter lock held,
at least once per millisecond of search (solver, counter, generator,
technique engine). It returns None to go on; it may block (the server pauses
a search while others take their turn) or raise (timeout, cancel), and the
exception propagates unchanged out of the computation.
"""

from __future__ import annotations

from collections.abc import Callable

#: The stop hook's type: ``check() -> None``; may block or raise.
Check = Callable[[], None]


def no_check() -> None:
    """The hook that never stops anything (the default)."""
