// Polar's level editor (the page /play/polar/edit): the 24 x 4 ice, a palette of objects,
// painting with a click, a tap, a drag or the keys. The draft is the view's own shape (tile
// codes and the penguin's cell); the server says what it still needs (polar-edit-tools.js),
// so no rule lives here. The address keeps the draft, so a reload or Back finds it again.
import { boardSvg, cellAt, el } from "/static/js/svg.js";
import { BOMB, EMPTY, HEART, HOUSE, ICE, MOUNTAIN, TREE, drawPenguin, drawTile } from "./polar-draw.js";
import { createTools } from "./polar-edit-tools.js";

const ROWS = 4, COLS = 24;
const PENGUIN = "penguin";
// The palette: [object, words, keys]; the first key is the one shown. The digits are the
// original game's tile codes (7: the penguin).
const PALETTE = [
  [EMPTY, "Empty ice", ["0", "e", "Delete", "Backspace"]], [TREE, "Tree", ["1", "t"]],
  [MOUNTAIN, "Mountain", ["2", "m"]], [HOUSE, "House", ["3", "h"]], [ICE, "Ice block", ["4", "i"]],
  [HEART, "Heart", ["5", "+", "l"]], [BOMB, "Bomb", ["6", "b"]], [PENGUIN, "Penguin", ["7", "p"]],
];
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export function createEditor(root, { notice }) {
  let draft = fromAddress();
  let tool = PENGUIN;
  let cursor = 0;
  let painting = false;
  let keyboard = false; // the cursor is drawn once the keys are used: a tap needs none
  let svg = null;

  const start = part(root, "div", "edit-start");
  const board = part(part(root, "div", "board-wrap edit-board-wrap"), "div", "board");
  board.id = "edit-board";
  const palette = part(root, "div", "edit-palette");
  palette.setAttribute("role", "toolbar");
  palette.setAttribute("aria-label", "Objects to place");
  const buttons = PALETTE.map(([object, words, keys]) => paletteButton(object, words, keys));
  const tools = createTools(root, start, { draft: () => draft, load, notice });
  const help = part(root, "p", "edit-help");
  help.textContent = "Choose an object, then click, tap or drag on the ice to place it. Keys: " +
    "the arrows move the cursor, Enter or Space places the chosen object, and each object's key " +
    "(0–7, or its letter) chooses it and places it at the cursor.";

  function part(parent, tag, className) {
    const node = document.createElement(tag);
    node.className = className;
    parent.appendChild(node);
    return node;
  }

  function paletteButton(object, words, keys) {
    const b = part(palette, "button", "edit-tool");
    b.type = "button";
    b.dataset.tool = String(object);
    b.title = `${words} (${keys[0]}${keys[1] && keys[1].length === 1 ? ` or ${keys[1]}` : ""})`;
    b.setAttribute("aria-label", words);
    const icon = boardSvg(part(b, "span", "edit-icon"), 1, 1, words);
    icon.setAttribute("aria-hidden", "true");
    if (object === PENGUIN) drawPenguin(icon, 0, 0, "D");
    else if (object === EMPTY) el("rect", { x: 0.08, y: 0.08, width: 0.84, height: 0.84, class: "polar-ice edit-empty" }, icon);
    else drawTile(icon, object, 0, 0);
    part(b, "span", "edit-tool-name").textContent = words;
    part(b, "kbd", "edit-key").textContent = keys[0];
    b.addEventListener("click", () => choose(object));
    return b;
  }

  function choose(object) {
    tool = object;
    for (const b of buttons) b.setAttribute("aria-pressed", String(b.dataset.tool === String(object)));
  }

  // What a paint does to the draft: the penguin is one object on top of a cell's tile (the
  // server says whether it may stand there); empty ice clears the cell, penguin and all.
  function paint(cell, object = tool) {
    const cells = draft.cells.slice();
    let penguin = draft.penguin;
    if (object === PENGUIN) penguin = cell;
    else {
      cells[cell] = object;
      if (object === EMPTY && penguin === cell) penguin = null;
    }
    if (penguin === draft.penguin && cells[cell] === draft.cells[cell]) return;
    load({ cells, penguin });
  }

  function load(next) {
    draft = { cells: next.cells.slice(), penguin: next.penguin ?? null };
    const query = new URLSearchParams({ cells: draft.cells.join("") });
    if (draft.penguin !== null) query.set("penguin", draft.penguin);
    history.replaceState(null, "", `${location.pathname}?${query}`);
    draw();
    tools.changed();
  }

  function draw() {
    const focused = document.activeElement === svg;
    svg = boardSvg(board, COLS, ROWS, "The level being made: choose an object, then place it on the ice");
    svg.setAttribute("tabindex", "0");
    svg.classList.add("edit-svg");
    el("rect", { x: 0, y: 0, width: COLS, height: ROWS, class: "polar-ice" }, svg);
    for (let c = 1; c < COLS; c++) el("line", { x1: c, y1: 0, x2: c, y2: ROWS, class: "polar-grid" }, svg);
    for (let r = 1; r < ROWS; r++) el("line", { x1: 0, y1: r, x2: COLS, y2: r, class: "polar-grid" }, svg);
    draft.cells.forEach((tile, cell) => {
      if (tile === EMPTY) return;
      const node = drawTile(svg, tile, cell % COLS, Math.floor(cell / COLS));
      node.setAttribute("data-cell", cell);
      node.setAttribute("data-tile", tile);
    });
    if (draft.penguin !== null) {
      drawPenguin(svg, draft.penguin % COLS, Math.floor(draft.penguin / COLS), "D").setAttribute("data-penguin", draft.penguin);
    }
    if (keyboard) el("rect", { x: cursor % COLS + 0.04, y: Math.floor(cursor / COLS) + 0.04, width: 0.92, height: 0.92, class: "cursor-box" }, svg);
    wirePointer();
    if (focused) svg.focus({ preventScroll: true });
  }

  // A press paints its cell, and a drag every cell it crosses (the board takes the touch, so
  // that a finger paints instead of scrolling the page).
  function wirePointer() {
    const at = (event) => {
      const found = cellAt(svg, event, ROWS, COLS);
      return found ? found.row * COLS + found.col : null;
    };
    svg.addEventListener("pointerdown", (event) => {
      const cell = at(event);
      if (cell === null) return;
      event.preventDefault();  // no text selection while dragging; so the focus is set here
      svg.focus({ preventScroll: true });
      painting = true;
      cursor = cell;
      paint(cell);
    });
    svg.addEventListener("pointermove", (event) => {
      if (!painting || !event.buttons) return;
      const cell = at(event);
      if (cell !== null && (cell !== cursor || tool !== PENGUIN)) {
        cursor = cell;
        paint(cell);
      }
    });
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const onControl = ["BUTTON", "A"].includes(target.tagName);
    if (ARROWS[event.key]) {
      const [dr, dc] = ARROWS[event.key];
      const row = Math.min(ROWS - 1, Math.max(0, Math.floor(cursor / COLS) + dr));
      const col = Math.min(COLS - 1, Math.max(0, cursor % COLS + dc));
      cursor = row * COLS + col;
      keyboard = true;
      draw();
    } else if ((event.key === "Enter" || event.key === " ") && !onControl) {
      keyboard = true;
      paint(cursor);
    } else {
      const found = PALETTE.find(([, , keys]) => keys.includes(event.key));
      if (!found) return;
      choose(found[0]);
      keyboard = true;
      paint(cursor);
    }
    event.preventDefault();
  }

  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerup", () => { painting = false; });
  choose(tool);
  load(draft);
  return { load };
}

// The draft the address holds (cells as digits, the penguin's cell), else empty ice.
function fromAddress() {
  const query = new URLSearchParams(location.search);
  const digits = query.get("cells") || "";
  const empty = { cells: Array(ROWS * COLS).fill(EMPTY), penguin: null };
  if (!/^[0-6]+$/.test(digits) || digits.length !== ROWS * COLS) return empty;
  const penguin = query.get("penguin");
  return { cells: [...digits].map(Number), penguin: penguin && /^\d+$/.test(penguin) && Number(penguin) < ROWS * COLS ? Number(penguin) : null };
}
