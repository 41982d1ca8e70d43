"""Protocol 2 commands (issue 9): the session's events, and exact bytes through the server."""

from __future__ import annotations

import gzip

import pytest
import trio

from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Help, Ping, Quit, Solve, Version
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import count_solutions
from sudoku_server.wire import replies as commands
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import CloseConnection, CommandReceived, PuzzleReceived, Reply, Session
from sudoku_server.wire.verbs import VERBS, CommandError, parse_command
from tests.support.examples import (
    J1,
    J1_SOLUTION,
    NEWSPAPER,
    NEWSPAPER_ANSWER,
    NEWSPAPER_LINE,
    NEWSPAPER_SOLUTION,
    PLAIN_ROWS,
)
from tests.support.paths import REPO
from tests.support.servers import exchange, running_server
from tests.support.sessions import replies, session_events


def answer_request(puzzle, request=None) -> bytes:
    """The reply to a puzzle and the request it came with (a bare puzzle: solve it), as the server sends it."""
    if request is None:
        request = Solve(puzzle.grid, expected=puzzle.expected)
    return render(answer(request, about=f"the puzzle at line {puzzle.first_line}"), puzzle.default_ending, puzzle)


EMPTY = "." * 81
EMPTY_SOLUTION = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"


def describe(data: bytes, chunk: int = 0) -> list:
    """The session's events for ``data`` (whole or in ``chunk``-byte pieces), as tuples.

    A puzzle is answered with :func:`answer_request` (its request applied);
    a command is its typed request (``Ping()``), line and ending.
    """
    events = session_events(data, chunk)
    out = []
    for event in events:
        if isinstance(event, PuzzleReceived):
            out.append(("answer", answer_request(event.puzzle, event.request).decode()))
        elif isinstance(event, CommandReceived):
            out.append(("command", event.request, event.line, event.ending))
        elif isinstance(event, Reply):
            out.append(("reply", event.data.decode()))
        else:
            assert isinstance(event, CloseConnection)
            out.append(("close",))
    return out


def events(text: str) -> list:
    """describe() of ``text``, checked to agree whole, one byte at a time and in 7-byte chunks."""
    data = text.encode()
    whole = describe(data)
    assert describe(data, chunk=1) == whole
    assert describe(data, chunk=7) == whole
    return whole


# -- which lines are commands ----------------------------------------------------


@pytest.mark.parametrize("line", ["PING", "ping", "Ping", "  PING  "])
def test_verbs_in_any_case(line):
    assert events(line + "\n") == [("command", Ping(), 1, "\n")]


def test_replies_keep_the_request_line_ending():
    assert events("PING\r\n") == [("command", Ping(), 1, "\r\n")]


def test_words_that_are_not_cells_get_unknown_verb():
    assert events("hello\nHello, world!\nuniquely " + NEWSPAPER_LINE + "\n") == [
        ("reply", 'ERROR command unknown verb "HELLO"; try HELP\n'),
        ("reply", 'ERROR command unknown verb "HELLO"; try HELP\n'),
        ("reply", 'ERROR command unknown verb "UNIQUELY"; try HELP\n'),
    ]


