// The marks of a puzzle's rules drawn as one SVG over the grid (1 unit = 1 cell; the
// centre of r1c1 is 0.5,0.5), built as one string and set in one innerHTML.
//
// Each rule is drawn by its registry draw kind (GET api/v1/rules; rules.js FALLBACK
// without a registry), from the puzzle's marks (api/v1/parse "marks": {rule, cells,
// value, kind}, cells here as indices):
// - "lines": a line through the cells' centres, by its shape: "thermometer" (grey,
//   with a bulb on its first cell), "whispers" (green), "renban" (purple),
//   "palindrome" (grey, thin);
// - "arrows": a circle round the bulb (a pill round 2+ cells, value = how many) and a
//   line with a head from the bulb through the arrow's cells;
// - "dots": kropki dots on the edge between two cells, white or black (kind), with the
//   value written in when it is not the default (white 1, black 2);
// - "xv": the letter X (sum 10) or V (5) on the edge;
// - "diagonal sums": a little killer's sum outside the grid, one step before the
//   diagonal's first cell, with an arrow along the diagonal;
// - "outside sums": a sum outside the grid one step before the first cell of the
//   mark's row or column (sandwich: cells from the clue's side, value the sum);
// - "marks": odd (value 1) a grey circle, even (value 2) a grey square in the cell;
// - "groups": disjoint groups, a dot in each cell coloured by its place in its box.
// Every element carries data-mark="<rule>" (and data-cells, r1c1 names) for tests.

import { BOXES, cellName } from "./rules.js";

const round = (x) => Math.round(x * 1000) / 1000;
const at = (i, n) => [(i % n) + 0.5, Math.floor(i / n) + 0.5]; // [x, y] of a cell's centre
const pts = (list) => list.map(([x, y]) => `${round(x)},${round(y)}`).join(" ");
const names = (cells, n) => cells.map((c) => cellName(c, n)).join(" ");

/** The direction names of f-puzzles' little killers by [dr, dc]. */
export const DIRECTIONS = { "-1,1": "UR", "-1,-1": "UL", "1,1": "DR", "1,-1": "DL" };

/**
 * Where the clue of an outside mark sits: [row, column, dr, dc], 0-based (row or column -1 or n: outside),
 * one step before `cells[0]` along the step from cells[0] to cells[1]. A one-cell diagonal (a corner) takes
 * the first of DR, DL, UR, UL that leaves the grid on both sides.
 */
export function clueOf(cells, n) {
  const [r, c] = [Math.floor(cells[0] / n), cells[0] % n];
  const out = (rr, cc) => rr < 0 || rr >= n || cc < 0 || cc >= n;
  let step = [1, 1];
  if (cells.length > 1) step = [Math.floor(cells[1] / n) - r, (cells[1] % n) - c];
  else {
    step = [[1, 1], [1, -1], [-1, 1], [-1, -1]].find(([dr, dc]) => out(r - dr, c - dc) && out(r + dr, c + dc)) ?? step;
  }
  return [r - step[0], c - step[1], step[0], step[1]];
}

const COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324", "#808000"];

function line(mark, n, cls) {
  const cells = mark.cells.map((c) => at(c, n));
  const one = cells.length === 1 ? ` ${pts(cells)}` : ""; // a one-cell line: a dot
  return `<polyline data-mark="${mark.rule}" data-cells="${names(mark.cells, n)}" class="${cls}" points="${pts(cells)}${one}"/>`;
}

function arrow(mark, n) {
  const bulb = mark.cells.slice(0, Math.max(mark.value, 1));
  const shaft = mark.cells.slice(bulb.length);
  const data = `data-mark="${mark.rule}" data-cells="${names(mark.cells, n)}"`;
  let out;
  const centres = bulb.map((c) => at(c, n));
  if (bulb.length === 1) {
    const [x, y] = centres[0];
    out = `<circle ${data} class="ab" cx="${x}" cy="${y}" r="0.4"/>`;
  } else {
    const xs = centres.map(([x]) => x);
    const ys = centres.map(([, y]) => y);
    const [x0, y0] = [Math.min(...xs) - 0.4, Math.min(...ys) - 0.4];
    const [w, h] = [Math.max(...xs) + 0.4 - x0, Math.max(...ys) + 0.4 - y0];
    out = `<rect ${data} class="ab" x="${round(x0)}" y="${round(y0)}" width="${round(w)}" height="${round(h)}" rx="0.4"/>`;
  }
  if (!shaft.length) return out;
  // the line starts on the bulb's edge at the bulb cell nearest its first cell
  const first = at(shaft[0], n);
  const d2 = ([x, y]) => (x - first[0]) ** 2 + (y - first[1]) ** 2;
  const from = centres.reduce((best, p) => (d2(p) < d2(best) ? p : best));
  const len = Math.sqrt(d2(from));
  const start = [from[0] + ((first[0] - from[0]) * 0.4) / len, from[1] + ((first[1] - from[1]) * 0.4) / len];
  const path = [start, ...shaft.map((c) => at(c, n))];
  const [tip, before] = [path[path.length - 1], path[path.length - 2]];
  const size = Math.hypot(tip[0] - before[0], tip[1] - before[1]);
  const [ux, uy] = [(tip[0] - before[0]) / size, (tip[1] - before[1]) / size];
  const head = [
    [tip[0] - 0.25 * ux + 0.2 * uy, tip[1] - 0.25 * uy - 0.2 * ux],
    tip,
    [tip[0] - 0.25 * ux - 0.2 * uy, tip[1] - 0.25 * uy + 0.2 * ux],
  ];
  out += `<polyline ${data} class="al" points="${pts(path)}"/>`;
  return out + `<polyline ${data} class="ah" points="${pts(head)}"/>`;
}

