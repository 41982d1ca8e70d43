"""The fast path of a marks line (issue 29) answers what the usual path answers, and leaves it every other line.

``SOLVE <81 givens> thermo=r1c1-r1c2-r1c3 ...`` is taken beside the plain lines
(``Session.take_plain(marks=True)``) and answered text to text
(``text.marksline.solve_marks``), each rule reading its own marks straight to
the native arrays (``Rule.native``). Held here: every rule's fast reading makes
the arrays its ``syntax`` then ``constraints`` then ``solver._constraint_arrays``
make, on every stored puzzle; the answers are the usual path's bytes; each kind
of error still gets the usual path's words; the session's bytes, whole, one
byte at a time and with trailing data, give the same replies either way.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.rules import RULES
from sudoku_server.sudoku.rules._native_marks import SHAPES, NativeParts, reader_words
from sudoku_server.sudoku.solver import _constraint_arrays
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line
from sudoku_server.text.marksline import MARKS_BUFFERED, _reader, solve_marks
from sudoku_server.wire.session import Session
from tests.support.marks_examples import EXAMPLES, SOLUTION
from tests.support.sessions import fast_replies, replies

STORED = Path(__file__).resolve().parents[2] / "puzzles" / "variants"
#: The rules that take marks; those with a fast reading.
MARKS_RULES = [word for word, rule in RULES.items() if rule.data == "marks"]
FAST_RULES = [word for word in MARKS_RULES if RULES[word].native is not None]
NATIVE = pytest.mark.skipif(solver.CORE != "native", reason="the fast path answers with the native core only")


def stored(word: str) -> list[tuple[str, str]]:
    """``bench_<word>.txt`` as (``<givens> <word>=<marks>``, solution) pairs (benchmarks/bench_rules.py's reading)."""
    out = []
    for line in (STORED / f"bench_{word}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            _rule, givens, solution, *fields = line.split()
            out.append((f"{givens.replace('0', '.')} {' '.join(fields)}", solution))
    return out


def example(word: str) -> str:
    givens, marks = EXAMPLES[word]
    return f"{givens} {word}={marks}"


def test_every_rule_that_takes_marks_has_a_fast_reading() -> None:
    assert (
        FAST_RULES
        == MARKS_RULES
        == [
            "oddeven",
            "thermo",
            "kropki",
            "xv",
            "whispers",
            "palindrome",
            "renban",
            "arrow",
            "littlekiller",
            "sandwich",
        ]
    )


@pytest.mark.parametrize("word", FAST_RULES)
def test_a_rules_fast_reading_makes_the_arrays_of_its_syntax_and_constraints_on_every_stored_puzzle(word: str) -> None:
    lines = [line for line, _ in stored(word)] + [example(word)]
    assert len(lines) == 501
    for line in lines:
        givens, field = line.split(" ")
        parts = NativeParts()
        assert RULES[word].native(field.partition("=")[2], 9, parts), line  # type: ignore[misc]
        puzzle = marks_line(line, 1, "\n")
        assert parts.arrays() == _constraint_arrays(variant_geometry(puzzle.variant)), line  # type: ignore[union-attr]


def test_two_rules_on_one_line_make_the_arrays_of_the_usual_path_in_the_rules_order() -> None:
    # kropki's tables first (RULES order), then thermo's, whatever the fields' order
    line = f"{'.' * 81} thermo=r1c1-r1c2-r1c3 kropki=r5c5-r5c6:b;r2c1-r2c2:w oddeven=r9c9:odd"
    parts = NativeParts()
    for word in ("oddeven", "thermo", "kropki"):
        field = next(f for f in line.split(" ") if f.startswith(word + "="))
        assert RULES[word].native(field.partition("=")[2], 9, parts)  # type: ignore[misc]
    puzzle = marks_line(line, 1, "\n")
    assert parts.arrays() == _constraint_arrays(variant_geometry(puzzle.variant))  # type: ignore[union-attr]


@NATIVE
@pytest.mark.parametrize("word", MARKS_RULES)
def test_every_stored_puzzle_answers_the_usual_paths_bytes(word: str) -> None:
    puzzles = stored(word)[:200]
    data = "".join(f"SOLVE {line}\n" for line, _ in puzzles).encode()
    expected = "".join(solution + "\n" for _, solution in puzzles).encode()
    assert replies(data) == expected
    answers = [solve_marks(f"SOLVE {line}\n".encode()) for line, _ in puzzles]
    assert answers.count(None) == 0
    assert b"".join(answers) == expected  # type: ignore[arg-type]


@NATIVE
def test_the_answer_keeps_the_lines_terminator_and_takes_a_bare_line() -> None:
    line = example("thermo")
    assert solve_marks(f"SOLVE {line}\r\n".encode()) == f"{SOLUTION}\r\n".encode()
    assert solve_marks(f"{line}\n".encode()) == f"{SOLUTION}\n".encode()
    assert solve_marks(f"{line.replace('thermo=', 'THERMO=')}\n".encode()) == f"{SOLUTION}\n".encode()
    upper = f"SOLVE {example('kropki').replace('negative', 'NEGATIVE')}\n".encode()
    assert solve_marks(upper) == f"{SOLUTION}\n".encode() == replies(upper)


THERMO_GIVENS = EXAMPLES["thermo"][0]
#: Lines the fast path leaves to the usual path, and what the usual path answers (exact bytes; None: an answer
#: or an error not pinned here).
LEFT = [
    # marks in a form the fast reading does not take, which the usual path reads and answers
    (
        f"SOLVE {THERMO_GIVENS} thermo={EXAMPLES['thermo'][1].replace(';', ':7;', 1)}",
        'ERROR format line 1: thermo= mark 1 takes no :value, not ":7"\n',
    ),
    (f"SOLVE {example('kropki').replace('r1c2-r1c3:w', 'R1C2-r1c3:W')}", f"{SOLUTION}\n"),
    (f"SOLVE {example('kropki').replace('r1c2-r1c3:w', 'r1c2-r1c3:w1')}", f"{SOLUTION}\n"),
    # errors, each in the usual path's words
    (
        f"SOLVE {THERMO_GIVENS} thermo=r1c1-r1c3",
        "ERROR format line 1: thermo= mark 1 steps from r1c1 to r1c3, cells that do not touch\n",
    ),
    (f"SOLVE {THERMO_GIVENS} thermo=r1c1-r1c1", "ERROR format line 1: thermo= mark 1: r1c1 appears twice\n"),
    (
        f"SOLVE {THERMO_GIVENS} thermo=r0c1-r1c1",
        'ERROR format line 1: thermo= mark 1: "r0c1" is not a cell of the grid\n',
    ),
    (f"SOLVE {THERMO_GIVENS} thermo=r1c1", "ERROR format line 1: thermo= mark 1 has fewer than 2 cells\n"),
    (f"SOLVE {THERMO_GIVENS} thermo=r1c1-r1c2;", "ERROR format line 1: thermo= mark 2 is empty\n"),
    (
        f"SOLVE {'.' * 81} kropki=r1c1-r1c3:w",
        "ERROR format line 1: kropki= mark 1: r1c1 and r1c3 do not touch\n",
    ),
    (
        f"SOLVE {'.' * 81} kropki=r1c1-r1c2:q",
        "ERROR format line 1: kropki= mark 1 is not two cells then :w or :b, nor negative\n",
    ),
    (
        f"SOLVE {'.' * 81} kropki=r1c1-r1c2:w0",
        "ERROR format line 1: kropki= mark 1: w0 is no dot (a white dot's difference is 1 or more)\n",
    ),
    (
        f"SOLVE {'.' * 81} xv=r1c1-r1c2:z",
        "ERROR format line 1: xv= mark 1 is not two cells then :x or :v, nor negative\n",
    ),
    (f"SOLVE {'.' * 81} oddeven=r1c1:od", "ERROR format line 1: oddeven= mark 1 is not cells then :odd or :even\n"),
    (
        f"SOLVE {'.' * 81} renban=r1c1-r1c2-r1c3-r1c4-r1c5-r1c6-r1c7-r1c8-r1c9-r2c9",
        "ERROR format line 1: renban= mark 1 has 10 cells, more than the 9 digits\n",
    ),
    (f"SOLVE {'.' * 81} foo=r1c1", None),
    (f"SOLVE {THERMO_GIVENS} thermo=r1c1-r1c2 thermo=r5c5-r5c6", None),
    (f"SOLVE {'.' * 81} rules=x thermo=r1c1-r1c2", None),
    (f"SOLVE {'.' * 81} format=link thermo=r1c1-r1c2", None),
    (f"SOLVE {'.' * 81} arrow=r1c1", "ERROR format line 1: arrow= mark 1 has fewer than 2 cells\n"),
    (
        f"SOLVE {'.' * 81} arrow=r1c1-r1c2:2",
        "ERROR format line 1: arrow= mark 1 has a bulb of 2 cells (1 to 1 on a line of 2)\n",
    ),
    (
        f"SOLVE {'.' * 81} littlekiller=r1c1-r2c3:5",
        "ERROR format line 1: littlekiller= mark 1 is not a diagonal (each cell one diagonal step after the one"
        " before, in one direction)\n",
    ),
    (f"SOLVE {'.' * 81} sandwich=r1:1", "ERROR invalid sandwich r1: no digits between 1 and 9 sum to 1\n"),
    (f"SOLVE {'.' * 81} sandwich=r1:3;r1:4", "ERROR format line 1: sandwich= mark 2: r1 appears twice\n"),
    # givens that break a rule, givens that share a unit, no solution
    (f"SOLVE 53{'.' * 79} thermo=r1c1-r1c2", "ERROR invalid thermometer r1c1-r1c2: 5 at r1c1 is not below 3 at r1c2\n"),
    (f"SOLVE 11{'.' * 79} thermo=r1c1-r1c2", None),
    (f"SOLVE 9{'.' * 80} thermo=r1c1-r1c2", None),
    (f"SOLVE {'.' * 81} oddeven=r1c1:odd;r1c1:even", None),
]


@NATIVE
@pytest.mark.parametrize(("line", "expected"), LEFT)
def test_a_line_the_fast_path_leaves_gets_the_usual_paths_answer(line: str, expected: str | None) -> None:
    data = f"{line}\n".encode()
    assert solve_marks(data) is None
    usual = replies(data)
    if expected is not None:
        assert usual == expected.encode()
    assert fast_replies(data) == usual


def test_the_session_takes_a_marks_line_only_when_asked_between_requests_and_within_the_line_limit() -> None:
    line = f"SOLVE {example('thermo')}\n".encode()
    assert MARKS_BUFFERED.fullmatch(line)
    session = Session()
    assert session.buffer_plain(line + line)
    assert session.take_plain(10) == ([], 1)  # plain lines only
    assert session.take_plain(10, marks=True) == ([line, line], 1)
    assert session.lineno == 2 and not session.backlog
    short = Session(max_line_bytes=len(line) - 2)  # one byte short of the line
    assert short.buffer_plain(line)
    assert short.take_plain(10, marks=True) == ([], 1)
    exact = Session(max_line_bytes=len(line) - 1)
    assert exact.buffer_plain(line)
    assert exact.take_plain(10, marks=True) == ([line], 1)
    ruled = Session()
    assert ruled.buffer_plain(b"RULES x\n")
    assert ruled.take_plain(10, marks=True) == ([], 1)  # a verb first: read the usual way
    ruled.receive_more()
    assert ruled.buffer_plain(line)
    assert ruled.take_plain(10, marks=True) == ([], 2)  # RULES x in force: its rules join the line's
    partial = Session()
    assert partial.buffer_plain(line[:-1])
    assert partial.take_plain(10, marks=True) == ([], 1)  # no terminator yet


def test_a_taken_marks_lines_events_are_the_usual_paths() -> None:
    line = f"SOLVE {example('kropki')}\r\n".encode()
    session = Session()
    assert session.buffer_plain(line + b"PING\r\n")
    lines, first = session.take_plain(10, marks=True)
    assert lines == [line] and first == 1
    (event,) = session.taken_events(line, 1)
    (usual,) = Session().receive_data(line)
    assert (event.request, event.puzzle, event.line, event.ending) == (
        usual.request,  # type: ignore[union-attr]
        usual.puzzle,  # type: ignore[union-attr]
        1,
        "\r\n",
    )
    (pong,) = session.receive_more()
    assert pong.line == 2  # type: ignore[union-attr]


#: A stream mixing plain lines, marks lines of every rule, errors, verbs and rules in force.
MIXED = (
    "".join(f"SOLVE {example(word)}\n" for word in EXAMPLES)
    + f"{THERMO_GIVENS.replace('.', '0')}\n"
    + f"{example('oddeven')}\r\n"
    + f"SOLVE {THERMO_GIVENS} thermo=r1c1-r1c3\n"
    + "PING\n"
    + f"SOLVE {example('xv')}\n"
    + "RULES x\n"
    + f"SOLVE {'.' * 81} thermo=r1c1-r1c2\n"
    + "RULES classic\n"
    + f"solve {example('palindrome')}\n"
    + f"SOLVE any {example('renban')}\n"
    + f"SOLVE 53{'.' * 79} thermo=r1c1-r1c2\n"
    + f"SOLVE {example('whispers')}"  # trailing data: no terminator, read at the end of input
).encode()


@NATIVE
@pytest.mark.parametrize("chunk", [0, 1, 7, 200])
def test_the_session_answers_the_same_bytes_by_either_path(chunk: int) -> None:
    expected = replies(MIXED)
    assert expected.decode().split("\n") == [  # (the CRLF line answers with CRLF)
        *[SOLUTION] * len(EXAMPLES),
        "213456798457289136869317425586194273392675841741823659624938517135762984978541362",  # no marks: classic
        SOLUTION + "\r",
        "ERROR format line 13: thermo= mark 1 steps from r1c1 to r1c3, cells that do not touch",
        "PONG",
        SOLUTION,
        "RULES x",
        "123456789456789123789123456214365897368972514597814632941638275832547961675291348",
        "RULES classic",
        SOLUTION,
        SOLUTION,
        "ERROR invalid thermometer r1c1-r1c2: 5 at r1c1 is not below 3 at r1c2",
        SOLUTION,
        "",
    ]
    assert fast_replies(MIXED, chunk) == expected
    assert replies(MIXED, bytewise=True) == expected


def mutated(rng: random.Random, line: str) -> str:
    """A stored line with one or two of its marks changed the ways people mistype them (another cell, another
    ``:`` part, upper case, a mark dropped or repeated) or one given changed."""
    head, marks = line.split(" ", 1)
    word, _, text = marks.partition("=")
    items = text.split(";")
    for _ in range(rng.randint(1, 2)):
        op, k = rng.random(), rng.randrange(len(items))
        if op < 0.25:
            items[k] = re.sub(r"r(\d)c", lambda m: f"r{rng.randint(1, 9)}c" if rng.random() < 0.3 else m[0], items[k])
        elif op < 0.4:
            tail = rng.choice(["w", "b", "W", "x", "v", "odd", "even", "ODD", "2", "5", "0", "", "w2", "negative"])
            items[k] = items[k].split(":")[0] + (f":{tail}" if tail else "")
        elif op < 0.5:
            items[k] = items[k].upper()
        elif op < 0.65 and len(items) > 1:
            del items[k]
        elif op < 0.8:
            items.insert(k, rng.choice(items))
        else:
            cell = rng.randrange(81)
            head = head[:cell] + rng.choice("0123456789._") + head[cell + 1 :]
    return f"{head} {word}={';'.join(items)}"


@NATIVE
def test_mistyped_lines_answer_the_usual_paths_bytes_or_go_the_usual_way() -> None:
    rng = random.Random(29)
    answered = 0
    for k in range(240):
        word = MARKS_RULES[k % len(MARKS_RULES)]
        line, _solution = rng.choice(stored(word)[:40])
        data = f"SOLVE {mutated(rng, line)}\n".encode()
        if not MARKS_BUFFERED.fullmatch(data):
            continue
        got = solve_marks(data)
        if got is not None:
            answered += 1
            assert got == replies(data), data
    assert answered > 40  # enough of them still solved by the fast path to hold it


# -- the native reader of a marks line (solver/_native_marksline.h) ------------------------------------------

#: The rules the native reader takes (their marks are cells: lines, dots, cells with a tail; ``Rule.native_shape``).
SHAPED = [word for word in MARKS_RULES if RULES[word].native_shape is not None]


_VALUES = bytes.maketrans(b"0123456789._", bytes(range(10)) + b"\x00\x00")


def python_reading(line: bytes) -> tuple[bytes, dict[str, bytes]] | None:
    """A marks line as the rules' own readings make it (``solve_marks``'s Python part): the givens, a byte a
    cell, and the native arrays; None for a line they leave to the usual path."""
    fields = line.decode("ascii").rstrip("\r\n").split(" ")
    if fields[0] == "SOLVE":
        del fields[0]
    order = {word: k for k, word in enumerate(RULES)}
    chosen = sorted((f.partition("=") for f in fields[1:]), key=lambda f: order.get(f[0].lower(), -1))
    if len({word.lower() for word, _, _ in chosen}) < len(chosen):
        return None
    parts = NativeParts()
    for word, _, marks in chosen:
        rule = RULES.get(word.lower())
        if rule is None or rule.native is None or not rule.native(marks, 9, parts):
            return None
    return fields[0].encode().translate(_VALUES), parts.arrays()  # type: ignore[return-value]


def native_reading(line: bytes) -> tuple[bytes, dict[str, bytes]] | bool:
    """What the native reader reads ``line`` to (``_native.read_marks``): the givens and the arrays, or False."""
    return solver._native.read_marks(line, _reader())  # type: ignore[no-any-return,union-attr]


def test_the_rules_of_cells_declare_their_shape_for_the_native_reader() -> None:
    assert SHAPED == ["oddeven", "thermo", "kropki", "xv", "whispers", "palindrome", "renban", "arrow", "littlekiller"]
    words = reader_words(RULES.items())
    assert [w[:3] for w in words] == [
        (word.encode(), list(RULES).index(word), SHAPES[RULES[word].native_shape.kind])  # type: ignore[union-attr]
        for word in SHAPED
    ]
    lines = (SHAPES["steps"], SHAPES["ends"], SHAPES["pairs"])
    assert all(len(w[3]) == (324 if w[2] in lines else 0) for w in words)
    assert all(len(w[6]) == (144 if w[2] == SHAPES["dots"] else 0) for w in words)


@NATIVE
@pytest.mark.parametrize("word", SHAPED)
def test_the_native_reader_reads_every_stored_puzzle_to_the_rules_own_arrays(word: str) -> None:
    for line, _ in stored(word) + [(example(word), SOLUTION)]:
        data = f"SOLVE {line}\n".encode()
        assert native_reading(data) == python_reading(data) != None, line  # noqa: E711 (both, not None)


@NATIVE
def test_the_native_reader_reads_several_rules_in_the_rules_order_whatever_the_fields_order() -> None:
    marks = {
        "thermo": "r1c1-r1c2-r1c3;r9c9-r8c8",
        "arrow": "r5c5-r5c6:1;r3c3-r3c4-R4C5-r5c5;r7c1-r8c1-r9c2:2",
        "PALINDROME": "r2c1-r2c2-r2c3-r3c3",
        "renban": "r6c1-r6c2-r7c3;r1c9-r2c9",
        "whispers": "r4c4-r4c5",
    }
    for fields in (list(marks.items()), list(reversed(marks.items()))):
        data = f"SOLVE {'.' * 81} {' '.join(f'{w}={m}' for w, m in fields)}\r\n".encode()
        got = native_reading(data)
        assert got == python_reading(data)
        assert isinstance(got, tuple)
        puzzle = marks_line(data.decode()[6:-2], 1, "\r\n")
        assert got[1] == _constraint_arrays(variant_geometry(puzzle.variant))  # type: ignore[union-attr]
        # the two numbers of palindrome's and thermo's tables, renban's two (lines of 3 and 2 cells), whispers'
        assert len(got[1]["tables"]) == 5 * 9 * 4


#: Lines the native reader leaves to the rules' own readings (False), and whether those read them (None: not a
#: marks line, which the session does not take).
NOT_TAKEN = [
    (f"{'.' * 81} thermo=r1c1-r1c2 sandwich=r1:3", True),  # a rule without a shape
    (f"{'.' * 81} kropki=R1C2-r1c3:W", False),  # a dot in upper case
    (f"{'.' * 81} kropki=r1c2-r1c3:W", False),
    (f"{'.' * 81} kropki=r1c2-r1c3:w1", False),  # a dot's value
    (f"{'.' * 81} kropki=r1c1-r2c2:w", False),  # not orthogonal neighbours
    (f"{'.' * 81} kropki=r1c9-r2c1:w", False),  # one apart, not neighbours
    (f"{'.' * 81} kropki=r1c1-r1c2:x", False),  # another rule's tail
    (f"{'.' * 81} kropki=r1c1-r1c2:w;negativ", False),
    (f"{'.' * 81} kropki=r1c1-r1c2:w;", False),
    (f"{'.' * 81} xv=r1c1-r1c2:X", False),
    (f"{'.' * 81} xv=r1c1-r1c2:x;negativewhite", False),
    (f"{'.' * 81} oddeven=r1c1:od", False),
    (f"{'.' * 81} oddeven=r1c1", False),
    (f"{'.' * 81} oddeven=r1c1:odd;r1c1:even", False),  # a cell twice
    (f"{'.' * 81} oddeven=r1c1-r1c1:odd", False),
    (f"{'.' * 81} oddeven=r1c1:odd:odd", False),
    (f"{'.' * 81} oddeven=:odd", False),
    (f"{'.' * 81} oddeven=r1c1-:odd", False),
    (f"{'.' * 81} thermo=r1c1-r1c2 thermo=r5c5-r5c6", False),  # a rule named twice
    (f"{'.' * 81} thermo=r1c1-r1c2 THERMO=r5c5-r5c6", False),
    (f"{'.' * 81} thermo=r1c1-r1c2:5", False),  # a ":" part
    (f"{'.' * 81} thermo=r1c1-r1c2;", False),  # an empty mark
    (f"{'.' * 81} thermo=;r1c1-r1c2", False),
    (f"{'.' * 81} thermo=r1c1", False),  # one cell
    (f"{'.' * 81} thermo=r1c1-r1c3", False),  # cells that do not touch
    (f"{'.' * 81} thermo=r1c1-r2c2-r1c1", False),  # a cell twice
    (f"{'.' * 81} thermo=r0c1-r1c1", False),  # no cell
    (f"{'.' * 81} thermo=r1c10-r1c9", False),
    (f"{'.' * 81} renban=r1c1-r1c2-r1c3-r1c4-r1c5-r1c6-r1c7-r1c8-r1c9-r2c9", False),  # longer than 9
    (f"{'.' * 81} arrow=r1c1-r1c2:2", False),  # a bulb as long as the arrow
    (f"{'.' * 81} arrow=r1c1-r1c2-r1c3:5", False),  # a bulb of 5
    (f"{'.' * 81} arrow=r1c1-r1c2-r1c3:0", False),
    (f"{'.' * 81} arrow=r1c1-r1c2-r1c3:", True),  # an empty ":" part: a bulb of 1 (the rule's own reading)
    (f"{'.' * 81} arrow=r1c1-r1c2-r1c3:01", True),
    (f"{'.' * 81} arrow=r1c1-r1c3-r1c2:2", False),  # a pill whose cells do not touch
    (f"{'.' * 81} arrow=r1c1-r1c2-r3c3:2", False),  # a line that does not start beside its bulb
    (f"{'.' * 81} arrow=r1c1-r1c2-r2c3-r4c3", False),  # a line whose cells do not touch
    (f"{'.' * 80} thermo=r1c1-r1c2", None),  # 80 givens: no marks line (MARKS_BUFFERED)
    (f"{'.' * 81}", None),  # no marks
    (f"{'.' * 81} thermo=r1c1-r1c2  whispers=r5c5-r5c6", None),  # two blanks
    (f"{'.' * 81} rules=x thermo=r1c1-r1c2", False),
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9", False),  # no sum
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9:", False),
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9:040", True),  # a leading 0: read in Python
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9:7", False),  # below 8 cells' least
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9:73", False),  # above 8 nines
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9:100", False),
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4:12", False),  # not to an edge
    (f"{'.' * 81} littlekiller=r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9:30", False),  # not from an edge
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c3-r4c4:12", False),  # not one diagonal
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9-r9c9:40", False),
    (f"{'.' * 81} littlekiller=r5c5:5", False),  # one cell, not a corner's
    (f"{'.' * 81} littlekiller=r1c9-r2c8-r3c7-r4c6-r5c5-r6c4-r7c3-r8c2-r9c1:45;", False),  # an empty mark
    (f"{'.' * 81} littlekiller=r1c2-r2c3-r3c4-r4c5-r5c6-r6c7-r7c8-r8c9:4 0", None),  # a blank in the sum
]


@NATIVE
@pytest.mark.parametrize(("line", "read"), NOT_TAKEN)
def test_a_line_the_native_reader_does_not_take_goes_to_the_rules_own_readings(line: str, read: bool | None) -> None:
    for data in (f"SOLVE {line}\n".encode(), f"{line}\r\n".encode()):
        assert native_reading(data) is False
        assert solver.solve_marks_line(data, _reader()) is False
        if read is None:
            assert not MARKS_BUFFERED.fullmatch(data)
            continue
        assert (python_reading(data) is not None) == read
        usual = replies(data)
        assert (solve_marks(data) or usual) == usual


#: Pills and bulbs, dots and cells the native reader reads: the rules' own arrays, the usual path's answer or error.
PILLS = [
    f"SOLVE {'.' * 81} arrow=r1c1-r1c2-r2c3-r3c3:2",
    f"SOLVE {'.' * 81} arrow=r1c1-r2c2-r1c2-r2c1-r3c1-r4c1:4",  # a square pill, reached cell by cell
    f"SOLVE {'.' * 81} arrow=r1c2-r1c1-r2c2-r3c3-r4c4-r5c5:3",  # a pill of three, its line from the last
    f"SOLVE {'.' * 81} arrow=r2c2-r1c1:1;r5c5-r6c6-r7c7",
    f"SOLVE 9{'.' * 80} arrow=r1c1-r1c2",  # 9 on a one-cell line: broken givens
    # dots and cells: tails, words without cells in any case, both orders of a dot's cells
    f"SOLVE {'.' * 81} kropki=r1c2-r1c1:b;r5c5-r6c5:w;NEGATIVE;r9c9-r9c8:b",
    f"SOLVE {'.' * 81} kropki=negativewhite;r1c1-r1c2:b",
    f"SOLVE {'.' * 81} kropki=NegativeBlack;r1c1-r1c2:w;negativewhite",
    f"SOLVE {'.' * 81} kropki=negativeblack",
    f"SOLVE {'.' * 81} xv=r1c1-r1c2:v;r2c1-r1c1:x;negative;Negative",
    f"SOLVE {'.' * 81} oddeven=R1C1-r2c2:ODD;r9c9:even xv=r5c5-r5c6:x kropki=r4c4-r4c5:w",
    f"SOLVE 2{'.' * 80} oddeven=r1c1:odd",  # a given off its cell's digits
    # little killer diagonals: each direction, a corner's one cell, names in any case, the sum's bounds
    f"SOLVE {'.' * 81} littlekiller=r9c1:7;R1C9:3;r8c1-r9c2:17;r2c9-r1c8:3;r1c1-r2c2-r3c3-r4c4-r5c5-r6c6-r7c7-r8c8-r9c9:81",
    f"SOLVE {'.' * 81} littlekiller=r3c1-r2c2-r1c3:6;r7c9-r8c8-r9c7:24 thermo=r5c5-r5c6",
    f"SOLVE 9{'.' * 80} littlekiller=r1c1:8",  # a given off its sum: broken givens
    f"SOLVE {'.' * 81} littlekiller=r1c1-r2c2-r3c3-r4c4-r5c5-r6c6-r7c7-r8c8-r9c9:9",  # nine ones: no solution
]


@NATIVE
@pytest.mark.parametrize("line", PILLS)
def test_a_pill_reads_to_the_rules_own_arrays_and_answers_the_usual_paths_bytes(line: str) -> None:
    data = f"{line}\n".encode()
    assert native_reading(data) == python_reading(data) != None  # noqa: E711
    usual = replies(data)
    assert solve_marks(data) in (usual, None)
    assert fast_replies(data) == usual


@NATIVE
def test_mistyped_lines_of_the_shaped_rules_read_as_the_rules_own_readings_read_them() -> None:
    rng = random.Random(2929)
    read = 0
    for k in range(600):
        word = SHAPED[k % len(SHAPED)]
        line, _solution = rng.choice(stored(word)[:40])
        data = f"SOLVE {mutated(rng, line)}\n".encode()
        if not MARKS_BUFFERED.fullmatch(data):
            continue
        got = native_reading(data)
        assert got is False or got == python_reading(data), data
        if got is not False:
            read += 1
            answer = solve_marks(data)
            assert answer is None or answer == replies(data), data
    assert read > 150
