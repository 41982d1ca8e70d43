// The grid on screen: one <input data-cell="r1c1"> per cell, its value the cell's digit
// (a symbol: 1-9, then letters on 16x16 and 25x25), boxes drawn by CSS classes.
// Arrow keys move, a digit fills, Backspace or Delete clears.

/** Box shape (rows, columns) of each size the server reads (docs/LAYOUTS.md "Sizes"). */
export const BOXES = { 4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4], 25: [5, 5] };

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY";

/** The symbols of a puzzle, digit 1 first: the set the server picks for these cells (docs/LAYOUTS.md). */
export function symbolsFor(size, cells) {
  if (size <= 9) return "123456789".slice(0, size);
  const text = cells.join("").toUpperCase();
  if (size === 16 && text.includes("0")) return "0123456789ABCDEF";
  if (/[A-Z]/.test(text) && !/[0-9]/.test(text)) return LETTERS.slice(0, size);
  return ("123456789" + LETTERS).slice(0, size);
}

/** The characters a person may type into a cell of this size (upper case). */
function typeable(size) {
  if (size <= 9) return "123456789".slice(0, size);
  return size === 16 ? "0123456789ABCDEFG" : "123456789" + LETTERS;
}

/** Take a step's or an error's marks off a cell (its value and kind stay). */
function unmark(input) {
  input.classList.remove("lit", "elim", "involved", "focus", "bad");
  for (const name of ["data-elim", "title", "placeholder"]) input.removeAttribute(name);
}

/** The name of a cell: r1c1 .. r9c9 (r16c16 on 16x16). */
export const cellName = (row, col) => `r${row + 1}c${col + 1}`;

export class Grid {
  /** @param {HTMLElement} root the grid's container; @param {() => void} onEdit called when a person changes a cell */
  constructor(root, onEdit) {
    this.root = root;
    this.onEdit = onEdit;
    this.inputs = [];
    root.addEventListener("keydown", (event) => this.key(event));
    root.addEventListener("input", (event) => this.typed(event.target));
    this.resize(9);
  }

