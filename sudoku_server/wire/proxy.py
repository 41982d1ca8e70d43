"""The PROXY protocol header (versions 1 and 2) that a load balancer sends first.

Pure: bytes in, a result out. The format is HAProxy's, "The PROXY protocol,
versions 1 & 2" (haproxy.org/download/2.9/doc/proxy-protocol.txt):

* **v1**, text: ``PROXY TCP4 192.0.2.1 198.51.100.1 56324 9999\\r\\n`` (or
  ``TCP6`` with IPv6 addresses, or ``PROXY UNKNOWN ...\\r\\n``), at most 107
  bytes with its CRLF.
* **v2**, binary: the 12-byte signature ``\\r\\n\\r\\n\\0\\r\\nQUIT\\n``, a
  version/command byte (``0x20`` LOCAL, ``0x21`` PROXY), a family/transport
  byte (``0x11`` TCP over IPv4, ``0x21`` TCP over IPv6, ...), a 2-byte
  big-endian length, then the addresses (and TLVs, ignored here).

A LOCAL command (v2) or UNKNOWN protocol (v1) means the proxy made the
connection itself (a health check): the real peer address stands. The
header is never auto-detected: the server expects it on every connection
when ``--proxy-protocol`` is set, and on none otherwise (the specification
forbids guessing).

Who may send one: :func:`is_trusted` says whether a peer address lies in the
trusted networks (``--trusted-proxy``, parsed by :func:`parse_network`). A
header, or any other address a peer forwards, is honoured only from those:
anyone else could claim any address for the logs and the per-address cap.
"""

from __future__ import annotations

import ipaddress
import struct
from collections.abc import Iterable
from dataclasses import dataclass

from sudoku_server.errors import quote

#: The quote mark around a malformed header in an error (the one escape: errors.quote).
_MARK = "'"

#: A trusted network (``--trusted-proxy``).
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

V1_PREFIX = b"PROXY "
#: The longest v1 header, CRLF included (the specification's bound).
V1_MAX_BYTES = 107
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
#: The longest v2 header accepted: the fixed 16 bytes, the largest address
#: block (UNIX, 216 bytes) and room for TLVs.
V2_MAX_BYTES = 16 + 1024
_NO_HEADER = "no PROXY protocol header (expected 'PROXY ' or the v2 signature)"


class ProxyHeaderError(Exception):
    """The connection does not start with a valid PROXY header (the message says why)."""


class NoProxyHeaderError(ProxyHeaderError):
    """The first bytes cannot start any PROXY header: a client that connected directly, not through the proxy."""


@dataclass(frozen=True)
class ProxyHeader:
    """A parsed header.

    Attributes:
      version: 1 or 2.
      source: ``(address, port)`` of the client the proxy relays, or None
        when the header says the proxy speaks for itself (LOCAL, UNKNOWN,
        or an address family with no IP address).
      length: bytes the header takes at the start of the stream.
    """

    version: int
    source: tuple[str, int] | None
    length: int


def parse_proxy_header(data: bytes) -> ProxyHeader | None:
    """Read the PROXY header at the start of ``data``.

    Args:
      data: the first bytes of the connection (any prefix of it; more may follow).

    Returns:
      The header, or None when ``data`` is a valid start but more bytes are
      needed. Bytes after ``header.length`` belong to the session.

    Raises:
      ProxyHeaderError: ``data`` cannot be the start of a PROXY header.
    """
    if data[:1] == b"\r":
        return _parse_v2(data)
    if data[:1] == b"P":
        return _parse_v1(data)
    if not data:
        return None
    raise NoProxyHeaderError(_NO_HEADER)


def _parse_v1(data: bytes) -> ProxyHeader | None:
    if not data.startswith(V1_PREFIX[: len(data)]):
        raise NoProxyHeaderError(_NO_HEADER)
    end = data.find(b"\r\n", 0, V1_MAX_BYTES)
    if end < 0:
        if len(data) >= V1_MAX_BYTES or b"\n" in data[:V1_MAX_BYTES]:
            raise ProxyHeaderError(f"PROXY v1 header without CRLF in its first {V1_MAX_BYTES} bytes")
        return None
    try:
        line = data[:end].decode("ascii")
    except UnicodeDecodeError:
        raise ProxyHeaderError("PROXY v1 header is not ASCII") from None
    fields = line.split(" ")
    length = end + 2
    if len(fields) >= 2 and fields[1] == "UNKNOWN":
        return ProxyHeader(1, None, length)
    if len(fields) != 6 or fields[1] not in ("TCP4", "TCP6"):
        raise ProxyHeaderError(f"PROXY v1 header malformed: {quote(line, _MARK)}")
    _, proto, src, dst, sport, dport = fields
    family = ipaddress.IPv4Address if proto == "TCP4" else ipaddress.IPv6Address
    try:
        source = family(src)
        family(dst)
    except ValueError:
        raise ProxyHeaderError(f"PROXY v1 header has a bad {proto} address: {quote(line, _MARK)}") from None
    port = _v1_port(sport, line)
    _v1_port(dport, line)
    return ProxyHeader(1, (str(source), port), length)


