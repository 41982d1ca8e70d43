"""Issue 29: a free worker is not left idle. Extra batches of one connection while no one else waits, with plain
values and a made-up clock (no threads)."""

from __future__ import annotations

import pytest

from sudoku_server.net.scheduler import Resume, Scheduler, Start
from sudoku_server.net.window import WINDOW_BYTES, ReplyWindow, Slot
from tests.support.scheduling import drain


def test_a_pipelining_connection_alone_takes_both_workers_with_its_share_of_the_queue_each():
    s = Scheduler(workers=2, batch_size=32)
    s.open("a", 0.0)
    for job in range(7):
        s.submit("a", job, 0.0)
    first, extra = drain(s, 0.0)
    assert isinstance(first, Start) and first.batch.jobs == [0, 1, 2, 3]  # 7 jobs over 2 free workers
    # the extra batch takes its share too: the 3 left over the free worker and the batch running, which comes
    # back for the rest when it ends first
    assert isinstance(extra, Start) and extra.batch.jobs == [4, 5]
    assert not first.batch.extra and extra.batch.extra
    assert s.queued_jobs == 1
    assert s.running == 2 and not s.waiting  # an extra batch is no waiter: nobody yields to it
    assert not s.should_yield(first.batch, 5.0) and not s.should_yield(extra.batch, 5.0)


def test_jobs_that_come_while_its_batch_runs_start_on_the_free_worker():
    s = Scheduler(workers=2, batch_size=32)
    s.open("a", 0.0)
    s.submit("a", "bulk1", 0.0)
    (d,) = drain(s, 0.0)
    assert d.batch.jobs == ["bulk1"]
    s.submit("a", "bulk2", 0.001)
    s.submit("a", "bulk3", 0.001)
    (e,) = drain(s, 0.001)  # one worker free: its share, the other half for the worker that frees first
    assert isinstance(e, Start) and e.batch.jobs == ["bulk2"] and e.batch.extra
    s.submit("a", "bulk4", 0.002)
    assert drain(s, 0.002) == []  # both workers are taken
    s.finished(e.batch, 0.010)  # the later batch ends first
    (f,) = drain(s, 0.010)
    assert f.batch.jobs == ["bulk3"] and f.batch.extra  # the first batch still runs: half of what waits
    s.finished(f.batch, 0.011)
    (g,) = drain(s, 0.011)
    assert g.batch.jobs == ["bulk4"] and g.batch.extra
    s.finished(g.batch, 0.012)
    s.finished(d.batch, 0.013)
    assert drain(s, 0.013) == [] and s.idle


def test_shares_count_a_bulk_jobs_puzzles():
    s = Scheduler(workers=2, batch_size=32, weight=lambda job: job[1])
    s.open("a", 0.0)
    for job in [("b1", 32), ("b2", 31), ("one", 1)]:
        s.submit("a", job, 0.0)
    first, extra = drain(s, 0.0)
    assert first.batch.jobs == [("b1", 32)]  # 64 puzzles over 2 workers: not 2 jobs of 3 (63 puzzles)
    assert extra.batch.jobs == [("b2", 31)] and s.queued_jobs == 1


def test_every_batch_is_charged_to_the_budget_and_the_virtual_time():
    s = Scheduler(workers=2, budget_seconds=10.0, budget_window=0.0)
    s.open("a", 0.0)
    s.submit("a", "p1", 0.0)
    s.submit("a", "p2", 0.0)
    assert s.vtime("a") == pytest.approx(-0.02)  # a newcomer: floor (0) - time_slice
    first, extra = drain(s, 0.0)
    s.finished(first.batch, 0.25)
    s.finished(extra.batch, 0.5)
    assert s.vtime("a") == pytest.approx(-0.02 + 0.75)
    assert s.budget_left("a", 0.5) == pytest.approx(9.25)


def test_a_newcomer_ends_the_extra_batch_between_jobs_and_takes_its_worker():
    s = Scheduler(workers=2, batch_size=32, time_slice=0.02)
    s.open("a", 0.0)
    for job in range(8):
        s.submit("a", f"a{job}", 0.0)
    first, extra = drain(s, 0.0)
    s.open("b", 0.005)
    s.submit("b", "b1", 0.005)
    assert s.waiting
    assert s.should_yield(extra.batch, 0.005)  # at once, between jobs: not at the end of its slice
    assert not s.should_pause(extra.batch, 0.005)  # in the middle of a job: at the end of its slice
    assert s.should_pause(extra.batch, 0.02)
    assert not s.should_yield(first.batch, 0.005)  # the first batch keeps its slice, as every batch
    assert s.should_yield(first.batch, 0.02)
    assert extra.batch.jobs == ["a4", "a5"]  # its share of the 4 left
    s.finished(extra.batch, 0.006, unfinished=["a5"])  # it ran a4
    (d,) = drain(s, 0.006)
    assert isinstance(d, Start) and d.batch.key == "b" and d.batch.jobs == ["b1"]
    s.finished(d.batch, 0.007)
    # b is answered and nothing waits: a's jobs cut off start beside its first batch again, its share of them
    (e,) = drain(s, 0.007)
    assert e.batch.key == "a" and e.batch.jobs == ["a5", "a6"] and e.batch.extra


