"""Random 9x9 puzzles of the ten rules that take marks (issue 29), for the benchmarks.

One puzzle (:func:`make_puzzle`, everything from one ``random.Random``):

1. a random classic solution (``bench_variants.random_solution``: row-major
   cells, each the first digit of a random order the native core still
   completes);
2. marks that solution keeps, as a setter draws them (:data:`MAKERS`):

   * ``thermo``: 6-10 thermometers of 3-6 cells, each a walk of king steps
     (no cell used twice) over increasing digits from the bulb;
   * ``arrow``: 5-8 arrows, a one-cell bulb then a walk of 2-4 cells whose
     digits sum to the bulb's;
   * ``kropki``: every dot (white: neighbours differing by 1; black: one twice
     the other; 1 and 2 take either) and ``negative`` (every dot is drawn);
   * ``xv``: every X (sum 10) and V (sum 5), and ``negative``;
   * ``whispers``: 5-8 lines of 3-7 cells, neighbours differing by 5 or more;
   * ``renban``: 5-8 lines of 3-5 cells holding a run of consecutive digits;
   * ``palindrome``: 5-8 lines of 3-7 cells, grown from the middle out, the
     two new ends holding the same digit;
   * ``littlekiller``: 6-10 diagonals (of 2 cells or more, from any edge) with their sums;
   * ``oddeven``: 14-24 cells marked odd or even;
   * ``sandwich``: 8-14 of the 18 row and column clues (the sum between
     the 1 and the 9), chosen at random;

3. the givens: the solution's cells removed in random order while the native
   core still counts one solution with the marks (a MINIMAL puzzle: no given
   can go). With ``cap_ms``, a count that searches longer than that keeps its
   given (the puzzle stays unique, but may not be minimal, and the set then
   depends on the machine's speed): the native general engine takes seconds
   on some open renban, arrow and little killer states (issue 29's figures).

The marks are written in the line syntax (docs/LAYOUTS.md, "Marks after a
line") and read back by the project's own reader
(``sudoku_server.text.fpuzzles.marks_line``), so the stored line is exactly
what a client sends: :func:`request_line`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from bench_variants import N, _count, random_solution

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.variants import Variant, variant_geometry
from sudoku_server.text.fpuzzles import marks_line

#: The ten rules, in the registry's order.
RULES = ("oddeven", "thermo", "kropki", "xv", "whispers", "palindrome", "renban", "arrow", "littlekiller", "sandwich")

Solution = Sequence[int]


def name(c: int) -> str:
    return f"r{c // N + 1}c{c % N + 1}"


def _line(cells: Sequence[int]) -> str:
    return "-".join(name(c) for c in cells)


def _steps(c: int, king: bool = True) -> list[int]:
    r, col = divmod(c, N)
    around = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc) and (king or not (dr and dc))]
    return [(r + dr) * N + col + dc for dr, dc in around if 0 <= r + dr < N and 0 <= col + dc < N]


def _walks(
    rng: random.Random,
    count: int,
    grow: Callable[[list[int], int], bool],
    done: Callable[[list[int]], bool],
    least: int,
    most: int,
    tries: int = 4000,
) -> list[list[int]]:
    """``count`` walks of king steps over unused cells: each step ``grow(path, cell)`` allows, kept when ``done``."""
    used: set[int] = set()
    out: list[list[int]] = []
    for _ in range(tries):
        if len(out) == count:
            break
        start = rng.randrange(N * N)
        if start in used:
            continue
        path, want = [start], rng.randint(least, most)
        while len(path) < want:
            options = [p for p in _steps(path[-1]) if p not in used and p not in path and grow(path, p)]
            if not options:
                break
            path.append(rng.choice(options))
        if len(path) >= least and done(path):
            out.append(path)
            used.update(path)
    return out


def thermo(s: Solution, rng: random.Random) -> str:
    walks = _walks(rng, rng.randint(6, 10), lambda path, p: s[p] > s[path[-1]], lambda path: True, 3, 6)
    return ";".join(_line(w) for w in walks)


def arrow(s: Solution, rng: random.Random) -> str:
    def grow(path: list[int], p: int) -> bool:
        return sum(s[c] for c in path[1:]) + s[p] <= s[path[0]]

    def done(path: list[int]) -> bool:
        return len(path) >= 3 and sum(s[c] for c in path[1:]) == s[path[0]]

    walks = _walks(rng, rng.randint(5, 8), grow, done, 3, 5, tries=20000)
    return ";".join(_line(w) for w in walks)


def whispers(s: Solution, rng: random.Random) -> str:
    walks = _walks(rng, rng.randint(5, 8), lambda path, p: abs(s[p] - s[path[-1]]) >= 5, lambda path: True, 3, 7)
    return ";".join(_line(w) for w in walks)


def renban(s: Solution, rng: random.Random) -> str:
    def done(path: list[int]) -> bool:
        digits = [s[c] for c in path]
        return len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1

    def grow(path: list[int], p: int) -> bool:
        digits = [s[c] for c in path] + [s[p]]
        return len(set(digits)) == len(digits) and max(digits) - min(digits) <= 4

    walks = _walks(rng, rng.randint(5, 8), grow, done, 3, 5, tries=20000)
    return ";".join(_line(w) for w in walks)


def palindrome(s: Solution, rng: random.Random) -> str:
    used: set[int] = set()
    lines: list[list[int]] = []
    want_lines = rng.randint(5, 8)
    for _ in range(4000):
        if len(lines) == want_lines:
            break
        middle = rng.randrange(N * N)
        if middle in used:
            continue
        path = [middle]
        if rng.random() < 0.5:  # an even line: two king neighbours holding the same digit
            twins = [p for p in _steps(middle) if p not in used and s[p] == s[middle]]
            if twins:
                path.append(rng.choice(twins))
        want = rng.randint(3, 7)
        while len(path) < want:
            heads = [p for p in _steps(path[0]) if p not in used and p not in path]
            tails = [p for p in _steps(path[-1]) if p not in used and p not in path]
            pairs = [(a, b) for a in heads for b in tails if a != b and s[a] == s[b]]
            if not pairs:
                break
            a, b = rng.choice(pairs)
            path = [a, *path, b]
        if len(path) >= 3:
            lines.append(path)
            used.update(path)
    return ";".join(_line(w) for w in lines)


def _diagonals() -> list[list[int]]:
    """Every diagonal of 2 cells or more, edge to edge, once (read from the end met first in row-major order)."""
    out: list[list[int]] = []
    seen: set[frozenset[int]] = set()
    for c in range(N * N):
        r, col = divmod(c, N)
        for dr in (-1, 1):
            for dc in (-1, 1):
                if 0 <= r - dr < N and 0 <= col - dc < N:
                    continue  # not the diagonal's first cell: one step back is still in the grid
                cells = []
                rr, cc = r, col
                while 0 <= rr < N and 0 <= cc < N:
                    cells.append(rr * N + cc)
                    rr, cc = rr + dr, cc + dc
                if len(cells) >= 2 and frozenset(cells) not in seen:  # each diagonal once, from its first end
                    seen.add(frozenset(cells))
                    out.append(cells)
    return out


DIAGONALS = _diagonals()


def littlekiller(s: Solution, rng: random.Random) -> str:
    chosen = rng.sample(DIAGONALS, rng.randint(6, 10))
    return ";".join(f"{_line(d)}:{sum(s[c] for c in d)}" for d in chosen)


def sandwich(s: Solution, rng: random.Random) -> str:
    clues = []
    for k in range(N):
        for kind, cells in (("r", range(k * N, (k + 1) * N)), ("c", range(k, N * N, N))):
            digits = [s[c] for c in cells]
            a, b = sorted((digits.index(1), digits.index(N)))
            clues.append(f"{kind}{k + 1}:{sum(digits[a + 1 : b])}")
    return ";".join(rng.sample(clues, rng.randint(8, 14)))


def oddeven(s: Solution, rng: random.Random) -> str:
    cells = sorted(rng.sample(range(N * N), rng.randint(14, 24)))
    odd = [c for c in cells if s[c] % 2]
    even = [c for c in cells if not s[c] % 2]
    return ";".join(f"{_line(group)}:{kind}" for group, kind in ((odd, "odd"), (even, "even")) if group)


def _pairs() -> list[tuple[int, int]]:
    return [(c, p) for c in range(N * N) for p in _steps(c, king=False) if p > c]


def kropki(s: Solution, rng: random.Random) -> str:
    dots = []
    for a, b in _pairs():
        low, high = sorted((s[a], s[b]))
        white, black = high - low == 1, high == 2 * low
        if white and black:
            white = rng.random() < 0.5
        if white or black:
            dots.append(f"{_line((a, b))}:{'w' if white else 'b'}")
    return ";".join([*dots, "negative"])


def xv(s: Solution, rng: random.Random) -> str:
    marks = [f"{_line((a, b))}:{'x' if s[a] + s[b] == 10 else 'v'}" for a, b in _pairs() if s[a] + s[b] in (5, 10)]
    return ";".join([*marks, "negative"])


#: Per rule, its marks for a solution (the text after ``<rule>=``).
MAKERS: dict[str, Callable[[Solution, random.Random], str]] = {
    "oddeven": oddeven,
    "thermo": thermo,
    "kropki": kropki,
    "xv": xv,
    "whispers": whispers,
    "palindrome": palindrome,
    "renban": renban,
    "arrow": arrow,
    "littlekiller": littlekiller,
    "sandwich": sandwich,
}


def text_of(cells: Sequence[int]) -> str:
    return "".join(str(d) if d else "." for d in cells)


def read_line(line: str) -> tuple[Grid, Geometry, Variant]:
    """A request line ``<givens> <rule>=<marks>`` as the server reads it: its grid, geometry and variant."""
    puzzle = marks_line(line, 1, "\n")
    if puzzle is None or not hasattr(puzzle, "variant") or puzzle.variant is None:
        raise ValueError(f"not a marks line: {line[:100]}")
    return puzzle.grid, variant_geometry(puzzle.variant), puzzle.variant


class _TooLong(Exception):
    """A count searched past its cap."""


def _capped_count(cells: Sequence[int], geo: Geometry, cap_ms: float) -> int:
    """Solutions of ``cells`` up to 2 by the native core; 2 when the count searches past ``cap_ms`` (0: no cap)."""
    if not cap_ms:
        return _count(cells, geo)
    deadline = time.perf_counter() + cap_ms / 1e3

    def check() -> None:
        if time.perf_counter() > deadline:
            raise _TooLong()

    try:
        return solver.NATIVE.count_solutions(Grid.trusted(tuple(cells), 3, 3), 2, check=check, geometry=geo)  # type: ignore[union-attr]
    except _TooLong:
        return 2


def make_puzzle(rule: str, rng: random.Random, cap_ms: float = 0.0) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    """One minimal puzzle of ``rule`` (``cap_ms``: see the module docstring): (givens, solution, marks text)."""
    while True:
        solution = random_solution(variant_geometry(Variant()), rng)
        if solution is None:
            continue
        marks = MAKERS[rule](solution, rng)
        if not marks:
            continue
        _grid, geo, _variant = read_line(f"{text_of(solution)} {rule}={marks}")
        cells = list(solution)
        for c in rng.sample(range(N * N), N * N):
            cells[c] = 0
            if _capped_count(cells, geo, cap_ms) != 1:
                cells[c] = solution[c]
        return tuple(cells), tuple(solution), marks


def request_line(givens: Sequence[int], rule: str, marks: str) -> str:
    """The line a client sends: ``<givens, . empty> <rule>=<marks>``."""
    return f"{text_of(givens)} {rule}={marks}"
