"""The ``--metrics-port`` endpoint: Prometheus text over HTTP, bounded.

:func:`serve_http` runs prometheus_client's WSGI app (``make_wsgi_app``) on
the standard library's threading WSGI server, with three bounds the
library's ``start_http_server`` lacks: every connection is closed
:data:`HTTP_TIMEOUT` seconds after it was accepted (idle, half-sent or not
reading), at most :data:`HTTP_CONNECTIONS` are served at once (more are
closed at once), at most :data:`HTTP_ACCEPT_RATE` are accepted a second,
and a rendered reply is reused for :data:`HTTP_CACHE_SECONDS` (one render
at a time), so that a scrape flood costs the server little. docs/OPERATIONS.md "Metrics" says why.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

log = logging.getLogger("sudoku_server")

#: Seconds a connection to the metrics port may stay open, from accept to
#: close, whatever it does (a scrape takes milliseconds): idle, half-sent and
#: non-reading connections are closed then.
HTTP_TIMEOUT = 3.0
#: Connections the metrics port serves at once (a thread each); more are
#: accepted and closed at once.
HTTP_CONNECTIONS = 16
#: Connections the metrics port accepts per second at most; the serving thread
#: waits between two (more wait in the kernel's backlog), so that a scrape
#: flood takes a bounded share of the interpreter from the event loop.
HTTP_ACCEPT_RATE = 50
#: Seconds a rendered metrics reply is served again to the same kind of
#: request (same query, Accept and Accept-Encoding) before it is rendered anew.
HTTP_CACHE_SECONDS = 1.0
#: Distinct kinds of request whose replies are kept at most (the cache is
#: emptied when full).
HTTP_CACHE_ENTRIES = 16


class CachedApp:
    """A WSGI app that reuses another's replies for ``seconds``; one render at a time.

    Args:
      app: the WSGI app whose replies are kept (prometheus_client's
        ``make_wsgi_app``); it must answer with a single-part body.
      seconds: how long a reply is served again to the same kind of request
        (same method, path kind, query, ``Accept`` and ``Accept-Encoding``).
    """

    def __init__(self, app: Callable, seconds: float = HTTP_CACHE_SECONDS) -> None:
        self.app = app
        self.seconds = seconds
        self._lock = threading.Lock()  # held while rendering: a flood renders once
        self._replies: dict[tuple, tuple[float, str, list[tuple[str, str]], bytes]] = {}

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        key = (
            environ.get("REQUEST_METHOD"),
            environ.get("PATH_INFO") == "/favicon.ico",
            environ.get("QUERY_STRING", ""),
            environ.get("HTTP_ACCEPT"),
            environ.get("HTTP_ACCEPT_ENCODING"),
        )
        with self._lock:
            now = time.monotonic()
            reply = self._replies.get(key)
            if reply is None or reply[0] <= now:
                said: list = []
                body = b"".join(
                    self.app(environ, lambda status, headers, exc_info=None: said.extend((status, headers)))
                )
                if len(self._replies) >= HTTP_CACHE_ENTRIES:
                    self._replies.clear()
                reply = self._replies[key] = (now + self.seconds, said[0], list(said[1]), body)
        start_response(reply[1], list(reply[2]))
        return [reply[3]]


class _Handler(WSGIRequestHandler):
    """One HTTP/1.0 request; each socket read or write waits :attr:`MetricsHTTPServer.timeout_seconds` at most."""

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.timeout_seconds)  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:
        """A scrape is not logged."""


class MetricsHTTPServer(ThreadingMixIn, WSGIServer):
    """The standard threading WSGI server with a deadline per connection and a bound on connections.

    Args:
      address: ``(host, port)`` to bind; ``family``: its address family.
      app: the WSGI app to serve.
      timeout: seconds from accept to close at most (:data:`HTTP_TIMEOUT`).
      connections: connections served at once (:data:`HTTP_CONNECTIONS`).
      rate: connections accepted per second at most (:data:`HTTP_ACCEPT_RATE`).

    Raises:
      OSError: the address cannot be bound.
    """

    daemon_threads = True
    request_queue_size = 64  # the listen backlog

    def __init__(
        self,
        address: tuple[str, int],
        app: Callable,
        family: int = socket.AF_INET,
        timeout: float = HTTP_TIMEOUT,
        connections: int = HTTP_CONNECTIONS,
        rate: float = HTTP_ACCEPT_RATE,
    ) -> None:
        self.address_family = family
        self.timeout_seconds = timeout
        self._slots = threading.BoundedSemaphore(connections)
        self._interval = 1 / rate
        self._next_accept = 0.0
        self._deadlines: dict[socket.socket, float] = {}
        self._lock = threading.Lock()
        super().__init__(address, _Handler)
        self.set_app(app)

    def verify_request(self, request, client_address) -> bool:
        """A free slot, or the connection is closed at once; first, wait for the accept rate."""
        now = time.monotonic()
        if self._next_accept > now:
            time.sleep(self._next_accept - now)
        self._next_accept = max(now, self._next_accept) + self._interval
        return self._slots.acquire(blocking=False)

    def process_request(self, request, client_address) -> None:
        with self._lock:
            self._deadlines[request] = time.monotonic() + self.timeout_seconds
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._done(request)
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._done(request)

    def _done(self, request) -> None:
        with self._lock:
            if self._deadlines.pop(request, None) is None:
                return
        self._slots.release()

    def service_actions(self) -> None:
        """In the serving thread, between polls: shut down the connections past their deadline."""
        super().service_actions()
        now = time.monotonic()
        with self._lock:
            late = [request for request, deadline in self._deadlines.items() if deadline <= now]
        for request in late:
            try:
                request.shutdown(socket.SHUT_RDWR)  # the handler's read or write returns at once
            except OSError:
                pass

    def handle_error(self, request, client_address) -> None:
        """A client that timed out or went away is not an error of the server."""
        log.debug("metrics: connection from %s ended early", client_address[0], exc_info=True)


#: Seconds between two looks at the connections' deadlines.
HTTP_POLL = 0.25


def serve_http(registry, host: str | None, port: int, **bounds: Any) -> MetricsHTTPServer:
    """Serve ``registry`` (a prometheus_client collector) as Prometheus text on ``host``:``port``, in a thread.

    Any path answers the metrics (``?name[]=`` filters), as prometheus_client's
    own server does; replies are cached for :data:`HTTP_CACHE_SECONDS`. Stop
    it with ``shutdown()`` then ``server_close()``.

    Args:
      registry: what to serve (``collect`` and ``restricted_registry``).
      host: address to bind; None or "" for every IPv4 interface.
      port: TCP port; 0 picks a free one (``server_address[1]``).
      bounds: ``timeout``, ``connections`` and ``rate`` of :class:`MetricsHTTPServer`.

    Raises:
      OSError: the address cannot be bound.
    """
    import prometheus_client

    family, _, _, _, address = socket.getaddrinfo(host or "", port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    app = CachedApp(prometheus_client.make_wsgi_app(registry))
    server = MetricsHTTPServer((str(address[0]), port), app, family, **bounds)
    thread = threading.Thread(target=server.serve_forever, args=(HTTP_POLL,), name="metrics-http", daemon=True)
    thread.start()
    return server
