// A puzzle as the page holds it, and its texts: parse's reply read into it, the text the
// server is sent (written from the grid), and the page's address.
//
// A puzzle: {size, symbols (digit d is symbols[d - 1]), givens (per cell its digit, 0 empty),
// rules (words), regions (per cell 1..size), regionNames (the text's region symbols, or
// null), jigsaw (regions other than the boxes), cages ([{sum, cells}], cells as indices),
// candidates (a pencilmark puzzle's, per cell bit d-1 for digit d; else null), marks (the
// marks of the rules that take them: [{rule, cells (indices), value, kind}])}.

import { DIRECTIONS, clueOf } from "./marks.js";
import { BOXES, boxRegions, cellIndex, defaultSymbols, symbolsFor } from "./rules.js";

/** Region symbols of the texts the page writes: region k is REGION_SYMBOLS[k - 1]. */
export const REGION_SYMBOLS = "abcdefghijklmnopqrstuvwxy";
/** Cage symbols of the cage blocks the page writes (docs/LAYOUTS.md: no blank, |, = or .). */
const CAGE_SYMBOLS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!$%&()*+/;<>?@[]^_{}~"]
  .concat(Array.from({ length: 25 }, (_, k) => String.fromCodePoint(0x3b1 + k))) // Greek small letters
  .concat(Array.from({ length: 25 }, (_, k) => String.fromCodePoint(0x391 + k)).filter((ch) => ch !== "\u03a2"));

/** A puzzle from parse's reply (or the same fields): digits as ints 1..size, cells as indices. */
export function puzzleOf(data) {
  const n = data.size;
  const symbols = data.symbols || defaultSymbols(n);
  const boxes = boxRegions(n);
  const regions = data.regions ?? boxes;
  const jigsaw = data.rules.split("+").includes("jigsaw") && regions.some((r, i) => r !== boxes[i]);
  return {
    size: n,
    symbols,
    givens: [...data.givens].map((ch) => symbols.indexOf(ch.toUpperCase()) + 1),
    rules: data.rules.split("+").filter((word) => word && word !== "classic"),
    regions,
    regionNames: data.region_symbols ?? null, // how the puzzle's text names its regions (steps say "region b")
    jigsaw,
    cages: (data.cages ?? []).map((cage) => ({ sum: cage.sum, cells: cage.cells.map((c) => cellIndex(c, n)) })),
    candidates: data.candidates
      ? data.candidates.map((text) => [...text].reduce((mask, ch) => mask | (1 << symbols.indexOf(ch)), 0))
      : null,
    marks: (data.marks ?? []).map((m) => ({
      rule: m.rule,
      cells: m.cells.map((c) => cellIndex(c, n)),
      value: m.value ?? 0,
      kind: m.kind ?? "",
    })),
  };
}

/** The rule words a puzzle's text carries itself when the page writes it (not sent as rules=). */
export function writtenRules(puzzle) {
  return new Set(["jigsaw", "killer", ...(puzzle.marks ?? []).map((m) => m.rule)]);
}

/**
 * The puzzle as one f-puzzles JSON line (issue 29; docs/LAYOUTS.md "f-puzzles"), every digit in `digits` a
 * given: its regions (a jigsaw), killer cages and marks. Its other rules go as rules=.
 */
