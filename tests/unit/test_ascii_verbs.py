"""s10-break finding 3: verbs, flags, options, rule words and option values match ASCII only (``str.upper()`` and
``str.lower()`` map ``ı``, ``ſ`` and the Kelvin sign to ASCII letters); a quoted word echoes what was sent; a
word of letters that are not all ASCII gets the unknown-verb error of a word of letters. Fed whole, one byte at
a time, and with a request after them."""

from __future__ import annotations

import pytest

from sudoku_server.wire.verbs import ascii_lower, ascii_upper
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.sessions import replies

PUZZLE = NEWSPAPER_LINE.encode()
ANSWER = NEWSPAPER_SOLUTION.encode() + b"\n"
RULES = (
    b"classic, x, windoku, antiknight, antiking, nonconsecutive, jigsaw, killer, disjoint, oddeven, thermo, kropki,"
    b" xv, whispers, palindrome, renban, arrow, littlekiller, sandwich"
)


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("SOLVE rules=\u212a", b"ERROR command SOLVE: rules: unknown rule '\\u212a' (rules are " + RULES + b")\n"),
        (
            "SOLVE rules=x+\u212ailler",
            b"ERROR command SOLVE: rules: unknown rule '\\u212ailler' (rules are " + RULES + b")\n",
        ),
        ("P\u0131NG", b'ERROR command unknown verb "P\\u0131NG"; try HELP\n'),
        ("\u017fOLVE " + NEWSPAPER_LINE, b'ERROR command unknown verb "\\u017fOLVE"; try HELP\n'),
        ("HELP p\u0131ng", b'ERROR command HELP: unknown verb "P\\u0131NG"; try HELP\n'),
        (
            "COUNT l\u0131m\u0131t=5 " + NEWSPAPER_LINE,
            b'ERROR command COUNT: unknown option "l\\u0131m\\u0131t"; try HELP COUNT\n',
        ),
        (
            "HINT all \u212araken " + NEWSPAPER_LINE,
            b'ERROR command HINT: unknown option "\\u212araken"; try HELP HINT\n',
        ),
        (
            "SOLVE format=lin\u212a " + NEWSPAPER_LINE,
            b'ERROR command SOLVE: format must be line, fpuzzles or link, not "lin\\u212a"\n',
        ),
        ("hell\u00f6", b'ERROR command unknown verb "HELL\\xf6"; try HELP\n'),
        ("S\u00d6LVE " + NEWSPAPER_LINE, b'ERROR command unknown verb "S\\xd6LVE"; try HELP\n'),
    ],
    ids=[
        "kelvin-rule",
        "kelvin-in-rules",
        "dotless-i-verb",
        "long-s-verb",
        "help-topic",
        "option-name",
        "flag",
        "option-value",
        "hello-umlaut",
        "verb-umlaut",
    ],
)
@pytest.mark.parametrize("bytewise", [False, True], ids=["whole", "bytewise"])
def test_look_alikes_match_no_ascii_word_and_are_echoed_as_sent(line, reply, bytewise):
    assert replies(line.encode() + b"\nPING\n", bytewise) == reply + b"PONG\n"


def test_ascii_words_still_match_in_any_case():
    assert replies(b"solve " + PUZZLE + b"\nhelp PiNg\nCount LIMIT=2 " + PUZZLE + b"\n") == (
        ANSWER
        + b"HELP PING\n  health check, answered without the solver\n  example: PING -> PONG\nEND\nCOUNT 1 unique\n"
    )


def test_ascii_case_changes_only_ascii_letters():
    assert ascii_upper("p\u0131ng\u00f6") == "P\u0131NG\u00f6"
    assert ascii_lower("\u212aRAKEN") == "\u212araken"
    assert (ascii_upper("solve"), ascii_lower("LIMIT")) == ("SOLVE", "limit")
