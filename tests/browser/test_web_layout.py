"""Phones, dark mode and print on the web page (issue 31), in headless Chromium (tests/support/browser.py).

Emulated with Chrome DevTools: a 390 px wide phone (``Emulation.setDeviceMetricsOverride``) where
the grid fits and nothing scrolls sideways, ``prefers-color-scheme: dark`` and print media
(``Emulation.setEmulatedMedia``): the grid, its cages and clues without the controls.
Skipped without Chromium (failed under CI).
"""

from __future__ import annotations

import contextlib

from tests.support.browser import HINTED, Page, Server
from tests.support.browser import paste_read as paste
from tests.support.variant_examples import CAGE_ROWS, CAGE_SUMS

KILLER = "".join(("..8......" if r == 0 else ".........") + " " + CAGE_ROWS[r] + "\n" for r in range(9)) + CAGE_SUMS
#: The page's rectangle, the grid's, and how wide the document scrolls.
GEOMETRY = """const grid = document.querySelector('#grid').getBoundingClientRect();
return {width: innerWidth, scroll: document.documentElement.scrollWidth, left: grid.left, right: grid.right}"""


@contextlib.contextmanager
def emulated(page: Page, command: str, params: dict, reset: str, reset_params: dict):
    page.driver.execute_cdp_cmd(command, params)
    try:
        yield
    finally:
        page.driver.execute_cdp_cmd(reset, reset_params)


def phone(page: Page):
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
    return emulated(page, "Emulation.setDeviceMetricsOverride", metrics, "Emulation.clearDeviceMetricsOverride", {})


def media(page: Page, **params):
    return emulated(page, "Emulation.setEmulatedMedia", params, "Emulation.setEmulatedMedia", {"features": []})


def test_at_390_px_the_grid_fits_and_nothing_scrolls_sideways(page: Page, server: Server):
    with phone(page):
        page.driver.refresh()
        page.wait(lambda: len(page.cells()) == 81)
        paste(page, HINTED)
        # no keyboard on a phone: the keypad under the grid enters digits and notes in the selected cell
        keypad = {
            e.get_attribute("aria-label"): e for e in page.driver.find_elements(page.by.CSS_SELECTOR, "#keypad button")
        }
        assert list(keypad) == [f"digit {d}" for d in "123456789"] + ["erase"]
        page.cell("r1c2").click()
        keypad["digit 7"].click()
        assert page.cells()[1] == "7"
        page.click("Notes")
        page.cell("r1c3").click()
        keypad["digit 1"].click()
        keypad["digit 2"].click()
        assert page.cell("r1c3").text == "1\n2" and page.cell("r1c3").get_attribute("aria-label").endswith("notes 1 2")
        page.click("Notes")
        page.cell("r1c2").click()
        keypad["erase"].click()
        assert page.cells()[1] == ""
        page.click("Candidates")
        page.shot("phone-9x9")
        shape = page.driver.execute_script(GEOMETRY)
        assert shape["width"] == 390 and shape["scroll"] <= 390, shape
        assert shape["left"] >= 0 and shape["right"] <= 390, shape
        page.click("Solve")  # the answer's long line wraps: the page stays one screen wide
        page.element('select[name="size"]').send_keys("16x16")
        page.click("Generate", bound=None)
        page.shot("phone-16x16")
        shape = page.driver.execute_script(GEOMETRY)
        assert shape["scroll"] <= 390 and shape["right"] <= 390, shape


def test_dark_mode_is_dark(page: Page):
    with media(page, features=[{"name": "prefers-color-scheme", "value": "dark"}]):
        paste(page, KILLER)
        page.cell("r1c1").click()
        page.driver.switch_to.active_element.send_keys("6")
        page.click("Candidates")
        page.shot("dark-killer")
        colours = page.driver.execute_script(
            "return [getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.querySelector('[data-cell=r1c2]')).backgroundColor,"
            " getComputedStyle(document.querySelector('[data-cell=r1c3]')).color]"
        )
        assert colours == ["rgb(20, 23, 31)", "rgb(20, 23, 31)", "rgb(230, 233, 240)"]
    assert page.driver.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"


def test_print_shows_the_grid_cages_and_clues_without_the_controls(page: Page):
    paste(page, KILLER)
    with media(page, media="print"):
        page.shot("print-preview")
        shown = page.driver.execute_script(
            "return ['#grid', '[data-cage-sum]', '.panel', '.tools', '#keypad', 'footer']"
            ".map((css) => getComputedStyle(document.querySelector(css)).display)"
        )
        assert shown == ["flex", "block", "none", "none", "none", "none"]
        width = page.driver.execute_script("return document.querySelector('#grid').getBoundingClientRect().width")
        assert 600 <= width <= 620  # 16 cm (604.7 px) and the border
        dashed = page.driver.execute_script(
            "return getComputedStyle(document.querySelector('[data-cell=r1c1]'), '::before').borderTopStyle"
        )
        assert dashed == "dashed"
        assert page.cell("r1c3").text == "17\n8"  # the cage sum and the given
