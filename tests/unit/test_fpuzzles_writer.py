"""The f-puzzles writer (text/fpuzzles.py ``write``) is the inverse of the reader: ``read(write(x)) == x``.

Puzzles are drawn by hypothesis: givens, a rule set, and the marks of every
rule that takes marks (in the order the reader reads them), cages for killer,
regions for jigsaw (a real jigsaw's regions are not needed: the reader reads any).
"""

from __future__ import annotations

import json

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules import Cage, Variant, canonical
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.text.fpuzzles import read_object, write

N = 9
_STEPS = ((-1, 1), (-1, -1), (1, 1), (1, -1))


def _pair(draw: st.DrawFn) -> tuple[int, int]:
    r, c = draw(st.integers(0, N - 1)), draw(st.integers(0, N - 2))
    a = r * N + c
    return (a, a + 1) if draw(st.booleans()) else (c * N + r, (c + 1) * N + r)


_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


def _line(draw: st.DrawFn, least: int = 2) -> tuple[int, ...]:
    """A line as people draw it: up to 6 cells, each touching the last (side or corner), none twice."""
    r, c = draw(st.integers(0, N - 1)), draw(st.integers(0, N - 1))
    cells = [r * N + c]
    for dr, dc in draw(st.lists(st.sampled_from(_KING), min_size=least - 1, max_size=5)):
        if not (0 <= r + dr < N and 0 <= c + dc < N) or (r + dr) * N + c + dc in cells:
            break
        r, c = r + dr, c + dc
        cells.append(r * N + c)
    assume(len(cells) >= least)
    return tuple(cells)


def _diagonal(draw: st.DrawFn) -> tuple[int, ...]:
    """A little killer's diagonal: from an outside clue one step in, to the edge."""
    dr, dc = draw(st.sampled_from(_STEPS))
    edge = draw(st.integers(0, N - 1))
    r, c = (-1 if dr == 1 else N, edge) if draw(st.booleans()) else (edge, -1 if dc == 1 else N)
    cells = []
    r, c = r + dr, c + dc
    while 0 <= r < N and 0 <= c < N:
        cells.append(r * N + c)
        r, c = r + dr, c + dc
    assume(cells)  # the clue's diagonal misses the grid past a corner
    return tuple(cells)


def _sandwich_line(draw: st.DrawFn) -> tuple[int, ...]:
    """A sandwich clue's row or column, every cell, from the clue's side (left, right, above, below)."""
    k = draw(st.integers(0, N - 1))
    cells = tuple(range(k * N, (k + 1) * N)) if draw(st.booleans()) else tuple(range(k, N * N, N))
    return cells if draw(st.booleans()) else cells[::-1]


@st.composite
def puzzles(draw: st.DrawFn) -> tuple[Grid, Variant]:
    cells = tuple(draw(st.lists(st.sampled_from([0, 0, 0, *range(1, 10)]), min_size=81, max_size=81)))
    words = set(draw(st.sets(st.sampled_from(["x", "antiknight", "antiking", "disjoint", "jigsaw", "killer"]))))
    marks: list[Mark] = []
    for _ in range(draw(st.integers(0, 3))):
        marks.append(Mark("oddeven", (draw(st.integers(0, 80)),), 1))
    for _ in range(draw(st.integers(0, 2))):
        marks.append(Mark("oddeven", (draw(st.integers(0, 80)),), 2))
    odd = {m.cells for m in marks if m.value == 1}
    assume(not any(m.cells in odd for m in marks if m.value == 2))  # a cell odd and even is refused (both readers)
    marks += [Mark("thermo", _line(draw)) for _ in range(draw(st.integers(0, 2)))]
    kropki = [Mark("kropki", _pair(draw), draw(st.integers(1, 4)), "white") for _ in range(draw(st.integers(0, 2)))]
    kropki += [Mark("kropki", _pair(draw), draw(st.integers(2, 4)), "black") for _ in range(draw(st.integers(0, 2)))]
    if kropki and draw(st.booleans()):
        kropki.append(Mark("kropki", (), 0, "negative black"))
    if kropki and draw(st.booleans()):
        kropki.append(Mark("kropki", (), 0, "negative white"))
    marks += kropki
    xv = [Mark("xv", _pair(draw), draw(st.sampled_from([5, 10]))) for _ in range(draw(st.integers(0, 2)))]
    if draw(st.booleans()):
        xv.append(Mark("xv", (), 0, "negative"))
    marks += xv
    marks += [Mark("whispers", _line(draw), draw(st.sampled_from([0, 4, 5]))) for _ in range(draw(st.integers(0, 2)))]
    marks += [Mark("palindrome", _line(draw)) for _ in range(draw(st.integers(0, 2)))]
    marks += [Mark("renban", _line(draw)) for _ in range(draw(st.integers(0, 2)))]
    for _ in range(draw(st.integers(0, 2))):
        line = _line(draw)
        bulb = draw(st.integers(1, min(4, len(line) - 1)))
        marks.append(Mark("arrow", line, bulb))
    marks += [Mark("littlekiller", _diagonal(draw), draw(st.integers(0, 60))) for _ in range(draw(st.integers(0, 2)))]
    sandwiches = [
        Mark("sandwich", _sandwich_line(draw), draw(st.integers(0, 35))) for _ in range(draw(st.integers(0, 2)))
    ]
    assume(len({frozenset(m.cells) for m in sandwiches}) == len(sandwiches))  # a line clued once (both readers)
    marks += sandwiches
    words.update(m.rule for m in marks)
    regions = tuple(draw(st.lists(st.integers(0, 8), min_size=81, max_size=81))) if "jigsaw" in words else None
    cages: tuple[Cage, ...] = ()
    if "killer" in words:
        cages = tuple(
            Cage(tuple(sorted(set(_line(draw, 1)))), draw(st.integers(1, 45)), str(k))
            for k in range(1, draw(st.integers(1, 3)) + 1)
        )
    variant = Variant(canonical(words), regions=regions, cages=cages, marks=tuple(marks))
    return Grid.trusted(cells, 3, 3), variant


@settings(max_examples=150, deadline=None)
@given(puzzles())
def test_read_of_write_is_the_puzzle(puzzle: tuple[Grid, Variant]) -> None:
    grid, variant = puzzle
    written = json.loads(json.dumps(write(grid, variant)))  # through JSON text, as a line carries it
    assert read_object(written) == (grid, variant)


def test_generate_and_solve_write_the_same_kropki_dots():
    """s9-break finding 6: GENERATE wrote a white dot ``{"cells": [...]}``, SOLVE format=fpuzzles of that puzzle
    ``{"cells": [...], "value": 1}``: a dot of the default value is written without it, whichever way it was read."""
    from tests.support.sessions import replies

    generated = replies(b"GENERATE seed=5 rules=kropki format=fpuzzles\n").decode().splitlines()[-1]
    solved = replies(f"SOLVE format=fpuzzles {generated}\n".encode()).decode()
    keys = ("difference", "ratio")
    assert [json.loads(solved)[key] for key in keys] == [json.loads(generated)[key] for key in keys]
    empty = '{"size":9,"grid":[' + ",".join(["[" + ",".join(["{}"] * 9) + "]"] * 9) + "]"
    dots = ',"difference":[{"cells":["R1C1","R1C2"],"value":1}],"ratio":[{"cells":["R2C1","R2C2"],"value":"2"}]}'
    answer = json.loads(replies(f"SOLVE format=fpuzzles {empty}{dots}\n".encode()))
    assert (answer["difference"], answer["ratio"]) == ([{"cells": ["R1C1", "R1C2"]}], [{"cells": ["R2C1", "R2C2"]}])
