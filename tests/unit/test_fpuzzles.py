"""f-puzzles JSON lines and links (issue 29): read as puzzles with their rules, answered as one line of digits.

The lz-string vectors (tests/support/lzstring_vectors.json) were made by the JavaScript original,
npm ``lz-string`` 1.5.0 under node, from tests/support/lzstring_vectors.js (``node
lzstring_vectors.js > lzstring_vectors.json``); the test needs no node. The puzzles are the ones of
tests/unit/test_rule_marks.py (CP-SAT says each is unique), written as f-puzzles objects.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sudoku_server.service.answer import answer
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.variants import Variant
from sudoku_server.text.fpuzzles import compress, decompress, link, read_object, write
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import Reply, RequestReceived, Session

VECTORS = Path(__file__).resolve().parents[1] / "support" / "lzstring_vectors.json"
SOLUTION = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"


def replies(data: bytes) -> bytes:
    """What the server answers to ``data`` (then end of input), default line limit."""
    session = Session()
    out = []
    for event in session.receive_data(data) + session.receive_eof():
        if isinstance(event, Reply):
            out.append(event.data)
        elif isinstance(event, RequestReceived):
            out.append(render(answer(event.request), event.ending, event.puzzle))
    return b"".join(out)


def rc(c: int) -> str:
    return f"R{c // 9 + 1}C{c % 9 + 1}"


def fpuzzle(givens: str, **keys: object) -> dict[str, object]:
    """An f-puzzles object of a 9x9 with ``givens`` (81 characters, ``.`` empty) and rule ``keys``."""
    grid = [
        [{"value": int(givens[r * 9 + c]), "given": True} if givens[r * 9 + c] != "." else {} for c in range(9)]
        for r in range(9)
    ]
    return {"size": 9, "title": "test", "author": "w-fpz", "grid": grid, **keys}


THERMO = fpuzzle(
    ".....6.............6..1.4...........3.2.......4....6.9.......1.135...............",
    thermometer=[
        {"lines": [[rc(c) for c in line]], "baseC": "#CFCFCF"}
        for line in (
            (72, 64, 56),
            (15, 25, 17),
            (60, 70, 79),
            (12, 13, 4),
            (49, 50, 41),
            (40, 30, 21),
            (3, 2, 1, 0, 9),
            (58, 66, 57, 67),
            (23, 32, 42),
        )
    ],
)
ARROW = fpuzzle(
    "75.....3..............1...2.......4............7.3....4.........357...86.....1...",
    arrow=[
        {"cells": [rc(line[0])], "lines": [[rc(c) for c in line]]}
        for line in (
            (15, 24, 33),
            (12, 20, 11),
            (27, 36, 37, 38),
            (64, 72, 63),
            (70, 78, 77),
            (62, 52, 61, 69),
            (58, 59, 68),
        )
    ],
)
ODDEVEN = fpuzzle(
    ".5.2.......1.73.......1....698....43....4..5.............8.....1.....2.62.6...7..",
    odd=[{"cell": rc(c)} for c in (0, 8, 15, 32, 48, 49, 55, 60, 62, 63)],
    even=[{"cell": rc(c)} for c in (3, 12, 17, 26, 57, 72)],
)
XV_PAIRS = (
    (2, 11, "V"), (3, 4, "X"), (11, 12, "V"), (13, 14, "X"), (17, 26, "X"), (21, 22, "X"), (24, 33, "V"), (26, 35, "V"),
    (28, 37, "X"), (29, 38, "X"), (33, 34, "V"), (35, 44, "X"), (37, 46, "V"), (39, 40, "X"), (50, 59, "X"), (54, 63, "V"),
    (55, 64, "X"), (59, 60, "V"), (60, 69, "V"), (66, 75, "X"), (68, 77, "V"), (69, 70, "X"), (71, 80, "X"), (72, 73, "X"),
)  # fmt: skip
XV = fpuzzle(
    ".................8........................................................6......",
    xv=[{"cells": [rc(a), rc(b)], "value": v} for a, b, v in XV_PAIRS],
    negative=["xv"],
)
LITTLE_KILLERS = (
    ((5, 13, 21, 29, 37, 45), 36), ((62, 52, 42, 32, 22, 12, 2), 31), ((77, 69, 61, 53), 13),
    ((76, 66, 56, 46, 36), 28), ((3, 11, 19, 27), 15), ((17, 7), 11), ((4, 14, 24, 34, 44), 26),
    ((45, 55, 65, 75), 20), ((44, 34, 24, 14, 4), 26),
)  # fmt: skip
_DIRECTIONS = {(-1, 1): "UR", (-1, -1): "UL", (1, 1): "DR", (1, -1): "DL"}


def clue(cells: tuple[int, ...], value: object) -> dict[str, object]:
    """The f-puzzles little killer clue of a diagonal: the cell one step before its first, its direction."""
    (r0, c0), (r1, c1) = divmod(cells[0], 9), divmod(cells[1], 9)
    dr, dc = r1 - r0, c1 - c0
    return {"cell": f"R{r0 - dr + 1}C{c0 - dc + 1}", "direction": _DIRECTIONS[dr, dc], "value": value, "cells": []}


LITTLE_KILLER = fpuzzle(
    "75.2........47............2..8....4.....4.......13.......8....5.............5....",
    littlekillersum=[clue(cells, str(total) if k % 2 else total) for k, (cells, total) in enumerate(LITTLE_KILLERS)]
    + [clue((9, 1), "")],
)


def test_lzstring_is_held_to_the_javascript_original():
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    assert len(vectors) == 7
    for text, js in vectors:
        assert compress(text) == js
        assert decompress(js) == text


def test_each_rule_reads_to_its_marks():
    grid, variant = read_object(ARROW)
    assert variant.rules == ("arrow",)
    assert variant.marks[0].cells == (15, 24, 33) and variant.marks[0].value == 1
    _, variant = read_object(LITTLE_KILLER)
    assert [m.cells for m in variant.marks[:3]] == [
        (5, 13, 21, 29, 37, 45),
        (62, 52, 42, 32, 22, 12, 2),
        (77, 69, 61, 53),
    ]
    assert len(variant.marks) == 9  # the clue without a value says nothing
    _, variant = read_object(XV)
    assert variant.rules == ("xv",) and variant.marks[-1].kind == "negative"


def test_a_json_line_is_a_puzzle_bare_and_after_the_verbs():
    for puzzle in (THERMO, ARROW, ODDEVEN, XV, LITTLE_KILLER):
        line = json.dumps(puzzle)
        assert (
            replies(f"{line}\nSOLVE {line}\nCOUNT {line}\n".encode())
            == f"{SOLUTION}\n{SOLUTION}\nCOUNT 1 unique\n".encode()
        )


def test_keys_that_do_not_change_the_solution_are_ignored():
    shown = dict(
        THERMO,
        activeConstraints=["Thermometer"],
        ruleset="Normal sudoku rules apply.",
        solution=[],
        line=[{"lines": [["R1C1", "R1C2"]]}],
    )
    assert replies(f"SOLVE {json.dumps(shown)}\n".encode()) == f"{SOLUTION}\n".encode()


def test_a_link_is_a_puzzle_bare_and_after_the_verbs():
    url = link(THERMO)
    assert url.startswith("https://f-puzzles.com/?load=N4Ig")
    assert (
        replies(f"{url}\nSOLVE {url}\nCOUNT {url}\n".encode()) == f"{SOLUTION}\n{SOLUTION}\nCOUNT 1 unique\n".encode()
    )


def test_the_existing_rules_read_from_their_fpuzzles_keys():
    x = fpuzzle(
        "........9............1..................7.......81.......63..7..3......1....913.8",
        **{"diagonal+": True, "diagonal-": True},
    )
    assert read_object(x)[1].rules == ("x",)
    assert replies(f"COUNT {json.dumps(x)}\n".encode()) == b"COUNT 2+ multiple\n"
    both = fpuzzle("." * 81, antiknight=True, antiking="true", nonconsecutive=True, disjointgroups=True)
    assert read_object(both)[1].rules == ("antiknight", "antiking", "nonconsecutive", "disjoint")
    dots = fpuzzle("." * 81, nonconsecutive=True, difference=[{"cells": ["R1C1", "R1C2"]}], negative=["ratio"])
    variant = read_object(dots)[1]
    assert variant.rules == ("kropki",)
    assert [m.kind for m in variant.marks] == ["white", "negative black", "negative white"]


def test_errors_name_the_rule_and_the_place():
    quadruple = fpuzzle("." * 81, quadruple=[{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, 2]}])
    assert replies(f"{json.dumps(quadruple)}\n".encode()) == (
        b'ERROR command fpuzzles: rule "quadruple" is not implemented here\n'
    )
    bad_arrow = fpuzzle("." * 81, arrow=[{"cells": ["R1C1"], "lines": [["R1C1", "R1C2"]]}, {"cells": ["R3C3"]}])
    assert (
        replies(f"SOLVE {json.dumps(bad_arrow)}\n".encode()) == b'ERROR format fpuzzles: "arrow" entry 2 has no lines\n'
    )
    thermo = fpuzzle(".75" + "." * 78, thermometer=[{"lines": [["R1C1", "R1C2", "R1C3", "R1C4"]]}])
    assert replies(f"SOLVE {json.dumps(thermo)}\n".encode()) == (
        b"ERROR invalid thermometer r1c1-r1c4: 7 at r1c2 is not below 5 at r1c3\n"
    )
    one = fpuzzle("." * 81, **{"diagonal+": True})
    assert (
        replies(f"{json.dumps(one)}\n".encode())
        == b'ERROR command fpuzzles: "diagonal+" without "diagonal-" is not a rule here\n'
    )
    assert (
        replies(b"https://f-puzzles.com/?load=%%%\n")
        == b"ERROR format fpuzzles: the link's payload is not lz-string base64\n"
    )
    assert (
        replies(b'{"size": 9\n')
        == b"ERROR format fpuzzles: not JSON: Expecting ',' delimiter at column 11 of the object\n"
    )
    # s9-break finding 9: the parser's position was cut off ("... character at)"), and a comment was "Extra data"
    assert replies(b'{"size":9,"a":"b}\n{"size":9,"\x1b[31m":1}\n{"size":9} # my puzzle\n{"size":\n') == (
        b"ERROR format fpuzzles: not JSON: Unterminated string starting at column 15 of the object\n"
        b"ERROR format fpuzzles: not JSON: Invalid control character at column 12 of the object\n"
        b"ERROR format fpuzzles: not JSON: Extra data at column 12 of the object"
        b" (a # comment may follow a link, not an object)\n"
        b"ERROR format fpuzzles: not JSON: Expecting value at column 9 of the object\n"
    )
    assert replies(b"https://f-puzzles.com/?load=" + compress('{"size":9,').encode() + b"\n") == (
        b"ERROR format fpuzzles: not JSON: Expecting property name enclosed in double quotes"
        b" at column 11 of the link's decoded object\n"
    )
    assert replies(b'{"size": 9, "grid": [], "size": 4}\n') == b'ERROR format fpuzzles: key "size" given twice\n'
    deep = b'{"size": 9, "t": ' + b"[" * 1500 + b"]" * 1500 + b"}"  # a traceback, and the connection lost
    assert replies(b"PING\n" + deep + b"\nPING\n") == b"PONG\nERROR format fpuzzles: not JSON (nested too deep)\nPONG\n"
    assert replies(b"https://f-puzzles.com/?load=" + compress(deep.decode()).encode() + b"\n") == (
        b"ERROR format fpuzzles: not JSON (nested too deep)\n"
    )


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (b'{"size": -1}', "size -1 is not one of 4, 6, 9, 16, 25"),
        (b'{"size": true}', "size true is not a whole number"),
        (b'{"size": 9.0}', "size 9.0 is not a whole number"),  # s9-break finding 4: "9.0 is not a number"
        (b'{"size": null}', "size is missing"),
        (b"{}", "size is missing"),
        (b'{"size": "nine"}', 'size "nine" is not a whole number'),
        (b'{"size": [9]}', "size [9] is not a whole number"),
        (b'{"size": 123456789012345}', "size 123456789012... is too large"),
        # past CPython's digit limit: its message ("Exceeds the limit (4300 digits)...") was the error
        (b'{"size": ' + b"9" * 5000 + b"}", "size 999999999999... is too large"),
        (
            b'{"size": 9, "grid": '
            + json.dumps([[{}] * 9] * 9).encode()
            + b', "whispers": [{"lines": [["R1C1", "R1C2"]],'
            b' "value": ' + b"9" * 5000 + b"}]}",
            '"whispers" entry 1: value "999999999999..." is over 10000',
        ),
    ],
)
def test_a_bad_size_is_named_as_json_spells_it(line: bytes, error: str):
    """Break-session finding: ``-1`` was "not a number", ``true`` showed as ``"True"`` and a missing size as ``"None"``."""
    assert replies(line + b"\n") == f"ERROR format fpuzzles: {error}\n".encode()


def test_a_dot_of_value_0_is_refused():
    """Break-session finding: ``"value": "0"`` was read as the default (a white dot of 1)."""
    white = fpuzzle("." * 81, difference=[{"cells": ["R1C1", "R1C2"], "value": "0"}])
    assert replies(f"{json.dumps(white)}\n".encode()) == (
        b'ERROR format fpuzzles: "difference" entry 1: value 0 is no difference (a white dot\'s difference is 1 or'
        b" more)\n"
    )


def test_region_numbers_are_labels_and_a_string_false_is_off():
    """Break-session finding: regions numbered 100-108 were "109 region symbols, not 9"; ``"diagonal-": "false"``
    turned the anti-diagonal on."""
    boxes = {"size": 9, "grid": [[{"region": (r // 3) * 3 + c // 3 + 100} for c in range(9)] for r in range(9)]}
    assert replies(f"{json.dumps(boxes)}\n".encode()) == (
        b"123456789456789123789123456214365897365897214897214365531642978642978531978531642\n"
    )
    one = fpuzzle("5" + "." * 80, **{"diagonal+": True, "diagonal-": "false"})
    assert replies(f"{json.dumps(one)}\n".encode()) == (
        b'ERROR command fpuzzles: "diagonal+" without "diagonal-" is not a rule here\n'
    )
    both = fpuzzle("5" + "." * 80, **{"diagonal+": "true", "diagonal-": "true"})
    assert replies(f"{json.dumps(both)}\n".encode()) == (
        b"512346789346789125789125346123654897468972513975831462891563274257498631634217958\n"
    )


def test_region_labels_are_named_as_written():
    """Break-session finding F4: every cell ``"region": -1`` on a 4x4 was ``region 1 has 16 cells, not 4`` (the label's
    place in the order met). Labels outside 0..size-1 are named as written; regions 0..size-1 stay region 1..size."""
    minus = {"size": 4, "grid": [[{"region": -1} for _ in range(4)] for _ in range(4)]}
    assert replies(f"{json.dumps(minus)}\n".encode()) == b"ERROR format region -1 has 16 cells, not 4\n"
    rows = [[{"region": 100 + r} for _ in range(4)] for r in range(4)]
    rows[3][3] = {"region": 102}
    assert replies(f"{json.dumps({'size': 4, 'grid': rows})}\n".encode()) == (
        b"ERROR format region 102 has 5 cells, not 4\n"
    )
    zeros = {"size": 4, "grid": [[{"region": 0} for _ in range(4)] for _ in range(4)]}
    assert replies(f"{json.dumps(zeros)}\n".encode()) == b"ERROR format region 1 has 16 cells, not 4\n"


def test_a_link_is_measured_before_it_is_decompressed():
    """Break-session finding: an 18 KB link held 40 MB of text (a decompression bomb; the server's memory went
    143 -> 286 MB). Its length is read from the payload's codes first, so such a link costs what its own length
    costs, and is refused by that length (here a smaller one, quick to make)."""
    import random

    from sudoku_server.text.fpuzzles import decompressed_length

    rng = random.Random(30)
    for text in ["", "a", "a" * 5000, "".join(rng.choice('{}[]":,0123456789abcdefRC') for _ in range(3000)), "é€𝄞x"]:
        payload = compress(text)
        assert decompressed_length(payload, 1 << 40) == len(text.encode("utf-16-le")) // 2  # UTF-16 units
        assert (decompress(payload) or "") == text
    bomb = compress("a" * 300_000)  # 300,000 characters in a payload of about 1.3 KB
    assert len(bomb) < 2000 and decompressed_length(bomb, 65536) is None
    assert replies(f"https://f-puzzles.com/?load={bomb}\n".encode()) == (
        b"ERROR format fpuzzles: the link's payload holds 300000 characters, over 65536\n"
    )


def test_an_fpuzzles_line_may_be_64_kib():
    big = dict(THERMO, text=[{"cells": ["R1C1"], "value": "x" * 40000}])
    line = json.dumps(big)
    assert 40000 < len(line) < 65536
    assert replies(f"SOLVE {line}\n".encode()) == f"{SOLUTION}\n".encode()
    assert replies(b"1" * 5000 + b"\n") == b"ERROR too-large line 1 is longer than 4096 bytes\n"
    assert replies(b"{" + b"x" * 70000 + b"\n") == b"ERROR too-large line 1 is longer than 65536 bytes\n"


def replies_in_pieces(data: bytes, piece: int) -> bytes:
    """:func:`replies`, the bytes fed ``piece`` at a time (as TCP segments may bring them)."""
    session = Session()
    out = []
    events = [e for at in range(0, len(data), piece) for e in session.receive_data(data[at : at + piece])]
    for event in events + session.receive_eof():
        if isinstance(event, Reply):
            out.append(event.data)
        elif isinstance(event, RequestReceived):
            out.append(render(answer(event.request), event.ending, event.puzzle))
    return b"".join(out)


@pytest.mark.parametrize("prefix", ["SOLVE any ", "HINT nudge ", "HINT all ", "HINT all kraken ", "CANON map "])
def test_an_fpuzzles_line_after_a_flag_word_may_be_64_kib(prefix):
    """s9-break finding 7: a flag word (``any``, ``all``, ``kraken``, ``nudge``, ``map``) before a long object
    or link fell back to the 4096-byte limit (``ERROR too-large`` and the close). The same request, short and
    long, gets the same answer, whole or in 1,000-byte pieces."""
    givens = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    cells = [{"value": int(d), "given": True} if d != "." else {} for d in givens]
    classic = {"size": 9, "grid": [cells[r * 9 : r * 9 + 9] for r in range(9)]}
    short = json.dumps(classic)
    rng = random.Random(7)  # a title lz-string cannot shrink much, for a link over 4096 bytes too
    long = json.dumps(dict(classic, title="".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(9000))))
    expected = replies(f"{prefix}{short}\nPING\n".encode())
    assert expected.endswith(b"PONG\n") and not expected.startswith(b"ERROR")
    if prefix == "SOLVE any ":
        solution = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
        assert expected == f"{solution}\nPONG\n".encode()
    for text in (long, link(json.loads(long))):
        data = f"{prefix}{text}\nPING\n".encode()
        assert len(data) > 4096
        assert replies(data) == expected
        assert replies_in_pieces(data, 1000) == expected


def filled(puzzle: dict[str, object], solution: str) -> dict[str, object]:
    """``puzzle``'s grid filled with ``solution``: each cell's value, its givens still ``given: true``."""
    grid = puzzle["grid"]
    assert isinstance(grid, list)
    return [
        [
            {"value": int(solution[r * 9 + c]), **({"given": True} if cell.get("given") else {})}
            for c, cell in enumerate(row)
        ]
        for r, row in enumerate(grid)
    ]


def test_solve_format_fpuzzles_and_link_answer_the_filled_object():
    for puzzle in (THERMO, ARROW, ODDEVEN, XV, LITTLE_KILLER):
        line = json.dumps(puzzle)
        answer_line = replies(f"SOLVE format=fpuzzles {line}\n".encode()).decode()
        assert answer_line.endswith("\n") and answer_line.count("\n") == 1
        data = json.loads(answer_line)
        assert data["grid"] == filled(puzzle, SOLUTION)
        assert read_object(data) == read_object(puzzle)  # the same givens and rules
        link_line = replies(f"SOLVE format=link {line}\n".encode()).decode()
        assert link_line == link(data) + "\n"
        assert replies(link_line.encode()) == f"{SOLUTION}\n".encode()  # the answer's givens still solve to it


def test_kropki_dots_of_the_line_syntax_are_written_with_f_puzzles_defaults_and_read_back():
    """Break-session finding: ``:w`` and ``:b`` (no value of their own) were written ``"value": 0``, which
    reading refuses; now f-puzzles' own default (no value), a value of the mark's own is kept, and one equal to the
    default (``:b2``) is written as the default, as the line writer does (s9-break finding 6)."""
    line = "." * 81 + " kropki=r1c1-r1c2:w;r2c1-r2c2:b2;r3c1-r3c2:w3"
    data = json.loads(replies(f"SOLVE format=fpuzzles {line}\n".encode()))
    assert (data["difference"], data["ratio"]) == (
        [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R3C1", "R3C2"], "value": 3}],
        [{"cells": ["R2C1", "R2C2"]}],
    )
    assert replies(f"SOLVE {json.dumps(data)}\n".encode()) == replies(f"SOLVE {line}\n".encode())


def test_solve_format_fpuzzles_of_a_classic_line():
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    solution = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    data = json.loads(replies(f"SOLVE format=fpuzzles {puzzle}\n".encode()))
    assert data == {
        "size": 9,
        "grid": [
            [
                {"value": int(solution[k]), "given": True} if puzzle[k] != "." else {"value": int(solution[k])}
                for k in range(r * 9, r * 9 + 9)
            ]
            for r in range(9)
        ],
    }


def test_solve_and_generate_format_errors():
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    assert replies(f"SOLVE format=xml {puzzle}\n".encode()) == (
        b'ERROR command SOLVE: format must be line, fpuzzles or link, not "xml"\n'
    )
    assert replies(b"GENERATE rules=windoku seed=1 format=link\n") == (
        b'ERROR command format=fpuzzles: rule "windoku" has no f-puzzles form\n'
    )


def test_generate_format_fpuzzles_and_link_read_back_unique():
    # kropki: break-session finding, a generated puzzle's dots were written "value": 0 and refused on reading
    for rules in ("classic", "killer", "jigsaw", "x+antiknight", "kropki", "xv", "thermo", "oddeven"):
        for form in ("fpuzzles", "link"):
            header, text, *rest = (
                replies(f"GENERATE rules={rules} seed=7 format={form}\n".encode()).decode().split("\n")
            )
            assert header.startswith("# generated size=9 ") and rest == [""]
            assert text.startswith("{" if form == "fpuzzles" else "https://f-puzzles.com/?load=")
            assert replies(f"COUNT {text}\n".encode()) == b"COUNT 1 unique\n"
            line = replies(f"GENERATE rules={rules} seed=7\n".encode()).decode().split("\n", 1)[1]
            if rules in ("classic", "x+antiknight"):  # the same puzzle as the line form
                assert replies(f"SOLVE rules={rules} {line.strip()}\n".encode()) == replies(f"SOLVE {text}\n".encode())


def test_a_6x6_of_3x2_boxes_is_written_with_its_boxes_as_regions_and_read_back_classic():
    """Break-session finding: f-puzzles' 6x6 boxes are 2x3, and a 3x2-box puzzle was written with no regions, so
    f-puzzles (and this reader) read another puzzle back; its boxes are now on every cell, read back as boxes."""
    grid = Grid(tuple([1, 2] + [0] * 34), 3, 2)
    data = write(grid, Variant())
    assert [[cell.get("region") for cell in row] for row in data["grid"]] == [[0, 0, 1, 1, 2, 2]] * 3 + [
        [3, 3, 4, 4, 5, 5]
    ] * 3
    back, variant = read_object(data)
    assert (back.cells, back.box_rows, back.box_cols, variant) == (grid.cells, 3, 2, Variant())
    assert replies(json.dumps(data).encode() + b"\n") == b"123456345612561234214365436521652143\n"
    two_by_three = write(Grid(grid.cells, 2, 3), Variant())  # f-puzzles' own shape: no regions written
    assert all("region" not in cell for row in two_by_three["grid"] for cell in row)


@pytest.mark.parametrize(("given", "read"), [("false", False), ("0", False), ("", False), ("true", True), (1, True)])
def test_a_cell_s_given_may_be_a_string(given, read):
    """Values may be strings: ``"given": "false"`` made the cell a given (break-session finding)."""
    grid = [[{} for _ in range(9)] for _ in range(9)]
    grid[0][0] = {"value": 5, "given": given}
    solved, _ = read_object({"size": 9, "grid": grid})
    assert solved.cells[0] == (5 if read else 0)


@pytest.mark.parametrize(
    ("keys", "error"),
    [
        ({"thermometer": [{"lines": [["R1C1"]]}]}, '"thermometer" entry 1 has a line of fewer than 2 cells'),
        (
            {"arrow": [{"cells": ["R1C1"], "lines": [["R1C1"]]}]},
            '"arrow" entry 1 has a line with no cell past its bulb',
        ),
        (
            {"littlekillersum": [{"cell": "R5C5", "direction": "UR", "value": 10}]},
            '"littlekillersum" entry 1: R5C5 is a cell of the grid, not one outside it',
        ),
        ({"negative": "ratio"}, '"negative" is a list of rule names (["ratio"]), not "ratio"'),
        ({"odd": [{"cells": ["R1C1"]}]}, '"odd" entry 1 has no cell'),
        ({"killercage": [{"cells": ["R1C1", "R1C1"], "value": 5}]}, '"killercage" entry 1: r1c1 appears twice'),
        (  # the arrow checks of the line syntax (break-session finding: searched as if the cells touched)
            {"arrow": [{"cells": ["R1C1"], "lines": [["R1C3", "R1C4"]]}]},
            '"arrow" entry 1 starts its line at r1c3, which does not touch its bulb r1c1',
        ),
        (
            {"arrow": [{"cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R1C4"]]}]},
            '"arrow" entry 1 steps from r1c2 to r1c4, cells that do not touch',
        ),
        (  # the bulb's cell was dropped from the line, the rest kept
            {"arrow": [{"cells": ["R1C1"], "lines": [["R1C2", "R1C1"]]}]},
            '"arrow" entry 1: its line re-enters its bulb at r1c1',
        ),
        (
            {"arrow": [{"cells": ["R1C1", "R3C3"], "lines": [["R1C1", "R2C1"]]}]},
            '"arrow" entry 1 has a bulb of cells that do not touch (r1c1, r3c3)',
        ),
        (  # a column clued from both sides: the second clue made it unsolvable, an equal one was taken silently
            {"sandwichsum": [{"cell": "R0C1", "value": "0"}, {"cell": "R10C1", "value": "5"}]},
            '"sandwichsum" entry 2: c1 appears twice (entry 1 clues it too)',
        ),
        (
            {"sandwichsum": [{"cell": "R3C0", "value": 5}, {"cell": "R1C10"}, {"cell": "R3C0", "value": 5}]},
            '"sandwichsum" entry 3: r3 appears twice (entry 1 clues it too)',
        ),
        (  # it said "-3 is not a number"
            {"whispers": [{"lines": [["R1C1", "R1C2"]], "value": -3}]},
            '"whispers" entry 1: value -3 is not a whole number 0 or more',
        ),
    ],
)
def test_the_fpuzzles_reader_refuses_the_marks_the_line_syntax_refuses(keys, error):
    """Break-session findings: each was taken silently (a one-cell thermometer, a shaftless arrow, a clue inside
    the grid, a negative rule as a string) or named Python's None; LAYOUTS.md says the reader refuses the same."""
    line = json.dumps({"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], **keys})
    assert replies(f"{line}\n".encode()) == f"ERROR format fpuzzles: {error}\n".encode()


@pytest.mark.parametrize(
    ("bulb", "line", "cells", "value"),
    [
        (["R1C1", "R1C2"], ["R1C1", "R1C2", "R2C3"], (0, 1, 11), 2),  # from the pill, across it
        (["R1C1"], ["R2C2", "R3C3"], (0, 10, 20), 1),  # beside the bulb
    ],
)
def test_an_arrow_line_may_start_in_its_bulb_or_beside_it(bulb, line, cells, value):
    """f-puzzles draws an arrow's line from a cell of its bulb; a line that starts beside the bulb is the same arrow."""
    data = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], "arrow": [{"cells": bulb, "lines": [line]}]}
    _grid, variant = read_object(data)
    assert [(m.cells, m.value) for m in variant.marks] == [(cells, value)]


