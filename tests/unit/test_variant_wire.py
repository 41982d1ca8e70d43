"""Issue 19 over the wire: ``rules=``, ``RULES``, each variant layout and each variant error, in exact bytes.

The sans-I/O session is fed the request's bytes whole, one byte at a time,
and with a request after it; every event is answered by the service and
rendered by the wire, as the server does. Then one socket test per layout.
"""

from __future__ import annotations

import pytest
import trio

from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Solve
from sudoku_server.sudoku.variants import CLASSIC
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import RequestReceived, Session
from tests.support.servers import exchange, running_server
from tests.support.sessions import replies
from tests.support.variant_examples import (
    ALL_RULES,
    ANTIKING,
    ANTIKING_ANSWER,
    ANTIKNIGHT,
    ANTIKNIGHT_ANSWER,
    CAGE_BLOCK,
    CODINGAME,
    INKALA,
    INKALA_ANSWER,
    INKALA_PENCILMARKS,
    JIGSAW_ANSWER,
    JIGSAW_GIVENS,
    JIGSAW_GRID,
    JIGSAW_REGIONS,
    KILLER_ANSWER,
    NONCONSECUTIVE,
    NONCONSECUTIVE_ANSWER,
    SUDOCUE,
    WINDOKU,
    WINDOKU_ANSWER,
    X_ANSWER,
    X,
    rows,
)

#: (request, reply): one per rule and layout.
CASES = {
    "x": (f"SOLVE rules=x {X}\n", f"{X_ANSWER}\n"),
    "windoku": (f"RULES windoku\n{WINDOKU}\n", f"RULES windoku\n{WINDOKU_ANSWER}\n"),
    "antiknight": (f"SOLVE rules=antiknight\n{ANTIKNIGHT}\n", f"{ANTIKNIGHT_ANSWER}\n"),
    "antiking": (f"COUNT rules=antiking {ANTIKING}\n", "COUNT 1 unique\n"),
    "antiking-solve": (f"SOLVE rules=antiking {ANTIKING}\n", f"{ANTIKING_ANSWER}\n"),
    "nonconsecutive": (f"SOLVE rules=nonconsecutive {NONCONSECUTIVE}\n", f"{NONCONSECUTIVE_ANSWER}\n"),
    "x-grid": ("SOLVE rules=X\n" + rows(X), rows(X_ANSWER) + "\n"),
    "jigsaw-line": (f"{JIGSAW_GIVENS}{JIGSAW_REGIONS}\n", f"{JIGSAW_ANSWER}\n"),
    "jigsaw-grid": (f"RULES jigsaw\n{JIGSAW_GRID}\n", "RULES jigsaw\n" + rows(JIGSAW_ANSWER) + "\n"),
    "jigsaw-4x4": (".......2...3.321aabbaacbcbddccdd\n", "1234341221434321\n"),  # 32 characters
    "jigsaw-grid-verb": (f"SOLVE rules=jigsaw\n{JIGSAW_GRID}\n", rows(JIGSAW_ANSWER) + "\n"),
    "sudocue": (f"{SUDOCUE}\n", f"{KILLER_ANSWER}\n"),
    "sudocue-count": (f"COUNT {SUDOCUE}\n", "COUNT 1 unique\n"),
    "cage-block": (f"RULES killer\n{CAGE_BLOCK}", "RULES killer\n" + rows(KILLER_ANSWER) + "\n"),
    "cage-block-verb": (f"COUNT rules=killer\n{CAGE_BLOCK}", "COUNT 1 unique\n"),
    "codingame-crlf": (CODINGAME.replace("\n", "\r\n") + "\r\n", rows(KILLER_ANSWER).replace("\n", "\r\n") + "\r\n"),
    "codingame": (f"{CODINGAME}\n", rows(KILLER_ANSWER) + "\n"),
    # break-session finding F7: the second sums line ("c=10 d=10", two 4-character words) started a new cage block
    "cage-sums-on-two-lines": (
        ".... aabb\n.... aabb\n.... ccdd\n.... ccdd\na=10 b=10\nc=10 d=10\n",
        "1234\n3412\n2143\n4321\n\n",
    ),
    "pencilmark": (f"{INKALA_PENCILMARKS}\n", f"{INKALA_ANSWER}\n"),
    "pencilmark-crlf": (f"COUNT {INKALA_PENCILMARKS}\r\n", "COUNT 1 unique\r\n"),
}


