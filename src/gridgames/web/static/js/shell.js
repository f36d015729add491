// The game page, the same for every game: it asks the server for a session, draws the view
// with the game's renderer, and sends moves and commands. No game rule lives here.
import { api, passing } from "./api.js";
import { loadRenderer } from "./renderers.js";
import { initTheme, toggleTheme } from "./theme.js";
import { OnlineTable, renderBar, showLinks } from "./online.js";
import { forgetGame, noteGame } from "./unfinished.js";
import { createClock } from "./clock.js";
import { noteResult, renderStats, resetStats } from "./stats.js";
import { createReplay } from "./replay.js";

const $ = (id) => document.getElementById(id);
const gameName = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const AI_PAUSE_MS = 450;      // between two AI moves, so that a person can follow
const PERSON = "person";

let card = null;        // the game's description from /api/v1/games
let renderer = null;    // the game's renderer module (docs/adding-a-game.md)
let current = null;     // the last payload from the server
let board = null;       // the renderer's board object
let boardKind = null;
let hintMove = null;
let paused = false;
let token = 0;          // bumps on every action, so that late AI answers are dropped
let thinking = false;
let table = null;       // online: the link this page holds (online.js), else null
let clock = null;       // the puzzle's elapsed-time clock (clock.js)
let replay = null;      // the move list and the stepper (replay.js)
const RETRY_MS = [500, 1000, 2000, 4000, 8000];  // waits between tries when the server is gone

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
  [["m"], "Replay: step through the moves (← →, Esc leaves)", () => replay.toggle()],
  [["t"], "Statistics", () => openStats()],
  [["?"], "This help", () => openHelp()],
];

function keyLabel(key) {
  return key.length === 1 && key !== key.toLowerCase() ? `Shift+${key}` : key;
}

// --- starting ---

async function start() {
  initTheme($("theme"));
  document.body.dataset.game = gameName;
  try {
    const cards = await api("GET", "/api/v1/games");
    card = cards.find((c) => c.name === gameName);
  } catch (error) {
    showNotice(`Cannot load the games: ${error.message}`);
    return;
  }
  try {
    renderer = await loadRenderer(gameName);
  } catch (error) {
    showNotice(`Cannot load this game's board: ${error.message}`);
    return;
  }
  $("title").textContent = card.title;
  document.title = `${card.title} · gridgames`;
  clock = createClock($("clock"));
  replay = createReplay({ draw: drawPosition, leave: () => { if (current) show(current, {}); },
    act: (method, path, body) => act(method, path, body, { animate: false }), notice: showNotice });
  $("moves-box").open = window.matchMedia("(min-width: 900px) and (min-height: 500px)").matches;
  wireControls();
  const query = new URLSearchParams(location.search);
  if (query.get("link")) {  // a seat's or a spectator's link to an online game
    if (await openLink(query.get("link"))) return;
  }
  if (query.get("session")) {  // the game this page was showing: on the server, if it still is
    try {
      show(await api("GET", `/api/v1/sessions/${encodeURIComponent(query.get("session"))}`), {});
      return;
    } catch (error) {
      if (error.status !== 404) {
        showNotice(`Cannot load this game: ${error.message}`);
        return;
      }
      forgetGame(query.get("session"));
      showNotice(query.get("id") ? "This game is no longer kept on the server (games nobody plays for a while are removed): here it is again from its moves."
        : "This game is no longer kept on the server (games nobody plays for a while are removed). Here is a new game.", "info");
    }
  }
  if (query.get("id")) {
    try {
      await openSession({ id: query.get("id"), moves: splitMoves(query.get("moves")), seats: parseSeats(query.get("seats")) });
      return;
    } catch (error) {
      showNotice(`This link could not be opened (${error.message}). Here is a new game instead.`);
    }
  }
  await openSession({ game: gameName, params: saved("params") || "",
    seats: parseSeats(query.get("seats")) || saved("seats") || defaultSeats() });
}

