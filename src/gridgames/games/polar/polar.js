// Renderer for Polar (view.kind "polar"): the 24 x 4 ice board with our own SVG drawings,
// the penguin facing the way it last moved, and the last move's events animated (slides,
// crushed ice, a heart going home, explosions). Arrow keys / WASD, on-screen arrows and
// swipes send U, D, L, R; the server says what happened.
import { api } from "/static/js/api.js";
import { boardSvg, el } from "/static/js/svg.js";
import { EMPTY, drawPenguin, drawTile } from "./polar-draw.js";

// Arrow keys only: W A S D would clash with the shell's keys (share, AI, solve, theme).
const KEYS = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" };
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

  function render(nextView, { animate = false, hintMove = null, preview = false, helped = false } = {}) {
    view = nextView;
    hint = hintMove;
    shown = { preview, helped };
    svg = boardSvg(container, view.cols, view.rows, view.name || "Polar level");
    svg.setAttribute("tabindex", "0");
    el("rect", { x: 0, y: 0, width: view.cols, height: view.rows, class: "polar-ice" }, svg);
    for (let c = 1; c < view.cols; c++) el("line", { x1: c, y1: 0, x2: c, y2: view.rows, class: "polar-grid" }, svg);
    for (let r = 1; r < view.rows; r++) el("line", { x1: 0, y1: r, x2: view.cols, y2: r, class: "polar-grid" }, svg);
    const slid = new Map();
    for (const e of animate ? view.events : []) if (e[0] === "slide") slid.set(e[3], e[2]);
    view.cells.forEach((tile, cell) => {
      if (tile === EMPTY) return;
      const node = drawTile(svg, tile, cell % view.cols, Math.floor(cell / view.cols));
      node.setAttribute("data-tile", tile);
      node.setAttribute("data-cell", cell);
      if (view.dead.includes(cell)) node.classList.add("dead-heart");
      if (slid.has(cell)) slideIn(node, slid.get(cell), cell);
    });
    const penguin = drawPenguin(svg, view.penguin % view.cols, Math.floor(view.penguin / view.cols), view.facing);
    penguin.setAttribute("data-penguin", view.penguin);
    if (animate) animateEvents();
    if (hint) drawHintArrow(hint);
    wireSwipes();
    updateControls();
  }

  function slideIn(node, from, to) {
    const dx = (from % view.cols) - (to % view.cols), dy = Math.floor(from / view.cols) - Math.floor(to / view.cols);
    const distance = Math.abs(dx) + Math.abs(dy);
    node.animate?.([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: 70 * distance + 60, easing: "cubic-bezier(.3,.6,.5,1)" });
  }

  function animateEvents() {
    for (const e of view.events) {
      if (e[0] === "walk") {
        const node = svg.querySelector("[data-penguin]");
        const dx = (e[1] % view.cols) - (e[2] % view.cols), dy = Math.floor(e[1] / view.cols) - Math.floor(e[2] / view.cols);
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
    const x = cell % view.cols + 0.5, y = Math.floor(cell / view.cols) + 0.5;
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
    const x = view.penguin % view.cols + 0.5, y = Math.floor(view.penguin / view.cols) + 0.5;
    const angle = { R: 0, D: 90, L: 180, U: 270 }[move];
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
      send(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : (dy > 0 ? "D" : "U"));
    });
  }

  function send(move) {
    if (enabled && view && view.legal.length) onMove(move);
  }

  // --- controls: arrows, level select with solved marks, next level ---

  function makeControls(bar) {
    const pad = document.createElement("span");
    pad.className = "polar-pad";
    for (const [move, label, name] of [["L", "←", "left"], ["U", "↑", "up"], ["D", "↓", "down"], ["R", "→", "right"]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.title = `Move ${name}`;
      b.setAttribute("aria-label", `Move ${name}`);
      b.dataset.move = move;
      b.addEventListener("click", () => send(move));
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
    edit.href = editorAddress();
    const count = packs.reduce((n, pack) => n + pack.levels.length, 0);
    if (count && select.options.length !== count) {
      select.textContent = "";
      for (const pack of packs) {
        const group = document.createElement("optgroup");
        group.label = pack.credit ? `${pack.title} (${pack.credit})` : pack.title;
        for (const lv of pack.levels) group.appendChild(new Option("", `${pack.name}:${lv.number}`));
        select.appendChild(group);
      }
    }
    for (const option of select.options) {
      const [pack, number] = option.value.split(":");
      const level = packs.find((p) => p.name === pack).levels[Number(number) - 1];
      option.text = `${solved.has(option.value) ? "✓ " : ""}${number}. ${level.name}`;
    }
    if (here) select.value = here;
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
    moveCursor(dRow, dCol) { send(dRow < 0 ? "U" : dRow > 0 ? "D" : dCol < 0 ? "L" : "R"); },
    activate() {},
    pressKey(key) {
      const move = KEYS[key];
      if (!move) return false;
      send(move);
      return true;
    },
    moveHelp: "Move or push (also the arrow buttons, or a swipe)",
    gestures: [["Swipe", "Move the penguin that way, or push what is there"], ["Arrow buttons", "The same, a tap each"]],
    layout: "wide",
    setEnabled(value) { enabled = value; },
    get shortcuts() {
      return controls ? [["e", "Edit this board in the level editor", () => { if (view) location.assign(editorAddress()); }]] : [];
    },
    destroy() { toolbar?.querySelectorAll(".polar-pad, #level-select, #next-level, #edit-level, #polar-info").forEach((n) => n.remove()); },
  };
}

export function drawPreview(container, view) {
  createBoard(container, { onMove: () => {}, live: false }).render(view, {});
}