@pytest.mark.parametrize("mode", ["whole", "bytewise", "trailing"])
@pytest.mark.parametrize("name", list(CASES))
def test_each_rule_and_layout_answers_in_the_givens_layout(name, mode):
    request, reply = (part.encode() for part in CASES[name])
    if mode == "trailing":
        after = f"PING\nSOLVE rules=classic {INKALA}\n".encode()  # RULES stay in force: rules=classic for this one
        assert replies(request + after) == reply + b"PONG\n" + INKALA_ANSWER.encode() + b"\n"
    else:
        assert replies(request, bytewise=mode == "bytewise") == reply


#: (request, reply): each variant error, one line naming its place.
ERRORS = {
    "unknown rule": (
        f"SOLVE rules=x+foo {X}\n",
        f"ERROR command SOLVE: rules: unknown rule 'foo' (rules are {ALL_RULES})\n",
    ),
    "RULES unknown": ("RULES knights\n", f"ERROR command RULES: unknown rule 'knights' (rules are {ALL_RULES})\n"),
    "RULES dangling plus": (  # break-session finding: "unknown rule ''"
        "RULES x++antiknight\nSOLVE rules=x+ 1\n",
        f"ERROR command RULES: 'x++antiknight' has a + with no rule beside it (rules are {ALL_RULES})\n"
        f"ERROR command SOLVE: rules: 'x+' has a + with no rule beside it (rules are {ALL_RULES})\n",
    ),
    "RULES twice": ("RULES x+X\n", "ERROR command RULES: x is named twice\n"),
    "does not fit": (
        "RULES windoku\n" + "." * 256 + "\n",
        "RULES windoku\nERROR command line 2: rules: windoku needs a 9x9 grid, not 16x16\n",
    ),
    "does not fit generate": (
        "GENERATE size=16 rules=windoku\n",
        "ERROR command GENERATE: rules: windoku needs a 9x9 grid, not 16x16\n",
    ),
    "no regions": (
        f"SOLVE rules=jigsaw {X}\n",
        "ERROR format line 1: a jigsaw puzzle needs its regions: a line of givens then region symbols,"
        " or a grid of region symbols after the grid\n",
    ),
    "no cages": (
        f"RULES killer\n{X}\n",
        "RULES killer\nERROR format line 2: a killer puzzle needs its cages: a SudoCue line or a cage block\n",
    ),
    "no arrows": (  # "a arrow" before
        f"SOLVE rules=arrow {X}\n",
        "ERROR format line 1: an arrow puzzle needs its marks: an arrow puzzle needs its arrows\n",
    ),
    "no arrows beside thermometers": (  # break-session finding: solved with no arrows, another rule's marks there
        f"SOLVE rules=arrow {X} thermo=r1c1-r1c2\n",
        "ERROR format line 1: an arrow puzzle needs its marks: an arrow puzzle needs its arrows\n",
    ),
    "no little killers beside thermometers": (
        f"RULES littlekiller\n{X} thermo=r1c1-r1c2\n",
        "RULES littlekiller\nERROR format line 2: a littlekiller puzzle needs its marks:"
        " a little killer puzzle needs its diagonals\n",
    ),
    "region size": (f"{JIGSAW_GIVENS}b{JIGSAW_REGIONS[1:]}\n", "ERROR format region b has 10 cells, not 9\n"),
    "cage sum": (
        CAGE_BLOCK.replace("a=13", "a=18"),
        "ERROR invalid cage a has 2 cells and sum 18: no 2 distinct digits of 1-9 make it\n",
    ),
    "sudocue sum": (
        SUDOCUE.replace("3329:3329", "4609:4609", 1) + "\n",
        "ERROR invalid cage 1 has 2 cells and sum 18: no 2 distinct digits of 1-9 make it\n",
    ),
    "knight": (
        "SOLVE rules=antiknight .." + "3" + "." * 10 + "3" + "." * 67 + "\n",
        "ERROR invalid 3 at r1c3 and r2c5 are a knight's move apart\n",
    ),
    "diagonal": (
        "SOLVE rules=x 3" + "." * 39 + "3" + "." * 40 + "\n",
        "ERROR invalid duplicate 3 in diagonal 1 at r1c1 and r5c5\n",
    ),
    "no candidate": ("." * 9 + INKALA_PENCILMARKS[9:] + "\n", "ERROR invalid r1c1 has no candidate\n"),
    "canon": (f"RULES x\nCANON {X}\n", "RULES x\nERROR command CANON: classic rules only, not x\n"),
}
ERRORS["cage sums ended by a line without ="] = (  # the last sums line is named; the next line is read as itself
    ".... aabb\n.... aabb\n.... ccdd\n.... ccdd\na=10 b=10\nPING\n",
    "ERROR format line 5: cage c has no sum\nPONG\n",
)
ERRORS["cage summed on two lines"] = (
    ".... aabb\n.... aabb\n.... ccdd\n.... ccdd\na=10 b=10\nc=10 a=10\n",
    "ERROR format line 6: cage a has two sums\n",
)
ERRORS["cage block without the rule"] = (
    CAGE_BLOCK.splitlines()[0] + "\n",
    'ERROR command unknown verb "AABBCDDEE"; try HELP\n',
)


