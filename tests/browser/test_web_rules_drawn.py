"""Every rule drawn on the web page (issue 31), in headless Chromium (tests/support/browser.py).

A pasted or generated jigsaw, killer, X or windoku puzzle is on the grid at once with its rule
data drawn: ``data-region`` on every cell and a thick line exactly between cells of different
regions, ``data-cage`` on every cell of a killer cage with its sum in one ``[data-cage-sum]`` in
the cage's first cell and dashed sides, ``data-diagonal`` on X's diagonals and the windoku windows
shaded. Each is then solved as the line port solves it. Skipped without Chromium (failed under CI).
"""

from __future__ import annotations

import re

from tests.support.browser import Page, Server
from tests.support.browser import paste_read as paste
from tests.support.variant_examples import (
    CAGE_ROWS,
    CAGE_SUMS,
    JIGSAW_ANSWER,
    JIGSAW_GIVENS,
    JIGSAW_REGIONS,
    KILLER_ANSWER,
    WINDOKU,
    WINDOKU_ANSWER,
    X_ANSWER,
    X,
)

#: The killer of docs/LAYOUTS.md as a cage block with one given (r1c3 = 8), the CodinGame form.
KILLER = "".join(("..8......" if r == 0 else ".........") + " " + CAGE_ROWS[r] + "\n" for r in range(9)) + CAGE_SUMS


def set_rules(page: Page, words: str) -> None:
    field = page.element('input[name="rules"]')
    field.clear()
    field.send_keys(words)


def attribute(page: Page, name: str) -> list[str | None]:
    """Each cell's attribute ``name`` (None where it has none), row-major."""
    return page.driver.execute_script(
        "return [...document.querySelectorAll('[data-cell]')].map((cell) => cell.getAttribute(arguments[0]))", name
    )


def classes(page: Page, name: str) -> list[bool]:
    return page.driver.execute_script(
        "return [...document.querySelectorAll('[data-cell]')].map((cell) => cell.classList.contains(arguments[0]))",
        name,
    )


def numbered(symbols: str) -> list[int]:
    """Region symbols as numbers 1.. in the order they first appear (as the page numbers them)."""
    order = list(dict.fromkeys(symbols))
    return [order.index(symbol) + 1 for symbol in symbols]


def thick_lines(regions: list[int], n: int) -> tuple[list[bool], list[bool]]:
    """Per cell whether a thick line is on its right and below it: its neighbour is of another region."""
    right = [i % n < n - 1 and regions[i] != regions[i + 1] for i in range(n * n)]
    below = [i < n * (n - 1) and regions[i] != regions[i + n] for i in range(n * n)]
    return right, below


def test_a_pasted_jigsaw_shows_its_regions_and_solves(page: Page, server: Server):
    paste(page, JIGSAW_GIVENS + JIGSAW_REGIONS)
    page.shot("jigsaw")
    regions = numbered(JIGSAW_REGIONS)
    assert attribute(page, "data-region") == [str(r) for r in regions]
    right, below = thick_lines(regions, 9)
    assert classes(page, "rr") == right and classes(page, "rb") == below
    assert page.line() == JIGSAW_GIVENS
    assert page.text("#rules-shown") == "Rules: jigsaw"
    # a hint's unit is the jigsaw region the step names ("region b": the puzzle's own symbol)
    page.click("Hint")
    words = server.ask(f"HINT {JIGSAW_GIVENS}{JIGSAW_REGIONS}").removeprefix("HINT ")
    assert page.text("#hint .words") == words and "in region b" in words
    assert page.names(".focus") == [f"r{i // 9 + 1}c{i % 9 + 1}" for i, s in enumerate(JIGSAW_REGIONS) if s == "b"]
    page.click("Solve")
    page.shot("jigsaw-solved")
    assert page.line() == JIGSAW_ANSWER == server.ask(JIGSAW_GIVENS + JIGSAW_REGIONS)
    # with a digit of the person's the page writes the jigsaw line itself (its own region symbols)
    page.click("Undo")
    page.cell("r1c1").click()
    page.driver.switch_to.active_element.send_keys(JIGSAW_ANSWER[0])
    page.click("Hint")
    mine = "".join("abcdefghi"[r - 1] for r in regions)
    words = server.ask(f"HINT {JIGSAW_ANSWER[0]}{JIGSAW_GIVENS[1:]}{mine}").removeprefix("HINT ")
    assert page.text("#hint .words") == words
    unit = re.search(r"in (region|row|column) (\S+) \(", words).groups()
    if unit[0] == "region":  # its cells are lit as the unit to look at
        at = "abcdefghi".index(unit[1]) + 1
        assert page.names(".focus") == [f"r{i // 9 + 1}c{i % 9 + 1}" for i, r in enumerate(regions) if r == at]


