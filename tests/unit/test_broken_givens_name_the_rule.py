"""Issue 29: givens that break a rule get one ``ERROR invalid`` line naming the rule and the place (or, where no
given alone breaks it, ``COUNT 0 unsolvable``), never a refusal as unknown: the exact line for every rule of marks."""

from __future__ import annotations

import pytest

from tests.support.sessions import replies


def givens(**at: int) -> str:
    """81 characters, ``.`` empty, with ``r1c2=5`` style keywords set."""
    cells = ["."] * 81
    for name, digit in at.items():
        r, c = name[1:].split("c")
        cells[(int(r) - 1) * 9 + int(c) - 1] = str(digit)
    return "".join(cells)


CASES = [
    ("oddeven=r1c1:odd", givens(r1c1=2), "ERROR invalid 2 at r1c1 is even on a cell marked odd"),
    (
        "thermo=r1c1-r1c2-r1c3",
        givens(r1c2=7, r1c3=5),
        "ERROR invalid thermometer r1c1-r1c3: 7 at r1c2 is not below 5 at r1c3",
    ),
    (
        "kropki=r1c1-r1c2:w",
        givens(r1c1=1, r1c2=5),
        "ERROR invalid kropki r1c1-r1c2 white 1: 1 at r1c1 and 5 at r1c2 differ by 4, not 1",
    ),
    (
        "kropki=r1c1-r1c2:b",
        givens(r1c1=1, r1c2=5),
        "ERROR invalid kropki r1c1-r1c2 black 2: 1 at r1c1 and 5 at r1c2: neither is twice the other",
    ),
    ("xv=r1c1-r1c2:x", givens(r1c1=1, r1c2=5), "ERROR invalid xv r1c1-r1c2 sum 10: 1 at r1c1 and 5 at r1c2 sum to 6"),
    (
        "whispers=r1c1-r1c2",
        givens(r1c1=1, r1c2=5),
        "ERROR invalid whispers r1c1-r1c2 (at least 5 apart): 1 at r1c1 and 5 at r1c2 differ by 4",
    ),
    (
        "palindrome=r1c1-r1c2-r1c3",
        givens(r1c1=1, r1c3=5),
        "ERROR invalid palindrome r1c1-r1c3: 1 at r1c1 and 5 at r1c3 differ, at the same distance from the two ends",
    ),
    (
        "renban=r1c1-r1c2-r1c3",
        givens(r1c1=1, r1c3=5),
        "ERROR invalid renban r1c1-r1c3 (3 cells): 1 at r1c1 and 5 at r1c3 differ by 4, too far apart",
    ),
    ("arrow=r1c1-r1c2-r1c3", givens(r1c1=3, r1c2=5), "COUNT 0 unsolvable"),
    (
        "littlekiller=r1c1-r2c2-r3c3-r4c4-r5c5-r6c6-r7c7-r8c8-r9c9:45",
        givens(r1c1=9, r2c2=8, r3c3=7, r4c4=9, r5c5=8, r6c6=7),
        "ERROR invalid little killer r1c1-r9c9 sum 45: its givens sum to 48",
    ),
    (
        "sandwich=r3:5",
        givens(r3c2=9, r3c3=4, r3c5=2, r3c6=1),
        "ERROR invalid sandwich r3: the givens between 1 at r3c6 and 9 at r3c2 sum to 6, over 5",
    ),
    (
        "sandwich=c2:0",
        givens(r1c2=1, r2c2=3, r3c2=9),
        "ERROR invalid sandwich c2: the digits between 1 at r1c2 and 9 at r3c2 sum to 3, not 0",
    ),
    ("sandwich=r3:1", givens(), "ERROR invalid sandwich r3: no digits between 1 and 9 sum to 1"),
    ("sandwich=r1:35", givens(r1c1=1, r1c9=9), "COUNT 2+ multiple"),
    ("sandwich=r1:35", givens(r1c1=1, r1c8=9), "COUNT 0 unsolvable"),
]


@pytest.mark.parametrize(("field", "puzzle", "line"), CASES, ids=[c[0] for c in CASES])
def test_broken_givens_get_one_exact_line(field: str, puzzle: str, line: str) -> None:
    assert replies(f"COUNT {puzzle} {field}\n".encode()) == f"{line}\n".encode()
