"""HoDoKu's X-Chains, XY-Chains and Turbot Fish (``hodoku_chains``): the chain HoDoKu 2.2.0 takes.

The state is one of HoDoKu's own: the top1465 puzzle below (``puzzles/hodoku/rated-2.2.0.txt``) played by
HoDoKu 2.2.0's ``/vp`` up to its 37th step, written as the grid's digits and the candidates its steps had
removed; the expected chain is the one ``/vp`` printed there. The path before took an XY-Chain of 2s
(r1c7 r3c7 r7c8 r9c9<>2) from the ``HINT all`` enumerator, longer than HoDoKu's 20-link limit.
"""

from __future__ import annotations

import re

from sudoku_server.sudoku.hodoku_chains import chain_step, chain_steps
from sudoku_server.sudoku.hodoku_grid import HGrid

PUZZLE = "1.......3.6.3..7...7...5..121.7...9...7........8.1..2....8.64....9.2..6....4....."
# "XY-Chain: 5 5- r1c2 -9- r5c2 -4- r5c9 -6- r4c9 -4- r4c6 -3- r4c5 -6- r3c5 -4- r3c8 -8- r2c8 -5
#  => r1c8,r2c1<>5"
VALUES = "100078003060301700073005001215700890007582130008010527001806470009127360706400010"
GONE = (
    "r1c2<>2 r1c2<>4 r2c1<>4 r2c1<>9 r2c8<>4 r2c9<>4 r2c9<>5 r2c9<>8 r3c1<>4 r3c5<>9 r4c5<>4 r6c1<>9 "
    "r6c2<>9 r6c6<>3 r7c5<>3 r8c1<>8 r9c2<>3 r9c2<>5 r9c5<>9 r9c9<>9"
)


def _state() -> HGrid:
    g = HGrid.from_givens([int(ch) for ch in VALUES])
    for r, c, d in re.findall(r"r(\d)c(\d)<>(\d)", GONE):
        g.del_candidate((int(r) - 1) * 9 + int(c) - 1, int(d))
    return g


def test_the_xy_chain_hodoku_takes() -> None:
    step = chain_step(_state(), "XY-Chain")
    assert step is not None
    # r1c8 and r2c1 lose 5; nine bivalue cells, 18 nodes
    assert (step.kind, step.eliminations, step.length) == ("XY-Chain", ((7, 5), (9, 5)), 18)


def test_the_longer_chain_is_past_hodokus_limit() -> None:
    found = {s.eliminations for s in chain_steps(_state(), "XY-Chain")}
    assert ((6, 2), (24, 2), (62, 2), (80, 2)) not in found
    assert all(s.length <= 21 for s in chain_steps(_state(), "XY-Chain"))


def test_no_x_chain_or_turbot_fish_there() -> None:
    """HoDoKu tries both before the XY-Chain; at this state it found neither."""
    assert chain_step(_state(), "X-Chain") is None
    assert chain_step(_state(), "Turbot Fish") is None
