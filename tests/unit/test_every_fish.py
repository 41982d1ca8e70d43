"""``HINT all``'s Franken and mutant fish (issue 30): HoDoKu's library states, the C search against the Python
walk and against the definition itself."""

from __future__ import annotations

import dataclasses
from itertools import combinations
from pathlib import Path

import pytest

from sudoku_server.service.answer import answer
from sudoku_server.service.requests import HintAll
from sudoku_server.sudoku.techniques import Board
from sudoku_server.sudoku.techniques import every_fish as ef
from sudoku_server.sudoku.techniques.board import Context
from sudoku_server.sudoku.techniques.every import placed_cells
from sudoku_server.sudoku.techniques.every_basic import PEERS, UNITS
from sudoku_server.text import PuzzleReader
from sudoku_server.wire.replies import render
from sudoku_server.wire.verbs import check_arguments, parse_command

REGLIB = Path(__file__).resolve().parents[2] / "puzzles" / "hodoku" / "reglib-1.4.txt"
EVERY = (1 << 27) - 1


def _sent(no: int) -> str:
    """reglib-1.4's line ``no`` as the conformance test sends it: ``:::<givens>:<deleted>:::``."""
    fields = REGLIB.read_text("utf-8").splitlines()[no - 1].split(":")
    return ":::" + fields[3] + ":" + fields[4] + ":::"


def _fish_lines(no: int, prefix: str) -> list[str]:
    request = check_arguments(parse_command("HINT all", 1, "\n"))
    (puzzle,) = PuzzleReader().feed_line(_sent(no), "\n", 2)
    request = dataclasses.replace(request, grid=puzzle.grid, variant=puzzle.variant or request.variant)
    text = render(answer(request), "\n", puzzle).decode()
    return [line for line in text.splitlines() if line.startswith("STEP " + prefix)]


def _digits(no: int) -> list[tuple[int, int]]:
    """Per digit of the line's state: (its candidates, its placed cells), as bitboards."""
    (puzzle,) = PuzzleReader().feed_line(_sent(no), "\n", 1)
    request = HintAll(puzzle.grid, variant=puzzle.variant)
    board = Board.from_grid(puzzle.grid, request.geometry)
    board.placed = placed_cells(puzzle.grid.cells, puzzle.variant.candidates)
    x = Context(board, lambda: None)
    return [(x.pos[d0], sum(1 << c for c in range(81) if x.values[c] == d0 + 1)) for d0 in range(9)]


def test_a_franken_swordfish_of_the_library_is_its_one_line() -> None:
    # reglib-1.4 line 672: 0331, digit 9, r1c3<>9
    assert _fish_lines(672, "0331 ") == [
        "STEP 0331 Franken-Swordfish r1c3<>9 # Franken Swordfish on 9: base column 1, column 9 and box 2;"
        " cover row 1, row 3 and row 5"
    ]


def test_a_siamese_finned_franken_swordfish_joins_two_fish_on_the_same_base() -> None:
    # reglib-1.4 line 703: 03411, digit 4, r2c5<>4 r3c6<>4
    assert _fish_lines(703, "03411 ") == [
        "STEP 03411 Siamese-finned-Franken-Swordfish r2c5<>4 r3c6<>4 # Siamese finned Franken Swordfish on 4:"
        " base row 1, row 5 and box 8; cover column 5, column 6, column 8 and box 2;"
        " fins r5c5, r5c6, r8c5, r9c5 and r9c6"
    ]


def test_a_finned_mutant_jellyfish_with_its_fin() -> None:
    # reglib-1.4 line 749: 0362, digit 4, r1c9<>4
    assert _fish_lines(749, "0362 ") == [
        "STEP 0362 finned-mutant-Jellyfish r1c9<>4 # finned mutant Jellyfish on 4:"
        " base row 3, row 6, column 1 and column 5; cover row 1, row 8, column 6 and box 4; fins r3c9"
    ]


