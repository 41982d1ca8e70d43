"""Listening sockets bound before the server runs: the HTTP port's (``--http-port``), and the line port's under ``--workers``.

Apart from :mod:`sudoku_server.net.http` so that binding (at start, in the supervisor of ``--workers``) does not
load Starlette and Hypercorn; the sockets go to Hypercorn already listening, and with ``--workers N`` every worker
inherits them (the kernel hands each new connection to one of the workers accepting).
"""

from __future__ import annotations

import socket


def listen_sockets(host: str | None, port: int, backlog: int = 1024) -> list[socket.socket]:
    """Listening TCP sockets for ``host`` (None: every interface, IPv4 and IPv6) and ``port`` (0: a free one).

    Raises:
      OSError: the address cannot be bound (in use, not local).
    """
    infos = socket.getaddrinfo(host, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    seen = set()
    try:
        for family, kind, proto, _, address in infos:
            if (family, address) in seen:
                continue
            seen.add((family, address))
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(backlog)
            if port == 0:
                port = sock.getsockname()[1]  # the same free port on every family
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets
