// The grid on screen: an ARIA grid (role=grid > role=row > role=gridcell), one
// <div data-cell="r1c1"> per cell whose text is its digit or its notes
// (<span data-note="5">), and, in a killer cage's first cell, the cage's sum
// (<span data-cage-sum>). Each cell carries its accessible name in aria-label
// ("row 1 column 3, 5, given"), data-region (its box or jigsaw region),
// data-cage and data-diagonal where they apply, and a `value` property (its digit,
// "" when empty) for scripts. The arrow keys move; every other key goes to the page.

import { cellName } from "./rules.js";

const escape = (text) => text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The notes of a 16x16 or 25x25 cell as one block of text (rows of the note square, a blank for a digit
 * that is no note), drawn by style.css in one text run instead of one box per note: 4096 boxes take
 * Chromium about 100 ms to lay out and paint, 256 runs a few ms (benchmarks/bench_web.py).
 */
function noteText(all, notes) {
  const side = Math.ceil(Math.sqrt(all.length));
  let text = "";
  all.forEach((symbol, k) => {
    text += notes.includes(symbol) ? symbol : " ";
    text += (k + 1) % side === 0 ? "\n" : " ";
  });
  return text.trimEnd();
}

export class Grid {
  /**
   * @param {HTMLElement} root the grid's container (role=grid)
   * @param {(index: number, event: KeyboardEvent) => void} onKey a key on cell `index` that is not a move
   * @param {(index: number) => void} onSelect the selected cell changed
   */
  constructor(root, onKey, onSelect) {
    this.root = root;
    this.onKey = onKey;
    this.onSelect = onSelect;
    this.cells = [];
    this.keys = [];
    this.values = [];
    this.selected = 0;
    this.size = 0;
    root.addEventListener("keydown", (event) => this.key(event));
    this.focused = false; // a cell has the keyboard focus (the selected cell's digit is highlighted then)
    root.addEventListener("focusin", (event) => {
      const at = this.cells.indexOf(event.target);
      this.focused = at >= 0;
      if (at >= 0) this.select(at, false);
    });
    root.addEventListener("focusout", () => {
      this.focused = false;
      setTimeout(() => this.focused || this.onSelect(this.selected), 0); // not when the focus went to another cell
    });
  }

