"""The marks of issue 29's rules drawn on the web page (issue 31), in headless Chromium (tests/support/browser.py).

One test per rule: an f-puzzles JSON holding that rule's marks is pasted, and the page's ``svg.marks`` holds
exactly the elements that draw them (tag, class, coordinates in cells: the centre of r1c1 is 0.5,0.5; text).
Then an f-puzzles link is pasted, drawn, solved and shared; a killer jigsaw and a marks puzzle edited on the
page are written back whole. Skipped without Chromium (failed under CI).
"""

from __future__ import annotations

import json
import time

import pytest

from sudoku_server.text.fpuzzles import link
from tests.support.browser import Page, Server
from tests.support.browser import paste_read as paste

#: The attributes compared (those an element has).
ATTRIBUTES = ("class", "points", "cx", "cy", "r", "x", "y", "width", "height", "rx", "data-cells", "data-kind")


def drawn(page: Page, rule: str) -> list[dict]:
    """The elements of ``svg.marks`` that draw ``rule``, each {tag, its ATTRIBUTES present, text}."""
    return page.driver.execute_script(
        """
        return [...document.querySelectorAll(`svg.marks [data-mark="${arguments[0]}"]`)].map((e) => {
          const out = {tag: e.tagName};
          for (const name of arguments[1]) if (e.hasAttribute(name)) out[name] = e.getAttribute(name);
          if (e.tagName === "text") out.text = e.textContent;
          return out;
        });
        """,
        rule,
        list(ATTRIBUTES),
    )


def fpuzzles(**rules: object) -> str:
    """A 9x9 f-puzzles JSON with r1c1 = 5 given and ``rules`` (f-puzzles keys; ``diagonal_p``: ``diagonal+``)."""
    grid = [[{"value": 5, "given": True}] + [{}] * 8] + [[{}] * 9 for _ in range(8)]
    return json.dumps({"size": 9, "grid": grid, **{key.replace("_p", "+"): v for key, v in rules.items()}})


def line(cls: str, points: str, cells: str) -> dict:
    return {"tag": "polyline", "class": cls, "points": points, "data-cells": cells}


