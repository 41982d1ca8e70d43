"""The OpenAPI 3.1 document (``/api/v1/openapi.json``): it validates, and every endpoint's real replies match it."""

from __future__ import annotations

import urllib.parse

import jsonschema
from openapi_spec_validator import validate

from sudoku_server.wire.json_api import ENDPOINTS, STATUS
from tests.support.examples import NEWSPAPER, NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.httptools import afetch, running_http_server
from tests.support.variant_examples import X

TWO = "." * 80 + "9"
NEAR = ".." + NEWSPAPER_SOLUTION[2:]
UNSOLVABLE = "12345678." + "........9" + "." * 63
DUPLICATE = "77" + NEWSPAPER_LINE[2:]

#: (endpoint, body) pairs: each endpoint's answers and errors (the same bodies go as GET query strings).
CALLS: list[tuple[str, dict]] = [
    ("solve", {"puzzle": NEWSPAPER_LINE}),
    ("solve", {"puzzle": NEWSPAPER, "any": True}),
    ("solve", {"puzzle": UNSOLVABLE}),
    ("solve", {"puzzle": DUPLICATE}),
    ("solve", {"puzzle": "12"}),
    ("solve", {"puzzles": [NEWSPAPER_LINE, DUPLICATE, UNSOLVABLE]}),
    ("solve", {"puzzle": NEWSPAPER_LINE + "," + NEWSPAPER_SOLUTION[:80] + "4"}),
    ("count", {"puzzle": TWO, "limit": 5}),
    ("count", {"puzzle": TWO, "limit": 0}),
    ("candidates", {"puzzle": TWO}),
    ("candidates", {"puzzles": [NEWSPAPER_LINE, DUPLICATE]}),
    ("generate", {"size": 4, "seed": 3, "symmetry": "rot180"}),
    ("generate", {"full": True, "size": 6, "seed": 3}),
    ("generate", {"level": "easy", "seed": 5, "se": "1.0-3.0"}),
    ("generate", {"size": 10}),
    ("rate", {"puzzle": NEAR}),
    ("rate", {"puzzle": TWO}),
    ("hint", {"puzzle": NEWSPAPER_LINE}),
    ("hint", {"puzzle": NEWSPAPER_LINE, "nudge": True}),
    ("hint", {"puzzle": NEWSPAPER_SOLUTION}),
    ("steps", {"puzzle": NEAR}),
    ("steps", {"puzzles": [NEAR, TWO]}),
    ("solve", {"puzzle": X, "rules": "x"}),
    ("count", {"puzzle": X, "rules": "x+foo"}),
    ("generate", {"size": 16, "rules": "windoku"}),
    ("generate", {"rules": "killer", "seed": 1}),
    ("generate", {"rules": "jigsaw+x", "seed": 2}),
    ("canon", {"puzzle": NEWSPAPER_LINE, "map": True}),
    ("canon", {"puzzles": [NEWSPAPER_LINE, "." * 256]}),
    ("same", {"puzzle": NEWSPAPER_LINE, "other": NEWSPAPER}),
    ("same", {"puzzle": NEWSPAPER_LINE, "other": TWO}),
    ("unique", {"puzzle": NEWSPAPER_LINE}),
    ("parse", {"puzzle": NEWSPAPER, "rules": "x"}),
    ("parse", {"puzzles": [NEWSPAPER_LINE, "12"]}),
    ("unique", {"puzzles": [TWO, UNSOLVABLE, DUPLICATE]}),
    ("minimal", {"puzzle": NEAR}),
    ("minimal", {"puzzle": TWO}),
]


def _query(body: dict) -> str:
    pairs = []
    for key, value in body.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        pairs.append((key, str(value)))
    return urllib.parse.urlencode(pairs)


def _check(document: dict, schema: dict, value: object) -> None:
    """``value`` against ``schema`` of the document (its ``#/components/...`` references resolved in it)."""
    jsonschema.Draft202012Validator({**schema, "components": document["components"]}).validate(value)


async def test_the_document_validates_and_describes_every_endpoint():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", "/api/v1/openapi.json")
        assert reply.status == 200 and reply.headers["content-type"] == "application/json"
        document = reply.json
    validate(document)  # OpenAPI 3.1 (openapi-spec-validator)
    assert document["openapi"] == "3.1.0"
    for name, endpoint in ENDPOINTS.items():
        path = document["paths"][f"/api/v1/{name}"]
        assert set(path) == {"get", "head", "post", "put", "patch", "delete"}
        assert set(path["put"]["responses"]) == {"405"}
        body = path["post"]["requestBody"]["content"]["application/json"]["schema"]
        fields = {field.name for field in endpoint.fields} | ({"puzzle", "puzzles"} if endpoint.takes_puzzle else set())
        assert set(body["properties"]) == fields | ({"fpuzzles"} if endpoint.takes_puzzle else set())
        assert {p["name"] for p in path["get"]["parameters"]} == fields - {"puzzles"}
    codes = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert codes == sorted(STATUS)
    assert "/healthz" in document["paths"] and "/api/v1/rules" in document["paths"]  # rules: a break-session finding


async def test_every_reply_matches_the_document():
    seen: set[tuple[str, int]] = set()
    async with running_http_server() as (server, port):
        document = (await afetch(port, "GET", "/api/v1/openapi.json")).json
        for name, body in CALLS:
            operation = document["paths"][f"/api/v1/{name}"]
            _check(document, operation["post"]["requestBody"]["content"]["application/json"]["schema"], body)
            replies = [("post", await afetch(port, "POST", f"/api/v1/{name}", body))]
            if "puzzles" not in body:
                replies.append(("get", await afetch(port, "GET", f"/api/v1/{name}?{_query(body)}")))
            for method, reply in replies:
                response = operation[method]["responses"][str(reply.status)]
                _check(document, response["content"]["application/json"]["schema"], reply.json)
                if "headers" in response:
                    assert int(reply.headers["retry-after"]) >= 1
                seen.add((name, reply.status))
    # every endpoint answered, and each of these statuses came up
    assert {name for name, _ in seen} == set(ENDPOINTS)
    assert {status for _, status in seen} == {200, 400, 422}
