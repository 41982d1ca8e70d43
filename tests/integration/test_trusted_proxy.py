"""Trusted proxies and the refusals of a ``--proxy-protocol`` port (issue 17).

A PROXY header is honoured only from a peer in ``--trusted-proxy``; anyone
else is refused with one ``ERROR proxy`` line and a log entry naming the
peer. A client without a header, with a malformed one, or too slow to send
one gets a line saying why before the close. Through a trusted balancer the
per-address cap counts each claimed source. The connections of these tests
come from 127.0.0.1: a network list with loopback in it makes them the
balancer, one without makes them spoofers.
"""

from __future__ import annotations

import ipaddress

import pytest
import trio

from sudoku_server.app import cli
from sudoku_server.net import server as server_module
from sudoku_server.net.config import ServerConfig
from sudoku_server.wire.proxy import V2_SIGNATURE, is_trusted, parse_network, v1_header
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.servers import connect, exchange, read_all, running_server

GOOD = (NEWSPAPER_LINE + "\n").encode()
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
LOOPBACK = (ipaddress.ip_network("127.0.0.1/32"),)
ELSEWHERE = (ipaddress.ip_network("192.0.2.0/24"), ipaddress.ip_network("2001:db8::/32"))
ONLY_HERE = b"this port takes connections only through its load balancer\n"


def claim(source: str, port: int = 40000) -> bytes:
    """A PROXY v1 header claiming ``source``:``port`` as the client."""
    return v1_header((source, port), ("2001:db8::1" if ":" in source else "198.51.100.1", 9999))


def refusals(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if " refused: " in r.getMessage()]


# -- the pure parts: networks and the trust check -----------------------------------


@pytest.mark.parametrize(
    "address,networks,trusted",
    [
        ("127.0.0.1", LOOPBACK, True),
        ("127.0.0.2", LOOPBACK, False),
        ("192.0.2.77", ELSEWHERE, True),
        ("192.0.3.1", ELSEWHERE, False),
        ("2001:db8::5", ELSEWHERE, True),
        ("[2001:db8::5]", ELSEWHERE, True),
        ("2001:db9::5", ELSEWHERE, False),
        ("::ffff:192.0.2.9", ELSEWHERE, True),  # IPv4-mapped, from a dual-stack socket
        ("fe80::1%eth0", (ipaddress.ip_network("fe80::/10"),), True),
        ("::1", LOOPBACK, False),
        ("127.0.0.1", (), False),
        ("/run/sudoku.sock", LOOPBACK, False),
    ],
)
def test_is_trusted(address, networks, trusted):
    assert is_trusted(address, networks) is trusted


def test_parse_network_accepts_networks_and_single_addresses():
    assert parse_network("10.0.0.0/24") == ipaddress.ip_network("10.0.0.0/24")
    assert parse_network("10.0.0.5") == ipaddress.ip_network("10.0.0.5/32")
    assert parse_network("2001:db8::/64") == ipaddress.ip_network("2001:db8::/64")
    assert parse_network("::1") == ipaddress.ip_network("::1/128")


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "10.0.0.5/24",
            "argument --trusted-proxy: '10.0.0.5/24' has host bits set:"
            " write 10.0.0.0/24 for the network or 10.0.0.5/32 for one address",
        ),
        (
            "2001:db8::5/64",
            "argument --trusted-proxy: '2001:db8::5/64' has host bits set:"
            " write 2001:db8::/64 for the network or 2001:db8::5/128 for one address",
        ),
        (
            "haproxy.local",
            "argument --trusted-proxy: 'haproxy.local' is not an IPv4 or IPv6 address or network"
            " (e.g. 10.0.0.5/32, 2001:db8::/64)",
        ),
        ("10.0.0.0/33", "argument --trusted-proxy: '10.0.0.0/33' is not an IPv4 or IPv6 address or network"),
    ],
)
def test_a_bad_trusted_proxy_is_refused_at_start(text, message, capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["--proxy-protocol", "--trusted-proxy", text])
    assert exited.value.code == 2
    assert f"sudoku-server: error: {message}" in capsys.readouterr().err