def test_a_finned_mutant_squirmbag_of_the_library() -> None:
    # reglib-1.4 line 760: 0363, digit 9, r1c3<>9 (a size-5 fish: at most 2 fins, no endo fins)
    assert _fish_lines(760, "0363 ") == [
        "STEP 0363 finned-mutant-Squirmbag r1c3<>9 # finned mutant Squirmbag on 9:"
        " base row 5, row 8, column 1, column 5 and column 7; cover row 1, row 2, row 4, column 2 and box 5;"
        " fins r3c1 and r8c3"
    ]


def test_a_finned_mutant_whale_and_leviathan_of_the_library() -> None:
    # reglib-1.4 line 763: 0364, digit 4, r9c1<>4; a Leviathan (size 7) gives it too
    assert _fish_lines(763, "036") == [
        "STEP 0364 finned-mutant-Whale r9c1<>4 # finned mutant Whale on 4:"
        " base row 3, row 5, row 7, column 8, column 9 and box 4;"
        " cover row 6, column 1, column 3, column 4, column 7 and box 3; fins r7c2 and r9c8",
        "STEP 0365 finned-mutant-Leviathan r9c1<>4 # finned mutant Leviathan on 4:"
        " base row 3, row 5, row 7, column 5, column 8, column 9 and box 4;"
        " cover row 6, column 1, column 3, column 7, box 2, box 3 and box 5; fins r7c2 and r9c8",
    ]


def test_the_large_fish_keep_their_limits() -> None:
    # sizes 5-7: at most LARGE_MAX_FINS fins, no endo fins, no Siamese pairs
    pos, placed = _digits(763)[3]
    found = ef.search(pos, EVERY, EVERY, 6, 6, ef.LARGE_MAX_FINS, ef.LARGE_MAX_ENDO_FINS, placed=placed)
    assert [(f.kind, bin(f.fins).count("1"), f.endo, f.elims) for f in found] == [
        (ef.MUTANT | ef.FINNED, 2, 0, 1 << 72)
    ]
    wider = ef.search(pos, EVERY, EVERY, 6, 6, placed=placed)  # HoDoKu's 5 fins, 2 endo fins
    assert len(wider) == 8 and found[0] in wider
    assert not [line for line in _fish_lines(763, "03") if line.split()[1] in ("03631", "03641", "03651")]


def test_the_kind_of_a_fish_is_hodokus() -> None:
    rows, cols, boxes = 0b11, 0b11 << 9, 0b1 << 18
    assert ef.kind_of(rows, cols) == ef.kind_of(cols, rows) == ef.BASIC
    assert ef.kind_of(rows | boxes, cols) == ef.kind_of(rows, cols | boxes) == ef.FRANKEN
    assert ef.kind_of(cols | boxes, rows | boxes) == ef.FRANKEN
    assert ef.kind_of(boxes | 1 << 19, cols) == ef.MUTANT  # boxes alone: mutant
    assert ef.kind_of(rows, rows << 3 | cols) == ef.MUTANT
    assert ef.kind_of(rows | cols, boxes | 1 << 19) == ef.MUTANT


def _by_definition(pos: int, k: int) -> list[ef.Fish]:
    """Every fish of size k on every pair of unit sets, straight from the definition."""
    cand = [UNITS[u] & pos for u in range(27)]
    units = [u for u in range(27) if cand[u]]
    out = []
    for base_set in combinations(units, k):
        base = endo = 0
        for u in base_set:
            endo |= base & cand[u]
            base |= cand[u]
        if bin(endo).count("1") > ef.MAX_ENDO_FINS:
            continue
        for cover_set in combinations([u for u in units if u not in base_set and cand[u] & base], k):
            covered = twice = 0
            for u in cover_set:
                twice |= covered & cand[u]
                covered |= cand[u]
            fins = (base & ~covered) | endo
            if bin(fins).count("1") > ef.MAX_FINS:
                continue
            elims = (covered & ~base) | twice
            for c in range(81):
                if fins >> c & 1:
                    elims &= PEERS[c]
            if elims:
                bases, covers = sum(1 << u for u in base_set), sum(1 << u for u in cover_set)
                kind = ef.kind_of(bases, covers) | (ef.FINNED if fins else 0)
                first = min(c for c in range(81) if elims >> c & 1 and (not base >> c & 1 or not elims & ~base))
                out.append(ef.Fish(bases, covers, kind, first, fins, endo, elims))
    return out