def _v1_port(text: str, line: str) -> int:
    if not text.isdigit() or (len(text) > 1 and text[0] == "0") or int(text) > 65535:
        raise ProxyHeaderError(f"PROXY v1 header has a bad port: {quote(line, _MARK)}")
    return int(text)


def _parse_v2(data: bytes) -> ProxyHeader | None:
    head = data[: len(V2_SIGNATURE)]
    if not V2_SIGNATURE.startswith(head):
        raise NoProxyHeaderError(_NO_HEADER)
    if len(data) < 16:
        return None
    version, command = data[12] >> 4, data[12] & 0x0F
    if version != 2:
        raise ProxyHeaderError(f"PROXY v2 header with version {version}")
    if command not in (0, 1):
        raise ProxyHeaderError(f"PROXY v2 header with unknown command {command}")
    family, transport = data[13] >> 4, data[13] & 0x0F
    (size,) = struct.unpack_from("!H", data, 14)
    length = 16 + size
    if length > V2_MAX_BYTES:
        raise ProxyHeaderError(f"PROXY v2 header of {length} bytes (at most {V2_MAX_BYTES})")
    if len(data) < length:
        return None
    if command == 0:  # LOCAL: the proxy's own connection (a health check)
        return ProxyHeader(2, None, length)
    if transport not in (0, 1, 2) or family not in (0, 1, 2, 3):
        raise ProxyHeaderError(f"PROXY v2 header with unknown family/transport 0x{data[13]:02X}")
    if family == 1:
        if size < 12:
            raise ProxyHeaderError("PROXY v2 header too short for IPv4 addresses")
        source = str(ipaddress.IPv4Address(data[16:20]))
        (port,) = struct.unpack_from("!H", data, 24)
        return ProxyHeader(2, (source, port), length)
    if family == 2:
        if size < 36:
            raise ProxyHeaderError("PROXY v2 header too short for IPv6 addresses")
        source = str(ipaddress.IPv6Address(data[16:32]))
        (port,) = struct.unpack_from("!H", data, 48)
        return ProxyHeader(2, (source, port), length)
    return ProxyHeader(2, None, length)  # UNSPEC or UNIX: no IP address to use


def v1_header(source: tuple[str, int], destination: tuple[str, int]) -> bytes:
    """A PROXY v1 header for a TCP connection (what ``sudoku-client --proxy-header`` sends)."""
    proto = "TCP6" if ":" in source[0] else "TCP4"
    return f"PROXY {proto} {source[0]} {destination[0]} {source[1]} {destination[1]}\r\n".encode("ascii")


def parse_network(text: str) -> Network:
    """A trusted network from ``--trusted-proxy``: ``10.0.0.0/24``, ``2001:db8::/32``, or one address (``/32``, ``/128``).

    Raises:
      ValueError: not an IPv4 or IPv6 address or network, or a network with
        host bits set (``10.0.0.5/24``: the message suggests both readings).
    """
    try:
        return ipaddress.ip_network(text.strip())
    except ValueError:
        pass
    try:
        loose = ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(
            f"{text!r} is not an IPv4 or IPv6 address or network (e.g. 10.0.0.5/32, 2001:db8::/64)"
        ) from None
    host = text.strip().split("/", 1)[0]
    raise ValueError(
        f"{text!r} has host bits set: write {loose} for the network or {host}/{loose.max_prefixlen} for one address"
    )


def is_trusted(address: str, networks: Iterable[Network]) -> bool:
    """Whether the peer ``address`` (as the socket gives it) lies in one of the trusted ``networks``.

    An IPv6 zone (``fe80::1%eth0``) is ignored; an IPv4-mapped IPv6 address
    (``::ffff:10.0.0.5``, a dual-stack socket) is also matched as IPv4.
    Anything that is not an IP address (a UNIX socket's path) is not trusted.
    """
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    candidates: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = [ip]
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        candidates.append(ip.ipv4_mapped)
    return any(candidate in network for network in networks for candidate in candidates)


def forwarded_address(hop: str) -> str:
    """The client address of one ``X-Forwarded-For`` hop, its port dropped (the header's hops may carry one, as
    the ``Forwarded`` header's ``for=`` does, RFC 7239 section 6): ``1.2.3.4:5555`` -> ``1.2.3.4``,
    ``[2001:db8::1]:80`` and ``[2001:db8::1]`` -> ``2001:db8::1``. An IP address is given in its one form
    (``2001:DB8:0::1`` -> ``2001:db8::1``), so that one client is one identity; anything else (``unknown``, an
    obfuscated name) is returned as sent, stripped of blanks."""
    text = hop.strip()
    if text.startswith("["):  # [v6] or [v6]:port
        end = text.find("]")
        host = text[1:end] if end > 0 else text
    elif text.count(":") == 1:  # v4:port (a bare IPv6 address has two colons or more)
        host = text.split(":", 1)[0]
    else:
        host = text
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return text