export function fpuzzlesText(puzzle, digits) {
  const n = puzzle.size;
  const name = (i) => `R${Math.floor(i / n) + 1}C${(i % n) + 1}`;
  const grid = Array.from({ length: n }, (_, r) =>
    Array.from({ length: n }, (_, c) => {
      const i = r * n + c;
      const cell = digits[i] ? { value: digits[i], given: true } : {};
      if (puzzle.jigsaw) cell.region = puzzle.regions[i] - 1;
      return cell;
    }),
  );
  const out = { size: n, grid };
  const add = (key, entry) => (out[key] ??= []).push(entry);
  if (puzzle.cages.length) out.killercage = puzzle.cages.map((c) => ({ cells: c.cells.map(name), value: String(c.sum) }));
  const lines = { thermo: "thermometer", whispers: "whispers", renban: "renban", palindrome: "palindrome" };
  for (const m of puzzle.marks ?? []) {
    const cells = m.cells.map(name);
    if (m.kind.startsWith("negative")) {
      if (m.kind === "negative white") out.nonconsecutive = true;
      else add("negative", m.kind === "negative black" ? "ratio" : m.rule);
    } else if (m.rule in lines) add(lines[m.rule], { lines: [cells], ...(m.value ? { value: String(m.value) } : {}) });
    else if (m.rule === "arrow") {
      const bulb = Math.max(m.value, 1);
      add("arrow", { cells: cells.slice(0, bulb), lines: [[cells[bulb - 1], ...cells.slice(bulb)]] });
    } else if (m.rule === "kropki") {
      add(m.kind === "black" ? "ratio" : "difference", { cells, ...(m.value ? { value: String(m.value) } : {}) });
    } else if (m.rule === "xv") add("xv", { cells, value: m.value === 10 ? "X" : "V" });
    else if (m.rule === "oddeven") add(m.value === 2 ? "even" : "odd", { cell: cells[0] });
    else if (m.rule === "littlekiller" || m.rule === "sandwich") {
      const [r, c, dr, dc] = clueOf(m.cells, n);
      const cell = `R${r + 1}C${c + 1}`;
      if (m.rule === "sandwich") add("sandwichsum", { cell, value: String(m.value) });
      else add("littlekillersum", { cell, direction: DIRECTIONS[`${dr},${dc}`], value: String(m.value) });
    }
  }
  return JSON.stringify(out);
}

/**
 * The puzzle as a text the server reads (docs/LAYOUTS.md), its digits `digits` (givens and the person's):
 * an f-puzzles JSON line for a puzzle with marks or a killer jigsaw (fpuzzlesText), a killer's cage block with its givens, a jigsaw line (givens then region symbols), on 9x9 a pencilmark
 * line of the person's candidates when `full` (every empty cell has notes: `notes`, bit d-1 for digit d)
 * or the puzzle has candidates of its own, else one line.
 */
export function writeText(puzzle, digits, notes, full) {
  const n = puzzle.size;
  const symbols = puzzle.symbols;
  const cells = digits.map((d) => (d ? symbols[d - 1] : "."));
  // 16x16, 25x25 in 1-9 then letters with no digit 1-9 written: the server would read letters only (A = 1,
  // docs/LAYOUTS.md); the f-puzzles line says the digits as numbers (a break session's finding)
  const lettersOnly = n >= 16 && symbols === defaultSymbols(n) && !digits.some((d) => d >= 1 && d <= 9);
  if (puzzle.marks?.length || (puzzle.cages.length && puzzle.jigsaw) || (lettersOnly && digits.some(Boolean))) {
    return fpuzzlesText(puzzle, digits);
  }
  if (puzzle.cages.length > CAGE_SYMBOLS.length) {
    throw new Error(`a killer of ${puzzle.cages.length} cages: the page writes at most ${CAGE_SYMBOLS.length}`);
  }
  if (puzzle.cages.length) {
    // the cage block with its givens (docs/LAYOUTS.md "Killer: the cage block")
    const cageOf = new Array(n * n).fill(".");
    puzzle.cages.forEach((cage, k) => cage.cells.forEach((cell) => (cageOf[cell] = CAGE_SYMBOLS[k])));
    const rows = Array.from({ length: n }, (_, r) =>
      [cells.slice(r * n, r * n + n).join(""), cageOf.slice(r * n, r * n + n).join("")].join(" "),
    );
    const sums = puzzle.cages.map((cage, k) => `${CAGE_SYMBOLS[k]}=${cage.sum}`).join(" ");
    return rows.join("\n") + "\n" + sums + "\n";
  }
  if (puzzle.jigsaw) return cells.join("") + puzzle.regions.map((r) => REGION_SYMBOLS[r - 1]).join("");
  if (n === 9 && (puzzle.candidates || full)) {
    // a pencilmark line: the person's candidates (docs/LAYOUTS.md "Pencilmarks")
    return digits
      .map((d, i) => {
        const mask = d ? 1 << (d - 1) : notes[i] || puzzle.candidates?.[i] || 511;
        return [...symbols].map((s, k) => (mask >> k) & 1 ? s : ".").join("");
      })
      .join("");
  }
  return cells.join("");
}

