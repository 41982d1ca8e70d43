// The page: buttons call the JSON API (api.js) on the pasted text when the text box is
// not empty, else on the grid (grid.js), and show the answer on the grid and in words.
// After each action, <body data-done="N" data-action="solve" data-ms="12.3"> says that
// action N is on screen and how long it took (performance.now(), click to the frame
// after the change), data-api-ms how much of it was spent waiting for the API;
// window.sudokuTimings keeps every {action, ms, api}.

import { call, waited } from "./api.js";
import { BOXES, Grid, symbolsFor } from "./grid.js";

const $ = (selector) => document.querySelector(selector);
const pasteBox = $('textarea[name="puzzle"]');
const sizeSelect = $('select[name="size"]');
const errorBox = $("#error");
const statusBox = $("#status");
const hintBox = $("#hint");
const stepsBox = $("#steps");
const answerBox = $("#answer");
const grid = new Grid($("#grid"), () => {
  // a person typed into the grid: the grid is the puzzle now
  if (pasteBox.value) {
    pasteBox.value = "";
    say("The grid is the puzzle now (the text box was cleared).");
  }
  hideExtras();
});

let hint = null; // the step the hint box shows
let walk = null; // the steps walk: {steps, at, before (the grid before step 1), symbols}
let done = 0;
window.sudokuTimings = [];

function say(words) {
  statusBox.textContent = words;
}

function hideExtras() {
  hint = null;
  walk = null;
  hintBox.hidden = true;
  stepsBox.hidden = true;
  answerBox.hidden = true;
}

/** The request body for a verb that takes a puzzle, and whether it is the pasted text. */
function puzzleBody() {
  const pasted = pasteBox.value.trim() !== "";
  const body = { puzzle: pasted ? pasteBox.value : grid.line() };
  const rules = $('input[name="rules"]').value.trim();
  if (rules) body.rules = rules; // variant rules (issue 19), passed on as the API's rules=
  return { body, pasted };
}

/**
 * The cells of a pasted puzzle in a plain layout (one line, or rows with spaces and
 * borders), row-major ("." empty); null for any other layout. A solution, when
 * known, must agree with every given.
 */
