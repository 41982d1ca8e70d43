"""HoDoKu's library lines: one solving state per line (docs/LAYOUTS.md "HoDoKu library lines").

HoDoKu's regression library (``reglib-1.3.txt``, ``reglib-1.4.txt``; the
format is described in its header, puzzles/hodoku/) writes one test case per
line::

    :<technique>:<candidates>:<givens>:<deleted>:<eliminations>:<placements>:<extra>

- ``<givens>``: 81 characters, a digit or ``.``/``0``; a ``+`` before a digit
  marks a placed cell (solved, not given).
- ``<deleted>``: blank-separated ``<digit><row><col>`` tokens (``436``: 4 is
  no candidate of r3c6), removed after the candidates the placed digits
  leave.
- ``<eliminations>`` and ``<placements>``: the same tokens; the technique's
  code (``0300``, ``0402-1``, ``0606-x``) and the other fields are read by
  :func:`read_case` and never used to answer.

The result is a solving state (:class:`State`): the digits in the cells,
which of them were given, and each empty cell's candidates. As a puzzle
(:func:`library_puzzle`) the state is a classic solving state
(``Variant(candidates=..., state=True)``): its filled cells are the givens
and the placed digits; a placed cell's candidate mask is the full mask and a
given's is its digit alone, which is how :func:`state_of` and
``Board.from_state`` tell them apart again (avoidable rectangles care).
HINT, HINT all, STEPS and RATE reason on it under the classic rules from its
candidates; a cell left with no candidate is the pencilmarks' error
(``ERROR invalid r1c1 has no candidate``), raised when its rules are built.

Pure functions of one line; errors name the line, the column and the token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sudoku_server.errors import PuzzleFormatError
from sudoku_server.sudoku.grid import BOX_SHAPES, Grid, cell_name, describe_char
from sudoku_server.sudoku.variants import Variant
from sudoku_server.text.lines import Kind, Line
from sudoku_server.text.puzzle import Event, Positions, Puzzle, Rejected

__all__ = ["LAYOUT_HODOKU", "Case", "State", "library_puzzle", "parse_effects", "read_case", "state_of"]

#: The layout of :attr:`Puzzle.layout` for a library line.
LAYOUT_HODOKU = "hodoku"

#: A library line: a colon, then up to seven colon-separated fields (those after the givens may be left out).
_LINE = re.compile(r"\s*:([^:]*):([^:]*):([^:]*)(?::([^:]*))?(?::([^:]*))?(?::([^:]*))?(?::(.*?))?\s*$")
#: One ``<digit><row><col>`` token.
_TOKEN = re.compile(r"[1-9][1-9][1-9]")
_FULL = 0x1FF


@dataclass(frozen=True)
class State:
    """A solving state of a 9x9 grid.

    Attributes:
      values: 81 ints row-major, 0 for an empty cell.
      given: 81 bools: the cell's digit was given (False: placed while solving, or empty).
      candidates: 81 digit masks (bit ``d - 1`` for digit d); 0 for a filled cell.
    """

    values: tuple[int, ...]
    given: tuple[bool, ...]
    candidates: tuple[int, ...]


@dataclass(frozen=True)
class Case:
    """One library line read (:func:`read_case`).

    Attributes:
      code: the technique field as written (``0300``, ``0402-1``, ``0606-x``).
      base: the code without its variant suffix (``0402``); fail: the suffix is ``x`` (no instance may be found).
      state: the solving state the line sets up.
      eliminations, placements: ``(cell, digit)`` pairs the technique must find (cells 0-based row-major).
      extra: the last field (a chain's length).
    """

    code: str
    base: str
    fail: bool
    state: State
    eliminations: tuple[tuple[int, int], ...]
    placements: tuple[tuple[int, int], ...]
    extra: str


def parse_effects(text: str, where: str = "") -> tuple[tuple[int, int], ...]:
    """``"436 257"`` -> ``((23, 4), (42, 2))`` sorted (r3c6<>4, r5c7<>2).

    Raises PuzzleFormatError naming ``where`` and the token that is not three digits 1-9.
    """
    out = set()
    for token in text.split():
        if not _TOKEN.fullmatch(token):
            raise PuzzleFormatError(f"{where}{token!r} is not <digit><row><col> (three digits 1-9)")
        out.add(((int(token[1]) - 1) * 9 + int(token[2]) - 1, int(token[0])))
    return tuple(sorted(out))


def _state(givens: str, deleted: str, where: str) -> State:
    values: list[int] = []
    given: list[bool] = []
    placed = False
    for k, ch in enumerate(givens):
        if ch == "+":
            if placed:
                raise PuzzleFormatError(f"{where}'++' at character {k + 1} of the givens")
            placed = True
            continue
        if ch in ".0":
            if placed:
                raise PuzzleFormatError(f"{where}'+' before an empty cell ({cell_name(len(values))})")
            values.append(0)
        elif "1" <= ch <= "9":
            values.append(int(ch))
        else:
            raise PuzzleFormatError(
                f"{where}{describe_char(ch)} at character {k + 1} of the givens ({cell_name(len(values))}) is not a"
                " digit 1-9, an empty mark (. 0) or + before a placed digit"
            )
        given.append(bool(values[-1]) and not placed)
        placed = False
    if len(values) != 81:
        raise PuzzleFormatError(f"{where}the givens hold {len(values)} cells, not 81")
    cand = []
    for c, v in enumerate(values):
        if v:
            cand.append(0)
            continue
        r, col = divmod(c, 9)
        m = _FULL
        for p in range(81):
            pr, pc = divmod(p, 9)
            if values[p] and (pr == r or pc == col or (pr // 3 == r // 3 and pc // 3 == col // 3)):
                m &= ~(1 << (values[p] - 1))
        cand.append(m)
    for c, d in parse_effects(deleted, where):
        cand[c] &= ~(1 << (d - 1))
    return State(tuple(values), tuple(given), tuple(cand))


def read_case(text: str, where: str = "") -> Case:
    """One library line -> :class:`Case`.

    Raises PuzzleFormatError (prefixed with ``where``, e.g. ``"line 3: "``):
    not seven colon-separated fields, givens that are not 81 cells, a token
    that is not ``<digit><row><col>``.
    """
    match = _LINE.match(text)
    if match is None:
        raise PuzzleFormatError(f"{where}not a HoDoKu library line (:<technique>:<candidates>:<givens>:...)")
    code, _cands, givens, deleted, elim, place, extra = (group or "" for group in match.groups())
    code = code.strip()
    base, _, variant = code.partition("-")
    state = _state(givens.strip(), deleted, where)
    return Case(
        code, base, variant == "x", state, parse_effects(elim, where), parse_effects(place, where), extra.strip()
    )


def state_of(grid: Grid, variant: Variant) -> State:
    """The state of a 9x9 puzzle: a library line's (placed cells told by their full mask), a pencilmark
    puzzle's (every filled cell given) or a plain puzzle's (candidates: the digits no peer holds)."""
    values = grid.cells
    masks = variant.candidates
    given = tuple(bool(v) and (masks is None or masks[c] != _FULL) for c, v in enumerate(values))
    cand = []
    for c, v in enumerate(values):
        if v:
            cand.append(0)
            continue
        r, col = divmod(c, 9)
        m = _FULL if masks is None else masks[c]
        for p in range(81):
            pr, pc = divmod(p, 9)
            if values[p] and (pr == r or pc == col or (pr // 3 == r // 3 and pc // 3 == col // 3)):
                m &= ~(1 << (values[p] - 1))
        cand.append(m)
    return State(tuple(values), given, tuple(cand))


def library_puzzle(line: Line, lineno: int, last_ending: str) -> Event | None:
    """The puzzle of a library line (``:<technique>:<candidates>:<givens>:<deleted>:...``), its error, or None.

    The puzzle's cells are the givens and the placed digits; its variant is
    a classic solving state (``Variant.state``) whose candidates are each
    empty cell's after the deletions (none left: the pencilmarks' ``invalid``
    error once the rules are built, as for a pencilmark line), a given's
    digit alone, and the full mask for a placed cell.
    """
    if line.kind is not Kind.FIELDS or not line.text.lstrip().startswith(":") or line.text.count(":") < 4:
        return None
    ending = line.ending or last_ending
    try:
        case = read_case(line.text, f"line {lineno}: ")
    except PuzzleFormatError as error:
        return Rejected(error, ending, None)
    st = case.state
    masks = tuple(m if not v else (1 << (v - 1) if g else _FULL) for v, g, m in zip(st.values, st.given, st.candidates))
    grid = Grid(st.values, *BOX_SHAPES[9])
    text = "".join(str(v) if v else "." for v in st.values)
    return Puzzle(
        grid=grid,
        layout=LAYOUT_HODOKU,
        first_line=lineno,
        lines=[text],
        endings=[line.ending],
        positions=Positions.on_one_line(range(len(text))),
        symbols="",
        variant=Variant(candidates=masks, state=True),
    )
