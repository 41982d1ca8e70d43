// The page: one puzzle on the grid (its givens, rules and their data), the person's
// digits and notes on it, and buttons that ask the JSON API (api.js) about the puzzle:
// its givens plus the person's digits, never a solution the server filled in.
//
// A puzzle pasted (textarea), generated, typed or opened from a link is on the grid at
// once: a pasted text is read by api/v1/parse. The address holds the puzzle (#givens=
// ...&rules=...&regions=...&cages=...&digits=...): a new puzzle is a new history entry
// (Back goes to the one before), a typed digit only rewrites the current one. Every
// change on the grid can be undone (Undo, Ctrl+Z) and redone (Redo, Ctrl+Y, Ctrl+Shift+Z).
//
// Actions run one after another. After the last one ends, <body data-done="N"
// data-action="solve" data-ms="12.3" data-api-ms="8.1"> says that N actions are on
// screen, how long the last took (performance.now(), click to the frame after the
// change) and how much of it was spent waiting for the API; window.sudokuTimings keeps
// every {action, ms, api}. A request that takes more than 0.5 s shows the seconds in
// #status and a Cancel button that aborts it.

import { call, get, waited } from "./api.js";
import { Grid } from "./grid.js";
import { marksSvg } from "./marks.js";
import { REGION_SYMBOLS, fromHash, hashOf, plainPuzzle, puzzleOf, writeText, writtenRules } from "./puzzle.js";
import { FALLBACK, candidates, cellIndex, drawing, peers, symbolsFor } from "./rules.js";

const $ = (selector) => document.querySelector(selector);
const pasteBox = $('textarea[name="puzzle"]');
const rulesField = $('input[name="rules"]');
const sizeSelect = $('select[name="size"]');
const errorBox = $("#error");
const statusBox = $("#status");
const statusWords = $("#status .words");
const cancelButton = $('button[data-action="cancel"]');
const notesButton = $('button[data-action="notes"]');
const hintBox = $("#hint");
const stepsBox = $("#steps");
const answerBox = $("#answer");
const rulesShown = $("#rules-shown");
const keypad = $("#keypad");

/** Milliseconds before a request shows its elapsed time and the Cancel button. */
const SLOW_MS = 500;

let draws = FALLBACK; // word -> how it is drawn: the server's registry when it has one
let puzzle = null; // {size, symbols, givens, rules, regions, jigsaw, cages, candidates}
let board = null; // {entries, notes (bit d-1 for digit d), solved}: what undo and redo step through
let undos = [];
let redos = [];
let shown = null; // drawing(): diagonals, windows, extra units
let peerLists = null;
let marks = noMarks(); // a hint's or a step's lights, an error's cells
let hint = null; // the step the hint box shows
let walk = null; // the steps walk: {steps, at}
let walked = new Map(); // cell -> digit placed by the walk's earlier steps (not the person's)
let notesMode = false;
let source = null; // the pasted or generated text while the grid holds exactly its puzzle
let readTimer = 0;
let controller = null; // the AbortController of the action in progress
window.sudokuTimings = [];

const grid = new Grid($("#grid"), typed, () => paint());

function noMarks() {
  return { lit: new Set(), involved: new Set(), focus: new Set(), bad: new Set(), elim: new Map(), preview: new Map() };
}

function say(words) {
  statusWords.textContent = words;
}

// -- the puzzle and the board -------------------------------------------------------------

/** An empty puzzle of `size` under the Rules field's unit rules. */
function emptyPuzzle(size) {
  return puzzleOf({ size, givens: ".".repeat(size * size), rules: fieldRules().join("+") || "classic" });
}

function fieldRules() {
  return rulesField.value.trim().toLowerCase().split("+").filter((word) => word && word !== "classic");
}

