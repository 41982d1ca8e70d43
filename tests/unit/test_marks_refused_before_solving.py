"""Marks no rule can take are refused by the reader with one ERROR naming the mark, never an internal error or a
search that runs to the timeout (the fresh-eyes break run of this wave: a cell twice in a mark, an arrow's bulb past
its line, a sum too large for the cores' arrays, a renban longer than the digits, dots and lines between cells that
do not touch, an empty or unknown marks field)."""

from __future__ import annotations

import pytest

from tests.support.sessions import replies

GIVENS = ".....6.............6..1.4...........3.2.......4....6.9.......1.135..............."

CASES = [
    ("thermo=r1c1-r1c1", "thermo= mark 1: r1c1 appears twice"),
    ("palindrome=r1c1-r1c2-r1c1", "palindrome= mark 1: r1c1 appears twice"),
    ("xv=r1c1-r1c1:x", "xv= mark 1: r1c1 appears twice"),
    ("arrow=r1c1-r1c2:99", "arrow= mark 1 has a bulb of 99 cells (1 to 1 on a line of 2)"),
    ("littlekiller=r1c1:999999999999999999999", 'littlekiller= mark 1: "999999999999..." is over 10000'),
    (
        "renban=r1c1-r1c2-r1c3-r1c4-r1c5-r1c6-r1c7-r1c8-r1c9-r2c1",
        "renban= mark 1 has 10 cells, more than the 9 digits",
    ),
    ("kropki=r1c1-r3c3:w", "kropki= mark 1: r1c1 and r3c3 do not touch"),
    ("xv=r1c1-r2c2:x", "xv= mark 1: r1c1 and r2c2 do not touch"),
    ("thermo=r1c1-r9c9", "thermo= mark 1 steps from r1c1 to r9c9, cells that do not touch"),
    ("thermo=", "thermo= has no marks"),
    ("thermo= r1c1-r1c2", '"r1c1-r1c2" is no word=marks field (a rule\'s marks follow its = with no blank)'),
    ("thermo=r1c1-r1c2 r2c2", '"r2c2" is no word=marks field (a rule\'s marks follow its = with no blank)'),
    ("kropki=r1c1-r1c2:w0", "kropki= mark 1: w0 is no dot (a white dot's difference is 1 or more)"),
    ("kropki=r1c1-r1c2:b0", "kropki= mark 1: b0 is no dot (a black dot's ratio is 1 or more)"),
    # s9-break finding 2: marks no digits satisfy were searched, then a bare ``ERROR unsolvable no solution exists``
    (
        "thermo=r1c1-r1c2-r1c3-r1c4-r1c5-r1c6-r1c7-r1c8-r1c9-r2c9",
        "thermo= mark 1 has 10 cells, more than the 9 digits",
    ),
    ("oddeven=r1c1:odd;r1c1:even", "oddeven= mark 2: r1c1 is marked odd and even"),
    ("oddeven=r1c1-r1c2:odd;r2c2-r1c2:even", "oddeven= mark 2: r1c2 is marked odd and even"),
    ("kropki=r1c1-r1c2:w9", "kropki= mark 1: w9 is no dot (no two digits of 1-9 differ by 9)"),
    ("kropki=r1c1-r1c2:b10", "kropki= mark 1: b10 is no dot (no two digits of 1-9 have the ratio 10)"),
    ("whispers=r1c1-r1c2:9", "whispers= mark 1: no two digits of 1-9 differ by 9 or more"),
    # s9-break finding 10: :0 was read as no value (the default 5), solving a rule the request did not state
    ("whispers=r1c1-r1c2:0", "whispers= mark 1: :0 is refused, a difference is 1 or more (none written: 5)"),
    ("whispers=r1c1-r1c2;r5c5-r5c6:0", "whispers= mark 2: :0 is refused, a difference is 1 or more (none written: 5)"),
    (
        "littlekiller=r1c1-r1c2:3",
        "littlekiller= mark 1 is not a diagonal (each cell one diagonal step after the one before, in one direction)",
    ),
    ("littlekiller=r2c2-r3c3:5", "littlekiller= mark 1 does not run from an edge of the grid to an edge"),
    ("littlekiller=r1c2:5", "littlekiller= mark 1 does not run from an edge of the grid to an edge"),
    # an arrow's line starts beside its bulb, a pill's cells touch, the line's cells touch (break-session finding:
    # each was searched, and answered, as if the cells touched)
    ("arrow=r1c1-r5c5-r5c6", "arrow= mark 1 starts its line at r5c5, which does not touch its bulb r1c1"),
    ("arrow=r1c1-r1c2-r2c4:2", "arrow= mark 1 starts its line at r2c4, which does not touch its bulb r1c1-r1c2"),
    ("arrow=r1c1-r3c3-r3c4:2", "arrow= mark 1 has a bulb of cells that do not touch (r1c1, r3c3)"),
    ("arrow=r1c1-r1c2-r1c4", "arrow= mark 1 steps from r1c2 to r1c4, cells that do not touch"),
    ("arrow=r1c1-r1c2-r1c1", "arrow= mark 1: r1c1 appears twice"),
    # a non-ASCII character in a mark's first cell (a full-width 1): named as the cell it spoils, as in later cells
    ("thermo=r\uff11c1-r1c3", 'thermo= mark 1: "r\\uff11c1" is not a cell of the grid'),
    ("littlekiller=r\uff11c1:1", 'littlekiller= mark 1: "r\\uff11c1" is not a cell of the grid'),
    ("kropki=r1c1-r1c2:w;r\uff11c1-r1c2:w", 'kropki= mark 2: "r\\uff11c1" is not a cell of the grid'),
    ("sandwich=r1:5;R1:6", "sandwich= mark 2: r1 appears twice"),
    ("sandwich=c3:5;r1:2;c3:5", "sandwich= mark 3: c3 appears twice"),
    (
        "foo=r1c1",
        "foo= is no rule's marks (marks are oddeven=, thermo=, kropki=, xv=, whispers=, palindrome=, renban=,"
        " arrow=, littlekiller=, sandwich=)",
    ),
]


