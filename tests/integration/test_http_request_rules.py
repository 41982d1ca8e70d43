"""What the HTTP port answers to requests at its edges (issue 32): exact bytes, statuses and headers.

An ambiguous body length is refused and the connection closed (RFC 9112 section 6.3); a number no field takes is a
``400`` naming its field (no ``500``); ``puzzle`` with ``puzzles`` is one clear ``400``; COUNT keeps the line's
``+`` as ``at_least``; a ``503`` while the server stops says ``Connection: close``; every reply carries the
security headers.
"""

from __future__ import annotations

import socket
import time

import pytest
import trio

from sudoku_server.net.http_hypercorn import AMBIGUOUS_LENGTH_REFUSED
from sudoku_server.sudoku import solver as _solver
from sudoku_server.wire.json_body import read_body
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.httptools import afetch, fetch, running_http_server

TWO = "." * 80 + "9"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

API_CSP = "default-src 'none'; frame-ancestors 'none'"


def command(message: str) -> dict:
    return {"error": {"code": "command", "message": message, "line": None}}


def read_to_eof(sock: socket.socket, timeout: float = 10) -> bytes:
    """Every byte until the server closes (``timeout`` seconds at most per read: a safety net, not a bound)."""
    sock.settimeout(timeout)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


async def raw_exchange(port: int, data: bytes) -> bytes:
    """``data`` sent raw on a new connection to ``port``; every byte until the server closes (:func:`read_to_eof`)."""

    def exchange() -> bytes:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(data)
            return read_to_eof(sock)

    return await trio.to_thread.run_sync(exchange)


async def test_content_length_with_transfer_encoding_is_400_then_eof():
    body = b'{"puzzle":"' + NEWSPAPER_LINE.encode() + b'"}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    request = (
        b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n%s"
        % (len(chunked), chunked)
    )
    async with running_http_server() as (server, port):

        def exchange() -> bytes:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(request + b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # never answered
                return read_to_eof(sock)

        assert await trio.to_thread.run_sync(exchange) == (
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 135\r\n"
            b"connection: close\r\n\r\n"
            b'{"error":{"code":"command","message":"a request with both Content-Length and Transfer-Encoding is'
            b' refused (RFC 9112 6.3)","line":null}}'
        )
        assert AMBIGUOUS_LENGTH_REFUSED.endswith(b'6.3)","line":null}}')


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"puzzle": "x", "limit": 1e999}', 'field "limit": 1e999 is not a finite number'),
        (b'{"puzzle": "x", "limit": NaN}', 'field "limit": NaN is not a finite number (not JSON either)'),
        (b'{"limit": -Infinity, "puzzle": "x"}', 'field "limit": -Infinity is not a finite number (not JSON either)'),
        (
            b'{"puzzle": "x", "limit": ' + b"9" * 5000 + b"}",
            'field "limit": 999999999999...999999 is not a number a field takes (5000 digits; at most 40)',
        ),
        (b'{"puzzles": ["x", [Infinity]]}', 'field "puzzles": Infinity is not a finite number (not JSON either)'),
        (
            b'{"puzzle": "x", "limit": 01}',
            "the body is not JSON: Expecting ',' delimiter: line 1 column 27 (char 26) (in field \"limit\")",
        ),
        (
            b'{"puzzle": "x", "limit": 1.5e}',
            "the body is not JSON: Expecting ',' delimiter: line 1 column 29 (char 28) (in field \"limit\")",
        ),
        (b"1e999", "the body must be a JSON object, not a number (1e999 is not a finite number)"),
        # bytes after the object are in no field (break-session finding: 'in field "rules"')
        (b'{"puzzle": "1", "rules": "x"}}', "the body is not JSON: Extra data: line 1 column 30 (char 29)"),
    ],
)
def test_numbers_no_field_takes_are_refused_with_the_field(body, message):
    with pytest.raises(Exception) as caught:
        read_body(body)
    assert (caught.value.code, caught.value.detail) == ("command", message)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"puzzle": "x", "all": true, "all": false}', 'the body gives field "all" twice'),
        (b'{"fpuzzles": {"size": 4, "size": 9}}', 'the body gives field "size" twice'),
    ],
)
def test_a_body_naming_a_field_twice_is_refused_as_a_query_doing_so_is(body, message):
    """Break-session finding: the last of the two won, silently (HTTP.md: POST JSON or GET query, the same fields)."""
    with pytest.raises(Exception) as caught:
        read_body(body)
    assert (caught.value.code, caught.value.detail) == ("command", message)  # type: ignore[attr-defined]


