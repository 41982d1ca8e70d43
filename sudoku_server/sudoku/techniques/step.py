"""One logical step as data (:class:`Step`), its words, and the error of a wrong one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sudoku_server.errors import PuzzleError
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, cell_name

__all__ = ["Pairs", "Step", "TechniqueError", "and_list", "rc", "rcs"]

#: ``(cell, digit)`` pairs: cells 0-based row-major, digits 1-based.
Pairs = tuple[tuple[int, int], ...]


class TechniqueError(PuzzleError):
    """A step failed the solution check: a bug in a finder (``ERROR internal ...``)."""

    code = "internal"


@dataclass(frozen=True)
class Step:
    """One logical step, as data.

    Attributes:
      technique: its name, e.g. ``"hidden single"``, ``"X-Wing"``.
      se: its Sudoku Explainer rating (one decimal).
      placements: ``(cell, digit)`` pairs written by the step (cells 0-based
        row-major, digits 1-based).
      eliminations: ``(cell, digit)`` candidates removed by the step.
      cells: the cells of the pattern; units: its unit ids (indices into the
        geometry's units: on a classic grid rows 0..n-1, columns n..2n-1,
        boxes 2n..3n-1); digits: its digits (1-based).
      explanation: the words between the technique and the effect.
      focus: the unit a nudge points at (``"box 2"``).
      size, symbols: for writing cells and digits.
      nodes: for chains, the number of nodes (SE's complexity).
    """

    technique: str
    se: float
    placements: Pairs = ()
    eliminations: Pairs = ()
    cells: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    explanation: str = ""
    focus: str = ""
    size: int = 9
    symbols: str = field(default="", compare=False)
    nodes: int = 0

    def _sym(self, digit: int) -> str:
        return (self.symbols or DIGIT_SYMBOLS)[digit - 1]

    def effect(self) -> str:
        """``(r3c5=7)`` for placements, ``remove 4 from r5c3, r9c8; 7 from r1c1`` for eliminations."""
        n = self.size
        parts = []
        if self.placements:
            parts.append("(" + ", ".join(f"{cell_name(c, n)}={self._sym(d)}" for c, d in self.placements) + ")")
        if self.eliminations:
            by_digit: dict[int, list[int]] = {}
            for c, d in self.eliminations:
                by_digit.setdefault(d, []).append(c)
            groups = [
                f"{self._sym(d)} from " + ", ".join(cell_name(c, n) for c in sorted(cs))
                for d, cs in sorted(by_digit.items())
            ]
            parts.append(": remove " + "; ".join(groups))
        if self.placements and self.eliminations:
            return " " + parts[0] + parts[1]
        if self.placements:
            return " " + parts[0]
        return parts[0] if parts else ""

    def describe(self) -> str:
        """The step as one line in words.

        ``hidden single: r3c5 is the only place for 7 in box 2 (r3c5=7)``,
        ``X-Wing on 4 in rows 2 and 7, columns 3 and 8: remove 4 from r5c3, r9c8``.
        """
        return f"{self.technique}{self.explanation}{self.effect()}"

    def nudge(self) -> str:
        """Only the technique and the unit to look at, never the answer: ``hidden single: look at box 2``."""
        if self.focus:
            return f"{self.technique}: look at {self.focus}"
        return f"{self.technique}: look at the whole grid"


def rc(c: int, n: int) -> str:
    """Cell ``c`` (0-based) of a grid of size ``n`` as ``r1c1``."""
    return cell_name(c, n)


def rcs(cells: Iterable[int], n: int) -> str:
    """Cells as ``r1c1, r2c5``."""
    return ", ".join(cell_name(c, n) for c in cells)


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
