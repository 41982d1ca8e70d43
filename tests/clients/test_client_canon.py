"""The client's --canon and --dedupe against the real server: exact standard output, exit status, summary."""

from __future__ import annotations

import random
import re

import pytest

from tests.support.clienttools import PUZZLES, address_args, run_client, run_with_terminal_stderr

WAYS = pytest.mark.parametrize("standalone", [False, True], ids=["package", "standalone"])

P1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
P1_FORM = "........1.....2....34....5.......56......7.3.2...18......6.......54.....8.......7"
P1_TRANSPOSED = "".join(P1[9 * r + c] for c in range(9) for r in range(9))
P1_RELABELLED = P1.translate(str.maketrans("123456789", "987654321"))
P2 = "52...6.........7.13...........4..8..6......5...........418.........3..2...87....."
P2_FORM = "..............1..2..3....4.......5.6..7.......84.3.......7...8.2....6...51...2..."


def _summary(text: str) -> re.Pattern:
    return re.compile(rb"sudoku-client: " + re.escape(text.encode()) + rb"; \d+\.\d\d s, \d+ puzzles/s\n")


@WAYS
def test_canon_one_form_per_line(server_address, tmp_path, standalone):
    path = tmp_path / "bank.txt"
    path.write_text(f"# a bank\n{P1}\n\n{P2}\r\n{P1_TRANSPOSED}\n{'5' * 2 + '.' * 79}\n")
    result = run_client(*address_args(server_address), "--canon", "--summary", str(path), standalone=standalone)
    # the line with two 5s in row 1 (no solution) has its form too: one row, one stack, one digit
    assert result.stdout == f"{P1_FORM}\n{P2_FORM}\n{P1_FORM}\n{'.' * 79}11\n".encode()
    assert _summary("4 puzzles: 4 canonical, 0 errors").fullmatch(result.stderr), result.stderr
    assert result.returncode == 0


@WAYS
def test_canon_error_line_in_its_place(server_address, tmp_path, standalone):
    path = tmp_path / "bad.txt"
    path.write_text(f"{P1}\nhello\n{P2}\n")
    result = run_client(*address_args(server_address), "--canon", str(path), standalone=standalone)
    assert result.stdout == (f"{P1_FORM}\nERROR format line 2: not a one-line puzzle\n{P2_FORM}\n".encode())
    assert result.stderr == b""
    assert result.returncode == 1


@WAYS
def test_canon_a_line_of_prose_is_not_a_one_line_puzzle(server_address, tmp_path, standalone):
    # s10-break finding 11: prose with blanks got the server's "'H' is not a digit" at column 1
    path = tmp_path / "bank2.txt"
    path.write_text(f"Here is today's puzzle:\nhello\nGood luck!\nhello world\nx{P1[1:]}\n{P1}\n")
    result = run_client(*address_args(server_address), "--canon", str(path), standalone=standalone)
    assert result.stdout == (
        b"ERROR format line 1: not a one-line puzzle\n"
        b"ERROR format line 2: not a one-line puzzle\n"
        b"ERROR format line 3: not a one-line puzzle\n"
        b"ERROR format line 4: not a one-line puzzle\n"
        b"ERROR format line 5, column 1: 'x' is not a digit 1-9 or an empty mark (. 0 _) at r1c1\n"  # a typo
        + P1_FORM.encode()
        + b"\n"
    )
    assert result.returncode == 1


@WAYS
def test_dedupe_classes(server_address, tmp_path, standalone):
    path = tmp_path / "bank.txt"
    path.write_text(f"{P1}\n{P2}\n{P1_TRANSPOSED}\n# comment\n{P1_RELABELLED}\nhello\n{P2}\n")
    result = run_client(*address_args(server_address), "--dedupe", "--summary", str(path), standalone=standalone)
    assert result.stdout == f"{P1} 3\n{P2} 2\n".encode()
    assert result.stderr.splitlines()[0] == b"sudoku-client: ERROR format line 6: not a one-line puzzle"
    assert _summary("6 puzzles: 2 classes, 1 error").fullmatch(result.stderr.split(b"\n", 1)[1]), result.stderr
    assert result.returncode == 1


