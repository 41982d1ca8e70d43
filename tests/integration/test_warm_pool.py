"""Warm pools for GENERATE by level (issue 20): what is kept, the reply's pool=yes, STATS and metrics,
an idle server staying idle, the filler's CPU share, and the filler never delaying a client."""

from __future__ import annotations

import statistics
import time

import trio

from sudoku_server.net.metrics import Counts, Metrics
from sudoku_server.net.warm import WarmFiller
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Generate
from sudoku_server.service.results import Generated
from sudoku_server.service.warm import PoolKey, WarmPools, pool_key
from sudoku_server.sudoku.variants import Variant
from sudoku_server.wire.replies import render
from tests.support.servers import connect, exchange, running_server

EASY = Generate(level="easy")


def made(level: str = "easy") -> Generated:
    result = answer(Generate(level=level, seed=1))
    assert isinstance(result, Generated)
    return result


def test_a_level_is_pooled_from_its_first_request_a_band_when_asked_often_a_seed_never():
    pools = WarmPools(target=2, often=3)
    assert pools.wanted() is None  # nobody asked: nothing to make
    assert pool_key(Generate(level="easy", seed=5)) is None and pool_key(Generate()) is None
    assert pools.take(Generate(level="easy", seed=5)) is None and pools.wanted() is None
    assert pools.take(EASY) is None  # the first request starts the pool, empty
    assert pools.wanted() == PoolKey("easy", None) and pools.levels() == [("easy", 0)]
    band = Generate(se=(7.0, 7.5))
    assert pools.take(band) is None and pools.take(band) is None and pools.levels() == [("easy", 0)]
    assert pools.take(band) is None  # the third request for the band starts its pool
    assert pools.levels() == [("any_se7.0-7.5", 0), ("easy", 0)]
    assert pools.put(PoolKey("easy", None), made()) and pools.put(PoolKey("easy", None), made())
    assert not pools.put(PoolKey("easy", None), made())  # full: bounded
    assert pools.wanted() == PoolKey(None, (7.0, 7.5))
    taken = pools.take(Generate(level="easy", format="grid"))
    assert taken is not None and taken.pooled and taken.format == "grid" and pools.served == 1
    assert pools.take(Generate(level="easy", seed=1)) is None and pools.levels()[1] == ("easy", 1)


def test_the_least_recently_asked_pool_goes_when_too_many_start():
    pools = WarmPools(target=1, level_pools=2)
    for level in ("easy", "medium", "hard"):
        pools.take(Generate(level=level))
    assert [label for label, _ in pools.levels()] == ["hard", "medium"]
    assert PoolKey("hard", None, "rot180", 24).label == "hard_rot180_g24"


def test_the_hash_line_says_pool_yes_and_nothing_else_changes():
    result = made()
    plain = render(result)
    pooled = render(Generated(result.made, result.rating, pooled=True))
    header, puzzle = plain.decode().splitlines()
    assert pooled == f"{header} pool=yes\n{puzzle}\n".encode()


def test_a_fill_yields_within_one_time_slice_of_its_own_cpu(wallclock):
    # the filler pauses in its check hook: the work between two calls bounds how late it yields
    marks: list[float] = []
    result = answer(Generate(level="hard", seed=3), check=lambda: marks.append(time.thread_time()))
    assert isinstance(result, Generated) and len(marks) > 10
    gaps = [b - a for a, b in zip(marks, marks[1:])]
    wallclock.below(max(gaps), 0.02, "the longest stretch between yields")


async def stats(server) -> dict[str, str]:
    lines = (await exchange(server, b"STATS\n")).decode().splitlines()
    return dict(line.split(" ", 2)[1:] for line in lines if line.startswith("STAT "))


async def test_an_idle_server_stays_idle(wallclock):
    with trio.fail_after(10):
        async with running_server() as server:
            await exchange(server, b"GENERATE level=easy seed=1\nGENERATE seed=2\nPING\n")
            cpu = time.process_time()
            await trio.sleep(1.0)
            cpu = time.process_time() - cpu
            values = await stats(server)
    assert server.filler.cpu_seconds == 0 and server.filler.made == 0 and server.filler.pools.levels() == []
    assert values["pool_served"] == "0" and values["pool_fill_seconds"] == "0.000"
    assert not [
        name for name in values if name.startswith("pool_") and name not in ("pool_served", "pool_fill_seconds")
    ]
    wallclock.below(cpu, 0.1, "an idle server's CPU: the event loop sleeps, nothing polls")


