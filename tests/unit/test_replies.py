"""The wire's reply bytes, rendered from plain result values (no session, no server)."""

from __future__ import annotations

import pytest

from sudoku_server.errors import CommandError, InternalError, PuzzleError, SolutionMismatchError
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import GENERATE_FORMATS, GENERATE_SYMMETRIES, MAX_COUNT_LIMIT, Generate, Rate
from sudoku_server.service.results import (
    Bye,
    Counted,
    Failed,
    HelpShown,
    Hinted,
    InteractiveOn,
    Pong,
    Rated,
    Solved,
    StatsShown,
    VersionInfo,
)
from sudoku_server.sudoku.generator import SIZES
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rating import LEVELS
from sudoku_server.text import parse
from sudoku_server.wire import replies
from sudoku_server.wire.replies import connections_busy_line, error_line, render
from sudoku_server.wire.verbs import VERBS

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def grid(text: str) -> Grid:
    return Grid(tuple(0 if ch == "." else int(ch) for ch in text))


def test_error_line_is_ascii_with_backslash_escapes():
    assert error_line(CommandError('PING: unknown argument "é"; try HELP PING'), "\r\n") == (
        b'ERROR command PING: unknown argument "\\xe9"; try HELP PING\r\n'
    )
    assert render(Failed(InternalError("ValueError while solving the puzzle at line 3"))) == (
        b"ERROR internal ValueError while solving the puzzle at line 3\n"
    )


def test_solved_in_the_layout_sent():
    puzzle = parse(INKALA + "\r\n")
    assert render(Solved(grid(INKALA_SOLUTION)), "\r\n", puzzle) == INKALA_SOLUTION.encode() + b"\r\n"
    wide = parse("".join(chr(ord(c) + 0xFEE0) for c in INKALA) + "\n")
    assert render(Solved(grid(INKALA_SOLUTION)), "\n", wide) == (
        "".join(chr(ord(c) + 0xFEE0) for c in INKALA_SOLUTION) + "\n"
    ).encode("utf-8")
    with pytest.raises(ValueError):
        render(Solved(grid(INKALA_SOLUTION)))


def test_mismatch_gets_the_line_of_its_row():
    puzzle = parse("\n\n" + INKALA + "," + INKALA_SOLUTION + "\n")
    error = SolutionMismatchError(
        "the row's solution has 3 at r1c3, the solution found has 2", cell=2, expected=3, found=2
    )
    assert render(Failed(error), "\n", puzzle) == (
        b"ERROR mismatch line 3: the row's solution has 3 at r1c3, the solution found has 2\n"
    )


@pytest.mark.parametrize(
    ("count", "limit", "line"),
    [
        (0, 2, "COUNT 0 unsolvable"),
        (1, 2, "COUNT 1 unique"),
        (2, 2, "COUNT 2+ multiple"),
        (37, 1000, "COUNT 37"),
        (1000, 1000, "COUNT 1000+"),
        (1, 1, "COUNT 1+"),
    ],
)
def test_count(count, limit, line):
    assert render(Counted(count, limit), "\r\n") == line.encode() + b"\r\n"


def test_simple_replies():
    assert render(Pong(), "\r\n") == b"PONG\r\n"
    assert render(Bye()) == b"BYE\n"
    assert replies.idle_bye(300.0) == b"BYE idle for 300 s\n"
    assert render(VersionInfo("0.3.0", 2, "native")) == b"VERSION sudoku-server 0.3.0 protocol=2 core=native\n"
    assert render(InteractiveOn(300.0)) == (
        b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\n"
    )
    assert render(StatsShown((("pid", 7), ("solver_seconds", 0.5), ("core", "native")))) == (
        b"STAT pid 7\nSTAT solver_seconds 0.500\nSTAT core native\nEND\n"
    )