CASES = {
    "thermo": (
        {"thermometer": [{"lines": [["R1C2", "R1C3", "R2C4"]]}]},
        [
            {"tag": "circle", "class": "th tb", "cx": "1.5", "cy": "0.5", "r": "0.38", "data-cells": "r1c2"},
            line("th", "1.5,0.5 2.5,0.5 3.5,1.5", "r1c2 r1c3 r2c4"),
        ],
    ),
    "arrow": (
        {
            "arrow": [
                {"cells": ["R3C1"], "lines": [["R3C1", "R4C1", "R5C2"]]},
                {"cells": ["R5C5", "R5C6"], "lines": [["R5C6", "R6C7", "R7C8"]]},
            ]
        },
        [
            {"tag": "circle", "class": "ab", "cx": "0.5", "cy": "2.5", "r": "0.4", "data-cells": "r3c1 r4c1 r5c2"},
            line("al", "0.5,2.9 0.5,3.5 1.5,4.5", "r3c1 r4c1 r5c2"),
            line("ah", "1.465,4.182 1.5,4.5 1.182,4.465", "r3c1 r4c1 r5c2"),
            # a pill round two cells; the line leaves from the bulb cell nearest the arrow
            {
                "tag": "rect",
                "class": "ab",
                "x": "4.1",
                "y": "4.1",
                "width": "1.8",
                "height": "0.8",
                "rx": "0.4",
                "data-cells": "r5c5 r5c6 r6c7 r7c8",
            },
            line("al", "5.783,4.783 6.5,5.5 7.5,6.5", "r5c5 r5c6 r6c7 r7c8"),
            line("ah", "7.465,6.182 7.5,6.5 7.182,6.465", "r5c5 r5c6 r6c7 r7c8"),
        ],
    ),
    "kropki": (
        {
            "difference": [{"cells": ["R6C1", "R6C2"]}, {"cells": ["R6C3", "R6C4"], "value": "3"}],
            "ratio": [{"cells": ["R7C1", "R8C1"]}],
        },
        [
            {
                "tag": "circle",
                "class": "kw",
                "cx": "1",
                "cy": "5.5",
                "r": "0.15",
                "data-cells": "r6c1 r6c2",
                "data-kind": "white",
            },
            {
                "tag": "circle",
                "class": "kw",
                "cx": "3",
                "cy": "5.5",
                "r": "0.15",
                "data-cells": "r6c3 r6c4",
                "data-kind": "white",
            },
            {
                "tag": "text",
                "class": "kwt",
                "x": "3",
                "y": "5.5",
                "data-cells": "r6c3 r6c4",
                "data-kind": "white",
                "text": "3",
            },
            {
                "tag": "circle",
                "class": "kb",
                "cx": "0.5",
                "cy": "7",
                "r": "0.15",
                "data-cells": "r7c1 r8c1",
                "data-kind": "black",
            },
        ],
    ),
    "xv": (
        {"xv": [{"cells": ["R9C1", "R9C2"], "value": "X"}, {"cells": ["R8C3", "R9C3"], "value": "V"}]},
        [
            {"tag": "text", "class": "xv", "x": "1", "y": "8.5", "data-cells": "r9c1 r9c2", "text": "X"},
            {"tag": "text", "class": "xv", "x": "2.5", "y": "8", "data-cells": "r8c3 r9c3", "text": "V"},
        ],
    ),
    "whispers": ({"whispers": [{"lines": [["R1C6", "R2C6"]]}]}, [line("gw", "5.5,0.5 5.5,1.5", "r1c6 r2c6")]),
    "renban": (
        {"renban": [{"lines": [["R3C6", "R3C7", "R3C8"]]}]},
        [line("rb", "5.5,2.5 6.5,2.5 7.5,2.5", "r3c6 r3c7 r3c8")],
    ),
    "palindrome": (
        {"palindrome": [{"lines": [["R4C6", "R5C7", "R4C8"]]}]},
        [line("pa", "5.5,3.5 6.5,4.5 7.5,3.5", "r4c6 r5c7 r4c8")],
    ),
    "littlekiller": (
        {"littlekillersum": [{"cell": "R0C7", "direction": "DR", "value": "6"}]},
        [
            # the sum outside the grid above r1c7, an arrow pointing down-right along r1c8, r2c9
            {"tag": "text", "class": "out lk", "x": "6.38", "y": "-0.62", "data-cells": "r1c8 r2c9", "text": "6"},
            line("lka", "6.68,-0.32 6.92,-0.08", "r1c8 r2c9"),
            line("lka", "6.78,-0.08 6.92,-0.08 6.92,-0.22", "r1c8 r2c9"),
        ],
    ),
    "oddeven": (
        {"odd": [{"cell": "R8C8"}], "even": [{"cell": "R9C9"}]},
        [
            {"tag": "circle", "class": "oe", "cx": "7.5", "cy": "7.5", "r": "0.38", "data-cells": "r8c8"},
            {
                "tag": "rect",
                "class": "oe",
                "x": "8.14",
                "y": "8.14",
                "width": "0.72",
                "height": "0.72",
                "data-cells": "r9c9",
            },
        ],
    ),
}


@pytest.mark.parametrize("rule", list(CASES))
def test_each_rules_marks_are_drawn_exactly(page: Page, rule: str):
    keys, expected = CASES[rule]
    paste(page, fpuzzles(**keys))
    assert page.text("#rules-shown") == f"Rules: {rule}"
    assert drawn(page, rule) == expected
    assert page.element("svg.marks").get_attribute("aria-hidden") == "true"
    # outside clues make room round the grid; the others do not
    grid_classes = page.element("#grid").get_attribute("class").split()
    assert ("out" in grid_classes) == (rule == "littlekiller")
    page.shot(rule)


