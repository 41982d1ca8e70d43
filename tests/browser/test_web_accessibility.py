"""Accessibility of the web page (issue 31), in headless Chromium (tests/support/browser.py).

The grid is an ARIA grid (role=grid, a role=row per row, a role=gridcell per cell named in
aria-label: "row 1 column 3, 5, given"); the arrow keys move between cells (a roving tabindex).
axe-core (4.9, carried by the selenium-axe-python package) finds no serious or critical violation
on load, after solving, with a killer drawn (and its candidates), and in dark mode.
Skipped without Chromium (failed under CI).
"""

from __future__ import annotations

from tests.support.browser import HINTED, Page, Server
from tests.support.browser import paste_read as paste
from tests.support.variant_examples import CAGE_ROWS, CAGE_SUMS

KILLER = "".join(("..8......" if r == 0 else ".........") + " " + CAGE_ROWS[r] + "\n" for r in range(9)) + CAGE_SUMS


def serious(page: Page, state: str) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is (their ids and first targets)."""
    from selenium_axe_python import Axe

    axe = Axe(page.driver)
    axe.inject()
    results = axe.run()
    found = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    print(f"axe, {state}: {len(results['passes'])} rules pass; {Axe.report(results['violations'])}")
    return [f"{v['id']}: {[node['target'] for node in v['nodes'][:3]]}" for v in found]


def test_the_grid_is_an_aria_grid_of_rows_and_named_cells(page: Page):
    from selenium.webdriver.common.keys import Keys

    paste(page, HINTED)
    shape = page.driver.execute_script(
        "const grid = document.querySelector('[role=grid]');"
        " return [...grid.children].map((row) => [row.getAttribute('role'),"
        " [...row.children].map((cell) => cell.getAttribute('role')).join(' ')])"
    )
    assert shape == [["row", " ".join(["gridcell"] * 9)]] * 9
    assert page.cell("r1c1").get_attribute("aria-label") == "row 1 column 1, 4, given"
    assert page.cell("r1c2").get_attribute("aria-label") == "row 1 column 2, empty"
    # one cell in the tab order; the arrows move it
    tabbable = page.driver.execute_script(
        "return [...document.querySelectorAll('[role=gridcell][tabindex=\"0\"]')].length"
    )
    assert tabbable == 1
    page.cell("r5c5").click()
    page.driver.switch_to.active_element.send_keys(Keys.ARROW_UP, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    active = page.driver.switch_to.active_element
    assert active.get_attribute("data-cell") == "r4c3" and active.get_attribute("tabindex") == "0"
    page.driver.switch_to.active_element.send_keys(Keys.END)
    assert page.driver.switch_to.active_element.get_attribute("data-cell") == "r4c9"


def test_axe_finds_no_serious_violation_on_load_after_solving_and_with_a_killer(page: Page, server: Server):
    assert serious(page, "on load") == []
    paste(page, HINTED)
    page.click("Solve")
    assert serious(page, "solved") == []
    page.click("Hint")
    assert serious(page, "hint") == []
    paste(page, KILLER)
    page.click("Candidates")
    page.shot("axe-killer")
    assert serious(page, "killer with candidates") == []


def test_axe_finds_no_serious_violation_in_dark_mode(page: Page, server: Server):
    dark = {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", dark)
    try:
        assert serious(page, "dark, on load") == []
        paste(page, KILLER)
        page.cell("r1c1").click()
        page.driver.switch_to.active_element.send_keys("6")
        page.click("Candidates")
        page.click("Hint")
        page.shot("axe-dark-killer")
        assert serious(page, "dark, killer with a hint") == []
        paste(page, HINTED)
        page.click("Solve")
        assert serious(page, "dark, solved") == []
    finally:
        page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