async function openLink(token) {
  const link = new OnlineTable(token, {
    onState: (payload) => show(payload, { animate: true }),
    onStatus: (text) => { $("live").hidden = text === "live"; $("live").textContent = text; },
  });
  try {
    table = link;
    show(await link.load(), {});
    buildHelp();
    setInterval(() => { if (current?.online) renderOnline(); }, 1000);  // the countdowns
    return true;
  } catch (error) {
    table = null;
    link.closed = true;
    forgetGame(`link:${token}`);
    showNotice(`This link leads to no game (${error.message}). Here is a new game.`);
    return false;
  }
}

// Alone at a two-player game, a person most often wants an opponent: the AI's middle level.
function defaultSeats() {
  if (card.players < 2 || card.ai_levels.length === 0) return undefined;
  return [PERSON, card.default_ai_level];
}

// What the game can do besides its rules: "ai", "solver", "hints", "checker", "analyzer"...
function can(capability) {
  return card.capabilities.includes(capability);
}

// Some games take a second or two to make (graded 2mino boards): say so meanwhile.
async function openSession(body) {
  token++;
  hintMove = null;
  setThinking(false);
  const slow = setTimeout(() => setThinking(true, "Making a new game…"), 300);
  let payload;
  try {
    payload = await api("POST", "/api/v1/sessions", body);
  } finally {
    clearTimeout(slow);
    if (thinking) setThinking(false);
  }
  show(payload, {});
  return payload;
}

function splitMoves(text) {
  return text ? text.split(" ").filter(Boolean) : [];
}

function parseSeats(text) {
  return text ? text.split(",") : undefined;
}

function saved(key) {
  try { return JSON.parse(localStorage.getItem(`gridgames-${gameName}-${key}`)); } catch { return null; }
}

function remember(key, value) {
  localStorage.setItem(`gridgames-${gameName}-${key}`, JSON.stringify(value));
}

// --- showing a payload ---

function show(payload, { animate = false } = {}) {
  if (table && payload.online) {  // online: never an older position after a newer one
    if (table.isOlder(payload)) return;
    table.take(payload);
  }
  if (replay.active) replay.close(false);
  const before = current;
  current = payload;
  const view = payload.view;
  const fresh = !board || boardKind !== view.kind;
  if (fresh) {
    board?.destroy?.();
    board = renderer.createBoard($("board"), {
      onMove: playMove, toolbar: $("game-controls"),
      onNewGame: (params) => newGame(params).catch((e) => showNotice(e.message)),
      fetchAnalysis: can("analyzer") ? () => api("GET", `/api/v1/sessions/${current.session}/analysis`) : null,
    });
    boardKind = view.kind;
    // The page's layout follows the board's shape (docs/adding-a-game.md: `layout`).
    if (board.layout) document.body.dataset.layout = board.layout;
    else delete document.body.dataset.layout;
  }
  board.render(view, { animate, hintMove });
  if (fresh) buildHelp();
  renderOnline();
  const status = payload.status;
  $("status-text").textContent = status.message;
  const swatchPlayer = status.over ? status.winner : payload.to_move;
  $("swatch").hidden = swatchPlayer === null || swatchPlayer === undefined;
  $("swatch").style.background = `var(--p${swatchPlayer})`;
  showResult(payload, before?.session === payload.session);
  $("gameover").hidden = !status.over;
  $("gameover-text").textContent = status.message;
  $("status").classList.toggle("over", status.over);  // the banner says it, in the words' place
  announce(before, payload);
  updateButtons();
  updateUrl();
  noteGame(payload);
  clock.follow(payload, isPuzzle() && !table);
  showClock();
  replay.renderList(payload);
  // A game counts in the statistics when this page saw it end.
  if (status.over && before?.session === payload.session && !before.status.over) {
    noteResult(gameName, payload, { players: card.players, scoreOrder: card.score_order, ms: clock.ms });
  }
  board.setEnabled(!thinking && seatToMove() === PERSON);
  scheduleAi();
}

