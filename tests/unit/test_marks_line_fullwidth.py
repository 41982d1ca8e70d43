"""s10-break finding 12: a marks line reads full-width digits, dots and low lines in its givens as the other
one-line layouts do (LAYOUTS.md "Empty cells", "Pasted grids"), answered in full width when most cells are;
a full-width letter that is no symbol is named as sent. Fed whole, one byte at a time, and with a request after."""

from __future__ import annotations

import pytest

from tests.support.sessions import replies

GIVENS = ".....6.............6..1.4...........3.2.......4....6.9.......1.135..............."
MARKS = (
    " thermo=r9c1-r8c2-r7c3;r2c7-r3c8-r2c9;r7c7-r8c8-r9c8;r2c4-r2c5-r1c5;r6c5-r6c6-r5c6;"
    "r5c5-r4c4-r3c4;r1c4-r1c3-r1c2-r1c1-r2c1;r7c5-r8c4-r7c4-r8c5;r3c6-r4c6-r5c7"
)
ANSWER = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"
WIDE = str.maketrans({".": "\uff0e", "_": "\uff3f", **{str(d): chr(0xFF10 + d) for d in range(10)}})


@pytest.mark.parametrize(
    ("givens", "answer"),
    [
        (GIVENS.translate(WIDE), ANSWER.translate(WIDE)),  # every cell full width: answered in full width
        (
            GIVENS.replace("6", "\uff16"),
            ANSWER[:5] + "\uff16" + ANSWER[6:19] + "\uff16" + ANSWER[20:51] + "\uff16" + ANSWER[52:],
        ),  # only some digits: they stay as sent, the rest ASCII
        (  # full-width low lines: most cells are full width, so the filled cells are; the givens stay as sent
            GIVENS.replace(".", "\uff3f"),
            "".join(a.translate(WIDE) if g == "." else a for g, a in zip(GIVENS, ANSWER)),
        ),
    ],
    ids=["all-wide", "wide-digits", "wide-low-lines"],
)
@pytest.mark.parametrize("bytewise", [False, True], ids=["whole", "bytewise"])
def test_a_marks_line_reads_full_width_givens(givens, answer, bytewise):
    assert replies((givens + MARKS + "\nPING\n").encode(), bytewise) == (answer + "\nPONG\n").encode()


def test_a_full_width_letter_in_the_givens_is_named_as_sent():
    line = GIVENS[:4] + "\uff58" + GIVENS[5:] + MARKS
    assert replies(line.encode() + b"\n") == b"ERROR format line 1: U+FF58 is not a 9x9 symbol at r1c5\n"