def test_a_word_after_a_link_that_is_no_comment_is_refused():
    """Break-session finding: ``<link> junk`` was solved (lz-string stops at its end code: the junk, read as more
    payload, was never looked at); a link whose ``+`` became blanks still reads."""
    form = link(THERMO)
    assert replies(f"{form} junk\nCOUNT {form} junk # c\n".encode()) == (
        b'ERROR format fpuzzles: "junk" follows the link (only a # comment may)\n' * 2
    )
    assert "+" in form
    assert replies(f"{form.replace('+', ' ')}\n".encode()) == f"{SOLUTION}\n".encode()


def test_links_of_f_puzzles_with_www_and_of_sudokupad_and_with_a_comment_are_read():
    """Break-session finding: ``www.f-puzzles.com`` and SudokuPad's ``sudokupad.app/fpuzzles<payload>`` links were
    "'h' is not a digit", and a link with a trailing comment "not lz-string base64"."""
    line = json.dumps(THERMO)
    answer = replies(f"{line}\n".encode())
    payload = link(THERMO).split("load=")[1]
    for form in (
        f"https://www.f-puzzles.com/?load={payload}",
        f"https://sudokupad.app/fpuzzles{payload}",
        f"https://sudokupad.app/?puzzleid=fpuzzles{payload}",
        f"{link(THERMO)} # mine",
    ):
        assert replies(f"{form}\n".encode()) == answer == f"{SOLUTION}\n".encode()
        assert replies(f"COUNT {form}\n".encode()) == b"COUNT 1 unique\n"