// Screen readers hear each move and what follows ("X played a1. It's O's turn"), and any
// other change of the status line; the status line itself is not a live region, so that
// nothing is said twice (nor its clock every second).
function announce(before, payload) {
  const said = $("announce");
  if (!before) return;
  if (before.session !== payload.session || before.seed_id !== payload.seed_id) {
    said.textContent = `New game. ${payload.status.message}`;
    return;
  }
  const last = payload.moves[payload.moves.length - 1];
  const moved = payload.moves.length === before.moves.length + 1 && last && !last.startsWith("!");
  const mover = card.players > 1 ? payload.player_names[before.to_move] : null;
  const move = moved ? `${mover ? `${mover} played` : "Played"} ${last}. ` : "";
  const text = move + payload.status.message;
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
  const who = payload.ai_move ? `AI (${payload.ai_level}) played ${payload.ai_move}` : "Solution";
  note.textContent = `${who}: ${result.words}`;
  note.title = result.note || "";
}

function seatToMove() {
  if (table) {  // online: only on this page's own turn
    const you = current?.online?.you;
    return you !== null && you !== undefined && current.to_move === you && !current.status.over ? PERSON : null;
  }
  if (!current || current.to_move === null || current.to_move === undefined) return current && !current.status.over ? PERSON : null;
  return current.seats[current.to_move];
}

function renderOnline() {
  if (!current) return;
  renderBar($("online"), current, table, {
    names: current.player_names,
    actions: {
      claim: () => linkAction("claim"),
      withdraw: () => linkAction("withdraw"),
      reply: (kind, accept) => linkAction("reply", { kind, accept }),
    },
  });
}

function updateButtons() {
  const over = current.status.over;
  const linked = Boolean(table);
  const playing = linked && current.online?.you !== null && current.online?.you !== undefined;
  for (const id of ["redo", "restart", "hint", "check", "aimove", "solve", "pause", "settings"]) {
    $(id).classList.toggle("online-hidden", linked);
  }
  $("undo").classList.toggle("online-hidden", linked && !playing);
  $("new").classList.toggle("online-hidden", linked && !playing);
  $("game-controls").classList.toggle("online-hidden", linked);  // e.g. analysis: not online
  $("again").classList.toggle("online-hidden", linked && !playing);
  $("again").textContent = linked ? "Rematch" : "Play again";
  $("undo").textContent = linked ? "Takeback" : "Undo";
  $("new").textContent = linked ? "Rematch" : "New game";
  $("draw").hidden = !playing || over;
  $("resign").hidden = !playing || over;
  $("play-online").hidden = linked || card.players !== 2 || over;
  $("share").hidden = linked || card.players === 2;
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
  $("hint").disabled = over || thinking;
  $("aimove").hidden = card.ai_levels.length === 0;
  $("aimove").disabled = over || thinking;
  $("solve").hidden = !can("solver");
  $("solve").disabled = over;
  const allAi = current.seats.length > 0 && current.seats.every((s) => s !== PERSON);
  $("pause").hidden = !allAi;
  $("pause").textContent = paused ? "Resume" : "Pause";
  $("pause").classList.toggle("active", paused);
}

function updateUrl() {
  if (table) {
    history.replaceState(null, "", `${location.pathname}?link=${encodeURIComponent(table.token)}`);
    return;
  }
  const query = new URLSearchParams({ session: current.session, id: current.id });
  if (current.moves.length) query.set("moves", current.moves.join(" "));
  if (current.seats.some((s) => s !== PERSON)) query.set("seats", current.seats.join(","));
  history.replaceState(null, "", `${location.pathname}?${query}`);
}

let noticeTimer = null;
function showNotice(message, kind = "error") {
  const notice = $("notice");
  notice.textContent = message;
  notice.classList.toggle("info", kind === "info");
  notice.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { notice.hidden = true; }, 8000);
}

function setThinking(value, label = "AI is thinking…") {
  thinking = value;
  $("status").classList.toggle("busy", value);
  // Idle, it is laid out unseen (the line keeps one height); nothing to cancel before a game.
  $("cancel-thinking").hidden = value && !current;
  $("thinking").textContent = label;
  if (board) board.setEnabled(!value && seatToMove() === PERSON);
  if (current) updateButtons();
}

// --- actions ---

