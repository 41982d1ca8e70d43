"""The generator: seeds, golden puzzles, uniqueness, minimality, symmetry, errors.

Pure tests: no trio, no server. Uniqueness is counted independently of the
generator's own proof, with ``benchmarks/reference_count.py`` (a textbook
backtracking counter sharing no code with ``sudoku_server``). Minimality
(removing any given, or any orbit of givens, leaves several solutions) is
checked with the solver's ``count_solutions`` for 500 seeds (a different
search from the generator's existence proofs) and with the reference
counter for a sample: the reference takes about 0.1 s per 9x9 puzzle for
that, so ``benchmarks/bench_generate.py --verify`` runs it on every seed of
the benchmark instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sudoku_server import Generated, Grid, count_solutions, generate, verify_solution
from sudoku_server.sudoku import generator
from sudoku_server.sudoku.generator import (
    RANDOM_SYMMETRIES,
    SEED_LIMIT,
    SYMMETRIES,
    SplitMix64,
    orbits,
    permutation,
)

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from reference_count import count_solutions_reference  # noqa: E402

# -- the random generator ---------------------------------------------------


def test_splitmix64_reference_values():
    # Vigna's splitmix64.c, as published (Rosetta Code "Pseudo-random
    # numbers/Splitmix64"): seed 1234567, and seed 0.
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


def test_splitmix64_below():
    rng = SplitMix64(1234567)
    # 6457827717110365317 * 10 >> 64 == 3, 3203168211198807973 * 10 >> 64 == 1
    assert [rng.below(10) for _ in range(2)] == [3, 1]
    assert {SplitMix64(s).below(4) for s in range(200)} == {0, 1, 2, 3}


def test_permutation_golden_values():
    assert permutation(SplitMix64(42), 9) == [0, 3, 7, 1, 8, 4, 2, 5, 6]
    assert permutation(SplitMix64(42), 30) == [
        15, 16, 17, 2, 10, 0, 19, 12, 18, 24, 29, 11, 21, 25, 9,
        23, 28, 6, 26, 3, 13, 27, 5, 20, 8, 1, 14, 4, 7, 22,
    ]  # fmt: skip
    assert permutation(SplitMix64(42), 1) == [0]
    assert permutation(SplitMix64(42), 0) == []


def test_permutation_covers_all_orders_evenly():
    # 24,000 shuffles of 4 from consecutive seeds: each of the 24 orders
    # about 1,000 times (deterministic: the seeds are fixed).
    counts = {}
    for seed in range(24_000):
        order = tuple(permutation(SplitMix64(seed), 4))
        assert sorted(order) == [0, 1, 2, 3]
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 24
    assert min(counts.values()) > 850 and max(counts.values()) < 1150


# -- orbits -----------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 6, 9, 16, 25])
@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_orbits_partition_the_cells(size, symmetry):
    found = orbits(size, symmetry)
    cells = [c for orbit in found for c in orbit]
    assert sorted(cells) == list(range(size * size))
    assert all(orbit == tuple(sorted(orbit)) for orbit in found)
    assert [orbit[0] for orbit in found] == sorted(orbit[0] for orbit in found)


def test_orbits_of_9x9():
    assert len(orbits(9, "none")) == 81
    assert len(orbits(9, "rot180")) == 41  # 40 pairs and the centre
    assert len(orbits(9, "rot90")) == 21  # 20 quadruples and the centre
    assert len(orbits(9, "mirror")) == 45  # 36 pairs and column 5
    assert len(orbits(9, "diagonal")) == 45  # 36 pairs and the diagonal
    assert orbits(9, "rot90")[0] == (0, 8, 72, 80)
    assert orbits(9, "rot90")[1] == (1, 17, 63, 79)  # r1c2 r2c9 r8c1 r9c8
    assert orbits(9, "rot180")[0] == (0, 80)
    assert orbits(9, "mirror")[1] == (1, 7)
    assert orbits(9, "diagonal")[1] == (1, 9)
    assert (40,) in orbits(9, "rot90")
    assert len(orbits(16, "rot90")) == 64  # no centre cell


# -- golden puzzles: a change of the generator shows here --------------------

GOLDEN = [
    (
        dict(size=9, seed=0),
        "none",
        "1.75........1.4...6....3..2.6.7.........25.3....61.92....9.645.8........9...4.3..",
        "137592684528164793694873512261739845789425136453618927372986451846351279915247368",
    ),
    (
        dict(size=9, seed=1, symmetry="rot180"),
        "rot180",
        ".7.3...19.....1.5.1.6.7...3.9.1..3..3.......2..4..5.9.9...1.8.5.4.2.....65...3.2.",
        "572348619439621758186579243795162384318794562264835197923416875841257936657983421",
    ),
    (
        dict(size=9, seed=2, symmetry="random"),
        "mirror",
        "7.42.69.1..14.35...........3.......5.4.3.1.9..178.932.6..7.8..4..........8.....5.",
        "754286931921473568863915472398627145246351897517849326635798214172534689489162753",
    ),
    (
        dict(size=9, seed=SEED_LIMIT - 1, full=True),
        "none",
        "678531942542689137391724856289365714753412698164897523927146385436958271815273469",
        "678531942542689137391724856289365714753412698164897523927146385436958271815273469",
    ),
    (dict(size=4, seed=7), "none", "1..3.....32.....", "1243341243212134"),
    (
        dict(size=6, seed=7, symmetry="diagonal"),
        "diagonal",
        "4.6.........5..4.1..3.25...1....12.6",
        "436512215364562431143625624153351246",
    ),
    (
        dict(size=16, seed=0),
        "none",
        "...F...1.CD...7.7.G..E.......1...E..C.8BG.9...3.38...5......9.4F...C.........G.4"
        "...5.....D3A...2...E749.2..8F.AC..F.6B2...G7...3.5..82........F......1.AB.6.C..E"
        "CD.9.G...3..7A51..AB.CD.7......9.172E6...F...5G.D..3....6....F8..G5.D.1...4..CE6"
        ".6.AB.5....31.97",
        "52BF9A413CD6GE7879G63EF2548BD1CAAED4C78BG19F263538C1G56DA27E9B4F872CADE3F6195GB4"
        "GB951FC84D3AE762631E749G2B58FDAC4AFD6B25CEG78913E56782391ACDB4FG2F3G417AB965C8DE"
        "CD89FGB6E3247A5114AB5CDE78FG63299172E6A48FBC35GDDCE329G765A14F8BBG58D31F9742ACE6"
        "F64AB85CDGE31297",
    ),
]


@pytest.mark.parametrize("options, symmetry, puzzle, solution", GOLDEN)
def test_golden_puzzles(options, symmetry, puzzle, solution):
    made = generate(**options)
    assert made.puzzle.to_string() == puzzle
    assert made.solution.to_string() == solution
    assert made.symmetry == symmetry
    assert made.seed == options["seed"]
    assert made.givens == sum(ch != "." for ch in puzzle)
    assert made.minimal == (not options.get("full", False))
    assert made.size == options["size"]


# -- 500 seeds: unique, minimal, symmetric, reproducible ---------------------


def given_orbits(made: Generated) -> list:
    """The orbits of the puzzle's givens, after checking each is all given or all empty."""
    cells = made.puzzle.cells
    out = []
    for orbit in orbits(made.size, made.symmetry):
        given = [bool(cells[c]) for c in orbit]
        assert all(given) or not any(given), (made.seed, orbit)
        if given[0]:
            out.append(orbit)
    return out