/** The midpoint of the edge between a mark's two cells. */
function edge(mark, n) {
  const [[x1, y1], [x2, y2]] = mark.cells.map((c) => at(c, n));
  return [round((x1 + x2) / 2), round((y1 + y2) / 2)];
}

function dot(mark, n) {
  const [x, y] = edge(mark, n);
  const black = mark.kind === "black";
  const data = `data-mark="${mark.rule}" data-cells="${names(mark.cells, n)}" data-kind="${mark.kind}"`;
  let out = `<circle ${data} class="${black ? "kb" : "kw"}" cx="${x}" cy="${y}" r="0.15"/>`;
  if (mark.value && mark.value !== (black ? 2 : 1)) {
    out += `<text ${data} class="${black ? "kbt" : "kwt"}" x="${x}" y="${y}">${mark.value}</text>`;
  }
  return out;
}

function letter(mark, n) {
  const [x, y] = edge(mark, n);
  const text = mark.value === 10 ? "X" : mark.value === 5 ? "V" : String(mark.value);
  return `<text data-mark="${mark.rule}" data-cells="${names(mark.cells, n)}" class="xv" x="${x}" y="${y}">${text}</text>`;
}

function outside(mark, n, withArrow) {
  const [r, c, dr, dc] = clueOf(mark.cells, n);
  const [x, y] = [c + 0.5, r + 0.5];
  const data = `data-mark="${mark.rule}" data-cells="${names(mark.cells, n)}" data-clue="r${r + 1}c${c + 1}"`;
  if (!withArrow) return `<text ${data} class="out" x="${x}" y="${y}">${mark.value}</text>`;
  // the sum a little back from the corner the arrow leaves by
  const [tx, ty] = [x - 0.12 * dc, y - 0.12 * dr];
  const a = [x + 0.18 * dc, y + 0.18 * dr];
  const b = [x + 0.42 * dc, y + 0.42 * dr];
  const head = [
    [b[0] - 0.14 * dc, b[1]],
    b,
    [b[0], b[1] - 0.14 * dr],
  ];
  return (
    `<text ${data} class="out lk" x="${round(tx)}" y="${round(ty)}">${mark.value}</text>` +
    `<polyline ${data} class="lka" points="${pts([a, b])}"/><polyline ${data} class="lka" points="${pts(head)}"/>`
  );
}

function parity(mark, n) {
  const [x, y] = at(mark.cells[0], n);
  const data = `data-mark="${mark.rule}" data-cells="${names(mark.cells, n)}"`;
  if (mark.value === 2) return `<rect ${data} class="oe" x="${round(x - 0.36)}" y="${round(y - 0.36)}" width="0.72" height="0.72"/>`;
  return `<circle ${data} class="oe" cx="${x}" cy="${y}" r="0.38"/>`;
}

function groups(word, n) {
  const [boxRows, boxCols] = BOXES[n];
  let out = "";
  for (let i = 0; i < n * n; i++) {
    const [r, c] = [Math.floor(i / n), i % n];
    const k = (r % boxRows) * boxCols + (c % boxCols);
    const colour = COLOURS[k % COLOURS.length];
    out += `<circle data-mark="${word}" data-cells="${cellName(i, n)}" data-group="${k + 1}" class="dg" cx="${c + 0.15}" cy="${r + 0.85}" r="0.07" fill="${colour}"/>`;
  }
  return out;
}

const SHAPES = { thermometer: "th", whispers: "gw", renban: "rb", palindrome: "pa" };

/**
 * The SVG of a puzzle's marks: {markup (the elements, "" for none), outside (a clue sits outside the grid)}.
 * `puzzle`: {size, rules, marks: [{rule, cells (indices), value, kind}]}; `draws`: word -> draw object.
 */
export function marksSvg(puzzle, draws) {
  const n = puzzle.size;
  let markup = "";
  let out = false;
  for (const mark of puzzle.marks ?? []) {
    if (!mark.cells.length) continue; // a negative constraint: nothing on the grid
    const draw = draws[mark.rule] ?? {};
    if (draw.kind === "lines") {
      const cls = SHAPES[draw.shape] ?? "pa";
      if (cls === "th") {
        const [x, y] = at(mark.cells[0], n);
        markup += `<circle data-mark="${mark.rule}" data-cells="${cellName(mark.cells[0], n)}" class="th tb" cx="${x}" cy="${y}" r="0.38"/>`;
      }
      markup += line(mark, n, cls);
    } else if (draw.kind === "arrows") markup += arrow(mark, n);
    else if (draw.kind === "dots" && mark.cells.length === 2) markup += dot(mark, n);
    else if (draw.kind === "xv" && mark.cells.length === 2) markup += letter(mark, n);
    else if (draw.kind === "diagonal sums" || draw.kind === "outside sums") {
      markup += outside(mark, n, draw.kind === "diagonal sums");
      out = true;
    } else if (draw.kind === "marks") markup += parity(mark, n);
  }
  for (const word of puzzle.rules) if (draws[word]?.kind === "groups" && n in BOXES) markup += groups(word, n);
  return { markup, outside: out };
}