def test_help():
    assert render(HelpShown("count"), "\n") == (
        b"HELP COUNT [limit=N] [rules=R] <puzzle>\n  count solutions up to N (default 2, at most 1000)\n"
        b"  example: COUNT " + b"." * 80 + b"9"
        b" -> COUNT 2+ multiple\nEND\n"
    )
    assert render(HelpShown("fly")) == b'ERROR command HELP: unknown verb "FLY"; try HELP\n'
    whole = render(HelpShown(None)).decode()
    assert whole.startswith("HELP sudoku-server, protocol 2:") and whole.endswith("\nEND\n")


def test_help_texts_follow_the_one_definition_of_sizes_symmetries_levels_and_limits():
    usage = VERBS["GENERATE"].usage
    assert f"[symmetry={'|'.join(GENERATE_SYMMETRIES)}]" in usage
    assert f"[level={'|'.join(LEVELS)}]" in usage
    assert f"[format={'|'.join(GENERATE_FORMATS)}]" in usage
    assert "[size=9]" in usage and 9 in SIZES
    assert f"at most {MAX_COUNT_LIMIT}" in VERBS["COUNT"].summary
    # and the validation errors list the same
    with pytest.raises(CommandError) as caught:
        Generate.validate((), {"size": "1"})
    assert caught.value.detail == f'GENERATE: size must be {", ".join(map(str, SIZES[:-1]))} or {SIZES[-1]}, not "1"'


def test_technique_replies():
    rated = answer(Rate(grid(EASY)))
    assert isinstance(rated, Rated)
    line = render(rated, "\n")
    assert line.startswith(b"RATE easy se=") and line.endswith(b" method=techniques hodoku=easy:196\n")
    assert render(Hinted(None)) == b"HINT none: the grid is complete\n"


def test_generated_line_and_grid():
    made = answer(Generate(size=4, seed=1, format="grid"))
    data = render(made, "\n").decode()
    assert data.startswith("# generated size=4 givens=") and " seed=1 minimal=yes\n" in data
    assert data.endswith("\n\n") and "+-----+-----+" in data
    line = render(answer(Generate(seed=42)), "\r\n").decode()
    assert line.split("\r\n")[0] == "# generated size=9 givens=23 symmetry=none seed=42 minimal=yes"
    assert len(line.split("\r\n")[1]) == 81


def test_lines_the_network_layer_sends():
    assert replies.timeout_line(10.0, "\r\n") == b"ERROR timeout no answer within 10 s\r\n"
    assert replies.internal_line(KeyError("x"), "the GENERATE at line 4") == (
        b"ERROR internal KeyError while answering the GENERATE at line 4\n"
    )
    assert replies.not_solved_line("queue wait over 5 s", "puzzle at line 2") == (
        b"ERROR busy queue wait over 5 s; the puzzle at line 2 was not solved\n"
    )
    assert replies.shutdown_line("puzzle at line 9") == (
        b"ERROR shutdown server shutting down before the puzzle at line 9 was answered\n"
    )
    assert replies.unread_line(12) == b"ERROR shutdown server shutting down; input from line 12 on was not read\n"
    assert replies.connections_busy_line(100) == b"ERROR busy 100 connections open, try again later\n"
    assert replies.connections_busy_line(4, "10.0.0.7") == (
        b"ERROR busy 4 connections open from 10.0.0.7, try again later\n"
    )


def test_render_many_is_render_of_each():
    puzzles = [parse(INKALA + "\n"), parse("88" + INKALA[2:] + "\r\n")]
    results = [Solved(grid(INKALA_SOLUTION)), Failed(PuzzleError("x"))]
    assert replies.render_many(results, puzzles) == b"".join(
        render(result, puzzle.default_ending, puzzle) for result, puzzle in zip(results, puzzles)
    )


def test_every_result_type_has_a_renderer():
    from sudoku_server.service.results import Result

    assert set(replies.RENDERERS) == set(Result.__args__)


def test_busy_line_says_one_connection():
    assert connections_busy_line(1, "192.0.2.50") == b"ERROR busy 1 connection open from 192.0.2.50, try again later\n"
    assert connections_busy_line(2) == b"ERROR busy 2 connections open, try again later\n"
