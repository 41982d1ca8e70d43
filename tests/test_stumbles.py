"""Issue 17, the small stumbles: quoted input escaped one way, captions above a puzzle, an unknown word after
SOLVE/HINT, STATS counted when answered, the HELP examples, the client's summary, line numbers and seeds."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_client import cli as client_cli
from sudoku_client.interactive import ShiftedOutput, shift_line_numbers
from sudoku_client.replies import ReplyScanner
from sudoku_server.errors import escape, quote
from sudoku_server.service.requests import MAX_SEED
from sudoku_server.sudoku.solver import CORE
from sudoku_server.wire.replies import help_lines
from sudoku_server.wire.verbs import VERBS
from tests.support.servers import ask, stat_values

ROOT = Path(__file__).resolve().parent.parent
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
NOT_A_DIGIT = "is not a digit 1-9 or an empty mark (. 0 _)"


# -- 1. one escape for every reply that quotes input ----------------------------------------

#: (the character, as a quoted word shows it, as a bad digit names it)
CONTROLS = [
    pytest.param("\x1b", r"\x1b", "U+001B", id="ESC"),
    pytest.param("\x07", r"\x07", "U+0007", id="BEL"),
    pytest.param("\x00", r"\x00", "U+0000", id="NUL"),
    pytest.param("\x7f", r"\x7f", "U+007F", id="DEL"),
    pytest.param("\x9b", r"\x9b", "U+009B", id="C1-CSI"),
    pytest.param("é", r"\xe9", "U+00E9", id="e-acute"),  # printable, but an ERROR line is ASCII: Python's escape
]


@pytest.mark.parametrize("ch,shown,named", CONTROLS)
async def test_every_path_that_quotes_input_escapes_it_the_same_way(ch, shown, named):
    upper = r"\xc9" if ch == "é" else shown  # HELP names the verb in upper case
    lines = [
        f"COUNT l{ch}mit=5",
        f"PING n{ch}w",
        f"HELP fo{ch}o",
        f"GENERATE seed=1{ch}",
        f"GENERATE size=1{ch}",
        f"GENERATE symmetry=r{ch}",
        f"GENERATE format=l{ch}",
        f"GENERATE level=e{ch}",
        f"GENERATE se=7{ch}",
        INKALA[:5] + ch + INKALA[6:],
    ]
    reply = await ask("".join(line + "\n" for line in lines).encode("utf-8"))
    assert reply == (
        f'ERROR command COUNT: unknown option "l{shown}mit"; try HELP COUNT\n'
        f'ERROR command PING: unknown argument "n{shown}w"; try HELP PING\n'
        f'ERROR command HELP: unknown verb "FO{upper}O"; try HELP\n'
        f"ERROR command GENERATE: seed must be 0 to {MAX_SEED}, not '1{shown}'\n"
        f"ERROR command GENERATE: size must be 4, 6, 9, 16 or 25, not 1{shown}\n"
        f"ERROR command GENERATE: symmetry must be none, rot180, rot90, mirror, diagonal or random, not r{shown}\n"
        f"ERROR command GENERATE: format must be line or grid, not l{shown}\n"
        f"ERROR command GENERATE: level must be easy, medium, hard, expert or extreme, not e{shown}\n"
        f"ERROR command GENERATE: se must be a rating or a band such as 7.0-7.5, not 7{shown}\n"
        f"ERROR format line 10, column 6: {named} {NOT_A_DIGIT} at r1c6\n"
    ).encode("ascii")
    assert all(b < 0x7F and (b >= 0x20 or b == 0x0A) for b in reply)  # not one raw control byte


async def test_a_cr_in_the_middle_ends_the_line_and_is_never_echoed():
    # A lone CR is a line end (PROTOCOL.md "Transport"): the option is cut there, and each reply ends as its line did.
    reply = await ask(b"COUNT l\rmit=5\n")
    assert reply == (
        b'ERROR command COUNT: unknown option "l"; try HELP COUNT\r'
        b"ERROR format line 2, column 1: 'm' " + NOT_A_DIGIT.encode() + b"\n"
    )


def test_the_escape_is_one_function():
    assert escape("a\\b\t\n\r\x1b\x85é\u0663\U0001f600\udcfe") == r"a\\b\t\n\r\x1b\x85\xe9\u0663\U0001f600\xfe"
    assert quote('say "hi"') == r'"say \"hi\""'
    assert quote("it's", "'") == r"'it\'s'"


# -- 2. captions --------------------------------------------------------------------------

BORDERED = "+-------+-------+-------+\n" + "".join(
    "| "
    + " | ".join(" ".join(INKALA[r * 9 + c * 3 : r * 9 + c * 3 + 3]) for c in range(3))
    + " |\n"
    + ("+-------+-------+-------+\n" if r % 3 == 2 else "")
    for r in range(9)
)
BORDERED_ANSWER = (
    "+-------+-------+-------+\n"
    + "".join(
        "| "
        + " | ".join(" ".join(INKALA_SOLUTION[r * 9 + c * 3 : r * 9 + c * 3 + 3]) for c in range(3))
        + " |\n"
        + ("+-------+-------+-------+\n" if r % 3 == 2 else "")
        for r in range(9)
    )
    + "\n"
)
PLAIN = "".join(INKALA[r * 9 : r * 9 + 9] + "\n" for r in range(9))
PLAIN_ANSWER = "".join(INKALA_SOLUTION[r * 9 : r * 9 + 9] + "\n" for r in range(9)) + "\n"


@pytest.mark.parametrize("caption", ["Today's puzzle:", "Here is today's puzzle:", "Sudoku 2024-06-01 (hard)"])
@pytest.mark.parametrize("grid,answer", [(BORDERED, BORDERED_ANSWER), (PLAIN, PLAIN_ANSWER)], ids=["bordered", "plain"])
async def test_a_caption_right_above_a_grid_is_skipped_whatever_its_first_word(caption, grid, answer):
    assert await ask((caption + "\n" + grid).encode()) == answer.encode()


@pytest.mark.parametrize(
    "text,reply",
    [
        ("Today's puzzle:\n\n", "ERROR format line 1, column 1: 'T' " + NOT_A_DIGIT + "\n"),  # a blank line between
        ("Here is today's puzzle:\n\n", 'ERROR command unknown verb "HERE"; try HELP\n'),
        ("hello\n", 'ERROR command unknown verb "HELLO"; try HELP\n'),  # one word: a mistyped verb, not a caption
        ("COUNTT limit=5\n", 'ERROR command unknown verb "COUNTT"; try HELP\n'),
    ],
)
async def test_prose_not_right_above_a_puzzle_keeps_its_error(text, reply):
    assert await ask((text + PLAIN).encode()) == (reply + PLAIN_ANSWER).encode()


def _client(tmp_path, capsys, text: str, port: int, *extra: str) -> tuple[int, str]:
    path = tmp_path / "in.txt"
    path.write_text(text)
    status = client_cli.main(["--port", str(port), "--summary", *extra, str(path)])
    return status, capsys.readouterr().err


@pytest.fixture
def server_port():
    """A server in a child process (the client's main blocks), on a free port."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = None
        assert proc.stderr is not None
        for line in proc.stderr:
            found = re.search(r"127\.0\.0\.1 port (\d+)", line) or re.search(r"127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
                break
        assert port is not None
        yield port
    finally:
        proc.terminate()
        proc.wait(10)
        assert proc.stderr is not None
        proc.stderr.close()


def test_the_client_summary_and_exit_status_agree(tmp_path, capsys, server_port):
    status, err = _client(tmp_path, capsys, "Here is today's puzzle:\n" + PLAIN, server_port)
    assert status == 0
    assert re.fullmatch(r"sudoku-client: 1 puzzle: 1 solved, 0 errors; \S+ s, \S+ puzzles/s\n", err), err
    status, err = _client(tmp_path, capsys, "hello\n\n" + PLAIN, server_port)
    assert status == 1
    assert re.fullmatch(
        r"sudoku-client: 1 puzzle: 1 solved, 0 errors; 1 line was not a puzzle \(an error: exit status 1\);"
        r" \S+ s, \S+ puzzles/s\n",
        err,
    ), err


# -- 3. a word after SOLVE or HINT ------------------------------------------------------------


@pytest.mark.parametrize("verb", ["SOLVE", "HINT", "COUNT", "RATE"])
async def test_a_word_after_a_puzzle_verb_is_an_unknown_option(verb):
    reply = await ask(f"{verb} fast {INKALA}\n{verb} fast\n".encode())
    line = f'ERROR command {verb}: unknown option "fast"; try HELP {verb}\n'
    assert reply == (line * 2).encode()


async def test_known_flags_and_word_like_puzzles_still_work():
    letters16 = "ABCD EFGH IJKL MNOP"  # a letters row: a grid, not an option, as before
    reply = await ask(f"SOLVE any {INKALA}\nHINT nudge {INKALA}\nSOLVE {INKALA}\nSOLVE {letters16}\n".encode())
    lines = reply.decode().splitlines()
    assert lines[0] == INKALA_SOLUTION
    assert lines[1].startswith("HINT ") and "look at" in lines[1]
    assert lines[2] == INKALA_SOLUTION
    assert lines[3] == (
        "ERROR command SOLVE: the puzzle on its line must be a whole one-line puzzle; put a grid on the lines after SOLVE"
    )


# -- 4. STATS counts at the time it is answered ----------------------------------------------------


async def test_stats_after_pipelined_puzzles_counts_them():
    n = 5
    reply = await ask((f"SOLVE {INKALA}\n" * n + "STATS\n").encode())
    answers, stats = reply.split(b"STAT ", 1)
    assert answers == (INKALA_SOLUTION + "\n").encode() * n
    values = stat_values(b"STAT " + stats)
    assert (values["puzzles"], values["answers"], values["queued"], values["running"]) == (str(n), str(n), "0", "0")


async def test_protocol_md_lists_every_stat_field():
    # GENERATE level=easy starts that level's warm pool: its pool_easy field is sent too (issue 20)
    reply = await ask(b"PING\nHELP fo\nGENERATE level=easy\nSTATS\n")
    values = stat_values(reply.split(b"\n", 4)[4])
    text = (ROOT / "docs" / "PROTOCOL.md").read_text()
    section = text[text.index("### STATS") :]
    section = section[: section.index("\n## ")] if "\n## " in section else section
    documented = set(re.findall(r"^\| `([a-z_0-9<>]+)` \|", section, re.M))
    pools = {"pool_served", "pool_fill_seconds"}
    sent = {
        "errors_<code>"
        if name.startswith("errors_")
        else "pool_<label>"
        if name.startswith("pool_") and name not in pools
        else name
        for name in values
    }
    assert "pool_easy" in values
    assert sent == documented


# -- 5. HELP examples, SOLVE any, client line numbers and seeds ------------------------------------------


def _runnable_examples() -> list[tuple[str, str | None]]:
    out = []
    for verb in VERBS.values():
        request, _, expected = verb.example.partition(" -> ")
        if "<" in request:
            continue  # a placeholder (<puzzle>), not a line to send
        out.append((request, expected if expected and "<" not in expected and "..." not in expected else None))
    return out


async def test_every_help_example_runs_and_answers_as_shown():
    examples = _runnable_examples()
    assert "HELP COUNT" in [request for request, _ in examples]
    for request, expected in examples:
        if request.split()[0] == "QUIT":
            continue  # ends the connection: sent last, below
        reply = await ask((request + "\n").encode())
        assert not reply.startswith(b"ERROR"), (request, reply)
        if expected is not None:
            assert reply.decode().splitlines()[0] == expected, request
    assert await ask(b"QUIT\n") == b"BYE\n"
    help_count = "\n".join(help_lines("COUNT"))
    assert "COUNT " + "." * 80 + "9 -> COUNT 2+ multiple" in help_count


@pytest.mark.skipif(CORE != "native", reason="the README shows what the default (native) build prints")
async def test_the_readme_solve_any_example_is_what_the_server_prints():
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("printf 'SOLVE any %s\\n'") :]
    shown = block.splitlines()[1]
    assert await ask(b"SOLVE any " + b"." * 81 + b"\n") == (shown + "\n").encode()


def test_client_line_numbers_count_from_the_persons_first_line():
    assert shift_line_numbers(b"ERROR format line 4: expected 9 cells, found 8\n", 1) == (
        b"ERROR format line 3: expected 9 cells, found 8\n"
    )
    assert shift_line_numbers(b"ERROR busy x; the puzzles at lines 3 to 9 was not solved\n", 1) == (
        b"ERROR busy x; the puzzles at lines 2 to 8 was not solved\n"
    )
    assert shift_line_numbers(b"123456789\n", 1) == b"123456789\n"

    class Sink:
        def __init__(self) -> None:
            self.data = b""

        def write(self, data: bytes) -> None:
            self.data += data

        def flush(self) -> None:
            pass

    from sudoku_client.exchange import Output

    sink = Sink()
    shifted = ShiftedOutput(Output(sink, ReplyScanner()))  # type: ignore[arg-type]
    for piece in (b"ERROR format li", b"ne 2, column 1: 'x' is", b" not a digit\n", INKALA_SOLUTION.encode(), b"\n"):
        assert shifted.write(piece)
    assert sink.data == b"ERROR format line 1, column 1: 'x' is not a digit\n" + INKALA_SOLUTION.encode() + b"\n"


def test_client_refuses_seeds_past_64_bits(capsys):
    with pytest.raises(SystemExit) as caught:
        client_cli.main(["--generate", "2", "--seed", str(MAX_SEED)])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(
        f"error: --seed {MAX_SEED} with --generate 2 would send seed={MAX_SEED + 1};"
        f" seeds are 0 to {MAX_SEED} (2**64 - 1)\n"
    ), err
    assert client_cli.MAX_SEED == MAX_SEED
