"""What the inline path leaves to the pool untried (issue 29, tenth session): ``InlineSolver.solve`` with plain
values, a made-up clock and a fake native core whose lines cost what the test says.

A read whose lines would take more than two budgets at the connection's pace goes to the pool (both solver
threads), not a budget's worth answered on the event loop while the threads wait for the rest; after a try
that stopped slow (its search thrown away), the next lines go to the pool untried, 1, then doubling.
"""

from __future__ import annotations

import pytest

from sudoku_server.net import inline
from sudoku_server.net.inline import INLINE_FIRST_GROUP, INLINE_HANDOFF, INLINE_SKIP_MAX, InlineSolver

BUDGET = 0.002
#: The native core's check interval: a search that runs this long calls ``check``.
INTERVAL = 0.0005


class FakeCore:
    """``solve_plain`` and ``solve_marks`` over lines ``b"<cost in µs>\\n"`` (plain) or longer (marks: the cost
    then the padding), on a made-up clock: each line advances it by its cost; one past the check interval calls
    ``check`` there (which raises on the inline path). Answers ``b"ok <line>"``; counts the searches."""

    def __init__(self) -> None:
        self.now = 0.0
        self.searched: list[bytes] = []

    def monotonic(self) -> float:
        return self.now

    def _one(self, line: bytes, check) -> bytes:
        self.searched.append(line)
        cost = int(line.split()[0]) / 1e6
        if cost > INTERVAL:
            self.now += INTERVAL
            check()
        self.now += cost
        return b"ok " + line

    def solve_plain(self, lines, out, *, check=None) -> None:
        for line in lines:
            out.append(self._one(line, check))

    def solve_marks(self, line, *, check=None) -> bytes:
        return self._one(line, check)


@pytest.fixture
def core(monkeypatch: pytest.MonkeyPatch) -> FakeCore:
    fake = FakeCore()
    monkeypatch.setattr(inline, "solve_plain", fake.solve_plain)
    monkeypatch.setattr(inline, "solve_marks", fake.solve_marks)
    monkeypatch.setattr(inline, "time", fake)
    return fake


def plain(micros: int, count: int) -> list[bytes]:
    return [f"{micros}\n".encode()] * count


def marks(micros: int, count: int) -> list[bytes]:
    return [f"{micros} {'x' * 90}\n".encode()] * count


def test_a_read_that_fits_the_budget_is_answered_whole(core: FakeCore) -> None:
    solver = InlineSolver(BUDGET)
    answers, spent = solver.solve(plain(10, 64))  # 0.64 ms
    assert answers == [b"ok 10\n"] * 64 and spent == pytest.approx(0.00064)
    assert solver.pace == pytest.approx(0.00001)


def test_a_read_within_the_handoff_is_answered_up_to_the_budget(core: FakeCore) -> None:
    solver = InlineSolver(BUDGET)
    answers, spent = solver.solve(marks(35, 64))  # 2.24 ms: within INLINE_HANDOFF budgets
    assert len(answers) == 58 and spent == pytest.approx(58 * 0.000035)  # the budget's worth (thermo's case)
    answers, _ = solver.solve(marks(35, 64))  # and so for the next read
    assert len(answers) == 58


def test_a_long_read_goes_to_the_pool_after_the_first_group(core: FakeCore) -> None:
    solver = InlineSolver(BUDGET)
    answers, _ = solver.solve(marks(70, 64))  # 4.5 ms at 70 µs a line: no budget's worth while the threads wait
    assert len(answers) == INLINE_FIRST_GROUP  # the pace is not known before the first group
    assert solver.pace == pytest.approx(0.00007)
    core.searched.clear()
    assert solver.solve(marks(70, 64)) == ([], 0.0)  # the pace is known now: all to the pool, none searched
    assert core.searched == []
    assert solver.pace == pytest.approx(0.00007 * 0.75)  # (lowered: lines that turned quick get a try)
    answers, _ = solver.solve(marks(70, 2))  # a short read is answered
    assert len(answers) == 2
    assert INLINE_HANDOFF * BUDGET < 64 * 0.00007


def test_the_handoff_keeps_thermo_reads_and_sends_whispers_reads(core: FakeCore) -> None:
    # 64 lines of thermo (35 µs) stay on the event loop; 64 of whispers (60 µs) go to the pool once the pace
    # is known (benchmarks/RESULTS.md, tenth session: the event loop's cost per request).
    assert 64 * 0.000035 < INLINE_HANDOFF * BUDGET < 64 * 0.00006
    solver = InlineSolver(BUDGET)
    assert len(solver.solve(marks(60, 64))[0]) == INLINE_FIRST_GROUP
    core.searched.clear()
    assert solver.solve(marks(60, 64)) == ([], 0.0) and core.searched == []


def test_after_a_slow_try_the_next_lines_go_to_the_pool_untried_doubling(core: FakeCore) -> None:
    solver = InlineSolver(BUDGET)
    slow = marks(900, 1)
    assert solver.solve(slow) == ([], pytest.approx(INTERVAL))
    assert solver.stopped_slow and solver.skip == 1
    core.searched.clear()
    assert solver.solve(slow) == ([], 0.0)  # untried
    assert core.searched == [] and not solver.stopped_slow
    assert solver.solve(slow)[0] == [] and solver.stopped_slow  # tried again: slow again
    assert solver.skip == 2
    for _ in range(2):
        assert solver.solve(slow) == ([], 0.0)
    assert solver.solve(slow)[0] == [] and solver.skip == 4
    for _ in range(20):  # slow every time it is tried: one try per INLINE_SKIP_MAX lines at most
        solver.skip = 0
        solver.solve(slow)
    assert solver.skip == INLINE_SKIP_MAX
    solver.skip = 0
    quick = marks(40, 1)
    assert solver.solve(quick)[0] == [b"ok " + quick[0]]  # answered whole: the next slow stop skips 1 again
    assert solver.solve(slow)[0] == [] and solver.skip == 1


def test_a_slow_line_after_quick_ones_keeps_their_answers(core: FakeCore) -> None:
    solver = InlineSolver(BUDGET)
    answers, _ = solver.solve(marks(40, 2) + marks(900, 1) + marks(40, 1))
    assert answers == [b"ok " + marks(40, 1)[0]] * 2 and solver.stopped_slow and solver.skip == 1
