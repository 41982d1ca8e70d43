"""A path that does not exist is 404 by any method; one that exists, by a method it does not take, 405 with
``Allow``; the OpenAPI document lists both (break-session finding: ``PUT /api/v1/nothing`` was 405, and the
document listed neither)."""

from __future__ import annotations

from sudoku_server.wire.openapi import document
from tests.support.httptools import afetch, running_http_server

API_HEADERS = {
    "content-type": "application/json",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
}


def command(message: str) -> dict:
    return {"error": {"code": "command", "message": message, "line": None}}


def headers_of(reply, *names: str) -> dict:
    return {name: reply.headers.get(name) for name in names}


async def test_any_method_on_a_missing_api_path_is_404():
    async with running_http_server() as (server, port):
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
            reply = await afetch(port, method, "/api/v1/nothing")
            assert (reply.status, reply.json, reply.headers.get("allow")) == (
                404,
                command("no endpoint /api/v1/nothing"),
                None,
            ), method
            assert headers_of(reply, *API_HEADERS) == API_HEADERS
        reply = await afetch(port, "PUT", "/static/nothing.js")
        assert (reply.status, reply.json, reply.headers.get("allow")) == (404, command("no such path"), None)


async def test_a_wrong_method_on_a_path_that_exists_is_405_with_allow():
    async with running_http_server() as (server, port):
        cases = [
            ("PUT", "/api/v1/solve", "GET, HEAD, POST"),
            ("DELETE", "/api/v1/count", "GET, HEAD, POST"),
            ("POST", "/api/v1/openapi.json", "GET, HEAD"),
            ("PUT", "/api/v1/rules", "GET, HEAD"),
            ("PUT", "/healthz", "GET, HEAD"),
            ("PUT", "/static/app.js", "GET, HEAD"),
        ]
        for method, path, allow in cases:
            reply = await afetch(port, method, path)
            assert (reply.status, reply.json, reply.headers.get("allow")) == (
                405,
                command(f"method {method} not allowed"),
                allow,
            ), path


def test_the_document_lists_the_404_and_the_405_with_allow():
    paths = document("test")["paths"]
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    allow = {"Allow": {"description": "the methods the path takes", "schema": {"type": "string"}}}
    assert paths["/api/v1/solve"]["put"]["responses"] == {
        "405": {
            "description": "command: not allowed; this path takes GET, HEAD, POST (Allow)",
            "headers": allow,
            "content": error,
        }
    }
    assert paths["/healthz"]["post"]["responses"]["405"]["description"] == (
        "command: not allowed; this path takes GET, HEAD (Allow)"
    )
    assert sorted(paths["/api/v1/{name}"]) == ["delete", "get", "head", "patch", "post", "put"]
    assert paths["/api/v1/{name}"]["put"]["responses"] == {
        "404": {
            "description": "command: no such endpoint (``no endpoint /api/v1/<name>``), by any method",
            "content": error,
        }
    }


async def test_an_encoded_slash_is_no_path_separator():
    # s10-break finding 10: GET /api%2Fv1%2Fsolve was routed to /api/v1/solve
    async with running_http_server() as (server, port):
        encoded = await afetch(port, "GET", "/api%2Fv1%2Fsolve?puzzle=1")
        lower = await afetch(port, "GET", "/api/v1%2fsolve")
        puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        plain = await afetch(port, "GET", f"/api/v1/%73olve?puzzle={puzzle}")  # other escapes decode: /api/v1/solve
    assert (encoded.status, encoded.json) == (404, command("no such path"))
    assert (lower.status, lower.json) == (404, command("no such path"))
    assert (plain.status, plain.json["solution"]) == (
        200,
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293",
    )
