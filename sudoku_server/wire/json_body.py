"""A JSON request body read into fields (docs/HTTP.md "Errors"): its numbers checked, its errors naming the field.

Pure: no I/O. :func:`read_body` is what :mod:`sudoku_server.wire.json_api` reads a ``POST`` body with. A number
that no field can take is refused while the body is parsed, with the field it is in: non-finite (``NaN``,
``Infinity``, ``-Infinity``, ``1e999``), or an integer of more than :data:`MAX_DIGITS` digits (Python's
``int`` refuses more than 4,300 digits with a ``ValueError``: that was a ``500`` and a traceback). Malformed
JSON is refused with the parser's words, its position and the field it is in.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from sudoku_server.errors import CommandError

#: Digits of a JSON integer at most (the largest field, ``seed``, takes up to 2**64 - 1: 20 digits).
MAX_DIGITS = 40
_KEY = re.compile(r'"((?:[^"\\]|\\.){1,40})"\s*:')


class _Bad:
    """A number no field takes, in place of its value until the object holding it names its field."""

    __slots__ = ("text", "why")

    def __init__(self, text: str, why: str) -> None:
        self.text = text
        self.why = why

    def error(self, field: str) -> CommandError:
        shown = self.text if len(self.text) <= 24 else f"{self.text[:12]}...{self.text[-6:]}"
        return CommandError(f"field {json.dumps(field)}: {shown} {self.why}")


def _integer(text: str) -> int | _Bad:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        return _Bad(text, f"is not a number a field takes ({digits} digits; at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float | _Bad:
    value = float(text)
    if not math.isfinite(value):
        return _Bad(text, "is not a finite number")
    return value


def _constant(name: str) -> _Bad:
    return _Bad(name, "is not a finite number (not JSON either)")


def _find_bad(value: Any) -> _Bad | None:
    """The first refused number in a list (nested lists included: objects in it checked theirs already)."""
    if isinstance(value, _Bad):
        return value
    if isinstance(value, list):
        for item in value:
            found = _find_bad(item)
            if found is not None:
                return found
    return None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        bad = _find_bad(value)
        if bad is not None:
            raise bad.error(key)
        if key in out:  # as a query naming a field twice (break-session finding: the last one won, silently)
            raise CommandError(f"the body gives field {json.dumps(key)} twice")
        out[key] = value
    return out


def _field_before(text: str, position: int) -> str | None:
    """The name of the field whose value is at ``position`` of ``text`` (the last ``"name":`` before it)."""
    window = text[max(0, position - 200) : position]
    names = _KEY.findall(window)
    return names[-1] if names else None


def read_body(body: bytes) -> dict[str, object]:
    """A request body's JSON object.

    Raises:
      CommandError: not UTF-8 JSON (the parser's words, and the field it is in when there is one), not an object,
        or a number no field takes (``field "limit": 1e999 is not a finite number``), or an object that
        names a field twice (``the body gives field "all" twice``, as a query naming one twice is refused).
    """
    try:
        text = body.decode(json.detect_encoding(body), "surrogatepass")  # as json.loads decodes bytes
    except UnicodeDecodeError as error:  # the protocol's words for it, not the codec's (s9-break finding 11)
        byte = error.object[error.start]
        raise CommandError(
            f"the body is not JSON: byte 0x{byte:02X} (byte {error.start + 1} of the body) is not {error.encoding.upper()}"
        ) from None
    try:
        value = json.loads(
            text, parse_int=_integer, parse_float=_float, parse_constant=_constant, object_pairs_hook=_object
        )
    except json.JSONDecodeError as error:
        field = None if error.msg == "Extra data" else _field_before(text, error.pos)  # after the object: no field
        where = f" (in field {json.dumps(field)})" if field else ""
        raise CommandError(f"the body is not JSON: {error}{where}") from None
    except RecursionError:
        raise CommandError("the body is not JSON: nested too deep") from None
    bad = _find_bad(value)
    if bad is not None:
        raise CommandError(f"the body must be a JSON object, not a number ({bad.text[:24]} {bad.why})")
    if not isinstance(value, dict):
        raise CommandError(f"the body must be a JSON object, not {_json_kind(value)}")
    return value


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words: ``null``, ``true``, ``an array``, ``a string``, ``a number``."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, list):
        return "an array"
    return "a string" if isinstance(value, str) else "a number"
