// Showing the server's answer: the board (drawn by the game's renderer), the status line,
// the buttons that apply now, notices and the thinking indicator.
import { $, PERSON, can, gameName, helped, isPuzzle, page, saved, seatToMove } from "./page.js";
import { noteGame } from "./unfinished.js";
import { noteResult } from "./stats.js";
import { api } from "./api.js";
import { gameBefore, newGame, playMove } from "./actions.js";
import { scheduleAi } from "./machine.js";
import { renderOnline } from "./linked.js";
import { buildHelp } from "./keys.js";
import { updateUrl } from "./boot.js";
import { countHint, showDaily } from "./daily-page.js";

export function show(payload, { animate = false } = {}) {
  const link = page.link;
  if (link && payload.online) {  // online: never an older position after a newer one
    if (link.isOlder(payload)) return;
    link.take(payload);
  }
  if (page.replay.active) page.replay.close(false);
  const before = page.current;
  page.current = payload;
  if (positionKey(before) !== positionKey(payload)) {  // a hint is about one position
    page.hintMove = null;
    unsay();
  }
  const view = payload.view;
  const fresh = !page.board || page.boardKind !== view.kind;
  if (fresh) newBoard(view);
  const status = payload.status;
  // Finished by Solve: said plainly, and the renderer draws no celebration (no win mark).
  const withHelp = status.over && helped(payload);
  page.board.render(view, { animate, hintMove: page.hintMove, helped: withHelp });
  page.zoom?.follow();
  if (fresh) buildHelp();
  renderOnline();
  const message = withHelp ? `Solved with help: ${status.message.replace(/!$/, "")}` : personWords(payload, status) ?? status.message;
  $("status-text").textContent = message;
  const swatchPlayer = status.over ? status.winner : payload.to_move;
  $("swatch").hidden = swatchPlayer === null || swatchPlayer === undefined;
  $("swatch").style.background = `var(--p${swatchPlayer})`;
  showResult(payload, before?.session === payload.session);
  $("gameover").hidden = !status.over;
  $("gameover-text").textContent = message;
  $("status").classList.toggle("helped", withHelp);
  $("status").classList.toggle("over", status.over);  // the banner says it, in the words' place
  announce(before, payload, message);
  updateButtons();
  updateUrl();
  noteGame(payload, location.pathname);
  page.clock.follow(payload, isPuzzle() && !link);
  showClock();
  page.replay.renderList(payload);
  // A game counts in the statistics when this page saw it end.
  if (status.over && before?.session === payload.session && !before.status.over) {
    const card = page.card;
    noteResult(gameName, payload, { players: card.players, scoreOrder: card.score_order, ms: page.clock.ms });
  }
  showDaily(payload, page.clock.ms);
  page.board.setEnabled(!page.thinking && seatToMove() === PERSON);
  scheduleAi();
}

function newBoard(view) {
  page.board?.destroy?.();
  const board = page.renderer.createBoard($("board"), {
    onMove: playMove, toolbar: $("game-controls"),
    onNewGame: (params) => newGame(params).catch((e) => showNotice(e.message)),
    fetchAnalysis: can("analyzer") ? fetchAnalysis : null,
  });
  page.board = board;
  page.boardKind = view.kind;
  page.zoom?.fit();  // a new board opens whole
  // The page's layout follows the board's shape (docs/adding-a-game.md: `layout`).
  if (board.layout) document.body.dataset.layout = board.layout;
  else delete document.body.dataset.layout;
}

// The analysis of the position (a daily's result line counts it as a hint).
function fetchAnalysis() {
  countHint();
  return api("GET", `/api/v1/sessions/${page.current.session}/analysis`);
}

// Against the AI (one seat a person's, the other the AI's; not online) the status says whose
// turn it is in a person's words, unless the game keeps its own (tic-tac-toe's source's).
function personWords(payload, status) {
  const { card } = page;
  const you = payload.seats.indexOf(PERSON);
  if (page.link || card.players !== 2 || !card.person_words || you < 0 || payload.seats.lastIndexOf(PERSON) !== you) return null;
  const names = payload.player_names;
  if (!status.over) return payload.to_move === you ? `Your turn (${names[you]})` : `The AI's turn (${names[1 - you]})`;
  if (status.kind !== "won") return null;  // a draw: the game's words
  return status.winner === you ? `You win with ${names[you]}!` : `The AI wins with ${names[status.winner]}`;
}

// How sure machine play is, in a player's words: "proven", else what it did ("looked
// two moves ahead") and how long it took, or "best found in 2.1 s".
export function sureWords(result) {
  if (result.proven || !result.note) return result.words;
  return result.seconds >= 0.1 ? `${result.note} (${result.seconds.toFixed(1)} s)` : result.note;
}

// Screen readers hear each move and what follows ("X played a1. It's O's turn"), and any
// other change of the status line; the status line itself is not a live region, so that
// nothing is said twice (nor its clock every second).
function announce(before, payload, message) {
  const said = $("announce");
  if (!before) return;
  if (before.session !== payload.session || before.seed_id !== payload.seed_id) {
    said.textContent = `New game. ${message}`;
    return;
  }
  const last = payload.moves[payload.moves.length - 1];
  const moved = payload.moves.length === before.moves.length + 1 && last && !last.startsWith("!");
  const mover = page.card.players > 1 ? payload.player_names[before.to_move] : null;
  const move = moved ? `${mover ? `${mover} played` : "Played"} ${payload.last_move_words ?? last}. ` : "";
  const text = move + message;  // the status line's words ("Solved with help...")
  if (text !== said.textContent || moved) said.textContent = text;
}

