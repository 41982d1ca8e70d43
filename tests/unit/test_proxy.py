"""PROXY protocol v1/v2 headers: parsed whole, one byte at a time, and with trailing data."""

from __future__ import annotations

import struct

import pytest

from sudoku_server.wire.proxy import V2_SIGNATURE, ProxyHeader, ProxyHeaderError, parse_proxy_header, v1_header

V1_TCP4 = b"PROXY TCP4 192.0.2.10 198.51.100.1 56324 9999\r\n"
V1_TCP6 = b"PROXY TCP6 2001:db8::7 2001:db8::1 40000 9999\r\n"
V1_UNKNOWN = b"PROXY UNKNOWN\r\n"


def v2(command: int, family: int, body: bytes) -> bytes:
    return V2_SIGNATURE + bytes([0x20 | command, family]) + struct.pack("!H", len(body)) + body


V2_TCP4 = v2(1, 0x11, bytes([192, 0, 2, 10, 198, 51, 100, 1]) + struct.pack("!HH", 56324, 9999))
V2_TCP6 = v2(
    1,
    0x21,
    bytes.fromhex("20010db800000000000000000000000720010db8000000000000000000000001") + struct.pack("!HH", 40000, 9999),
)
V2_LOCAL = v2(0, 0x00, b"")
V2_WITH_TLV = v2(1, 0x11, bytes([10, 0, 0, 1, 10, 0, 0, 2]) + struct.pack("!HH", 1, 2) + b"\x03\x00\x04abcd")


@pytest.mark.parametrize(
    "header,expected",
    [
        (V1_TCP4, ProxyHeader(1, ("192.0.2.10", 56324), len(V1_TCP4))),
        (V1_TCP6, ProxyHeader(1, ("2001:db8::7", 40000), len(V1_TCP6))),
        (V1_UNKNOWN, ProxyHeader(1, None, len(V1_UNKNOWN))),
        (b"PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n", ProxyHeader(1, None, 35)),
        (V2_TCP4, ProxyHeader(2, ("192.0.2.10", 56324), len(V2_TCP4))),
        (V2_TCP6, ProxyHeader(2, ("2001:db8::7", 40000), len(V2_TCP6))),
        (V2_LOCAL, ProxyHeader(2, None, 16)),
        (V2_WITH_TLV, ProxyHeader(2, ("10.0.0.1", 1), len(V2_WITH_TLV))),
    ],
    ids=["v1-tcp4", "v1-tcp6", "v1-unknown", "v1-unknown-addresses", "v2-tcp4", "v2-tcp6", "v2-local", "v2-tlv"],
)
def test_headers_whole_bytewise_and_with_trailing_data(header, expected):
    assert parse_proxy_header(header) == expected
    for cut in range(len(header)):
        assert parse_proxy_header(header[:cut]) is None  # a valid start: more bytes needed
    assert parse_proxy_header(header + b"PING\r\n") == expected  # the session's bytes follow


@pytest.mark.parametrize(
    "data,message",
    [
        (b"PING\r\n", "no PROXY protocol header (expected 'PROXY ' or the v2 signature)"),
        (b"8.........\n", "no PROXY protocol header (expected 'PROXY ' or the v2 signature)"),
        (
            b"PROXY TCP4 192.0.2.10 198.51.100.1 56324\r\n",
            "PROXY v1 header malformed: 'PROXY TCP4 192.0.2.10 198.51.100.1 56324'",
        ),
        (
            b"PROXY TCP4 192.0.2.300 198.51.100.1 1 2\r\n",
            "PROXY v1 header has a bad TCP4 address: 'PROXY TCP4 192.0.2.300 198.51.100.1 1 2'",
        ),
        (
            b"PROXY TCP4 192.0.2.3 198.51.100.1 01 2\r\n",
            "PROXY v1 header has a bad port: 'PROXY TCP4 192.0.2.3 198.51.100.1 01 2'",
        ),
        (b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n", "PROXY v1 header without CRLF in its first 107 bytes"),
        (b"PROXY " + b"x" * 120, "PROXY v1 header without CRLF in its first 107 bytes"),
        (V2_SIGNATURE + b"\x31\x11\x00\x00", "PROXY v2 header with version 3"),
        (V2_SIGNATURE + b"\x22\x11\x00\x00", "PROXY v2 header with unknown command 2"),
        (V2_SIGNATURE + b"\x21\x11\x00\x04abcd", "PROXY v2 header too short for IPv4 addresses"),
        (V2_SIGNATURE + b"\x21\x11\xff\xff", "PROXY v2 header of 65551 bytes (at most 1040)"),
    ],
)
def test_bad_headers_say_why(data, message):
    with pytest.raises(ProxyHeaderError) as caught:
        parse_proxy_header(data)
    assert str(caught.value) == message


def test_v1_header_for_the_client():
    assert v1_header(("192.0.2.10", 56324), ("198.51.100.1", 9999)) == V1_TCP4
    assert parse_proxy_header(v1_header(("::1", 5), ("::1", 9999))) == ProxyHeader(1, ("::1", 5), 27)
