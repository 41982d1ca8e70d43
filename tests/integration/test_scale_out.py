"""Behind a load balancer (issue 13): PROXY headers, per-address cap, PING reserve, drain, metrics."""

from __future__ import annotations

import ipaddress
import struct
import urllib.request

import pytest
import trio

from sudoku_server.wire.proxy import V2_SIGNATURE
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.servers import connect, exchange, running_server

GOOD = (NEWSPAPER_LINE + "\n").encode()
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
V1 = b"PROXY TCP4 192.0.2.10 198.51.100.1 56324 9999\r\n"
V2 = V2_SIGNATURE + b"\x21\x11\x00\x0c" + bytes([192, 0, 2, 11, 198, 51, 100, 1]) + struct.pack("!HH", 40000, 9999)
V2_LOCAL = V2_SIGNATURE + b"\x20\x00\x00\x00"
#: The test's connections come from loopback: the proxy they stand for (issue 17: --trusted-proxy).
LOOPBACK = (ipaddress.ip_network("127.0.0.1/32"),)


@pytest.mark.parametrize("header", [V1, V2, V2_LOCAL], ids=["v1", "v2", "v2-local"])
async def test_proxy_header_accepted_with_the_option(header, caplog):
    caplog.set_level("INFO", logger="sudoku_server")
    with trio.fail_after(10):
        async with running_server(proxy_protocol=True, trusted_proxies=LOOPBACK) as server:
            answer = await exchange(server, header + GOOD)
            await trio.sleep(0.1)
    assert answer == GOOD_ANSWER
    closed = [r.getMessage() for r in caplog.records if " closed: " in r.getMessage()]
    expected = {
        V1: "192.0.2.10:56324 via 127.0.0.1 closed: 1 puzzle(s)",
        V2: "192.0.2.11:40000 via 127.0.0.1 closed: 1 puzzle(s)",
        V2_LOCAL: "127.0.0.1:",
    }[header]
    assert len(closed) == 1 and closed[0].startswith(expected), closed


async def test_without_the_option_a_proxy_header_is_just_a_bad_line():
    with trio.fail_after(10):
        async with running_server() as server:
            answer = await exchange(server, V1 + GOOD)
    assert answer == b'ERROR command unknown verb "PROXY"; try HELP\r\n' + GOOD_ANSWER


async def test_with_the_option_a_connection_without_a_header_is_closed(caplog):
    caplog.set_level("INFO", logger="sudoku_server")
    with trio.fail_after(10):
        async with running_server(proxy_protocol=True, trusted_proxies=LOOPBACK) as server:
            answer = await exchange(server, GOOD)
    # issue 17: one line says why before the close (it was closed silently).
    assert (
        answer == b"ERROR proxy no PROXY protocol header; this port takes connections only through its load balancer\n"
    )
    assert any(
        "refused: no PROXY protocol header (expected 'PROXY ' or the v2 signature)" in r.getMessage()
        for r in caplog.records
    )


async def test_per_address_cap_refuses_with_busy():
    with trio.fail_after(10):
        async with running_server(max_connections_per_ip=2) as server:
            held = [await connect(server) for _ in range(2)]
            await trio.sleep(0.1)
            answer = await exchange(server, GOOD)
            for stream in held:
                await stream.aclose()
            await trio.sleep(0.1)
            again = await exchange(server, GOOD)
    assert answer == b"ERROR busy 2 connections open from 127.0.0.1, try again later\n"
    assert again == GOOD_ANSWER


async def test_ping_is_never_refused_when_the_server_is_merely_full():
    with trio.fail_after(10):
        async with running_server(max_connections=2) as server:
            held = [await connect(server) for _ in range(2)]
            await trio.sleep(0.1)
            pong = await exchange(server, b"PING\n")
            busy = await exchange(server, GOOD)
            for stream in held:
                await stream.aclose()
    assert pong == b"PONG\n"
    assert busy == b"ERROR busy 2 connections open, try again later\n"


async def test_drain_answers_ping_with_draining_then_stops_accepting():
    with trio.fail_after(10):
        async with running_server(drain_grace=1.5) as server:
            assert await exchange(server, b"PING\n") == b"PONG\n"
            server.stop()
            assert await exchange(server, b"PING\n") == b"ERROR draining server shutting down, use another\n"
            assert await exchange(server, GOOD) == GOOD_ANSWER  # still served while draining
            await trio.sleep(1.8)
            with pytest.raises(OSError):
                await connect(server)  # the drain grace is over: no more connections


async def test_metrics_endpoint_parsed_by_prometheus_client():
    from prometheus_client.parser import text_string_to_metric_families

    from sudoku_server.app.runtime import start_metrics_http

    with trio.fail_after(10):
        async with running_server() as server:
            http = start_metrics_http(server.metrics, "127.0.0.1", 0)
            try:
                await exchange(server, GOOD + b"hello\n")
                await trio.sleep(0.1)
                url = f"http://127.0.0.1:{http.server_address[1]}/metrics"
                text = await trio.to_thread.run_sync(lambda: urllib.request.urlopen(url, timeout=5).read().decode())
            finally:
                http.shutdown()
                http.server_close()
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    assert samples[("sudoku_connections_total", ())] == 1
    assert samples[("sudoku_solver_requests_total", ())] == 1
    assert samples[("sudoku_replies_total", (("outcome", "answered"),))] == 1
    assert samples[("sudoku_replies_total", (("outcome", "command"),))] == 1
    assert samples[("sudoku_solve_seconds_count", ())] == 1
    assert ("sudoku_connections_open", ()) in samples and ("sudoku_queued", ()) in samples
