// Renderer for Ishido (view.kind "ishido"): the board, the "next tile" square to the side
// (below in portrait), the score panel and the pouch panel, all in one SVG that scales with
// the window. The next tile is dragged with pointer events (mouse and touch) and dropped on a
// cell; the server's view says which cells are valid and what each scores.
import { boardSvg, el } from "/static/js/svg.js";
import { IMAGE_SETS, PALETTES, canDrawEmoji, drawTile, keepLook, loadLook } from "./ishido-look.js";

const SIDE = 3.4;   // width (landscape) or height (portrait) of the panel beside the board
const SHORT = 420;  // px: a board area this low is a phone held sideways

export function createBoard(container, { onMove, toolbar = null, live = true }) {
  let view = null;
  let svg = null;
  let hint = null;
  let enabled = true;
  let cursor = null;
  let layout = null;
  let drag = null;
  const look = loadLook();
  const emojiOk = canDrawEmoji();
  const buttons = toolbar ? makeButtons(toolbar) : {};

  // Switch between side and below when the window turns (the SVG itself scales by viewBox).
  const observer = live ? new ResizeObserver(() => { if (view && orientation() !== layout?.portrait) draw(); }) : null;
  observer?.observe(container);

  // The panel goes below the board when that draws the cells larger; in a short window (a
  // phone held sideways) also when they are at most 10% smaller, as the stacked drawing then
  // fills the height.
  function orientation() {
    const w = container.clientWidth, h = container.clientHeight;
    if (!view || !w || !h) return h > w * 0.9;
    const beside = Math.min(w / (view.cols + 0.3 + SIDE), h / view.rows);
    const below = Math.min(w / view.cols, h / (view.rows + 0.3 + SIDE));
    return below >= (h < SHORT ? 0.9 : 1) * beside;
  }

  function render(nextView, { hintMove = null } = {}) {
    view = nextView;
    hint = hintMove;
    draw();
  }

  function draw() {
    const portrait = orientation();
    layout = portrait
      ? { portrait, width: view.cols, height: view.rows + 0.3 + SIDE, nextX: 0.15, nextY: view.rows + 0.45, panelX: 2.2, panelY: view.rows + 0.4, pouchX: view.cols - 3.15, pouchY: view.rows + 0.45 }
      : { portrait, width: view.cols + 0.3 + SIDE, height: view.rows, nextX: view.cols + 0.3 + 0.85, nextY: 0.2, panelX: view.cols + 0.45, panelY: 2.35, pouchX: view.cols + 0.3 + 0.2, pouchY: view.rows - 3.15 };
    svg = boardSvg(container, layout.width, layout.height, "Ishido board");
    svg.setAttribute("tabindex", "0");
    drawBoard();
    drawSide();
    wirePointer();
  }

  function drawBoard() {
    el("rect", { x: 0, y: 0, width: view.cols, height: view.rows, class: "ishido-board" }, svg);
    for (let r = 0; r < view.rows; r++) {
      for (let c = 0; c < view.cols; c++) {
        el("rect", { x: c + 0.02, y: r + 0.02, width: 0.96, height: 0.96, rx: 0.06, class: "ishido-cell", "data-cell": r * view.cols + c }, svg);
      }
    }
    view.cells.forEach((tile, cell) => {
      if (tile !== null) drawTile(svg, tile, cell % view.cols, Math.floor(cell / view.cols), 1, look, emojiOk).setAttribute("data-placed", cell);
    });
    if (view.last !== null) {
      el("rect", { x: view.last % view.cols + 0.05, y: Math.floor(view.last / view.cols) + 0.05, width: 0.9, height: 0.9, rx: 0.1, class: "last-box" }, svg);
    }
    if (look.assist) {
      for (const v of view.valid) {
        const x = v.cell % view.cols, y = Math.floor(v.cell / view.cols);
        el("rect", { x: x + 0.1, y: y + 0.1, width: 0.8, height: 0.8, rx: 0.1, class: "assist-box" }, svg);
        const t = el("text", { x: x + 0.5, y: y + 0.52, class: "assist-points", "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.34, "data-assist": v.cell }, svg);
        t.textContent = v.points;
      }
    }
    if (hint !== null) {
      const target = view.valid.find((v) => v.move === hint);
      if (target) el("rect", { x: target.cell % view.cols + 0.06, y: Math.floor(target.cell / view.cols) + 0.06, width: 0.88, height: 0.88, rx: 0.12, class: "hint-box", "data-hint": target.cell }, svg);
    }
    if (cursor !== null) {
      el("rect", { x: cursor % view.cols + 0.03, y: Math.floor(cursor / view.cols) + 0.03, width: 0.94, height: 0.94, rx: 0.1, class: "cursor-box ishido-cursor" }, svg);
    }
  }

  function drawSide() {
    const size = 1.7;
    el("rect", { x: layout.nextX - 0.1, y: layout.nextY - 0.1, width: size + 0.2, height: size + 0.2, rx: 0.15, class: "next-square" }, svg);
    const label = el("text", { x: layout.nextX + size / 2, y: layout.nextY + size + 0.38, "text-anchor": "middle", "font-size": 0.28, class: "panel-text" }, svg);
    label.textContent = "next tile";
    const lines = [`Score ${view.score}`, `Tiles left ${view.tiles_left}`, `4-ways ${view.fourways}`];
    const px = layout.portrait ? layout.panelX + 0.1 : layout.panelX;
    const py = layout.portrait ? layout.panelY + 0.45 : layout.panelY + 0.35;
    lines.forEach((line, i) => {
      const t = el("text", { x: px, y: py + i * 0.42, "font-size": 0.32, class: "panel-text", "data-stat": i }, svg);
      t.textContent = line;
    });
    // The pouch: every kind of tile, with how many are still to come (the next one included).
    const mini = 0.5;
    const caption = el("text", { x: layout.pouchX, y: layout.pouchY - 0.12, "font-size": 0.24, class: "panel-text" }, svg);
    caption.textContent = "still in the pouch";
    view.pouch_counts.forEach((count, tile) => {
      const x = layout.pouchX + (tile % 6) * mini, y = layout.pouchY + Math.floor(tile / 6) * mini;
      const g = drawTile(svg, tile, x, y, mini, look, emojiOk);
      g.setAttribute("data-pouch", tile);
      g.setAttribute("opacity", count ? 1 : 0.15);
      if (count > 0) {
        const badge = el("text", { x: x + mini * 0.92, y: y + mini * 0.95, "text-anchor": "end", "font-size": 0.17, class: "pouch-count" }, svg);
        badge.textContent = count;
      }
    });
    // Drawn last, so that it stays on top while it is dragged over the board.
    if (view.next !== null) {
      const tile = drawTile(svg, view.next, layout.nextX, layout.nextY, size, look, emojiOk);
      tile.classList.add("next-tile");
      tile.setAttribute("data-next", view.next);
    }
  }

  // --- pointer: drag the next tile, or click a valid cell ---

  function svgPoint(event) {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(svg.getScreenCTM().inverse());
  }

  function cellUnder(p) {
    const col = Math.floor(p.x), row = Math.floor(p.y);
    if (col < 0 || col >= view.cols || row < 0 || row >= view.rows) return null;
    return row * view.cols + col;
  }

  function validAt(cell) {
    return cell === null ? null : view.valid.find((v) => v.cell === cell) || null;
  }

  function wirePointer() {
    const next = svg.querySelector(".next-tile");
    if (next && enabled) {
      next.style.cursor = "grab";
      next.addEventListener("pointerdown", (event) => {
        if (event.button !== 0 || !enabled) return;
        event.preventDefault();
        next.setPointerCapture(event.pointerId);
        const start = svgPoint(event);
        drag = { node: next, start, highlight: null };
        next.style.cursor = "grabbing";
      });
      next.addEventListener("pointermove", (event) => {
        if (!drag) return;
        const p = svgPoint(event);
        const size = 1.7;
        // Scale the dragged tile to a board cell so it fits where it will drop.
        const scale = 1 / size;
        const cx = layout.nextX + size / 2, cy = layout.nextY + size / 2;
        drag.node.setAttribute("transform", `translate(${p.x} ${p.y}) scale(${scale}) translate(${-cx} ${-cy})`);
        showDropTarget(cellUnder(p));
      });
      const finish = (event) => {
        if (!drag) return;
        const cell = cellUnder(svgPoint(event));
        const target = validAt(cell);
        const node = drag.node;
        drag = null;
        showDropTarget(null);
        if (target) {
          node.setAttribute("transform", `translate(${target.cell % view.cols} ${Math.floor(target.cell / view.cols)}) scale(${1 / 1.7}) translate(${-layout.nextX} ${-layout.nextY})`);
          onMove(target.move);
        } else {
          returnHome(node);
        }
      };
      next.addEventListener("pointerup", finish);
      next.addEventListener("pointercancel", (event) => { finish({ clientX: -1e6, clientY: -1e6, ...event }); });
    }
  }

  // A tap or click on a valid cell plays there, read from pointer events: after a touch drag
  // of the next tile, Chromium made no click of the next tap (it was lost). On the container,
  // which stays while each answer redraws the SVG, so that a tap may span a redraw.
  let pressed = null;  // the pointer pressed on the board (not on the next tile), until up
  const wiring = new AbortController();  // a preview (not live) takes no input
  if (live) container.addEventListener("pointerdown", (event) => {
    pressed = event.button === 0 && !event.target.closest?.(".next-tile") ? event.pointerId : null;
  }, { signal: wiring.signal });
  if (live) container.addEventListener("pointerup", (event) => {
    if (event.pointerId !== pressed || !enabled || !svg) return;
    pressed = null;
    const target = validAt(cellUnder(svgPoint(event)));
    if (target) onMove(target.move);
  }, { signal: wiring.signal });

  function returnHome(node) {
    const from = node.getAttribute("transform");
    node.setAttribute("data-returning", "1");
    if (node.animate && from) {
      node.animate([{ transform: cssTransform(from) }, { transform: "none" }], { duration: 180, easing: "ease-out" });
    }
    node.removeAttribute("transform");
    setTimeout(() => node.removeAttribute("data-returning"), 200);
  }

  function cssTransform(svgTransform) {
    return svgTransform.replace(/translate\(([^ ]+) ([^)]+)\)/g, "translate($1px, $2px)").replace(/scale\(([^)]+)\)/g, "scale($1)");
  }

  function showDropTarget(cell) {
    svg.querySelectorAll(".drop-target").forEach((n) => n.remove());
    if (cell === null) return;
    const ok = validAt(cell) !== null;
    const box = el("rect", { x: cell % view.cols + 0.02, y: Math.floor(cell / view.cols) + 0.02, width: 0.96, height: 0.96, rx: 0.08, class: `drop-target ${ok ? "ok" : "no"}`, "data-drop": cell }, svg);
    svg.insertBefore(box, svg.querySelector(".next-tile"));
  }

  // --- keyboard ---

  function moveCursor(dRow, dCol) {
    if (!view) return;
    if (cursor === null) {
      cursor = view.valid.length ? view.valid[0].cell : Math.floor(view.rows / 2) * view.cols + Math.floor(view.cols / 2);
    } else {
      const row = Math.max(0, Math.min(view.rows - 1, Math.floor(cursor / view.cols) + dRow));
      const col = Math.max(0, Math.min(view.cols - 1, cursor % view.cols + dCol));
      cursor = row * view.cols + col;
    }
    draw();
  }

  function activate() {
    if (cursor === null) { moveCursor(0, 0); return; }
    const target = validAt(cursor);
    if (target && enabled) onMove(target.move);
  }

  // --- look: assist, palette, images ---

  function makeButtons(bar) {
    const make = (id, title, action) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.title = title;
      b.addEventListener("click", action);
      bar.appendChild(b);
      return b;
    };
    return {
      assist: make("assist", "Show valid cells and their points (v)", () => toggle("assist")),
      images: make("images", "Tile pictures (i)", () => cycle("images", IMAGE_SETS)),
      palette: make("palette", "Tile colours (k)", () => cycle("palette", PALETTES)),
    };
  }

  function refreshButtons() {
    if (!buttons.assist) return;
    buttons.assist.textContent = look.assist ? "Assist: on" : "Assist: off";
    buttons.assist.classList.toggle("active", look.assist);
    buttons.assist.setAttribute("aria-pressed", String(look.assist));
    buttons.images.textContent = `Pictures: ${IMAGE_SETS[look.images].name}`;
    buttons.palette.textContent = `Colours: ${PALETTES[look.palette].name}`;
  }

  function saveLook() {
    keepLook(look);
    refreshButtons();
    if (view) draw();
  }

  function toggle(key) { look[key] = !look[key]; saveLook(); }
  function cycle(key, options) {
    const names = Object.keys(options);
    look[key] = names[(names.indexOf(look[key]) + 1) % names.length];
    saveLook();
  }
  refreshButtons();

  return {
    render,
    moveCursor,
    activate,
    pressKey() { return false; },
    setEnabled(value) { enabled = value; },
    gestures: [["Drag the next tile", "Drop it on a cell (the cell is marked, with its points)"], ["Tap a cell where it fits", "Place the next tile there"]],
    shortcuts: [["v", "Assist: show valid cells with their points", () => toggle("assist")],
      ["i", "Change the tile pictures", () => cycle("images", IMAGE_SETS)],
      ["k", "Change the tile colours", () => cycle("palette", PALETTES)]],
    destroy() { observer?.disconnect(); wiring.abort(); toolbar?.querySelectorAll("#assist, #images, #palette").forEach((b) => b.remove()); },
  };
}

export function drawPreview(container, view) {
  const board = createBoard(container, { onMove: () => {}, live: false });
  board.render(view, {});
  board.setEnabled(false);
}