async def test_huge_and_non_finite_numbers_are_400_over_http(caplog):
    async with running_http_server() as (server, port):
        huge = b'{"puzzle": "' + TWO.encode() + b'", "limit": ' + b"7" * 5000 + b"}"
        reply = await afetch(port, "POST", "/api/v1/count", huge)
        assert (reply.status, reply.json) == (
            400,
            command('field "limit": 777777777777...777777 is not a number a field takes (5000 digits; at most 40)'),
        )
        reply = await afetch(port, "POST", "/api/v1/generate", b'{"seed": Infinity}')
        assert (reply.status, reply.json) == (
            400,
            command('field "seed": Infinity is not a finite number (not JSON either)'),
        )
        reply = await afetch(port, "GET", "/api/v1/count?limit=" + "7" * 5000 + "&puzzle=" + TWO)
        assert (reply.status, reply.json) == (400, command("COUNT: limit must have at most 40 digits, not 5000"))
    assert "Traceback" not in caplog.text and "internal" not in caplog.text


async def test_puzzle_and_puzzles_together_name_both():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": NEWSPAPER_LINE, "puzzles": [NEWSPAPER_LINE]})
        assert (reply.status, reply.json) == (
            400,
            command('SOLVE: send "puzzle" (one) or "puzzles" (a list), not both'),
        )


async def test_count_says_at_least_where_the_line_says_plus():
    async with running_http_server() as (server, port):
        cases = [
            ({"puzzle": TWO}, {"count": 2, "limit": 2, "at_least": True, "unique": False}),  # COUNT 2+ multiple
            ({"puzzle": TWO, "limit": 5}, {"count": 5, "limit": 5, "at_least": True, "unique": False}),  # COUNT 5+
            ({"puzzle": NEWSPAPER_LINE, "limit": 1}, {"count": 1, "limit": 1, "at_least": True, "unique": False}),
            ({"puzzle": NEWSPAPER_LINE}, {"count": 1, "limit": 2, "at_least": False, "unique": True}),
        ]
        for body, expected in cases:
            reply = await afetch(port, "POST", "/api/v1/count", body)
            assert (reply.status, reply.json) == (200, expected), body


