"""Replies as the documents show them: STATS counts what was answered when it is answered and has the
fields PROTOCOL.md lists; every HELP example runs and answers as shown; the README's ``SOLVE any``.
"""

from __future__ import annotations

import re

import pytest

from sudoku_server.sudoku.solver import CORE
from sudoku_server.wire.replies import help_lines
from sudoku_server.wire.verbs import VERBS
from tests.support.examples import INKALA, INKALA_SOLUTION
from tests.support.paths import REPO
from tests.support.servers import ask, stat_values


async def test_stats_after_pipelined_puzzles_counts_them():
    n = 5
    reply = await ask((f"SOLVE {INKALA}\n" * n + "STATS\n").encode())
    answers, stats = reply.split(b"STAT ", 1)
    assert answers == (INKALA_SOLUTION + "\n").encode() * n
    values = stat_values(b"STAT " + stats)
    assert (values["puzzles"], values["answers"], values["queued"], values["running"]) == (str(n), str(n), "0", "0")


async def test_protocol_md_lists_every_stat_field():
    # GENERATE level=easy starts that level's warm pool: its pool_easy field is sent too (issue 20)
    reply = await ask(b"PING\nHELP fo\nGENERATE level=easy\nSTATS\n")
    values = stat_values(reply.split(b"\n", 4)[4])
    text = (REPO / "docs" / "PROTOCOL.md").read_text()
    section = text[text.index("### STATS") :]
    section = section[: section.index("\n## ")] if "\n## " in section else section
    documented = set(re.findall(r"^\| `([a-z_0-9<>]+)` \|", section, re.M))
    pools = {"pool_served", "pool_fill_seconds"}
    sent = {
        "errors_<code>"
        if name.startswith("errors_")
        else "pool_<label>"
        if name.startswith("pool_") and name not in pools
        else name
        for name in values
    }
    assert "pool_easy" in values
    assert sent == documented


def _runnable_examples() -> list[tuple[str, str | None]]:
    out = []
    for verb in VERBS.values():
        request, _, expected = verb.example.partition(" -> ")
        if "<" in request:
            continue  # a placeholder (<puzzle>), not a line to send
        out.append((request, expected if expected and "<" not in expected and "..." not in expected else None))
    return out


async def test_every_help_example_runs_and_answers_as_shown():
    examples = _runnable_examples()
    assert "HELP COUNT" in [request for request, _ in examples]
    for request, expected in examples:
        if request.split()[0] == "QUIT":
            continue  # ends the connection: sent last, below
        reply = await ask((request + "\n").encode())
        assert not reply.startswith(b"ERROR"), (request, reply)
        if expected is not None:
            assert reply.decode().splitlines()[0] == expected, request
    assert await ask(b"QUIT\n") == b"BYE\n"
    help_count = "\n".join(help_lines("COUNT"))
    assert "COUNT " + "." * 80 + "9 -> COUNT 2+ multiple" in help_count


@pytest.mark.skipif(CORE != "native", reason="the README shows what the default (native) build prints")
async def test_the_readme_solve_any_example_is_what_the_server_prints():
    readme = (REPO / "docs" / "TOUR.md").read_text()  # the README's tour of the verbs
    block = readme[readme.index("printf 'SOLVE any %s\\n'") :]
    shown = block.splitlines()[1]
    assert await ask(b"SOLVE any " + b"." * 81 + b"\n") == (shown + "\n").encode()