// Machine play says how sure it is: "proven", or "best found in 2.1 s" and why. The note
// is about the current position; after the next move the last one stays laid out unseen
// (in the same game), so that the status line keeps its height from move to move.
function showResult(payload, sameGame) {
  const note = $("ai-note");
  const result = payload.result;
  note.classList.toggle("stale", !result);
  if (!sameGame) note.hidden = !result;
  if (!result) return;
  note.hidden = false;
  const who = payload.ai_move ? `AI (${payload.ai_level}) played ${payload.ai_move_words ?? payload.ai_move}` : "Solution";
  note.textContent = `${who}: ${sureWords(result)}`;
  note.title = result.note || "";
}

export function updateButtons() {
  const { current, card } = page;
  const over = current.status.over;
  const linked = Boolean(page.link);
  const playing = linked && current.online?.you !== null && current.online?.you !== undefined;
  for (const id of ["redo", "restart", "hint", "check", "aimove", "solve", "pause", "settings"]) {
    $(id).classList.toggle("online-hidden", linked);
  }
  $("undo").classList.toggle("online-hidden", linked && !playing);
  $("new").classList.toggle("online-hidden", linked && !playing);
  $("game-controls").classList.toggle("online-hidden", linked);  // e.g. analysis: not online
  $("again").classList.toggle("online-hidden", linked && !playing);
  $("again").textContent = linked ? "Rematch" : "Play again";
  $("again").hidden = Boolean(page.daily);  // a daily is played once: its bar shares the result
  $("undo").textContent = linked ? "Takeback" : "Undo";
  $("new").textContent = linked ? "Rematch" : "New game";
  $("draw").hidden = !playing || over;
  $("resign").hidden = !playing || over;
  $("play-online").hidden = linked || card.players !== 2 || over || Boolean(page.daily);
  $("share").hidden = linked;  // every game shares a link to watch it (two-player games too)
  if (linked) {
    const offer = current.online?.offer;
    $("undo").disabled = !playing || over || Boolean(offer) || current.moves.length === 0;
    $("new").disabled = !playing || !over || Boolean(offer);
    $("draw").disabled = Boolean(offer);
    return;
  }
  const lastIsRestart = current.moves[current.moves.length - 1] === "!restart";
  $("undo").disabled = !current.can_undo && !gameBefore();
  $("redo").disabled = !current.can_redo;
  $("restart").disabled = current.moves.length === 0 || lastIsRestart;
  $("hint").hidden = !can("hints");
  $("check").hidden = !can("checker");
  $("check").disabled = over;
  $("hint").disabled = over || page.thinking;
  // A greyed-out Hint or Solve says why on hover (and `h` says it in the status area).
  const why = whyNoHelp();
  $("hint").title = why ? `No hint: ${why}` : "Hint (h)";
  $("solve").title = why ? `No solution: ${why}` : "Solve (s)";
  $("aimove").hidden = card.ai_levels.length === 0;
  $("aimove").disabled = over || page.thinking;
  $("solve").hidden = !can("solver");
  $("solve").disabled = over;
  const allAi = current.seats.length > 0 && current.seats.every((s) => s !== PERSON);
  $("pause").hidden = !allAi;
  $("pause").textContent = page.paused ? "Resume" : "Pause";
  $("pause").classList.toggle("active", page.paused);
}

export function showNotice(message, kind = "error") {
  const notice = $("notice");
  notice.textContent = message;
  notice.classList.toggle("info", kind === "info");
  notice.hidden = false;
  clearTimeout(page.noticeTimer);
  page.noticeTimer = setTimeout(() => { notice.hidden = true; }, 8000);
}

// Words about the position (a hint's, a check's, "Stopped."): a line of the status area
// under the status words, never over them or the board, until the position or the game
// changes. The notice at the top is for errors.
export function say(text, kind = "info") {
  const line = $("status-note");
  line.textContent = text;
  line.classList.toggle("warn", kind === "warn");
  line.hidden = !text;
}

export function unsay() {
  $("status-note").hidden = true;
  $("status-note").textContent = "";
}

// What a hint is about: the game and its position in it (undo and redo move the cursor).
function positionKey(payload) {
  return payload ? `${payload.session}|${payload.positions}|${payload.cursor}|${payload.moves.length}` : "";
}

// Why Hint and Solve do nothing now, or null when they can work.
export function whyNoHelp() {
  const status = page.current?.status;
  if (!status?.over) return null;
  return status.kind === "lost" ? "this is a dead end (undo or restart)" : "the game is over";
}

export function setThinking(value, label = "AI is thinking…") {
  page.thinking = value;
  $("status").classList.toggle("busy", value);
  // Idle, it is laid out unseen (the line keeps one height); nothing to cancel before a game.
  $("cancel-thinking").hidden = value && !page.current;
  $("thinking").textContent = label;
  if (page.board) page.board.setEnabled(!value && seatToMove() === PERSON);
  if (page.current) updateButtons();
}

// A position of the replay or of a solution, drawn by the game's renderer; no move from it.
// `preview`: the renderer keeps nothing of it (no level marked solved, no win drawn).
export function drawPosition(view, text) {
  page.board.render(view, { preview: true });
  page.board.setEnabled(false);
  $("status-text").textContent = text;
  $("gameover").hidden = true;
  $("status").classList.remove("over");
  $("swatch").hidden = true;
  $("ai-note").classList.add("stale");  // the note is about the current position
  page.hintMove = null;  // and so is a hint: back from here, it is gone
  unsay();
}

export function showClock() {
  const wanted = isPuzzle() && !page.link && (saved("clock") ?? true);
  $("clock").hidden = !wanted;
}
