"""The service layer with plain values: each request validated (exact error texts), each answered (exact results)."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from sudoku_server.errors import (
    CommandError,
    DrainingError,
    InternalError,
    InvalidPuzzleError,
    SolutionMismatchError,
    UnsolvableError,
)
from sudoku_server.service.answer import HANDLERS, Solvers, Standalone, answer, answer_many
from sudoku_server.service.requests import (
    NO_GRID,
    Count,
    Generate,
    Help,
    Hint,
    Interactive,
    Ping,
    Quit,
    Rate,
    Request,
    Solve,
    Stats,
    Steps,
    Version,
)
from sudoku_server.service.results import (
    Bye,
    Counted,
    Failed,
    Generated,
    HelpShown,
    Hinted,
    InteractiveOn,
    Pong,
    Rated,
    Solved,
    StatsShown,
    Stepped,
    VersionInfo,
)
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def grid(text: str) -> Grid:
    return Grid(tuple(0 if ch == "." else int(ch) for ch in text))


# -- validation: one classmethod per request type, today's exact texts ----------------------


@pytest.mark.parametrize(
    ("options", "flags", "error"),
    [
        ({"size": "10"}, (), 'GENERATE: size must be 4, 6, 9, 16 or 25, not "10"'),
        ({"size": "nine"}, (), 'GENERATE: size must be 4, 6, 9, 16 or 25, not "nine"'),
        (
            {"symmetry": "Spiral"},
            (),
            'GENERATE: symmetry must be none, rot180, rot90, mirror, diagonal or random, not "Spiral"',
        ),
        ({"givens": "82"}, (), "GENERATE: givens must be 0 to 81, not 82"),
        ({"givens": "٣"}, (), 'GENERATE: givens must be 0 to 81, not "\\u0663"'),  # issue 17: escaped (same wire bytes)
        ({"seed": "-1"}, (), "GENERATE: seed must be 0 to 18446744073709551615, not -1"),
        (
            {"seed": "18446744073709551616"},
            (),
            "GENERATE: seed must be 0 to 18446744073709551615, not 18446744073709551616",
        ),
        ({"seed": "1" * 21}, (), "GENERATE: seed must be 0 to 18446744073709551615, not 111111111111..."),
        ({"format": "csv"}, (), 'GENERATE: format must be line, grid, fpuzzles or link, not "csv"'),
        ({"symmetry": "rot180"}, ("full",), "GENERATE: full makes a solved grid; givens and symmetry do not apply"),
        ({"level": "insane"}, (), 'GENERATE: level must be easy, medium, hard, expert or extreme, not "insane"'),
        ({"se": "7.5-7.0"}, (), "GENERATE: se band 7.5-7.0 runs backwards; write it 7.0-7.5"),
        ({"level": "hard"}, ("full",), "GENERATE: full makes a solved grid; level and se do not apply"),
        ({"level": "hard", "size": "4"}, (), "GENERATE: level and se are for 9x9 puzzles (the ratings are 9x9)"),
    ],
)
def test_generate_validation_errors(options, flags, error):
    with pytest.raises(CommandError) as caught:
        Generate.validate(flags, options)
    assert (caught.value.code, caught.value.detail) == ("command", error)


def test_generate_validation_values():
    assert Generate.validate() == Generate()
    assert Generate.validate(("full",), {"size": "16", "seed": "7", "format": "GRID"}) == Generate(
        full=True, size=16, seed=7, format="grid"
    )
    assert Generate.validate((), {"level": "Hard", "se": "7.0-7.5"}) == Generate(level="hard", se=(7.0, 7.5))
    assert Generate.validate((), {"se": "4"}).se == (4.0, 4.0)
    assert Generate(level="easy").rated and not Generate().rated


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("0", "COUNT: limit must be 1 to 1000, not 0"),
        ("many", 'COUNT: limit must be 1 to 1000, not "many"'),
        ("9" * 200, "COUNT: limit must be 1 to 1000, not 999999999999..."),  # cut (s10-break finding 10)
        ("-" + "9" * 4000, "COUNT: limit must be 1 to 1000, not -999999999999..."),  # past int()'s 4300 digits too
        ("2.5", "COUNT: limit must be 1 to 1000, not 2.5"),  # a number, unquoted (HTTP: the JSON number 2.5)
        ("1e3", "COUNT: limit must be 1 to 1000, not 1e3"),
    ],
)
def test_count_validation_errors(text, error):
    with pytest.raises(CommandError) as caught:
        Count.validate((), {"limit": text})
    assert caught.value.detail == error


def test_puzzle_requests_wait_for_their_grid():
    assert Count.validate((), {"limit": "5"}) == Count(NO_GRID, 5)
    assert Count.validate().limit == 2
    assert Solve.validate(("any",)) == Solve(NO_GRID, any=True)
    assert Hint.validate(("nudge",)) == Hint(NO_GRID, nudge=True)
    assert Rate.validate() == Rate(NO_GRID) and Steps.validate() == Steps(NO_GRID)
    puzzle, expected = grid(INKALA), grid(INKALA_SOLUTION)
    assert Count(NO_GRID, 5).on(puzzle, expected) == Count(puzzle, 5)
    assert Solve(NO_GRID, any=True).on(puzzle, expected) == Solve(puzzle, any=True, expected=expected)


def test_requests_without_domain_work():
    assert Help.validate((), {"verb": "count"}) == Help("count")
    assert Help.validate() == Help(None)
    for kind in (Version, Ping, Quit, Stats, Interactive):
        assert kind.validate() == kind()


def test_one_handler_per_request_type():
    assert set(HANDLERS) == set(Request.__args__)


# -- answer: the exact result of each request type ---------------------------------------


def test_solve():
    assert answer(Solve(grid(INKALA))) == Solved(grid(INKALA_SOLUTION))
    found = answer(Solve(grid(INKALA), any=True))
    assert found == Solved(grid(INKALA_SOLUTION))  # one solution: any finds the same


def test_solve_errors_are_failed_results():
    bad = "88" + INKALA[2:]
    result = answer(Solve(grid(bad)))
    assert isinstance(result, Failed) and isinstance(result.error, InvalidPuzzleError)
    assert result.error.detail == "duplicate 8 in row 1 at r1c1 and r1c2"
    unsolvable = answer(Solve(grid("12345678." + "." * 8 + "9" + "." * 63)))
    assert isinstance(unsolvable, Failed) and isinstance(unsolvable.error, UnsolvableError)


def test_solve_mismatch_names_the_first_cell_that_differs():
    wrong = grid(INKALA_SOLUTION[:2] + "3" + INKALA_SOLUTION[3:])
    result = answer(Solve(grid(INKALA), expected=wrong))
    assert isinstance(result, Failed) and isinstance(result.error, SolutionMismatchError)
    assert result.error.detail == "the row's solution has 3 at r1c3, the solution found has 2"
    assert (result.error.cell, result.error.expected, result.error.found) == (2, 3, 2)
    assert answer(Solve(grid(INKALA), expected=grid(INKALA_SOLUTION))) == Solved(grid(INKALA_SOLUTION))


def test_a_wrong_solution_is_an_internal_error(caplog):
    def broken(puzzle, *, check=None):
        return grid(INKALA_SOLUTION[::-1])

    caplog.set_level(logging.ERROR, logger="sudoku_server")
    result = answer(Solve(grid(INKALA)), solvers=Solvers(solve=broken), about="the puzzle at line 3")
    assert result == Failed(InternalError("RuntimeError while solving the puzzle at line 3"))
    assert isinstance(result, Failed) and result.error.detail == "RuntimeError while solving the puzzle at line 3"
    assert "internal error on the puzzle at line 3" in caplog.text and "Traceback" in caplog.text


def test_count_answers_and_internal_error_wording():
    assert answer(Count(grid(INKALA), 5)) == Counted(1, 5)
    assert answer(Count(grid("." * 81), 2)) == Counted(2, 2)

    def broken(puzzle, limit, *, check=None):
        raise ValueError("boom")

    result = answer(Count(grid(INKALA)), solvers=Solvers(count_solutions=broken), about="the puzzle at line 7")
    assert isinstance(result, Failed) and result.error.code == "internal"
    assert result.error.detail == "ValueError while answering the puzzle at line 7"


def test_check_raises_through_unchanged():
    class Stop(BaseException):
        pass

    def check():
        raise Stop

    def spinning(puzzle, *, check=None):
        check()
        raise AssertionError("not reached")

    with pytest.raises(Stop):
        answer(Solve(grid(INKALA)), check=check, solvers=Solvers(solve=spinning))


def test_technique_verbs():
    rated = answer(Rate(grid(EASY)))
    assert isinstance(rated, Rated) and rated.rating.level == "easy"
    hinted = answer(Hint(grid(EASY), nudge=True))
    assert isinstance(hinted, Hinted) and hinted.nudge and hinted.step is not None
    assert answer(Hint(grid(INKALA_SOLUTION))) == Hinted(None, False)
    stepped = answer(Steps(grid(EASY)))
    assert isinstance(stepped, Stepped) and len(stepped.steps) == EASY.count(".")
    assert stepped.rating == dataclasses.replace(rated.rating, hodoku=None)  # STEPS' header has no HoDoKu score
    multiple = answer(Rate(grid("." * 81)))
    assert isinstance(multiple, Failed) and multiple.error.code == "multiple"


def test_generate_is_reproducible_from_its_seed():
    result = answer(Generate(seed=42, symmetry="rot180"))
    assert isinstance(result, Generated) and result.rating is None and result.format == "line"
    assert result.made.seed == 42 and result.made.symmetry == "rot180"
    assert answer(Generate(seed=42, symmetry="rot180")) == result


def test_server_verbs():
    server = Standalone(version="9.9", interactive_timeout=12.5, pairs=[("pid", 1), ("solver_seconds", 0.25)])
    assert answer(Ping(), server=server) == Pong()
    assert answer(Quit()) == Bye()
    assert answer(Version(), server=server) == VersionInfo("9.9", 2, solver.CORE)
    assert answer(Help("count")) == HelpShown("count")
    assert answer(Stats(), server=server) == StatsShown((("pid", 1), ("solver_seconds", 0.25)))
    assert answer(Interactive(), server=server) == InteractiveOn(12.5)
    draining = Standalone(draining=True)
    assert answer(Ping(), server=draining) == Failed(DrainingError("server shutting down, use another"))
    result = answer(Ping(), server=draining)
    assert isinstance(result, Failed) and (result.error.code, result.error.detail) == (
        "draining",
        "server shutting down, use another",
    )


def test_answer_many_stops_where_check_raises():
    class Slow(BaseException):
        pass

    def check():
        raise Slow

    def solve(puzzle, *, check=None):
        if puzzle.cells[0] == 0:
            check()
        return solver.solve(puzzle)

    requests = [(Solve(grid(INKALA)), "a"), (Solve(grid("88" + INKALA[2:])), "b"), (Solve(grid("." + INKALA[1:])), "c")]
    got = []
    with pytest.raises(Slow):
        for result in answer_many(requests, check=check, solvers=Solvers(solve=solve)):
            got.append(result)
    assert got[0] == Solved(grid(INKALA_SOLUTION))
    assert isinstance(got[1], Failed) and got[1].error.code == "invalid"
    assert len(got) == 2