function plainCells(text, solution = "") {
  const rows = text.split(/\r\n|\r|\n/).filter((row) => !/^\s*(#|\[|$)/.test(row));
  let cells = rows.join("").split(":")[0].replace(/[\s|+\-=*\u2500-\u257f]/g, "");
  const size = Math.round(Math.sqrt(cells.length));
  if (!(size in BOXES) || size * size !== cells.length) return null;
  if (size > 9 && !/[._]/.test(cells)) cells = cells.replaceAll("0", ".");
  if (solution && solution.length !== cells.length) return null;
  for (let i = 0; i < cells.length && solution; i++) {
    if (!"._0".includes(cells[i]) && cells[i].toUpperCase() !== solution[i].toUpperCase()) return null;
  }
  return cells;
}

/**
 * The cells of a pasted puzzle in any layout, from Solve's answer in that layout (the
 * pasted lines with each empty cell filled): the answer's cells are the characters that
 * spell the solution in order, its givens those the pasted text shares. Null when they
 * do not line up (every character the answer changed must be a cell).
 */
function alignedCells(pasted, answer, solution) {
  const norm = (ch) => (ch ?? "").normalize("NFKC").toUpperCase(); // full-width digits are digits
  const lines = (text) => text.replace(/[\r\n]+$/, "").split(/\r\n|\r|\n/);
  const rows = lines(answer).length; // the answer leaves out a caption or comments above the puzzle
  const [before, after] = [lines(pasted).slice(-rows), lines(answer)].map((text) => [...text.join("\n")]);
  const digits = [...solution.toUpperCase()];
  if (before.length !== after.length) return null;
  const cells = [];
  for (let i = 0; i < after.length; i++) {
    const ch = norm(after[i]);
    if (ch === digits[cells.length]) cells.push(norm(before[i]) === ch ? ch : ".");
    else if (norm(before[i]) !== ch) return null;
  }
  return cells.length === digits.length ? cells.join("") : null;
}

let pasteOnGrid = false; // the grid holds the pasted puzzle's givens

/**
 * Show the pasted puzzle on the grid, with the solution in its empty cells when `solved`
 * (Solve's reply) is given. A layout that is not a plain one costs a Solve for its cells.
 */
async function showPasted(solved = null) {
  let cells = plainCells(pasteBox.value, solved?.solution);
  if (!cells) {
    const reply = solved ?? (await call("solve", puzzleBody().body));
    cells = reply.error ? null : alignedCells(pasteBox.value, reply.text, reply.solution);
    if (!cells && !reply.error) grid.show(".".repeat(reply.solution.length), solved ? reply.solution : "");
  }
  if (cells) grid.show(cells, solved?.solution ?? "");
  sizeSelect.value = grid.size;
  pasteOnGrid = cells !== null;
}

/** Show an error reply next to the grid, its cells in red; false when the reply is no error. */
function failed(reply, pasted) {
  if (!reply.error) return false;
  const cells = pasted ? plainCells(pasteBox.value) : null;
  if (cells) grid.show(cells); // to light the cells the message names
  const { code, message } = reply.error;
  errorBox.querySelector(".code").textContent = code;
  errorBox.querySelector(".message").textContent = message;
  errorBox.hidden = false;
  grid.mark(message.match(/r\d+c\d+/g) ?? []);
  say("");
  return true;
}

/** A step in words: the API's text, which starts with its technique (a complete grid: no technique). */
const words = (step) =>
  !step.technique || step.text.startsWith(step.technique) ? step.text : `${step.technique}: ${step.text}`;

async function solve() {
  const { body, pasted } = puzzleBody();
  const reply = await call("solve", body);
  if (failed(reply, pasted)) return;
  if (pasted) {
    await showPasted(reply);
    answerBox.textContent = reply.text;
    answerBox.hidden = false;
  } else {
    grid.fill(reply.solution);
  }
  say("Solved.");
}

async function showHint() {
  const { body, pasted } = puzzleBody();
  const reply = await call("hint", body);
  if (failed(reply, pasted)) return;
  if (pasted) await showPasted();
  hint = reply;
  grid.light(reply, symbolsFor(grid.size, grid.values()));
  const moves = (reply.placements?.length ?? 0) + (reply.eliminations?.length ?? 0);
  hintBox.querySelector(".words").textContent = words(reply);
  hintBox.querySelector("button").hidden = moves === 0;
  hintBox.hidden = false;
  say(moves ? "Hint: the lit cells are its step; Apply keeps it." : "No hint: nothing left to do.");
}

async function apply() {
  if (!hint) return;
  if (!hint.placements?.length) {
    // eliminations only: the API takes digits, not candidates, so the walk goes on in the step list
    hint = null;
    hintBox.hidden = true;
    await showSteps(2);
    say(
      "Eliminations cannot be kept on the grid (the API takes digits, not candidates): " +
        "the step list goes on from the next step.",
    );
    return;
  }
  grid.keep();
  grid.unlight();
  hideExtras();
  if (pasteBox.value.trim() && !pasteOnGrid) {
    say("Applied on the grid; the next Hint is still about the pasted text (its givens did not fit the grid).");
    return;
  }
  pasteBox.value = "";
  say("Applied: the grid is the puzzle now.");
}

async function showSteps(start = 1) {
  const { body, pasted } = puzzleBody();
  const reply = await call("steps", body);
  if (failed(reply, pasted)) return;
  if (pasted) await showPasted();
  walk = { steps: reply.steps, at: 0, before: grid.snapshot(), symbols: symbolsFor(grid.size, grid.values()) };
  const list = stepsBox.querySelector("ol");
  list.replaceChildren(
    ...reply.steps.map((step, i) => {
      const item = document.createElement("li");
      item.textContent = words(step);
      item.addEventListener("click", () => walkTo(i + 1));
      return item;
    }),
  );
  stepsBox.hidden = false;
  walkTo(Math.min(start, reply.steps.length));
  const rated = reply.level ? `, ${reply.level} (SE ${reply.se})` : "";
  say(`${reply.steps.length} steps${rated}: Back and Forward walk them.`);
}

/** Show the grid after steps 1 .. at-1, with step `at` lit (0: the puzzle itself). */
function walkTo(at) {
  if (!walk) return;
  walk.at = Math.max(0, Math.min(at, walk.steps.length));
  grid.restore(walk.before);
  for (const step of walk.steps.slice(0, Math.max(0, walk.at - 1))) {
    for (const { cell, digit } of step.placements ?? []) grid.place(cell, walk.symbols[digit - 1], "entered");
  }
  if (walk.at) grid.light(walk.steps[walk.at - 1], walk.symbols);
  stepsBox.querySelectorAll("li").forEach((item, i) => item.classList.toggle("current", i === walk.at - 1));
  stepsBox.querySelector("li.current")?.scrollIntoView({ block: "nearest" });
  stepsBox.querySelector(".where").textContent = `step ${walk.at} of ${walk.steps.length}`;
}

async function rate() {
  const { body, pasted } = puzzleBody();
  const reply = await call("rate", body);
  if (failed(reply, pasted)) return;
  if (pasted) await showPasted();
  say(`Level ${reply.level}, SE ${reply.se}, QQWing ${reply.qqwing ?? "none"}, hardest step: ${reply.hardest}.`);
}

async function count() {
  const { body, pasted } = puzzleBody();
  const reply = await call("count", body);
  if (failed(reply, pasted)) return;
  if (pasted) await showPasted();
  if (reply.count === 0) say("No solution.");
  else if (reply.unique) say("Exactly one solution.");
  else say(`${reply.count}${reply.at_least ? "+" : ""} solutions (counting stops at ${reply.limit}).`);
}

async function generate() {
  const body = { size: Number(sizeSelect.value), symmetry: $('select[name="symmetry"]').value };
  const level = $('select[name="level"]').value;
  const seed = $('input[name="seed"]').value.trim();
  if (level) body.level = level;
  if (seed) body.seed = seed; // a string of digits: a Number would round seeds above 2**53
  const rules = $('input[name="rules"]').value.trim();
  if (rules) body.rules = rules; // a variant puzzle (issue 19)
  const reply = await call("generate", body);
  if (failed(reply, false)) return;
  // a jigsaw's regions or a killer's cages are not on the grid: the text box keeps the whole puzzle
  pasteBox.value = reply.regions || reply.cages ? reply.text : "";
  grid.show(reply.puzzle);
  sizeSelect.value = grid.size;
  const rated = reply.level ? `, ${reply.level} (SE ${reply.se})` : "";
  say(`Generated: ${reply.givens} givens, seed ${reply.seed}${rated}.`);
}

function clear() {
  pasteBox.value = "";
  grid.resize(Number(sizeSelect.value));
  say("");
}

const ACTIONS = {
  solve,
  hint: showHint,
  apply,
  steps: () => showSteps(1),
  rate,
  count,
  generate,
  clear,
  back: () => walkTo(walk ? walk.at - 1 : 0),
  forward: () => walkTo(walk ? walk.at + 1 : 0),
};
const STAYS = new Set(["apply", "back", "forward"]); // actions that keep the hint or the walk on screen

/** Run one action: clear the last answer, wait for it, then record how long until it was on screen. */
async function run(name) {
  const start = performance.now();
  waited.ms = 0;
  const buttons = document.querySelectorAll("button");
  errorBox.hidden = true;
  if (!STAYS.has(name)) {
    hideExtras();
    grid.unlight();
  }
  buttons.forEach((button) => (button.disabled = true));
  try {
    await ACTIONS[name]();
  } catch (error) {
    failed({ error: { code: "network", message: String(error), line: null } }, false);
  } finally {
    buttons.forEach((button) => (button.disabled = false));
  }
  await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
  const ms = performance.now() - start;
  window.sudokuTimings.push({ action: name, ms, api: waited.ms });
  Object.assign(document.body.dataset, { action: name, ms: ms.toFixed(1), apiMs: waited.ms.toFixed(1), done: ++done });
}

document.addEventListener("click", (event) => {
  const name = event.target.closest("button[data-action]")?.dataset.action;
  if (name) run(name);
});
sizeSelect.addEventListener("change", () => {
  hideExtras();
  grid.resize(Number(sizeSelect.value));
});
