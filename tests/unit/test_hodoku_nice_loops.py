"""HoDoKu's nice loops and AICs (``hodoku_loops``): the loop HoDoKu 2.2.0 takes at a recorded state.

Each state is one of HoDoKu's own: a top1465 puzzle (``puzzles/hodoku/rated-2.2.0.txt``) played by HoDoKu
2.2.0's ``/vp`` (its path, every step) up to the step named; written here as the grid's digits and the
candidates its steps had removed. The expected loop is the one ``/vp`` printed there. At each of these
states the path before (the ``HINT all`` enumerators, every grouped loop) took another step: a Grouped AIC
HoDoKu's table search never builds.
"""

from __future__ import annotations

import re

import pytest

from sudoku_server.sudoku.hodoku_grid import HGrid
from sudoku_server.sudoku.hodoku_loops import nice_loop_step, nice_loop_steps
from sudoku_server.sudoku.hodoku_rating import hodoku_path
from sudoku_server.sudoku.hodoku_tabling import GROUP, OFF, _Tables

EFFECT = re.compile(r"r(\d)c(\d)<>(\d)")


def _state(values: str, gone: str) -> HGrid:
    g = HGrid.from_givens([int(ch) for ch in values])
    for r, c, d in EFFECT.findall(gone):
        g.del_candidate((int(r) - 1) * 9 + int(c) - 1, int(d))
    return g


# top1465 ".4..1.2.......9.7..1..........43.6..8......5....2.....7.5..8......6..3..9........", HoDoKu's 17th step:
# "Grouped Discontinuous Nice Loop: 1 r5c3 -1- r4c3 -2- r4c89 =2= r5c9 =3= r5c3 => r5c3<>1"
# (the old path: a Grouped AIC r5c3 r6c7 r6c8 r6c9<>4)
STATE_1007 = (
    "040010200000009070010000000000430600800000050000280000705008000000600300900000000",
    "r1c3<>3 r1c3<>6 r1c3<>8 r1c6<>5 r2c2<>3 r2c3<>3 r2c4<>8 r2c7<>8 r2c9<>8 r3c3<>2 r3c3<>3 r3c3<>6 r3c3<>8 "
    "r3c6<>5 r3c6<>7 r4c3<>7 r4c3<>9 r5c2<>3 r5c2<>9 r5c3<>7 r5c3<>9 r5c7<>9 r5c9<>1 r5c9<>7 r5c9<>9 r6c1<>3 "
    "r6c2<>3 r6c3<>7 r6c3<>9 r8c6<>5 r8c9<>4 r9c3<>3 r9c6<>5",
)
# top1465 "3.7..4.2....1..8..9............3..9..5.8......4.6...........5.12...7..........6..", HoDoKu's 17th
# step:
# "Grouped Discontinuous Nice Loop: 5 r2c9 -5- r2c1 =5= r9c1 -5- r9c5 =5= r89c4 -5- r1c4 -9- r1c79 =9= r2c9
# => r2c9<>5" (the old path: a Grouped AIC r5c8 r6c8<>3)
STATE_1024 = (
    "307004020000100800900000000000030090050800000040600000000000501200070000000000602",
    "r2c6<>5 r2c8<>7 r3c6<>5 r3c8<>7 r4c4<>2 r4c4<>5 r4c6<>2 r4c7<>2 r4c9<>7 r5c3<>1 r5c3<>2 r5c3<>6 r5c8<>7 "
    "r6c3<>1 r6c3<>2 r6c3<>8 r6c5<>5 r6c8<>7 r7c3<>3 r7c3<>9 r8c2<>9 r8c3<>3 r8c3<>9 r8c4<>4 r8c4<>9 r8c6<>3 "
    "r8c6<>5 r8c6<>9 r8c7<>3 r8c8<>3 r9c3<>3 r9c3<>9 r9c6<>5",
)


@pytest.mark.parametrize(
    ("state", "eliminations", "chain"),
    [
        (STATE_1007, ((38, 1),), ("r5c3=1", "r4c3<>1", "r4c3=2", "r4c89<>2", "r5c9=2", "r5c9<>3", "r5c3=3")),
        (
            STATE_1024,
            ((17, 5),),
            ("r2c9=5", "r2c1<>5", "r9c1=5", "r9c5<>5", "r89c4=5", "r1c4<>5", "r1c4=9", "r1c79<>9", "r2c9=9"),
        ),
    ],
)
def test_the_grouped_loop_hodoku_takes(
    state: tuple[str, str], eliminations: tuple[tuple[int, int], ...], chain: tuple[str, ...]
) -> None:
    g = _state(*state)
    assert nice_loop_step(g, False) is None  # HoDoKu's plain search finds none there
    step = nice_loop_step(g, True)
    assert step is not None
    assert (step.kind, step.eliminations, step.chain, step.length) == (
        "Grouped Discontinuous Nice Loop",
        eliminations,
        chain,
        len(chain),
    )


def test_the_old_paths_grouped_aic_is_not_among_hodokus_loops() -> None:
    """The Grouped AIC the enumerators offered (r5c3 r6c7 r6c8 r6c9<>4) is not one HoDoKu's tables build."""
    found = {s.eliminations for s in nice_loop_steps(_state(*STATE_1007), True)}
    assert ((38, 4), (51, 4), (52, 4), (53, 4)) not in found
    assert ((38, 1),) in found


def test_path_takes_hodokus_loop() -> None:
    """The path of that puzzle has HoDoKu's two loops as its 17th and 18th steps, as ``/vp`` lists them."""
    puzzle = ".4..1.2.......9.7..1..........43.6..8......5....2.....7.5..8......6..3..9........"
    path = hodoku_path([0 if ch == "." else int(ch) for ch in puzzle], max_steps=19)
    assert path[15:19] == [
        ("Locked Candidates Type 1 (Pointing)", [], [(74, 3)]),
        ("Grouped Nice Loop/AIC", [], [(38, 1)]),
        ("Grouped Nice Loop/AIC", [], [(38, 4)]),
        ("Locked Candidates Type 1 (Pointing)", [], [(51, 4), (52, 4), (53, 4)]),
    ]


def test_ordered_tables_hold_the_forcing_chain_links() -> None:
    """The entry lists the loop search walks are the forcing chains' direct links, each node once."""
    g = _state(*STATE_1024)
    plain = _Tables(g, False)
    ordered = _Tables(g, False, ordered=True)
    assert ordered.order is not None
    assert ordered.succ == plain.succ
    for node, bits in plain.succ.items():
        entries = ordered.order[node]
        assert len(entries) == len(set(entries))
        assert sum(1 << e for e in entries) == bits
    # r2c9=5 (cell 17, digit 5): r2c9's other digits off, then 5 off in row 2, column 9 and box 3 (a cell
    # once), then the group nodes it sees off (``fillTables``, ``fillTablesWithGroupNodes``)
    entries = ordered.order[4 * 81 + 17]
    assert [(e - OFF) // 81 + 1 for e in entries[:5]] == [3, 4, 6, 7, 9]
    assert all(e % 81 == 17 for e in entries[:5])
    assert [e - OFF - 4 * 81 for e in entries[5:14]] == [9, 11, 13, 16, 8, 26, 35, 53, 25]
    assert entries[14:] and all(e >= GROUP for e in entries[14:])
