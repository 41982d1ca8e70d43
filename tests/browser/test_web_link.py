"""The address holds the puzzle (issue 31), in headless Chromium (tests/support/browser.py).

A killer with its cages, its rules and the person's digits, copied from the address bar and opened
in a second browser, is the same puzzle there (its cells, regions, cages and sums) and solves the
same; the back button steps through puzzles, not keystrokes. Skipped without Chromium (failed under CI).
"""

from __future__ import annotations

from tests.support.browser import HINTED, Page, Server, find_binary
from tests.support.browser import paste_read as paste
from tests.support.variant_examples import CAGE_ROWS, CAGE_SUMS, KILLER_ANSWER, X

KILLER = "".join(("..8......" if r == 0 else ".........") + " " + CAGE_ROWS[r] + "\n" for r in range(9)) + CAGE_SUMS

#: What a puzzle is on the page: every cell's value, region, cage, diagonal mark, and the cage sums.
STATE = """return {
  cells: [...document.querySelectorAll('[data-cell]')].map((c) =>
    [c.dataset.cell, c.value, c.dataset.region, c.dataset.cage ?? null, 'diagonal' in c.dataset, 'given' in c.dataset]),
  sums: [...document.querySelectorAll('[data-cage-sum]')].map((s) => [s.closest('[data-cell]').dataset.cell, s.textContent]),
}"""


def second_browser():
    """A browser of its own (no state shared with the module's): as someone the link was sent to."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = find_binary("chromium", "chromium-browser")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(find_binary("chromedriver")), options=options)


def test_a_link_opened_in_a_second_browser_shows_the_same_puzzle(page: Page, server: Server, shots):
    page.element('input[name="rules"]').send_keys("x")
    paste(page, KILLER)
    page.cell("r1c1").click()
    page.driver.switch_to.active_element.send_keys("6")  # the person's digit travels too
    here = page.driver.execute_script(STATE)
    link = page.driver.current_url
    assert "#" in link and "cages=" in link and "rules=x%2Bkiller" in link
    other = second_browser()
    try:
        other.get(link)
        page.wait(lambda: other.execute_script("return document.querySelectorAll('[data-cell]').length") == 81)
        other.save_screenshot(str(shots / "link-second-browser.png"))
        there = other.execute_script(STATE)
        assert there == here
        assert len(there["sums"]) == 34 and sum(1 for cell in there["cells"] if cell[4]) == 17
        assert other.find_element("css selector", 'input[name="rules"]').get_attribute("value") == "x"
        other.find_element("xpath", "//button[text()='Count']").click()
        page.wait(lambda: other.execute_script("return document.body.dataset.done") is not None)
        # killer-X: the docs' killer has no solution with the diagonals (test_http_variants.py)
        assert other.find_element("css selector", "#status").text == "No solution."
    finally:
        other.quit()


def test_a_killer_link_solves_as_the_pasted_killer(page: Page, server: Server):
    paste(page, KILLER)
    link = page.driver.current_url
    page.driver.get("about:blank")
    page.driver.get(link)
    page.wait(lambda: page.driver.execute_script("return document.querySelectorAll('[data-cage-sum]').length") == 34)
    assert page.element('textarea[name="puzzle"]').get_attribute("value") == ""  # the grid is the puzzle
    page.click("Solve")
    assert page.line() == KILLER_ANSWER


def test_back_steps_through_puzzles_not_keystrokes(page: Page):
    from selenium.webdriver.common.keys import Keys

    paste(page, HINTED)
    first = page.driver.current_url
    page.element('input[name="rules"]').send_keys("x")
    paste(page, X)
    page.cell("r1c1").click()
    page.driver.switch_to.active_element.send_keys(
        "1", Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, "3"
    )  # two digits: not two history entries
    typed = page.line()
    assert typed[:3] == "123"
    page.driver.back()
    page.wait(lambda: page.line() == HINTED)
    assert page.driver.current_url == first
    assert page.names("[data-diagonal]") == []
    page.driver.forward()
    page.wait(lambda: page.line() == typed)
    assert len(page.names("[data-diagonal]")) == 17