def test_a_connection_queues_again_when_its_last_batch_ends_while_another_waits():
    s = Scheduler(workers=2, batch_size=32, time_slice=0.02)
    for key in "ab":
        s.open(key, 0.0)
    for job in range(4):
        s.submit("a", f"a{job}", 0.0)
    first, extra = drain(s, 0.0)
    assert first.batch.jobs == ["a0", "a1"] and extra.batch.jobs == ["a2"]  # a3 waits for the first worker free
    s.submit("b", "b1", 0.001)
    s.submit("b", "b2", 0.001)
    s.finished(extra.batch, 0.001)  # ran a2
    (d,) = drain(s, 0.001)
    assert d.batch.key == "b" and d.batch.jobs == ["b1", "b2"]  # others wait: no share, the usual batch
    s.finished(first.batch, 0.03, unfinished=["a1"])  # its slice is used and... nobody waits now
    (e,) = drain(s, 0.03)
    assert e.batch.key == "a" and e.batch.jobs == ["a1", "a3"] and not e.batch.extra


def test_no_extra_batch_while_a_paused_batch_waits_for_a_worker():
    s = Scheduler(workers=2, batch_size=1, time_slice=0.02)
    for key in "ab":
        s.open(key, 0.0)
    s.submit("a", "slow", 0.0)
    s.submit("b", "b-slow", 0.0)
    a, b = drain(s, 0.0)
    s.submit("a", "a2", 0.01)
    assert drain(s, 0.01) == []  # both workers are taken
    s.open("c", 0.5)
    s.submit("c", "c1", 0.5)
    s.pause(b.batch, 0.5)  # b's long job pauses for c
    (c,) = drain(s, 0.5)
    assert c.batch.key == "c"
    s.finished(c.batch, 0.51)
    (r,) = drain(s, 0.51)
    assert isinstance(r, Resume) and r.batch is b.batch  # the paused batch first, no extra batch of a


def test_a_held_connection_gets_no_extra_batch_until_released():
    s = Scheduler(workers=2, batch_size=1)
    s.open("a", 0.0)
    s.submit("a", "p1", 0.0)
    (d,) = drain(s, 0.0)
    s.hold("a")
    s.submit("a", "p2", 0.001)
    assert drain(s, 0.001) == []
    s.release("a", 0.002)
    (e,) = drain(s, 0.002)
    assert e.batch.jobs == ["p2"] and e.batch.extra


def test_a_connection_whose_budget_is_used_gets_no_extra_batch():
    s = Scheduler(workers=2, budget_seconds=1.0, budget_window=0.0)
    s.open("a", 0.0)
    s.submit("a", "p1", 0.0)
    (d,) = drain(s, 0.0)
    s.charge("a", 1.5, 0.0)  # solved inline past its budget
    s.submit("a", "p2", 0.001)
    assert drain(s, 0.001) == []
    s.finished(d.batch, 0.002)
    (r,) = drain(s, 0.002)  # its turn: refused, as a connection's jobs always are
    assert r.jobs == ["p2"] and r.budget


def test_closing_cancels_every_batch_of_the_connection():
    s = Scheduler(workers=2)
    s.open("a", 0.0)
    s.submit("a", "p1", 0.0)
    s.submit("a", "p2", 0.0)
    s.submit("a", "p3", 0.0)
    first, extra = drain(s, 0.0)
    assert s.close("a") == []
    assert first.batch.cancelled and extra.batch.cancelled
    s.finished(extra.batch, 0.1)
    s.finished(first.batch, 0.1)
    assert s.running == 0 and s.idle


def test_the_reply_window_sends_answers_done_out_of_order_in_request_order():
    window = ReplyWindow(on_full=lambda: None)
    first, second = Slot(), Slot(count=2)
    window.append(first)
    window.append(second)
    window.fill(second, b"2\n3\n")  # the extra batch ended first
    assert not window.head_ready()
    window.fill(first, b"1\n")
    assert window.take_ready() == (b"1\n2\n3\n", 3)


def test_replies_behind_one_not_known_yet_do_not_fill_the_window():
    held = []
    window = ReplyWindow(on_full=lambda: held.append(True))
    first, second = Slot(), Slot()
    window.append(first)
    window.append(second)
    window.fill(second, b"x" * WINDOW_BYTES)  # the extra batch's reply: it waits for the first, not the client
    assert window.blocked() == WINDOW_BYTES
    assert not window.bytes_full and not window.output_full() and not window.full and held == []
    assert window.output_full(extra=WINDOW_BYTES)  # the first batch's own answers, not handed over yet, count
    window.fill(first, b"1\n")  # now the client may read them all: a client that does not read is held
    assert window.blocked() == 0 and window.bytes_full and held == [True]