@pytest.mark.parametrize(
    ("data", "reply"),
    [
        (b"PING\x00\n", b'ERROR command unknown verb "PING\\x00"; try HELP\n'),
        (b"PING\xfe\n", b'ERROR command unknown verb "PING\\xfe"; try HELP\n'),
        (b"help\x1b\n", b'ERROR command unknown verb "HELP\\x1b"; try HELP\n'),
        (b"PING\xe2\x80\x8b\n", b'ERROR command unknown verb "PING\\u200b"; try HELP\n'),
        (b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\nPING\r\n", b'ERROR command unknown verb "PROXY"; try HELP\r\nPONG\r\n'),
        (b"PROXY UNKNOWN\r\n", b'ERROR command unknown verb "PROXY"; try HELP\r\n'),
    ],
)
@pytest.mark.parametrize("bytewise", [False, True])
def test_a_verb_with_a_byte_glued_on_and_a_proxy_header_are_unknown_verbs(data, reply, bytewise):
    """Break-session findings: ``PING<NUL>`` was ``column 1: 'P' is not a digit``, and a PROXY header whose address
    digits read as a 25x25 row was ``'R' is not a 25x25 symbol at r1c2``."""
    assert replies(data, bytewise) == reply


@pytest.mark.parametrize(
    ("char", "shown"),
    [(b"\xfe", "byte 0xFE"), ("é".encode(), "U+00E9"), ("\u200f".encode(), "U+200F"), (b"x", "'x'")],
)
def test_a_foreign_character_in_a_one_line_puzzle_is_named_with_its_cell_whatever_it_is(char, shown):
    """Break-session finding: at the same place, byte 0xFE was named "at r2c4" and U+00E9 with no cell."""
    line = NEWSPAPER_LINE[:12].encode() + char + NEWSPAPER_LINE[13:].encode() + b"\n"
    assert replies(line) == (
        f"ERROR format line 1, column 13: {shown} is not a digit 1-9 or an empty mark (. 0 _) at r2c4\n".encode()
    )


def test_letters_stay_symbols_of_larger_grids_and_labels_stay_labels():
    assert events(J1 + "\nid:" + NEWSPAPER_LINE + "\nunique:" + NEWSPAPER_LINE + "\n") == [
        ("answer", J1_SOLUTION + "\n"),
        ("answer", "id:" + NEWSPAPER_SOLUTION + "\n"),
        ("answer", "unique:" + NEWSPAPER_SOLUTION + "\n"),
    ]


def test_grids_commands_and_one_line_puzzles_mix_in_request_order():
    text = NEWSPAPER + "PING\n" + NEWSPAPER_LINE + "\nVERSION\n" + PLAIN_ROWS + "HELP solve\n"
    assert events(text) == [
        ("answer", NEWSPAPER_ANSWER),
        ("command", Ping(), 14, "\n"),
        ("answer", NEWSPAPER_SOLUTION + "\n"),
        ("command", Version(), 16, "\n"),
        ("answer", PLAIN_ROWS.replace(".", "x") and answer_request(_parse(PLAIN_ROWS)).decode()),
        ("command", Help("solve"), 26, "\n"),
    ]


def _parse(text):
    from sudoku_server.text import parse

    return parse(text)


def test_a_framed_grid_without_its_closing_border_then_a_command():
    lines = NEWSPAPER.splitlines(keepends=True)
    assert events("".join(lines[:-1]) + "PING\n") == [
        ("answer", "".join(NEWSPAPER_ANSWER.splitlines(keepends=True)[:-2]) + "\n"),
        ("command", Ping(), 13, "\n"),
    ]


# -- SOLVE -------------------------------------------------------------------


def test_solve_with_its_puzzle_on_the_same_line_answers_the_puzzle_alone():
    assert events("SOLVE " + NEWSPAPER_LINE + "\nsolve\t" + EMPTY + "\n") == [
        ("answer", NEWSPAPER_SOLUTION + "\n"),
        ("answer", EMPTY_SOLUTION + "\n"),
    ]


def test_solve_then_a_grid_on_the_next_lines():
    assert events("SOLVE\n" + NEWSPAPER) == [("answer", NEWSPAPER_ANSWER)]


def test_solve_any_gives_some_solution_of_an_open_grid():
    ((kind, text),) = events("SOLVE any " + EMPTY + "\n")
    solution = Grid.from_string(text.strip())
    assert kind == "answer" and all(solution.cells)
    assert count_solutions(solution) == 1


def test_an_inline_puzzle_error_counts_columns_from_the_start_of_the_line():
    bad = NEWSPAPER_LINE[:3] + "x" + NEWSPAPER_LINE[4:]
    assert events("SOLVE " + bad + "\n") == [
        ("reply", "ERROR format line 1, column 10: 'x' is not a digit 1-9 or an empty mark (. 0 _) at r1c4\n"),
    ]


def test_a_verb_with_no_puzzle_after_it():
    assert events("SOLVE\nPING\nCOUNT\n") == [
        ("reply", "ERROR command SOLVE at line 1: no puzzle followed it\n"),
        ("command", Ping(), 2, "\n"),
        ("reply", "ERROR incomplete input ended after COUNT at line 3, before its puzzle\n"),
    ]


def test_a_word_after_solve_is_an_unknown_option():
    # issue 17: a word that is not the puzzle is named as COUNT names "lmit" (it was a format error at 'w').
    assert events("SOLVE what\n") == [
        ("reply", 'ERROR command SOLVE: unknown option "what"; try HELP SOLVE\n'),
    ]


# -- COUNT -------------------------------------------------------------------


def test_count_words():
    inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    assert events("COUNT " + inkala + "\nCOUNT " + EMPTY + "\ncount 12345678." + "." * 8 + "9" + "." * 63 + "\n") == [
        ("answer", "COUNT 1 unique\n"),
        ("answer", "COUNT 2+ multiple\n"),  # the empty grid: at once, not a hang
        ("answer", "COUNT 0 unsolvable\n"),
    ]


def test_count_with_a_limit_and_invalid_givens():
    assert events("COUNT limit=1000 " + EMPTY + "\nCOUNT limit=5 11" + "." * 79 + "\n") == [
        ("answer", "COUNT 1000+\n"),
        ("answer", "ERROR invalid duplicate 1 in row 1 at r1c1 and r1c2\n"),  # as when solving
    ]


def known_counts():
    """tdoku's test puzzles with their published solution counts (3..847)."""
    path = REPO / "puzzles" / "datasets" / "tdoku_test_puzzles_native.txt.gz"
    out = []
    for line in gzip.open(path, "rt"):  # noqa: SIM115 (read whole, closed on exit)
        fields = line.strip().split(":")
        if len(fields) >= 2 and len(fields[0]) == 81 and 2 <= int(fields[1]) <= 1000:
            out.append((fields[0], int(fields[1])))
    return out


@pytest.mark.parametrize("puzzle,count", known_counts()[:6])
def test_count_matches_published_counts(puzzle, count):
    assert describe(f"COUNT limit=1000 {puzzle}\n".encode()) == [("answer", f"COUNT {count}\n")]


# -- bad arguments -------------------------------------------------------------


@pytest.mark.parametrize(
    "line,error",
    [
        ("GENERATE size=10", 'GENERATE: size must be 4, 6, 9, 16 or 25, not "10"'),
        (
            "GENERATE symmetry=spiral",
            'GENERATE: symmetry must be none, rot180, rot90, mirror, diagonal or random, not "spiral"',
        ),
        ("GENERATE seed=-1", "GENERATE: seed must be 0 to 18446744073709551615, not -1"),
        ("GENERATE givens=20 size=4", "GENERATE: givens must be 0 to 16, not 20"),
        ("GENERATE format=svg", 'GENERATE: format must be line, grid, fpuzzles or link, not "svg"'),
        ("GENERATE full symmetry=rot180", "GENERATE: full makes a solved grid; givens and symmetry do not apply"),
        ("GENERATE fast", 'GENERATE: unknown argument "fast"; try HELP GENERATE'),
        ("COUNT limit=0 " + EMPTY, "COUNT: limit must be 1 to 1000, not 0"),
        ("COUNT limit=many " + EMPTY, 'COUNT: limit must be 1 to 1000, not "many"'),
        ("COUNT lmit=5 " + EMPTY, 'COUNT: unknown option "lmit"; try HELP COUNT'),
        ("PING now", 'PING: unknown argument "now"; try HELP PING'),
        ("HELP FLY", 'HELP: unknown verb "FLY"; try HELP'),
    ],
)
def test_bad_arguments_get_one_command_error(line, error):
    if line.startswith("HELP"):
        with pytest.raises(CommandError, match=f"^{error}$"):
            commands.help_lines(parse_command(line, 1, "\n").options["verb"])
        return
    assert events(line + "\nPING\n") == [
        ("reply", f"ERROR command {error}\n"),
        ("command", Ping(), 2, "\n"),
    ]


def test_quit_ends_the_request_stream():
    assert events("PING\nQUIT\nPING\n" + NEWSPAPER_LINE + "\n") == [
        ("command", Ping(), 1, "\n"),
        ("command", Quit(), 2, "\n"),
        ("close",),
    ]


def test_help_lists_every_verb_with_an_example():
    lines = commands.help_lines()
    assert lines[0].startswith("HELP ") and lines[-1] == "END"
    text = "\n".join(lines)
    for name, verb in VERBS.items():
        assert f"  {verb.usage}\n" in text + "\n"
        assert f"e.g. {verb.example}" in text


# -- through the server, exact bytes ----------------------------------------------


async def test_every_immediate_verb_over_a_socket():
    with trio.fail_after(10):
        async with running_server() as server:
            answer = await exchange(
                server,
                b"PING\r\nversion\r\nHELP ping\r\nCOUNT " + EMPTY.encode() + b"\r\nQUIT\r\nPING\r\n",
            )
    assert answer == (
        b"PONG\r\n"
        + b"VERSION sudoku-server 0.3.0 protocol=2 core=%s\r\n" % solver.CORE.encode()
        + b"HELP PING\r\n  health check, answered without the solver\r\n  example: PING -> PONG\r\nEND\r\n"
        b"COUNT 2+ multiple\r\n"
        b"BYE\r\n"
    )


async def test_stats_block():
    with trio.fail_after(10):
        async with running_server() as server:
            await exchange(server, (NEWSPAPER_LINE + "\nhello\n").encode())
            answer = await exchange(server, b"STATS\n")
    lines = answer.decode().splitlines()
    assert lines[-1] == "END"
    names = [line.split(" ")[1] for line in lines[:-1]]
    assert all(line.startswith("STAT ") and len(line.split(" ")) == 3 for line in lines[:-1])
    assert names == [
        "pid",
        "uptime",
        "version",
        "protocol",
        "core",
        "workers",
        "solver_threads",
        "connections_current",
        "connections_total",
        "connections_rejected",
        "puzzles",
        "answers",
        "errors_command",
        "solver_seconds",
        "queued",
        "running",
        "paused",
        "solve_ms_p50",
        "solve_ms_p99",
        "pool_served",
        "pool_fill_seconds",
    ]
    values = dict(line.split(" ")[1:] for line in lines[:-1])
    assert values["connections_total"] == "2" and values["puzzles"] == "1" and values["answers"] == "2"
    assert values["errors_command"] == "1" and values["connections_current"] == "1"
    assert float(values["solve_ms_p50"]) > 0


# -- RATE, HINT, STEPS (the technique engine) ------------------------------------

# Norvig's top95 #1: the engine needs pointing at most (SE 2.6).
TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_rate_hint_and_nudge_lines():
    assert events(f"RATE {TOP95_1}\nHINT {TOP95_1}\nhint nudge {TOP95_1}\n") == [
        ("answer", "RATE medium se=2.6 qqwing=intermediate hardest=pointing method=techniques hodoku=medium:696\n"),
        ("answer", "HINT hidden single: r6c2 is the only place for 4 in box 4 (r6c2=4)\n"),
        ("answer", "HINT hidden single: look at box 4\n"),
    ]


def test_steps_block_goes_to_the_solution():
    ((kind, text),) = events(f"STEPS\n{TOP95_1}\n")
    lines = text.splitlines()
    assert kind == "answer" and lines[-1] == "END"
    assert lines[0] == "STEPS 71 steps, medium se=2.6 qqwing=intermediate hardest=pointing method=techniques"
    assert lines[1] == "1. hidden single: r6c2 is the only place for 4 in box 4 (r6c2=4)"
    assert lines[-2] == "71. full house: r7c3 is the last empty cell in box 7 (r7c3=9)"
    assert len(lines) == 73


def test_rate_hint_steps_need_exactly_one_solution():
    assert events(f"RATE {EMPTY}\nHINT 12345678.{'.' * 8}9{'.' * 63}\nSTEPS 11{'.' * 79}\n") == [
        ("answer", "ERROR multiple the puzzle has more than one solution (r8c3 can be 2 or 8)\n"),
        ("answer", "ERROR unsolvable no digit fits r1c9\n"),
        ("answer", "ERROR invalid duplicate 1 in row 1 at r1c1 and r1c2\n"),
    ]


def test_hint_on_a_complete_grid():
    assert events(f"HINT {NEWSPAPER_SOLUTION}\n") == [("answer", "HINT none: the grid is complete\n")]


# -- found by the fresh-eyes session (tests/integration/test_unfinished_grids.py and test_pipelined_streams.py have more) ------


def test_a_letters_only_16x16_row_that_starts_with_a_verb_stays_a_row():
    letters = "ABCDEFGHIJKLMNOP"
    rows = [" ".join(letters[(4 * (r % 4) + r // 4 + c) % 16] for c in range(16)) for r in range(16)]
    rows[1] = "P I N G" + rows[1][7:]  # spaced cells, not the word PING
    grouped = [" ".join("".join(row.split()[k : k + 4]) for k in range(0, 16, 4)) for row in rows]
    assert grouped[0].startswith("ABCD EFGH")
    grouped[1] = "PING" + grouped[1][4:]
    text = "\n".join(grouped[:2]) + "\nPING\n"
    assert events(text) == [
        ("reply", "ERROR format line 3: the grid that starts at line 1 has 2 rows, expected 16\n"),
        ("command", Ping(), 3, "\n"),
    ]


def test_option_numbers_are_ascii_digits():
    assert events(f"COUNT limit=\u0663\u0663 {EMPTY}\nCOUNT limit=1_000 {EMPTY}\n") == [
        ("reply", 'ERROR command COUNT: limit must be 1 to 1000, not "\\u0663\\u0663"\n'),
        ("reply", 'ERROR command COUNT: limit must be 1 to 1000, not "1_000"\n'),
    ]


def test_ctrl_d_in_telnet_ends_the_input():
    assert events(NEWSPAPER_LINE + "\r\n" + "\x04\r\n" + NEWSPAPER_LINE + "\r\n") == [
        ("answer", NEWSPAPER_SOLUTION + "\r\n"),
        ("close",),
    ]


def test_too_large_keeps_the_stream_line_ending():
    session = Session(max_line_bytes=10)
    replies = session.receive_data(b"PING\r\n" + b"1" * 20)
    assert replies[-2].data == b"ERROR too-large line 2 is longer than 10 bytes\r\n"


# -- GENERATE ---------------------------------------------------------------------


async def generate_reply(line: str) -> bytes:
    with trio.fail_after(20):
        async with running_server() as server:
            return await exchange(server, line.encode() + b"\n")


async def test_generate_a_seeded_puzzle_in_both_formats():
    assert await generate_reply("GENERATE seed=42") == (
        b"# generated size=9 givens=23 symmetry=none seed=42 minimal=yes\n"
        b"287.4..........8..9..1...3..4..63.9......96....6.7...45....6.....2.........7.2..1\n"
    )
    assert await generate_reply("generate size=4 seed=1 format=grid") == (
        b"# generated size=4 givens=5 symmetry=none seed=1 minimal=yes\n"
        b"+-----+-----+\n| . 3 | . . |\n| 4 . | 3 . |\n+-----+-----+\n"
        b"| . . | 4 . |\n| 1 . | . . |\n+-----+-----+\n\n"
    )


async def test_generate_full_and_by_level_and_band():
    assert await generate_reply("GENERATE full seed=7") == (
        b"# generated size=9 givens=81 symmetry=none seed=7 minimal=no full=yes\n"
        b"637814952258936714149275638861392547374658129925741386593427861782163495416589273\n"
    )
    # seeds 1..6 rate below hard; seed 7 is the first hard one, and says so
    assert await generate_reply("GENERATE level=hard seed=1") == (
        b"# generated size=9 givens=27 symmetry=none seed=7 minimal=yes level=hard se=4.0\n"
        b".3781........3...41.....6....1..2.4.3....8..9.2..4.3.6....2..6...21.3.9....5.92..\n"
    )
    assert await generate_reply("GENERATE se=7.0-7.5 seed=3") == (
        b"# generated size=9 givens=23 symmetry=none seed=3 minimal=yes level=expert se=7.1\n"
        b".736........4.5...4....93.6.2..76....4.3..8.7...........9.....21.....7....6....98\n"
    )


async def test_a_generated_puzzle_sent_back_is_solved_and_unique():
    reply = await generate_reply("GENERATE symmetry=rot180 seed=42 format=grid")
    with trio.fail_after(20):
        async with running_server() as server:
            answer = await exchange(server, b"COUNT\n" + reply)
    assert answer == b"COUNT 1 unique\n"  # the # line is skipped as a comment


@pytest.mark.parametrize(
    "line,error",
    [
        (
            "GENERATE level=impossible",
            'GENERATE: level must be easy, medium, hard, expert or extreme, not "impossible"',
        ),
        ("GENERATE se=9-7", "GENERATE: se band 9-7 runs backwards; write it 7-9"),
        ("GENERATE se=99", "GENERATE: se 99 lies outside the scale (1.0 to 12.0): no puzzle is rated there"),
        ("GENERATE se=0-0.5", "GENERATE: se 0-0.5 lies outside the scale (1.0 to 12.0): no puzzle is rated there"),
        ("GENERATE full level=hard", "GENERATE: full makes a solved grid; level and se do not apply"),
        ("GENERATE size=16 level=hard", "GENERATE: level and se are for 9x9 puzzles (the ratings are 9x9)"),
    ],
)
def test_generate_level_arguments(line, error):
    assert events(line + "\n") == [("reply", f"ERROR command {error}\n")]


async def test_generate_a_level_that_cannot_be_met_in_time_is_a_timeout():
    with trio.fail_after(20):
        async with running_server(solve_timeout=0.3) as server:
            answer = await exchange(server, b"GENERATE se=11.5-11.9 seed=5\n")
    assert answer == b"ERROR timeout no answer within 0.3 s\n"


def test_bad_option_values_are_quoted_one_way_and_an_empty_one_shows():
    """s9-break finding 12: values were quoted three ways ('abc', xml, "maybe"); an empty ``format=`` ended the line
    in "not " and ``level="x`` showed a lone quote. Now every one as PROTOCOL.md "Quoted input" writes it."""
    from tests.support.sessions import replies

    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    assert replies(
        f'COUNT limit=abc {puzzle}\nSOLVE format= {puzzle}\nGENERATE level="x\nGENERATE size=x\n'.encode()
    ) == (
        b'ERROR command COUNT: limit must be 1 to 1000, not "abc"\n'
        b'ERROR command SOLVE: format must be line, fpuzzles or link, not ""\n'
        b'ERROR command GENERATE: level must be easy, medium, hard, expert or extreme, not "\\"x"\n'
        b'ERROR command GENERATE: size must be 4, 6, 9, 16 or 25, not "x"\n'
    )
