"""The web page's figures (issue 21): first load in bytes, and each action's time until it is on screen.

    PYTHONPATH=/path/to/tree python3 benchmarks/bench_web.py [--rounds 20] [--draw-only] [--port P --http-port H]

Starts the server (``python3 -m sudoku_server --http-port``, from a folder
with no checkout in it: corecheck.NEUTRAL_CWD) and drives the page at ``/`` in
headless Chromium (Debian's ``chromium`` and ``chromedriver``, Selenium).

* **First load**: the page loaded with the browser's cache off; the bytes of
  every response (the Resource Timing API's ``transferSize``: headers and
  body as sent) and of each body, per file and in all. The bound: 100 KB.
* **Drawing**: a killer of 34 cages opened from its address (a new puzzle
  drawn: cells, regions, cages and sums), a puzzle with the marks of four
  rules (thermometers, kropki dots, XV, little killer sums: MARKS) from its
  address, and a 16x16 whose every cell gets
  its 16 notes (Candidates), each from its start to the frame after it (the
  page's ``performance.measure`` entries ``sudoku-draw`` and
  ``sudoku-paint``). The bound: 50 ms. ``--draw-only`` stops after them.
* **Actions**: for ``--rounds`` classic 9x9 puzzles of each set, the page's
  own measurement (``performance.now()`` from the click to the frame after
  the answer is in the page: ``<body data-ms>``) of Solve, Count, Rate,
  Hint, Apply, Steps, Forward, Back (the puzzle pasted), Generate (any
  level) and Generate with a level (easy, medium, hard in turn: the server
  makes puzzles from seed, seed + 1, ... until one has the level); and of
  one key typed into the grid (keydown to the next frame, measured by a
  listener this script adds). Sets: ``generated`` (puzzles the server makes
  at levels easy to expert, the puzzles people solve) and ``top95``
  (Norvig's hard list, ``puzzles/norvig_top95.txt``: their Steps and Rate
  need chains and take longer). Median, p90 and max in ms per action, and
  the page's own part (the wait for the API, request sent to reply read,
  taken out: ``<body data-api-ms>``); the bound: 200 ms.

It prints the solver core it measured and refuses the pure-Python core unless
``--allow-python-core``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corecheck

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
#: The issue's bounds: first load in bytes, an action on screen in milliseconds.
LOAD_BOUND = 100 * 1000
ACTION_BOUND_MS = 200.0
ACTIONS = ("Solve", "Count", "Rate", "Hint", "Apply", "Steps", "Forward", "Back", "Generate", "Generate level", "key")


def start_server(port: int, http_port: int) -> tuple[subprocess.Popen, int, int]:
    """The server on 127.0.0.1 (ports 0: any free one); returns it and its line and HTTP ports (from its log)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", str(port)]
        + ["--http-port", str(http_port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=corecheck.NEUTRAL_CWD,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    ports: dict[str, int] = {}
    ready = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:  # to the end: the log never fills the pipe
            line = raw.decode("utf-8", "replace")
            if match := re.search(r"listening on \S+:(\d+)", line):
                ports["line"] = int(match.group(1))
            if match := re.search(r"HTTP on http://\S+:(\d+)/", line):
                ports["http"] = int(match.group(1))
            if len(ports) == 2:
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(30) or len(ports) < 2:
        proc.kill()
        raise SystemExit("the server did not start (is --http-port in this tree?)")
    return proc, ports["line"], ports["http"]


def start_browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        raise SystemExit("needs chromium and chromedriver (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(driver), options=options), chromium


def first_load(driver, url: str) -> list[tuple[str, int, int]]:
    """``(path, transfer bytes, body bytes)`` of every response of one load with the cache off."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.get(url)
    time.sleep(0.5)  # the modules and the stylesheet are in
    entries = driver.execute_script(
        "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
        ".map((e) => [new URL(e.name).pathname, e.transferSize, e.encodedBodySize])"
    )
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    return [(path, int(sent), int(body)) for path, sent, body in entries]


class Page:
    def __init__(self, driver, url: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver, self.by = driver, By
        driver.get(url)
        while not driver.execute_script("return document.querySelectorAll('[data-cell]').length"):
            time.sleep(0.01)

    def done(self) -> int:
        return int(self.driver.execute_script("return Number(document.body.dataset.done || 0)"))

    def click(self, words: str) -> tuple[float, float]:
        """Click the button with these words; (ms until on screen, of which ms waiting for the API)."""
        before = self.done()
        self.driver.find_element(self.by.XPATH, f"//button[text()='{words}']").click()
        deadline = time.monotonic() + 60
        while self.done() == before:
            if time.monotonic() > deadline:
                raise SystemExit(f"{words}: no answer within 60 s")
            time.sleep(0.005)
        ms, api = self.driver.execute_script("return [document.body.dataset.ms, document.body.dataset.apiMs]")
        return float(ms), float(api)

    def paste(self, text: str) -> None:
        box = self.driver.find_element(self.by.CSS_SELECTOR, 'textarea[name="puzzle"]')
        self.driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", box, text
        )

    def select(self, name: str, value: str) -> None:
        self.driver.execute_script(f"document.querySelector('select[name=\"{name}\"]').value = arguments[0]", value)

    def key_ms(self) -> tuple[float, float]:
        """Type a digit into an empty cell: ms from keydown to the frame after it (a listener of this script)."""
        from selenium.webdriver.common.keys import Keys

        self.driver.execute_script(
            "window.keyTimes = [];"
            "document.addEventListener('keydown', () => { const t = performance.now();"
            " requestAnimationFrame(() => setTimeout(() => window.keyTimes.push(performance.now() - t), 0)); },"
            " {capture: true, once: true});"
        )
        cell = self.driver.find_element(self.by.CSS_SELECTOR, "#grid [data-cell]:not(.given)")
        cell.click()
        self.driver.switch_to.active_element.send_keys("5", Keys.BACKSPACE)
        while not self.driver.execute_script("return window.keyTimes.length"):
            time.sleep(0.005)
        return float(self.driver.execute_script("return window.keyTimes[0]")), 0.0


#: The killer of docs/LAYOUTS.md ("the cage block"): 34 cages, as the page's address holds it.
KILLER_ROWS = [
    "aabbcddee",
    "ffbgchdii",
    "jkblmhhnn",
    "jkolpppnn",
    "qrrstttuu",
    "qvvswxyyz",
    "qABCwxyyz",
    "qDBBEEEFG",
    "DDDBHHHFF",
]
KILLER_SUMS = (
    "a=13 b=17 c=6 d=16 e=5 f=9 g=9 h=16 i=15 j=16 k=8 l=14 m=7 n=17 o=5 p=7 q=15 r=5 s=9 t=19 u=11 v=12"
    " w=11 x=12 y=21 z=6 A=8 B=20 C=1 D=19 E=15 F=20 G=6 H=15"
)
DRAW_BOUND_MS = 50.0


def killer_hash() -> str:
    """The page's address fragment of that killer (docs/HTTP.md "The web page": the address holds the puzzle)."""
    symbols = "".join(KILLER_ROWS)
    cages = []
    for pair in KILLER_SUMS.split():
        symbol, total = pair.split("=")
        cells = ".".join(str(i) for i, s in enumerate(symbols) if s == symbol)
        cages.append(f"{total}:{cells}")
    return "#size=9&givens=" + "." * 81 + "&rules=killer&cages=" + ",".join(cages)


#: Marks of four rules in the line syntax (docs/LAYOUTS.md "Marks after a line": its thermo, kropki, XV and
#: little killer examples) drawn together: 9 thermometers, 41 dots, 24 letters, 9 sums outside the grid.
MARKS = {
    "thermo": "r9c1-r8c2-r7c3;r2c7-r3c8-r2c9;r7c7-r8c8-r9c8;r2c4-r2c5-r1c5;r6c5-r6c6-r5c6;r5c5-r4c4-r3c4;"
    "r1c4-r1c3-r1c2-r1c1-r2c1;r7c5-r8c4-r7c4-r8c5;r3c6-r4c6-r5c7",
    "kropki": "r1c2-r1c3:w;r1c3-r1c4:b;r1c4-r2c4:b;r1c5-r2c5:w;r1c6-r2c6:b;r1c8-r2c8:b;r2c1-r3c1:w;r2c2-r2c3:w;"
    "r2c7-r2c8:w;r2c7-r3c7:w;r2c8-r3c8:w;r3c2-r3c3:b;r3c5-r4c5:w;r3c6-r3c7:w;r3c9-r4c9:w;r4c1-r5c1:b;r4c2-r4c3:w;"
    "r4c4-r5c4:w;r4c5-r5c5:b;r4c8-r4c9:w;r4c8-r5c8:w;r5c2-r5c3:w;r5c5-r6c5:w;r5c6-r5c7:w;r5c6-r6c6:w;r6c1-r6c2:w;"
    "r6c1-r7c1:w;r6c5-r7c5:b;r6c7-r7c7:b;r6c8-r7c8:w;r7c3-r7c4:w;r7c4-r8c4:w;r7c6-r7c7:w;r7c6-r8c6:b;r7c7-r8c7:w;"
    "r7c9-r8c9:w;r8c1-r9c1:w;r8c3-r9c3:w;r8c6-r8c7:b;r8c8-r9c8:w;r9c3-r9c4:b",
    "xv": "r1c3-r2c3:v;r1c4-r1c5:x;r2c3-r2c4:v;r2c5-r2c6:x;r2c9-r3c9:x;r3c4-r3c5:x;r3c7-r4c7:v;r3c9-r4c9:v;"
    "r4c2-r5c2:x;r4c3-r5c3:x;r4c7-r4c8:v;r4c9-r5c9:x;r5c2-r6c2:v;r5c4-r5c5:x;r6c6-r7c6:x;r7c1-r8c1:v;r7c2-r8c2:x;"
    "r7c6-r7c7:v;r7c7-r8c7:v;r8c4-r9c4:x;r8c6-r9c6:v;r8c7-r8c8:x;r8c9-r9c9:x;r9c1-r9c2:x",
    "littlekiller": "r1c6-r2c5-r3c4-r4c3-r5c2-r6c1:36;r7c9-r6c8-r5c7-r4c6-r3c5-r2c4-r1c3:31;r9c6-r8c7-r7c8-r6c9:13;"
    "r9c5-r8c4-r7c3-r6c2-r5c1:28;r1c4-r2c3-r3c2-r4c1:15;r2c9-r1c8:11;r1c5-r2c6-r3c7-r4c8-r5c9:26;"
    "r6c1-r7c2-r8c3-r9c4:20;r5c9-r4c8-r3c7-r2c6-r1c5:26",
}


def marks_hash() -> str:
    """The page's address fragment of MARKS (``marks=rule:cells:value:kind,...``, cells as indices)."""
    out = []
    for rule, text in MARKS.items():
        for mark in text.split(";"):
            cells, _, tail = mark.partition(":")
            index = ".".join(str((int(r) - 1) * 9 + int(c) - 1) for r, c in re.findall(r"r(\d+)c(\d+)", cells))
            if rule == "kropki":
                value, kind = (1, "white") if tail == "w" else (2, "black")
            elif rule == "xv":
                value, kind = (10 if tail == "x" else 5), ""
            else:
                value, kind = int(tail or 0), ""
            out.append(f"{rule}:{index}:{value}:{kind}")
    return "#size=9&givens=" + "." * 81 + "&rules=" + "+".join(MARKS) + "&marks=" + ",".join(out)


def measures(driver, name: str) -> list[float]:
    return driver.execute_script(f"return performance.getEntriesByName('{name}').map((e) => e.duration)")


def draw_figures(driver, url: str, rounds: int) -> None:
    """Drawing a killer of 34 cages (a new puzzle: cells, regions, cages, sums) and a 16x16 with notes in every
    cell (Candidates: 4096 notes), each from its start to the frame after it (the page's Performance API
    measures ``sudoku-draw`` and ``sudoku-paint``; the action's click-to-frame ``data-ms`` beside)."""
    page = Page(driver, url)
    killer, marked, empty = killer_hash(), marks_hash(), "#size=9&givens=" + "." * 81
    draws, marks_draws, scripts = [], [], {"killer": [], "marks": []}
    for _ in range(rounds):
        for fragment in (killer, empty, marked, empty):
            before = len(measures(driver, "sudoku-draw"))
            driver.execute_script("location.hash = arguments[0]", fragment[1:])
            while len(measures(driver, "sudoku-draw")) <= before:
                time.sleep(0.005)
            if fragment is killer:
                draws.append(measures(driver, "sudoku-draw")[-1])
                scripts["killer"].append(measures(driver, "sudoku-draw-script")[-1])
            elif fragment is marked:
                scripts["marks"].append(measures(driver, "sudoku-draw-script")[-1])
                marks_draws.append(measures(driver, "sudoku-draw")[-1])
                drawn = driver.execute_script("return document.querySelectorAll('svg.marks [data-mark]').length")
    assert driver.execute_script("return document.querySelectorAll('[data-cage-sum]').length") == 0
    driver.execute_script("location.hash = arguments[0]", killer[1:])
    time.sleep(0.3)
    cages = driver.execute_script("return document.querySelectorAll('[data-cage-sum]').length")
    driver.execute_script("location.hash = arguments[0]", "size=16&givens=" + "." * 256)
    while driver.execute_script("return document.querySelectorAll('[data-cell]').length") != 256:
        time.sleep(0.01)
    paints, clicks = [], []
    for _ in range(rounds):
        before = len(measures(driver, "sudoku-paint"))
        clicks.append(page.click("Candidates")[0])
        while len(measures(driver, "sudoku-paint")) <= before:
            time.sleep(0.005)
        notes = driver.execute_script("return document.querySelectorAll('[data-note]').length")
        paints.append(measures(driver, "sudoku-paint")[-1])
        page.click("Undo")
    print(f"\ndrawing, ms from the start to the frame after it (bound {DRAW_BOUND_MS:.0f} ms), {rounds} rounds\n")
    print("| what | median | p90 | max |\n| --- | ---: | ---: | ---: |")
    for what, values in (
        (f"killer, {cages} cages: the new puzzle drawn", draws),
        (f"marks of 4 rules ({drawn} SVG elements): the new puzzle drawn", marks_draws),
        ("killer: the script's part alone (sudoku-draw-script)", scripts["killer"]),
        ("marks: the script's part alone (sudoku-draw-script)", scripts["marks"]),
        (f"16x16, notes in every cell ({notes} notes): painted", paints),
        ("16x16, Candidates: click to frame (data-ms)", clicks),
    ):
        print(f"| {what} | {statistics.median(values):.1f} | {percentile(values, 0.9):.1f} | {max(values):.1f} |")


def puzzle_sets(rounds: int, line_port: int, seed: int) -> dict[str, list[str]]:
    import socket

    levels = ("easy", "medium", "hard", "expert")
    request = "".join(f"GENERATE seed={seed + i} level={levels[i % 4]}\n" for i in range(rounds))
    with socket.create_connection(("127.0.0.1", line_port), timeout=120) as sock:
        sock.sendall(f"KEEPALIVE\n{request}QUIT\n".encode())
        lines = sock.makefile("r").read().splitlines()
    generated = [line for line in lines if re.fullmatch(r"[1-9.]{81}", line)]
    top95 = [line.strip() for line in (PUZZLES / "norvig_top95.txt").read_text().splitlines() if line.strip()]
    return {"generated": generated, "top95": random.Random(seed).sample(top95, min(rounds, len(top95)))}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="puzzles per set (default 20)")
    parser.add_argument("--port", type=int, default=0, help="the server's line port (default: any free one)")
    parser.add_argument("--http-port", type=int, default=0, help="its HTTP port (default: any free one)")
    parser.add_argument("--seed", type=int, default=1, help="first seed of the generated set (default 1)")
    parser.add_argument("--draw-only", action="store_true", help="only the drawing figures (killer, 16x16 notes)")
    corecheck.add_flag(parser)
    args = parser.parse_args()

    proc, line_port, http_port = start_server(args.port, args.http_port)
    driver = None
    try:
        corecheck.require_native(corecheck.server_core("127.0.0.1", line_port), args.allow_python_core, "the server")
        driver, chromium = start_browser()
        print(f"browser: {driver.capabilities.get('browserVersion')} ({chromium}), server: --http-port {http_port}")
        url = f"http://127.0.0.1:{http_port}/"

        draw_figures(driver, url, args.rounds)
        if args.draw_only:
            return
        loads = first_load(driver, url)
        print("\nfirst load, cache off (bytes; transfer = headers + body as sent)\n")
        print("| file | transfer | body |\n| --- | ---: | ---: |")
        for path, sent, body in loads:
            print(f"| {path} | {sent} | {body} |")
        total = sum(sent for _, sent, _ in loads)
        print(f"| all {len(loads)} | {total} | {sum(body for _, _, body in loads)} |")
        print(f"first load: {total} bytes transferred (bound {LOAD_BOUND}): {'ok' if total <= LOAD_BOUND else 'OVER'}")

        sets = puzzle_sets(args.rounds, line_port, args.seed)
        page = Page(driver, url)
        worst = 0.0
        for name, puzzles in sets.items():
            times: dict[str, list[tuple[float, float]]] = {action: [] for action in ACTIONS}
            for i, puzzle in enumerate(puzzles):
                for action in ("Solve", "Count", "Rate", "Hint", "Apply", "Steps", "Forward", "Back"):
                    if action in ("Solve", "Count", "Rate", "Hint", "Steps"):
                        page.paste(puzzle)
                    times[action].append(page.click(action))
                page.select("level", "")
                times["Generate"].append(page.click("Generate"))
                page.select("level", ("easy", "medium", "hard")[i % 3])
                times["Generate level"].append(page.click("Generate"))
                times["key"].append(page.key_ms())
            print(f"\nset {name}: {len(puzzles)} puzzles, ms from the click (key: keydown) to the next frame\n")
            print(
                "| action | median | p90 | max | within 200 ms | page's part: median | max |\n"
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
            )
            for action, pairs in times.items():
                values = [ms for ms, _ in pairs]
                own = [ms - api for ms, api in pairs]  # the page's own time: the wait for the API taken out
                within = sum(v <= ACTION_BOUND_MS for v in values)
                print(
                    f"| {action} | {statistics.median(values):.1f} | {percentile(values, 0.9):.1f} |"
                    f" {max(values):.1f} | {within}/{len(values)} | {statistics.median(own):.1f} | {max(own):.1f} |"
                )
                if name == "generated" and action != "Generate level":
                    worst = max(worst, *values)
        print(f"\ngenerated set: slowest action {worst:.1f} ms, Generate level aside (bound {ACTION_BOUND_MS:.0f} ms)")
    finally:
        if driver is not None:
            driver.quit()
        proc.kill()
        proc.wait(10)


if __name__ == "__main__":
    main()
