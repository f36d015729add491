// The renderer of two-player stone games (tic-tac-toe, Trilobite: their renderer modules
// re-export this one).
// It draws the server's view and turns pointer and key input into the server's own move
// strings from view.targets; it knows no rule (not even where a stone falls).
import { cellAt, el } from "./svg.js";
import { MARGIN, TOP, animateLast, drawBoard, ring, stone } from "./stones-draw.js";
import { createAnalysis } from "./stones-analysis.js";

const PREFIX_MS = 3000;  // how long a 0 waits for the letter of a column past 9

export function createBoard(container, { onMove, toolbar = null, fetchAnalysis = null }) {
  let view = null;
  let svg = null;
  let cursor = null;      // {row, col} for keyboard play
  let hoverCol = null;
  let hint = null;
  let enabled = true;
  let layer = null;       // the group redrawn on hover/cursor changes
  let prefixed = 0;       // when 0 was pressed (ms), or 0
  const analysis = createAnalysis({ toolbar, fetchAnalysis, redraw: () => overlay() });

  function render(nextView, { animate = false, hintMove = null } = {}) {
    view = nextView;
    hint = hintMove;
    analysis.forPosition(view);
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
    else if (enabled && view.targets.length) refuse(cell);
  }

  // A taken cell (a full column) says no: a dashed frame that shakes for a moment, on the
  // SVG itself (the hover layer is redrawn as the pointer moves).
  function refuse({ row, col }) {
    svg.querySelector(".refused")?.remove();
    const top = view.gravity ? TOP : 0;
    const g = el("g", { class: "refused", "data-refused": view.gravity ? col : row * view.cols + col }, svg);
    const [x, y] = [MARGIN + col + 0.5, MARGIN + top + (view.gravity ? 0 : row) + 0.5];
    el("rect", { x: x - 0.46, y: y - 0.46, width: 0.92, height: 0.92, rx: 0.1 }, g);
    setTimeout(() => g.remove(), 700);
  }

  function overlay() {
    if (!layer) return;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    analysis.draw(layer);
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
        if (!analysis.on) stone(layer, cx, MARGIN + TOP / 2, mover, view.cols, "ghost");  // not over a score
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

  // Digit keys: a Trilobite column by its name, a tic-tac-toe cell by the source's
  // numbering (docs/rules/tictactoe.md: 1..9 in reading order). Columns past 9 are named a, b, c...: those letters are the
  // page's own keys (a: AI move), so they are typed after the prefix 0.
  function pressKey(key) {
    if (!view) return false;
    if (view.gravity && letterColumns().length) {
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
    get gestures() { return [[view?.gravity ? "Tap a column" : "Tap a cell", "Play there"]]; },
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
    shortcuts: fetchAnalysis ? [["y", "Analysis: the exact score of every column", () => analysis.toggle()]] : [],
    destroy() { analysis.destroy(); },
    setEnabled(value) { enabled = value; overlay(); },
  };
}

export function drawPreview(container, view) {
  drawBoard(container, view);
}
