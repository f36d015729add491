// Renderer for Polar (view.kind "polar"): the 24 x 4 ice board with our own SVG drawings,
// the penguin facing the way it last moved, and the last move's events animated (slides,
// crushed ice, a heart going home, explosions). In a window taller than wide the board is
// drawn turned, 4 across and 24 down (the level's row 1 on the left, its column a at the
// top), each picture upright. Arrow keys, on-screen arrows and swipes move the penguin the
// way they point on the board as drawn (turned: down is the level's right); the server says
// what happened.
import { api } from "/static/js/api.js";
import { boardSvg, el } from "/static/js/svg.js";
import { EMPTY, drawPenguin, drawTile } from "./polar-draw.js";

// Arrow keys only: W A S D would clash with the shell's keys (share, AI, solve, theme).
const KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
// A way on the screen, and the move it is on the board as drawn.
const MOVES = { up: "U", down: "D", left: "L", right: "R" };
const TURNED_MOVES = { up: "L", down: "R", left: "U", right: "D" };
const ANGLES = { right: 0, down: 90, left: 180, up: 270 };
// Turned in a window at most 3 wide for 4 high, where the turned board, in a column of its
// own beside the controls (polar.css), draws the larger cells: 31 px at 390x844 and 22 px
// at 360x640, against 16 and 15 flat.
const PORTRAIT = "(max-aspect-ratio: 3/4)";
const SOLVED = "gridgames-polar-solved";
const SWIPE = 24; // pixels

// Solved levels, as "pack:level" (older entries, bare numbers, are the default pack's).
function solvedSet() {
  try {
    return new Set((JSON.parse(localStorage.getItem(SOLVED)) || []).map((k) => (typeof k === "number" ? `gridgames:${k}` : k)));
  } catch { return new Set(); }
}

