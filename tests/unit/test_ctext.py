"""Text in C: ``solver.solve_lines`` against the Python text layer, byte for byte.

``solve_lines`` (``_native.c``) reads a plain one-line 9x9 puzzle and writes
its answer in the native core; the Python path (``text.PuzzleReader`` ->
``service.answer_many`` -> ``wire.replies.render_many``, the server's bulk
path before) is the oracle. For every line, random and adversarial (each
empty mark, LF/CRLF/CR, blanks around the cells, 80 and 82 cells, foreign
characters, full-width digits, givens sharing a unit, no solution, several
solutions, dataset rows with a ``,solution`` field), the C path must give
exactly the oracle's bytes when the oracle reads a plain line and solves it,
and "not mine" (None) otherwise, so that the caller's fallback answers it.
A pipelined stream through a real server then gets the oracle's bytes too.
"""

from __future__ import annotations

import gzip
import random
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_server.service.answer import answer_many
from sudoku_server.service.requests import Solve
from sudoku_server.service.results import Solved
from sudoku_server.sudoku import solver
from sudoku_server.text import Puzzle, PuzzleReader
from sudoku_server.wire import replies

DATASETS = Path(__file__).resolve().parents[2] / "puzzles" / "datasets"
ENDINGS = ["\n", "\r\n", "\r"]


@pytest.fixture(autouse=True)
def _native(native):
    """Every test here needs the native core (skipped when not built, a failure under CI)."""


def dataset_lines(name: str, count: int, rng: random.Random) -> list[str]:
    """``count`` lines picked at random from a dataset (its first field for CSV rows)."""
    with gzip.open(DATASETS / name, "rt") as f:
        rows = [line.strip() for line in f if line.strip() and not line.startswith(("#", "quizzes"))]
    return rng.sample(rows, min(count, len(rows)))


def oracle(raw: bytes) -> tuple[bytes | None, bool]:
    """The Python path's answer to one line: ``(reply bytes or None, plain and solved)``."""
    text = raw.decode("utf-8", "surrogateescape")
    for ending in ("\r\n", "\n", "\r"):
        if text.endswith(ending):
            text = text[: -len(ending)]
            break
    else:
        ending = ""
    reader = PuzzleReader()
    events = reader.feed_line(text, ending, 1) + reader.finish()
    if len(events) != 1 or not isinstance(events[0], Puzzle):
        return None, False
    puzzle = events[0]
    results = list(answer_many([(Solve(puzzle.grid, expected=puzzle.expected), "the puzzle at line 1")]))
    return replies.render_many(results, [puzzle]), puzzle.plain and type(results[0]) is Solved


def c_path(lines: list[bytes]) -> list[bytes | None]:
    out: list[bytes | None] = []
    solver.solve_lines(lines, out)
    assert len(out) == len(lines)
    return out


def assert_same(lines: list[bytes]) -> int:
    """Both paths on every line; returns how many the C path took."""
    taken = 0
    for raw, got in zip(lines, c_path(lines)):
        want, plain_solved = oracle(raw)
        if plain_solved:
            assert got == want, raw
            taken += 1
        else:
            assert got is None, raw
    return taken


def mutate(line: str, rng: random.Random) -> str:
    """An adversarial variant of an 81-cell line."""
    kind = rng.randrange(12)
    if kind == 0:
        return line[:-1]  # 80 cells
    if kind == 1:
        return line + rng.choice("123456789.")  # 82 cells
    if kind == 2:
        return " " + line  # a leading blank
    if kind == 3:
        return line + rng.choice([" ", "\t"])  # a trailing blank
    if kind == 4:
        i = rng.randrange(81)
        return line[:i] + rng.choice("xA*-+/|:;#é") + line[i + 1 :]  # a foreign character
    if kind == 5:
        i = rng.randrange(81)
        return line[:i] + "１" + line[i + 1 :]  # a full-width digit
    if kind == 6:
        i, j = rng.sample(range(9), 2)  # two givens in row 1 made equal: a duplicate
        cells = list(line)
        cells[i] = cells[j] = "5"
        return "".join(cells)
    if kind == 7:
        return line.replace(".", "0")
    if kind == 8:
        return line.replace(".", "_")
    if kind == 9:
        return "".join(rng.choice(".0_") if ch in "._0" else ch for ch in line)  # mixed marks
    if kind == 10:
        cells = [ch if rng.random() < 0.6 else "." for ch in line]  # givens dropped: several solutions
        return "".join(cells)
    return line