  /**
   * Build the cells of a puzzle and draw its rules: `puzzle` {size, regions, cages}, `shown`
   * {diagonal: Set, window: Set, marks: {markup, outside}} (rules.js drawing(), marks.js marksSvg()):
   * the marks are one <svg class="marks" aria-hidden="true"> over the cells, set in one innerHTML.
   */
  build(puzzle, shown) {
    const n = puzzle.size;
    const regions = puzzle.regions;
    const cageOf = new Int32Array(n * n).fill(-1);
    puzzle.cages.forEach((cage, k) => cage.cells.forEach((cell) => (cageOf[cell] = k)));
    this.size = n;
    this.root.style.setProperty("--n", n);
    this.root.dataset.size = n;
    this.root.setAttribute("aria-rowcount", n);
    this.root.setAttribute("aria-colcount", n);
    const rows = [];
    const cells = [];
    for (let r = 0; r < n; r++) {
      const row = document.createElement("div");
      row.setAttribute("role", "row");
      row.className = "gr";
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const cell = document.createElement("div");
        cell.setAttribute("role", "gridcell");
        cell.className = "cell";
        cell.dataset.cell = cellName(i, n);
        cell.dataset.region = regions[i];
        cell.tabIndex = -1;
        const classes = [];
        if (c < n - 1 && regions[i] !== regions[i + 1]) classes.push("rr");
        if (r < n - 1 && regions[i] !== regions[i + n]) classes.push("rb");
        const cage = cageOf[i];
        if (cage >= 0) {
          cell.dataset.cage = cage + 1;
          classes.push("cage");
          if (c === 0 || cageOf[i - 1] !== cage) classes.push("cl");
          if (c === n - 1 || cageOf[i + 1] !== cage) classes.push("cr");
          if (r === 0 || cageOf[i - n] !== cage) classes.push("ct");
          if (r === n - 1 || cageOf[i + n] !== cage) classes.push("cb");
          // an inner corner (the cage turns round a cell not in it): a short piece joins the two lines
          const same = (dr, dc) => {
            const [rr, cc] = [r + dr, c + dc];
            return rr >= 0 && rr < n && cc >= 0 && cc < n && cageOf[rr * n + cc] === cage;
          };
          for (const [dr, dc, name] of [[-1, -1, "tl"], [-1, 1, "tr"], [1, -1, "bl"], [1, 1, "br"]]) {
            if (same(dr, 0) && same(0, dc) && !same(dr, dc)) {
              const corner = document.createElement("span");
              corner.className = `corner ${name}`;
              corner.setAttribute("aria-hidden", "true");
              cell.append(corner);
            }
          }
          if (puzzle.cages[cage].cells[0] === i) {
            const sum = document.createElement("span");
            sum.className = "sum";
            sum.dataset.cageSum = "";
            sum.setAttribute("aria-hidden", "true");
            sum.textContent = puzzle.cages[cage].sum;
            cell.append(sum);
          }
        }
        if (shown.diagonal.has(i)) {
          cell.dataset.diagonal = "";
          classes.push("diag");
        }
        if (shown.window.has(i)) classes.push("win");
        cell.classList.add(...classes);
        cell.base = cell.className;
        const content = document.createElement("span");
        content.className = "c";
        cell.append(content);
        cell.content = content;
        const at = cells.length;
        Object.defineProperty(cell, "value", { get: () => this.values[at] ?? "" });
        row.append(cell);
        cells.push(cell);
      }
      rows.push(row);
    }
    const marks = shown.marks ?? { markup: "", outside: false };
    this.root.classList.toggle("out", marks.outside);
    if (marks.markup) {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("class", "marks");
      svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
      svg.setAttribute("aria-hidden", "true");
      svg.innerHTML = marks.markup;
      rows.push(svg);
    }
    this.root.replaceChildren(...rows);
    this.cells = cells;
    this.keys = new Array(n * n).fill("");
    this.values = new Array(n * n).fill("");
    this.selected = Math.min(this.selected, n * n - 1);
    cells[this.selected].tabIndex = 0;
  }

  /**
   * Show every cell's state: `views[i]` = {text (its symbol or ""), kind ("given", "entered",
   * "solved", "preview", "walked" or ""), notes (symbols, in order), marks (classes: lit, elim,
   * involved, focus, bad, same), elim (symbols a hint takes out), label (its accessible name)}.
   * Only the cells whose view changed are touched.
   */
  paint(views) {
    views.forEach((view, i) => {
      const key = `${view.text}|${view.kind}|${view.notes}|${view.marks}|${view.elim}|${view.label}`;
      if (this.keys[i] === key) return;
      this.keys[i] = key;
      const cell = this.cells[i];
      this.values[i] = view.text;
      cell.className = `${cell.base} ${view.kind} ${view.marks}`.trim();
      cell.setAttribute("aria-label", view.label);
      cell.toggleAttribute("data-given", view.kind === "given");
      if (view.kind === "given") cell.setAttribute("aria-readonly", "true");
      else cell.removeAttribute("aria-readonly");
      if (view.elim) {
        cell.dataset.elim = view.elim;
        cell.title = `not ${view.elim}`;
      } else {
        delete cell.dataset.elim;
        cell.removeAttribute("title");
      }
      if (view.text) {
        cell.content.className = "c digit";
        cell.content.textContent = view.text;
      } else if (view.notes) {
        cell.content.className = "c notes";
        const struck = view.elim ?? "";
        let html = "";
        for (const symbol of view.all) {
          if (!view.notes.includes(symbol)) html += "<span></span>";
          else {
            const x = struck.includes(symbol) ? ' class="x"' : "";
            html += `<span data-note="${escape(symbol)}"${x}>${escape(symbol)}</span>`;
          }
        }
        cell.content.innerHTML = html;
        if (view.all.length > 9) cell.content.dataset.text = noteText(view.all, view.notes);
      } else {
        cell.content.className = "c";
        cell.content.textContent = "";
      }
    });
  }

  /** The cell element named `name` (r1c1), or undefined. */
  cell(name) {
    return this.root.querySelector(`[data-cell="${name}"]`) ?? undefined;
  }

  /** Select cell `at` (the one Tab reaches); `focus`: move the keyboard focus there too. */
  select(at, focus = true) {
    if (at < 0 || at >= this.cells.length) return;
    this.cells[this.selected].tabIndex = -1;
    this.selected = at;
    this.cells[at].tabIndex = 0;
    if (focus) this.cells[at].focus();
    this.onSelect(at);
  }

  key(event) {
    const at = this.cells.indexOf(event.target);
    if (at < 0) return;
    const n = this.size;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[event.key];
    if (move && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const [r, c] = [Math.floor(at / n) + move[0], (at % n) + move[1]];
      if (r >= 0 && r < n && c >= 0 && c < n) this.select(r * n + c);
      event.preventDefault();
      return;
    }
    if (event.key === "Home" || event.key === "End") {
      const row = Math.floor(at / n) * n;
      this.select(event.key === "Home" ? row : row + n - 1);
      event.preventDefault();
      return;
    }
    this.onKey(at, event);
  }
}
