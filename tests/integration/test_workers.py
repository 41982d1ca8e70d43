"""--workers N (issue 13): the pre-fork supervisor, its restarts, stops and rolling restarts."""

from __future__ import annotations

import os
import re
import signal
import socket
import threading
import time

import pytest

from tests.support.workers import GOOD, GOOD_ANSWER, Supervised


def worker_pids(server: Supervised) -> list:
    return [int(pid) for pid in re.findall(r"worker (\d+) ready", server.log)]


def run_clients(server: Supervised, count: int, threads: int = 20) -> list:
    """``count`` connections, ``threads`` at a time, each asking GOOD; returns the answers (or errors)."""
    results = []
    lock = threading.Lock()
    todo = list(range(count))

    def client():
        while True:
            with lock:
                if not todo:
                    return
                todo.pop()
            try:
                answer = server.ask()
            except OSError as error:
                answer = error
            with lock:
                results.append(answer)

    pool = [threading.Thread(target=client) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(60)
    return results


def test_two_workers_answer_200_connections(supervised):
    server = supervised("--workers", "2")
    server.wait_for(r"worker \d+ ready", 2)
    results = run_clients(server, 200)
    assert results.count(GOOD_ANSWER) == 200
    time.sleep(0.7)  # each worker copies its counters into the shared metrics twice a second
    stats = server.ask(b"STATS\n").decode()
    assert "STAT workers 2\n" in stats
    total = int(re.search(r"STAT connections_total (\d+)", stats).group(1))
    assert total == 201  # counted over both workers (this STATS included)
    closed = re.findall(r"(\d+-\d+-\d+ [\d:,]+) INFO \[\d+\] 127\.0\.0\.1:\d+ closed", server.log)
    assert len(closed) >= 150  # both workers log


def test_a_killed_worker_is_restarted_and_the_other_keeps_serving(supervised):
    server = supervised("--workers", "2")
    first, second = server.wait_for(r"worker (\d+) ready", 2)
    os.kill(int(first), signal.SIGKILL)
    results = run_clients(server, 100)
    assert results.count(GOOD_ANSWER) == 100  # the other worker (and then the new one) answer
    server.wait_for(rf"worker {first} died \(signal SIGKILL\) after [\d.]+ s: restarting it in 0.5 s")
    pids = server.wait_for(r"worker (\d+) ready", 3)
    assert len(set(pids)) == 3


def test_sigterm_every_worker_drains_and_every_puzzle_is_answered(supervised, wallclock):
    server = supervised("--workers", "2", "--drain-grace", "0.5")
    server.wait_for(r"worker \d+ ready", 2)
    socks = []
    for _ in range(10):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(GOOD * 50)
        socks.append(sock)
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    # The supervisor passes the signal on; once both workers say they drain, a PING must say so.
    server.wait_for(r"draining for 0.5 s", 2)
    assert server.ask(b"PING\n") == b"ERROR draining server shutting down, use another\n"
    for sock in socks:
        with sock:
            assert sock.makefile("rb").read() == GOOD_ANSWER * 50
    assert server.proc.wait(timeout=15) == 0
    wallclock.below(time.monotonic() - started, 0.5 + 5 + 1, "drain grace + shutdown grace + 1 s")
    assert len(re.findall(r"worker \d+ stopped \(exit status 0\)", server.log)) == 2


def test_sighup_restarts_the_workers_one_by_one_without_refusing_a_connection(supervised):
    server = supervised("--workers", "2")
    old = server.wait_for(r"worker (\d+) ready", 2)
    stop = threading.Event()
    results = []

    def keep_asking():
        while not stop.is_set():
            try:
                results.append(server.ask())
            except OSError as error:
                results.append(error)

    asker = threading.Thread(target=keep_asking)
    asker.start()
    time.sleep(0.3)
    server.proc.send_signal(signal.SIGHUP)
    for pid in old:
        server.wait_for(rf"worker {pid} stopped")
    time.sleep(0.3)
    stop.set()
    asker.join(20)
    new = [pid for pid in server.wait_for(r"worker (\d+) ready", 4) if pid not in old]
    assert len(new) == 2
    assert results and all(answer == GOOD_ANSWER for answer in results), set(map(repr, results))


# -- found by the deployment work -------------------------------------------------

HELD_25X25 = b"." * 625 + b"\n"  # an empty 25x25 grid: its worker solves until the shutdown grace ends


def test_after_the_drain_a_supervised_server_refuses_new_connections(supervised):
    server = supervised("--workers", "2", "--drain-grace", "0.5", "--shutdown-grace", "3")
    server.wait_for(r"worker \d+ ready", 2)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as held:
        held.sendall(HELD_25X25)  # keeps one worker (and so the supervisor) running through the shutdown grace
        time.sleep(0.3)
        server.proc.send_signal(signal.SIGTERM)
        server.wait_for(r"stopped accepting", 2)  # both workers: the drain grace is over
        time.sleep(0.2)
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()


def test_ctrl_c_on_a_supervised_server_drains_like_sigterm(supervised):
    server = supervised("--workers", "2", "--drain-grace", "2")
    server.wait_for(r"worker \d+ ready", 2)
    os.killpg(server.proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
    time.sleep(0.3)
    assert server.ask(b"PING\n", timeout=5) == b"ERROR draining server shutting down, use another\n"


def test_workers_1_runs_the_supervisor_so_sighup_restarts_instead_of_stopping(supervised):
    server = supervised("--workers", "1")
    (old,) = server.wait_for(r"worker (\d+) ready", 1)
    server.proc.send_signal(signal.SIGHUP)
    server.wait_for(rf"worker {old} stopped")
    assert len(set(server.wait_for(r"worker (\d+) ready", 2))) == 2
    assert server.proc.poll() is None
    assert server.ask() == GOOD_ANSWER
