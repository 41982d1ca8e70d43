"""HoDoKu's regression library as a conformance gate for ``HINT all`` (issue 30).

Every case of puzzles/hodoku/reglib-1.3.txt and reglib-1.4.txt is sent as
``:::<givens>:<deleted>:::`` (technique, candidates, effects and extra blanked),
answered by the service's ``HINT all`` and judged by ``every.passes``: the
steps with the case's base code give exactly its effects (one step's or the
union of them all), or, for a ``-x`` case, no step has that code.

The test holds the pass set EXACTLY to tests/hodoku_reglib_passing.txt: a
passing case that fails is a regression; a case that starts passing must be
added (``python3 benchmarks/bench_hodoku_reglib.py --write-passing
tests/hodoku_reglib_passing.txt``; the per-family table is in
benchmarks/RESULTS.md). Slow: 1,114 distinct states, 2 to 5 minutes with the native engines built.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_server.service.answer import answer
from sudoku_server.service.requests import HintAll
from sudoku_server.service.results import HintedAll
from sudoku_server.sudoku.techniques.every import passes
from sudoku_server.text import PuzzleReader
from sudoku_server.text.hodoku import read_case

#: minutes of CPU (2,224 states through HINT all): the slow tier
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FILES = ("reglib-1.3.txt", "reglib-1.4.txt")


def _cases() -> list[tuple[str, str]]:
    out = []
    for name in FILES:
        for no, line in enumerate((ROOT / "puzzles" / "hodoku" / name).read_text("utf-8").splitlines(), 1):
            if line.startswith(":"):
                out.append((f"{name}:{no}", line))
    return out


def _passes(line: str) -> bool:
    case = read_case(line)
    fields = line.split(":")
    sent = ":::" + fields[3] + ":" + (fields[4] if len(fields) > 4 else "") + ":::"
    (puzzle,) = PuzzleReader().feed_line(sent, "\n", 1)
    result = answer(HintAll(puzzle.grid, variant=puzzle.variant))
    assert isinstance(result, HintedAll), result
    effects = {(c, d, False) for c, d in case.eliminations} | {(c, d, True) for c, d in case.placements}
    return passes(result.found, case.base, case.fail, effects)


def test_the_library_has_its_1112_cases_per_file() -> None:
    cases = _cases()
    assert sum(cid.startswith("reglib-1.3") for cid, _ in cases) == 1112
    assert sum(cid.startswith("reglib-1.4") for cid, _ in cases) == 1112


def test_hint_all_passes_exactly_the_recorded_cases() -> None:
    recorded = {
        line.strip()
        for line in (ROOT / "tests" / "hodoku_reglib_passing.txt").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    verdict: dict[str, bool] = {}  # the two files share most lines: each state judged once
    now = set()
    for cid, line in _cases():
        if line not in verdict:
            verdict[line] = _passes(line)
        if verdict[line]:
            now.add(cid)
    regressed = sorted(recorded - now)
    new = sorted(now - recorded)
    assert not regressed, f"{len(regressed)} recorded passing cases fail now: {regressed[:20]}"
    assert not new, f"{len(new)} cases pass now and are not recorded (update the list): {new[:20]}"