def test_disjoint_groups_are_drawn_a_colour_per_place_in_the_box(page: Page):
    paste(page, fpuzzles(disjointgroups=True))
    dots = page.driver.execute_script(
        "return [...document.querySelectorAll('svg.marks [data-mark=disjoint]')]"
        ".map((e) => [e.dataset.cells, e.dataset.group, e.getAttribute('cx'), e.getAttribute('cy'), e.getAttribute('fill')])"
    )
    assert len(dots) == 81
    assert dots[0] == ["r1c1", "1", "0.15", "0.85", "#e6194b"]
    assert dots[40] == ["r5c5", "5", "4.15", "4.85", "#911eb4"]
    assert dots[80] == ["r9c9", "9", "8.15", "8.85", "#808000"]
    assert [d[1] for d in dots[:9]] == ["1", "2", "3", "1", "2", "3", "1", "2", "3"]
    page.shot("disjoint")


def test_sandwich_clues_outside_the_grid_from_an_address(page: Page, server: Server):
    """Sandwich (draw kind "outside sums"): the sum one step before the first cell of its row or column."""
    row3 = ".".join(str(18 + c) for c in range(9))
    column5 = ".".join(str(r * 9 + 4) for r in range(9))
    page.driver.get(
        f"{server.url}#size=9&givens={'.' * 81}&rules=sandwich&marks=sandwich:{row3}:15:,sandwich:{column5}:0:"
    )
    page.wait(lambda: bool(page.driver.execute_script("return document.querySelector('svg.marks')")))
    clues = drawn(page, "sandwich")
    assert [(c["x"], c["y"], c["text"], c["class"]) for c in clues] == [
        ("-0.5", "2.5", "15", "out"),
        ("4.5", "-0.5", "0", "out"),
    ]
    page.shot("sandwich")


#: docs/LAYOUTS.md's thermo example (unique) as f-puzzles JSON, and its answer.
THERMO_GIVENS = ".....6.............6..1.4...........3.2.......4....6.9.......1.135..............."
THERMO_LINES = "r9c1-r8c2-r7c3;r2c7-r3c8-r2c9;r7c7-r8c8-r9c8;r2c4-r2c5-r1c5;r6c5-r6c6-r5c6;r5c5-r4c4-r3c4;r1c4-r1c3-r1c2-r1c1-r2c1;r7c5-r8c4-r7c4-r8c5;r3c6-r4c6-r5c7"
ANSWER = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"


def thermo_json() -> dict:
    grid = [
        [({"value": int(ch), "given": True} if ch != "." else {}) for ch in THERMO_GIVENS[r * 9 : r * 9 + 9]]
        for r in range(9)
    ]
    lines = [[name.upper() for name in part.split("-")] for part in THERMO_LINES.split(";")]
    return {"size": 9, "grid": grid, "thermometer": [{"lines": lines}]}


def test_an_fpuzzles_link_is_drawn_solved_and_shared(page: Page, browser, server: Server):
    paste(page, link(thermo_json()))
    assert len(drawn(page, "thermo")) == 18  # 9 bulbs and 9 lines
    page.shot("link-drawn")
    page.click("Solve")
    assert page.line() == ANSWER
    page.shot("link-solved")
    # a digit typed, then the address opened afresh (a second browser would see the same)
    shared = page.driver.current_url
    assert "marks=thermo" in shared
    page.driver.get("about:blank")
    page.driver.get(shared)
    page.wait(lambda: bool(page.driver.execute_script("return document.querySelector('svg.marks')")))
    assert len(drawn(page, "thermo")) == 18
    assert page.line() == THERMO_GIVENS
    # solved from the address's puzzle: the page writes the marks back (an f-puzzles line)
    page.click("Solve")
    assert page.line() == ANSWER


def test_a_marks_puzzle_with_a_digit_typed_is_written_back_whole(page: Page):
    paste(page, json.dumps(thermo_json()))
    page.cell("r1c1").click()
    page.cell("r1c1").send_keys("7")
    page.click("Solve")
    # without its thermometers the givens have many solutions, and the first is another grid
    assert page.line() == ANSWER


#: Keeps the bodies the page sends (window.sentBodies).
SPY = """
window.sentBodies = [];
const original = window.fetch;
window.fetch = (url, options) => {
  if (options?.body) window.sentBodies.push(options.body);
  return original(url, options);
};
"""

