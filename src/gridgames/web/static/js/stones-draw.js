// Drawing a stone game's board (tic-tac-toe's grid, a gravity board's holes), its stones and
// its winning line; the board's input and overlays are stones.js's.
import { boardSvg, el } from "./svg.js";

export const MARGIN = 0.25;   // around the grid, in cell units
export const TOP = 0.9;       // strip above a gravity board where the next stone hovers
const LABELS = 0.55;          // column names under a gravity board

export function drawBoard(container, view) {
  const top = view.gravity ? TOP : 0;
  const width = view.cols + 2 * MARGIN;
  const height = view.rows + 2 * MARGIN + (view.gravity ? TOP + LABELS : 0);
  const label = view.gravity ? `${view.cols} by ${view.rows} board` : "tic-tac-toe board";
  const svg = boardSvg(container, width, height, label);
  if (view.gravity) drawGravityBoard(svg, view, top); else drawGridBoard(svg, view);
  if (view.line.length) drawWinningLine(svg, view, top);
  return svg;
}

function drawGravityBoard(svg, view, top) {
  el("rect", { x: MARGIN - 0.12, y: MARGIN + top - 0.12, width: view.cols + 0.24, height: view.rows + 0.24, rx: 0.3, fill: "var(--board)" }, svg);
  view.cells.forEach((mark, index) => {
    const [r, c] = [Math.floor(index / view.cols), index % view.cols];
    const cx = MARGIN + c + 0.5, cy = MARGIN + top + r + 0.5;
    if (mark === ".") el("circle", { cx, cy, r: 0.38, fill: "var(--hole)" }, svg);
    else stone(svg, cx, cy, mark === "x" ? 0 : 1, view.cols, "", index);
  });
  if (view.last !== null) {
    const [r, c] = [Math.floor(view.last / view.cols), view.last % view.cols];
    el("circle", { class: "last-dot", cx: MARGIN + c + 0.5, cy: MARGIN + top + r + 0.5, r: 0.07 }, svg);
  }
  view.column_names.forEach((name, c) => {
    const text = el("text", { x: MARGIN + c + 0.5, y: MARGIN + top + view.rows + 0.5, "text-anchor": "middle", "font-size": 0.32, fill: "var(--muted)" }, svg);
    text.textContent = name;
  });
}

function drawGridBoard(svg, view) {
  for (let i = 1; i < view.cols; i++) {
    el("line", { x1: MARGIN + i, y1: MARGIN + 0.08, x2: MARGIN + i, y2: MARGIN + view.rows - 0.08, stroke: "var(--grid)", "stroke-width": 0.05, "stroke-linecap": "round" }, svg);
  }
  for (let i = 1; i < view.rows; i++) {
    el("line", { x1: MARGIN + 0.08, y1: MARGIN + i, x2: MARGIN + view.cols - 0.08, y2: MARGIN + i, stroke: "var(--grid)", "stroke-width": 0.05, "stroke-linecap": "round" }, svg);
  }
  view.cells.forEach((mark, index) => {
    const [r, c] = [Math.floor(index / view.cols), index % view.cols];
    const cx = MARGIN + c + 0.5, cy = MARGIN + r + 0.5;
    el("rect", { class: "cell-hit", x: cx - 0.5, y: cy - 0.5, width: 1, height: 1, "data-cell": index }, svg);
    if (mark === "x") {
      const g = el("g", { stroke: "var(--p0)", "stroke-width": 0.12, "stroke-linecap": "round", "data-stone": index, "data-mark": "x" }, svg);
      el("line", { x1: cx - 0.28, y1: cy - 0.28, x2: cx + 0.28, y2: cy + 0.28 }, g);
      el("line", { x1: cx + 0.28, y1: cy - 0.28, x2: cx - 0.28, y2: cy + 0.28 }, g);
    } else if (mark === "o") {
      el("circle", { cx, cy, r: 0.29, fill: "none", stroke: "var(--p1)", "stroke-width": 0.12, "data-stone": index, "data-mark": "o" }, svg);
    }
  });
  // The cells' names (`a1` is the top-left), small in the margin: letters above the
  // columns, numbers left of the rows.
  const names = { "font-size": 0.19, fill: "var(--muted)", "text-anchor": "middle", "dominant-baseline": "central", "aria-hidden": "true" };
  (view.column_names || []).forEach((name, c) => {
    el("text", { ...names, x: MARGIN + c + 0.5, y: MARGIN / 2 }, svg).textContent = name;
  });
  (view.row_names || []).forEach((name, r) => {
    el("text", { ...names, x: MARGIN / 2, y: MARGIN + r + 0.5 }, svg).textContent = name;
  });
}

// A stone: player 0 a plain disc, player 1 a disc with an inner ring (a shape cue besides
// the colour).
export function stone(parent, cx, cy, player, cols, extraClass = "", index = null) {
  const g = el("g", { class: `stone ${extraClass}`.trim(), "data-mark": player === 0 ? "x" : "o" }, parent);
  if (index !== null) g.setAttribute("data-stone", index);
  el("circle", { cx, cy, r: 0.38, fill: player === 0 ? "var(--p0)" : "var(--p1)" }, g);
  if (player === 1) el("circle", { cx, cy, r: 0.2, fill: "none", stroke: "rgba(0,0,0,.35)", "stroke-width": 0.07 }, g);
  else el("circle", { cx, cy, r: 0.38, fill: "none", stroke: "rgba(0,0,0,.25)", "stroke-width": 0.04 }, g);
  return g;
}

export function ring(parent, view, cell, top, cls, radius) {
  const [r, c] = [Math.floor(cell / view.cols), cell % view.cols];
  el("circle", { class: cls, cx: MARGIN + c + 0.5, cy: MARGIN + top + r + 0.5, r: radius }, parent);
}

function drawWinningLine(svg, view, top) {
  const centre = (cell) => [MARGIN + (cell % view.cols) + 0.5, MARGIN + top + Math.floor(cell / view.cols) + 0.5];
  const [x1, y1] = centre(view.line[0]);
  const [x2, y2] = centre(view.line[view.line.length - 1]);
  el("line", { class: "win-line", x1, y1, x2, y2, "data-win": view.line.join(",") }, svg);
  for (const cell of view.line) ring(svg, view, cell, top, "win-ring", 0.44);
}

// The stone just played drops from above the board (gravity) or grows in place.
export function animateLast(svg, view) {
  const node = svg.querySelector(`[data-stone="${view.last}"]`);
  if (!node || !node.animate) return;
  if (view.gravity) {
    const row = Math.floor(view.last / view.cols);
    const distance = row + 1 + TOP / 2;
    node.animate([{ transform: `translateY(${-distance}px)` }, { transform: "translateY(0)" }],
      { duration: 120 + 45 * Math.sqrt(row + 1) * 3, easing: "cubic-bezier(.45,0,1,1)" });
  } else {
    node.style.transformOrigin = "center";
    node.style.transformBox = "fill-box";
    node.animate([{ transform: "scale(.2)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }],
      { duration: 160, easing: "ease-out" });
  }
}
