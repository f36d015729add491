// Dots and Boxes' renderer (the gridgames renderer contract: docs/adding-a-game.md). It
// draws view.lines and view.boxes and sends the move names of the lines the view marks
// legal; it knows no rule (not even which box a line closes). Its look is in
// dotsandboxes.css, beside it.
import { boardSvg, el } from "/static/js/svg.js";

const MARGIN = 0.4;  // around the dots, in box units

export function createBoard(container, { onMove }) {
  let view = null;
  let svg = null;
  let enabled = true;
  let hint = null;
  let cursor = null;  // [y, x] on the doubled lattice: a line has exactly one odd coordinate

  function render(nextView, { hintMove = null } = {}) {
    view = nextView;
    hint = hintMove;
    draw();
  }

  function draw() {
    svg = drawBoard(container, view);
    svg.setAttribute("tabindex", "0");
    svg.classList.toggle("dab-enabled", enabled);
    for (const line of view.lines) {
      const node = svg.querySelector(`[data-move="${line.move}"]`);
      if (line.move === hint) node.setAttribute("data-hint", line.move);
      if (cursor && line === lineAt(cursor)) node.classList.add("dab-cursor");
    }
    svg.addEventListener("pointerup", (event) => {
      if (event.button !== 0) return;
      const move = event.target.closest?.("[data-move]")?.getAttribute("data-move");
      if (move) play(move);
    });
  }

  function play(move) {
    const line = view.lines.find((l) => l.move === move);
    if (enabled && line && line.legal) onMove(move);
  }

  function lineAt([y, x]) {
    return view.lines.find((l) => l.from[0] + l.to[0] === y && l.from[1] + l.to[1] === x) || null;
  }

  // Arrows step one half-box on the doubled lattice; landing on a dot or a box's middle, the
  // cursor slips to a line beside it, so every line can be reached from any other.
  function moveCursor(dRow, dCol) {
    if (!view) return;
    const height = 2 * view.rows, width = 2 * view.cols;
    if (!cursor) {
      cursor = [0, 1];
      draw();
      return;
    }
    let [y, x] = [cursor[0] + dRow, cursor[1] + dCol];
    y = Math.max(0, Math.min(height, y));
    x = Math.max(0, Math.min(width, x));
    if ((y + x) % 2 === 0) {  // a dot or a box's middle: slip along the other axis
      if (dRow) x = x > 0 ? x - 1 : x + 1; else y = y > 0 ? y - 1 : y + 1;
    }
    cursor = [y, x];
    draw();
  }

  return {
    render,
    setEnabled(value) {
      enabled = value;
      svg?.classList.toggle("dab-enabled", enabled);
    },
    moveCursor,
    activate() {
      if (!cursor) { moveCursor(0, 0); return; }
      const line = lineAt(cursor);
      if (line) play(line.move);
    },
    pressKey() { return false; },
    claims: [],
    shortcuts: [],
    moveHelp: "Move the cursor from line to line; Enter or Space draws that line",
    destroy() {},
  };
}

export function drawPreview(container, view) {
  drawBoard(container, view);
}

function drawBoard(container, view) {
  const drawn = view.lines.filter((l) => l.by !== null).length;
  const svg = boardSvg(container, view.cols + 2 * MARGIN, view.rows + 2 * MARGIN,
    `Dots and Boxes, ${view.rows} by ${view.cols} boxes, ${drawn} of ${view.lines.length} lines drawn`);
  svg.classList.add("dab-board");
  // A taken box is filled in its owner's colour and carries the owner's initial: never
  // colour alone.
  view.boxes.forEach((owner, index) => {
    if (owner === null) return;
    const x = MARGIN + (index % view.cols), y = MARGIN + Math.floor(index / view.cols);
    const g = el("g", { class: `dab-box dab-p${owner}`, "data-box": index, "data-owner": owner }, svg);
    el("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.06 }, g);
    const t = el("text", { x: x + 0.5, y: y + 0.5, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 0.42 }, g);
    t.textContent = view.players[owner][0];
  });
  for (const line of view.lines) {
    const [x1, y1] = [MARGIN + line.from[1], MARGIN + line.from[0]];
    const [x2, y2] = [MARGIN + line.to[1], MARGIN + line.to[0]];
    const state = line.by === null ? "open" : line.by === 2 ? "given" : `p${line.by}`;
    const g = el("g", { class: `dab-line dab-${state}`, "data-move": line.move }, svg);
    if (line.legal) g.classList.add("dab-legal");
    if (line.move === view.last) g.classList.add("dab-last");
    if (line.by !== null) g.setAttribute("data-by", line.by);
    // A wide transparent band under the line: easy to hit with a finger, and a box the
    // cursor and the hint colour in. Its inside takes the pointer whatever its paint.
    const across = y1 === y2;
    el("rect", {
      class: "dab-hit", fill: "transparent", "pointer-events": "fill",
      x: across ? x1 + 0.12 : x1 - 0.15, y: across ? y1 - 0.15 : y1 + 0.12,
      width: across ? 0.76 : 0.3, height: across ? 0.3 : 0.76, rx: 0.08,
    }, g);
    el("line", { class: "dab-stroke", x1, y1, x2, y2 }, g);
  }
  for (let r = 0; r <= view.rows; r++) {
    for (let c = 0; c <= view.cols; c++) {
      el("circle", { class: "dab-dot", cx: MARGIN + c, cy: MARGIN + r, r: 0.08 }, svg);
    }
  }
  return svg;
}
