// A puzzle's rules as the page draws them and fills candidates from them.
//
// The rules and how each is drawn come from the server's registry (GET api/v1/rules:
// {"rules": [{"word", "data", "sizes", "draw": {"kind", ...}}]}); a rule's data come
// with the puzzle (api/v1/parse: regions per cell, killer cages). Draw kinds the page
// knows: "regions" (thick lines between cells of different regions), "cages" (dashed
// outlines, the sum in the first cell), "diagonals" and "windows" (shaded cells, and
// each diagonal or window is one more unit for the candidates), "groups" (disjoint groups:
// dots drawn by marks.js, each group one more unit for the candidates). Without the registry
// (a server that has no api/v1/rules: 404) the page draws what the parsed puzzle says
// (regions, cages) and FALLBACK's kinds. The marks of the rules that take them (thermometers,
// arrows, dots ...) are drawn by marks.js.

/** Box shape (rows, columns) of each size the server reads (docs/LAYOUTS.md "Sizes"). */
export const BOXES = { 4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4], 25: [5, 5] };

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXY";

/** The default symbols of a size, digit 1 first: 1-9, then letters (docs/LAYOUTS.md). */
export function defaultSymbols(size) {
  return ("123456789" + LETTERS).slice(0, size);
}

/** The symbols of one-line givens: the set the server picks for these characters (docs/LAYOUTS.md). */
export function symbolsFor(size, text) {
  if (size <= 9) return "123456789".slice(0, size);
  const upper = text.toUpperCase();
  if (size === 16 && upper.includes("0")) return "0123456789ABCDEF";
  if (/[A-Z]/.test(upper) && !/[0-9]/.test(upper)) return LETTERS.slice(0, size);
  return defaultSymbols(size);
}

