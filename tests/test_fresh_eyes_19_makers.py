"""The fresh-eyes findings of issues 19-20 on the makers' verbs, each kept from the tester's case.

f03: UNIQUE and MINIMAL answer under the puzzle's rules (``rules=``, RULES,
jigsaw, killer and pencilmark layouts); CANON and SAME refuse non-classic
puzzles. f13: SAME with one puzzle says its second did not follow. f12: the
client's --canon/--dedupe errors name the input's line, once. f16: an
evicted warm pool's gauge label goes.
"""

from __future__ import annotations

import pytest
from clienttools import address_args, run_client
from test_variant_wire import replies
from variant_examples import CAGE_ROWS, CAGE_SUMS, INKALA_PENCILMARKS, JIGSAW_GIVENS, JIGSAW_REGIONS, SUDOCUE, X

from sudoku_server.errors import InvalidPuzzleError
from sudoku_server.net.metrics import Counts, Metrics
from sudoku_server.service.requests import Generate
from sudoku_server.service.warm import WarmPools
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import count_solutions, solve
from sudoku_server.sudoku.variants import Variant, variant_geometry

JIGSAW = JIGSAW_GIVENS + JIGSAW_REGIONS
#: The X puzzle without its r1c2 given: 20+ solutions under x.
X_OPEN = "..." + X[3:]
#: The killer's cages e and i merged (sum 5 + 15): two solutions, which differ in the merged cage's digits.
MERGED_ROWS = "".join(CAGE_ROWS).replace("i", "e")
MERGED_BLOCK = (
    "".join(MERGED_ROWS[9 * r : 9 * r + 9] + "\n" for r in range(9))
    + CAGE_SUMS.replace(" i=15", "").replace("e=5", "e=20")
    + "\n"
)


def _differ(a: str, b: str) -> str:
    return " ".join(f"r{k // 9 + 1}c{k % 9 + 1}" for k in range(81) if a[k] != b[k])


def _is_last(puzzle: Grid, last: str, geometry) -> None:
    """``last`` is the row-major-last solution: a solution, and no larger digit fits any cell after its prefix.

    Checked by counts alone (no relabelling, no solve): independent of UNIQUE's search.
    """
    digits = [int(c) for c in last]
    assert count_solutions(Grid(tuple(digits), 3, 3), 2, geometry=geometry) == 1
    for cell in range(81):
        if puzzle.cells[cell]:
            continue
        for larger in range(digits[cell] + 1, 10):
            cells = digits[:cell] + [larger] + list(puzzle.cells[cell + 1 :])
            try:
                found = count_solutions(Grid(tuple(cells), 3, 3), 1, geometry=geometry)
            except InvalidPuzzleError:  # the digit breaks a rule at once (a cage's sum): no solution
                found = 0
            assert found == 0, (cell, larger)


# --- f03: UNIQUE, MINIMAL under the rules; CANON, SAME classic only ------------------------------------------


def test_unique_and_minimal_agree_with_count_under_rules_and_layouts():
    data = (
        f"RULES x\nCOUNT {X}\nUNIQUE {X}\nRULES classic\nUNIQUE rules=x {X}\nUNIQUE {X[:20]}\n"
        f"COUNT {JIGSAW}\nUNIQUE {JIGSAW}\nCOUNT {SUDOCUE}\nUNIQUE {SUDOCUE}\n"
        f"MINIMAL rules=x {X}\nMINIMAL {JIGSAW}\nMINIMAL {X}\n"
    )
    classic = replies(f"UNIQUE {X}\n".encode())
    assert classic.startswith(b"UNIQUE no 123456789456789123789123456214365897")  # classic: several solutions
    assert replies(data.replace(f"UNIQUE {X[:20]}\n", "").encode()) == (
        b"RULES x\nCOUNT 1 unique\nUNIQUE yes\nRULES classic\nUNIQUE yes\n"
        b"COUNT 1 unique\nUNIQUE yes\nCOUNT 1 unique\nUNIQUE yes\n"
        b"MINIMAL yes\nMINIMAL yes\n"
        b"ERROR multiple the puzzle has more than one solution (r5c4 can be 2 or 9)\n"
    )


def test_unique_under_x_gives_two_x_solutions_and_clues_each_checked_under_x():
    reply = replies(f"UNIQUE rules=x {X_OPEN}\n".encode())
    first = "123456789456789123789123456214365897368972514597814632941638275832547961675291348"
    last = "958431762267589143431762985176325894384976521592814637743658219819247356625193478"
    clues = "r1c2=2 r1c2=8 r1c5=2 r2c4=2 r2c5=5 r3c2=8 r3c5=2 r3c6=8 r4c2=8 r5c2=7 r5c9=5"
    assert reply == f"UNIQUE no {first} {last} differ {_differ(first, last)} add {clues}\n".encode()
    geometry = variant_geometry(Variant(("x",)), 3, 3)
    puzzle = Grid(tuple(0 if c == "." else int(c) for c in X_OPEN), 3, 3)
    assert "".join(map(str, solve(puzzle, geometry=geometry).cells)) == first
    _is_last(puzzle, last, geometry)
    for clue in clues.split():
        cell = (int(clue[1]) - 1) * 9 + int(clue[3]) - 1
        cells = list(puzzle.cells)
        cells[cell] = int(clue[5])
        assert count_solutions(Grid(tuple(cells), 3, 3), 2, geometry=geometry) == 1


