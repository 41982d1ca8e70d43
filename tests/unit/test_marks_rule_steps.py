"""The named steps of issue 29's rules (thermometer and its bounds, kropki, XV, whispers, palindrome, renban, arrow,
little killer) in HINT, RATE and STEPS, and the forcing chains that cannot read their marks left out.

Over the wire (the sans-I/O session answered by the service) on the examples of
tests/support/marks_examples.py; then the sums' placements (:func:`_sum_supports`) on plain values.
Every step of a path is checked against the solution by the engine (a wrong one raises).
"""

from __future__ import annotations

import pytest

from sudoku_server.sudoku.techniques import variant_rules
from sudoku_server.sudoku.techniques.variant_rules import _sum_supports
from tests.support.marks_examples import EXAMPLES
from tests.support.sessions import replies

#: rule word -> the HINT line on its example (the path's first step: the rule's own).
HINTS = {
    "thermo": "HINT thermometer bounds: thermometer r9c1-r7c3: its digits rise from the bulb, so r9c1 is below 3:"
    " remove 4 from r9c1; 6 from r9c1; 7 from r9c1; 8 from r9c1; 9 from r9c1",
    "arrow": "HINT arrow: arrow r2c7-r4c7: its line cannot sum to its bulb with r2c7 as {1,4} or r3c7 as {9} or"
    " r4c7 as {6,7,8,9}: remove 1 from r2c7; 4 from r2c7; 6 from r4c7; 7 from r4c7; 8 from r4c7; 9 from r3c7, r4c7",
    "renban": "HINT renban: r8c8 holds 8, so its cells on its renban line cannot hold {1,2,3,4,5,8}:"
    " remove 2 from r9c7, r9c8; 3 from r9c7, r9c8; 4 from r9c8; 5 from r9c7, r9c8",
    "whispers": "HINT whispers: r4c6 is {1,2,3,4,6,7,8,9}, so its neighbours on its whispers line cannot hold {5}:"
    " remove 5 from r4c5",
    "palindrome": "HINT palindrome: r1c3 is {2,3,4,5,6,7,8,9}, so its mirror cells on its palindrome cannot hold"
    " {1}: remove 1 from r2c4",
    "littlekiller": "HINT little killer: little killer r9c6-r6c9 sum 13: its digits cannot make its sum with r7c8"
    " as {6,7,9} or r8c7 as {6,7,8,9} or r9c6 as {6,7,9}: remove 6 from r7c8, r8c7, r9c6; 7 from r7c8, r8c7,"
    " r9c6; 8 from r8c7; 9 from r7c8, r8c7, r9c6",
    "xv": "HINT xv: r1c3 is {1,2,3,4,5,7,8,9}, so its XV neighbours cannot hold {5,6,7,8,9}: remove 5 from r2c3;"
    " 7 from r2c3; 9 from r2c3",
    "kropki": "HINT kropki: r1c3 is {1,2,3,4,5,6,7,8,9}, so its kropki neighbours cannot hold {5,7,9}:"
    " remove 5 from r1c4; 7 from r1c4; 9 from r1c4",
}

#: rule word -> the step name STEPS gives its own steps.
STEP_NAMES = {
    "thermo": "thermometer bounds",
    "arrow": "arrow",
    "renban": "renban",
    "whispers": "whispers",
    "palindrome": "palindrome",
    "littlekiller": "little killer",
    "xv": "xv",
    "kropki": "kropki",
}


def ask(verb: str, word: str) -> list[str]:
    givens, marks = EXAMPLES[word]
    return replies(f"{verb} {givens} {word}={marks}\n".encode()).decode().splitlines()


@pytest.mark.parametrize("word", sorted(HINTS))
def test_the_first_hint_is_the_rules_own_step(word: str):
    assert ask("HINT", word) == [HINTS[word]]


@pytest.mark.parametrize("word", sorted(STEP_NAMES))
def test_steps_name_the_rules_step_and_leave_out_the_chains_that_cannot_read_its_marks(word: str):
    lines = ask("STEPS", word)
    assert (
        lines[3]
        == f"note: dynamic forcing chains plus and nested forcing chains: off ({word}: they do not read its constraints)"
    )
    assert lines[-1] == "END"
    techniques = [line.split(". ", 1)[1].split(":", 1)[0] for line in lines[4:-1]]
    assert STEP_NAMES[word] in techniques
    assert "nested forcing chains" not in techniques and "dynamic forcing chains plus" not in techniques


def test_a_thermometer_puzzle_rates_by_its_thermometer_bounds_step():
    assert ask("RATE", "thermo") == [
        "RATE easy se=2.3 qqwing=none hardest=thermometer-bounds method=techniques rules=thermo"
    ]


def test_odd_even_keeps_the_chains_its_candidates_show_them():
    assert [line for line in ask("STEPS", "oddeven") if line.startswith("note")] == [
        "note: BUG: off (argued for rows, columns and boxes only)"
    ]


FULL = 0b111111111


def test_a_sums_placements_keep_peers_apart():
    # three cells of row 1 summing to 6: only 1, 2 and 3 (4 + 1 + 1 would repeat a digit in the row)
    used = _sum_supports((0, 1, 2), (1, 1, 1), (FULL,) * 3, 6, _row_peers())
    assert used == [0b111] * 3


def test_an_arrows_bulb_weighs_minus_one():
    # a bulb r1c1 and its line r2c2, r3c3 (one box: different digits): the bulb is 3 to 9, the line 1 to 8
    used = _sum_supports((0, 10, 20), (-1, 1, 1), (FULL,) * 3, 0, _box_peers())
    assert used == [0b111111100, 0b011111111, 0b011111111]


def test_past_its_node_budget_a_sum_keeps_the_digits_its_relaxation_allows(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(variant_rules, "_MAX_SUM_NODES", 0)
    # peers not consulted: 4 + 1 + 1 makes 6, so 4 stays
    used = _sum_supports((0, 1, 2), (1, 1, 1), (FULL,) * 3, 6, _row_peers())
    assert used == [0b1111] * 3


def _row_peers() -> list[int]:
    """Peer masks of an 81-cell grid in which r1c1, r1c2 and r1c3 see each other (and nothing else matters)."""
    row = 0b111
    return [row & ~(1 << c) if c < 3 else 0 for c in range(81)]


def _box_peers() -> list[int]:
    """Peer masks in which r1c1, r2c2 and r3c3 (cells 0, 10, 20) see each other."""
    cells = (0, 10, 20)
    box = sum(1 << c for c in cells)
    return [box & ~(1 << c) if c in cells else 0 for c in range(81)]