#: A 4x4 killer jigsaw: regions (0-based per cell) and cages; unique.
KJ_REGIONS = [0, 0, 1, 1, 0, 0, 2, 1, 2, 1, 3, 3, 2, 2, 3, 3]


def test_a_killer_jigsaw_edited_on_the_page_is_written_back_with_cages_and_regions(page: Page, server: Server):
    grid = [[{"region": KJ_REGIONS[r * 4 + c]} for c in range(4)] for r in range(4)]
    grid[0][0].update(value=1, given=True)
    cages = [
        {"cells": ["R1C1", "R1C2"], "value": "3"},
        {"cells": ["R4C3", "R4C4"], "value": "3"},
        {"cells": ["R2C3", "R3C3"], "value": "5"},
    ]
    text = json.dumps({"size": 4, "grid": grid, "killercage": cages})
    paste(page, text)
    solution = server.ask(text)
    assert len(solution) == 16, solution
    # the person types the solution's r4c1; Solve must send the cages and the regions with the digits
    page.cell("r4c1").click()
    page.cell("r4c1").send_keys(solution[12])
    page.driver.execute_script(SPY)
    page.click("Solve")
    assert page.line() == solution
    sent = json.loads(page.driver.execute_script("return window.sentBodies.at(-1)"))
    written = json.loads(sent["puzzle"])
    assert "rules" not in sent
    assert written["killercage"] == cages
    assert [[cell.get("region") for cell in row] for row in written["grid"]] == [
        KJ_REGIONS[r * 4 : r * 4 + 4] for r in range(4)
    ]
    assert [[cell.get("value") for cell in row] for row in written["grid"]] == [
        [1, None, None, None],
        [None] * 4,
        [None] * 4,
        [int(solution[12]), None, None, None],
    ]
    assert page.driver.execute_script("return document.querySelectorAll('[data-cage-sum]').length") == 3
    assert [page.cell(f"r2c{c}").get_attribute("data-region") for c in (1, 2, 3, 4)] == ["1", "1", "3", "2"]


def every_mark() -> str:
    """One f-puzzles JSON with the marks of every case above (drawn together; parse does not solve it)."""
    keys: dict[str, object] = {}
    for rule_keys, _ in CASES.values():
        keys.update(rule_keys)
    return fpuzzles(**keys)


def axe_serious(page: Page) -> list[str]:
    """The serious and critical violations axe-core (selenium-axe-python) finds on the page as it is."""
    from selenium_axe_python import Axe

    axe = Axe(page.driver)
    axe.inject()
    found = [v for v in axe.run()["violations"] if v["impact"] in ("serious", "critical")]
    return [f"{v['id']}: {[node['target'] for node in v['nodes'][:3]]}" for v in found]


def test_every_mark_drawn_at_390_px_in_dark_mode_fits_and_has_no_accessibility_fault(page: Page):
    paste(page, every_mark())
    assert len(page.driver.find_elements(page.by.CSS_SELECTOR, "svg.marks [data-mark]")) == 22  # as CASES
    assert axe_serious(page) == []
    page.shot("every-mark")
    driver = page.driver
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
    )
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        time.sleep(0.2)
        shape = driver.execute_script(
            "const svg = document.querySelector('svg.marks').getBoundingClientRect();"
            "const clue = document.querySelector('svg.marks .lk').getBoundingClientRect();"
            "return {scroll: document.documentElement.scrollWidth, left: svg.left, right: svg.right,"
            " clueTop: clue.top, clueRight: clue.right}"
        )
        # the grid and the little killer sum above it fit in 390 px; nothing scrolls sideways (nor the status's
        # "rules oddeven+thermo+...", one long word)
        assert shape["scroll"] <= 390 and shape["left"] >= 0 and shape["right"] <= 390, shape
        assert shape["clueTop"] >= 0 and shape["clueRight"] <= 390, shape
        assert axe_serious(page) == []
        page.shot("every-mark-phone-dark")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        # printed: the marks and the little killer sum are kept, the controls are not
        assert page.driver.execute_script(
            "return getComputedStyle(document.querySelector('.panel')).display === 'none'"
            " && document.querySelectorAll('svg.marks [data-mark]').length === 22"
        )
        page.shot("every-mark-print")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})