async def test_503_while_stopping_says_connection_close_then_eof():
    async with running_http_server() as (server, port):
        # as between the stop and the close of idle connections: a request still comes
        from sudoku_server.net.services import FrontServices

        stopping = FrontServices.shutting_down
        FrontServices.shutting_down = property(lambda self: True)
        body = b'{"puzzle":"' + NEWSPAPER_LINE.encode() + b'"}'
        request = b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)

        def exchange() -> bytes:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(request + b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                return read_to_eof(sock)

        try:
            data = await trio.to_thread.run_sync(exchange)
        finally:
            FrontServices.shutting_down = stopping
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"HTTP/1.1 503 "
    assert b"connection: close" in lines and b"retry-after: 5" in lines
    assert rest == b'{"error":{"code":"draining","message":"server shutting down, use another","line":null}}'


async def test_a_request_in_flight_at_a_stop_is_answered_with_connection_close():
    def spinning(grid, *, check):
        if grid.cells[0] == 0:
            deadline = time.monotonic() + 0.5
            while time.monotonic() < deadline:
                check()
                time.sleep(0.001)
        return _solver.solve(grid, check=check)

    slow = ".." + NEWSPAPER_SOLUTION[2:]
    async with running_http_server(solve=spinning, solver_threads=1, shutdown_grace=5.0) as (server, port):
        busy = socket.create_connection(("127.0.0.1", port))
        body = ('{"puzzle": "' + slow + '"}').encode()
        busy.sendall(b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        await trio.sleep(0.1)
        server.shutdown()
        data = await trio.to_thread.run_sync(read_to_eof, busy)
        busy.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and b"\r\nconnection: close" in head
    assert rest == b'{"solution":"%s","text":"%s\\n"}' % (NEWSPAPER_SOLUTION.encode(), NEWSPAPER_SOLUTION.encode())


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/", 200),
        ("GET", "/static/app.js", 200),
        ("GET", "/static/nothing.js", 404),
        ("GET", "/healthz", 200),
        ("GET", "/api/v1/openapi.json", 200),
        ("POST", "/api/v1/solve", 200),
        ("GET", "/api/v1/nothing", 404),
        ("PUT", "/api/v1/solve", 405),
        ("POST", "/api/v1/openapi.json", 405),
    ],
)
async def test_security_headers_on_every_reply(method, path, status):
    """The page's policy on the page, its files and /healthz; the API's (JSON, never a document) on every reply
    under /api/, its errors too (break-session finding: a 405 of /api/v1/solve carried the page's policy)."""
    async with running_http_server() as (server, port):
        body = {"puzzle": NEWSPAPER_LINE} if method == "POST" else None
        reply = await trio.to_thread.run_sync(lambda: fetch(port, method, path, body))
        assert reply.status == status
        assert reply.headers["content-security-policy"] == (API_CSP if path.startswith("/api/") else CSP)
        assert reply.headers["x-content-type-options"] == "nosniff"
        assert reply.headers["x-frame-options"] == "DENY"


def test_the_page_has_no_inline_script_or_style():
    from sudoku_server.net.http_app import static_directory

    page = (static_directory() / "index.html").read_text()
    assert "<style" not in page and " style=" not in page and " on" + "click=" not in page
    scripts = page.count("<script")
    assert scripts == page.count('<script type="module" src="static/') == 1


#: STEPS of this puzzle takes 0.1 to 1 s (top1465); a batch of eight is a request in flight when the signal
#: comes, on a quick machine too, and its reply (about 210 KB) stays under the size sent as it comes.
SECOND_LONG = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."


