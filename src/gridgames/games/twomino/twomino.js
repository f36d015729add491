// Renderer for 2mino (view.kind "twomino"): the game board and the source's samples board, side
// by side in landscape and stacked in portrait. A bar lights up when the pointer is near the
// border between two cells; click or tap toggles it; a double-click, or a tap in pair mode,
// encloses the two cells as one domino (the view's pair move); right-click or long-press on
// the bar between a pair's symbols shows that pair on the samples board. Symbols are numbers (so
// colour is never the only cue), on Paul Tol's colours.
import { boardSvg, el } from "/static/js/svg.js";
import { TINTS, pairValue, victory } from "./twomino-look.js";

const GAP = 0.5;
const NEAR = 0.3;          // how close to a border the pointer lights its bar (in cells)
const LONG_PRESS_MS = 500;
const DOUBLE_MS = 220;     // a mouse click waits this long for a second one (a double-click)

export function createBoard(container, { onMove, toolbar = null, live = true }) {
  let view = null;
  let svg = null;
  let hint = null;
  let marks = [];
  let enabled = true;
  let lit = null;           // bar index under the pointer
  let cursor = null;        // bar index for the keyboard
  let shown = null;         // pair value highlighted on the samples board
  let portrait = false;
  let barLayer = null;
  let quiet = false;        // a preview, or a board finished by Solve: no victory drawn
  let pairMode = false;     // a tap encloses the two cells instead of toggling the bar
  let waiting = null;       // a mouse click that may become a double-click: { index, timer }
  const controls = toolbar && live ? makeControls(toolbar) : null;
  const observer = live ? new ResizeObserver(() => { if (view && isPortrait() !== portrait) draw(); }) : null;
  observer?.observe(container);

  // The samples board below the game board or beside it, whichever draws the cells larger.
  function isPortrait() {
    const w = container.clientWidth, h = container.clientHeight;
    if (!view || !w || !h) return h > w;
    const beside = Math.min(w / (2 * view.cols + GAP), h / view.rows);
    const below = Math.min(w / view.cols, h / (2 * view.rows + GAP));
    return below > beside;
  }

  function render(nextView, { hintMove = null, marks: newMarks = [], preview = false, helped = false } = {}) {
    view = nextView;
    quiet = preview || helped;
    hint = hintMove;
    marks = newMarks;
    draw();
  }

  function offset() {
    return portrait ? { x: 0, y: view.rows + GAP } : { x: view.cols + GAP, y: 0 };
  }

  function draw() {
    portrait = isPortrait();
    const o = offset();
    const width = portrait ? view.cols : view.cols * 2 + GAP;
    const height = portrait ? view.rows * 2 + GAP : view.rows;
    svg = boardSvg(container, width, height, `2mino board, ${view.n} symbols`);
    svg.setAttribute("tabindex", "0");
    const twice = drawFound(svg);
    drawSymbols(svg, view.symbols, 0, 0, "game");
    for (const [a, b, text] of twice) countMark(svg, a, b, 0, 0, text);
    drawSamples(svg, o);
    barLayer = el("g", {}, svg);
    drawBars();
    if (view.won && !quiet) victory(svg, width, height, view.n);
    wire();
  }

  function cellXY(cell) { return [cell % view.cols, Math.floor(cell / view.cols)]; }

  function drawSymbols(parent, symbols, dx, dy, role) {
    symbols.forEach((symbol, cell) => {
      const [x, y] = cellXY(cell);
      const g = el("g", { "data-role": role, "data-cell": cell }, parent);
      el("circle", { cx: dx + x + 0.5, cy: dy + y + 0.5, r: 0.36, fill: TINTS[symbol], "fill-opacity": 0.35 }, g);
      const t = el("text", { x: dx + x + 0.5, y: dy + y + 0.53, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.42, class: "mino-symbol" }, g);
      t.textContent = symbol;
    });
  }

  function dominoRect(parent, a, b, dx, dy, cls, extra = {}) {
    const [ax, ay] = cellXY(a), [bx, by] = cellXY(b);
    const x = Math.min(ax, bx), y = Math.min(ay, by);
    return el("rect", { x: dx + x + 0.06, y: dy + y + 0.06, width: Math.abs(ax - bx) + 0.88, height: Math.abs(ay - by) + 0.88, rx: 0.22, class: cls, ...extra }, parent);
  }

  // A pair found more than once is red and also marked "×2" (never colour alone).
  function drawFound(parent) {
    const marks = [];
    for (const [a, b] of view.found) {
      const count = view.counts[pairValue(view.symbols[a], view.symbols[b])];
      const cls = count > 1 ? "mino-found twice" : "mino-found";
      dominoRect(parent, a, b, 0, 0, cls, { "data-found": `${a}-${b}` });
      if (count > 1) marks.push([a, b, `×${count}`]);
    }
    return marks;
  }

  // A count between a domino's two symbols, drawn over them.
  function countMark(parent, a, b, dx, dy, text) {
    const [ax, ay] = cellXY(a), [bx, by] = cellXY(b);
    const t = el("text", { x: dx + (ax + bx) / 2 + 0.5, y: dy + (ay + by) / 2 + 0.52, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.3, class: "mino-count", "data-count-mark": text }, parent);
    t.textContent = text;
  }

  // Each pair of the samples board: not found (outline), found once (blue, "✓") or more
  // often (red, "×2"): the mark tells it without the colour.
  function drawSamples(parent, o) {
    el("rect", { x: o.x, y: o.y, width: view.cols, height: view.rows, class: "mino-samples-bg" }, parent);
    for (const [a, b, value] of view.sample_pairs) {
      const count = view.counts[value];
      const state = count === 1 ? "once" : count > 1 ? "more" : "none";
      const rect = dominoRect(parent, a, b, o.x, o.y, `mino-sample ${state}`, { "data-sample": value, "data-count": count });
      if (value === shown) rect.classList.add("shown");
    }
    drawSymbols(parent, view.sample_symbols, o.x, o.y, "sample");
    for (const [a, b, value] of view.sample_pairs) {
      const count = view.counts[value];
      if (count) countMark(parent, a, b, o.x, o.y, count === 1 ? "✓" : `×${count}`);
    }
  }

  function barLine(index) {
    const [a, b] = view.bars[index].cells;
    const [ax, ay] = cellXY(a);
    if (b === a + 1) return { x1: ax + 1, y1: ay + 0.06, x2: ax + 1, y2: ay + 0.94 };
    return { x1: ax + 0.06, y1: ay + 1, x2: ax + 0.94, y2: ay + 1 };
  }

  function drawBars() {
    while (barLayer.firstChild) barLayer.removeChild(barLayer.firstChild);
    el("rect", { x: 0, y: 0, width: view.cols, height: view.rows, class: "mino-edge" }, barLayer);
    view.bars.forEach((bar, index) => {
      const classes = ["mino-bar"];
      if (bar.locked) classes.push("locked");
      else if (bar.on) classes.push("on");
      if (index === lit || index === cursor) classes.push("lit");
      if (hint && bar.move === hint) classes.push("hinted");
      if (marks.includes(bar.move)) classes.push("wrong");
      if (!bar.on && !bar.locked && index !== lit && index !== cursor && !(hint && bar.move === hint)) return;
      el("line", { ...barLine(index), class: classes.join(" "), "data-bar": bar.move, "data-state": bar.locked ? "locked" : bar.on ? "on" : "off" }, barLayer);
    });
  }

  function pointToBar(event) {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const p = point.matrixTransform(svg.getScreenCTM().inverse());
    if (p.x < 0 || p.y < 0 || p.x >= view.cols || p.y >= view.rows) return null;
    const col = Math.floor(p.x), row = Math.floor(p.y);
    const fx = p.x - col, fy = p.y - row;
    const dx = Math.min(fx, 1 - fx), dy = Math.min(fy, 1 - fy);
    if (Math.min(dx, dy) > NEAR) return null;
    let a, b;
    if (dx < dy) { const c = fx < 0.5 ? col - 1 : col; if (c < 0 || c + 1 >= view.cols) return null; a = row * view.cols + c; b = a + 1; }
    else { const r = fy < 0.5 ? row - 1 : row; if (r < 0 || r + 1 >= view.rows) return null; a = r * view.cols + col; b = a + view.cols; }
    return view.bars.findIndex((bar) => bar.cells[0] === a && bar.cells[1] === b);
  }

  function toggle(index, pair = pairMode) {
    if (index === null || index < 0 || !enabled) return;
    const bar = view.bars[index];
    if (pair) onMove(bar.pair);
    else if (!bar.locked) onMove(bar.move);
  }

  // A mouse click: a second one on the same bar within DOUBLE_MS makes a pair (one move, one
  // undo step), so the first waits that long; a tap, or a click in pair mode, acts at once.
  function click(index, event) {
    if (event.pointerType !== "mouse" || pairMode) { toggle(index); return; }
    const before = waiting;
    waiting = null;
    if (before) {
      clearTimeout(before.timer);
      if (before.index === index) { toggle(index, true); return; }
      toggle(before.index);
    }
    waiting = { index, timer: setTimeout(() => { waiting = null; toggle(index); }, DOUBLE_MS) };
  }

  function setPairMode(on) {
    pairMode = on;
    if (controls) {
      controls.pair.textContent = on ? "Pairs: on" : "Pairs: off";
      controls.pair.setAttribute("aria-pressed", String(on));
      controls.pair.classList.toggle("active", on);
    }
  }

  function showPair(index) {
    if (index === null || index < 0) return;
    const [a, b] = view.bars[index].cells;
    shown = pairValue(view.symbols[a], view.symbols[b]);
    svg.querySelectorAll(".mino-sample.shown").forEach((n) => n.classList.remove("shown"));
    svg.querySelector(`[data-sample="${shown}"]`)?.classList.add("shown");
  }

  let pressTimer = null;
  function wire() {
    svg.addEventListener("pointermove", (e) => {
      const index = pointToBar(e);
      if (index !== lit) { lit = index; drawBars(); }
    });
    svg.addEventListener("pointerleave", () => { lit = null; drawBars(); });
    svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      const index = pointToBar(e);
      clearTimeout(pressTimer);
      pressTimer = setTimeout(() => { pressTimer = "fired"; showPair(index); }, LONG_PRESS_MS);
    });
    svg.addEventListener("pointerup", (e) => {
      if (e.button !== 0) return;
      const fired = pressTimer === "fired";
      clearTimeout(pressTimer);
      pressTimer = null;
      if (!fired) click(pointToBar(e), e);
    });
    svg.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      showPair(pointToBar(e));
    });
  }

  function makeControls(bar) {
    const clear = document.createElement("button");
    clear.type = "button";
    clear.id = "clear";
    clear.textContent = "Clear";
    clear.title = "Turn off every unlocked bar (x)";
    clear.addEventListener("click", () => { if (enabled && view && !view.won) onMove("clear"); });
    bar.appendChild(clear);
    const pair = document.createElement("button");
    pair.type = "button";
    pair.id = "pair-mode";
    pair.textContent = "Pairs: off";
    pair.title = "Pair mode: a tap between two numbers joins them as one domino (j)";
    pair.setAttribute("aria-pressed", "false");
    pair.addEventListener("click", () => setPairMode(!pairMode));
    bar.appendChild(pair);
    return { clear, pair };
  }

  // Keyboard: the cursor walks between bars; Space or Enter toggles.
  function moveCursor(dRow, dCol) {
    if (!view) return;
    if (cursor === null) { cursor = 0; drawBars(); return; }
    const mid = (i) => { const l = barLine(i); return [(l.x1 + l.x2) / 2, (l.y1 + l.y2) / 2]; };
    const [x0, y0] = mid(cursor);
    let best = null, bestScore = Infinity;
    view.bars.forEach((_, i) => {
      if (i === cursor) return;
      const [x, y] = mid(i);
      const along = (x - x0) * dCol + (y - y0) * dRow;
      if (along <= 0.01) return;
      const across = Math.abs((x - x0) * dRow) + Math.abs((y - y0) * dCol);
      const score = along + 2 * across;
      if (score < bestScore) { best = i; bestScore = score; }
    });
    if (best !== null) cursor = best;
    drawBars();
  }

  return {
    render,
    moveCursor,
    activate() { if (cursor === null) moveCursor(0, 0); else toggle(cursor); },
    pressKey() { return false; },
    setEnabled(value) { enabled = value; },
    shortcuts: controls ? [["x", "Clear: turn off every unlocked bar", () => controls.clear.click()],
      ["j", "Pair mode: a tap, or Space, joins the two numbers as one domino", () => controls.pair.click()]] : [],
    moveHelp: "Move the bar cursor (Space or Enter toggles the bar, or in pair mode makes a domino)",
    gestures: [["Tap between two numbers", "Put a bar there, or take it away"],
      ["Pair mode, then tap between two numbers", "Make them one domino"],
      ["Double-click between two numbers", "Make them one domino (with a mouse)"],
      ["Long-press a bar", "Show that pair on the samples board"]],
    get cursorBar() { return cursor === null ? null : view.bars[cursor].move; },
    destroy() {
      observer?.disconnect();
      clearTimeout(waiting?.timer);
      toolbar?.querySelector("#clear")?.remove();
      toolbar?.querySelector("#pair-mode")?.remove();
    },
  };
}

export function drawPreview(container, view) {
  createBoard(container, { onMove: () => {}, live: false }).render(view, {});
}
