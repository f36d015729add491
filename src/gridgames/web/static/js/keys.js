// The page's keys and its help: each shortcut, the board's own keys (the renderer says which:
// docs/adding-a-game.md), and the help panel that lists exactly the keys that work now.
import { $, PERSON, can, page, seatToMove } from "./page.js";
import { toggleTheme } from "./theme.js";
import { command, newGame } from "./actions.js";
import { aiMove, cancelThinking, runCheck, showHint, showSolution, togglePause } from "./machine.js";
import { openSettings } from "./settings.js";
import { playOnline, shareWatch } from "./linked.js";
import { openStats } from "./controls.js";

// Each control: its keys (the first one not claimed by the game's board is shown in help).
const SHORTCUTS = [
  [["n"], "New game", () => newGame()],
  [["u"], "Undo", () => command("undo")],
  [["r"], "Redo", () => command("redo")],
  [["R"], "Restart", () => command("restart")],
  [["h"], "Hint", () => showHint()],
  [["c", "C"], "Check", () => runCheck()],
  [["a", "A"], "AI move", () => aiMove(true)],
  [["s", "S"], "Solve: see the solution step by step, then apply it", () => showSolution()],
  [["p"], "Pause or resume the AIs", () => togglePause()],
  [["g"], "Settings", () => openSettings()],
  [["o"], "Play online", () => playOnline()],
  [["w"], "Share a link to watch", () => shareWatch()],
  [["d", "D"], "Light or dark theme", () => toggleTheme()],
  [["m"], "Replay: step through the moves (← →, Esc leaves)", () => page.replay.toggle()],
  [["t"], "Statistics", () => openStats()],
  [["+", "="], "Zoom in (Ctrl and the wheel too; two fingers pinch and pan)", () => page.zoom.zoomIn()],
  [["-"], "Zoom out", () => page.zoom.zoomOut()],
  [["f"], "Fit the board in its space", () => page.zoom.fit()],
  [["?"], "This help", () => openHelp()],
];
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function keyLabel(key) {
  return key.length === 1 && key !== key.toLowerCase() ? `Shift+${key}` : key;
}

// The picture is the game as it stands, drawn only while the help is open (so that the
// page holds one board's marks at a time).
export function openHelp() {
  buildHelp();
  const picture = $("help-picture");
  picture.textContent = "";
  if (page.current) {
    try { page.renderer.drawPreview(picture, page.current.view); } catch { picture.textContent = ""; }
  }
  const dialog = $("help-dialog");
  dialog.showModal();
  // It opens at its top on how to play (the browser focused Close, the last thing in it,
  // and scrolled a phone's help down to the table of keys).
  dialog.scrollTop = 0;
  $("help-title").focus({ preventScroll: true });
}

// A touch screen gets the board's gestures, before the keys (which it may not have).
function buildGestures(board) {
  const rows = board?.gestures || [];
  const table = $("gestures");
  table.textContent = "";
  for (const [gesture, what] of rows) {
    const row = table.insertRow();
    row.insertCell().textContent = gesture;
    row.insertCell().textContent = what;
  }
  $("help-gestures").hidden = !rows.length || !matchMedia("(any-pointer: coarse)").matches;
}

// The help: the game's rules (from the server) beside a small picture of this game, and
// exactly the keys that work on this page now.
export function buildHelp() {
  const { card, board } = page;
  $("help-rules").textContent = card.rules;
  buildGestures(board);
  const keys = $("keys");
  keys.textContent = "";
  const linked = Boolean(page.link);
  const hidden = { "Solve: see the solution step by step, then apply it": !can("solver") || linked,
    Check: !can("checker") || linked,
    "AI move": card.ai_levels.length === 0 || linked, Redo: linked, Restart: linked,
    "Pause or resume the AIs": card.ai_levels.length === 0 || linked, Hint: !can("hints") || linked,
    Settings: linked, "Play online": card.players !== 2 || linked,
    "Share a link to watch": linked,
    "Replay: step through the moves (← →, Esc leaves)": linked };
  const claimed = new Set(board?.claims || []);
  const rows = [];
  if (board?.digitHelp) rows.push([[board.digitKeys || "1–9"], board.digitHelp]);
  for (const [shown, what] of board?.extraKeys || []) rows.push([shown, what]);
  rows.push([["←", "↑", "↓", "→"], board?.moveHelp || "Move the cursor on the board"]);
  if (!board?.moveHelp) rows.push([["Enter", "Space"], "Play at the cursor"]);
  for (const [keys, what] of SHORTCUTS) {
    const free = keys.filter((k) => !claimed.has(k));
    if (!hidden[what] && free.length) rows.push([free.map(keyLabel), what]);
  }
  for (const [key, what] of board?.shortcuts || []) rows.push([[key], what]);
  if (!linked) rows.push([["Ctrl+Z", "Ctrl+Y"], "Undo, redo"]);
  rows.push([["Esc"], "Stop the computer thinking; leave the replay"]);
  for (const [shown, what] of rows) {
    const row = keys.insertRow();
    const cell = row.insertCell();
    shown.forEach((key, i) => {
      if (i) cell.append(" ");
      const kbd = document.createElement("kbd");
      kbd.textContent = key;
      cell.appendChild(kbd);
    });
    row.insertCell().textContent = what;
  }
}

export function onKey(event) {
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  const { board, replay } = page;
  if (replay?.active && !event.ctrlKey && !event.altKey && !event.metaKey) {
    // Stepping: the stepper's keys; of the rest only help, theme and statistics.
    if (replay.key(event.key)) {
      event.preventDefault();
      return;
    }
    if (!["?", "d", "D", "t"].includes(event.key)) return;
  }
  if (event.key === "Escape" && page.thinking) {
    cancelThinking();
    event.preventDefault();
    return;
  }
  if (event.altKey || event.metaKey) return;
  if (event.ctrlKey) {
    if (event.key === "z") { command("undo"); event.preventDefault(); }
    if (event.key === "y") { command("redo"); event.preventDefault(); }
    return;
  }
  if (board && !page.thinking && seatToMove() === PERSON && board.pressKey(event.key)) {
    event.preventDefault();
    return;
  }
  if (ARROWS[event.key] && board) {
    board.moveCursor(...ARROWS[event.key]);
    event.preventDefault();
    return;
  }
  if ((event.key === "Enter" || event.key === " ") && !(target instanceof HTMLButtonElement)) {
    if (board && !page.thinking) board.activate();
    event.preventDefault();
    return;
  }
  const own = (board?.shortcuts || []).find(([key]) => key === event.key);
  const claimed = new Set(board?.claims || []);
  const shared = SHORTCUTS.find(([keys]) => keys.includes(event.key) && !claimed.has(event.key));
  const action = own ? own[2] : shared ? shared[2] : null;
  if (action) {
    action();
    event.preventDefault();
  }
}