def test_a_rolling_restart_answers_the_request_in_flight_and_closes_idle_keep_alive():
    """``--workers 1`` and SIGHUP (a rolling restart): a keep-alive request in flight gets its 200 with
    ``Connection: close``; an idle keep-alive connection is closed (EOF), not answered 503 later."""
    import re
    import signal

    from tests.support.servers import start_server_process, stop_server_process

    proc, host, _ = start_server_process("--http-port", "0", "--workers", "1", "--shutdown-grace", "120")
    try:
        assert proc.stderr is not None
        port = None
        while port is None:
            match = re.search(r"HTTP on http://\S+:(\d+)/", proc.stderr.readline().decode())
            port = int(match.group(1)) if match else None
        body = ('{"puzzles": [' + ", ".join(['"' + SECOND_LONG + '"'] * 4) + "]}").encode()
        with socket.create_connection((host, port)) as idle, socket.create_connection((host, port)) as busy:
            for sock in (idle, busy):  # both accepted by the worker and kept alive
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                sock.settimeout(60)
                assert sock.recv(65536).endswith(b"\r\n\r\nok\n")
            busy.sendall(b"POST /api/v1/steps HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            time.sleep(0.3)
            proc.send_signal(signal.SIGHUP)
            answered = read_to_eof(busy, timeout=120)  # a loaded machine: the batch takes seconds
            assert read_to_eof(idle) == b""
        head, _, rest = answered.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 ") and b"\r\nconnection: close" in head
        assert rest.startswith(b'{"results":[{"steps":[{"technique":')
    finally:
        stop_server_process(proc)


async def test_a_request_target_in_absolute_form_is_served():
    """RFC 9112 3.2.2: a server must accept the absolute form (``GET http://x/healthz``); it was 404 no such path
    (a break-session finding)."""
    async with running_http_server() as (server, port):
        data = await raw_exchange(port, b"GET http://x/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and body == b"ok\n"


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /healthz HTTP/1.0\r\n\r\nXYZ",
        b"GET /healthz HTTP/1.0\r\n\r\nGET /healthz HTTP/1.0\r\n\r\n",
    ],
)
async def test_bytes_after_a_request_that_closes_the_connection_are_ignored(request_bytes):
    """RFC 9112 9.6. A second break session's finding: the request got no reply, or a 400, and a BusyResourceError
    was logged (h11's "Got data when expecting EOF" made Hypercorn answer 400 beside the reply, then close)."""
    async with running_http_server() as (server, port):
        data = await raw_exchange(port, request_bytes)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and body == b"ok\n"


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /static/icon.svg HTTP/1.0\r\n\r\n",
        b"GET / HTTP/1.0\r\n\r\n",
        b"GET /static/app.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ],
)
async def test_the_page_and_its_files_close_a_connection_that_asks_to_be_closed(request_bytes):
    """Break-session finding: a file answered under ``Connection: close`` or HTTP/1.0 left its connection open for
    good (Starlette's FileResponse waited for a disconnect Hypercorn sends only after it): this read to the end
    never ended. Its guard is read_to_eof's 10 s per read; the server closes at once."""
    async with running_http_server() as (server, port):
        data = await raw_exchange(port, request_bytes)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and b"content-length: %d" % len(body) in head.lower()


async def test_a_post_with_a_query_string_is_refused_naming_its_fields():
    """Break-session finding: a POST's query was never read, so ``POST /api/v1/count?limit=10`` answered with
    limit 2 (and ``?rules=x`` a classic answer), silently."""
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/count?limit=10&bogus=1", {"puzzle": TWO})
        assert (reply.status, reply.json) == (
            400,
            command(
                'COUNT: a POST takes its fields in the JSON body, not the query string ("limit", "bogus"); send them'
                " in the body, or the query with GET"
            ),
        )
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": TWO, "limit": 10})
        assert (reply.status, reply.json["limit"]) == (200, 10)


async def test_the_http_port_caps_the_connections_of_one_address():
    """``--max-connections-per-ip`` held on the line port only (break-session finding: one address held 7 HTTP
    connections under a cap of 2); the third is answered 503 busy and closed, and a freed place is taken again."""
    async with running_http_server(max_connections_per_ip=2) as (server, port):

        def exchange() -> tuple[bytes, bytes]:
            held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
            while server.http.addresses.open["127.0.0.1"] < 2:  # both accepted and counted
                time.sleep(0.01)
            with socket.create_connection(("127.0.0.1", port)) as third:
                refused = read_to_eof(third)
            for sock in held:
                sock.close()
            for _ in range(100):  # the server counts them out as it sees them close
                with socket.create_connection(("127.0.0.1", port)) as sock:
                    sock.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
                    again = read_to_eof(sock)
                if again.startswith(b"HTTP/1.1 200"):
                    break
                time.sleep(0.05)
            return refused, again

        refused, again = await trio.to_thread.run_sync(exchange)
    assert refused == (
        b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: 100\r\n"
        b'retry-after: 1\r\nconnection: close\r\n\r\n{"error":{"code":"busy","message":"2 connections open from'
        b' 127.0.0.1; try again later","line":null}}'
    )
    assert again.startswith(b"HTTP/1.1 200") and again.endswith(b"ok\n")