/** Put `next` on the grid with an empty board (or `digits`, the person's); `push`: a new history entry. */
function load(next, { push = true, digits = null, text = null } = {}) {
  puzzle = next;
  const cells = next.size * next.size;
  board = { entries: digits ?? new Array(cells).fill(0), notes: new Array(cells).fill(0), solved: [] };
  undos = [];
  redos = [];
  source = text;
  marks = noMarks();
  walked = new Map();
  hideExtras();
  errorBox.hidden = true;
  redraw();
  sizeSelect.value = next.size;
  address(push);
}

/** performance.measure(name) from `start` to the frame after it (the Performance API; benchmarks/bench_web.py). */
function measured(name, start) {
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (performance.getEntriesByName(name).length >= 500) performance.clearMeasures(name);
      performance.measure(name, { start, end: performance.now() });
    }, 0),
  );
}

/** Draw the puzzle's cells and rules again (a new puzzle, new rules, the registry arrived). */
function redraw() {
  const start = performance.now();
  shown = drawing(puzzle, draws);
  shown.marks = marksSvg(puzzle, draws);
  peerLists = peers(puzzle, shown.units);
  grid.build(puzzle, shown);
  rulesShown.textContent = puzzle.rules.length ? `Rules: ${puzzle.rules.join(", ")}` : "";
  buildKeypad();
  paint();
  if (performance.getEntriesByName("sudoku-draw-script").length >= 500) performance.clearMeasures("sudoku-draw-script");
  performance.measure("sudoku-draw-script", { start, end: performance.now() }); // the script's part alone
  measured("sudoku-draw", start);
}

/** Per cell the puzzle's digit: a given or the person's (0 for an empty cell). */
function digitsNow() {
  return puzzle.givens.map((given, i) => given || board.entries[i]);
}

/** Make one change on the board, undoably: `change(board)` mutates it. Marks and errors go. */
function commit(change) {
  undos.push(structuredClone(board));
  redos = [];
  change(board);
  afterChange();
}

function afterChange() {
  marks = noMarks();
  walked = new Map();
  hideExtras();
  errorBox.hidden = true;
  paint();
  address(false);
}

function undo() {
  if (!undos.length) return say("Nothing to undo.");
  redos.push(board);
  board = undos.pop();
  afterChange();
  say("Undone.");
}

function redo() {
  if (!redos.length) return say("Nothing to redo.");
  undos.push(board);
  board = redos.pop();
  afterChange();
  say("Redone.");
}

/** The grid is the puzzle now: the pasted text no longer says what is on it. */
function leaveText() {
  if (source === null) return;
  source = null;
  if (pasteBox.value) {
    pasteBox.value = "";
    say("The grid is the puzzle now (the text box was cleared).");
  }
}

function setDigit(at, digit) {
  if (puzzle.givens[at]) return;
  leaveText();
  commit((b) => {
    b.solved = [];
    b.entries[at] = digit;
    b.notes[at] = 0;
    if (digit) for (const peer of peerLists[at]) b.notes[peer] &= ~(1 << (digit - 1));
  });
}

function toggleNote(at, digit) {
  if (digitsNow()[at]) return;
  commit((b) => (b.notes[at] ^= 1 << (digit - 1)));
}

function fillCandidates(b) {
  const masks = candidates(puzzle, puzzle.givens.map((given, i) => given || b.entries[i]), peerLists);
  masks.forEach((mask, i) => (b.notes[i] = mask));
}

/** True when every empty cell has notes: the person's candidates are the puzzle's (sent as pencilmarks). */
function fullNotes() {
  const digits = digitsNow();
  return digits.some((d) => !d) && digits.every((d, i) => d || board.notes[i]);
}

// -- what the API is sent ----------------------------------------------------------------

/** The puzzle's text: the pasted text while the grid is its puzzle, else written from the grid. */
function puzzleText() {
  if (source !== null && !board.entries.some(Boolean) && !fullNotes()) return source;
  return writeText(puzzle, digitsNow(), board.notes, fullNotes());
}

let sentSource = false; // the last request sent the pasted text (its region names), not the page's own writing

