// The renderer of two-player stone games (tic-tac-toe, Trilobite: their renderer modules
// re-export this one).
// It draws the server's view and turns pointer and key input into the server's own move
// strings from view.targets; it knows no rule (not even where a stone falls).
import { boardSvg, cellAt, el } from "./svg.js";

const MARGIN = 0.25;   // around the grid, in cell units
const TOP = 0.9;       // strip above a gravity board where the next stone hovers
const LABELS = 0.55;   // column names under a gravity board

export function createBoard(container, { onMove, toolbar = null, fetchAnalysis = null }) {
  let view = null;
  let analysing = false;
  let analysisButton = null;
  let scores = null;      // column name -> score (null: not solved) from the server's solver
  let words = "";         // "proven" or "best found in 2.1 s", as the server says
  let failure = "";       // why the analysis did not come (the server's reason)
  let svg = null;
  let cursor = null;      // {row, col} for keyboard play
  let hoverCol = null;
  let hint = null;
  let enabled = true;
  let layer = null;       // the group redrawn on hover/cursor changes

  function render(nextView, { animate = false, hintMove = null } = {}) {
    view = nextView;
    hint = hintMove;
    if (!analysisButton && view.gravity && fetchAnalysis && toolbar) makeAnalysisButton();
    scores = null;
    words = "";
    failure = "";
    if (analysing) { labelAnalysis(); requestAnalysis(); }
    svg = drawBoard(container, view);
    layer = el("g", {}, svg);
    if (animate && view.last !== null) animateLast(svg, view);
    svg.setAttribute("tabindex", "0");
    svg.addEventListener("pointermove", (e) => { hoverCol = pointerCell(e)?.col ?? null; overlay(); });
    svg.addEventListener("pointerleave", () => { hoverCol = null; overlay(); });
    svg.addEventListener("pointerup", (e) => {
      if (e.button !== 0) return;
      const cell = pointerCell(e);
      if (cell) play(cell);
    });
    overlay();
  }

  function pointerCell(event) {
    // A gravity board takes a click anywhere in a column, the strips above and below included.
    const rows = view.gravity ? view.rows + 2 : view.rows;
    const point = cellAt(svg, event, rows, view.cols, MARGIN);
    if (!point) return null;
    return view.gravity ? { row: 0, col: point.col } : point;
  }

  function targetFor({ row, col }) {
    if (!view) return null;
    if (view.gravity) return view.targets.find((t) => t.cell % view.cols === col) || null;
    return view.targets.find((t) => t.cell === row * view.cols + col) || null;
  }

  function play(cell) {
    const target = targetFor(cell);
    if (enabled && target) onMove(target.move);
  }

  function makeAnalysisButton() {
    analysisButton = document.createElement("button");
    analysisButton.type = "button";
    analysisButton.id = "analysis";
    analysisButton.title = "Show the exact score of every column (y)";
    analysisButton.addEventListener("click", toggleAnalysis);
    toolbar.appendChild(analysisButton);
    labelAnalysis();
  }

  // The button says how sure the scores are; "?" marks a column not solved in the time.
  function labelAnalysis() {
    const unsolved = scores && Object.values(scores).includes(null);
    const said = words && unsolved ? `${words}; ? not solved` : words;
    analysisButton.textContent = analysing ? `Analysis: on${said ? ` (${said})` : ""}` : "Analysis: off";
    analysisButton.classList.toggle("active", analysing);
  }

  function toggleAnalysis() {
    if (!analysisButton) return;
    analysing = !analysing;
    labelAnalysis();
    scores = null;
    words = "";
    failure = "";
    overlay();  // "analysing…" at once, or the scores gone
    if (analysing) requestAnalysis();
  }

  async function requestAnalysis() {
    const asked = view;
    try {
      const answer = await fetchAnalysis();
      if (asked !== view || !analysing) return;
      scores = answer.scores;
      words = answer.result.words;
    } catch (error) {
      if (asked !== view || !analysing) return;
      scores = null;
      words = "";
      failure = error.message;  // e.g. busy: the server's own reason, not a claim about the position
    }
    labelAnalysis();
    overlay();
  }

  // Each column's score in the strip above it: positive wins (sooner is larger), 0 draws,
  // negative loses; "?" where the server's search did not solve it in its time (a full column
  // has none).
  function drawScores() {
    if (!analysing || !view.gravity || view.to_move === null) return;
    if (scores === null) {
      note(failure || "analysing…");
      return;
    }
    view.column_names.forEach((name, col) => {
      if (!(name in scores)) return;
      const score = scores[name];
      const x = MARGIN + col + 0.5;
      const y = MARGIN + 0.5;
      if (score === null) {
        const t = el("text", { x, y, "text-anchor": "middle", "font-size": 0.42, class: "analysis-score unknown", "data-unknown": name }, layer);
        t.textContent = "?";
        el("title", {}, t).textContent = `column ${name}: not solved in the time allowed`;
        return;
      }
      const cls = score > 0 ? "win" : score < 0 ? "loss" : "draw";
      const t = el("text", { x, y, "text-anchor": "middle", "font-size": 0.42, class: `analysis-score ${cls}`, "data-score": score }, layer);
      t.textContent = score > 0 ? `+${score}` : `${score}`;
    });
  }

  // One line across the strip above the board, as large as the board's width allows.
  function note(text) {
    const size = Math.min(0.45, (view.cols + 2 * MARGIN) / (0.6 * text.length));
    const t = el("text", { x: MARGIN + view.cols / 2, y: MARGIN + 0.5, "text-anchor": "middle", "font-size": size, class: "analysis-note" }, layer);
    t.textContent = text;
  }

  function overlay() {
    if (!layer) return;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    drawScores();
    const top = view.gravity ? TOP : 0;
    const mover = view.to_move;
    if (hint !== null) {
      const target = view.targets.find((t) => t.move === hint);
      if (target) ring(layer, view, target.cell, top, "hint-ring", 0.47);
    }
    const col = hoverCol ?? (cursor && view.gravity ? cursor.col : null);
    if (enabled && mover !== null && col !== null && view.gravity) {
      const target = targetFor({ row: 0, col });
      if (target) {
        const cx = MARGIN + col + 0.5;
        if (!analysing) stone(layer, cx, MARGIN + TOP / 2, mover, view.cols, "ghost");  // not over a score
        const [r, c] = [Math.floor(target.cell / view.cols), target.cell % view.cols];
        stone(layer, MARGIN + c + 0.5, MARGIN + top + r + 0.5, mover, view.cols, "ghost");
      }
    }
    if (cursor) {
      const y = view.gravity ? MARGIN + top : MARGIN + cursor.row;
      const h = view.gravity ? view.rows : 1;
      el("rect", { class: "cursor-box", x: MARGIN + cursor.col + 0.04, y: y + 0.04, width: 0.92, height: h - 0.08, rx: 0.12 }, layer);
    }
  }

  // The first arrow key shows the cursor at the centre; later ones move it.
  function moveCursor(dRow, dCol) {
    if (!view) return;
    if (!cursor) {
      cursor = { row: Math.floor(view.rows / 2), col: Math.floor(view.cols / 2) };
      overlay();
      return;
    }
    cursor = {
      row: Math.max(0, Math.min(view.rows - 1, cursor.row + dRow)),
      col: Math.max(0, Math.min(view.cols - 1, cursor.col + dCol)),
    };
    overlay();
  }

  function activate() {
    if (!cursor) { moveCursor(0, 0); return; }
    play(cursor);
  }

  // Digit keys: a Trilobite column by its name, a tic-tac-toe cell by the seed's numbering
  // (1..9 in reading order). Columns past 9 are named a, b, c...: those letters are the
  // page's own keys (a: AI move), so they are typed after the prefix 0.
  let prefixed = 0;        // when 0 was pressed (ms), or 0
  const PREFIX_MS = 3000;
  function pressKey(key) {
    if (!view) return false;
    if (view.gravity && letterColumns()) {
      if (key === "0") { prefixed = Date.now(); return true; }
      const waiting = prefixed && Date.now() - prefixed < PREFIX_MS;
      prefixed = 0;
      if (waiting && view.column_names.includes(key) && !/^[1-9]$/.test(key)) {
        const target = view.targets.find((t) => t.move === key);
        if (target && enabled) onMove(target.move);
        return true;
      }
    }
    if (!/^[1-9]$/.test(key)) return false;
    if (view.gravity) {
      const target = view.targets.find((t) => t.move === key);
      if (target && enabled) onMove(target.move);
      return view.column_names.includes(key);
    }
    const index = Number(key) - 1;
    if (index < view.rows * view.cols) play({ row: Math.floor(index / view.cols), col: index % view.cols });
    return true;
  }

  function letterColumns() {
    return view.column_names.filter((name) => !/^[1-9]$/.test(name));
  }

  return {
    get digitHelp() { return view?.gravity ? "Play that column" : "Play a cell: 1 top left to 9 bottom right"; },
    get digitKeys() { return view?.gravity ? `1–${Math.min(9, view.cols)}` : "1–9"; },
    // Rows for the help: the keys this board takes besides digits and arrows.
    get extraKeys() {
      const letters = view?.gravity ? letterColumns() : [];
      if (!letters.length) return [];
      const last = letters[letters.length - 1];
      const span = letters.length > 1 ? `columns ${letters[0]}–${last} (10 to ${9 + letters.length})` : `column ${last} (10)`;
      return [[["0", letters.length > 1 ? `${letters[0]}–${last}` : last], `Play ${span}: 0, then the letter`]];
    },
    render,
    moveCursor,
    activate,
    pressKey,
    shortcuts: fetchAnalysis ? [["y", "Analysis: the exact score of every column", () => toggleAnalysis()]] : [],
    destroy() { analysisButton?.remove(); },
    setEnabled(value) { enabled = value; overlay(); },
  };
}

export function drawPreview(container, view) {
  drawBoard(container, view);
}

function drawBoard(container, view) {
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
}

// A stone: player 0 a plain disc, player 1 a disc with an inner ring (a shape cue besides
// the colour).
function stone(parent, cx, cy, player, cols, extraClass = "", index = null) {
  const g = el("g", { class: `stone ${extraClass}`.trim(), "data-mark": player === 0 ? "x" : "o" }, parent);
  if (index !== null) g.setAttribute("data-stone", index);
  el("circle", { cx, cy, r: 0.38, fill: player === 0 ? "var(--p0)" : "var(--p1)" }, g);
  if (player === 1) el("circle", { cx, cy, r: 0.2, fill: "none", stroke: "rgba(0,0,0,.35)", "stroke-width": 0.07 }, g);
  else el("circle", { cx, cy, r: 0.38, fill: "none", stroke: "rgba(0,0,0,.25)", "stroke-width": 0.04 }, g);
  return g;
}

function ring(parent, view, cell, top, cls, radius) {
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
function animateLast(svg, view) {
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
