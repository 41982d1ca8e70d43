"""GENERATE for the rules that take marks (issue 29): marks drawn over a random solution, givens removed while
the puzzle stays unique, and the answer one line with its marks (docs/LAYOUTS.md "Marks after a line").

Over the wire (the sans-I/O session answered by the service): each rule's made puzzle is read back from its
answer line, counted unique, and solved under its marks (the server verifies every answer against the marks).
"""

from __future__ import annotations

import pytest

from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules import RULES
from sudoku_server.sudoku.variant_generator import generate_variant
from sudoku_server.sudoku.variants import Variant, variant_geometry
from sudoku_server.text.fpuzzles import marks_line, marks_text
from tests.support.cpsat_oracle import solutions
from tests.support.sessions import replies

#: The rules GENERATE draws marks for: every rule that takes marks.
MADE = ["oddeven", "thermo", "kropki", "xv", "whispers", "palindrome", "renban", "arrow", "littlekiller", "sandwich"]

#: GENERATE rules=thermo seed=1, exactly.
THERMO_SEED_1 = (
    "# generated size=9 givens=14 symmetry=none seed=1 minimal=yes rules=thermo\n"
    ".7.3...1................2.3....6.3.........62....35....2..........2.......7...... thermo="
    "r8c5-r8c6-r7c7-r6c8;r8c9-r7c8-r8c7;r7c3-r6c2-r7c1;r4c7-r5c8-r4c8;r8c3-r7c2-r6c3-r5c4;r5c2-r4c1-r3c2-r2c3;"
    "r1c4-r2c4-r3c5-r3c6;r2c8-r2c9-r1c9\n"
)


def test_a_seeded_thermo_puzzle_is_the_same_on_every_machine():
    assert replies(b"GENERATE rules=thermo seed=1\n").decode() == THERMO_SEED_1


@pytest.mark.parametrize("rule", MADE)
@pytest.mark.parametrize("seed", [3, 11])
def test_a_made_puzzle_reads_back_unique_with_its_marks(rule: str, seed: int):
    header, line = replies(f"GENERATE rules={rule} seed={seed}\n".encode()).decode().splitlines()
    assert header.startswith("# generated size=9 givens=") and header.endswith(f" rules={rule}")
    givens, marks = line.split(" ", 1)
    assert marks.startswith(f"{rule}=") and len(marks) > len(rule) + 1
    assert replies(f"COUNT {line}\n".encode()) == b"COUNT 1 unique\n"
    solved = replies(f"SOLVE {line}\n".encode()).decode().strip()
    assert len(solved) == 81 and all(g in (".", s) for g, s in zip(givens, solved))


@pytest.mark.parametrize("rule", MADE)
def test_the_marks_hold_in_the_solution_they_were_drawn_over(rule: str):
    made = generate_variant(Variant((rule,)), 9, seed=5)
    assert made.variant.marks and all(m.rule == rule for m in made.variant.marks)
    # the generator's solution keeps every mark: the puzzle read back from its line solves to it
    puzzle = marks_line(marks_text(made.puzzle, made.variant), 1, "\n")
    assert puzzle.variant == made.variant  # type: ignore[union-attr]
    assert (
        replies(f"SOLVE {marks_text(made.puzzle, made.variant)}\n".encode())
        == f"{made.solution.to_string()}\n".encode()
    )


def test_marks_text_writes_each_rules_line_syntax():
    grid = Grid.from_string("." * 81)
    variant = Variant(
        ("thermo", "kropki", "xv", "arrow", "littlekiller", "sandwich"),
        marks=(
            RULES["thermo"].syntax("r1c1-r1c2-r2c3", 9)  # type: ignore[misc]
            + RULES["kropki"].syntax("r5c5-r5c6:w;r6c6-r7c6:b3;negative", 9)  # type: ignore[misc]
            + RULES["xv"].syntax("r9c1-r9c2:x;r8c8-r8c9:v", 9)  # type: ignore[misc]
            + RULES["arrow"].syntax("r4c4-r4c5-r5c4:2", 9)  # type: ignore[misc]
            + RULES["littlekiller"].syntax("r2c1-r1c2:12", 9)  # type: ignore[misc]
            + RULES["sandwich"].syntax("r3:7;c9:0", 9)  # type: ignore[misc]
        ),
    )
    assert marks_text(grid, variant) == (
        "." * 81 + " thermo=r1c1-r1c2-r2c3 kropki=r5c5-r5c6:w;r6c6-r7c6:b3;negativewhite;negativeblack"
        " xv=r9c1-r9c2:x;r8c8-r8c9:v arrow=r4c4-r4c5-r5c4:2 littlekiller=r2c1-r1c2:12 sandwich=r3:7;c9:0"
    )