def test_proxy_protocol_without_a_trusted_proxy_refuses_to_start(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["--proxy-protocol"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(
        "sudoku-server: error: --proxy-protocol needs --trusted-proxy CIDR, the load balancer's address"
        " (e.g. --trusted-proxy 10.0.0.5/32; on one machine --trusted-proxy 127.0.0.1/32):"
        " a PROXY header from any other peer would let it claim any address\n"
    )


def test_trusted_proxy_without_proxy_protocol_refuses_to_start(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["--trusted-proxy", "127.0.0.1"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(
        "sudoku-server: error: --trusted-proxy applies to PROXY protocol headers: add --proxy-protocol\n"
    )


def test_trusted_proxy_repeats_into_the_config():
    args = cli.build_parser().parse_args(
        ["--proxy-protocol", "--trusted-proxy", "10.0.0.10", "--trusted-proxy", "2001:db8::/48"]
    )
    cli.check_proxy_options(cli.build_parser(), args)
    config = cli.config_from_args(args)
    assert config.trusted_proxies == (ipaddress.ip_network("10.0.0.10/32"), ipaddress.ip_network("2001:db8::/48"))


# -- the server: refusals, exact bytes and log lines ------------------------------------


async def test_spoofed_sources_from_an_untrusted_peer_are_all_refused(caplog):
    # The case: 40 direct connections, each claiming another source,
    # with a cap of 2 per address. Loopback is not a trusted proxy here.
    caplog.set_level("INFO", logger="sudoku_server")
    with trio.fail_after(15):
        async with running_server(proxy_protocol=True, trusted_proxies=ELSEWHERE, max_connections_per_ip=2) as server:
            answers = [await exchange(server, claim(f"203.0.113.{i}") + GOOD) for i in range(1, 41)]
            await trio.sleep(0.1)
            rejected = server.stats.connections_rejected
    assert answers == [b"ERROR proxy 127.0.0.1 is not a trusted proxy; " + ONLY_HERE] * 40
    assert rejected == 40
    logged = refusals(caplog)
    assert len(logged) == 40
    assert all(
        m.startswith("127.0.0.1:")
        and m.endswith(" refused: not a trusted proxy (--trusted-proxy), its PROXY header not read")
        for m in logged
    ), logged
    assert not any(" closed: " in r.getMessage() for r in caplog.records)  # none was served


async def test_no_header_plain_ping_gets_one_line(caplog):
    caplog.set_level("INFO", logger="sudoku_server")
    with trio.fail_after(10):
        async with running_server(proxy_protocol=True, trusted_proxies=LOOPBACK) as server:
            answer = await exchange(server, b"PING\n")
    assert answer == b"ERROR proxy no PROXY protocol header; " + ONLY_HERE
    (logged,) = refusals(caplog)
    assert logged.startswith("127.0.0.1:")
    assert logged.endswith(" refused: no PROXY protocol header (expected 'PROXY ' or the v2 signature)")


@pytest.mark.parametrize(
    "data,reason",
    [
        (
            b"PROXY TCP4 192.0.2.10 198.51.100.1 56324\r\nPING\r\n",
            b"PROXY v1 header malformed: 'PROXY TCP4 192.0.2.10 198.51.100.1 56324'",
        ),
        (
            b"PROXY TCP4 192.0.2.10\x1b[2J 10.0.0.1 1 2\r\n",
            b"PROXY v1 header has a bad TCP4 address: 'PROXY TCP4 192.0.2.10\\x1b[2J 10.0.0.1 1 2'",
        ),
        (V2_SIGNATURE + b"\x31\x11\x00\x00", b"PROXY v2 header with version 3"),
        (b"PROX", b"the connection ended before its PROXY header"),
    ],
    ids=["v1-fields", "v1-control-bytes", "v2-version", "cut-short"],
)
async def test_a_malformed_header_says_why(data, reason, caplog):
    caplog.set_level("INFO", logger="sudoku_server")
    with trio.fail_after(10):
        async with running_server(proxy_protocol=True, trusted_proxies=LOOPBACK) as server:
            answer = await exchange(server, data)
    assert answer == b"ERROR proxy " + reason + b"\n"
    (logged,) = refusals(caplog)
    assert logged.startswith("127.0.0.1:") and logged.endswith(" refused: " + reason.decode())


async def test_a_slow_header_times_out_with_a_line(monkeypatch, caplog, wallclock):
    monkeypatch.setattr(server_module, "PROXY_HEADER_SECONDS", 0.3)
    caplog.set_level("INFO", logger="sudoku_server")
    with trio.fail_after(10):
        async with running_server(proxy_protocol=True, trusted_proxies=LOOPBACK) as server:
            stream = await connect(server)
            await stream.send_all(b"PROXY TCP4 192.0.2.10 ")  # a valid start, then nothing
            started = trio.current_time()
            answer = await read_all(stream)
            waited = trio.current_time() - started
            await stream.aclose()
    assert answer == b"ERROR proxy no PROXY protocol header within 0.3 s; " + ONLY_HERE
    assert waited >= 0.25, waited
    wallclock.below(waited, 3, "the header timeout's wait")
    (logged,) = refusals(caplog)
    assert logged.startswith("127.0.0.1:") and logged.endswith(" refused: no PROXY header within 0.3 s")


async def test_through_a_trusted_proxy_the_cap_counts_each_claimed_source(caplog):
    caplog.set_level("INFO", logger="sudoku_server")
    with trio.fail_after(15):
        async with running_server(proxy_protocol=True, trusted_proxies=LOOPBACK, max_connections_per_ip=2) as server:
            held = []
            for port in (40001, 40002):  # two connections claiming 192.0.2.50: both admitted
                stream = await connect(server)
                await stream.send_all(claim("192.0.2.50", port))
                held.append(stream)
            await trio.sleep(0.2)
            third = await exchange(server, claim("192.0.2.50", 40003) + GOOD)
            other = await exchange(server, claim("192.0.2.51", 40004) + GOOD)
            ipv6 = await exchange(server, claim("2001:db8::50", 40005) + GOOD)
            for stream in held:
                await stream.send_all(GOOD)
                await stream.send_eof()
            held_answers = [await read_all(stream) for stream in held]
            for stream in held:
                await stream.aclose()
            await trio.sleep(0.1)
    assert third == b"ERROR busy 2 connections open from 192.0.2.50, try again later\n"
    assert other == GOOD_ANSWER and ipv6 == GOOD_ANSWER
    assert held_answers == [GOOD_ANSWER, GOOD_ANSWER]
    messages = [r.getMessage() for r in caplog.records]
    assert "192.0.2.50:40003 via 127.0.0.1 refused: 2 connections open from 192.0.2.50 (limit)" in messages
    closed = sorted(m.split(" closed: ")[0] for m in messages if " closed: 1 puzzle(s)" in m)
    assert closed == [
        "192.0.2.50:40001 via 127.0.0.1",
        "192.0.2.50:40002 via 127.0.0.1",
        "192.0.2.51:40004 via 127.0.0.1",
        "[2001:db8::50]:40005 via 127.0.0.1",
    ]


async def test_an_ipv6_trusted_proxy():
    try:
        with trio.socket.socket(trio.socket.AF_INET6) as probe:
            await probe.bind(("::1", 0))
    except OSError as error:
        pytest.skip(f"no IPv6 loopback here: {error}")
    config = ServerConfig(host="::1", port=0, proxy_protocol=True, trusted_proxies=(ipaddress.ip_network("::1/128"),))
    server = server_module.SudokuServer(config)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server.listeners = await nursery.start(server.serve)
            answer = await exchange(server, claim("192.0.2.60") + b"PING\n")
            untrusted = ServerConfig(host="::1", port=0, proxy_protocol=True, trusted_proxies=LOOPBACK)
            nursery.cancel_scope.cancel()
    assert answer == b"PONG\n"
    server = server_module.SudokuServer(untrusted)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            server.listeners = await nursery.start(server.serve)
            refused = await exchange(server, claim("192.0.2.60") + b"PING\n")
            nursery.cancel_scope.cancel()
    assert refused == b"ERROR proxy ::1 is not a trusted proxy; " + ONLY_HERE
