"""The line syntax of the rules that take marks (issue 29): ``<givens> <word>=<marks>``, as docs/LAYOUTS.md shows.

One example per rule: the unique puzzles of tests/unit/test_rule_marks.py (made with CP-SAT), written
as an nc user types them; each is answered bare, after SOLVE and after COUNT, in exact bytes.
"""

from __future__ import annotations

import pytest

from sudoku_server.service.answer import answer
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import Reply, RequestReceived, Session
from tests.support.marks_examples import EXAMPLES, SOLUTION


def replies(data: bytes) -> bytes:
    """What the server answers to ``data`` (then end of input)."""
    session = Session()
    out = []
    for event in session.receive_data(data) + session.receive_eof():
        if isinstance(event, Reply):
            out.append(event.data)
        elif isinstance(event, RequestReceived):
            out.append(render(answer(event.request), event.ending, event.puzzle))
    return b"".join(out)


@pytest.mark.parametrize("word", sorted(EXAMPLES))
def test_each_rule_s_example_is_answered(word: str) -> None:
    givens, marks = EXAMPLES[word]
    line = f"{givens} {word}={marks}"
    request = f"{line}\nSOLVE {line}\nCOUNT rules={word} {line}\n"
    assert replies(request.encode()) == f"{SOLUTION}\n{SOLUTION}\nCOUNT 1 unique\n".encode()


def test_marks_errors_name_the_mark():
    givens = EXAMPLES["thermo"][0]
    assert replies(f"{givens} thermo=r1c1-r1c99\n".encode()) == (
        b'ERROR format line 1: thermo= mark 1: "r1c99" is not a cell of the grid\n'
    )
    assert replies(f"{givens} xv=r1c1-r1c2:y\n".encode()) == (
        b"ERROR format line 1: xv= mark 1 is not two cells then :x or :v, nor negative\n"
    )
    assert (
        replies(f"{givens} thermo=r1c1\n".encode()) == b"ERROR format line 1: thermo= mark 1 has fewer than 2 cells\n"
    )
    broken = ".75" + givens[3:]
    assert replies(f"{broken} thermo=r1c1-r1c2-r1c3-r1c4\n".encode()) == (
        b"ERROR invalid thermometer r1c1-r1c4: 7 at r1c2 is not below 5 at r1c3\n"
    )


@pytest.mark.parametrize(
    ("marks", "error"),
    [
        ("littlekiller=r2c1-r1c2", "littlekiller= mark 1 has no :sum"),  # it was read as sum 0: unsolvable
        ("littlekiller=r9c1:", "littlekiller= mark 1 has no :sum"),
        ("thermo=r1c1-r1c2:5", 'thermo= mark 1 takes no :value, not ":5"'),  # it was ignored
        ("renban=r1c1-r1c2;r2c1-r2c2:1", 'renban= mark 2 takes no :value, not ":1"'),
        ("palindrome=r1c1-r1c2:x", 'palindrome= mark 1 takes no :value, not ":x"'),
        ("whispers=r1c1-r1c2:\u0663", 'whispers= mark 1: "\\u0663" is not a number'),  # an Arabic-Indic 3 read as 3
        ("littlekiller=r1c2-r2c1:3;;r9c1:7", "littlekiller= mark 2 is empty"),  # it had "fewer than 1 cells"
    ],
)
def test_a_mark_s_value_is_there_exactly_when_its_rule_takes_one(marks, error):
    """Break-session findings: a little killer without its sum, a value on a rule that takes none, a digit of
    another script: each is the mark's error now, as a kropki or sandwich mark without its value is."""
    assert replies(f"{'.' * 81} {marks}\n".encode()) == f"ERROR format line 1: {error}\n".encode()


def test_marks_after_a_line_that_is_no_one_line_puzzle_name_the_line():
    """Break-session finding: a labelled line, a jigsaw line, ... before marks got ``ERROR format expected 81 cells,
    found 84``: no line, and the label counted as cells."""
    assert replies(f"PING\nid:{'.' * 81} thermo=r1c1-r1c2\n".encode()) == (
        b"PONG\nERROR format line 2: marks (thermo=) follow a one-line puzzle of 16, 36, 81, 256 or 625 cells with"
        b" nothing else before them, not 84 characters (other layouts take rules as f-puzzles)\n"
    )
    assert (
        replies(f"{'.' * 80}x thermo=r1c1-r1c2\n".encode()) == b"ERROR format line 1: 'x' is not a 9x9 symbol at r9c9\n"
    )


def test_a_marks_line_takes_a_trailing_comment_left_out_of_its_answer():
    """Break-session finding: ``# note`` after the marks was ``"#" is no word=marks field``; the other one-line forms
    take a comment (an f-puzzles line's is left out of its answer of digits, and so is this one's)."""
    givens, marks = EXAMPLES["thermo"]
    request = f"{givens} thermo={marks} # note\nCOUNT {givens} thermo={marks}\t#\n"
    assert replies(request.encode()) == f"{SOLUTION}\nCOUNT 1 unique\n".encode()