def test_unique_of_a_killer_finds_its_last_solution_without_relabelling():
    """Relabelling d -> 10 - d breaks cage sums: the last solution is searched cell by cell."""
    reply = replies(f"RULES killer\nUNIQUE\n{MERGED_BLOCK}".encode())
    first = "673541928541928673928673541765814239814239765239765814486157392157392486392486157"
    last = "678541923541923678923678541765814239814239765239765814486157392157392486392486157"
    clues = "r1c3=3 r1c3=8 r1c9=3 r1c9=8 r2c6=3 r2c6=8 r2c9=3 r2c9=8 r3c3=3 r3c3=8 r3c6=3 r3c6=8"
    assert reply == f"RULES killer\nUNIQUE no {first} {last} differ {_differ(first, last)} add {clues}\n".encode()
    sums = dict(word.split("=") for word in CAGE_SUMS.replace(" i=15", "").replace("e=5", "e=20").split())
    cells = {label: tuple(k for k in range(81) if MERGED_ROWS[k] == label) for label in sums}
    for solution in (first, last):  # both keep every cage's sum
        assert all(sum(int(solution[k]) for k in cells[label]) == int(total) for label, total in sums.items())
    assert replies(f"RULES killer\nCOUNT limit=9\n{MERGED_BLOCK}".encode()) == b"RULES killer\nCOUNT 2\n"


def test_canon_and_same_refuse_variant_puzzles_and_the_connection_goes_on():
    data = (
        f"CANON {JIGSAW}\nSAME {SUDOCUE} {SUDOCUE}\nCANON {INKALA_PENCILMARKS}\nSAME {JIGSAW}\n{X}\n"
        f"SAME {X}\n{JIGSAW}\nRULES x\nCANON {X}\nSAME {X} {X}\nRULES classic\nSAME {X} {X}\nPING\n"
    )
    assert replies(data.encode()) == (
        b"ERROR command CANON: classic rules only, not jigsaw\n"
        b"ERROR command SAME: classic rules only, not killer\n"
        b"ERROR command CANON: classic rules only, not pencilmarks\n"
        b"ERROR command SAME: classic rules only, not jigsaw\n"
        b"ERROR command SAME: classic rules only, not jigsaw\n"
        b"RULES x\nERROR command CANON: classic rules only, not x\nERROR command SAME: classic rules only, not x\n"
        b"RULES classic\nSAME yes transpose=no rows=123456789 cols=123456789 digits=123456789\nPONG\n"
    )


def test_help_shows_rules_for_unique_and_minimal():
    reply = replies(b"HELP UNIQUE\nHELP MINIMAL\nHELP CANON\n")
    assert reply.splitlines()[0] == b"HELP UNIQUE [rules=R] <puzzle>"
    assert b"HELP MINIMAL [rules=R] <puzzle>\n" in reply and b"HELP CANON [map] <puzzle>\n" in reply


# --- f13: SAME with one puzzle --------------------------------------------------------------------------------


def test_same_with_one_puzzle_names_its_second_and_swallows_nothing():
    data = f"SAME {X}\nPING\nSAME\n{X}\nPING\nSAME\nPING\nSAME {X}\n"
    assert replies(data.encode()) == (
        b"ERROR command SAME at line 1: its second puzzle did not follow\nPONG\n"
        b"ERROR command SAME at line 3: its second puzzle did not follow\nPONG\n"
        b"ERROR command SAME at line 6: no puzzle followed it\nPONG\n"
        b"ERROR incomplete input ended after SAME at line 8, before its second puzzle\n"
    )
    assert replies(b"SAME\n") == b"ERROR incomplete input ended after SAME at line 1, before its puzzle\n"


# --- f12: the client's --canon / --dedupe name the input's line once ------------------------------------------

P1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
P1_FORM = "........1.....2....34....5.......56......7.3.2...18......6.......54.....8.......7"


@pytest.mark.parametrize("dedupe", [False, True], ids=["canon", "dedupe"])
def test_client_errors_name_the_input_line_once(server_address, tmp_path, dedupe):
    path = tmp_path / "bank.txt"
    path.write_text(f"# bank\n{P1}\nhello\n\n{P1[:80]}\n4...x{P1[5:]}\n{P1}\n")
    result = run_client(*address_args(server_address), "--dedupe" if dedupe else "--canon", str(path))
    errors = (
        "ERROR format line 3: not a one-line puzzle\n"
        "ERROR format line 5: expected 81 cells, found 80\n"
        "ERROR format line 6, column 5: 'x' is not a digit 1-9 or an empty mark (. 0 _) at r1c5\n"
    )
    if dedupe:
        assert result.stdout == f"{P1} 2\n".encode()
        assert result.stderr == "".join(f"sudoku-client: {line}\n" for line in errors.splitlines()).encode()
    else:
        assert result.stdout == f"{P1_FORM}\n{errors}{P1_FORM}\n".encode()
        assert result.stderr == b""
    assert result.returncode == 1


# --- f16: an evicted warm pool's gauge goes --------------------------------------------------------------------


def test_an_evicted_pool_leaves_stats_and_the_metrics():
    pools = WarmPools(target=1, level_pools=2)
    metrics = Metrics(Counts(), lambda: (0, 0, 0, 0), lambda: (pools.levels(), pools.served, 0.0))
    pools.take(Generate(level="easy"))
    pools.take(Generate(level="medium"))
    assert metrics.totals()["pools"] == {"easy": 0, "medium": 0}
    pools.take(Generate(level="hard"))  # a third pool: easy, the least recently asked, goes
    assert metrics.totals()["pools"] == {"hard": 0, "medium": 0}
    text = metrics.exposition().decode()
    assert 'pool="hard"' in text and 'pool="medium"' in text and 'pool="easy"' not in text
    pools.take(Generate(level="easy"))  # asked again: back, and medium goes
    assert metrics.totals()["pools"] == {"easy": 0, "hard": 0}
