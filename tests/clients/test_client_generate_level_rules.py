"""The client's ``--generate`` with ``--level`` and ``--rules`` (issue 32): the GENERATE lines it sends, and the exact
puzzles the real server makes for them."""

from __future__ import annotations

import pytest

from sudoku_client import cli as sc
from sudoku_client.replies import LEVELS
from tests.support.clienttools import FakeServer, address_args, run_client

HARD_SEED_7 = (
    b"# generated size=9 givens=27 symmetry=none seed=7 minimal=yes level=hard se=4.0\n"
    b".3781........3...41.....6....1..2.4.3....8..9.2..4.3.6....2..6...21.3.9....5.92..\n"
)
X_SEEDS_1_2 = (
    b"# generated size=9 givens=18 symmetry=none seed=1 minimal=yes rules=x\n"
    b".7.3....9....2.7........2......5............69......3.8......6...12..3....5..6.2.\n"
    b"# generated size=9 givens=19 symmetry=none seed=2 minimal=yes rules=x\n"
    b"7.....9.192..73.......15...5..6...4..87..4..6.1...................8............2.\n"
)
X_EASY_GRID = b"""\
# generated size=9 givens=17 symmetry=none seed=904 minimal=yes level=easy se=2.3 rules=x
+-------+-------+-------+
| . 5 . | . . . | . 2 . |
| . . . | 4 . . | . . . |
| . . 8 | . . . | . . . |
+-------+-------+-------+
| . . . | 3 . 4 | . . 5 |
| . . . | . . . | . . 6 |
| . . . | . 1 . | . . 7 |
+-------+-------+-------+
| . 1 7 | . 8 . | 5 . 4 |
| . . . | 9 . . | . . 3 |
| . . . | . . . | . . . |
+-------+-------+-------+

"""


def test_level_and_rules_are_sent_as_generate_options():
    with FakeServer(lambda line: b"# generated size=9 seed=1\n" + b"." * 81 + b"\n") as fake:
        result = run_client(
            "--port", str(fake.port), "--generate", "2", "--level", "expert", "--rules", "x+antiknight", "--seed", "9"
        )
    assert fake.connections == [
        [b"GENERATE level=expert rules=x+antiknight seed=9", b"GENERATE level=expert rules=x+antiknight seed=10"]
    ]
    assert result.returncode == 0


def test_level_choices_are_the_five_levels():
    result = run_client("--generate", "1", "--level", "diabolical")
    assert result.returncode == 2
    assert (
        b"argument --level: invalid choice: 'diabolical' (choose from 'easy', 'medium', 'hard', 'expert', 'extreme')"
        in result.stderr
    )
    assert LEVELS == ("easy", "medium", "hard", "expert", "extreme")


def test_level_and_rules_need_generate():
    for option, value in (("--level", "easy"), ("--rules", "x")):
        result = run_client(option, value)
        assert result.returncode == 2
        assert result.stderr.endswith(b"error: %s needs --generate\n" % option.encode())


def test_rules_is_one_word():
    result = run_client("--generate", "1", "--rules", "x antiknight")
    assert result.returncode == 2
    assert (
        b"argument --rules: invalid rules 'x antiknight' (expected one word such as x or x+antiknight)" in result.stderr
    )
    assert "--rules R" in sc.build_parser().format_help()


def test_level_against_the_real_server(server_address):
    """A seed that makes no hard puzzle is stepped on by the server: seeds 5 and 6 both print seed 7's puzzle."""
    result = run_client(*address_args(server_address), "--generate", "2", "--level", "hard", "--seed", "5")
    assert (result.returncode, result.stdout) == (0, HARD_SEED_7 * 2)


def test_rules_against_the_real_server(server_address):
    result = run_client(*address_args(server_address), "--generate", "2", "--rules", "x", "--seed", "1")
    assert (result.returncode, result.stdout) == (0, X_SEEDS_1_2)


def test_level_rules_and_grid_format_against_the_real_server(server_address):
    args = ("--generate", "1", "--rules", "x", "--level", "easy", "--seed", "3", "--format", "grid")
    result = run_client(*address_args(server_address), *args)
    assert (result.returncode, result.stdout) == (0, X_EASY_GRID)


def test_unknown_rules_get_the_servers_error_and_exit_1(server_address):
    result = run_client(*address_args(server_address), "--generate", "1", "--rules", "bogus")
    assert result.returncode == 1
    assert result.stdout == (
        b"ERROR command GENERATE: rules: unknown rule 'bogus' (rules are classic, x, windoku, antiknight, antiking,"
        b" nonconsecutive, jigsaw, killer, disjoint, oddeven, thermo, kropki, xv, whispers, palindrome, renban, arrow,"
        b" littlekiller, sandwich)\n"
    )


#: GENERATE rules=thermo seed=1: the givens then the thermometers on one line (issue 29).
THERMO_SEED_1 = (
    b"# generated size=9 givens=14 symmetry=none seed=1 minimal=yes rules=thermo\n"
    b".7.3...1................2.3....6.3.........62....35....2..........2.......7...... "
    b"thermo=r8c5-r8c6-r7c7-r6c8;r8c9-r7c8-r8c7;r7c3-r6c2-r7c1;r4c7-r5c8-r4c8;r8c3-r7c2-r6c3-r5c4;"
    b"r5c2-r4c1-r3c2-r2c3;r1c4-r2c4-r3c5-r3c6;r2c8-r2c9-r1c9\n"
)


def test_marks_rules_against_the_real_server(server_address):
    """A rule that takes marks: the client prints the server's line of givens and marks as it came."""
    result = run_client(*address_args(server_address), "--generate", "1", "--rules", "thermo", "--seed", "1")
    assert (result.returncode, result.stdout) == (0, THERMO_SEED_1)


@pytest.mark.parametrize("rules", ["jigsaw", "killer+kropki"])
def test_jigsaw_lines_and_fpuzzles_lines_are_answers(server_address, rules):
    """GENERATE under jigsaw answers a jigsaw line, under killer+kropki an f-puzzles JSON line: each is a
    puzzle answered (break-session finding: "answered 0 of 2 requests", exit 2)."""
    result = run_client(*address_args(server_address), "--generate", "2", "--rules", rules, "--seed", "11")
    lines = result.stdout.decode().splitlines()
    assert (result.returncode, result.stderr, len(lines)) == (0, b"", 4)
    assert lines[0].startswith("# generated size=9 ") and lines[0].endswith(f"rules={rules}")
    assert (len(lines[1]) == 162) if rules == "jigsaw" else lines[1].startswith('{"size":9,')