@pytest.mark.parametrize("name", list(ERRORS))
def test_each_variant_error_is_one_line_naming_its_place(name):
    request, reply = ERRORS[name]
    data = request.encode() if name != "cage sum" else b"RULES killer\n" + request.encode()
    expected = reply.encode() if name != "cage sum" else b"RULES killer\n" + reply.encode()
    assert replies(data) == expected
    assert replies(data + b"PING\n") == expected + b"PONG\n"  # the connection goes on


def test_cage_sums_cut_by_the_end_of_input_are_incomplete_and_waited_for():
    """The sums may take several lines: at the end of input before every cage has its sum, the block is cut short
    (``incomplete``, as before its first sums line), and the session waits for the rest as for any part of a puzzle."""
    data = b".... aabb\n.... aabb\n.... ccdd\n.... ccdd\na=10 b=10\n"
    assert replies(data) == (
        b"ERROR incomplete input ended before the sums of cages c, d of the cage block that starts at line 1"
        b" (its sums so far end at line 5)\n"
    )
    session = Session()
    events = session.receive_data(b"PING\n" + data)
    assert [render(answer(event.request), event.ending, event.puzzle) for event in events] == [b"PONG\n"]
    assert session.incomplete  # the timers wait for the rest
    (event,) = session.receive_data(b"c=10 d=10\n")
    assert isinstance(event, RequestReceived) and not session.incomplete
    assert render(answer(event.request), event.ending, event.puzzle) == b"1234\n3412\n2143\n4321\n\n"


def test_rules_sets_the_default_until_rules_classic_and_rules_alone_shows_it():
    data = f"RULES x+antiknight\nRULES\n{X}\nSOLVE rules=classic {INKALA}\nRULES classic\nRULES\n{INKALA}\n"
    assert (
        replies(data.encode())
        == (
            f"RULES x+antiknight\nRULES x+antiknight\nERROR unsolvable no place for 2 in column 9\n{INKALA_ANSWER}\n"
            f"RULES classic\nRULES classic\n{INKALA_ANSWER}\n"
        ).encode()
    )


def test_a_verbs_rules_replace_the_default_for_its_puzzle_only_and_layouts_add_theirs():
    data = f"RULES antiknight\nSOLVE rules=x {X}\n{ANTIKNIGHT}\n{SUDOCUE.replace('3x3::k:', '3x3:d:k:', 1)}\n"
    assert (
        replies(data.encode())
        == (f"RULES antiknight\n{X_ANSWER}\n{ANTIKNIGHT_ANSWER}\nERROR unsolvable no solution exists\n").encode()
    )


def test_generate_takes_rules_and_regions_into_its_request():
    session = Session()
    events = session.receive_data(
        b"RULES x\nGENERATE seed=1\nGENERATE rules=windoku regions=" + JIGSAW_REGIONS.encode() + b"\n"
    )
    variants = [event.request.variant for event in events[1:]]
    assert variants[0].rules == ("x",)
    assert variants[1].rules == ("windoku", "jigsaw") and variants[1].region_symbols == tuple("abcdefhgi")
    assert (
        replies(b"GENERATE regions=abc\n")
        == b"ERROR command GENERATE: regions must be 81 region symbols for size=9, not 3\n"
    )
    assert replies(b"GENERATE rules=jigsaw size=16 seed=1\n") == (  # it timed out after 20 s (break-session finding)
        b"ERROR command GENERATE: random regions are drawn up to 9x9, not 16x16; give regions= (a symbol per cell)"
        b" for more\n"
    )
    for symbol in "#,:":  # the jigsaw line it would make does not read back (break-session finding)
        regions = JIGSAW_REGIONS.replace(JIGSAW_REGIONS[0], symbol)
        assert replies(f"GENERATE rules=jigsaw seed=1 regions={regions}\n".encode()) == (
            f"ERROR command GENERATE: regions: '{symbol}' at 1 is not a region symbol (region symbols are any"
            " characters but blanks, | # , and :)\n".encode()
        )


