// Lights Out's renderer (the gridgames renderer contract: docs/adding-a-game.md). It draws
// view.lights and sends the move names in view.moves; it knows no rule.
import { boardSvg, cellAt, el } from "/static/js/svg.js";

export function createBoard(container, { onMove }) {
  let view = null;
  let svg = null;
  let enabled = true;
  let cursor = null;
  let hint = null;

  function render(nextView, { hintMove = null } = {}) {
    view = nextView;
    hint = hintMove;
    draw();
  }

  function draw() {
    svg = boardSvg(container, view.cols, view.rows, `Lights Out, ${view.lights.filter(Boolean).length} lights on`);
    svg.setAttribute("tabindex", "0");
    drawLights(svg, view);
    view.moves.forEach((move, cell) => {
      const x = cell % view.cols, y = Math.floor(cell / view.cols);
      if (move === hint) el("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, class: "lo-hint", "data-hint": move }, svg);
      if (cursor === cell) el("rect", { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, class: "lo-cursor" }, svg);
    });
    svg.addEventListener("pointerup", (event) => {
      if (event.button !== 0) return;
      const at = cellAt(svg, event, view.rows, view.cols);
      if (at) play(at.row * view.cols + at.col);
    });
  }

  function play(cell) {
    if (enabled && !view.solved) onMove(view.moves[cell]);
  }

  return {
    render,
    setEnabled(value) { enabled = value; },
    moveCursor(dRow, dCol) {
      if (!view) return;
      const size = view.cols;
      const r = cursor === null ? 0 : Math.floor(cursor / size), c = cursor === null ? 0 : cursor % size;
      cursor = Math.max(0, Math.min(view.rows - 1, r + dRow)) * size + Math.max(0, Math.min(size - 1, c + dCol));
      draw();
    },
    activate() { if (cursor !== null) play(cursor); },
    pressKey() { return false; },
    claims: [],
    shortcuts: [],
    moveHelp: "Move the cursor; Enter or Space presses that light",
    destroy() {},
  };
}

function drawLights(svg, view) {
  view.lights.forEach((on, cell) => {
    const x = cell % view.cols, y = Math.floor(cell / view.cols);
    // A lit cell is light with a sun mark, an unlit one dark (lightsout.css): never colour
    // alone.
    const g = el("g", { "data-cell": cell, "data-on": on ? "1" : "0", class: on ? "lo-cell lit" : "lo-cell" }, svg);
    el("rect", { x: x + 0.08, y: y + 0.08, width: 0.84, height: 0.84, rx: 0.12, class: "lo-lamp" }, g);
    if (on) el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.16, class: "lo-sun" }, g);
  });
}

export function drawPreview(container, view) {
  drawLights(boardSvg(container, view.cols, view.rows, "Lights Out"), view);
}
