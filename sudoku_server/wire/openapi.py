"""The OpenAPI 3.1 document of the JSON API (``/api/v1/openapi.json``), built from the endpoint table.

Pure: :func:`document` reads :data:`sudoku_server.wire.json_api.ENDPOINTS` (each row's fields, reply schema
and whether it takes a puzzle) and :data:`~sudoku_server.wire.json_api.STATUS` (the errors): a new row
is documented without an edit here. tests/test_http_openapi.py validates it and checks real replies against it.
"""

from __future__ import annotations

from typing import Any

from sudoku_server.wire.json_api import ENDPOINTS, MAX_BATCH, PREFIX, STATUS, Endpoint

#: The error object's schema (``{"error": {"code", "message", "line"}}``).
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "line"],
            "additionalProperties": False,
            "properties": {
                "code": {"type": "string", "enum": sorted(STATUS)},
                "message": {"type": "string", "description": "the line protocol's words (docs/PROTOCOL.md)"},
                "line": {
                    "type": ["integer", "null"],
                    "description": "the line of the puzzle's text the error is about (1-based), or null",
                },
                "cell": {"type": "string", "description": "mismatch: the first cell that differs (r1c1)"},
            },
        }
    },
}

_ERRORS: dict[str, tuple[str, list[str]]] = {
    "400": ("format, incomplete, invalid or command: the request or its puzzle is not one we answer", []),
    "413": ("too-large: the body is over the limit (--http-max-body, default 1 MiB)", []),
    "422": ("unsolvable, multiple or mismatch: the puzzle has no answer of this kind", []),
    "429": ("busy: the client's solver budget is used; Retry-After says when it has refilled enough", ["Retry-After"]),
    "500": ("internal: a fault of the server (logged; never a traceback)", []),
    "503": ("busy, draining or shutdown: no solver time now, or the server is stopping", ["Retry-After"]),
    "504": ("timeout: the puzzle used its solve timeout", []),
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _schema_name(endpoint: Endpoint) -> str:
    return endpoint.name.capitalize() + "Reply"


def _body_schema(endpoint: Endpoint) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for field in endpoint.fields:
        kind: Any = field.type if field.type in ("boolean", "string") else [field.type, "string"]
        if field.name == "se":
            kind = ["string", "number"]
        properties[field.name] = {"type": kind, "description": field.description}
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": properties}
    if endpoint.takes_puzzle:
        properties["puzzle"] = {"type": "string", "description": "the puzzle's text in any layout (docs/LAYOUTS.md)"}
        properties["puzzles"] = {
            "type": "array",
            "maxItems": MAX_BATCH,
            "items": {"type": "string"},
            "description": f"the batch form: up to {MAX_BATCH} puzzles, answered in order",
        }
        properties["fpuzzles"] = {
            "type": "object",
            "description": "an f-puzzles object (size, grid, rule keys), instead of puzzle (docs/LAYOUTS.md)",
        }
        schema["oneOf"] = [{"required": ["puzzle"]}, {"required": ["puzzles"]}, {"required": ["fpuzzles"]}]
        if endpoint.second:
            schema["required"] = [endpoint.second]
    return schema


def _responses(endpoint: Endpoint) -> dict[str, Any]:
    reply = _ref(_schema_name(endpoint))
    ok: dict[str, Any] = reply
    if endpoint.takes_puzzle:
        ok = {
            "oneOf": [
                reply,
                {
                    "type": "object",
                    "required": ["results"],
                    "additionalProperties": False,
                    "properties": {"results": {"type": "array", "items": {"oneOf": [reply, _ref("Error")]}}},
                },
            ]
        }
    responses: dict[str, Any] = {
        "200": {
            "description": "the answer (the batch form: results in order, each an answer or an error)",
            "content": {"application/json": {"schema": ok}},
        }
    }
    for status, (words, headers) in _ERRORS.items():
        if status == "422" and not endpoint.takes_puzzle:
            continue
        response: dict[str, Any] = {"description": words, "content": {"application/json": {"schema": _ref("Error")}}}
        if headers:
            response["headers"] = {
                "Retry-After": {"description": "seconds to wait", "schema": {"type": "integer", "minimum": 1}}
            }
        responses[status] = response
    return responses


#: The methods the server knows (RFC 9110) that no path of the API takes but with a ``405``; listed on every path
#: with that ``405`` and its ``Allow``, so that the document says what a client of them gets.
REFUSED_METHODS = ("put", "patch", "delete")


def _refused(path: dict[str, Any], allow: str) -> dict[str, Any]:
    """``path`` (a path item) with a ``405`` operation for each method of :data:`REFUSED_METHODS`, and for
    ``post`` when it takes none (``allow``: the ``Allow`` header it is sent with, ``GET, HEAD`` or
    ``GET, HEAD, POST``)."""
    out = dict(path)
    response = {**_METHOD_NOT_ALLOWED, "description": f"command: not allowed; this path takes {allow} (Allow)"}
    for method in (*REFUSED_METHODS, *(() if "POST" in allow else ("post",))):
        out.setdefault(method, {"summary": f"Not allowed ({allow} only)", "responses": {"405": response}})
    return out


_METHOD_NOT_ALLOWED: dict[str, Any] = {
    "description": "command: the path takes other methods",
    "headers": {"Allow": {"description": "the methods the path takes", "schema": {"type": "string"}}},
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def _without_content(responses: dict[str, Any]) -> dict[str, Any]:
    """The responses of a ``HEAD``: those of the ``GET``, their headers kept and their bodies left out."""
    return {status: {k: v for k, v in response.items() if k != "content"} for status, response in responses.items()}


def _parameters(endpoint: Endpoint) -> list[dict[str, Any]]:
    params = []
    if endpoint.takes_puzzle:
        params.append(
            {
                "name": "puzzle",
                "in": "query",
                "required": True,
                "description": "the puzzle's text in any layout (URL-encoded)",
                "schema": {"type": "string"},
            }
        )
    for field in endpoint.fields:
        description = field.description
        if field.type == "boolean":
            description += " (true, 1, yes, on or empty; false, 0, no, off)"
        param: dict[str, Any] = {
            "name": field.name,
            "in": "query",
            "description": description,
            "schema": {"type": "string"},
        }
        if field.name == endpoint.second:
            param["required"] = True
        params.append(param)
    return params


def document(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the API (a JSON object), for the server's ``version``."""
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {"Error": ERROR_SCHEMA}
    for endpoint in ENDPOINTS.values():
        schemas[_schema_name(endpoint)] = endpoint.schema
        paths[f"{PREFIX}{endpoint.name}"] = {
            "post": {
                "operationId": f"{endpoint.name}Post",
                "summary": endpoint.summary,
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _body_schema(endpoint)}},
                },
                "responses": _responses(endpoint),
            },
            "get": {
                "operationId": f"{endpoint.name}Get",
                "summary": endpoint.summary + " (fields as query parameters)",
                "parameters": _parameters(endpoint),
                "responses": _responses(endpoint),
            },
            "head": {
                "operationId": f"{endpoint.name}Head",
                "summary": "The GET's status and headers, without its body",
                "parameters": _parameters(endpoint),
                "responses": _without_content(_responses(endpoint)),
            },
        }
    for path, item in list(paths.items()):
        paths[path] = _refused(item, "GET, HEAD, POST")
    no_endpoint = {
        "description": "command: no such endpoint (``no endpoint /api/v1/<name>``), by any method",
        "content": {"application/json": {"schema": _ref("Error")}},
    }
    paths[f"{PREFIX}{{name}}"] = {
        method: {
            "summary": "A name that is no endpoint of this document (concrete paths match first)",
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {"404": no_endpoint},
        }
        for method in ("get", "head", "post", *REFUSED_METHODS)
    }
    paths["/healthz"] = {
        "get": {
            "operationId": "health",
            "summary": "Health check for load balancers and probes",
            "responses": {
                "200": {"description": "serving", "content": {"text/plain": {"schema": {"type": "string"}}}},
                "503": {
                    "description": "draining or stopping: take this server out",
                    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                },
            },
        }
    }
    paths[f"{PREFIX}rules"] = {
        "get": {
            "operationId": "rules",
            "summary": "The rules the server knows: each rule's word, what it means, its sizes, its f-puzzles keys,"
            " its line syntax and how the page draws it (docs/HTTP.md)",
            "responses": {"200": {"description": "the rules", "content": {"application/json": {"schema": {}}}}},
        }
    }
    paths[f"{PREFIX}openapi.json"] = {
        "get": {
            "operationId": "openapi",
            "summary": "This document",
            "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {}}}}},
        }
    }
    for path in ("/healthz", f"{PREFIX}rules", f"{PREFIX}openapi.json"):
        paths[path] = _refused(paths[path], "GET, HEAD")
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "sudoku-server JSON API",
            "version": version,
            "description": "Solve, count, generate, rate and explain Sudoku puzzles and their variants; canonical"
            " forms, equivalence, uniqueness and minimality for puzzle makers (docs/HTTP.md). Errors carry"
            " the line protocol's codes and words.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }
