"""A port in an ``X-Forwarded-For`` hop is dropped: ``1.2.3.4:5555`` is the client ``1.2.3.4`` for the budget,
not one identity per port (break-session finding); only where forwarded headers are trusted."""

from __future__ import annotations

import ipaddress

import pytest

from sudoku_server.wire.proxy import forwarded_address
from tests.support.httptools import afetch, running_http_server

TWO = "." * 80 + "9"
COUNTED = {"count": 2, "limit": 2, "at_least": True, "unique": False}


@pytest.mark.parametrize(
    ("hop", "address"),
    [
        ("1.2.3.4:5555", "1.2.3.4"),
        (" 1.2.3.4 ", "1.2.3.4"),
        ("[::1]:80", "::1"),
        ("[2001:DB8:0::1]", "2001:db8::1"),
        ("2001:db8::1", "2001:db8::1"),
        ("unknown", "unknown"),
        ("_hidden:8080", "_hidden:8080"),
    ],
)
def test_forwarded_address_drops_the_port(hop, address):
    assert forwarded_address(hop) == address


async def test_a_forwarded_port_is_no_identity_of_its_own():
    trusted = {"http_trusted_proxies": (ipaddress.ip_network("127.0.0.1/32"),)}
    async with running_http_server(**trusted) as (server, port):
        for hop in ("1.2.3.4:5555", "1.2.3.4:6666", "1.2.3.4", "[::1]:80", "::1", "192.0.2.9, [::1]:443"):
            reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": TWO}, {"X-Forwarded-For": hop})
            assert (reply.status, reply.json) == (200, COUNTED), hop
        assert sorted(server.http.clients) == ["1.2.3.4", "::1"]


async def test_a_forwarded_port_is_ignored_with_the_header_when_untrusted():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": TWO}, {"X-Forwarded-For": "1.2.3.4:5555"})
        assert (reply.status, reply.json) == (200, COUNTED)
        assert sorted(server.http.clients) == ["127.0.0.1"]