def test_every_empty_mark_and_line_ending_gives_the_python_bytes():
    line = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    lines = [(line.replace(".", mark) + ending).encode() for mark in "._0" for ending in ENDINGS]
    assert assert_same(lines) == len(lines)
    out = c_path(lines[:2])
    assert out[0] == b"812753649943682175675491283154237896369845721287169534521974368438526917796318452\n"
    assert out[1] == out[0][:-1] + b"\r\n"


def test_lines_not_taken_are_none():
    empty = "." * 81
    lines = [
        b"",
        b"\n",
        empty.encode(),  # no terminator: the Python path says "incomplete"
        (empty + "\n\n").encode(),
        (" " + empty + "\n").encode(),
        (empty + " \n").encode(),
        (empty[:-1] + "\n").encode(),
        (empty + ".\n").encode(),
        ("5" + "5" + empty[2:] + "\n").encode(),  # givens sharing a unit
        ("12345678." + "." * 8 + "9" + empty[18:] + "\n").encode(),  # no digit fits r1c9
        (empty + "," + "1" * 81 + "\n").encode(),  # a dataset row
        ("ab" + empty[2:] + "\n").encode(),
        ("１" + empty[1:] + "\n").encode(),
    ]
    out = c_path(lines)
    assert out == [None] * len(lines)
    assert_same(lines)
    assert c_path(["x" * 82, None, bytearray(b"." * 81 + b"\n")]) == [None, None, None]  # type: ignore[list-item]


def test_several_solutions_give_the_row_major_first():
    lines = [(("." * 81) + "\n").encode(), (("1" + "." * 80) + "\r\n").encode()]
    assert assert_same(lines) == 2
    assert c_path(lines)[0] == b"123456789456789123789123456214365897365897214897214365531642978642978531978531642\n"


@pytest.mark.parametrize(
    "name", ["magictour_top1465.txt.gz", "kaggle_bryanpark_first10000.csv.gz", "no_solution.txt.gz"]
)
def test_datasets_and_adversarial_variants_agree(name):
    rng = random.Random(f"ctext {name}")
    rows = dataset_lines(name, 150, rng)
    lines: list[bytes] = []
    for row in rows:
        ending = rng.choice(ENDINGS)
        lines.append((row + ending).encode())  # the whole row: a CSV row keeps its ",solution"
        first = row.split(",")[0]
        lines.append((first + ending).encode())
        lines.append((mutate(first, rng) + ending).encode())
    taken = assert_same(lines)
    if name.startswith("no_solution"):
        assert taken < len(rows) // 2  # only variants with givens dropped may have a solution
    else:
        assert taken > len(rows)


def test_check_stops_the_batch_and_keeps_the_answers_before(wallclock):
    # The slowest 9x9 lines we know take 0.3-0.6 ms of native search, about
    # the 0.5 ms after which check is called (the same tick as solve's, whose
    # interval tests/unit/test_solver_native.py holds): whether a given line calls
    # check depends on the machine, so 300 of them are run and the outcome of
    # either case is checked exactly.
    hard = b"98.76.5....7..4.....6....3.8.........2...5.....587.2..6..52.8....8..1...........9\n"
    easy = b"8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\n"
    lines = [easy, hard] * 150
    want = c_path([easy, hard])
    calls = []

    def check():
        calls.append(1)
        raise LookupError("stop")

    out: list[bytes | None] = []
    try:
        solver.solve_lines(lines, out, check=check)
    except LookupError:
        assert calls == [1]
        assert len(out) < len(lines)
        # stopped in a hard line, after its easy one: check's tick is wall time, so a loaded machine can stop
        # in an easy line too
        wallclock.holds(len(out) % 2 == 1, f"stopped in a hard line, after its easy one ({len(out)} answers)")
    else:
        assert calls == []
        assert len(out) == len(lines)
    assert out == (want * 150)[: len(out)]
    # a check that returns lets the batch finish with the same answers
    out = []
    solver.solve_lines(lines, out, check=lambda: None)
    assert out == want * 150