def without(grid: Grid, cells) -> Grid:
    values = list(grid.cells)
    for c in cells:
        values[c] = 0
    return Grid(tuple(values), grid.box_rows, grid.box_cols)


# 100 seeds for each symmetry: 500 puzzles in all.
CASES = [(seed, SYMMETRIES[seed % len(SYMMETRIES)]) for seed in range(500)]


@pytest.mark.parametrize("block", range(10))
def test_500_seeds_unique_minimal_symmetric_reproducible(block):
    for seed, symmetry in CASES[block * 50 : (block + 1) * 50]:
        made = generate(9, seed=seed, symmetry=symmetry)
        assert generate(9, seed=seed, symmetry=symmetry) == made
        assert made.symmetry == symmetry and made.minimal
        # the solution is a solution, the givens are its digits
        assert verify_solution(made.puzzle, made.solution) is None
        assert made.givens == sum(1 for d in made.puzzle.cells if d)
        # unique, counted independently
        assert count_solutions_reference(made.puzzle.cells, 2) == 1, (seed, symmetry)
        # symmetric, and minimal under the symmetry
        for orbit in given_orbits(made):
            assert count_solutions(without(made.puzzle, orbit), 2) == 2, (seed, symmetry, orbit)


@pytest.mark.parametrize("seed, symmetry", [(s, SYMMETRIES[s % 5]) for s in range(1000, 1015)])
def test_minimal_by_the_reference_counter(seed, symmetry):
    made = generate(9, seed=seed, symmetry=symmetry)
    assert count_solutions_reference(made.puzzle.cells, 2) == 1
    for orbit in given_orbits(made):
        assert count_solutions_reference(without(made.puzzle, orbit).cells, 2) == 2


