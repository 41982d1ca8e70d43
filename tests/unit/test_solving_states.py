"""HINT, STEPS, RATE and parse take a HoDoKu library line as a classic solving state (issue 30).

The state's givens, placed digits and candidates are read by
sudoku_server/text/hodoku.py (``Variant.state``); the path reasons under the
classic rules from its candidates, uniqueness techniques on and placed cells
apart from givens (avoidable rectangles), as ``HINT all`` does.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sudoku_server.service.answer import answer
from sudoku_server.text import PuzzleReader
from sudoku_server.wire.replies import render
from sudoku_server.wire.verbs import check_arguments, parse_command
from tests.support.sessions import replies

ROOT = Path(__file__).resolve().parents[2]
REGLIB = (ROOT / "puzzles" / "hodoku" / "reglib-1.4.txt").read_text("utf-8").splitlines()


def _sent(lineno: int) -> str:
    """reglib-1.4's line ``lineno`` as the conformance test sends it: ``:::<givens>:<deleted>:::``."""
    fields = REGLIB[lineno - 1].split(":")
    return ":::" + fields[3] + ":" + fields[4] + ":::"


def _reply(text: str, command: str) -> str:
    request = check_arguments(parse_command(command, 1, "\n"))
    (puzzle,) = PuzzleReader().feed_line(text, "\n", 2)
    error = getattr(puzzle, "error", None)
    if error is not None:
        return f"ERROR {error.code} {error}\n"
    request = dataclasses.replace(request, grid=puzzle.grid, variant=puzzle.variant or request.variant)
    return render(answer(request), "\n", puzzle).decode()


# reglib-1.4 line 882, 0600-1: a unique rectangle type 1 removes 2 and 3 from r2c7
UR = _sent(882)
# reglib-1.4 line 1027, 0607-1: an avoidable rectangle type 1 on placed r1c1 and r2c1 removes 9 from r2c9
AR1 = _sent(1027)
# reglib-1.4 line 1039, 0608-1: an avoidable rectangle type 2 removes 9 from r4c3, r7c2 and r8c2
AR2 = _sent(1039)


def test_hint_of_a_state_takes_the_unique_rectangle_hint_all_lists_first() -> None:
    assert _reply(UR, "HINT all").splitlines()[1] == (
        "STEP 0600 unique-rectangle-type-1 r2c7<>2 r2c7<>3 # unique rectangle type 1 on 2/3 in r2c7, r2c9, r9c7 and r9c9"
    )
    assert _reply(UR, "HINT") == (
        "HINT unique rectangle type 1 on 2 and 3 in r2c7, r2c9, r9c7, r9c9: remove 2 from r2c7; 3 from r2c7\n"
    )


def test_hint_of_a_state_takes_an_avoidable_rectangle_on_its_placed_cells() -> None:
    assert _reply(AR1, "HINT all").splitlines()[1] == (
        "STEP 0607 avoidable-rectangle-type-1 r2c9<>9 # avoidable rectangle type 1 on 9/7 in r1c1, r1c9, r2c1 and r2c9"
    )
    assert _reply(AR1, "HINT") == (
        "HINT avoidable rectangle type 1 on 9/7 in r1c1, r1c9, r2c1 and r2c9: remove 9 from r2c9\n"
    )
    assert _reply(AR2, "HINT all").splitlines()[1] == (
        "STEP 0608 avoidable-rectangle-type-2 r4c3<>9 r7c2<>9 r8c2<>9 # avoidable rectangle type 2 on 3/7 in r7c3,"
        " r7c7, r8c3 and r8c7"
    )
    assert _reply(AR2, "HINT") == (
        "HINT avoidable rectangle type 2 on 3/7 in r7c3, r7c7, r8c3 and r8c7: remove 9 from r4c3, r7c2, r8c2\n"
    )
    assert _reply(AR2, "HINT nudge") == "HINT avoidable rectangle type 2: look at box 7\n"


def test_the_same_digits_all_given_make_no_avoidable_rectangle() -> None:
    # AR1 with every placed digit given (its '+' marks dropped): no avoidable rectangle is left to find
    given = AR1.replace("+", "")
    assert "avoidable" not in _reply(given, "HINT")
    assert "avoidable" not in _reply(given, "HINT all")