def test_plain_lines_keep_the_classic_fast_path_unless_rules_are_set():
    session = Session()
    assert session.buffer_plain(f"{INKALA}\n".encode())
    lines, _ = session.take_plain(10)
    assert len(lines) == 1  # classic: taken by the inline path
    session.receive_data(b"RULES x\n")
    assert session.buffer_plain(f"{X}\n".encode())
    assert session.take_plain(10) == ([], 3)  # RULES in force: the plain line is no classic puzzle
    (event,) = session.receive_more()
    assert isinstance(event, RequestReceived) and event.request.variant.rules == ("x",)
    (event,) = session.receive_data(f"RULES classic\n{INKALA}\n".encode())[1:]
    assert type(event.request) is Solve and event.request.variant is CLASSIC


def test_help_rules():
    assert replies(b"HELP RULES\n") == (
        b"HELP RULES [R]\n"
        b"  the rules of this connection's puzzles from now on, a +-joined list of classic, x, windoku, antiknight,"
        b" antiking, nonconsecutive, jigsaw, killer, disjoint, oddeven, thermo, kropki, xv, whispers, palindrome,"
        b" renban, arrow, littlekiller, sandwich (RULES classic resets; RULES alone shows them)\n"
        b"  example: RULES x+antiknight -> RULES x+antiknight\n"
        b"END\n"
    )


# -- over a socket: one connection per layout --------------------------------------------------


@pytest.mark.parametrize(
    "name", ["x", "jigsaw-line", "jigsaw-grid", "sudocue", "cage-block", "codingame", "pencilmark"]
)
async def test_each_layout_over_a_socket(name):
    request, reply = CASES[name]
    with trio.fail_after(20):
        async with running_server() as server:
            assert await exchange(server, request.encode() + f"SOLVE rules=classic {INKALA}\n".encode()) == (
                reply.encode() + f"{INKALA_ANSWER}\n".encode()
            )


async def test_rules_x_keeps_plain_lines_out_of_the_classic_bulk_path_over_a_socket():
    data = f"RULES x\n{X}\n{X}\nRULES classic\n{INKALA}\n{INKALA}\n".encode()
    with trio.fail_after(20):
        async with running_server() as server:
            assert await exchange(server, data) == (
                f"RULES x\n{X_ANSWER}\n{X_ANSWER}\nRULES classic\n{INKALA_ANSWER}\n{INKALA_ANSWER}\n".encode()
            )


def test_the_layouts_documents_examples_are_the_servers_answers():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "LAYOUTS.md").read_text(encoding="utf-8")
    section = text[text.index("## Variant layouts") : text.index("## Sizes")]
    examples = re.findall(r"\| `(SOLVE rules=\S+ \S+)` \| `(\S+)` \|", section)
    assert {request.split()[1] for request, _ in examples} == {
        "rules=x",
        "rules=windoku",
        "rules=antiknight",
        "rules=antiking",
        "rules=nonconsecutive",
    }
    for request, reply in examples:
        assert replies(f"{request}\n".encode()) == f"{reply}\n".encode()
    for block in re.findall(r"```\n([^`]*?)\n```\n→ `(\d+)`", section):  # the one-line layouts
        assert replies(f"{block[0]}\n".encode()) == f"{block[1]}\n".encode()
    assert len(re.findall(r"```\n([^`]*?)\n```\n→ `(\d+)`", section)) == 3  # jigsaw, SudoCue, pencilmarks
    (sums,) = re.findall(r"```\n(\.\.\.\. aabb\n[^`]*?)\n```\n→ the 4 rows `(\d+)` .. `(\d+)`", section)
    answer = replies(f"{sums[0]}\n".encode()).decode()  # the cage sums on two lines
    assert answer == "1234\n3412\n2143\n4321\n\n" and answer.split()[0] == sums[1] and answer.split()[-1] == sums[2]
