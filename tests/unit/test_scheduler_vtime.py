"""Issue 17: least served first. The scheduler's order by virtual time, with plain values and a made-up clock."""

from __future__ import annotations

import pytest

from sudoku_server.net.scheduler import Refuse, Resume, Scheduler, Start
from tests.support.scheduling import drain


def heavy(s: Scheduler, keys: str, now: float) -> float:
    """Each of ``keys`` opens, submits 3 jobs and runs one full slice in turn (one worker); returns the time."""
    for key in keys:
        s.open(key, now)
        for n in range(3):
            s.submit(key, f"{key}{n}", now)
    for _ in keys:
        (d,) = drain(s, now)
        now += s.time_slice
        s.finished(d.batch, now, unfinished=d.batch.jobs[1:])
    return now


def test_a_newcomer_goes_before_every_connection_that_kept_working():
    s = Scheduler(workers=1, batch_size=1, time_slice=0.02)
    now = heavy(s, "abcdefgh", 0.0)  # 8 heavy connections, 0.02 s used each
    assert [s.vtime(k) for k in "ah"] == [pytest.approx(0.0), pytest.approx(0.0)]  # came in at 0 - 0.02
    assert s.floor == pytest.approx(0.0)  # the floor starts at 0 and never decreases
    s.open("easy", now)
    s.submit("easy", "e1", now)
    assert s.vtime("easy") == pytest.approx(-0.02)  # floor - time_slice
    (d,) = drain(s, now)
    assert isinstance(d, Start) and d.batch.jobs == ["e1"]  # not behind the 8 (round robin: 8 slices)


def test_between_working_connections_the_least_served_goes_first():
    s = Scheduler(workers=1, batch_size=1, time_slice=0.02)
    for key in "ab":
        s.open(key, 0.0)
        s.submit(key, f"{key}1", 0.0)
        s.submit(key, f"{key}2", 0.0)
    (d,) = drain(s, 0.0)
    assert d.batch.jobs == ["a1"]
    s.finished(d.batch, 0.05)  # a used 0.05 s
    (d,) = drain(s, 0.05)
    assert d.batch.jobs == ["b1"]
    s.finished(d.batch, 0.051)  # b used 0.001 s: still less than a
    (d,) = drain(s, 0.051)
    assert d.batch.jobs == ["b2"]  # round robin would give a2
    s.finished(d.batch, 0.052)
    (d,) = drain(s, 0.052)
    assert d.batch.jobs == ["a2"]
    assert s.vtime("a") == pytest.approx(0.05 - 0.02)
    assert s.vtime("b") == pytest.approx(0.002 - 0.02)


def test_idleness_buys_one_slice_and_no_more():
    s = Scheduler(workers=1, batch_size=1, time_slice=0.02)
    s.open("old", 0.0)
    s.submit("old", "o1", 0.0)
    (d,) = drain(s, 0.0)
    s.finished(d.batch, 0.001)  # old is answered and goes quiet: vtime -0.02 + 0.001
    assert s.vtime("old") == pytest.approx(-0.019)
    now = heavy(s, "ab", 1.0)  # a and b: vtime 0.0 each, 2 jobs left each
    for key in "aba":  # a, then b, then a again: 1 s each
        (d,) = drain(s, now)
        assert d.batch.key == key
        now += 1.0
        s.finished(d.batch, now)
    assert s.floor == pytest.approx(1.0)  # a's virtual time when it started again
    s.submit("old", "o2", now)
    assert s.vtime("old") == pytest.approx(0.98)  # raised to floor - slice, not left at -0.019
    (d,) = drain(s, now)
    assert d.batch.jobs == ["o2"]  # before b (vtime 1.0), but its past idleness gave it one slice only


def test_a_paused_batch_queues_by_its_connections_virtual_time():
    s = Scheduler(workers=1, time_slice=0.02)
    s.open("slow", 0.0)
    s.submit("slow", "hopeless", 0.0)
    (d,) = drain(s, 0.0)
    slow = d.batch
    s.open("mid", 0.0)
    s.submit("mid", "m1", 0.0)  # came while slow ran: floor 0 - 0.02
    s.pause(slow, 0.5)  # slow used 0.5 s
    (d,) = drain(s, 0.5)
    assert isinstance(d, Start) and d.batch.jobs == ["m1"]
    s.open("late", 0.6)
    s.submit("late", "l1", 0.6)
    s.finished(d.batch, 0.7)
    (d,) = drain(s, 0.7)
    assert isinstance(d, Start) and d.batch.jobs == ["l1"]  # the newcomer before the paused batch
    s.finished(d.batch, 0.71)
    (d,) = drain(s, 0.71)
    assert isinstance(d, Resume) and d.batch is slow
    assert s.paused == 0 and not s.waiting


def test_the_wait_bound_goes_by_ready_time_not_by_virtual_time():
    s = Scheduler(workers=1, batch_size=1, time_slice=0.02, queue_timeout=5.0)
    s.open("busy", 0.0)
    s.submit("busy", "long", 0.0)
    (running,) = drain(s, 0.0)
    s.open("heavy", 0.0)
    s.submit("heavy", "h1", 1.0)
    s.open("light", 0.0)
    s.submit("light", "l1", 2.0)
    assert s.refusal_due() == pytest.approx(6.0)  # heavy became ready first
    (r,) = drain(s, 6.5)
    assert isinstance(r, Refuse) and r.key == "heavy" and r.jobs == ["h1"]
    assert s.refusal_due() == pytest.approx(7.0)
    s.finished(running.batch, 6.6)
    (d,) = drain(s, 6.6)
    assert isinstance(d, Start) and d.batch.jobs == ["l1"]


def test_a_closed_connection_leaves_the_queue():
    s = Scheduler(workers=1, batch_size=1)
    for key in "abc":
        s.open(key, 0.0)
        s.submit(key, f"{key}1", 0.0)
    s.close("a")
    s.close("b")
    (d,) = drain(s, 0.0)
    assert d.batch.jobs == ["c1"]
    s.finished(d.batch, 0.01)
    assert drain(s, 0.01) == [] and not s.waiting
