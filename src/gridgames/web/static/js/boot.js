// Starting the game page: the game's card and renderer, then the game the address names (a
// link to an online game, a session kept on the server, a game ID with its moves) or a new
// one; and the address kept up to date, so that a reload or a shared URL finds the game.
import { api } from "./api.js";
import { $, PERSON, daily, gameName, page, saved } from "./page.js";
import { loadRenderer } from "./renderers.js";
import { initTheme } from "./theme.js";
import { forgetGame } from "./unfinished.js";
import { createClock } from "./clock.js";
import { createReplay } from "./replay.js";
import { drawPosition, show, showNotice } from "./show.js";
import { act, openSession } from "./actions.js";
import { openLink } from "./linked.js";
import { wireControls } from "./controls.js";
import { createZoom } from "./zoom.js";
import { mountLobby } from "./lobby.js";
import { keptDailyGame, loadDailyStart, offerDailyLink } from "./daily-page.js";

export async function start() {
  initTheme($("theme"));
  document.body.dataset.game = gameName;
  try {
    const cards = await api("GET", "/api/v1/games");
    page.card = cards.find((c) => c.name === gameName);
  } catch (error) {
    showNotice(`Cannot load the games: ${error.message}`);
    return;
  }
  try {
    page.renderer = await loadRenderer(gameName);
  } catch (error) {
    showNotice(`Cannot load this game's board: ${error.message}`);
    return;
  }
  const card = page.card;
  $("title").textContent = card.title;
  document.title = `${card.title} · gridgames`;
  page.clock = createClock($("clock"));
  page.replay = createReplay({ draw: drawPosition, leave: () => { if (page.current) show(page.current, {}); },
    act: (method, path, body) => act(method, path, body, { animate: false }), notice: showNotice });
  // A reload opens with the board in view, not where the page was scrolled before.
  history.scrollRestoration = "manual";
  $("moves-box").open = window.matchMedia("(min-width: 900px) and (min-height: 500px)").matches;
  page.zoom = createZoom($("board-wrap"), $("board"));
  wireControls();
  if (daily) {
    try {
      await loadDailyStart();
    } catch (error) {
      showNotice(`Cannot open this daily puzzle: ${error.message}`);
      // The server cannot now (its database is away): again when it says.
      if (error.status === 503) setTimeout(() => location.reload(), Math.max(2, error.retryAfter) * 1000);
      return;
    }
  }
  const query = new URLSearchParams(location.search);
  await openFromAddress(query);
  offerDailyLink();
  if (card.players === 2 && !query.get("link")) {  // this game's seeks, a button away
    $("lobby-open").hidden = false;
    $("lobby-open").addEventListener("click", () => $("lobby-dialog").showModal());
    mountLobby($("lobby"), [card], card.name, (count) => {
      $("lobby-count").textContent = count;
      $("lobby-count").hidden = count === 0;
    });
  }
}

async function openFromAddress(query) {
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
  if (page.daily) {  // the game this browser plays the daily in, else the day's start
    const kept = keptDailyGame();
    if (kept) {
      try {
        show(await api("GET", `/api/v1/sessions/${encodeURIComponent(kept)}`), {});
        return;
      } catch { /* gone from the server: a new game of the day's start */ }
    }
    try {
      await openSession({ id: page.daily.id, seats: page.daily.seats ?? undefined });
      return;
    } catch (error) {
      showNotice(`Cannot start this daily puzzle: ${error.message}`);
      return;
    }
  }
  const asked = parseSeats(query.get("seats"));
  if (asked) {
    try {
      await openSession({ game: gameName, params: saved("params") || "", seats: asked });
      return;
    } catch (error) {
      showNotice(`These seats could not be used (${error.message}). Here is a new game instead.`);
    }
  }
  await openNew();
}

// A new game with the settings this browser keeps; if they are refused (kept by an older
// version, say), the game's defaults.
async function openNew() {
  try {
    await openSession({ game: gameName, params: saved("params") || "", seats: saved("seats") || defaultSeats() });
    return;
  } catch (error) {
    if (!saved("params") && !saved("seats")) {
      showNotice(`Cannot start a game: ${error.message}`);
      return;
    }
  }
  try {
    await openSession({ game: gameName, params: "", seats: defaultSeats() });
  } catch (error) {
    showNotice(`Cannot start a game: ${error.message}`);
  }
}

// Alone at a two-player game, a person most often wants an opponent: the AI's middle level.
function defaultSeats() {
  const card = page.card;
  if (card.players < 2 || card.ai_levels.length === 0) return undefined;
  return [PERSON, card.default_ai_level];
}

function splitMoves(text) {
  return text ? text.split(" ").filter(Boolean) : [];
}

function parseSeats(text) {
  return text ? text.split(",") : undefined;
}

export function updateUrl() {
  const { current, link } = page;
  if (link) {
    history.replaceState(null, "", `${location.pathname}?link=${encodeURIComponent(link.token)}`);
    return;
  }
  const query = new URLSearchParams({ session: current.session, id: current.id });
  if (current.moves.length) query.set("moves", current.moves.join(" "));
  if (current.seats.some((s) => s !== PERSON)) query.set("seats", current.seats.join(","));
  history.replaceState(null, "", `${location.pathname}?${query}`);
}