/** The address fragment of a puzzle and the person's digits (`entries`, 0 for none): "#size=9&givens=...". */
export function hashOf(puzzle, entries) {
  const params = new URLSearchParams();
  const symbols = puzzle.symbols;
  params.set("size", puzzle.size);
  params.set("givens", puzzle.givens.map((d) => (d ? symbols[d - 1] : ".")).join(""));
  if (puzzle.symbols !== defaultSymbols(puzzle.size)) params.set("symbols", symbols);
  if (puzzle.rules.length) params.set("rules", puzzle.rules.join("+"));
  if (puzzle.jigsaw) params.set("regions", puzzle.regions.map((r) => REGION_SYMBOLS[r - 1]).join(""));
  if (puzzle.cages.length) params.set("cages", puzzle.cages.map((c) => `${c.sum}:${c.cells.join(".")}`).join(","));
  if (puzzle.marks?.length) {
    params.set("marks", puzzle.marks.map((m) => [m.rule, m.cells.join("."), m.value, m.kind].join(":")).join(","));
  }
  if (entries.some(Boolean)) params.set("digits", entries.map((d) => (d ? symbols[d - 1] : ".")).join(""));
  return `#${params}`;
}

/** The puzzle of an address fragment (hashOf) and the person's digits: {puzzle, entries}, or null for none. */
export function fromHash(hash) {
  const params = new URLSearchParams(hash.slice(1));
  const size = Number(params.get("size"));
  const givens = params.get("givens") ?? "";
  if (!(size in BOXES) || givens.length !== size * size) return null;
  const symbols = params.get("symbols") || symbolsFor(size, givens);
  const n2 = size * size;
  const regionText = params.get("regions");
  const regions =
    regionText?.length === n2 ? [...regionText].map((ch) => REGION_SYMBOLS.indexOf(ch) + 1) : boxRegions(size);
  const cages = (params.get("cages") ?? "")
    .split(",")
    .filter(Boolean)
    .map((text) => {
      const [sum, cells] = text.split(":");
      return { sum: Number(sum), cells: (cells ?? "").split(".").map(Number) };
    });
  const next = puzzleOf({ size, symbols, givens, rules: params.get("rules") || "classic", regions });
  next.cages = cages.filter((cage) => cage.cells.every((cell) => cell >= 0 && cell < n2));
  next.marks = (params.get("marks") ?? "")
    .split(",")
    .filter(Boolean)
    .map((text) => {
      const [rule, cells, value, kind] = text.split(":");
      return { rule, cells: cells ? cells.split(".").map(Number) : [], value: Number(value) || 0, kind: kind ?? "" };
    })
    .filter((m) => m.cells.every((cell) => cell >= 0 && cell < n2));
  const digits = params.get("digits");
  const entries =
    digits?.length === n2 ? [...digits].map((ch, i) => (next.givens[i] ? 0 : symbols.indexOf(ch) + 1)) : null;
  return { puzzle: next, entries };
}

/**
 * The cells of a pasted puzzle in a plain layout (one line, or rows with spaces and borders),
 * for showing a text the server could not read; null for any other layout.
 */
export function plainPuzzle(text, rules) {
  const rows = text.split(/\r\n|\r|\n/).filter((row) => !/^\s*(#|\[|$)/.test(row));
  const cells = rows.join("").split(":")[0].replace(/[\s|+\-=*\u2500-\u257f]/g, "");
  const size = Math.round(Math.sqrt(cells.length));
  if (!(size in BOXES) || size * size !== cells.length) return null;
  return puzzleOf({ size, symbols: symbolsFor(size, cells), givens: cells, rules });
}