def test_a_rule_that_takes_marks_but_makes_none_is_refused_by_name():
    making = RULES["palindrome"].making
    made = making.marks
    object.__setattr__(making, "marks", None)  # a rule without a maker (each rule has one today)
    try:
        assert replies(b"GENERATE rules=palindrome seed=1\n") == (
            b"ERROR command GENERATE: rules: palindrome marks are not generated (GENERATE makes oddeven, thermo,"
            b" kropki, xv, whispers, renban, arrow, littlekiller, sandwich)\n"
        )
    finally:
        object.__setattr__(making, "marks", made)


def test_every_rule_that_takes_marks_is_generated():
    assert sorted(rule.word for rule in RULES.values() if rule.data == "marks") == sorted(MADE)


def test_a_grid_rule_with_marks_is_named_in_the_header_and_the_line_carries_the_marks():
    header, line = replies(b"GENERATE rules=x+thermo seed=1\n").decode().splitlines()
    assert header.endswith(" rules=x+thermo")
    assert line.split(" ")[1].startswith("thermo=")
    assert replies(f"COUNT rules=x {line}\n".encode()) == b"COUNT 1 unique\n"


@pytest.mark.parametrize("rules", ["thermo+killer", "thermo+jigsaw"])
def test_marks_with_cages_or_regions_come_as_the_fpuzzles_line_that_holds_them_all(rules: str):
    header, line = replies(f"GENERATE rules={rules} seed=1\n".encode()).decode().splitlines()
    assert header.endswith(" rules=" + "+".join(sorted(rules.split("+"), key=list(RULES).index)))
    assert line.startswith('{"size":9,"grid":') and '"thermometer"' in line
    assert replies(f"COUNT {line}\n".encode()) == b"COUNT 1 unique\n"


def test_a_full_grid_under_a_marks_rule_is_refused():
    assert replies(b"GENERATE rules=arrow full seed=1\n") == (
        b"ERROR command GENERATE: full makes a solved grid; arrows need a puzzle\n"
    )


def test_marks_are_generated_up_to_16x16():
    """Break-session finding: every 25x25 GENERATE under a marks rule ended ERROR timeout after 20 s."""
    assert replies(b"GENERATE rules=thermo size=25 seed=1\n") == (
        b"ERROR command GENERATE: thermometers are generated up to 16x16, not 25x25 (they are solved at 25x25)\n"
    )


@pytest.mark.parametrize("rule", MADE)
def test_cpsat_finds_the_made_puzzle_unique_with_the_generators_solution(rule: str):
    """The independent oracle (OR-Tools CP-SAT, tests/support/cpsat_oracle.py) on a made puzzle and its marks."""
    made = generate_variant(Variant((rule,)), 9, seed=17)
    geometry = variant_geometry(made.variant)
    assert solutions(made.puzzle.cells, geometry, limit=2) == [made.solution.cells]


@pytest.mark.parametrize("rule", MADE)
def test_a_seed_gives_the_same_puzzle_whatever_proves_the_removals(rule: str, monkeypatch: pytest.MonkeyPatch):
    """The native count and the pure-Python engine's proofs (the pure-Python core's) make the same puzzle: the
    Python proofs start from the rule's candidate masks too (odd/even's marks before this fix were left out)."""
    from sudoku_server.sudoku import solver

    first = generate_variant(Variant((rule,)), 9, seed=2)
    monkeypatch.setattr(solver, "CORE", "python")
    again = generate_variant(Variant((rule,)), 9, seed=2)
    assert (again.puzzle, again.variant, again.minimal) == (first.puzzle, first.variant, first.minimal)
