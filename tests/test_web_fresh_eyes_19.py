"""The fresh-eyes findings f05 and f08 on the web page (headless Chromium, tests/webtools.py).

- f05: a seed above 2**53 typed into the Seed box makes the line port's ``GENERATE seed=`` puzzle, and the page
  reports the seed with every digit (a JSON number would be rounded by the browser).
- f08: a captioned paste is solved, its givens shown on the grid, as the line port reads it (the caption skipped).

Skipped without Chromium (failed under CI).
"""

from __future__ import annotations

import webtools
from webtools import HINTED, Page, Server, solution_of

# the page's fixtures: one server and one browser for this module, the page loaded afresh for each test
browser = webtools.browser
server = webtools.server
shots = webtools.shots
page = webtools.page

BIG_SEED = "15299291225202835323"  # above 2**53: a double holds 15299291225202835456


def test_f05_a_big_seed_makes_the_line_ports_puzzle_and_is_reported_exactly(page: Page, server: Server):
    page.element('input[name="seed"]').send_keys(BIG_SEED)
    page.click("Generate")
    page.shot("generated-big-seed")
    assert page.line() == server.replies(f"GENERATE seed={BIG_SEED}")[1]
    assert f"seed {BIG_SEED}" in page.text("#status")


def test_f08_a_captioned_paste_is_solved_with_its_givens_on_the_grid(page: Page, server: Server):
    page.paste("Solve this one please:\n" + HINTED + "\n")
    page.click("Solve")
    page.shot("captioned-solved")
    assert page.line() == solution_of(server, HINTED)
    assert page.names(".given") == [f"r{i // 9 + 1}c{i % 9 + 1}" for i, c in enumerate(HINTED) if c != "."]