def test_a_pasted_killer_shows_its_cages_and_sums_and_solves(page: Page, server: Server):
    paste(page, KILLER)
    page.shot("killer")
    symbols = "".join(CAGE_ROWS)
    order = list(dict.fromkeys(symbols))
    sums = dict(pair.split("=") for pair in CAGE_SUMS.split())
    # the page numbers cages in the puzzle's order (the sums line's), each cell carries its cage
    cage_order = [pair.split("=")[0] for pair in CAGE_SUMS.split()]
    assert attribute(page, "data-cage") == [str(cage_order.index(s) + 1) for s in symbols]
    elements = page.driver.execute_script(
        "return [...document.querySelectorAll('[data-cage-sum]')].map((sum) =>"
        " [sum.closest('[data-cell]').dataset.cell, sum.textContent])"
    )
    firsts = {s: symbols.index(s) for s in order}
    assert sorted(elements) == sorted([f"r{firsts[s] // 9 + 1}c{firsts[s] % 9 + 1}", sums[s]] for s in order)
    assert len(elements) == 34
    # dashed sides where the cage ends; none where it goes on
    style = page.driver.execute_script(
        "const s = getComputedStyle(document.querySelector('[data-cell=r1c1]'), '::before');"
        " return [s.borderTopStyle, s.borderTopWidth, s.borderRightWidth, s.borderLeftWidth]"
    )
    assert style == ["dashed", "2px", "0px", "2px"]  # r1c1, r1c2 are cage a: no line between them
    assert page.cell("r1c1").get_attribute("aria-label") == "row 1 column 1, empty, cage 13"
    assert page.line() == "..8" + "." * 78
    page.click("Solve")
    page.shot("killer-solved")
    assert page.line() == KILLER_ANSWER
    # a hint on the killer is the line port's (the page writes the cage block back)
    page.click("Undo")
    page.click("Hint")
    assert page.text("#hint .words") == server.replies(f"HINT rules=killer\n{KILLER}")[0].removeprefix("HINT ")


