"""The web page's Rules field end to end (issues 19 and 21): headless Chromium, as tests/test_web_page.py.

The page sends the field as the API's ``rules``; what it shows is checked against the line port's
``SOLVE rules=...`` on the same server. Skipped without Chromium (failed under CI), as test_web_page.py.
"""

from __future__ import annotations

import test_web_page
from test_web_page import Page, Server
from variant_examples import X_ANSWER, X

# the page's fixtures: one server and one browser for this module, the page loaded afresh for each test
browser = test_web_page.browser
server = test_web_page.server
shots = test_web_page.shots
page = test_web_page.page

#: Two 3s a knight's move apart (r1c3, r2c5): fine in classic Sudoku, invalid under antiknight.
KNIGHT = ".." + "3" + "." * 10 + "3" + "." * 67


def set_rules(page: Page, words: str) -> None:
    field = page.element('input[name="rules"]')
    field.clear()
    if words:
        field.send_keys(words)


def test_rules_x_solves_an_x_puzzle_and_a_broken_rule_shows_its_error(page: Page, server: Server):
    set_rules(page, "x")
    page.paste(X)
    page.click("Solve")
    page.shot("x-solved")
    assert server.ask(f"SOLVE rules=x {X}") == X_ANSWER
    assert page.line() == X_ANSWER
    set_rules(page, "antiknight")
    page.paste(KNIGHT)
    page.click("Solve")
    page.shot("knight")
    assert (
        server.ask(f"SOLVE rules=antiknight {KNIGHT}") == "ERROR invalid 3 at r1c3 and r2c5 are a knight's move apart"
    )
    assert page.text("#error .code") == "invalid"
    assert page.element("#error .message").text == "3 at r1c3 and r2c5 are a knight's move apart"
    assert page.names(".bad") == ["r1c3", "r2c5"]
    # an unknown rule: the API's words
    set_rules(page, "knights")
    page.click("Solve")
    assert page.text("#error .code") == "command"
    assert page.element("#error .message").text.startswith("SOLVE: rules: unknown rule 'knights' (rules are classic")
