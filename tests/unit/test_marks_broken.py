"""A broken puzzle of each rule that takes marks is answered, never refused as unknown (issue 29).

Each rule's example (tests/support/marks_examples.py) with one clue changed so
no solution exists: ``COUNT`` answers ``COUNT 0 unsolvable`` and ``SOLVE``
the unsolvable error; givens that break a mark themselves get one ``ERROR
invalid`` line naming the rule and the place. Exact bytes, through the
session, the service and the wire, as the server answers them.
"""

from __future__ import annotations

import pytest

from tests.support.marks_examples import EXAMPLES
from tests.support.sessions import replies


def _put(givens: str, **digits: int) -> str:
    """``givens`` with ``r1c2=5``.. written in."""
    cells = list(givens)
    for name, digit in digits.items():
        cells[(int(name[1]) - 1) * 9 + int(name[3]) - 1] = str(digit)
    return "".join(cells)


def _line(word: str, **digits: int) -> str:
    givens, marks = EXAMPLES[word]
    return f"{_put(givens, **digits)} {word}={marks}"


#: rule -> (its example with one given changed, SOLVE's reply); COUNT answers ``COUNT 0 unsolvable``.
UNSOLVABLE = {
    "thermo": (_line("thermo", r1c6=2), "ERROR unsolvable no solution exists"),
    "arrow": (_line("arrow", r1c1=1), "ERROR unsolvable no solution exists"),
    "renban": (_line("renban", r1c5=6), "ERROR unsolvable no solution exists"),
    "whispers": (_line("whispers", r2c7=1), "ERROR unsolvable no solution exists"),
    "palindrome": (_line("palindrome", r1c9=2), "ERROR unsolvable no solution exists"),
    "littlekiller": (_line("littlekiller", r1c1=3), "ERROR unsolvable no solution exists"),
    "sandwich": (_line("sandwich", r1c1=1), "ERROR unsolvable no solution exists"),
    "oddeven": (_line("oddeven", r1c2=8), "ERROR unsolvable no place for 8 in column 1"),
    "xv": (_line("xv", r2c9=1), "ERROR unsolvable no solution exists"),
    # no givens: its first dot turned from white to black
    "kropki": (
        EXAMPLES["kropki"][0] + " kropki=" + EXAMPLES["kropki"][1].replace("r1c2-r1c3:w", "r1c2-r1c3:b", 1),
        "ERROR unsolvable no solution exists",
    ),
}

#: rule -> (its example with givens that break a mark, the one ERROR line).
INVALID = {
    "thermo": (_line("thermo", r9c1=3), "ERROR invalid thermometer r9c1-r7c3: 3 at r9c1 is not below 3 at r8c2"),
    "arrow": (_line("arrow", r9c7=1), "ERROR invalid arrow r8c8-r9c6: its line sums to 2, not 8 in its bulb"),
    "renban": (
        _line("renban", r9c3=1),
        "ERROR invalid renban r9c3-r6c3 (5 cells): 1 at r9c3 and 9 at r7c3 differ by 8, too far apart",
    ),
    "whispers": (
        _line("whispers", r4c3=1),
        "ERROR invalid whispers r4c3-r5c1 (at least 5 apart): 1 at r4c3 and 1 at r5c2 differ by 0",
    ),
    "palindrome": (
        _line("palindrome", r7c4=1),
        "ERROR invalid palindrome r9c2-r7c4: 8 at r9c2 and 1 at r7c4 differ, at the same distance from the two ends",
    ),
    "littlekiller": (
        _line("littlekiller", r2c9=1, r1c8=2),
        "ERROR invalid little killer r2c9-r1c8 sum 11: its givens sum to 3",
    ),
    "sandwich": (
        _line("sandwich", r7c3=9, r7c4=8, r7c5=7, r7c6=5, r7c8=1),
        "ERROR invalid sandwich r7: the givens between 1 at r7c8 and 9 at r7c3 sum to 20, over 19",
    ),
    "oddeven": (_line("oddeven", r1c1=2), "ERROR invalid 2 at r1c1 is even on a cell marked odd"),
    "xv": (_line("xv", r3c9=1), "ERROR invalid xv r2c9-r3c9 sum 10: 8 at r2c9 and 1 at r3c9 sum to 9"),
    "kropki": (
        _line("kropki", r1c2=1, r1c3=5),
        "ERROR invalid kropki r1c2-r1c3 white 1: 1 at r1c2 and 5 at r1c3 differ by 4, not 1",
    ),
}


def test_every_rule_that_takes_marks_is_covered() -> None:
    assert set(UNSOLVABLE) == set(INVALID) == set(EXAMPLES)


@pytest.mark.parametrize("word", sorted(UNSOLVABLE))
def test_a_puzzle_with_one_clue_changed_is_unsolvable(word: str) -> None:
    line, solve_reply = UNSOLVABLE[word]
    assert replies(f"COUNT {line}\nSOLVE {line}\n{line}\n".encode()) == (
        f"COUNT 0 unsolvable\n{solve_reply}\n{solve_reply}\n".encode()
    )


@pytest.mark.parametrize("word", sorted(INVALID))
def test_givens_that_break_a_mark_name_the_rule_and_the_place(word: str) -> None:
    line, error = INVALID[word]
    assert replies(f"COUNT {line}\nSOLVE {line}\n".encode()) == f"{error}\n{error}\n".encode()