def test_steps_walk_the_path_from_the_state_and_rate_rates_the_rest_of_it() -> None:
    steps = replies(f"STEPS {AR1}\n".encode()).decode().splitlines()
    assert steps[:3] == [
        "STEPS 27 steps, hard se=4.5 qqwing=none hardest=avoidable-rectangle-type-1 method=techniques",
        "1. avoidable rectangle type 1 on 9/7 in r1c1, r1c9, r2c1 and r2c9: remove 9 from r2c9",
        "2. hidden single: r3c9 is the only place for 9 in box 3 (r3c9=9)",
    ]
    assert steps[-2:] == ["27. full house: r6c8 is the last empty cell in box 6 (r6c8=4)", "END"]
    assert len(steps) == 1 + 27 + 1
    # the rest of the path: SE's figures from the state on, QQWing none (it rates givens), HoDoKu's own path
    # from the same state (the avoidable rectangle, 100, then singles)
    assert replies(f"RATE {AR1}\nRATE {UR}\n".encode()) == (
        b"RATE hard se=4.5 qqwing=none hardest=avoidable-rectangle-type-1 method=techniques hodoku=hard:204\n"
        b"RATE hard se=4.5 qqwing=none hardest=unique-rectangle-type-1 method=techniques hodoku=hard:192\n"
    )
    assert replies(f"HINT {UR}\n".encode()) == _reply(UR, "HINT").encode()


def _pencilmarks(text: str) -> str:
    """The 729-character pencilmark line of a library line's state: each filled cell its digit alone."""
    (puzzle,) = PuzzleReader().feed_line(text, "\n", 1)
    cells = []
    for v, mask in zip(puzzle.grid.cells, puzzle.variant.candidates):
        mask = 1 << (v - 1) if v else mask
        cells.append("".join(str(d + 1) if mask >> d & 1 else "." for d in range(9)))
    return "".join(cells)


def test_a_pencilmark_line_stays_a_sukaku_puzzle_without_uniqueness() -> None:
    line = _pencilmarks(UR)
    assert len(line) == 729
    assert replies(f"RATE {line}\nHINT {line}\n".encode()) == (
        b"RATE expert se=5.5 qqwing=none hardest=WXYZ-Wing method=techniques rules=pencilmarks\n"
        b"HINT WXYZ-Wing: r2c5, r2c6, r3c6 hold 1, 2, 5 and 7 in box 2, r3c8 {2,5} sees every 5 of them:"
        b" remove 2 from r2c7, r2c9\n"
    )
    # HINT all lists the same steps at both (the state's placed cells aside, which only AR1 has)
    assert _reply(line, "HINT all") == _reply(UR, "HINT all")


def test_a_cell_left_with_no_candidate_is_the_same_error_in_a_library_line_and_a_pencilmark_line() -> None:
    # r1c5 of UR keeps 2 and 9 after its peers (its line deletes nothing): delete those
    assert UR.endswith("::::")
    state = UR[:-4] + ":215 915:::"
    line = _pencilmarks(UR)
    line = line[:36] + "." * 9 + line[45:]
    expected = b"ERROR invalid r1c5 has no candidate\n"
    for verb in ("", "HINT ", "HINT all ", "STEPS ", "RATE "):
        assert replies(f"{verb}{state}\n".encode()) == expected, verb
        assert replies(f"{verb}{line}\n".encode()) == expected, verb


def _examples(document: str, heading: str) -> list[tuple[str, str]]:
    """(request, reply) pairs of the first fenced block after ``heading`` in docs/``document``."""
    text = (ROOT / "docs" / document).read_text("utf-8")
    block = text[text.index(heading) :].split("```\n", 2)[1]
    lines = block.splitlines()
    return list(zip(lines[::2], lines[1::2]))


def test_the_documents_state_examples_answer_as_shown() -> None:
    examples = _examples("PROTOCOL.md", "**Solving states.**") + _examples("LAYOUTS.md", "### HoDoKu library lines")
    assert [request.split()[0] for request, _ in examples] == ["RATE", "HINT", "HINT"]
    for request, reply in examples:
        assert replies(f"{request}\n".encode()).decode() == reply + "\n", request