@pytest.mark.parametrize("no", [672, 703])
def test_every_x_wing_the_definition_gives_and_no_other(no: int) -> None:
    for pos, placed in _digits(no):
        found = ef.search(pos, EVERY, EVERY, 2, placed=placed)
        every = _by_definition(pos, 2)
        assert set(found) <= set(every)
        # one fish per base set, kind and eliminations
        assert sorted({(f.base, f.kind, f.elims) for f in found}) == sorted({(f.base, f.kind, f.elims) for f in every})
        assert len(found) == len({(f.base, f.kind, f.elims) for f in found})


@pytest.mark.skipif(not ef.NATIVE, reason="the C search is not built")
@pytest.mark.parametrize("no", [677, 703, 749])
def test_the_c_search_finds_what_the_python_walk_finds(no: int) -> None:
    # the C search skips what the digit's templates rule out (given its placed cells); the walk does not
    for pos, placed in _digits(no):
        for k in (2, 3):
            walk = ef._search_python(pos, EVERY, EVERY, k, 7, ef.MAX_FINS, ef.MAX_ENDO_FINS)
            assert ef.search(pos, EVERY, EVERY, k) == walk
            assert ef.search(pos, EVERY, EVERY, k, placed=placed) == walk
    pos, placed = _digits(no)[3]
    franken = ef.FRANKEN
    walk = ef._search_python(pos, EVERY, EVERY, 4, franken, ef.MAX_FINS, ef.MAX_ENDO_FINS)
    assert ef.search(pos, EVERY, EVERY, 4, franken, placed=placed) == walk


@pytest.mark.skipif(not ef.NATIVE, reason="the C search is not built")
@pytest.mark.parametrize(("no", "d0", "counts"), [(760, 8, [4, 4, 0]), (763, 3, [0, 1, 3])])
def test_the_c_search_finds_the_large_fish_the_python_walk_finds(no: int, d0: int, counts: list[int]) -> None:
    # counts: the fish of sizes 5, 6 and 7 (Franken and mutant) at the large fish's limits
    pos, placed = _digits(no)[d0]
    found = []
    for k in (5, 6, 7):
        walk = ef._search_python(pos, EVERY, EVERY, k, 6, ef.LARGE_MAX_FINS, ef.LARGE_MAX_ENDO_FINS)
        assert ef.search(pos, EVERY, EVERY, k, 6, ef.LARGE_MAX_FINS, ef.LARGE_MAX_ENDO_FINS, placed=placed) == walk
        found.append(len(walk))
    assert found == counts


@pytest.mark.parametrize("native", [True, False])
def test_distinct_keeps_the_first_fish_of_each_kind_and_eliminations(
    native: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not native:
        monkeypatch.setattr(ef, "_native", None)
    elif not ef.NATIVE:
        pytest.skip("the C search is not built")
    pos, placed = _digits(760)[8]
    every = ef.search(pos, EVERY, EVERY, 5, 6, ef.LARGE_MAX_FINS, ef.LARGE_MAX_ENDO_FINS, placed=placed)
    one = ef.search(pos, EVERY, EVERY, 5, 6, ef.LARGE_MAX_FINS, ef.LARGE_MAX_ENDO_FINS, placed=placed, distinct=True)
    # four Squirmbags (four base sets), all finned mutant with the one elimination r1c3<>9
    assert len(every) == 4 and {(f.kind, f.elims) for f in every} == {(ef.MUTANT | ef.FINNED, 1 << 2)}
    assert one == every[:1]
