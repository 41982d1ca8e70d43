"""The example puzzles of sigh's Interactive Sudoku Solver (MIT), read from ``puzzles/variants/sigh_examples.txt``.

The file keeps each puzzle in the solver's own notation, copied unchanged
(see its SOURCES header); this module reads the parts of that notation our
rules cover, after its public description (``.Type~arg~cells``, cells
``R1C1``; ``.~R1C1_5`` a given, ``.~R1C1_1_2`` a cell's candidates; a
729-character pencilmark line; the 81-character "snarfable" killer line of
the enjoysudoku forum: each cell a cage sum in base 36 + ``a``-``j`` or an
arrow to the next cell of its cage):

* ``Diagonal~1`` and ``Diagonal~-1`` (both: ``x``), ``Windoku``,
  ``AntiKnight``, ``AntiKing``, ``AntiConsecutive`` (``nonconsecutive``),
  ``Jigsaw~<81 region symbols>`` with ``NoBoxes`` (``jigsaw``), ``Cage~sum~cells``
  (``killer``), ``Sandwich~sum~R3`` or ``~C5`` (``sandwich``: the clue left of
  its row or above its column).

Run as a script (``python3 -m tests.support.sigh_examples``) it prints
each puzzle's CP-SAT count (up to 2) and smallest solution, as the file has them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.sudoku.variants import Cage, Variant, variant_geometry

__all__ = ["EXAMPLES_FILE", "Example", "load", "parse"]

EXAMPLES_FILE = Path(__file__).resolve().parents[2] / "puzzles" / "variants" / "sigh_examples.txt"

_CELL = re.compile(r"R(\d+)C(\d+)")
_ARROWS = {"v": 9, "^": -9, "<": -1, ">": 1, "`": -10, "'": -8, ",": 8, ".": 10}
_WORDS = {"Windoku": "windoku", "AntiKnight": "antiknight", "AntiKing": "antiking", "AntiConsecutive": "nonconsecutive"}


@dataclass(frozen=True)
class Example:
    """One puzzle of the file: its name, rules, givens, variant, solutions (1, or 2 for two or more) and
    its row-major-first solution (CP-SAT's)."""

    name: str
    rules: str
    grid: Grid
    variant: Variant
    count: int
    solution: str

    @property
    def geometry(self) -> Geometry:
        """The puzzle's geometry (``variant_geometry`` of a 9x9 grid)."""
        return variant_geometry(self.variant)


def _cell(text: str) -> int:
    match = _CELL.fullmatch(text)
    if match is None:
        raise ValueError(f"not a cell: {text!r}")
    return (int(match[1]) - 1) * 9 + int(match[2]) - 1


def _short_killer(text: str) -> list[Cage]:
    heads: dict[int, list[int]] = {}
    for i in range(81):
        at, steps = i, 0
        while text[at] in _ARROWS:
            at += _ARROWS[text[at]]
            steps += 1
            if steps > 9:
                raise ValueError("a loop in the killer line")
        heads.setdefault(at, []).append(i)
    cages = []
    for head, cells in sorted(heads.items()):
        ch = text[head]
        total = int(ch, 36) if ch.isdigit() or ch.isupper() else ord(ch) - ord("a") + 36
        cages.append(Cage(tuple(sorted(cells)), total))
    return cages


def parse(text: str) -> tuple[tuple[str, ...], Grid, Variant]:
    """(rule words, givens, variant) of a puzzle in the solver's notation (module docstring).

    Raises:
      ValueError: a constraint our rules do not cover.
    """
    cells = [0] * 81
    rules: set[str] = set()
    candidates: list[int] | None = None
    regions: tuple[int, ...] | None = None
    symbols: tuple[str, ...] = ()
    cages: list[Cage] = []
    marks: list[Mark] = []
    no_boxes = False
    if len(text) == 729:
        candidates = [sum(1 << (int(ch) - 1) for ch in text[i : i + 9] if ch.isdigit()) for i in range(0, 729, 9)]
    elif len(text) == 81 and not text.startswith("."):
        rules.add("killer")
        cages = _short_killer(text)
    else:
        diagonals = set()
        for part in text.split(".")[1:]:
            kind, *args = part.split("~")
            if kind == "":
                for arg in args:
                    cell, *values = arg.split("_")
                    if len(values) == 1:
                        cells[_cell(cell)] = int(values[0])
                    else:
                        candidates = candidates or [0x1FF] * 81
                        candidates[_cell(cell)] = sum(1 << (int(v) - 1) for v in values)
            elif kind == "Diagonal":
                diagonals.add(args[0])
            elif kind in _WORDS:
                rules.add(_WORDS[kind])
            elif kind == "NoBoxes":
                no_boxes = True
            elif kind == "Jigsaw":
                layout = args[0]
                symbols = tuple(dict.fromkeys(layout))
                regions = tuple(symbols.index(ch) for ch in layout)
                rules.add("jigsaw")
            elif kind == "Cage":
                cages.append(Cage(tuple(sorted(_cell(c) for c in args[1:])), int(args[0])))
                rules.add("killer")
            elif kind == "Sandwich":
                k = int(args[1][1:]) - 1
                line = tuple(range(k * 9, k * 9 + 9)) if args[1][0] == "R" else tuple(range(k, 81, 9))
                marks.append(Mark("sandwich", line, int(args[0])))
                rules.add("sandwich")
            else:
                raise ValueError(f"not one of our rules: {kind}")
        if diagonals == {"1", "-1"}:
            rules.add("x")
        elif diagonals:
            raise ValueError("one diagonal only")
        if "jigsaw" in rules and not no_boxes:
            raise ValueError("jigsaw regions beside the boxes")
    named = tuple(Cage(c.cells, c.total, _symbol(k)) for k, c in enumerate(cages))
    words = tuple(
        r
        for r in ("x", "windoku", "antiknight", "antiking", "nonconsecutive", "jigsaw", "killer", "sandwich")
        if r in rules
    )
    variant = Variant(
        rules=words,
        regions=regions,
        region_symbols=symbols,
        cages=named,
        candidates=None if candidates is None else tuple(candidates),
        marks=tuple(marks),
    )
    return words, Grid.trusted(tuple(cells), 3, 3), variant


def _symbol(k: int) -> str:
    return "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[k]


def load() -> list[Example]:
    """Every puzzle of :data:`EXAMPLES_FILE` (lines ``file | name | rules | count | puzzle | solution | src``)."""
    out = []
    for line in EXAMPLES_FILE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        _file, name, rules, count, text, solution, _src = (f.strip() for f in line.split(" | "))
        words, grid, variant = parse(text)
        if "+".join(words) != rules:
            raise ValueError(f"{name}: rules {rules} in the file, {'+'.join(words)} read")
        out.append(Example(name, rules, grid, variant, int(count), solution))
    return out


if __name__ == "__main__":
    from tests.support.cpsat_oracle import smallest, solutions

    for example in load():
        found = solutions(example.grid.cells, example.geometry)
        first = smallest(example.grid.cells, example.geometry)
        print(example.name, "|", len(found), "|", "".join(map(str, first)) if first else "-")