function body() {
  const out = { puzzle: puzzleText() };
  sentSource = out.puzzle === source;
  // a text the page wrote carries its regions, cages and marks; the puzzle's other rules go as rules=
  const written = writtenRules(puzzle);
  const own = sentSource ? [] : puzzle.rules.filter((word) => !written.has(word));
  const rules = [...new Set([...fieldRules(), ...own])].join("+");
  if (rules) out.rules = rules;
  return out;
}

// -- the address -------------------------------------------------------------------------

/** Write the puzzle and the person's digits into the address; `push`: as a new history entry. */
function address(push) {
  const hash = hashOf(puzzle, board.entries);
  if (hash === location.hash) return;
  if (push) history.pushState(null, "", hash);
  else history.replaceState(null, "", hash);
}

function openAddress(push) {
  const found = fromHash(location.hash);
  if (!found) return false;
  const written = writtenRules(found.puzzle);
  rulesField.value = found.puzzle.rules.filter((w) => !written.has(w)).join("+");
  pasteBox.value = "";
  load(found.puzzle, { push, digits: found.entries });
  return true;
}

// -- painting ------------------------------------------------------------------------------

function paint() {
  const start = performance.now();
  const n = puzzle.size;
  const symbols = puzzle.symbols;
  const all = [...symbols];
  const selectedDigit = grid.focused ? puzzle.givens[grid.selected] || board.entries[grid.selected] : 0;
  const lit = marks.lit.size || walk !== null;
  const sumOf = new Map();
  puzzle.cages.forEach((cage) => cage.cells.forEach((cell) => sumOf.set(cell, cage.sum)));
  const views = puzzle.givens.map((given, i) => {
    let digit = given;
    let kind = given ? "given" : "";
    if (!digit && board.entries[i]) [digit, kind] = [board.entries[i], "entered"];
    if (!digit && walked.has(i)) [digit, kind] = [walked.get(i), "entered walked"];
    if (!digit && marks.preview.has(i)) [digit, kind] = [marks.preview.get(i), "preview"];
    if (!digit && board.solved[i] && !lit) [digit, kind] = [board.solved[i], "solved"];
    const text = digit ? symbols[digit - 1] : "";
    const notes = text ? "" : all.filter((_, k) => (board.notes[i] >> k) & 1).join("");
    const classes = [];
    for (const name of ["lit", "involved", "focus", "bad"]) if (marks[name].has(i)) classes.push(name);
    const elim = marks.elim.get(i) ?? "";
    if (elim) classes.push("elim");
    if (selectedDigit && digit === selectedDigit) classes.push("same");
    const where = `row ${Math.floor(i / n) + 1} column ${(i % n) + 1}`;
    let label = `${where}, ${text || "empty"}`;
    if (given) label += ", given";
    else if (kind === "solved") label += ", solved";
    if (notes) label += `, notes ${[...notes].join(" ")}`;
    if (sumOf.has(i)) label += `, cage ${sumOf.get(i)}`;
    return { text, kind, notes, all, marks: classes.join(" "), elim, label };
  });
  grid.paint(views);
  measured("sudoku-paint", start);
  $('button[data-action="undo"]').disabled = !undos.length;
  $('button[data-action="redo"]').disabled = !redos.length;
}

/** Light a step: placements previewed (or already there), eliminations marked, its pattern and unit. */
function light(step) {
  marks = noMarks();
  const symbols = puzzle.symbols;
  const digits = digitsNow();
  for (const { cell, digit } of step.placements ?? []) {
    const at = cellIndex(cell, puzzle.size);
    marks.lit.add(at);
    if (!digits[at] && !walked.has(at)) marks.preview.set(at, digit);
  }
  for (const { cell, digit } of step.eliminations ?? []) {
    const at = cellIndex(cell, puzzle.size);
    marks.elim.set(at, (marks.elim.get(at) ?? "") + symbols[digit - 1]);
  }
  for (const cell of step.cells ?? []) marks.involved.add(cellIndex(cell, puzzle.size));
  for (const at of unit(step.focus)) marks.focus.add(at);
}