def naive_pass(seed: int, symmetry: str, size: int = 9) -> tuple:
    """The one-pass removal done the plain way, from the documented draws.

    The full grid comes from ``generate(full=True)``; the order from the
    third word of the seed's stream; each orbit goes when the reference
    counter still finds one solution.
    """
    rng = SplitMix64(seed)
    rng.next()  # the symmetry pick
    rng.next()  # the full grid's key
    order = permutation(SplitMix64(rng.next()), len(orbits(size, symmetry)))
    cells = list(generate(size, seed=seed, full=True).solution.cells)
    for index in order:
        orbit = orbits(size, symmetry)[index]
        kept = [cells[c] for c in orbit]
        for c in orbit:
            cells[c] = 0
        if count_solutions_reference(cells, 2) != 1:
            for c, d in zip(orbit, kept):
                cells[c] = d
    return tuple(cells)


@pytest.mark.parametrize("seed", range(2000, 2010))
def test_same_puzzle_as_the_plain_one_pass(seed):
    # The existence proofs and the grouped removals give exactly the puzzle
    # of "remove each orbit in turn if the count stays 1".
    symmetry = SYMMETRIES[seed % len(SYMMETRIES)]
    assert generate(9, seed=seed, symmetry=symmetry).puzzle.cells == naive_pass(seed, symmetry)


def test_counting_core_gives_the_same_puzzles(monkeypatch):
    # With another solver core (the C extension), removals are tested with
    # its count_solutions(limit=2) instead of the Python proofs: the same
    # puzzles. Forced here with the Python core's own count.
    cases = [(9, seed, SYMMETRIES[seed % 5], None) for seed in range(30)]
    cases += [(4, 1, "rot90", None), (6, 2, "none", None), (9, 5, "none", 40), (9, 6, "rot90", 35)]
    proved = [generate(size, seed=seed, symmetry=sym, givens=floor) for size, seed, sym, floor in cases]
    calls = [0]

    def count(grid, limit=2, *, check=None):
        calls[0] += 1
        return count_solutions(grid, limit, check=check)

    monkeypatch.setattr(generator, "_core_count", lambda: count)
    counted = [generate(size, seed=seed, symmetry=sym, givens=floor) for size, seed, sym, floor in cases]
    assert counted == proved and calls[0] > 30 * 20


@pytest.mark.parametrize("size, seeds", [(4, range(40)), (6, range(40))])
def test_small_sizes(size, seeds):
    for seed in seeds:
        for symmetry in SYMMETRIES:
            made = generate(size, seed=seed, symmetry=symmetry)
            assert (made.puzzle.box_rows, made.puzzle.box_cols) == {4: (2, 2), 6: (2, 3)}[size]
            assert verify_solution(made.puzzle, made.solution) is None
            assert count_solutions_reference(made.puzzle.cells, 2) == 1
            for orbit in given_orbits(made):
                assert count_solutions_reference(without(made.puzzle, orbit).cells, 2) == 2


def test_16x16():
    made = generate(16, seed=3, symmetry="rot180")
    assert (made.puzzle.box_rows, made.puzzle.box_cols) == (4, 4)
    assert verify_solution(made.puzzle, made.solution) is None
    assert count_solutions(made.puzzle, 2) == 1
    for orbit in given_orbits(made):
        assert count_solutions(without(made.puzzle, orbit), 2) == 2
    assert generate(16, seed=3, symmetry="rot180") == made


def test_25x25_with_a_floor():
    # Minimal 25x25 puzzles take minutes in pure Python; a floor stops sooner.
    made = generate(25, seed=4, givens=400)
    assert made.givens == 400 and not made.minimal
    assert verify_solution(made.puzzle, made.solution) is None
    assert count_solutions(made.puzzle, 2) == 1


# -- full grids ---------------------------------------------------------------


@pytest.mark.parametrize("size, count", [(4, 100), (6, 100), (9, 300), (16, 5), (25, 1)])
def test_full_grids_are_valid(size, count):
    for seed in range(count):
        made = generate(size, seed=seed, full=True)
        empty = Grid((0,) * size * size, made.puzzle.box_rows, made.puzzle.box_cols)
        assert verify_solution(empty, made.solution) is None
        assert made.puzzle == made.solution and made.givens == size * size
        assert made.symmetry == "none" and not made.minimal


def test_full_grids_differ():
    grids = {generate(9, seed=seed, full=True).solution for seed in range(300)}
    assert len(grids) == 300


def test_full_grid_is_the_puzzles_solution():
    for seed in range(20):
        assert generate(9, seed=seed, full=True).solution == generate(9, seed=seed).solution
        assert generate(9, seed=seed, symmetry="rot90").solution == generate(9, seed=seed).solution


# -- options -------------------------------------------------------------------


def test_random_symmetry_is_the_reported_one():
    picked = set()
    for seed in range(40):
        made = generate(9, seed=seed, symmetry="random")
        assert made.symmetry in RANDOM_SYMMETRIES
        picked.add(made.symmetry)
        assert generate(9, seed=seed, symmetry=made.symmetry) == made
    assert picked == set(RANDOM_SYMMETRIES)


