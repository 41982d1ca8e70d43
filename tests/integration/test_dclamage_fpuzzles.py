"""dclamage's SudokuSolver f-puzzles test payloads (tests/data/fpuzzles_dclamage/README.md): each one whose rules
we have solves to its published solution, on the line protocol and over HTTP, and CP-SAT agrees; the skipped ones say why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import LINK, decompress, read_object
from tests.support.cpsat_oracle import solutions
from tests.support.httptools import afetch, running_http_server
from tests.support.sessions import replies

DATA = Path(__file__).resolve().parents[1] / "data" / "fpuzzles_dclamage" / "puzzles.json"
PUZZLES = json.loads(DATA.read_text())
CHECKED = [p for p in PUZZLES if "skip" not in p]


def test_the_data_holds_what_the_readme_says():
    assert len(PUZZLES) == 37 and len(CHECKED) == 14
    assert all(p["skip"] for p in PUZZLES if p not in CHECKED)


@pytest.mark.parametrize("puzzle", CHECKED, ids=[p["title"][:30] for p in CHECKED])
def test_a_payload_solves_to_its_published_solution_on_the_line_protocol(puzzle):
    link = LINK + puzzle["payload"]
    assert replies(f"COUNT {link}\nSOLVE {link}\n".encode()) == f"COUNT 1 unique\n{puzzle['solution']}\n".encode()


async def test_the_payloads_solve_over_http():
    async with running_http_server() as (_server, port):
        for puzzle in CHECKED:
            reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": LINK + puzzle["payload"]})
            assert (reply.status, reply.json["solution"]) == (200, puzzle["solution"]), puzzle["title"]


@pytest.mark.parametrize("puzzle", CHECKED, ids=[p["title"][:30] for p in CHECKED])
def test_cpsat_agrees(puzzle):
    """CP-SAT (tests/support/cpsat_oracle.py), on the rules as we read them, finds the published solution alone."""
    grid, variant = read_object(json.loads(decompress(puzzle["payload"]) or "{}"))
    geometry = variant_geometry(variant, grid.box_rows, grid.box_cols)
    found = solutions(grid.cells, geometry, limit=2)
    assert ["".join(map(str, s)) for s in found] == [puzzle["solution"]]
