"""The web page's Rules field end to end (issues 19 and 21): headless Chromium (tests/support/browser.py).

The page sends the field as the API's ``rules``; what it shows is checked against the line port's
``SOLVE rules=...`` on the same server. Skipped without Chromium (failed under CI).
"""

from __future__ import annotations

from tests.support.browser import Page, Server
from tests.support.variant_examples import X_ANSWER, X

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


def test_generate_under_rules_makes_the_line_ports_puzzle_and_keeps_its_regions(page: Page, server: Server):
    """Generate sends the Rules field; a jigsaw's regions stay in the text box, so Count reads the whole puzzle."""
    set_rules(page, "x")
    page.element('input[name="seed"]').send_keys("29")
    page.click("Generate")
    page.shot("x-generated")
    assert page.line() == server.replies("GENERATE rules=x seed=29")[1]
    page.click("Count")
    assert page.text("#status") == "Exactly one solution."
    set_rules(page, "jigsaw")
    page.click("Generate")
    page.shot("jigsaw-generated")
    made = server.replies("GENERATE rules=jigsaw seed=29")[1]
    assert page.line() == made[:81]
    assert page.element('textarea[name="puzzle"]').get_attribute("value").strip() == made
    page.click("Count")
    assert page.text("#status") == "Exactly one solution."
