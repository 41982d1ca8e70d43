"""A fake ``solve`` whose search of the empty grid takes as long as a test asks, calling ``check`` as the native
core does: for the tests of the pool's timeouts, pauses and bulk jobs."""

from __future__ import annotations

import time

from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import solve as real_solve

__all__ = ["SpinningSolver"]


class SpinningSolver:
    """``solve`` that spins on the empty grid for ``spin`` seconds of its own time, calling ``check`` every
    0.5 ms, then solves it; every other grid is solved at once.

    Its own time excludes the time spent inside ``check()`` (where the server
    pauses it). Records when each spin ended and why (``ended``: (monotonic
    time, ``"done"`` or the exception's name)), so tests can see that work
    stopped, and how often the empty grid was searched.
    """

    def __init__(self, spin: float = 1e9) -> None:
        self.spin = spin
        self.ended: list[tuple[float, str]] = []

    @property
    def whys(self) -> list[str]:
        """How each search of the empty grid ended, in order."""
        return [why for _, why in self.ended]

    def __call__(self, grid: Grid, *, check=None):
        if any(grid.cells):
            return real_solve(grid, check=check)
        own = 0.0
        last = time.monotonic()
        try:
            while own < self.spin:
                own += time.monotonic() - last
                check()
                last = time.monotonic()
                time.sleep(0.0005)
        except BaseException as error:
            self.ended.append((time.monotonic(), type(error).__name__))
            raise
        self.ended.append((time.monotonic(), "done"))
        return real_solve(grid, check=check)
