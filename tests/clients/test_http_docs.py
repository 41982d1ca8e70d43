"""docs/HTTP.md and the README: every ``curl`` example, run again with ``curl`` against a real server, gives the
output the document shows (the ``date`` header left out, as there)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess

import pytest
import trio

from tests.support.httptools import running_http_server
from tests.support.paths import REPO

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")


def examples(path) -> list[tuple[str, str]]:
    """``(command, output)`` of each ``$ curl ...`` in the document's console blocks."""
    text = path.read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        lines = block.split("\n")
        if lines[0].startswith("$ curl "):
            found.append((lines[0][2:], "\n".join(lines[1:]).rstrip("\n")))
    return found


def run_curl(command: str, port: int) -> str:
    args = shlex.split(command.replace("localhost:8080", f"127.0.0.1:{port}"))
    out = subprocess.run(args, capture_output=True, text=True, timeout=60).stdout
    lines = [line.rstrip("\r") for line in out.split("\n") if not line.lower().startswith("date:")]
    return "\n".join(lines).rstrip("\n")


async def test_http_md_examples_are_real():
    found = examples(REPO / "docs" / "HTTP.md")
    assert len(found) >= 14
    async with running_http_server() as (server, port):
        for command, shown in found:
            assert await trio.to_thread.run_sync(run_curl, command, port) == shown, command


async def test_readme_example_is_real():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^(curl -s 'localhost:8080/api/v1/solve\?puzzle=[^']*')$", text, re.M).group(1)
    shown = text.split(command, 1)[1].split("```\n\n```\n", 1)[1].split("\n```", 1)[0]
    async with running_http_server() as (server, port):
        assert await trio.to_thread.run_sync(run_curl, command, port) == shown
