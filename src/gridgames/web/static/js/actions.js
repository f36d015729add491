// Changes the page sends to the server: moves, commands, new games. They go one at a time,
// in the order the person made them, and are tried again while the server cannot be reached.
import { api, passing } from "./api.js";
import { $, daily, gameName, page } from "./page.js";
import { say, setThinking, show, showNotice, unsay, updateButtons } from "./show.js";
import { linkAction } from "./linked.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000];  // waits between tries when the server is gone

// Keys pressed faster than the server answers are queued, and an older answer never
// overwrites a newer one.
export function act(method, path, body, options = { animate: true }) {
  page.token++;
  page.hintMove = null;
  unsay();  // the hint's words go with its mark
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
  const done = page.actions.then(run);
  page.actions = done;
  return done;
}

// A change sent while the server cannot be reached or cannot answer now (a dropped
// connection, a restart, its database gone for a while: 502-504) is tried again until it
// can, saying "reconnecting…", waiting at least what the server asked (Retry-After); the
// actions after it wait in the queue.
// Before each new try the page asks whether the game already took it (the answer may be
// what was lost), so that a move is never made twice.
async function sendReliably(method, path, body) {
  const current = page.current;
  const session = current?.session;
  const mark = current && `${current.positions}/${current.cursor}/${current.seats.join()}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await api(method, path, body);
      reconnecting(false);
      return answer;
    } catch (error) {
      if (!passing(error) || page.link) throw error;
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
  if (page.link) return;  // online pages say it from their live connection
  $("live").hidden = !on;
  $("live").textContent = on ? "reconnecting…" : "";
}

export function playMove(move) {
  const { current, link } = page;
  if (!current || page.thinking) return;
  if (link) {
    act("POST", link.path("move"), { move });
    return;
  }
  act("POST", `/api/v1/sessions/${current.session}/move`, { move });
}

export function command(name) {
  const current = page.current;
  if (!current) return;
  if (page.link) {  // online: an undo is a takeback the opponent accepts
    if (name === "undo" && !$("undo").disabled) linkAction("offer", { kind: "takeback" });
    return;
  }
  if (name === "undo" && !current.can_undo && gameBefore()) {
    returnToGameBefore();
    return;
  }
  act("POST", `/api/v1/sessions/${current.session}/${name}`, undefined, { animate: name !== "undo" });
}

// Some games take a second or two to make (graded 2mino boards): say so meanwhile.
export async function openSession(body) {
  page.token++;
  page.hintMove = null;
  setThinking(false);
  const slow = setTimeout(() => setThinking(true, "Making a new game…"), 300);
  let payload;
  try {
    payload = await api("POST", "/api/v1/sessions", body);
  } finally {
    clearTimeout(slow);
    if (page.thinking) setThinking(false);
  }
  show(payload, {});
  return payload;
}

// New game keeps an unfinished game: the new one remembers it (for this tab), Undo at the
// new game's start returns to it, and the home page's "continue" list keeps it meanwhile.
export async function newGame(params = null, seats = null) {
  const current = page.current;
  if (page.link) {  // online: a rematch, once the game is over
    if (!$("new").disabled) linkAction("offer", { kind: "rematch" });
    return current;
  }
  if (daily) {  // a daily's page plays the daily: a new game is the game's own page's
    location.assign(`/play/${encodeURIComponent(gameName)}`);
    return current;
  }
  const kept = current && !current.status.over && current.moves.length > 0 ? current.session : null;
  const payload = await openSession({ game: gameName, params: params ?? current?.params ?? "", seats: seats ?? current?.seats });
  if (kept) {
    try { sessionStorage.setItem(`gridgames-before-${payload.session}`, kept); } catch { /* off */ }
    updateButtons();
    say("Your unfinished game is kept: Undo (u) returns to it, and the home page lists it.");
  }
  return payload;
}

export function gameBefore() {
  if (!page.current?.session) return null;
  try { return sessionStorage.getItem(`gridgames-before-${page.current.session}`); } catch { return null; }
}

async function returnToGameBefore() {
  const before = gameBefore();
  try { sessionStorage.removeItem(`gridgames-before-${page.current.session}`); } catch { /* off */ }
  try {
    show(await sendReliably("GET", `/api/v1/sessions/${encodeURIComponent(before)}`), {});
    say("Back to the game you were playing.");
  } catch (error) {
    showNotice(error.status === 404 ? "That game is no longer kept on the server." : error.message);
    updateButtons();
  }
}
