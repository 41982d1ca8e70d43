"""UNIQUE (issue 20): whether a puzzle has one solution, and if not where two differ and which clues fix it.

Exact reply bytes for each kind of reply and error, and the domain's answers
held against an independent brute force (every solution of small puzzles
enumerated in Python).
"""

from __future__ import annotations

import itertools

import pytest
import trio

from sudoku_server.errors import InvalidPuzzleError
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Unique
from sudoku_server.service.results import Failed, UniqueChecked
from sudoku_server.sudoku.clues import Uniqueness, uniqueness
from sudoku_server.sudoku.generator import generate
from sudoku_server.sudoku.grid import ZERO_SYMBOLS, Grid
from sudoku_server.sudoku.solver import count_solutions, solve
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import PuzzleReceived, Session
from tests.support.servers import exchange, running_server

#: Royle's first minimal 17-clue puzzle (puzzles/sudoku17_500.txt): unique.
SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
#: The same without its r9c6 = 6: many solutions, and r9c6 = 6 is the only single clue that fixes it.
SIXTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8....."
SIXTEEN_FIRST = "635247819487913562129586734293651487568724391741398625316479258854132976972865143"
SIXTEEN_LAST = "987543612436912875125786943293651487568274391741398526319467258852139764674825139"
SIXTEEN_DIFFER = (
    "r1c1 r1c2 r1c3 r1c4 r1c6 r1c7 r1c9 r2c2 r2c3 r2c6 r2c7 r2c8 r2c9 r3c3 r3c4 r3c7 r3c8 r3c9 r5c4 r5c5"
    " r6c7 r6c9 r7c3 r7c5 r7c6 r8c3 r8c6 r8c7 r8c8 r8c9 r9c1 r9c3 r9c5 r9c8 r9c9"
)
SIXTEEN_REPLY = f"UNIQUE no {SIXTEEN_FIRST} {SIXTEEN_LAST} differ {SIXTEEN_DIFFER} add r9c6=6"
#: A 4x4 puzzle with one given: no single clue makes it unique.
FOUR_OPEN = "1..............."
FOUR_OPEN_REPLY = "UNIQUE no 1234341221434321 1432324141232314 differ r1c2 r1c4 r2c2 r2c3 r2c4 r3c1 r3c3 r4c1 r4c3 r4c4"
UNSOLVABLE = "12345678." + "........9" + "." * 63


def all_solutions(grid: Grid) -> list[tuple[int, ...]]:
    """Every solution of a small puzzle, by brute force (row by row, each row a permutation): the oracle."""
    size = grid.size
    rows = [grid.cells[r * size : (r + 1) * size] for r in range(size)]
    choices = []
    for row in rows:
        choices.append(
            [p for p in itertools.permutations(range(1, size + 1)) if all(g in (0, v) for g, v in zip(row, p))]
        )
    found = []
    for combo in itertools.product(*choices):
        cells = tuple(itertools.chain.from_iterable(combo))
        if count_solutions(Grid(cells, grid.box_rows, grid.box_cols), 1) == 1:  # a valid full grid
            found.append(cells)
    return found


@pytest.mark.parametrize(
    "text",
    [
        "1...............",
        "12..34..........",
        "1.......2.......",
        "......12.1.3.32.",
        "..343412..434321",
        "1..2.2..........",
    ],
)
def test_uniqueness_agrees_with_every_solution_enumerated(text):
    grid = Grid.from_string(text)
    solutions = all_solutions(grid)
    found = uniqueness(grid)
    assert found.unique == (len(solutions) == 1)
    if found.unique:
        return
    assert found.first == min(solutions) and found.last == max(solutions)
    assert found.differ == tuple(c for c in range(16) if found.first[c] != found.last[c])
    # a single clue fixes the puzzle exactly when one solution alone has that digit there
    fixes = sorted(
        (c, d) for c in range(16) if not grid.cells[c] for d in range(1, 5) if sum(s[c] == d for s in solutions) == 1
    )
    if fixes:
        assert not found.add_all and list(found.add) == fixes
    else:
        assert found.add_all and found.add
        cells = list(grid.cells)
        for c, d in found.add:
            cells[c] = d
        assert sum(all(v in (0, s[c]) for c, v in enumerate(cells)) for s in solutions) == 1


def test_uniqueness_of_a_unique_and_a_seventeen_less_one():
    assert uniqueness(Grid.from_string(SEVENTEEN)) == Uniqueness(True)
    found = uniqueness(Grid.from_string(SIXTEEN))
    assert found.first == solve(Grid.from_string(SIXTEEN)).cells
    assert found.add == ((8 * 9 + 5, 6),) and not found.add_all


def test_add_all_on_the_empty_grid_is_checked_and_irreducible():
    grid = Grid.from_string("." * 81)
    found = uniqueness(grid)
    assert found.add_all and 17 <= len(found.add) <= 30
    cells = [0] * 81
    for c, d in found.add:
        cells[c] = d
    assert count_solutions(Grid(tuple(cells)), 2) == 1
    for c, _ in found.add:  # every clue of the set is needed
        without = list(cells)
        without[c] = 0
        assert count_solutions(Grid(tuple(without)), 2) == 2


