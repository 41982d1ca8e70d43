"""Limits and what they count: a refusal at the connection limit or the per-address cap counts as rejected,
a full server still answers every health-check verb, the metrics port's name filter, a metrics port in use
named, solve-time percentiles within the solving time.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import trio

from tests.support.examples import (
    GOOD,
    GOOD_ANSWER,
)
from tests.support.paths import REPO
from tests.support.servers import connect, exchange, running_server, stat_values


async def wait_for(predicate, seconds: float = 5) -> None:
    with trio.fail_after(seconds):
        while not predicate():
            await trio.sleep(0.01)


async def test_a_refusal_at_the_connection_limit_counts_as_rejected():
    with trio.fail_after(10):
        async with running_server(max_connections=1) as server:
            held = await connect(server)
            await held.send_all(b"# waiting\n")
            await wait_for(lambda: len(server.connections) == 1)
            assert await exchange(server, GOOD) == b"ERROR busy 1 connection open, try again later\n"
            await held.aclose()
            await wait_for(lambda: not server.connections)
            values = stat_values(await exchange(server, b"STATS\n"))
    assert values["connections_rejected"] == "1"


async def test_a_refusal_by_the_per_address_cap_counts_as_rejected():
    with trio.fail_after(10):
        async with running_server(max_connections_per_ip=1) as server:
            held = await connect(server)
            await held.send_all(b"# waiting\n")
            await wait_for(lambda: len(server.connections) == 1)
            assert await exchange(server, GOOD) == b"ERROR busy 1 connection open from 127.0.0.1, try again later\n"
            await held.aclose()
            await wait_for(lambda: not server.connections)
            values = stat_values(await exchange(server, b"STATS\n"))
    assert (values["connections_rejected"], values["connections_total"]) == ("1", "2")


async def until_the_server_half_closes(stream: trio.SocketStream) -> bytes:
    """What the server sends until its EOF; the stream stays open (a client that closes lazily)."""
    data = b""
    while chunk := await stream.receive_some(65536):
        data += chunk
    return data


async def test_a_session_the_server_ended_holds_no_place_under_the_per_address_cap(fake_clock):
    # s10-break finding 8: the first client reads PONG and the server's EOF (close grace), but keeps its socket
    # open; the server lingers on it for up to 2 s. Its address's place is free all the same.
    with trio.fail_after(10):
        async with running_server(max_connections_per_ip=1) as server:
            first = await connect(server)
            async with first:
                await first.send_all(b"PING\n")
                assert await until_the_server_half_closes(first) == b"PONG\n"
                assert len(server.connections) == 1  # still lingering
                second = await exchange(server, b"PING\n")
    assert second == b"PONG\n"


async def test_behind_proxy_protocol_an_ended_session_holds_no_place_for_the_balancer(fake_clock):
    # Health checks one after another (PROXY UNKNOWN: the balancer's own address counts), the first lingering.
    with trio.fail_after(10):
        async with running_server(
            max_connections_per_ip=1, proxy_protocol=True, trusted_proxies=(ipaddress.ip_network("127.0.0.1/32"),)
        ) as server:
            first = await connect(server)
            async with first:
                await first.send_all(b"PROXY UNKNOWN\r\nPING\n")
                assert await until_the_server_half_closes(first) == b"PONG\n"
                second = await exchange(server, b"PROXY UNKNOWN\r\nPING\n")
    assert second == b"PONG\n"


async def test_a_full_server_still_answers_every_health_check_verb():
    # docs/OPERATIONS.md: "8 more are kept for `PING`"; VERSION, HELP, STATS and QUIT are allowed too,
    # and a puzzle after them gets the busy line.
    with trio.fail_after(10):
        async with running_server(max_connections=1) as server:
            held = await connect(server)
            await held.send_all(b"# waiting\n")
            await wait_for(lambda: len(server.connections) == 1)
            version = await exchange(server, b"VERSION\n")
            help_ping = await exchange(server, b"HELP PING\n")
            stats = await exchange(server, b"STATS\n")
            quit_ = await exchange(server, b"PING\nQUIT\n")
            busy = await exchange(server, b"PING\n" + GOOD + b"PING\n")
            await held.aclose()
    assert re.fullmatch(rb"VERSION sudoku-server 0\.3\.0 protocol=2 core=(python|native)\n", version)
    assert help_ping == b"HELP PING\n  health check, answered without the solver\n  example: PING -> PONG\nEND\n"
    assert stat_values(stats)["connections_current"] == "2"
    assert quit_ == b"PONG\nBYE\n"
    assert busy == b"PONG\nERROR busy 1 connection open, try again later\n"


async def test_metrics_name_filter_is_served():
    from sudoku_server.app.runtime import start_metrics_http

    with trio.fail_after(10):
        async with running_server() as server:
            http = start_metrics_http(server.metrics, "127.0.0.1", 0)
            url = f"http://127.0.0.1:{http.server_address[1]}/metrics?name[]=sudoku_connections_total"

            def scrape():
                try:
                    with urllib.request.urlopen(url, timeout=5) as response:
                        return response.status, response.read().decode()
                except urllib.error.HTTPError as error:
                    return error.code, error.read().decode()

            try:
                status, text = await trio.to_thread.run_sync(scrape)
            finally:
                http.shutdown()
                http.server_close()
    assert status == 200, text
    assert "sudoku_connections_total 0.0" in text and "sudoku_queued" not in text


def test_a_metrics_port_in_use_is_named():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    metrics_port = taken.getsockname()[1]
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "sudoku_server",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--metrics-port",
                str(metrics_port),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        taken.close()
    assert result.returncode == 1
    assert re.search(rf"ERROR .*cannot listen on .*port {metrics_port}: Address already in use", result.stderr), (
        result.stderr
    )
    assert "choose another with --port)" not in result.stderr


async def test_solve_time_percentiles_do_not_exceed_the_solving_time():
    def steady(grid, *, check):
        from sudoku_server import solve

        end = time.monotonic() + 0.105
        while time.monotonic() < end:
            check()
            time.sleep(0.005)
        return solve(grid, check=check)

    with trio.fail_after(10):
        async with running_server(solve=steady) as server:
            assert await exchange(server, GOOD) == GOOD_ANSWER
            values = stat_values(await exchange(server, b"STATS\n"))
    total_ms = float(values["solver_seconds"]) * 1000
    seen = (values["solver_seconds"], values["solve_ms_p50"], values["solve_ms_p99"])
    assert float(values["solve_ms_p50"]) <= total_ms * 1.05, seen
    assert float(values["solve_ms_p99"]) <= total_ms * 1.05, seen