  /** Draw an empty grid of `size` x `size` cells (4, 6, 9, 16 or 25). */
  resize(size) {
    const [boxRows, boxCols] = BOXES[size];
    this.size = size;
    this.root.style.setProperty("--n", size);
    this.root.dataset.size = size;
    const inputs = [];
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const input = document.createElement("input");
        input.dataset.cell = cellName(row, col);
        input.setAttribute("aria-label", input.dataset.cell);
        input.autocomplete = "off";
        input.inputMode = size <= 9 ? "numeric" : "text";
        if (col % boxCols === 0 && col) input.classList.add("box-left");
        if (row % boxRows === 0 && row) input.classList.add("box-top");
        inputs.push(input);
      }
    }
    this.root.replaceChildren(...inputs);
    this.inputs = inputs;
  }

  /** The cell element named `name` (r1c1), or undefined. */
  cell(name) {
    return this.root.querySelector(`[data-cell="${name}"]`) ?? undefined;
  }

  /** Every cell's character, row-major, "" for an empty one. */
  values() {
    return this.inputs.map((input) => input.value);
  }

  /** The puzzle as one line: a person's digits and the givens, "." for an empty cell (previews left out). */
  line() {
    return this.inputs.map((input) => (input.classList.contains("preview") ? "" : input.value) || ".").join("");
  }

  /**
   * Show a puzzle (one-line text, "." "_" or "0" empty) and, optionally, its solution in the empty cells.
   * The grid redraws when the size differs.
   */
  show(puzzle, solution = "") {
    const size = Math.round(Math.sqrt((solution || puzzle).length));
    if (size !== this.size) this.resize(size);
    const cells = [...puzzle];
    const empty = (ch) => ch === "." || ch === "_" || (ch === "0" && size <= 9);
    this.inputs.forEach((input, i) => {
      const given = cells[i] !== undefined && !empty(cells[i]);
      unmark(input);
      input.classList.remove("given", "solved", "entered", "preview");
      input.value = given ? cells[i].toUpperCase() : (solution[i] ?? "").toUpperCase();
      if (given) input.classList.add("given");
      else if (input.value) input.classList.add("solved");
    });
  }

  /** Write a solution (one-line text) into the empty cells. */
  fill(solution) {
    this.inputs.forEach((input, i) => {
      if (input.value && !input.classList.contains("preview")) return;
      input.classList.remove("preview");
      input.value = (solution[i] ?? "").toUpperCase();
      input.classList.add("solved");
    });
  }

  /** Every cell's value and classes, for restore(). */
  snapshot() {
    return this.inputs.map((input) => [input.value, input.className]);
  }

  restore(saved) {
    this.inputs.forEach((input, i) => {
      [input.value, input.className] = saved[i];
      unmark(input);
    });
  }

  /** Place `symbol` in cell `name`; `kind` is "entered" (kept), "preview" (a hint not applied yet). */
  place(name, symbol, kind) {
    const input = this.cell(name);
    if (!input) return;
    input.value = symbol;
    input.classList.remove("solved", "preview", "entered");
    input.classList.add(kind);
  }

  /** Light up a step: placement cells, elimination cells (each marked with the digits taken out), other cells. */
  light(step, symbols) {
    this.unlight();
    for (const { cell, digit } of step.placements ?? []) {
      this.place(cell, symbols[digit - 1], this.cell(cell)?.value ? "entered" : "preview");
      this.cell(cell)?.classList.add("lit");
    }
    for (const { cell, digit } of step.eliminations ?? []) {
      const input = this.cell(cell);
      if (!input) continue;
      input.classList.add("elim");
      input.dataset.elim = (input.dataset.elim ?? "") + symbols[digit - 1];
      input.title = `not ${input.dataset.elim}`;
      input.placeholder = input.dataset.elim; // shown struck through in the empty cell (style.css)
    }
    for (const name of step.cells ?? []) this.cell(name)?.classList.add("involved");
    for (const input of this.unit(step.focus)) input.classList.add("focus");
  }

  /** The cells of a unit named as the API names it ("row 3", "column 5", "box 4"); none for anything else. */
  unit(name) {
    const [, kind, number] = /^(row|column|box) (\d+)$/.exec(name ?? "") ?? [];
    const [boxRows, boxCols] = BOXES[this.size];
    const at = Number(number) - 1;
    return this.inputs.filter((_, i) => {
      const row = Math.floor(i / this.size);
      const col = i % this.size;
      if (kind === "row") return row === at;
      if (kind === "column") return col === at;
      const perRow = this.size / boxCols; // boxes side by side
      return kind === "box" && Math.floor(row / boxRows) * perRow + Math.floor(col / boxCols) === at;
    });
  }

  /** Take away the lights, the previews of a hint not applied, and the error marks. */
  unlight() {
    for (const input of this.inputs) {
      if (input.classList.contains("preview")) input.value = "";
      input.classList.remove("preview");
      unmark(input);
    }
  }

  /** Turn the previews into a person's entries (a hint applied). */
  keep() {
    for (const input of this.root.querySelectorAll(".preview")) input.classList.replace("preview", "entered");
  }

  /** Mark the cells an error names (r1c1 ...) in red. */
  mark(names) {
    for (const name of names) this.cell(name)?.classList.add("bad");
  }

  key(event) {
    const input = event.target;
    const at = this.inputs.indexOf(input);
    if (at < 0 || event.ctrlKey || event.metaKey || event.altKey) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -this.size, ArrowDown: this.size };
    if (event.key in moves) {
      const next = at + moves[event.key];
      const sameRow = Math.floor(next / this.size) === Math.floor(at / this.size);
      const inside = next >= 0 && next < this.inputs.length && (Math.abs(moves[event.key]) > 1 || sameRow);
      if (inside) this.inputs[next].focus();
      event.preventDefault();
    } else if (event.key === "Backspace" || event.key === "Delete" || event.key === "." || event.key === " ") {
      this.set(input, "");
      event.preventDefault();
    } else if (event.key.length === 1) {
      const symbol = event.key.toUpperCase();
      if (symbol === "0" && this.size <= 9) this.set(input, "");
      else if (typeable(this.size).includes(symbol)) this.set(input, symbol);
      event.preventDefault();
    }
  }

  /** A value that came in without a key event (a phone's keyboard, autofill): keep its last allowed character. */
  typed(input) {
    if (!this.inputs.includes(input)) return;
    const symbol = input.value.slice(-1).toUpperCase();
    this.set(input, typeable(this.size).includes(symbol) ? symbol : "");
  }

  set(input, symbol) {
    this.unlight();
    input.value = symbol;
    input.classList.remove("given", "solved", "preview");
    input.classList.toggle("entered", symbol !== "");
    this.onEdit();
  }
}