def test_dedupe_a_bank_with_copies(server_address, tmp_path):
    """500 distinct 17-clue puzzles, then 200 of them transposed or relabelled: 500 classes, exact sizes."""
    bank = [line for line in (PUZZLES / "sudoku17_500.txt").read_text().split() if len(line) == 81]
    assert len(bank) == 500
    rng = random.Random(7)
    copies = []
    for index in rng.sample(range(500), 200):
        text = bank[index]
        if rng.random() < 0.5:
            text = "".join(text[9 * r + c] for c in range(9) for r in range(9))
        digits = "".join(rng.sample("123456789", 9))
        copies.append((index, text.translate(str.maketrans("123456789", digits))))
    path = tmp_path / "bank.txt"
    path.write_text("\n".join(bank + [text for _, text in copies]) + "\n")
    result = run_client(*address_args(server_address), "--dedupe", str(path))
    sizes = [1] * 500
    for index, _ in copies:
        sizes[index] += 1
    assert result.stdout == "".join(f"{text} {size}\n" for text, size in zip(bank, sizes)).encode()
    assert result.returncode == 0


def test_dedupe_progress_and_summary_on_a_terminal(server_address, tmp_path):
    bank = [line for line in (PUZZLES / "sudoku17_500.txt").read_text().split() if len(line) == 81]
    path = tmp_path / "bank.txt"
    path.write_text("\n".join(bank) + "\n")
    seen, status = run_with_terminal_stderr(*address_args(server_address), "--dedupe", str(path))
    assert status == 0
    assert re.search(rb"sudoku-client: 500 puzzles: 500 classes, 0 errors; \d+\.\d\d s, \d+ puzzles/s\r\n", seen), seen


@pytest.mark.parametrize("mode", ["--canon", "--dedupe"])
def test_canon_and_dedupe_name_the_files_line(server_address, tmp_path, mode):
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    path = tmp_path / "bank.txt"
    path.write_text(f"# bank\n{puzzle}\n\n{puzzle[:80]}\n")
    result = run_client(*address_args(server_address), mode, str(path))
    error = b"ERROR format line 4: expected 81 cells, found 80"
    if mode == "--canon":
        form = b"........1.....2....34....5.......56......7.3.2...18......6.......54.....8.......7"
        assert result.stdout == form + b"\n" + error + b"\n"
    else:
        assert result.stdout == puzzle.encode() + b" 1\n"
        assert result.stderr == b"sudoku-client: " + error + b"\n"
    assert result.returncode == 1


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


def test_canon_from_a_server_that_sends_one_endless_line_ends_with_exit_2(tmp_path):
    """A second break session's finding: a server sending 200 MB with no newline kept --canon at 100% CPU for
    minutes (each read split the whole unended line again), past --timeout. The line is now bounded."""
    from tests.support.clienttools import Close, FakeServer

    path = tmp_path / "bank.txt"
    path.write_text(f"{P1}\n")
    with FakeServer(lambda line: Close(b"A" * 300_000)) as fake:
        result = run_client("--port", str(fake.port), "--timeout", "5", "--canon", str(path))
    assert result.stdout == b""
    assert (
        result.stderr == f"sudoku-client: 127.0.0.1:{fake.port}: the server sent a line of over 65536 bytes\n".encode()
    )
    assert result.returncode == 2


def test_canon_answered_by_something_else_ends_with_exit_2(tmp_path):
    """A second break session's finding: a reply that is neither a form nor an ERROR line was printed as a form."""
    from tests.support.clienttools import FakeServer

    path = tmp_path / "bank.txt"
    path.write_text(f"{P1}\n{P2}\n")
    with FakeServer(lambda line: b"PONG\n") as fake:
        result = run_client("--port", str(fake.port), "--canon", str(path))
    assert result.stdout == b""
    assert result.stderr == (
        f'sudoku-client: 127.0.0.1:{fake.port} answered "PONG" to CANON, neither a form nor an ERROR line\n'.encode()
    )
    assert result.returncode == 2