/** The name of cell `i` of a size-`n` grid: r1c1 .. r9c9 (r16c16). */
export const cellName = (i, n) => `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;

/** The index of a cell named r1c1 (or given as an index) in a size-`n` grid; -1 for anything else. */
export function cellIndex(cell, n) {
  if (typeof cell === "number") return cell >= 0 && cell < n * n ? cell : -1;
  const [, row, col] = /^r(\d+)c(\d+)$/.exec(String(cell)) ?? [];
  return row && row <= n && col <= n && row > 0 && col > 0 ? (row - 1) * n + (col - 1) : -1;
}

/** Per cell its box 1..n, left to right, top to bottom. */
export function boxRegions(size) {
  const [boxRows, boxCols] = BOXES[size];
  const across = size / boxCols;
  return Array.from({ length: size * size }, (_, i) => {
    const row = Math.floor(i / size);
    return Math.floor(row / boxRows) * across + Math.floor((i % size) / boxCols) + 1;
  });
}

/** The four windoku windows of a 9x9 (rows and columns 2-4 and 6-8), as cell names. */
const WINDOWS = [1, 5].flatMap((top) =>
  [1, 5].map((left) => [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => cellName((top + r) * 9 + left + c, 9)))),
);

/** How the page draws the rules when the server has no registry (api/v1/rules answers 404). */
export const FALLBACK = {
  x: { kind: "diagonals" },
  windoku: { kind: "windows", cells: WINDOWS },
  jigsaw: { kind: "regions" },
  killer: { kind: "cages" },
  disjoint: { kind: "groups" },
  oddeven: { kind: "marks" },
  thermo: { kind: "lines", shape: "thermometer" },
  kropki: { kind: "dots" },
  xv: { kind: "xv" },
  whispers: { kind: "lines", shape: "whispers" },
  palindrome: { kind: "lines", shape: "palindrome" },
  renban: { kind: "lines", shape: "renban" },
  arrow: { kind: "arrows" },
  littlekiller: { kind: "diagonal sums" },
  sandwich: { kind: "outside sums" },
};

/** Pair rules the candidates follow (cells a move apart differ, or hold no consecutive digits). */
const KNIGHT = [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]];
const KING = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const ORTHOGONAL = [[0, 1], [1, 0], [0, -1], [-1, 0]];
const PAIRS = { antiknight: KNIGHT, antiking: KING };

/**
 * What to draw for a puzzle: {regions, cages, diagonal: Set of cells, window: Set of cells,
 * units: extra all-different units (diagonals, windows, disjoint groups)}. `draws`: word -> draw object
 * (the registry's, else FALLBACK).
 */
export function drawing(puzzle, draws) {
  const n = puzzle.size;
  const out = { diagonal: new Set(), window: new Set(), units: [] };
  for (const word of puzzle.rules) {
    const draw = draws[word];
    if (draw?.kind === "diagonals") {
      const down = Array.from({ length: n }, (_, k) => k * n + k);
      const up = Array.from({ length: n }, (_, k) => k * n + (n - 1 - k));
      for (const cell of [...down, ...up]) out.diagonal.add(cell);
      out.units.push(down, up);
    } else if (draw?.kind === "groups" && n in BOXES) {
      // disjoint groups: the cells at one position of every box (the rule's units, rules/disjoint.py)
      const [boxRows, boxCols] = BOXES[n];
      const groups = Array.from({ length: n }, () => []);
      for (let i = 0; i < n * n; i++) {
        const [r, c] = [Math.floor(i / n), i % n];
        groups[(r % boxRows) * boxCols + (c % boxCols)].push(i);
      }
      out.units.push(...groups);
    } else if (draw?.kind === "windows" && Array.isArray(draw.windows ?? draw.cells)) {
      for (const window of draw.windows ?? draw.cells) {
        const cells = window.map((cell) => cellIndex(cell, n)).filter((i) => i >= 0);
        if (cells.length !== window.length) continue; // windows of another size
        for (const cell of cells) out.window.add(cell);
        out.units.push(cells);
      }
    }
  }
  return out;
}

/** Per cell the cells it must differ from: its row, column and region, the extra units, its cage, the pair rules. */
export function peers(puzzle, units) {
  const n = puzzle.size;
  const sets = Array.from({ length: n * n }, () => new Set());
  const unit = (cells) => {
    for (const a of cells) for (const b of cells) if (a !== b) sets[a].add(b);
  };
  const byRegion = new Map();
  puzzle.regions.forEach((region, i) => byRegion.set(region, [...(byRegion.get(region) ?? []), i]));
  for (let k = 0; k < n; k++) {
    unit(Array.from({ length: n }, (_, c) => k * n + c));
    unit(Array.from({ length: n }, (_, r) => r * n + k));
  }
  for (const cells of byRegion.values()) unit(cells);
  for (const cells of units) unit(cells);
  for (const cage of puzzle.cages) unit(cage.cells);
  for (const word of puzzle.rules) {
    for (const [dr, dc] of PAIRS[word] ?? []) {
      for (let i = 0; i < n * n; i++) {
        const [r, c] = [Math.floor(i / n) + dr, (i % n) + dc];
        if (r >= 0 && r < n && c >= 0 && c < n) sets[i].add(r * n + c);
      }
    }
  }
  return sets.map((set) => [...set]);
}

/**
 * Per cell the candidates (bit d-1 for digit d) of every empty cell, 0 for a filled one: the digits
 * no peer holds, not next to an orthogonal neighbour's digit under nonconsecutive, odd or even on an
 * odd/even cell, within a pencilmark puzzle's own candidates, and what each mark allows against the
 * placed digits (markMasks). `digits`: per cell its digit (0 empty).
 */
export function candidates(puzzle, digits, peerLists) {
  const n = puzzle.size;
  const all = (1 << n) - 1;
  const consecutive = puzzle.rules.includes("nonconsecutive");
  // odd/even cells (their marks: value 1 odd, 2 even): bit d-1 set for the odd digits d
  const odd = Array.from({ length: n }, (_, k) => (k % 2 === 0 ? 1 << k : 0)).reduce((a, b) => a | b, 0);
  const parity = new Map();
  for (const mark of puzzle.marks ?? []) {
    if (mark.rule === "oddeven" && mark.cells.length === 1) parity.set(mark.cells[0], mark.value === 2 ? all & ~odd : odd);
  }
  const byMarks = markMasks(puzzle, digits, peerLists);
  return digits.map((digit, i) => {
    if (digit) return 0;
    let mask = (puzzle.candidates?.[i] ?? all) & (parity.get(i) ?? all) & byMarks[i];
    for (const peer of peerLists[i]) if (digits[peer]) mask &= ~(1 << (digits[peer] - 1));
    if (consecutive) {
      for (const [dr, dc] of ORTHOGONAL) {
        const [r, c] = [Math.floor(i / n) + dr, (i % n) + dc];
        const d = r >= 0 && r < n && c >= 0 && c < n ? digits[r * n + c] : 0;
        if (d) mask &= ~((d > 1 ? 1 << (d - 2) : 0) | (d < n ? 1 << d : 0));
      }
    }
    return mask;
  });
}

/** The digits 1..n as a list. */
const digitsOf = (n) => Array.from({ length: n }, (_, k) => k + 1);

/** The orthogonal neighbour pairs [a, b], a < b, of an n x n grid. */
function orthogonalPairs(n) {
  const out = [];
  for (let i = 0; i < n * n; i++) {
    if (i % n < n - 1) out.push([i, i + 1]);
    if (i + n < n * n) out.push([i, i + n]);
  }
  return out;
}

/**
 * Per cell a mask (bit d-1 for digit d) of the digits the marks of issue 29's rules allow there, given the
 * placed `digits` (0 empty): one pass, no search (the page's "rules allow", not the true candidates of
 * CANDIDATES, which on a unique puzzle would be its solution).
 * - pairs (kropki dots, XV, their negative constraints over the free neighbour pairs, whispers and
 *   thermometer neighbours, palindrome mirror cells): a digit needs a partner the pair allows, the placed
 *   digit when the other cell holds one, else any digit (a different one when the two cells are peers);
 * - thermometers: the cell k steps from the bulb of a line of L holds k+1..n-L+k+1, and lies above every
 *   placed digit before it and below every placed digit after it by at least the steps between them;
 * - renban: a digit that no window of L consecutive digits holds together with the line's placed digits;
 * - little killer diagonals and single-cell arrows: sums with repeats, a cell holds at most the total less
 *   the placed digits and 1 per other empty cell, at least the total less n per other empty cell.
 */
export function markMasks(puzzle, digits, peerLists) {
  const n = puzzle.size;
  const all = (1 << n) - 1;
  const masks = new Array(n * n).fill(all);
  const marks = puzzle.marks ?? [];
  const range = (lo, hi) => digitsOf(n).reduce((m, d) => (d >= lo && d <= hi ? m | (1 << (d - 1)) : m), 0);
  const pair = (a, b, ok) => {
    for (const [x, y] of [[a, b], [b, a]]) {
      if (digits[x]) continue;
      const peers = peerLists[x].includes(y);
      const partners = digits[y] ? [digits[y]] : digitsOf(n);
      let mask = 0;
      for (const d of digitsOf(n)) {
        if (partners.some((e) => ok(d, e) && !(peers && e === d))) mask |= 1 << (d - 1);
      }
      masks[x] &= mask;
    }
  };
  const sum = (cells, total) => {
    const placed = cells.reduce((s, c) => s + digits[c], 0);
    const open = cells.filter((c) => !digits[c]);
    for (const c of open) masks[c] &= range(total - placed - (open.length - 1) * n, total - placed - (open.length - 1));
  };
  const joined = (rule) => new Set(marks.filter((m) => m.rule === rule && m.cells.length === 2).map((m) => `${Math.min(...m.cells)},${Math.max(...m.cells)}`));
  const free = (rule) => {
    const taken = joined(rule);
    return orthogonalPairs(n).filter(([a, b]) => !taken.has(`${a},${b}`));
  };
  for (const mark of marks) {
    const cells = mark.cells;
    if (mark.rule === "kropki" && cells.length === 2) {
      const black = mark.kind === "black";
      const v = mark.value || (black ? 2 : 1);
      pair(cells[0], cells[1], black ? (x, y) => x === v * y || y === v * x : (x, y) => Math.abs(x - y) === v);
    } else if (mark.rule === "kropki" && mark.kind === "negative white") {
      for (const [a, b] of free("kropki")) pair(a, b, (x, y) => Math.abs(x - y) !== 1);
    } else if (mark.rule === "kropki" && mark.kind === "negative black") {
      for (const [a, b] of free("kropki")) pair(a, b, (x, y) => x !== 2 * y && y !== 2 * x);
    } else if (mark.rule === "xv" && cells.length === 2) {
      pair(cells[0], cells[1], (x, y) => x + y === mark.value);
    } else if (mark.rule === "xv" && mark.kind === "negative") {
      for (const [a, b] of free("xv")) pair(a, b, (x, y) => x + y !== 5 && x + y !== 10);
    } else if (mark.rule === "whispers") {
      const v = mark.value || Math.floor(n / 2) + 1;
      for (let k = 1; k < cells.length; k++) pair(cells[k - 1], cells[k], (x, y) => Math.abs(x - y) >= v);
    } else if (mark.rule === "palindrome") {
      for (let k = 0; k < cells.length - 1 - k; k++) pair(cells[k], cells[cells.length - 1 - k], (x, y) => x === y);
    } else if (mark.rule === "thermo") {
      const L = cells.length;
      cells.forEach((c, k) => {
        if (digits[c]) return;
        let [lo, hi] = [k + 1, n - (L - 1 - k)];
        cells.forEach((o, j) => {
          if (!digits[o]) return;
          if (j < k) lo = Math.max(lo, digits[o] + (k - j));
          if (j > k) hi = Math.min(hi, digits[o] - (j - k));
        });
        masks[c] &= range(lo, hi);
      });
    } else if (mark.rule === "renban") {
      const placed = cells.map((c) => digits[c]).filter(Boolean);
      const span = cells.length - 1;
      for (const c of cells) {
        if (digits[c]) continue;
        masks[c] &= digitsOf(n).reduce((m, d) => {
          const held = [...placed, d];
          const fits = !placed.includes(d) && Math.max(...held) - Math.min(...held) <= span;
          return fits ? m | (1 << (d - 1)) : m;
        }, 0);
      }
    } else if (mark.rule === "littlekiller" && cells.length) {
      sum(cells, mark.value);
    } else if (mark.rule === "arrow" && (mark.value || 1) === 1 && cells.length > 1 && digits[cells[0]]) {
      sum(cells.slice(1), digits[cells[0]]);
    }
  }
  return masks;
}