def test_no_seed_draws_one_that_regenerates():
    made = generate(9)
    assert 0 <= made.seed < SEED_LIMIT
    assert generate(9, seed=made.seed) == made
    assert len({generate(4, full=True).seed for _ in range(20)}) == 20


def test_givens_floor():
    minimal = generate(9, seed=5)
    # a floor below the minimal puzzle changes nothing
    assert generate(9, seed=5, givens=10) == minimal
    assert generate(9, seed=5, givens=0) == minimal
    assert generate(9, seed=5, givens=minimal.givens - 1) == minimal
    # a floor at it: the same puzzle, but the orbits left untested once it
    # was reached leave minimal unproven
    at = generate(9, seed=5, givens=minimal.givens)
    assert at.puzzle == minimal.puzzle and not at.minimal
    # a floor above it stops there, on the way to the minimal puzzle
    for floor in (minimal.givens + 1, 30, 45, 80):
        made = generate(9, seed=5, givens=floor)
        assert made.givens == floor and not made.minimal
        assert made.solution == minimal.solution
        assert count_solutions_reference(made.puzzle.cells, 2) == 1
        # it holds every given of the minimal puzzle (one pass, same order)
        assert all(m == 0 or m == d for m, d in zip(minimal.puzzle.cells, made.puzzle.cells))
    full = generate(9, seed=5, givens=81)
    assert full.puzzle == minimal.solution and full.givens == 81 and not full.minimal


def test_givens_floor_with_orbits_of_four():
    for seed in range(10):
        made = generate(9, seed=seed, symmetry="rot90", givens=40)
        assert 40 <= made.givens <= 43
        assert count_solutions_reference(made.puzzle.cells, 2) == 1
        given_orbits(made)


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(size=10), "size must be 4, 6, 9, 16 or 25, not 10"),
        (dict(size="9"), "size must be an integer, not '9'"),
        (dict(size=True), "size must be an integer, not True"),
        (dict(symmetry="spiral"), "symmetry must be none, rot180, rot90, mirror, diagonal or random, not 'spiral'"),
        (dict(symmetry=None), "symmetry must be none, rot180, rot90, mirror, diagonal or random, not None"),
        (dict(seed=-1), "seed must be from 0 to 18446744073709551615, not -1"),
        (dict(seed=SEED_LIMIT), "seed must be from 0 to 18446744073709551615, not 18446744073709551616"),
        (dict(seed=1.5), "seed must be an integer, not 1.5"),
        (dict(givens=82), "givens must be from 0 to 81, not 82"),
        (dict(size=4, givens=-1), "givens must be from 0 to 16, not -1"),
        (dict(full=True, symmetry="rot180"), "symmetry applies to puzzles, not to a full grid"),
        (dict(full=True, givens=30), "givens applies to puzzles, not to a full grid"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError) as caught:
        generate(**options)
    assert str(caught.value) == message


# -- the stop hook ---------------------------------------------------------------


class Stop(Exception):
    pass


@pytest.fixture
def python_removal(monkeypatch):
    """The removal tests on the Python engine (with the C core each is one native
    count_solutions call, which calls check() once per 0.5 ms of search)."""
    monkeypatch.setattr(generator._solver, "CORE", "python")


@pytest.mark.parametrize("calls", [0, 1, 40, 200])
def test_check_stops_generation(calls, python_removal):
    seen = [0]

    def check():
        seen[0] += 1
        if seen[0] > calls:
            raise Stop

    with pytest.raises(Stop):
        generate(9, seed=0, check=check)
    assert seen[0] == calls + 1


def test_check_is_called_between_propagations(monkeypatch, python_removal):
    # How late a stop request is seen: at most two propagations (each well
    # under a millisecond for 9x9, a few for 16x16) pass between two calls.
    # Counted, not timed, so that a busy machine cannot fail it.
    for size, seed, symmetry in ((9, 0, "none"), (9, 1, "rot90"), (16, 0, "none")):
        box = {9: (3, 3), 16: (4, 4)}[size]
        engine = generator._solver_engine(Grid((0,) * size * size, *box))
        since = [0, 0, 0]  # propagations since the last check, the most seen, checks

        def propagate(s, done, check, inner=engine.propagate):
            since[0] += 1
            since[1] = max(since[1], since[0])
            return inner(s, done, check)

        def check():
            since[0] = 0
            since[2] += 1

        with pytest.MonkeyPatch.context() as patch:  # undone each round; python_removal stays
            patch.setattr(engine, "propagate", propagate)
            generate(size, seed=seed, symmetry=symmetry, check=check)
        assert since[2] > 100 and since[1] <= 2, (size, seed, since)