async def test_a_pool_fills_serves_with_pool_yes_refills_and_seeds_stay_reproducible():
    with trio.fail_after(30):
        async with running_server(warm_pool=4, warm_pool_cpu=1.0) as server:
            first = await exchange(server, b"GENERATE level=easy\n")
            assert b"pool=yes" not in first  # the first request starts the pool
            while (await stats(server)).get("pool_easy") != "4":
                await trio.sleep(0.05)
            seeded = await exchange(server, b"GENERATE level=easy seed=1\n")
            reply = (await exchange(server, b"GENERATE level=easy\nGENERATE level=easy format=grid\n")).decode()
            values = await stats(server)
            assert int(values["pool_easy"]) >= 2 and values["pool_served"] == "2"
            assert float(values["pool_fill_seconds"]) > 0
            metrics = server.metrics.exposition().decode()
            while (await stats(server)).get("pool_easy") != "4":  # refilled after each use
                await trio.sleep(0.05)
    assert seeded == render(made())  # the same bytes as without pools
    lines = reply.splitlines()
    assert lines[0].startswith("# generated size=9 ") and " level=easy se=" in lines[0]
    assert lines[0].endswith(" pool=yes") and lines[0].count("=") == 8
    assert len(lines[1]) == 81 and lines[2].endswith(" pool=yes") and lines[3].startswith("+---")
    assert 'sudoku_warm_pool_puzzles{pool="easy"}' in metrics and "sudoku_warm_pool_served_total 2.0" in metrics


async def test_filling_keeps_to_its_cpu_share(wallclock):
    with trio.fail_after(20):
        async with running_server(warm_pool=32, warm_pool_cpu=0.05) as server:
            await exchange(server, b"GENERATE level=expert\n")
            started = time.monotonic()
            await trio.sleep(2.0)
            wall = time.monotonic() - started
            used = server.filler.cpu_seconds
    # the share over the wall time, plus the one time slice the bucket holds and one check's work
    assert used > 0, (used, wall)
    wallclock.at_most(used, 0.05 * wall + 0.02 + 0.02, f"the filler's CPU in {wall:.2f} s of wall time")


async def test_the_filler_never_delays_a_client(wallclock):
    puzzle = b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    with trio.fail_after(30):
        async with running_server(warm_pool=32, warm_pool_cpu=1.0) as server:
            filler: WarmFiller = server.filler
            await exchange(server, b"GENERATE level=extreme\n")
            while filler.cpu_seconds == 0:
                await trio.sleep(0.01)
            stream = await connect(server)
            times = []
            async with stream:
                await stream.send_all(b"KEEPALIVE\n")
                await stream.receive_some(4096)
                for _ in range(40):
                    # the filler gets going again between requests (waited for, not slept: a busy
                    # machine may take longer than any fixed pause to resume its thread)
                    resumed_from = filler.cpu_seconds
                    while filler.cpu_seconds == resumed_from:
                        await trio.sleep(0.005)
                    await trio.sleep(0.01)  # and into its search, past the pause's bookkeeping
                    sent = time.perf_counter()
                    await stream.send_all(b"COUNT " + puzzle + b"\n")
                    data = b""
                    while not data.endswith(b"\n"):
                        data += await stream.receive_some(4096)
                    times.append(time.perf_counter() - sent)
                    assert data == b"COUNT 1 unique\n"
            yields = filler.yields
    # requests found the filler running (share 1.0, a long extreme search) and paused it: on a quiet
    # machine about 40 of 40, beside two busy processes 17 of 40 (the filler's thread gets too little
    # CPU to reach its next check within the pause); 0 if it never paused
    assert yields >= 8, yields
    # a COUNT of this puzzle takes about 1 ms; the filler adds at most one check's work (bounds for a noisy CI)
    wallclock.below(statistics.median(times), 0.02, "the median answer beside the filler")
    wallclock.below(max(times), 0.1, "the slowest answer beside the filler")


def test_a_variant_request_is_never_answered_from_the_classic_pool():
    """``GENERATE rules=x level=hard`` has no pool: a classic puzzle would break its rules."""
    from sudoku_server.service.requests import Generate
    from sudoku_server.service.warm import pool_key

    assert pool_key(Generate(level="hard")) is not None
    assert pool_key(Generate(level="hard", variant=Variant(("x",)))) is None


def test_an_evicted_pool_leaves_stats_and_the_metrics():
    pools = WarmPools(target=1, level_pools=2)
    metrics = Metrics(Counts(), lambda: (0, 0, 0, 0), lambda: (pools.levels(), pools.served, 0.0))
    pools.take(Generate(level="easy"))
    pools.take(Generate(level="medium"))
    assert metrics.totals()["pools"] == {"easy": 0, "medium": 0}
    pools.take(Generate(level="hard"))  # a third pool: easy, the least recently asked, goes
    assert metrics.totals()["pools"] == {"hard": 0, "medium": 0}
    text = metrics.exposition().decode()
    assert 'pool="hard"' in text and 'pool="medium"' in text and 'pool="easy"' not in text
    pools.take(Generate(level="easy"))  # asked again: back, and medium goes
    assert metrics.totals()["pools"] == {"easy": 0, "hard": 0}