/** The cells of a unit named as the API names it ("row 3", "column 5", "box 4", "region b"). */
function unit(name) {
  const [, kind, word] = /^(row|column|box|region) (\S+)$/.exec(name ?? "") ?? [];
  const n = puzzle.size;
  let at = Number(word);
  if (kind === "region" && puzzle.jigsaw) {
    // the text sent named the regions: the pasted text its own symbols, the page's writing REGION_SYMBOLS
    const names = sentSource && puzzle.regionNames ? puzzle.regionNames : [...REGION_SYMBOLS];
    at = names.indexOf(word) + 1 || at;
  }
  const cells = [];
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n) + 1;
    const c = (i % n) + 1;
    if ((kind === "row" && r === at) || (kind === "column" && c === at)) cells.push(i);
    else if ((kind === "box" || kind === "region") && puzzle.regions[i] === at) cells.push(i);
  }
  return cells;
}

// -- keys and the keypad -----------------------------------------------------------------------

/** A key on a cell (grid.js moves with the arrows): a digit, a note, clearing, or the notes mode. */
function typed(at, event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if ((readTimer || pending) && (event.key.length === 1 || ["Backspace", "Delete"].includes(event.key))) {
    // a pasted text not read yet, or an answer on its way: the key waits its turn
    const { key, code, shiftKey } = event;
    run("type", at, { key, code, shiftKey, preventDefault() {} });
    event.preventDefault();
    return;
  }
  applyKey(at, event);
}

/** Apply a key on cell `at`: a digit, a note, clearing, or the notes mode. */
function applyKey(at, event) {
  const key = event.key.toUpperCase();
  const code = /^(?:Digit|Numpad)(\d)$/.exec(event.code ?? "");
  const digit = event.shiftKey && code ? Number(code[1]) : puzzle.symbols.toUpperCase().indexOf(key) + 1;
  if ((key.length === 1 || code) && digit > 0 && digit <= puzzle.size) {
    if (notesMode || (event.shiftKey && code)) toggleNote(at, digit); // Shift+A on 16x16 is the letter A
    else setDigit(at, digit);
  } else if (["BACKSPACE", "DELETE", ".", " "].includes(key) || (key === "0" && puzzle.size <= 9)) {
    if (board.entries[at]) setDigit(at, 0);
    else if (board.notes[at]) commit((b) => (b.notes[at] = 0));
  } else if (key === "N" || key === "/") {
    toggleNotesMode();
  } else {
    return;
  }
  event.preventDefault();
}

function toggleNotesMode() {
  notesMode = !notesMode;
  notesButton.setAttribute("aria-pressed", String(notesMode));
  say(notesMode ? "Notes: a digit toggles a candidate." : "Digits: a digit fills the cell.");
}

function buildKeypad() {
  const buttons = [...puzzle.symbols].map((symbol, k) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.digit = k + 1;
    button.textContent = symbol;
    button.setAttribute("aria-label", `digit ${symbol}`);
    return button;
  });
  const erase = document.createElement("button");
  erase.type = "button";
  erase.dataset.digit = "0";
  erase.textContent = "⌫";
  erase.setAttribute("aria-label", "erase");
  keypad.replaceChildren(...buttons, erase);
}

keypad.addEventListener("pointerdown", (event) => event.preventDefault()); // the cell keeps the focus
keypad.addEventListener("click", (event) => {
  const digit = event.target.closest("[data-digit]")?.dataset.digit;
  if (digit === undefined) return;
  const at = grid.selected;
  if (digit === "0") {
    if (board.entries[at]) setDigit(at, 0);
    else if (board.notes[at]) commit((b) => (b.notes[at] = 0));
  } else if (notesMode) toggleNote(at, Number(digit));
  else setDigit(at, Number(digit));
});

// -- actions -------------------------------------------------------------------------------

function hideExtras() {
  hint = null;
  walk = null;
  hintBox.hidden = true;
  stepsBox.hidden = true;
  answerBox.hidden = true;
}

