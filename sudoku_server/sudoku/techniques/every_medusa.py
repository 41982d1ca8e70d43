"""3D Medusa colouring at one state (``HINT all``, 9x9; reglib-1.4's header code ``0507``, no HoDoKu solver).

The rules as sudokuwiki.org's "3D Medusa" page states them (Andrew Stuart). Candidates ``(cell, digit)``
are joined by *strong links*: the two candidates of a bivalue cell, and the two places of a digit held
twice in a unit. Each cluster of linked candidates is two-coloured (A and B, alternating along each link):
one colour is all true, the other all false. A cluster on one digit only is simple colouring (``0500``,
``0501``, :func:`.every_patterns.colours`); only clusters over two digits or more are 3D Medusa here.

1. *Twice in a cell*: two candidates of one colour in one cell: that colour is false (its candidates go).
2. *Twice in a unit*: one digit twice in a unit in one colour: that colour is false.
3. *Two colours in a cell*: a cell with a candidate of each colour: its other candidates go.
4. *Two colours elsewhere*: an uncoloured candidate that sees the digit in colour A and in colour B goes.
5. *Two colours unit and cell*: an uncoloured candidate that sees its digit in one colour, in a cell with a
   candidate of the other colour, goes.
6. *Cell emptied by colour*: a cell all of whose candidates see their digit in one colour: that colour
   is false (sudokuwiki states it for an uncoloured cell; it holds for any).

One step per cluster and rule (rules 1, 2 and 6 per false colour), all of technique ``3D Medusa``.
"""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_basic import PEERS, UNITS, step
from sudoku_server.sudoku.techniques.step import Step, and_list, rc

__all__ = ["NAME", "medusa"]

#: The technique name (code ``0507``).
NAME = "3D Medusa"

Colour = list[int]  # per 0-based digit, a bitboard of the cells holding it in that colour


def _sees(cells: int) -> int:
    m = 0
    for c in cells_of(cells):
        m |= PEERS[c]
    return m


def _clusters(x: Context) -> list[tuple[Colour, Colour]]:
    """The clusters of strongly linked candidates (index ``cell * 9 + digit0``), two-coloured."""
    adj: dict[int, list[int]] = {}

    def link(i: int, j: int) -> None:
        adj.setdefault(i, []).append(j)
        adj.setdefault(j, []).append(i)

    for c in range(81):
        m = x.cand[c]
        if not x.values[c] and popcount(m) == 2:
            lo = (m & -m).bit_length() - 1
            link(c * 9 + lo, c * 9 + m.bit_length() - 1)
    for d0 in range(9):
        for u in range(27):
            m = x.pos[d0] & UNITS[u]
            if popcount(m) == 2:
                link(((m & -m).bit_length() - 1) * 9 + d0, (m.bit_length() - 1) * 9 + d0)
    colour: dict[int, int] = {}
    out = []
    for start in sorted(adj):
        if start in colour:
            continue
        colour[start] = 0
        sides: tuple[Colour, Colour] = ([0] * 9, [0] * 9)
        todo = [start]
        while todo:
            i = todo.pop()
            sides[colour[i]][i % 9] |= 1 << (i // 9)
            for j in adj[i]:
                if j not in colour:
                    colour[j] = 1 - colour[i]
                    todo.append(j)
        if sum(1 for d0 in range(9) if sides[0][d0] | sides[1][d0]) > 1:
            out.append(sides)
    return out


def _cells(colour: Colour) -> int:
    m = 0
    for p in colour:
        m |= p
    return m


def _text(colour: Colour) -> str:
    return and_list([f"{rc(c, 9)}={d0 + 1}" for c in range(81) for d0 in range(9) if colour[d0] >> c & 1])


def _false_because(x: Context, me: Colour) -> str:
    """Why a colour is false (rules 1, 2 and 6), or ``""``."""
    seen = 0
    for p in me:
        twice = seen & p
        if twice:
            return f"it holds two candidates of {rc((twice & -twice).bit_length() - 1, 9)}"
        seen |= p
    for d0, p in enumerate(me):
        for u in range(27):
            if popcount(p & UNITS[u]) > 1:
                return f"it holds {d0 + 1} twice in {x.unit_name(u)}"
    sees = [_sees(p) for p in me]
    for c in range(81):
        m = x.cand[c]
        if m and not x.values[c] and all(sees[d0] >> c & 1 for d0 in range(9) if m >> d0 & 1):
            return f"every candidate of {rc(c, 9)} sees its digit in it"
    return ""


def medusa(x: Context) -> list[Step]:
    """Every 3D Medusa step at the state (rules 1-6 above), cluster by cluster.

    Returns steps of technique :data:`NAME`, eliminations only; ``[]`` where no cluster spans two digits.
    """
    out: list[Step] = []
    for a, b in _clusters(x):
        words = f": colour A {_text(a)}; colour B {_text(b)}"
        for me, name in ((a, "A"), (b, "B")):
            why = _false_because(x, me)
            if why:
                gone = [(c, d0 + 1) for d0 in range(9) for c in cells_of(me[d0])]
                out.append(step(x, NAME, f"{words}; colour {name} is false: {why}", elim=gone))
        in_a, in_b = _cells(a), _cells(b)
        coloured = [a[d0] | b[d0] for d0 in range(9)]
        both = in_a & in_b  # rule 3
        gone = [
            (c, d0 + 1) for c in cells_of(both) for d0 in range(9) if x.pos[d0] >> c & 1 and not coloured[d0] >> c & 1
        ]
        if gone:
            out.append(step(x, NAME, f"{words}; a cell with both colours keeps only them", elim=gone))
        gone = []  # rule 4
        for d0 in range(9):
            gone += [(c, d0 + 1) for c in cells_of(x.pos[d0] & ~coloured[d0] & _sees(a[d0]) & _sees(b[d0]))]
        if gone:
            out.append(step(x, NAME, f"{words}; a candidate seeing its digit in both colours goes", elim=gone))
        gone = []  # rule 5
        for d0 in range(9):
            free = x.pos[d0] & ~coloured[d0]
            hit = (free & in_a & _sees(b[d0])) | (free & in_b & _sees(a[d0]))
            gone += [(c, d0 + 1) for c in cells_of(hit)]
        if gone:
            words5 = f"{words}; a candidate seeing its digit in one colour, in a cell of the other colour, goes"
            out.append(step(x, NAME, words5, elim=gone))
    return out