def test_answer_and_render_each_reply():
    assert answer(Unique(Grid.from_string(SEVENTEEN))) == UniqueChecked(Uniqueness(True), 9, "123456789")
    assert render(answer(Unique(Grid.from_string(SEVENTEEN)))) == b"UNIQUE yes\n"
    assert render(answer(Unique(Grid.from_string(SIXTEEN))), "\r\n") == SIXTEEN_REPLY.encode() + b"\r\n"
    assert render(answer(Unique(Grid.from_string(UNSOLVABLE)))) == b"UNIQUE no unsolvable no digit fits r1c9\n"
    assert (
        render(answer(Unique(Grid.from_string(FOUR_OPEN))))
        == (FOUR_OPEN_REPLY + " add-all r2c1=4 r2c4=2 r3c3=4\n").encode()
    )
    assert answer(Unique(Grid.from_string("11" + "." * 79))) == Failed(
        InvalidPuzzleError("duplicate 1 in row 1 at r1c1 and r1c2")
    )


def test_a_16x16_deadly_pattern_in_the_puzzles_own_symbols():
    full = generate(16, seed=1, full=True).puzzle
    text = "".join(ZERO_SYMBOLS[d - 1] for d in full.cells)  # written 0-F
    cells = list(text)
    for c in range(9):
        cells[c] = cells[16 + c] = "."
    reply = render(answer(Unique(Grid.from_string("".join(cells))))).decode()
    first, last = reply.split()[2:4]
    assert first == text and len(last) == 256 and set(last) <= set(ZERO_SYMBOLS[:16])
    clues = reply.split(" add ")[1].split()
    assert reply.split(" differ ")[1].split(" add ")[0] == "r1c6 r1c9 r2c6 r2c9"
    assert clues == [f"{cell}={d}" for cell in ("r1c6", "r1c9", "r2c6", "r2c9") for d in sorted({text[5], text[8]})]


def test_the_session_routes_unique_with_its_puzzle_on_the_line_or_after_it():
    (event,) = Session().receive_data(f"UNIQUE {SIXTEEN}\n".encode())
    assert isinstance(event, PuzzleReceived) and event.request == Unique(Grid.from_string(SIXTEEN))
    events = Session().receive_data(b"unique\n" + SEVENTEEN.encode() + b"\n")
    assert [type(e) for e in events] == [PuzzleReceived]
    assert events[0].request == Unique(Grid.from_string(SEVENTEEN))


async def test_unique_over_a_socket():
    with trio.fail_after(20):
        async with running_server() as server:
            reply = await exchange(
                server,
                (
                    f"UNIQUE {SEVENTEEN}\nUNIQUE {SIXTEEN}\r\nUNIQUE {UNSOLVABLE}\nUNIQUE 11{'.' * 79}\n"
                    f"UNIQUE {FOUR_OPEN}\nUNIQUE any {SEVENTEEN}\nHELP UNIQUE\n"
                ).encode(),
            )
    assert reply == (
        b"UNIQUE yes\n" + SIXTEEN_REPLY.encode() + b"\r\n"
        b"UNIQUE no unsolvable no digit fits r1c9\n"
        b"ERROR invalid duplicate 1 in row 1 at r1c1 and r1c2\n"
        + FOUR_OPEN_REPLY.encode()
        + b" add-all r2c1=4 r2c4=2 r3c3=4\n"
        b'ERROR command UNIQUE: unknown option "any"; try HELP UNIQUE\n'
        b"HELP UNIQUE [rules=R] <puzzle>\n"
        b"  whether a puzzle has one solution; if not, two of them (row-major first and last), the cells where"
        b" they differ, and the clues any one of which makes it unique (add-all: a set that does together)\n"
        b"  example: UNIQUE <puzzle> -> UNIQUE no <81 digits> <81 digits> differ r1c2 r1c5 add r1c2=7\n"
        b"END\n"
    )


async def test_the_readme_unique_example_is_what_the_server_prints():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "docs" / "TOUR.md").read_text()  # the README's tour of the verbs
    block = readme[readme.index("printf 'UNIQUE %s\\nMINIMAL %s\\n'") :].splitlines()
    puzzles = root / "puzzles"
    request = (
        f"UNIQUE {(puzzles / 'inkala_without_r7c9.txt').read_text().strip()}\n"
        f"MINIMAL {(puzzles / 'inkala.txt').read_text().strip()}\n"
    )
    with trio.fail_after(20):
        async with running_server() as server:
            reply = await exchange(server, request.encode())
    assert reply == f"{block[1]}\n{block[2]}\n".encode()


def test_count_cells_counts_as_count_solutions_does():
    from sudoku_server.sudoku.solver import count_cells

    for text in (SEVENTEEN, SIXTEEN, UNSOLVABLE, FOUR_OPEN, "11" + "." * 79):
        grid = Grid.from_string(text)
        for limit in (1, 2, 50):
            assert count_cells(list(grid.cells), grid, limit) == count_solutions(grid, limit)