/** Show an error reply next to the grid, its cells in red; false when the reply is no error. */
function failed(reply) {
  if (!reply.error) return false;
  const { code, message } = reply.error;
  errorBox.querySelector(".code").textContent = code;
  errorBox.querySelector(".message").textContent = message;
  errorBox.hidden = false;
  marks = noMarks();
  for (const name of message.match(/r\d+c\d+/g) ?? []) marks.bad.add(cellIndex(name, puzzle.size));
  paint();
  say("");
  return true;
}

const api = (verb, data) => call(verb, data, controller?.signal);

/** Read the text box onto the grid (api/v1/parse), now. */
async function read() {
  clearTimeout(readTimer);
  readTimer = 0;
  const text = pasteBox.value;
  if (!text.trim()) {
    source = null;
    return;
  }
  const reply = await api("parse", { puzzle: text, ...(fieldRules().length ? { rules: fieldRules().join("+") } : {}) });
  if (reply.error) {
    const shown = plainPuzzle(text, fieldRules().join("+") || "classic");
    if (shown) load(shown, { text });
    source = text;
    failed(reply);
    return;
  }
  load(puzzleOf(reply), { text });
  const givens = puzzle.givens.filter(Boolean).length;
  say(`Read: ${reply.size}x${reply.size}, ${givens} givens, rules ${reply.rules}.`);
}

/** Before an action: a text still being typed is read first. */
async function ready() {
  if (readTimer) await read();
}

async function solve() {
  const sent = body();
  const reply = await api("solve", sent);
  if (failed(reply)) return;
  const symbols = puzzle.symbols.toUpperCase();
  const solution = [...reply.solution.toUpperCase()].map((ch) => symbols.indexOf(ch) + 1);
  const digits = digitsNow();
  commit((b) => (b.solved = solution.map((d, i) => (digits[i] ? 0 : d))));
  if (sent.puzzle === source) {
    answerBox.textContent = reply.text;
    answerBox.hidden = false;
  }
  say("Solved.");
}

/** A step in words: the API's text, which starts with its technique (a complete grid: no technique). */
const words = (step) =>
  !step.technique || step.text.startsWith(step.technique) ? step.text : `${step.technique}: ${step.text}`;

async function showHint() {
  const reply = await api("hint", body());
  if (failed(reply)) return;
  hint = reply;
  light(reply);
  paint();
  const placements = reply.placements?.length ?? 0;
  const eliminations = reply.eliminations?.length ?? 0;
  hintBox.querySelector(".words").textContent = words(reply);
  hintBox.querySelector("button").hidden = placements + eliminations === 0;
  hintBox.hidden = false;
  if (placements) say("Hint: the lit cells are its step; Apply keeps it.");
  else if (eliminations) say("Hint: it takes candidates out (struck through); Apply takes them out of the notes.");
  else say("No hint: nothing left to do.");
}

function apply() {
  if (!hint) return;
  const step = hint;
  const n = puzzle.size;
  if (step.placements?.length) {
    leaveText();
    commit((b) => {
      b.solved = [];
      for (const { cell, digit } of step.placements) {
        const at = cellIndex(cell, n);
        if (puzzle.givens[at]) continue;
        b.entries[at] = digit;
        b.notes[at] = 0;
        for (const peer of peerLists[at]) b.notes[peer] &= ~(1 << (digit - 1));
      }
    });
    say("Applied: the grid is the puzzle now.");
    return;
  }
  // eliminations only: the notes (every cell's candidates first, when the grid has none) lose them
  commit((b) => {
    if (!b.notes.some(Boolean)) fillCandidates(b);
    for (const { cell, digit } of step.eliminations ?? []) b.notes[cellIndex(cell, n)] &= ~(1 << (digit - 1));
  });
  say("Applied to the notes: the next Hint starts from them.");
}

async function showSteps() {
  const reply = await api("steps", body());
  if (failed(reply)) return;
  walk = { steps: reply.steps, at: 0 };
  const list = stepsBox.querySelector("ol");
  list.replaceChildren(
    ...reply.steps.map((step, i) => {
      const item = document.createElement("li");
      item.textContent = words(step);
      item.dataset.step = i + 1;
      return item;
    }),
  );
  stepsBox.hidden = false;
  walkTo(Math.min(1, reply.steps.length));
  const rated = reply.level ? `, ${reply.level} (SE ${reply.se})` : "";
  say(`${reply.steps.length} steps${rated}: Back and Forward walk them.`);
}