def test_no_extra_batch_after_one_was_cut_for_a_full_window_until_a_batch_ends_otherwise():
    s = Scheduler(workers=2, batch_size=32)
    s.open("a", 0.0)
    for job in range(6):
        s.submit("a", f"a{job}", 0.0)
    first, extra = drain(s, 0.0)
    assert extra.batch.jobs == ["a3", "a4"]  # (a5 waits)
    extra.batch.cut_full = True  # its replies, done ahead of the first batch's, filled the window
    s.finished(extra.batch, 0.01, unfinished=["a4"])
    assert drain(s, 0.01) == []  # a worker is free, but nothing more is computed ahead
    s.finished(first.batch, 0.02)  # the first batch ended with all its jobs
    d, e = drain(s, 0.02)
    assert d.batch.jobs == ["a4"] and not d.batch.extra  # its share: the other worker takes a5
    assert e.batch.jobs == ["a5"] and e.batch.extra


def test_only_jobs_that_may_run_beside_another_go_in_an_extra_batch():
    s = Scheduler(workers=2, batch_size=32, parallel=lambda job: job.startswith("solve"))
    s.open("a", 0.0)
    s.submit("a", "solve1", 0.0)
    (d,) = drain(s, 0.0)
    s.submit("a", "rate1", 0.001)
    assert drain(s, 0.001) == []  # a RATE (Python) does not start beside the connection's batch
    s.submit("a", "solve2", 0.001)
    assert drain(s, 0.001) == []  # nor the jobs behind it: the queue is taken from its front
    s.finished(d.batch, 0.002)
    s.submit("a", "solve3", 0.002)
    s.submit("a", "rate2", 0.002)
    e, f = drain(s, 0.002)  # its share (2 of 4), then the run of SOLVEs after it, up to the next RATE
    assert e.batch.jobs == ["rate1", "solve2"] and not e.batch.extra
    assert f.batch.jobs == ["solve3"] and f.batch.extra
    assert drain(s, 0.002) == []


def test_jobs_given_back_by_a_running_batch_start_on_the_free_worker_while_it_runs():
    # a bulk job split at a slow puzzle: its worker goes on with the slow one; the rest is free to take now
    s = Scheduler(workers=2, batch_size=32)
    s.open("a", 0.0)
    s.submit("a", "bulk", 0.0)
    (d,) = drain(s, 0.0)
    assert d.batch.jobs == ["bulk"]
    s.give_back(d.batch, ["rest1", "rest2"], 0.001)
    (e,) = drain(s, 0.001)
    assert isinstance(e, Start) and e.batch.jobs == ["rest1"] and e.batch.extra  # its share
    s.finished(e.batch, 0.002)
    (f,) = drain(s, 0.002)
    assert f.batch.jobs == ["rest2"]
    s.finished(f.batch, 0.0025)
    s.finished(d.batch, 0.003)
    assert drain(s, 0.003) == [] and s.idle


def test_jobs_given_back_go_before_the_queued_ones_and_wait_their_turn_while_others_wait():
    s = Scheduler(workers=2, batch_size=32, time_slice=0.02)
    for key in "ab":
        s.open(key, 0.0)
    s.submit("a", "bulk", 0.0)
    s.submit("b", "b-slow", 0.0)
    a, b = drain(s, 0.0)
    s.submit("a", "later", 0.001)
    s.open("c", 0.001)
    s.submit("c", "c1", 0.001)  # c waits: no extra batch for a
    s.give_back(a.batch, ["rest"], 0.002)
    assert drain(s, 0.002) == []
    s.finished(b.batch, 0.003)
    (c,) = drain(s, 0.003)
    assert c.batch.key == "c"
    s.finished(a.batch, 0.004)
    s.finished(c.batch, 0.005)
    d, e = drain(s, 0.005)  # two free workers: a's queue shared between them, the given-back job first
    assert d.batch.key == e.batch.key == "a" and d.batch.jobs + e.batch.jobs == ["rest", "later"]


def test_jobs_given_back_after_the_connection_closed_are_dropped():
    s = Scheduler(workers=2)
    s.open("a", 0.0)
    s.submit("a", "bulk", 0.0)
    (d,) = drain(s, 0.0)
    assert s.close("a") == [] and d.batch.cancelled
    s.give_back(d.batch, ["rest"], 0.001)
    s.finished(d.batch, 0.002)
    assert drain(s, 0.002) == [] and s.queued_jobs == 0


def test_starving_says_a_worker_is_free_with_nothing_to_take():
    s = Scheduler(workers=2, batch_size=32)
    s.open("a", 0.0)
    s.open("b", 0.0)
    assert s.starving("a")  # nothing runs, nothing waits
    s.submit("a", "bulk1", 0.0)
    assert not s.starving("a")  # a job waits for the free workers
    (d,) = drain(s, 0.0)
    assert s.running == 1 and s.starving("a")  # a's one batch runs; the other worker has nothing to take
    s.submit("a", "bulk2", 0.001)
    assert not s.starving("a")  # a's own job waits (its extra batch starts on the free worker)
    (e,) = drain(s, 0.001)
    assert s.running == 2 and not s.starving("a")  # both workers are taken
    s.finished(e.batch, 0.002)
    assert s.starving("a")
    s.submit("b", "other", 0.003)
    assert not s.starving("a") and not s.starving("b")  # b waits: the free worker takes it
    s.finished(d.batch, 0.004)
