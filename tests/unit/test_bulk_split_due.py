"""When a bulk job splits at a puzzle searched alone that turned slow (``net.pool._BulkRun._split_due``, issue 29,
eleventh session): only when it helps. A split hands the answers done over and gives the puzzles after it back to
the scheduler, through the event loop (a hop each way, a batch more); with both workers busy and no one else waiting
it bought nothing, and little killer's bulks split at about every fifth puzzle (a search past 2 ms)."""

from __future__ import annotations

from types import SimpleNamespace

from sudoku_server.net import pool
from sudoku_server.net.scheduler import Scheduler
from tests.support.scheduling import drain


def _bulk_run(scheduler: Scheduler, batch: object, started: float) -> pool._BulkRun:
    run = SimpleNamespace(pool=SimpleNamespace(scheduler=scheduler), batch=batch, time_slice=0.02)
    bulk = pool._BulkRun.__new__(pool._BulkRun)  # (no job: only the split rule is asked)
    bulk.batch_run = run  # type: ignore[assignment]
    bulk.started = started
    return bulk


def test_a_bulk_splits_at_a_slow_puzzle_only_when_a_worker_idles_someone_waits_or_a_slice_passed():
    s = Scheduler(workers=2, batch_size=32)
    s.open("a", 0.0)
    s.submit("a", "bulk1", 0.0)
    s.submit("a", "bulk2", 0.0)
    first, second = drain(s, 0.0)
    bulk = _bulk_run(s, first.batch, 0.0)
    assert not bulk._split_due(0.005)  # both workers busy, nobody waits: the bulk goes on
    assert bulk._split_due(0.020)  # a time slice of answers held: handed over
    s.finished(second.batch, 0.006)
    assert bulk._split_due(0.006)  # the other worker idles with nothing to take: the rest is its work
    s.open("b", 0.007)
    s.submit("b", "other", 0.007)
    (third,) = drain(s, 0.007)
    assert third.batch.key == "b" and not bulk._split_due(0.008)  # b took the free worker
    s.open("c", 0.008)
    s.submit("c", "more", 0.008)
    assert s.waiting and bulk._split_due(0.008)  # c waits for a worker: the bulk's batch must yield