ROUND_TRIP = """
const [text, done] = arguments;
(async () => {
  const {puzzleOf, writeText} = await import("./static/puzzle.js");
  const parse = async (puzzle) => (await fetch("api/v1/parse", {method: "POST", body: JSON.stringify({puzzle})})).json();
  const first = await parse(text);
  const puzzle = puzzleOf(first);
  const digits = puzzle.givens.map((d, i) => (i === 80 ? 4 : d));  // the person's 4 in r9c9
  const written = writeText(puzzle, digits, [], false);
  done({first, written, again: await parse(written)});
})();
"""


def test_every_mark_is_written_back_as_fpuzzles_json_that_reads_the_same(page: Page):
    """puzzle.js writes a marks puzzle (with the person's digit) as an f-puzzles line; parse reads the same marks."""
    negatives = {"negative": ["ratio", "xv"], "nonconsecutive": True}  # kropki's and XV's negative constraints
    trip = page.driver.execute_async_script(ROUND_TRIP, json.dumps({**json.loads(every_mark()), **negatives}))
    assert trip["written"].startswith('{"size":9,"grid":')
    kinds = [mark["kind"] for mark in trip["first"]["marks"] if not mark["cells"]]
    assert sorted(kinds) == ["negative", "negative black", "negative white"]
    assert trip["again"]["marks"] == trip["first"]["marks"] and len(trip["first"]["marks"]) == 17
    assert trip["again"]["rules"] == trip["first"]["rules"]
    assert trip["again"]["givens"] == "5" + "." * 79 + "4"


def test_candidates_on_odd_and_even_cells_are_odd_and_even(page: Page):
    paste(page, fpuzzles(**CASES["oddeven"][0]))
    page.click("Candidates")
    notes = page.driver.execute_script(
        "return ['r8c8', 'r9c9', 'r9c8'].map((name) => [...document.querySelectorAll("
        "`[data-cell=${name}] [data-note]`)].map((e) => e.dataset.note).join(''))"
    )
    assert notes == ["13579", "2468", "123456789"]


def test_candidates_follow_the_marks_against_the_placed_digits(page: Page):
    """Candidates: what each mark allows (rules.js markMasks) beside the row, column and box, one pass, no search."""
    keys = {
        "thermometer": [{"lines": [["R1C2", "R1C3", "R2C4"]]}],
        "difference": [{"cells": ["R6C1", "R6C2"]}],
        "ratio": [{"cells": ["R7C1", "R8C1"]}],
        "xv": [{"cells": ["R9C1", "R9C2"], "value": "X"}],
        "whispers": [{"lines": [["R1C6", "R2C6"]]}],
    }
    paste(page, fpuzzles(**keys))
    page.click("Candidates")
    names = ["r1c2", "r1c3", "r2c4", "r6c1", "r6c2", "r7c1", "r8c1", "r9c1", "r9c2", "r1c6", "r2c6"]
    script = (
        "return arguments[0].map((name) => [...document.querySelectorAll("
        "`[data-cell=${name}] [data-note]`)].map((e) => e.dataset.note).join(''))"
    )
    # r1c1 holds 5: the thermometer's cells rise from the bulb (1-7, 2-8, 3-9), a black dot needs a half or a
    # double, an X a different partner summing to 10, a whispers cell a partner 5 away (never 5)
    assert page.driver.execute_script(script, names) == [
        "123467",
        "234678",
        "3456789",
        "12346789",
        "123456789",
        "123468",
        "123468",
        "12346789",
        "12346789",
        "12346789",
        "12346789",
    ]
    # placed digits narrow them: 7 in r1c3 (the thermometer's middle), 3 in r6c2 (the white dot's other cell)
    for name, digit in (("r1c3", "7"), ("r6c2", "3")):
        page.cell(name).click()
        page.driver.switch_to.active_element.send_keys(digit)
    page.click("Candidates")
    # r1c2 below the 7 and apart from the 5 and (in its column) the 3; r2c4 above the 7; r6c1 next to the 3
    assert page.driver.execute_script(script, ["r1c2", "r2c4", "r6c1"]) == ["1246", "89", "24"]