def test_a_pipelined_stream_gets_the_python_bytes(server_address):
    rng = random.Random("ctext stream")
    rows = [row.split(",")[0] for row in dataset_lines("magictour_top1465.txt.gz", 100, rng)]
    texts = []
    for row in rows:
        texts.append(row if rng.random() < 0.8 else mutate(row, rng).replace(" ", "").replace("\t", ""))
    texts = [t for t in texts if len(t) == 81 and all(ch in "0123456789._" for ch in t)]
    texts[5] = "55" + "." * 79  # givens sharing a unit: the Python path's error words
    texts[9] = "12345678." + "." * 8 + "9" + "." * 63  # no solution
    ending = "\r\n"
    reader = PuzzleReader()
    want = []
    for lineno, text in enumerate(texts, 1):
        (puzzle,) = reader.feed_line(text, ending, lineno)
        assert isinstance(puzzle, Puzzle) and puzzle.plain
        results = list(answer_many([(Solve(puzzle.grid), f"the puzzle at line {lineno}")]))
        want.append(replies.render_many(results, [puzzle]))
    expected = b"".join(want)
    assert b"ERROR" in expected
    with socket.create_connection(server_address, timeout=30) as sock:
        sock.sendall("".join(t + ending for t in texts).encode())
        got = b""
        while len(got) < len(expected):
            chunk = sock.recv(65536)
            if not chunk:
                break
            got += chunk
    assert got == expected


def session_events(data: bytes, chunk: int) -> list:
    from sudoku_server.wire.session import Session

    session = Session()
    events = []
    for start in range(0, len(data), chunk):
        events += session.receive_data(data[start : start + chunk])
    return events + session.receive_eof()


def test_the_sessions_plain_line_path_gives_the_events_of_the_general_one(monkeypatch):
    # Splitter.feed_plain routes a plain one-line puzzle between requests
    # without the verb and caption checks; with it off (None: every line
    # through feed) the events must be the same, for streams that mix plain
    # lines with captions, verbs waiting for their puzzle, grids, blank lines
    # and errors.
    from sudoku_server.wire.splitter import Splitter

    rng = random.Random("ctext session")
    plain = [row.split(",")[0] for row in dataset_lines("kaggle_bryanpark_first10000.csv.gz", 40, rng)]
    grid_rows = [" ".join(plain[0][r * 9 : r * 9 + 9]) for r in range(9)]
    pieces = [
        lambda: rng.choice(plain),
        lambda: mutate(rng.choice(plain), rng),
        lambda: "Puzzle 1:",
        lambda: "SOLVE",
        lambda: "COUNT limit=3",
        lambda: "SOLVE any " + rng.choice(plain),
        lambda: "",
        lambda: "PING",
        lambda: "\n".join(grid_rows),
        lambda: "\n".join(grid_rows[:5]),
        lambda: "hello there",
    ]
    for trial in range(30):
        lines = [rng.choice(pieces)() for _ in range(rng.randrange(5, 40))]
        ending = rng.choice(ENDINGS)
        data = "".join(line.replace("\n", ending) + ending for line in lines).encode()
        chunk = rng.choice([1, 7, 100, len(data)])
        fast = session_events(data, chunk)
        with monkeypatch.context() as patch:
            patch.setattr(Splitter, "feed_plain", lambda self, text, ending, lineno: None)
            general = session_events(data, chunk)
        assert fast == general, (trial, data)


def test_the_benchmark_runs():
    # benchmarks/bench_ctext.py, tiny: it checks the two text paths give the same bytes on every pass
    result = subprocess.run(
        [
            sys.executable,
            str(DATASETS.parent.parent / "benchmarks" / "bench_ctext.py"),
            "--passes",
            "1",
            "--limit",
            "20",
        ],
        cwd=DATASETS.parent.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "solver core: native" in result.stdout
    assert "| kaggle | 20 |" in result.stdout and "| top1465 | 20 |" in result.stdout


def test_a_replaced_solve_is_not_bypassed_by_the_c_text_path():
    # A test's slow solver set as `solver.solve` (tests/integration/test_shutdown.py, test_hostile.py) must get
    # every plain line: the C path gives solve's answers without calling it, so the server's fronts
    # take the C path only with the solver's own solve (FrontServices.fast).
    from sudoku_server.net.config import ServerConfig
    from sudoku_server.net.server import SudokuServer
    from sudoku_server.sudoku import solver

    def replacement(grid, *, check=None):
        return solver.solve(grid, check=check)

    assert solver.is_own_solve(solver.solve) and not solver.is_own_solve(replacement)
    server = SudokuServer(ServerConfig())
    assert server.services.fast is solver.LINES_NATIVE
    server.solve = replacement
    assert server.services.fast is False


def test_the_c_text_path_answers_a_plain_line():
    from sudoku_server.sudoku import solver
    from sudoku_server.text.oneline import solve_plain

    out: list[bytes | None] = []
    solve_plain([b"." * 81 + b"\n"], out)
    if solver.LINES_NATIVE:
        assert out == [b"123456789456789123789123456214365897365897214897214365531642978642978531978531642\n"]
    else:
        assert out == [None]