/** Show the grid after steps 1 .. at-1, with step `at` lit (0: the puzzle itself). */
function walkTo(at) {
  if (!walk) return;
  walk.at = Math.max(0, Math.min(at, walk.steps.length));
  walked = new Map();
  for (const step of walk.steps.slice(0, Math.max(0, walk.at - 1))) {
    for (const { cell, digit } of step.placements ?? []) walked.set(cellIndex(cell, puzzle.size), digit);
  }
  if (walk.at) light(walk.steps[walk.at - 1]);
  else marks = noMarks();
  paint();
  stepsBox.querySelectorAll("li").forEach((item, i) => item.classList.toggle("current", i === walk.at - 1));
  stepsBox.querySelector("li.current")?.scrollIntoView({ block: "nearest" });
  stepsBox.querySelector(".where").textContent = `step ${walk.at} of ${walk.steps.length}`;
}

async function rate() {
  const reply = await api("rate", body());
  if (failed(reply)) return;
  say(`Level ${reply.level}, SE ${reply.se}, QQWing ${reply.qqwing ?? "none"}, hardest step: ${reply.hardest}.`);
}

async function count() {
  const reply = await api("count", body());
  if (failed(reply)) return;
  if (reply.count === 0) say("No solution.");
  else if (reply.unique) say("Exactly one solution.");
  else say(`${reply.count}${reply.at_least ? "+" : ""} solutions (counting stops at ${reply.limit}).`);
}

async function generate() {
  const request = { size: Number(sizeSelect.value), symmetry: $('select[name="symmetry"]').value };
  const level = $('select[name="level"]').value;
  const seed = $('input[name="seed"]').value.trim();
  if (level) request.level = level;
  if (seed) request.seed = seed; // a string of digits: a Number would round seeds above 2**53
  const rules = fieldRules().join("+");
  if (rules) request.rules = rules;
  const reply = await api("generate", request);
  if (failed(reply)) return;
  clearTimeout(readTimer);
  readTimer = 0;
  // a jigsaw's regions or a killer's cages: the text box keeps the whole puzzle as GENERATE writes it
  const whole = reply.regions || reply.cages || reply.marks?.length;
  pasteBox.value = whole ? reply.text : "";
  const order = reply.regions ? [...new Set(reply.regions)] : [];
  const made = puzzleOf({
    size: reply.size,
    symbols: symbolsFor(reply.size, reply.puzzle),
    givens: reply.puzzle,
    rules: reply.rules,
    regions: reply.regions ? [...reply.regions].map((ch) => order.indexOf(ch) + 1) : null,
    region_symbols: reply.regions ? order : null,
    cages: reply.cages,
    marks: reply.marks, // a marks rule's puzzle: parse's shape ({rule, cells, value, kind}), when generate gives them
  });
  load(made, { text: whole ? reply.text : null });
  const rated = reply.level ? `, ${reply.level} (SE ${reply.se})` : "";
  say(`Generated: ${reply.givens} givens, seed ${reply.seed}${rated}.`);
}

function clear() {
  clearTimeout(readTimer);
  readTimer = 0;
  pasteBox.value = "";
  load(emptyPuzzle(Number(sizeSelect.value)));
  say("");
}

function showCandidates() {
  commit(fillCandidates);
  say("Candidates: every empty cell holds the digits its row, column, region and rules allow.");
}

const ACTIONS = {
  read,
  solve,
  hint: showHint,
  apply,
  steps: showSteps,
  rate,
  count,
  generate,
  clear,
  undo,
  redo,
  candidates: showCandidates,
  notes: toggleNotesMode,
  back: () => walkTo(walk ? walk.at - 1 : 0),
  forward: () => walkTo(walk ? walk.at + 1 : 0),
  step: (at) => walkTo(at),
  type: applyKey,
};
const STAYS = new Set(["apply", "back", "forward", "step", "notes", "undo", "redo", "candidates", "type"]); // keep what is shown

