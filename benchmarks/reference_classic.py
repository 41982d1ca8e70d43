"""Reference: the classic constraint-propagation + search solver.

This follows the design of Peter Norvig's essay "Solving Every Sudoku Puzzle"
(https://norvig.com/sudoku.html), the design most Python Sudoku solvers use:

- the vocabulary is data: 81 cells, 27 units (rows, columns, boxes), the 3
  units and 20 peers of each cell;
- a grid under work maps each cell to a string of its candidate digits;
- ``assign(values, cell, d)`` eliminates every other digit from the cell;
- ``eliminate(values, cell, d)`` removes one candidate and propagates:
  (1) a cell left with one candidate removes it from its peers (naked
  single), (2) a unit left with one place for a digit puts it there (hidden
  single); a contradiction returns False;
- ``search`` picks the unfilled cell with the fewest candidates and tries each
  candidate on a copy of the grid, depth first.

Written for this project from the essay's description (not copied); cells are
indices 0..80 instead of names like 'A1', which changes no step of the method.
It returns *a* solution: for a puzzle with several solutions that is not
necessarily the row-major-first one the server must answer (see
``reference_naive``).

Standard library only; no dependency on ``sudoku_server``.
"""

from __future__ import annotations

__all__ = ["PEERS", "UNITS", "parse_grid", "search", "solve_classic"]

DIGITS = "123456789"
CELLS = range(81)

#: The 27 units: 9 rows, 9 columns, 9 boxes, each a list of 9 cell indices.
UNIT_LIST: list[list[int]] = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [[r * 9 + c for r in range(br, br + 3) for c in range(bc, bc + 3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
)
#: UNITS[cell]: the 3 units containing the cell.
UNITS: list[list[list[int]]] = [[u for u in UNIT_LIST if s in u] for s in CELLS]
#: PEERS[cell]: the 20 other cells sharing a unit with the cell.
PEERS: list[frozenset[int]] = [frozenset(x for u in UNITS[s] for x in u) - {s} for s in CELLS]

Values = list  # list[str]: candidate digits of each cell


def parse_grid(puzzle81: str) -> Values | None:
    """Candidates after assigning every given, or None on a contradiction."""
    if len(puzzle81) != 81:
        raise ValueError(f"expected 81 cells, found {len(puzzle81)}")
    values: Values = [DIGITS] * 81
    for s, ch in enumerate(puzzle81):
        if ch in DIGITS:
            if not assign(values, s, ch):
                return None
        elif ch not in ".0_":
            raise ValueError(f"bad cell character {ch!r}")
    return values


def assign(values: Values, s: int, d: str) -> Values | bool:
    """Eliminate every candidate of cell ``s`` except ``d``; propagate."""
    for d2 in values[s].replace(d, ""):
        if not eliminate(values, s, d2):
            return False
    return values


def eliminate(values: Values, s: int, d: str) -> Values | bool:
    """Remove candidate ``d`` from cell ``s``; propagate singles.

    Returns the values, or False when a contradiction is found.
    """
    if d not in values[s]:
        return values  # already eliminated
    values[s] = rest = values[s].replace(d, "")
    if not rest:
        return False  # removed the last candidate
    if len(rest) == 1:
        # Naked single: the cell's last candidate leaves its peers.
        d2 = rest
        for s2 in PEERS[s]:
            if not eliminate(values, s2, d2):
                return False
    for unit in UNITS[s]:
        # Hidden single: where else in this unit can d go?
        places = [s2 for s2 in unit if d in values[s2]]
        if not places:
            return False
        if len(places) == 1 and not assign(values, places[0], d):
            return False
    return values


def search(values: Values | bool) -> Values | bool:
    """Depth-first search on the cell with the fewest candidates."""
    if values is False:
        return False
    unsolved = [(len(values[s]), s) for s in CELLS if len(values[s]) > 1]
    if not unsolved:
        return values  # solved: every cell has one candidate
    _, s = min(unsolved)
    for d in values[s]:
        result = search(assign(values.copy(), s, d))
        if result:
            return result
    return False


def solve_classic(puzzle81: str) -> str | None:
    """Solve a one-line puzzle; return 81 digits, or None if there is none.

    Raises:
      ValueError: the string is not 81 cells.
    """
    values = parse_grid(puzzle81)
    if values is None:
        return None
    result = search(values)
    if not result:
        return None
    return "".join(result)


if __name__ == "__main__":  # pragma: no cover - manual use
    import sys
    import time

    for line in sys.stdin:
        line = line.strip()
        if len(line) != 81:
            continue
        t0 = time.perf_counter()
        sol = solve_classic(line)
        print(sol, f"{time.perf_counter() - t0:.4f}s")