// Actions go to the server one at a time, in the order the person made them: keys pressed
// faster than the server answers are queued, and an older answer never overwrites a newer one.
let actions = Promise.resolve();

function act(method, path, body, options = { animate: true }) {
  token++;
  hintMove = null;
  setThinking(false);
  const run = async () => {
    try {
      show(await sendReliably(method, path, body), options);
      return true;
    } catch (error) {
      showNotice(error.message);
      return false;
    }
  };
  const done = actions.then(run);
  actions = done;
  return done;
}

// A change sent while the server cannot be reached or cannot answer now (a dropped
// connection, a restart, its database gone for a while: 502-504) is tried again until it
// can, saying "reconnecting…", waiting at least what the server asked (Retry-After); the
// actions after it wait in the queue.
// Before each new try the page asks whether the game already took it (the answer may be
// what was lost), so that a move is never made twice.
async function sendReliably(method, path, body) {
  const session = current?.session;
  const mark = current && `${current.positions}/${current.cursor}/${current.seats.join()}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await api(method, path, body);
      reconnecting(false);
      return answer;
    } catch (error) {
      if (!passing(error) || table) throw error;
      reconnecting(true);
      const wait = Math.max(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)], error.retryAfter * 1000);
      await new Promise((done) => setTimeout(done, wait));
      if (!session || method === "GET") continue;
      try {
        const now = await api("GET", `/api/v1/sessions/${session}`);
        reconnecting(false);
        if (`${now.positions}/${now.cursor}/${now.seats.join()}` !== mark) return now;
      } catch (again) {
        if (!passing(again)) throw again;
      }
    }
  }
}

function reconnecting(on) {
  if (table) return;  // online pages say it from their live connection
  $("live").hidden = !on;
  $("live").textContent = on ? "reconnecting…" : "";
}

function playMove(move) {
  if (!current || thinking) return;
  if (table) {
    act("POST", table.path("move"), { move });
    return;
  }
  act("POST", `/api/v1/sessions/${current.session}/move`, { move });
}

function command(name) {
  if (!current) return;
  if (table) {  // online: an undo is a takeback the opponent accepts
    if (name === "undo" && !$("undo").disabled) linkAction("offer", { kind: "takeback" });
    return;
  }
  if (name === "undo" && !current.can_undo && gameBefore()) {
    returnToGameBefore();
    return;
  }
  act("POST", `/api/v1/sessions/${current.session}/${name}`, undefined, { animate: name !== "undo" });
}

// New game keeps an unfinished game: the new one remembers it (for this tab), Undo at the
// new game's start returns to it, and the home page's "continue" list keeps it meanwhile.
function gameBefore() {
  if (!current?.session) return null;
  try { return sessionStorage.getItem(`gridgames-before-${current.session}`); } catch { return null; }
}

async function returnToGameBefore() {
  const before = gameBefore();
  try { sessionStorage.removeItem(`gridgames-before-${current.session}`); } catch { /* off */ }
  try {
    show(await sendReliably("GET", `/api/v1/sessions/${encodeURIComponent(before)}`), {});
    showNotice("Back to the game you were playing.", "info");
  } catch (error) {
    showNotice(error.status === 404 ? "That game is no longer kept on the server." : error.message);
    updateButtons();
  }
}

// Solve: the server's solution, shown step by step (Next, Previous, Play); Apply plays it.
function showSolution() {
  if (!current || table || !can("solver") || current.status.over) return;
  ask("solution", (answer) => replay.openSolution(answer));
}

// A position of the replay or of a solution, drawn by the game's renderer; no move from it.
function drawPosition(view, text) {
  board.render(view, {});
  board.setEnabled(false);
  $("status-text").textContent = text;
  $("gameover").hidden = true;
  $("status").classList.remove("over");
  $("swatch").hidden = true;
  $("ai-note").classList.add("stale");  // the note is about the current position
}

function isPuzzle() {
  return card.players === 1;
}

function showClock() {
  const wanted = isPuzzle() && !table && (saved("clock") ?? true);
  $("clock").hidden = !wanted;
}

function openStats() {
  fillStats();
  $("stats-dialog").showModal();
}

function fillStats() {
  $("stats-confirm").hidden = true;
  renderStats($("stats-body"), gameName, { players: card.players, scoreOrder: card.score_order });
}

// The picture is the game as it stands, drawn only while the help is open (so that the
// page holds one board's marks at a time).
function openHelp() {
  buildHelp();
  const picture = $("help-picture");
  picture.textContent = "";
  if (current) {
    try { renderer.drawPreview(picture, current.view); } catch { picture.textContent = ""; }
  }
  $("help-dialog").showModal();
}

async function newGame(params = null, seats = null) {
  if (table) {  // online: a rematch, once the game is over
    if (!$("new").disabled) linkAction("offer", { kind: "rematch" });
    return current;
  }
  const kept = current && !current.status.over && current.moves.length > 0 ? current.session : null;
  const payload = await openSession({ game: gameName, params: params ?? current?.params ?? "", seats: seats ?? current?.seats });
  if (kept) {
    try { sessionStorage.setItem(`gridgames-before-${payload.session}`, kept); } catch { /* off */ }
    updateButtons();
    showNotice("Your unfinished game is kept: Undo (u) returns to it, and the home page lists it.", "info");
  }
  return payload;
}

// Online: an action of this page's seat, through its link.
function linkAction(action, body) {
  if (!table) return Promise.resolve(false);
  return act("POST", table.path(action), body, { animate: false });
}

// Play online: the game gets a link per seat and one for spectators; this page takes the
// seat of the person playing here (the first, when both are people).
async function playOnline() {
  if (table || !current || card.players !== 2 || current.status.over) return;
  const seat = Math.max(0, current.seats.indexOf(PERSON));
  try {
    const answer = await api("POST", `/api/v1/sessions/${current.session}/online`, { seat });
    const token = new URL(answer.links.you, location.href).searchParams.get("link");
    forgetGame(current.session);
    await openLink(token);
    $("links-title").textContent = "Play online";
    $("links-help").textContent = "Send the first link to your opponent: whoever opens it plays the other side. Anyone with the second link can watch.";
    showLinks($("links-dialog"), [["Opponent's link", answer.links.opponent], ["Spectators' link", answer.links.watch]]);
  } catch (error) {
    showNotice(error.message);
  }
}

// Share: a link to watch this game live (puzzles too); it changes nothing.
async function shareWatch() {
  if (table || !current) return;
  try {
    const answer = await api("POST", `/api/v1/sessions/${current.session}/watch`);
    $("links-title").textContent = "Share";
    $("links-help").textContent = "Anyone with this link sees every move you make, live. It cannot change the game.";
    showLinks($("links-dialog"), [["Spectators' link", answer.watch]]);
  } catch (error) {
    showNotice(error.message);
  }
}

// Ask the server something about the position (a hint, a check) with the thinking
// indicator on; the answer is dropped when the game moved on meanwhile.
async function ask(path, onAnswer) {
  const mine = token;
  setThinking(true, "Thinking…");
  try {
    const answer = await api("GET", `/api/v1/sessions/${current.session}/${path}`);
    if (mine !== token) return;
    setThinking(false);
    onAnswer(answer);
  } catch (error) {
    if (mine === token) setThinking(false);
    showNotice(error.message);
  }
}

function showHint() {
  if (!current || !can("hints") || current.status.over) return;
  ask("hint", (answer) => {
    hintMove = answer.hint;
    board.render(current.view, { hintMove });
    // The move, and why where the game can say (2mino's deductions, Polar's plan...).
    if (hintMove) showNotice(`Hint: ${answer.why && answer.why.includes(hintMove) ? answer.why : `${hintMove}${answer.why ? ` — ${answer.why}` : ""}`} (${answer.result.words})`, "info");
    else showNotice(answer.why ? `No hint: ${answer.why}` : "No hint: there is no solution from here. Undo or restart.");
  });
}

// Check: the server lists the moves no solution agrees with; the board marks them.
function runCheck() {
  if (!current || !can("checker") || current.status.over) return;
  ask("check", (answer) => {
    board.render(current.view, { marks: answer.wrong });
    const wrong = answer.wrong.length;
    showNotice(wrong ? `${wrong} bar(s) agree with no solution: ${answer.wrong.join(", ")}` : "No mistakes so far.", wrong ? "error" : "info");
  });
}

// The AI's move comes from the server; the page stays live while it thinks.
async function aiMove(asked = false) {
  if (!current || current.status.over || thinking) return;
  const mine = ++token;
  hintMove = null;
  setThinking(true);
  try {
    const payload = await api("POST", `/api/v1/sessions/${current.session}/ai`, {});
    if (mine !== token) return;
    setThinking(false);
    show(payload, { animate: true });
  } catch (error) {
    if (mine !== token) return;
    setThinking(false);
    if (asked || error.status !== 409) showNotice(error.message);
  }
}

let aiTimer = null;
function scheduleAi() {
  clearTimeout(aiTimer);
  const seat = seatToMove();
  if (!current || current.status.over || paused || seat === null || seat === PERSON) return;
  const allAi = current.seats.every((s) => s !== PERSON);
  const mine = token;
  aiTimer = setTimeout(() => { if (mine === token) aiMove(); }, allAi ? AI_PAUSE_MS : 150);
}

function togglePause() {
  paused = !paused;
  updateButtons();
  if (!paused) scheduleAi();
}

// --- controls, settings, help, keys ---

// Cancel: the server stops the computation (its CPU is free within a second); the answer,
// if any arrives, is dropped.
async function cancelThinking() {
  if (!thinking || !current) return;
  token++;
  setThinking(false);
  // AI against AI: stay paused (Resume goes on); against a person, "AI move" asks again.
  if (current.seats.every((s) => s !== PERSON)) paused = true;
  clearTimeout(aiTimer);
  updateButtons();
  try {
    await api("POST", `/api/v1/sessions/${current.session}/cancel`);
    showNotice("Stopped.", "info");
  } catch (error) {
    showNotice(error.message);
  }
}

function wireControls() {
  $("cancel-thinking").addEventListener("click", cancelThinking);
  $("notice").addEventListener("click", () => { $("notice").hidden = true; });
  $("play-online").addEventListener("click", playOnline);
  $("share").addEventListener("click", shareWatch);
  $("draw").addEventListener("click", () => linkAction("offer", { kind: "draw" }));
  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) linkAction("resign"); });
  $("new").addEventListener("click", () => newGame().catch((e) => showNotice(e.message)));
  $("again").addEventListener("click", () => newGame().catch((e) => showNotice(e.message)));
  $("undo").addEventListener("click", () => command("undo"));
  $("redo").addEventListener("click", () => command("redo"));
  $("restart").addEventListener("click", () => command("restart"));
  $("hint").addEventListener("click", showHint);
  $("check").addEventListener("click", runCheck);
  $("aimove").addEventListener("click", () => aiMove(true));
  $("solve").addEventListener("click", showSolution);
  $("stats").addEventListener("click", openStats);
  $("stats-reset").addEventListener("click", () => { $("stats-confirm").hidden = false; $("stats-reset-no").focus(); });
  $("stats-reset-no").addEventListener("click", () => { $("stats-confirm").hidden = true; });
  $("stats-reset-yes").addEventListener("click", () => { resetStats(gameName); fillStats(); $("stats-reset").focus(); });
  $("show-clock").addEventListener("change", (event) => { remember("clock", event.target.checked); showClock(); });
  $("pause").addEventListener("click", togglePause);
  $("settings").addEventListener("click", openSettings);
  $("help").addEventListener("click", openHelp);
  // The close event comes a task later: by then the panel may have been opened again.
  $("help-dialog").addEventListener("close", () => {
    if (!$("help-dialog").open) $("help-picture").textContent = "";
  });
  $("start-new").addEventListener("click", startFromSettings);
  $("apply-seats").addEventListener("click", applySeats);
  document.addEventListener("keydown", onKey);
}

function openSettings() {
  const params = Object.fromEntries((current?.params || "").split(",").filter(Boolean).map((p) => p.split("=")));
  const fields = $("params-fields");
  fields.querySelectorAll("label").forEach((l) => l.remove());
  fields.hidden = card.params.length === 0;
  for (const p of card.params) {
    const label = document.createElement("label");
    label.textContent = p.help ? `${p.name} (${p.help})` : p.name;
    let input;
    if (p.choices) {
      input = document.createElement("select");
      for (const choice of p.choices) input.add(new Option(choice, choice));
    } else {
      input = document.createElement("input");
      input.type = "number";
      if (p.lo !== undefined) input.min = p.lo;
      if (p.hi !== undefined) input.max = p.hi;
    }
    input.name = p.name;
    input.value = params[p.name] ?? p.default;
    label.appendChild(input);
    fields.appendChild(label);
  }
  const seats = $("seat-fields");
  seats.querySelectorAll("label").forEach((l) => l.remove());
  seats.hidden = card.players < 2 || card.ai_levels.length === 0;
  card.player_names.forEach((player, index) => {
    const label = document.createElement("label");
    label.textContent = `${player} is played by`;
    const select = document.createElement("select");
    select.name = `seat${index}`;
    select.add(new Option("a person", PERSON));
    for (const level of card.ai_levels) select.add(new Option(`the AI (${level})`, level));
    select.value = current?.seats[index] ?? PERSON;
    label.appendChild(select);
    seats.appendChild(label);
  });
  $("apply-seats").hidden = seats.hidden;
  $("page-fields").hidden = !isPuzzle() || Boolean(table);
  $("show-clock").checked = saved("clock") ?? true;
  $("settings-error").textContent = "";
  $("settings-dialog").showModal();
}

function settingsValues() {
  const form = $("settings-form");
  const params = card.params.map((p) => `${p.name}=${form.elements[p.name].value}`).join(",");
  const seats = card.players > 1 && card.ai_levels.length ? card.player_names.map((_, i) => form.elements[`seat${i}`].value) : undefined;
  return { params, seats };
}

async function startFromSettings() {
  const { params, seats } = settingsValues();
  try {
    await newGame(params, seats);
    remember("params", params);
    if (seats) remember("seats", seats);
    $("settings-dialog").close();
  } catch (error) {
    $("settings-error").textContent = error.message;
  }
}

async function applySeats() {
  const { seats } = settingsValues();
  if (await act("PUT", `/api/v1/sessions/${current.session}/seats`, { seats }, {})) {
    remember("seats", seats);
    $("settings-dialog").close();
  }
}

// The help: the game's rules (from the server) beside a small picture of this game, and
// exactly the keys that work on this page now.
function buildHelp() {
  $("help-rules").textContent = card.rules;
  const keys = $("keys");
  keys.textContent = "";
  const linked = Boolean(table);
  const hidden = { "Solve: see the solution step by step, then apply it": !can("solver") || linked,
    Check: !can("checker") || linked,
    "AI move": card.ai_levels.length === 0 || linked, Redo: linked, Restart: linked,
    "Pause or resume the AIs": card.ai_levels.length === 0 || linked, Hint: !can("hints") || linked,
    Settings: linked, "Play online": card.players !== 2 || linked,
    "Share a link to watch": card.players === 2 || linked,
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

function onKey(event) {
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  if (replay?.active && !event.ctrlKey && !event.altKey && !event.metaKey) {
    // Stepping: the stepper's keys; of the rest only help, theme and statistics.
    if (replay.key(event.key)) {
      event.preventDefault();
      return;
    }
    if (!["?", "d", "D", "t"].includes(event.key)) return;
  }
  if (event.key === "Escape" && thinking) {
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
  if (board && !thinking && seatToMove() === PERSON && board.pressKey(event.key)) {
    event.preventDefault();
    return;
  }
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (arrows[event.key] && board) {
    board.moveCursor(...arrows[event.key]);
    event.preventDefault();
    return;
  }
  if ((event.key === "Enter" || event.key === " ") && !(target instanceof HTMLButtonElement)) {
    if (board && !thinking) board.activate();
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

start();