let queue = Promise.resolve();
let pending = 0;
let done = 0;

/** Queue one action; when none is left, say how long the last took (module comment). */
function run(name, ...args) {
  const start = performance.now();
  pending++;
  queue = queue.then(() => perform(name, args, start));
}

async function perform(name, args, start) {
  waited.ms = 0;
  errorBox.hidden = true;
  if (!STAYS.has(name)) {
    hideExtras();
    marks = noMarks();
    walked = new Map();
    paint();
  }
  controller = new AbortController();
  const began = performance.now();
  const ticker = setInterval(() => {
    const seconds = (performance.now() - began) / 1000;
    if (seconds * 1000 < SLOW_MS) return;
    say(`Working on ${name}: ${seconds.toFixed(1)} s`);
    cancelButton.hidden = false;
  }, 100);
  document.body.setAttribute("aria-busy", "true");
  try {
    if (!["read", "generate", "clear"].includes(name)) await ready(); // a text still being typed is read first
    await ACTIONS[name](...args);
  } catch (error) {
    if (error?.name === "AbortError") say(`Cancelled ${name} after ${((performance.now() - began) / 1000).toFixed(1)} s.`);
    else failed({ error: { code: "network", message: String(error), line: null } });
  } finally {
    clearInterval(ticker);
    cancelButton.hidden = true;
    controller = null;
    document.body.removeAttribute("aria-busy");
  }
  await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
  const ms = performance.now() - start;
  window.sudokuTimings.push({ action: name, ms, api: waited.ms });
  done++;
  if (--pending === 0) {
    Object.assign(document.body.dataset, { action: name, ms: ms.toFixed(1), apiMs: waited.ms.toFixed(1), done });
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const name = button.dataset.action;
  if (name === "cancel") controller?.abort();
  else run(name);
});
stepsBox.querySelector("ol").addEventListener("click", (event) => {
  const at = event.target.closest("li[data-step]")?.dataset.step;
  if (at) run("step", Number(at));
});
document.addEventListener("keydown", (event) => {
  const inField = event.target.closest?.("textarea, input, select");
  if (inField || !(event.ctrlKey || event.metaKey) || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) run("undo");
  else if (key === "y" || (key === "z" && event.shiftKey)) run("redo");
  else return;
  event.preventDefault();
});
pasteBox.addEventListener("input", () => {
  clearTimeout(readTimer);
  readTimer = setTimeout(() => run("read"), 300);
});
rulesField.addEventListener("input", () => {
  if (pasteBox.value.trim()) {
    clearTimeout(readTimer);
    readTimer = setTimeout(() => run("read"), 300);
    return;
  }
  // a typed or generated grid: the field's rules, with the jigsaw and killer data it has
  const implied = [puzzle.jigsaw ? "jigsaw" : "", puzzle.cages.length ? "killer" : ""].filter(Boolean);
  puzzle.rules = [...new Set([...fieldRules(), ...implied])];
  redraw();
  address(false);
});
sizeSelect.addEventListener("change", () => run("clear"));
window.addEventListener("popstate", () => {
  if (!openAddress(false)) load(emptyPuzzle(9), { push: false });
});

// the first puzzle: the address's, else an empty 9x9; the registry's drawing when it comes
if (!openAddress(false)) load(emptyPuzzle(Number(sizeSelect.value)), { push: false });
get("rules").then((reply) => {
  if (!reply?.rules) return;
  // the registry's drawing; FALLBACK only for a word it does not list (a link from a newer server)
  draws = { ...FALLBACK, ...Object.fromEntries(reply.rules.map((rule) => [rule.word, rule.draw ?? { kind: "none" }])) };
  $("#rule-words").replaceChildren(
    ...reply.rules.map((rule) => Object.assign(document.createElement("option"), { value: rule.word })),
  );
  redraw();
});