@pytest.mark.parametrize(("marks", "error"), CASES, ids=[c[0][:24] for c in CASES])
def test_a_mark_no_rule_takes_gets_one_format_error_naming_it(marks, error):
    assert replies(f"{GIVENS} {marks}\nPING\n".encode()) == f"ERROR format line 1: {error}\nPONG\n".encode()


def test_a_thermometer_may_step_diagonally():
    assert replies(f"COUNT {GIVENS} thermo=r1c1-r2c2-r3c3\n".encode()) == b"COUNT 2+ multiple\n"


def test_an_fpuzzles_dot_between_cells_that_do_not_touch_is_refused():
    line = '{"size":9,"grid":[' + ",".join(["[" + ",".join(["{}"] * 9) + "]"] * 9) + "]"
    line += ',"xv":[{"cells":["R1C1","R2C2"],"value":"X"}]}'
    assert replies(f"{line}\n".encode()) == b'ERROR format fpuzzles: "xv" entry 1: r1c1 and r2c2 do not touch\n'


EMPTY_GRID = '{"size":9,"grid":[' + ",".join(["[" + ",".join(["{}"] * 9) + "]"] * 9) + "]"


@pytest.mark.parametrize(
    ("entries", "error"),
    [
        (
            '"thermometer":[{"lines":[["R1C1","R1C2","R1C3","R1C4","R1C5","R1C6","R1C7","R1C8","R1C9","R2C9"]]}]',
            '"thermometer" entry 1 has 10 cells, more than the 9 digits',
        ),
        ('"odd":[{"cell":"R1C1"}],"even":[{"cell":"R1C1"}]', '"even" entry 1: r1c1 is marked odd and even'),
        (
            '"difference":[{"cells":["R1C1","R1C2"],"value":"9"}]',
            '"difference" entry 1: value 9 is no dot (no two digits of 1-9 differ by 9)',
        ),
        (
            '"ratio":[{"cells":["R1C1","R1C2"],"value":10}]',
            '"ratio" entry 1: value 10 is no dot (no two digits of 1-9 have the ratio 10)',
        ),
        (
            '"whispers":[{"lines":[["R1C1","R1C2"]],"value":9}]',
            '"whispers" entry 1: no two digits of 1-9 differ by 9 or more',
        ),
    ],
    ids=["thermometer", "odd-even", "difference", "ratio", "whispers"],
)
def test_an_fpuzzles_mark_no_digits_satisfy_is_refused_naming_its_entry(entries, error):
    assert replies(f"{EMPTY_GRID},{entries}}}\nPING\n".encode()) == f"ERROR format fpuzzles: {error}\nPONG\n".encode()


def test_an_fpuzzles_whispers_value_of_0_is_refused():
    line = '{"size":9,"grid":[' + ",".join(["[" + ",".join(["{}"] * 9) + "]"] * 9) + "]"
    zero = line + ',"whispers":[{"lines":[["R1C1","R1C2"]],"value":0}]}'
    assert replies(f"{zero}\n".encode()) == (
        b'ERROR format fpuzzles: "whispers" entry 1: value 0 is refused, a difference is 1 or more (none written: 5)\n'
    )
    one = line + ',"whispers":[{"lines":[["R1C1","R1C2"]],"value":"1"}]}'  # 1 and none written: as before
    assert replies(f"{one}\n".encode()).startswith(b"123456789")
    none = line + ',"whispers":[{"lines":[["R1C1","R1C2"]]}]}'
    assert replies(f"{none}\n".encode()).startswith(b"162345789")


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("." * 16 + " xv=r1c1-r1c2:x", "xv r1c1-r1c2 sum 10: no two digits of 1-4 make it"),
        (f"{GIVENS} littlekiller=r1c1:0", "little killer r1c1 sum 0: digits 1-9 on its 1 cell sum to 1 to 9 only"),
        (
            f"{GIVENS} littlekiller=r9c1-r8c2-r7c3-r6c4-r5c5-r4c6-r3c7-r2c8-r1c9:82",
            "little killer r9c1-r1c9 sum 82: digits 1-9 on its 9 cells sum to 9 to 81 only",
        ),
    ],
)
def test_an_xv_or_little_killer_sum_no_digits_make_is_refused_before_the_search(line, error):
    """Break-session finding: searched, then ``ERROR unsolvable no solution exists`` naming no place, where a
    sandwich or cage sum no digits make is refused by name."""
    assert replies(f"{line}\nPING\n".encode()) == f"ERROR invalid {error}\nPONG\n".encode()
