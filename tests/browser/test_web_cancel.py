"""Long work on the web page can be seen and cancelled (issue 31), in headless Chromium (tests/support/browser.py).

The network is slowed (Chrome DevTools ``Network.emulateNetworkConditions``: 4 s of latency) so
that any request is long: after 0.5 s ``#status`` shows the seconds elapsed and a Cancel button;
Cancel aborts the request (the page's AbortController) and its answer never reaches the grid.
Skipped without Chromium (failed under CI).
"""

from __future__ import annotations

import re
import time

from tests.support.browser import HINTED, Page, done

SLOW = {"offline": False, "latency": 4000, "downloadThroughput": -1, "uploadThroughput": -1}
FAST = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


def test_a_slow_request_shows_its_seconds_and_cancel_aborts_it(page: Page):
    before = done(page)
    page.paste(HINTED)
    page.wait(lambda: done(page) > before)
    cancel = page.element('button[data-action="cancel"]')
    assert not cancel.is_displayed()
    page.driver.execute_cdp_cmd("Network.enable", {})
    page.driver.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW)
    try:
        before = done(page)
        clicked = time.monotonic()
        page.driver.find_element(page.by.XPATH, "//button[text()='Solve']").click()
        page.wait(lambda: cancel.is_displayed(), timeout=3.5)
        assert time.monotonic() - clicked >= 0.5  # not before half a second
        page.wait(lambda: re.fullmatch(r"Working on solve: (\d+\.\d) s Cancel", page.text("#status")) is not None)
        seconds = float(re.search(r"(\d+\.\d) s", page.text("#status")).group(1))
        assert seconds >= 0.5
        page.shot("working")
        cancel.click()
        page.wait(lambda: done(page) > before)
        page.shot("cancelled")
        assert re.fullmatch(r"Cancelled solve after \d+\.\d s\.", page.text("#status")), page.text("#status")
        assert not cancel.is_displayed() and not page.element("#error").is_displayed()
        # the aborted answer never lands: the grid is still the puzzle after the latency has passed
        time.sleep(4.5)
        assert page.line() == HINTED
    finally:
        page.driver.execute_cdp_cmd("Network.emulateNetworkConditions", FAST)
        page.driver.execute_cdp_cmd("Network.disable", {})
    page.click("Solve")
    assert page.line() != HINTED and "." not in page.line()
