"""Quoted input is escaped one way: every reply that quotes a word, an option or a bad digit escapes
control and non-ASCII characters the same way (one function), and a lone CR ends the line.
"""

from __future__ import annotations

import pytest

from sudoku_server.errors import escape, quote
from sudoku_server.service.requests import MAX_SEED
from tests.support.examples import INKALA
from tests.support.servers import ask

NOT_A_DIGIT = "is not a digit 1-9 or an empty mark (. 0 _)"


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
    upper = shown  # HELP names the verb with its ASCII letters in upper case only: é stays é (s10-break finding 3)
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
        f'ERROR command GENERATE: seed must be 0 to {MAX_SEED}, not "1{shown}"\n'
        f'ERROR command GENERATE: size must be 4, 6, 9, 16 or 25, not "1{shown}"\n'
        f'ERROR command GENERATE: symmetry must be none, rot180, rot90, mirror, diagonal or random, not "r{shown}"\n'
        f'ERROR command GENERATE: format must be line, grid, fpuzzles or link, not "l{shown}"\n'
        f'ERROR command GENERATE: level must be easy, medium, hard, expert or extreme, not "e{shown}"\n'
        f'ERROR command GENERATE: se must be a rating or a band such as 7.0-7.5, not "7{shown}"\n'
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


def test_the_error_section_says_error_lines_are_ascii_and_its_examples_hold():
    """ERROR lines stay ASCII (break-session testers expected UTF-8): PROTOCOL.md's error section says why, and
    its two examples are what the server sends."""
    from tests.support.paths import REPO
    from tests.support.sessions import replies

    text = " ".join((REPO / "docs" / "PROTOCOL.md").read_text(encoding="utf-8").split())
    replies_section = text[text.index("## Replies") : text.index("## Connection lifecycle")]
    assert "Every `ERROR` line is ASCII, by design: a character it quotes from the request that is not ASCII" in (
        replies_section
    )
    assert "(`é` as `\\xe9`, `├` as `\\u251c`" in replies_section
    assert replies("FOO├\nPING é\n".encode()) == (
        b'ERROR command unknown verb "FOO\\u251c"; try HELP\nERROR command PING: unknown argument "\\xe9"; try HELP PING\n'
    )
