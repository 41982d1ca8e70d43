"""The scheduler's decisions, driven with plain values and a made-up clock (no threads)."""

from __future__ import annotations

import pytest

from sudoku_server.net.scheduler import Refuse, Resume, Scheduler, Start
from tests.support.scheduling import drain


def test_one_connection_gets_its_jobs_in_order_in_batches_of_batch_size():
    s = Scheduler(workers=1, batch_size=3)
    s.open("a", 0.0)
    for job in range(7):
        s.submit("a", job, 0.0)
    (d,) = drain(s, 0.0)
    assert isinstance(d, Start) and d.batch.jobs == [0, 1, 2]
    s.finished(d.batch, 0.01)
    (d,) = drain(s, 0.01)
    assert d.batch.jobs == [3, 4, 5]
    s.finished(d.batch, 0.02)
    (d,) = drain(s, 0.02)
    assert d.batch.jobs == [6]
    s.finished(d.batch, 0.03)
    assert drain(s, 0.03) == []


def test_round_robin_between_connections_in_the_order_they_became_ready():
    s = Scheduler(workers=1, batch_size=1)
    for key in "abc":
        s.open(key, 0.0)
    s.submit("a", "a1", 0.0)
    s.submit("a", "a2", 0.0)
    s.submit("b", "b1", 0.0)
    s.submit("c", "c1", 0.0)
    order = []
    now = 0.0
    while True:
        d = s.next_decision(now)
        if d is None:
            break
        order.append(d.batch.jobs[0])
        now += 0.001
        s.finished(d.batch, now)
    assert order == ["a1", "b1", "c1", "a2"]


def test_a_batch_yields_only_when_its_slice_is_used_and_others_wait():
    s = Scheduler(workers=1, time_slice=0.02)
    s.open("slow", 0.0)
    s.open("easy", 0.0)
    s.submit("slow", "hopeless", 0.0)
    (d,) = drain(s, 0.0)
    slow = d.batch
    assert not s.should_yield(slow, 5.0)  # alone: it keeps the worker
    s.submit("easy", "easy1", 5.0)
    assert s.waiting
    assert s.should_yield(slow, 5.0)  # used more than its slice, someone waits
    s.pause(slow, 5.0)
    (d,) = drain(s, 5.0)
    assert isinstance(d, Start) and d.batch.jobs == ["easy1"]
    assert drain(s, 5.0) == []  # the one worker is taken
    s.finished(d.batch, 5.001)
    (d,) = drain(s, 5.001)
    assert isinstance(d, Resume) and d.batch is slow and not slow.paused
    assert not s.should_yield(slow, 5.01)  # a fresh slice


def test_queue_wait_over_the_bound_is_refused_with_its_reason():
    s = Scheduler(workers=1, queue_timeout=5.0)
    s.open("busy", 0.0)
    s.open("late", 0.0)
    s.submit("busy", "long", 0.0)
    (d,) = drain(s, 0.0)
    s.submit("late", "p1", 1.0)
    s.submit("late", "p2", 1.5)
    assert drain(s, 5.9) == []  # the worker is taken; waited 4.9 s
    assert s.refusal_due() == pytest.approx(6.0)  # when the server must ask again
    (r,) = drain(s, 6.5)  # refused while the worker is still taken
    assert isinstance(r, Refuse) and r.key == "late" and r.jobs == ["p1", "p2"]
    assert r.reason == "queue wait over 5 s"
    assert s.refusal_due() is None
    s.finished(d.batch, 6.5)
    assert drain(s, 6.5) == []


def test_budget_used_refuses_the_waiting_jobs_and_refills_over_the_window():
    s = Scheduler(workers=1, budget_seconds=10.0, budget_window=100.0)
    s.open("a", 0.0)
    s.submit("a", "p1", 0.0)
    (d,) = drain(s, 0.0)
    s.finished(d.batch, 12.0)  # used 12 s of a full bucket of 10
    assert s.budget_left("a", 12.0) == pytest.approx(-2.0)
    s.submit("a", "p2", 12.0)
    (d,) = drain(s, 12.0)
    assert isinstance(d, Refuse) and d.jobs == ["p2"]
    assert d.reason == "connection budget used (10 solver seconds per 100 s)"
    s.submit("a", "p3", 40.0)  # refilled 2.8 s: positive again
    (d,) = drain(s, 40.0)
    assert isinstance(d, Start) and d.batch.jobs == ["p3"]


def test_closing_a_connection_drops_its_queue_and_cancels_its_batch():
    s = Scheduler(workers=1, batch_size=1)
    s.open("gone", 0.0)
    s.open("other", 0.0)
    for job in ("g1", "g2", "g3"):
        s.submit("gone", job, 0.0)
    s.submit("other", "o1", 0.0)
    (d,) = drain(s, 0.0)
    running = d.batch
    assert s.close("gone") == ["g2", "g3"]
    assert running.cancelled
    s.finished(running, 0.1)  # the worker stops and reports
    (d,) = drain(s, 0.1)
    assert d.batch.jobs == ["o1"]


def test_a_paused_batch_of_a_closed_connection_is_resumed_cancelled():
    s = Scheduler(workers=1)
    s.open("a", 0.0)
    s.open("b", 0.0)
    s.submit("a", "slow", 0.0)
    (d,) = drain(s, 0.0)
    s.submit("b", "b1", 1.0)
    s.pause(d.batch, 1.0)
    (e,) = drain(s, 1.0)
    s.close("a")
    s.finished(e.batch, 1.1)
    (r,) = drain(s, 1.1)
    assert isinstance(r, Resume) and r.batch.cancelled  # so its worker ends at once
    s.finished(r.batch, 1.1)
    assert s.running == 0


def test_cut_batch_puts_its_unfinished_jobs_back_first():
    s = Scheduler(workers=1, batch_size=4)
    s.open("a", 0.0)
    for job in range(6):
        s.submit("a", job, 0.0)
    (d,) = drain(s, 0.0)
    s.finished(d.batch, 0.03, unfinished=[2, 3])
    (d,) = drain(s, 0.03)
    assert d.batch.jobs == [2, 3, 4, 5]


def test_over_budget_counts_the_running_slice_without_changing_state():
    s = Scheduler(workers=1, budget_seconds=1.0, budget_window=1000.0)
    s.open("a", 0.0)
    s.submit("a", "p1", 0.0)
    (d,) = drain(s, 0.0)
    assert not s.over_budget(d.batch, 0.5)
    assert s.over_budget(d.batch, 1.5)
    assert s.budget_left("a", 0.0) == pytest.approx(1.0)