def test_x_diagonals_and_windoku_windows_are_shaded(page: Page, server: Server):
    set_rules(page, "x")
    paste(page, X)
    page.shot("x")
    diagonal = [i % 10 == 0 or (i % 8 == 0 and 0 < i < 80) for i in range(81)]
    assert [value is not None for value in attribute(page, "data-diagonal")] == diagonal
    shade = page.driver.execute_script(
        "return ['r1c1', 'r1c2'].map((name) => getComputedStyle(document.querySelector(`[data-cell=${name}]`))"
        ".backgroundColor)"
    )
    assert shade[0] != shade[1]
    page.click("Solve")
    assert page.line() == X_ANSWER
    set_rules(page, "windoku")
    paste(page, WINDOKU)
    page.shot("windoku")
    window = [i // 9 in (1, 2, 3, 5, 6, 7) and i % 9 in (1, 2, 3, 5, 6, 7) for i in range(81)]
    assert classes(page, "win") == window
    page.click("Solve")
    assert page.line() == WINDOKU_ANSWER


def test_a_generated_killer_and_jigsaw_are_drawn(page: Page, server: Server):
    set_rules(page, "killer")
    page.element('input[name="seed"]').send_keys("1")
    page.click("Generate", bound=None)  # a killer takes the generator seconds
    page.shot("killer-generated")
    made = server.replies("GENERATE rules=killer seed=1")
    sums = [line for line in made if "=" in line][-1].split()
    assert len(page.driver.find_elements(page.by.CSS_SELECTOR, "[data-cage-sum]")) == len(sums)
    shown = sorted(e.text for e in page.driver.find_elements(page.by.CSS_SELECTOR, "[data-cage-sum]"))
    assert shown == sorted(pair.split("=")[1] for pair in sums)
    page.click("Count")
    assert page.text("#status") == "Exactly one solution."
    set_rules(page, "jigsaw")
    page.click("Generate", bound=None)
    page.shot("jigsaw-generated")
    line = server.replies("GENERATE rules=jigsaw seed=1")[1]
    assert attribute(page, "data-region") == [str(r) for r in numbered(line[81:])]
    assert page.line() == line[:81]


def test_a_16x16_with_notes_in_every_cell(page: Page, server: Server):
    page.element('select[name="size"]').send_keys("16x16")
    page.element('input[name="seed"]').send_keys("5")
    page.click("Generate", bound=None)
    page.click("Candidates")
    page.shot("16x16-candidates")
    made = page.line()
    assert len(made) == 256 and re.fullmatch(r"[1-9A-G.]+", made)
    empty = made.count(".")
    cells_with_notes = page.driver.execute_script(
        "return [...document.querySelectorAll('[data-cell]')].filter((c) => c.querySelector('[data-note]')).length"
    )
    assert cells_with_notes == empty
    measures = page.driver.execute_script("return performance.getEntriesByName('sudoku-paint').length")
    assert measures > 0  # benchmarks/bench_web.py reads them


#: A rules registry as GET /api/v1/rules answers it (the rules issue): windoku's windows made up here (two
#: 2x2 windows), so that what is drawn can only come from it; thermo's kind is one the page does not know.
REGISTRY = {
    "rules": [
        {"word": "x", "data": "none", "sizes": [4, 6, 9, 16, 25], "draw": {"kind": "diagonals"}},
        {
            "word": "windoku",
            "data": "none",
            "sizes": [9],
            "draw": {"kind": "windows", "cells": [["r1c1", "r1c2", "r2c1", "r2c2"], [70, 71, 79, 80]]},
        },
        {"word": "jigsaw", "data": "regions", "sizes": [4, 6, 9, 16, 25], "draw": {"kind": "regions"}},
        {"word": "killer", "data": "cages", "sizes": [4, 6, 9, 16, 25], "draw": {"kind": "cages"}},
        {"word": "thermo", "data": "lines", "sizes": [9], "draw": {"kind": "lines"}},
    ]
}


def test_the_page_draws_what_the_rules_registry_says(browser, server: Server, shots, wallclock):
    """GET api/v1/rules answered by the registry (a script in the page stands in for the server's endpoint)."""
    import json

    script = (
        "const realFetch = window.fetch;"
        f"const registry = {json.dumps(REGISTRY)};"
        "window.fetch = (url, options) => String(url).endsWith('api/v1/rules')"
        " ? Promise.resolve(new Response(JSON.stringify(registry), {status: 200,"
        " headers: {'Content-Type': 'application/json'}})) : realFetch(url, options);"
    )
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    try:
        page = Page(browser, server, shots, "registry", wallclock)
        page.wait(lambda: len(page.driver.find_elements(page.by.CSS_SELECTOR, "#rule-words option")) == 5)
        words = [
            o.get_attribute("value") for o in page.driver.find_elements(page.by.CSS_SELECTOR, "#rule-words option")
        ]
        assert words == ["x", "windoku", "jigsaw", "killer", "thermo"]
        set_rules(page, "windoku+x")
        paste(page, WINDOKU)
        page.shot("registry-windows")
        assert page.names(".win") == ["r1c1", "r1c2", "r2c1", "r2c2", "r8c8", "r8c9", "r9c8", "r9c9"]
        assert len(page.names("[data-diagonal]")) == 17
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def test_a_generated_thermo_puzzle_shows_its_thermometers_and_counts_unique(page: Page, server: Server):
    set_rules(page, "thermo")
    page.element('input[name="seed"]').send_keys("1")
    page.click("Generate", bound=None)
    page.shot("thermo-generated")
    line = server.replies("GENERATE rules=thermo seed=1")[1]
    givens, marks = line.split(" ", 1)
    assert page.line() == givens
    lines = marks.removeprefix("thermo=").split(";")
    drawn = page.driver.execute_script(
        "return [...document.querySelectorAll('svg.marks polyline[data-mark=thermo]')].map((e) => e.dataset.cells)"
    )
    assert drawn == [" ".join(cells.split("-")) for cells in lines]
    page.click("Count")
    assert page.text("#status") == "Exactly one solution."