export function createBoard(container, { onMove, toolbar = null, onNewGame = null, live = true }) {
  let view = null;
  let svg = null;
  let hint = null;
  let enabled = true;
  const controls = toolbar && live ? makeControls(toolbar) : null;
  let packs = [];   // [{name, title, credit, levels: [{number, name, best}]}] from the server
  // The page's words about the view: a preview (a solution's step: nothing of it is kept),
  // or a level finished with Solve's help (not marked solved).
  let shown = { preview: false, helped: false };
  let turned = false;
  const portrait = live ? window.matchMedia(PORTRAIT) : null;
  const turn = () => { if (view) render(view, { hintMove: hint, ...shown }); };
  portrait?.addEventListener("change", turn);

  // Where a cell is drawn: its column and row, or turned, its row and column.
  function place(cell) {
    const col = cell % view.cols, row = Math.floor(cell / view.cols);
    return turned ? [row, col] : [col, row];
  }

  // The move a way on the screen makes, and the way a move goes on the screen.
  function moveOf(way) { return (turned ? TURNED_MOVES : MOVES)[way]; }
  function wayOf(move) { return Object.keys(MOVES).find((way) => moveOf(way) === move); }

  function render(nextView, { animate = false, hintMove = null, preview = false, helped = false } = {}) {
    view = nextView;
    hint = hintMove;
    shown = { preview, helped };
    turned = Boolean(portrait?.matches);
    const [width, height] = turned ? [view.rows, view.cols] : [view.cols, view.rows];
    container.dataset.turned = String(turned);
    svg = boardSvg(container, width, height, view.name || "Polar level");
    svg.setAttribute("tabindex", "0");
    el("rect", { x: 0, y: 0, width, height, class: "polar-ice" }, svg);
    for (let c = 1; c < width; c++) el("line", { x1: c, y1: 0, x2: c, y2: height, class: "polar-grid" }, svg);
    for (let r = 1; r < height; r++) el("line", { x1: 0, y1: r, x2: width, y2: r, class: "polar-grid" }, svg);
    const slid = new Map();
    for (const e of animate ? view.events : []) if (e[0] === "slide") slid.set(e[3], e[2]);
    view.cells.forEach((tile, cell) => {
      if (tile === EMPTY) return;
      const node = drawTile(svg, tile, ...place(cell));
      node.setAttribute("data-tile", tile);
      node.setAttribute("data-cell", cell);
      if (view.dead.includes(cell)) node.classList.add("dead-heart");
      if (slid.has(cell)) slideIn(node, slid.get(cell), cell);
    });
    const facing = MOVES[wayOf(view.facing)] ?? view.facing;  // the way it looks, as drawn
    const penguin = drawPenguin(svg, ...place(view.penguin), facing);
    penguin.setAttribute("data-penguin", view.penguin);
    penguin.setAttribute("data-focus", "");  // a zoomed board keeps the penguin in view
    if (animate) animateEvents();
    if (hint) drawHintArrow(hint);
    wireSwipes();
    updateControls();
  }

  function slideIn(node, from, to) {
    const [fx, fy] = place(from), [tx, ty] = place(to);
    const dx = fx - tx, dy = fy - ty;
    const distance = Math.abs(dx) + Math.abs(dy);
    node.animate?.([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: 70 * distance + 60, easing: "cubic-bezier(.3,.6,.5,1)" });
  }

  function animateEvents() {
    for (const e of view.events) {
      if (e[0] === "walk") {
        const node = svg.querySelector("[data-penguin]");
        const [fx, fy] = place(e[1]), [tx, ty] = place(e[2]);
        const dx = fx - tx, dy = fy - ty;
        node.animate?.([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], { duration: 110 });
      } else if (e[0] === "crush") {
        burst(e[1], "polar-crush", "crushed");
      } else if (e[0] === "home") {
        burst(e[2], "polar-home", "home");
      } else if (e[0] === "boom") {
        burst(e[1], "polar-boom", "boom");
        burst(e[2], "polar-boom", "boom");
      }
    }
  }

  // A short picture of what happened at a cell: it stays in the DOM (faded) for tests and
  // screen readers until the next move.
  function burst(cell, cls, label) {
    const [x, y] = place(cell).map((v) => v + 0.5);
    const g = el("g", { class: `polar-event ${cls}`, "data-event": label }, svg);
    const points = [];
    for (let i = 0; i < 16; i++) {
      const a = (i * Math.PI) / 8, r = i % 2 ? 0.22 : 0.48;
      points.push(`${x + r * Math.cos(a)},${y + r * Math.sin(a)}`);
    }
    el("polygon", { points: points.join(" ") }, g);
    g.animate?.([{ opacity: 1, transform: "scale(.4)" }, { opacity: 0, transform: "scale(1.3)" }],
      { duration: 650, easing: "ease-out", fill: "forwards" });
    g.style.transformOrigin = `${x}px ${y}px`;
  }

  function drawHintArrow(move) {
    const [x, y] = place(view.penguin).map((v) => v + 0.5);
    const angle = ANGLES[wayOf(move)];
    const g = el("g", { class: "polar-hint", "data-hint": move, transform: `translate(${x} ${y}) rotate(${angle})` }, svg);
    el("path", { d: "M 0.05 -0.12 L 0.55 -0.12 L 0.55 -0.26 L 0.85 0 L 0.55 0.26 L 0.55 0.12 L 0.05 0.12 Z" }, g);
  }

  let swipeStart = null;
  function wireSwipes() {
    svg.addEventListener("pointerdown", (e) => { swipeStart = { x: e.clientX, y: e.clientY }; });
    svg.addEventListener("pointerup", (e) => {
      if (!swipeStart) return;
      const dx = e.clientX - swipeStart.x, dy = e.clientY - swipeStart.y;
      swipeStart = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE) return;
      send(moveOf(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up")));
    });
  }

  function send(move) {
    if (enabled && view && view.legal.length) onMove(move);
  }

  // --- controls: arrows, level select with solved marks, next level ---

  function makeControls(bar) {
    const pad = document.createElement("span");
    pad.className = "polar-pad";
    for (const [way, label] of [["left", "←"], ["up", "↑"], ["down", "↓"], ["right", "→"]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.title = `Move ${way}`;
      b.setAttribute("aria-label", `Move ${way}`);
      b.dataset.way = way;
      b.addEventListener("click", () => send(moveOf(way)));
      pad.appendChild(b);
    }
    bar.appendChild(pad);
    const select = document.createElement("select");
    select.id = "level-select";
    select.title = "Choose a level";
    select.setAttribute("aria-label", "Level");
    select.addEventListener("change", () => onNewGame?.(levelParams(select.value)));
    bar.appendChild(select);
    const next = document.createElement("button");
    next.type = "button";
    next.id = "next-level";
    next.textContent = "Next level";
    next.hidden = true;
    next.addEventListener("click", () => {
      const [pack, level] = select.value.split(":");
      onNewGame?.(levelParams(`${pack}:${Number(level) + 1}`));
    });
    bar.appendChild(next);
    // The level editor, starting from the board as it stands here.
    const edit = document.createElement("a");
    edit.id = "edit-level";
    edit.className = "polar-edit-link";
    edit.textContent = "Edit level";
    edit.title = "Make a level: this board in the level editor (e)";
    bar.appendChild(edit);
    const info = document.createElement("span");
    info.id = "polar-info";
    info.className = "polar-info";
    bar.appendChild(info);
    api("GET", "/api/v1/games/polar/levels").then((list) => { packs = list; updateControls(); }).catch(() => {});
    return { select, next, info, edit };
  }

  function levelParams(key) {
    const [pack, level] = key.split(":");
    return `level=${level},pack=${pack}`;
  }

  function updateControls() {
    if (!controls || !view) return;
    const solved = solvedSet();
    const here = view.level ? `${view.pack}:${view.level}` : null;
    // Only a level won by the player is marked: not a preview's end, nor a Solve's.
    if (view.hearts === 0 && here && !shown.preview && !shown.helped) {
      solved.add(here);
      localStorage.setItem(SOLVED, JSON.stringify([...solved]));
    }
    const { select, next, info, edit } = controls;
    for (const b of toolbar.querySelectorAll(".polar-pad button")) b.dataset.move = moveOf(b.dataset.way);
    edit.href = editorAddress();
    const count = packs.reduce((n, pack) => n + pack.levels.length, 0);
    if (count && select.querySelectorAll("optgroup option").length !== count) {
      select.textContent = "";
      for (const pack of packs) {
        const group = document.createElement("optgroup");
        group.label = pack.credit ? `${pack.title} (${pack.credit})` : pack.title;
        for (const lv of pack.levels) group.appendChild(new Option("", `${pack.name}:${lv.number}`));
        select.appendChild(group);
      }
    }
    for (const option of select.querySelectorAll("optgroup option")) {
      const [pack, number] = option.value.split(":");
      const level = packs.find((p) => p.name === pack).levels[Number(number) - 1];
      option.text = `${solved.has(option.value) ? "✓ " : ""}${number}. ${level.name}`;
    }
    // A level from no pack (a daily's, a shared link's) says so, not the first pack level.
    let own = select.querySelector('option[value=""]');
    if (here) {
      own?.remove();
      select.value = here;
    } else if (count) {
      if (!own) {
        own = new Option("A level of its own", "");
        own.disabled = true;
        select.prepend(own);
      }
      select.value = "";
    }
    const packLevels = packs.find((p) => p.name === view.pack)?.levels.length || 0;
    next.hidden = shown.preview || !(view.hearts === 0 && view.level && view.level < packLevels);
    info.textContent = `Moves ${view.moves} · pushes ${view.pushes}` + figures();
  }

  function editorAddress() {
    return `/play/polar/edit?${new URLSearchParams({ cells: view.cells.join(""), penguin: view.penguin })}`;
  }

  // The level's known figures, each with its unit: the best known line counts moves ("+":
  // not proven the fewest), Solve's aim is the fewest pushes (proven), so "14 pushes" here
  // is the "14 pushes, the fewest" Solve says, and its line may take more moves.
  function figures() {
    const best = view.best ? String(view.best) : "";
    const moves = best ? ` · ${best.endsWith("+") ? "best known" : "fewest"} ${best.replace("+", "")} moves` : "";
    return moves + (view.fewest_pushes ? ` · fewest ${view.fewest_pushes} pushes` : "");
  }

  return {
    render,
    moveCursor(dRow, dCol) { send(moveOf(dRow < 0 ? "up" : dRow > 0 ? "down" : dCol < 0 ? "left" : "right")); },
    activate() {},
    pressKey(key) {
      const way = KEYS[key];
      if (!way) return false;
      send(moveOf(way));
      return true;
    },
    moveHelp: "Move or push the way the arrow points on the board as drawn (also the arrow buttons, or a swipe); in a tall, narrow window the board is drawn turned and down is the level's right",
    gestures: [["Swipe", "Move the penguin that way, or push what is there"], ["Arrow buttons", "The same, a tap each"]],
    layout: "wide",
    setEnabled(value) { enabled = value; },
    get shortcuts() {
      return controls ? [["e", "Edit this board in the level editor", () => { if (view) location.assign(editorAddress()); }]] : [];
    },
    destroy() {
      portrait?.removeEventListener("change", turn);
      toolbar?.querySelectorAll(".polar-pad, #level-select, #next-level, #edit-level, #polar-info").forEach((n) => n.remove());
    },
  };
}

export function drawPreview(container, view) {
  createBoard(container, { onMove: () => {}, live: false }).render(view, {});
}
