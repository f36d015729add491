// The home page: one card per game with a live preview (a short machine-played game drawn
// by the game's own renderer, looping).
import { api } from "./api.js";
import { loadRenderer } from "./renderers.js";
import { initTheme, toggleTheme } from "./theme.js";
import { registerServiceWorker } from "./install.js";
import { ago, forgetGame, gameUrl, unfinishedGames } from "./unfinished.js";
import { dailyResult, dailyStreak } from "./daily.js";
import { mountLobby } from "./lobby.js";

const STEP_MS = 900;
// A player who asks for less motion sees each preview's final position, still; a hidden
// page draws nothing (a phone's battery).
const STILL = window.matchMedia("(prefers-reduced-motion: reduce)");

async function start() {
  initTheme(document.getElementById("theme"));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement) return;  // typing a name
    if (event.key === "d" && !event.ctrlKey && !event.metaKey && !event.altKey) toggleTheme();
  });
  const list = document.getElementById("games");
  let cards;
  try {
    cards = await api("GET", "/api/v1/games");
  } catch (error) {
    list.textContent = `Cannot load the games: ${error.message}`;
    return;
  }
  showUnfinished();
  showDaily();
  mountLobby(document.getElementById("lobby"), cards);
  for (const card of cards) {
    const item = document.createElement("li");
    item.className = "card";
    item.dataset.game = card.name;
    item.innerHTML = `<a class="preview" href="/play/${card.name}" aria-label="Play ${card.title}"></a>
      <h2></h2><p></p><a class="play-link" href="/play/${card.name}">Play</a>`;
    item.querySelector("h2").textContent = card.title;
    item.querySelector("p").textContent = card.summary;
    list.appendChild(item);
    animatePreview(item.querySelector(".preview"), card.name);
  }
}

async function animatePreview(container, name) {
  let views, renderer;
  try {
    [views, renderer] = await Promise.all([
      api("GET", `/api/v1/games/${name}/demo`).then((answer) => answer.views), loadRenderer(name)]);
  } catch {
    return;
  }
  let frame = 0;
  const draw = () => {
    if (STILL.matches) frame = views.length - 1;
    const view = views[Math.min(frame, views.length - 1)];
    renderer.drawPreview(container, view);
    frame = (frame + 1) % (views.length + 3);  // rest on the final position for a while
  };
  draw();
  setInterval(() => { if (!document.hidden && !STILL.matches) draw(); }, STEP_MS);
  STILL.addEventListener("change", draw);
}

// The daily puzzles of today (the server's date, UTC) or of the day chosen, each marked
// when this browser solved it; the streak.
async function showDaily(day) {
  let listing;
  const said = document.getElementById("daily-date");
  try {
    listing = await api("GET", day ? `/api/v1/daily/${day}` : "/api/v1/daily");
  } catch (error) {
    if (!day) return;  // no daily section: the games are there
    said.textContent = error.message;
    return;
  }
  const section = document.getElementById("daily");
  section.hidden = false;
  // Earlier days, one at a time (any date's link also opens its puzzles).
  const before = document.getElementById("daily-before");
  const after = document.getElementById("daily-after");
  before.onclick = () => showDaily(shiftDay(listing.date, -1));
  after.onclick = () => showDaily(shiftDay(listing.date, 1));
  after.disabled = listing.date >= listing.today;
  const when = new Date(`${listing.date}T00:00:00Z`).toLocaleDateString(undefined,
    { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  said.textContent = listing.date === listing.today ? `Today, ${when} (UTC): the same for every player.` : `${when}: that day's puzzles.`;
  const streak = dailyStreak(undefined, listing.today);
  document.getElementById("daily-streak").textContent = streak.best
    ? `Streak: ${streak.current} day${streak.current === 1 ? "" : "s"} (best ${streak.best}).` : "";
  const list = document.getElementById("daily-list");
  list.textContent = "";
  for (const item of listing.dailies) {
    const link = document.createElement("a");
    link.href = item.page;
    link.textContent = item.title;
    const done = dailyResult(item.date, item.puzzle);
    if (done?.solved) {
      link.classList.add("solved");
      link.title = "Solved";
    }
    const entry = document.createElement("li");
    entry.appendChild(link);
    list.appendChild(entry);
  }
}

function shiftDay(date, days) {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

// This browser's unfinished games, each checked against the server.
async function showUnfinished() {
  const list = document.getElementById("unfinished");
  const games = unfinishedGames();
  document.getElementById("continue").hidden = games.length === 0;
  for (const entry of games) {
    const item = document.createElement("li");
    item.className = "card";
    item.dataset.session = entry.session;
    item.dataset.game = entry.game;
    item.innerHTML = `<a class="preview"></a><h2></h2><p class="when"></p><a class="play-link">Continue</a>`;
    item.querySelector("h2").textContent = entry.title;
    list.appendChild(item);
    let payload;
    try {
      payload = await api("GET", entry.session.startsWith("link:")
        ? `/api/v1/links/${encodeURIComponent(entry.session.slice(5))}`
        : `/api/v1/sessions/${encodeURIComponent(entry.session)}`);
    } catch (error) {
      if (error.status === 404) {
        item.classList.add("gone");
        item.querySelector(".when").textContent = "This game has gone: games nobody plays for a while are removed from the server.";
        item.querySelector(".play-link").remove();
        item.querySelector(".preview").remove();
        forgetGame(entry.session);
      } else {
        item.querySelector(".when").textContent = `Cannot check this game now (${error.message}).`;
      }
      continue;
    }
    for (const link of item.querySelectorAll("a")) link.href = gameUrl(entry);
    item.querySelector(".preview").setAttribute("aria-label", `Continue ${entry.title}`);
    const moves = payload.moves.length;
    item.querySelector(".when").textContent = `${payload.status.message} · ${moves} move${moves === 1 ? "" : "s"} · played ${ago(payload.updated_at * 1000)}`;
    loadRenderer(payload.game).then((r) => r.drawPreview(item.querySelector(".preview"), payload.view)).catch(() => {});
  }
}

start();
registerServiceWorker();
