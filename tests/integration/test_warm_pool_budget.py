"""Warm pools (issue 32): the CPU budget as a token bucket on given times, overhead charged, shared between
workers; ``se=`` bands never evict a level's pool; the filler on trio's MockClock."""

from __future__ import annotations

import pytest
import trio

from sudoku_server.net.config import ServerConfig
from sudoku_server.net.warm import WarmFiller, warm_filler
from sudoku_server.service.requests import Generate
from sudoku_server.service.warm import DEFAULT_LEVEL_POOLS, DEFAULT_OTHER_POOLS, CpuBudget, PoolKey, WarmPools
from sudoku_server.sudoku.rating import LEVELS

# -- CpuBudget: the share of one core, on a clock the test gives ---------------


def test_the_budget_starts_full_and_refills_at_its_share_up_to_its_burst():
    budget = CpuBudget(share=0.1, burst=0.01, now=100.0)
    assert budget.tokens(100.0) == 0.01
    budget.charge(0.03)  # one check's work overshoots: a debt of 0.02 s
    assert budget.tokens(100.0) == pytest.approx(-0.02)
    assert budget.rest(100.0) == pytest.approx(0.2)  # 0.02 s of CPU at 10 % of a core
    assert budget.rest(100.1) == pytest.approx(0.1)
    assert budget.rest(100.2) == 0.0
    assert budget.tokens(200.0) == 0.01  # never more than one burst, however long it rested


def test_over_the_share_the_rest_lasts_until_the_bucket_is_full():
    budget = CpuBudget(share=0.1, burst=0.01, now=0.0)
    assert budget.rest_to_full(0.0) == 0.0  # not over the share: go on
    budget.charge(0.011)  # 1 ms over
    assert budget.rest_to_full(0.0) == pytest.approx(0.11)  # 1 ms to pay back and a whole burst of 10 ms
    assert budget.rest_to_full(0.05) == 0.0  # out of debt (a partial rest, ended early, may resume)
    assert budget.tokens(0.11) == pytest.approx(0.01)


def test_spending_whenever_the_budget_allows_keeps_the_average_to_the_share():
    """A filler that works 1 ms at a time whenever it has tokens, for 100 s: 10 s of CPU at most (10 %)."""
    budget = CpuBudget(share=0.1, burst=0.02, now=0.0)
    now, spent = 0.0, 0.0
    while now < 100.0:
        rest = budget.rest(now)
        if rest > 0:
            now += rest + 1e-9  # (a float sum may round the last bit of the debt away)
            continue
        budget.charge(0.001)  # one check's work and its overhead
        spent += 0.001
        now += 0.001
    assert spent == pytest.approx(0.1 * 100.0 + 0.02, abs=0.002)


def test_the_clock_going_backwards_gives_nothing():
    budget = CpuBudget(share=0.5, burst=1.0, now=10.0)
    budget.charge(1.0)
    assert budget.tokens(5.0) == 0.0 and budget.tokens(10.0) == 0.0 and budget.tokens(11.0) == 0.5


# -- the share divided between workers ------------------------------------------


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_each_worker_gets_the_total_share_over_n(workers):
    filler = warm_filler(ServerConfig(warm_pool_cpu=0.08, workers=workers), scheduler=None)  # type: ignore[arg-type]
    assert filler.share == pytest.approx(0.08 / workers)
    assert filler.budget is not None and filler.budget.share == pytest.approx(0.08 / workers)


def test_no_share_no_budget():
    filler = WarmFiller(WarmPools(), scheduler=None, share=0.0, time_slice=0.01, give_up=1.0)  # type: ignore[arg-type]
    assert filler.budget is None


# -- se= bands have their own room -------------------------------------------------


def test_twelve_se_bands_never_evict_a_levels_pool():
    pools = WarmPools(target=2, often=2)
    for level in LEVELS:
        pools.take(Generate(level=level))
    levels = sorted(LEVELS)
    assert [label for label, _ in pools.levels()] == levels
    bands = [(round(1.0 + 0.5 * i, 1), round(1.4 + 0.5 * i, 1)) for i in range(12)]
    for band in bands:
        for _ in range(2):  # asked often: each band gets a pool
            pools.take(Generate(se=band))
    labels = [label for label, _ in pools.levels()]
    assert [label for label in labels if not label.startswith("any_")] == levels  # every level kept
    kept = [f"any_se{low:.1f}-{high:.1f}" for low, high in bands[-DEFAULT_OTHER_POOLS:]]
    assert [label for label in labels if label.startswith("any_")] == sorted(kept)  # the last four bands
    assert DEFAULT_LEVEL_POOLS == len(LEVELS) == 5 and DEFAULT_OTHER_POOLS == 4


def test_a_band_of_a_level_is_no_plain_level_and_evicts_only_bands():
    pools = WarmPools(target=1, level_pools=1, other_pools=1, often=1)
    pools.take(Generate(level="easy"))
    pools.take(Generate(level="hard", symmetry="rot180"))
    pools.take(Generate(level="hard", givens=24))  # evicts hard_rot180, not easy
    assert [label for label, _ in pools.levels()] == ["easy", "hard_g24"]
    pools.take(Generate(level="medium"))  # a level evicts only a level
    assert [label for label, _ in pools.levels()] == ["hard_g24", "medium"]
    assert pools.wanted() in (PoolKey("medium", None), PoolKey("hard", None, "none", 24))


# -- the filler on MockClock: it rests its debt off in one sleep -------------------


class _IdleScheduler:
    idle = True
    charged_at = -1e9


class _Made(Exception):
    """Raised by the stand-in of the filler's thread: the test ends there."""


async def test_the_filler_rests_a_debt_off_in_one_sleep_on_the_mock_clock(autojump_clock, monkeypatch):
    filler = WarmFiller(WarmPools(target=4), _IdleScheduler(), share=0.1, time_slice=0.01, give_up=1.0)  # type: ignore[arg-type]
    budget = filler.budget = CpuBudget(0.1, 0.01, trio.current_time())
    budget.charge(0.51)  # 0.5 s of CPU over the bucket: 5 s of rest at 10 % of a core, and 0.1 s to refill it
    rests: list[float] = []

    def rest() -> float:
        rests.append(budget.rest_to_full(trio.current_time()))
        return rests[-1]

    async def make(*args, **kwargs):
        raise _Made(trio.current_time())

    monkeypatch.setattr(filler, "_rest", rest)
    monkeypatch.setattr(trio.to_thread, "run_sync", make)
    filler.pools.take(Generate(level="easy"))  # a pool wants a puzzle
    with pytest.raises(_Made) as made:
        await filler.run()
    assert rests == [pytest.approx(5.1), 0.0]  # the debt and a full bucket in one sleep, then work: no polling
    assert made.value.args[0] == pytest.approx(5.1)
