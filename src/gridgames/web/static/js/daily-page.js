// The game page as a daily puzzle's (/daily/DATE/GAME): its start from the API, the bar that
// says which daily it is, the result once it ends (kept by daily.js), and the line to share,
// copied with one tap. On any other game page: the "Daily" link to today's puzzle.
import { api } from "./api.js";
import { $, PERSON, daily, gameName, helped, page } from "./page.js";
import { dailyResult, noteDailyEnd, noteDailyGame, noteHint, puzzleKey, resultLine } from "./daily.js";

const dailyPuzzle = daily ? puzzleKey(daily.game, daily.level) : null;
const LEVELS = ["trivial", "basic", "hard", "extreme"];

function dailyPath(date, game, level) {
  return `/daily/${date}/${game}${level ? `/${level}` : ""}`;
}

// The start of this page's daily: a game ID and the seats (Polar's is made on the day's
// first request, in a second or two).
export async function loadDailyStart() {
  page.daily = await api("GET", `/api/v1${dailyPath(daily.date, daily.game, daily.level)}`);
  return page.daily;
}

// On a game page that is not a daily's: the topbar's "Daily" link to today's puzzle of this
// game (2mino's of the difficulty being played, else basic).
export async function offerDailyLink() {
  if (daily) return;
  let today;
  try {
    today = await api("GET", "/api/v1/daily");
  } catch {
    return;  // no link: the game plays on
  }
  const level = new URLSearchParams((page.current?.params || "").replaceAll(",", "&")).get("level");
  const mine = today.dailies.filter((d) => d.game === gameName);
  const chosen = mine.find((d) => d.level === level) ?? mine.find((d) => d.level === "basic") ?? mine[0];
  if (!chosen) return;
  for (const link of [$("daily-link"), $("daily-icon")]) {  // the icon: a phone held sideways
    link.href = chosen.page;
    link.title = `Today's daily: ${chosen.title}, the same for every player (${today.today}, UTC)`;
    link.hidden = false;
  }
}

// Whether a payload is the game of this page's daily (the page may show another game: one
// opened from the address, say).
export function isTheDaily(payload) {
  const start = page.daily;
  if (!start || !payload || page.link || payload.game !== start.game) return false;
  if (start.id.includes("#")) return payload.seed_id === start.id;
  const desc = (id) => id.split(":").slice(2).join(":");
  return desc(payload.id) === desc(start.id);
}

// The game this browser already plays this daily in (or finished it in), if any.
export function keptDailyGame() {
  return daily ? dailyResult(daily.date, dailyPuzzle)?.session ?? null : null;
}

// A hint or an analysis asked for in the daily's game: said in its result line.
export function countHint() {
  if (isTheDaily(page.current)) noteHint(daily.date, dailyPuzzle, page.current.session);
}

// Called with every payload the page shows: the bar, and the result when the game ends.
export function showDaily(payload, ms) {
  const bar = $("daily-bar");
  if (!daily || !page.daily) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const start = page.daily;
  const when = new Date(`${start.date}T00:00:00Z`).toLocaleDateString(undefined,
    { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  $("daily-title").textContent = `Daily · ${when}`;
  $("daily-about").textContent = start.about;
  fillLevels();
  const mine = isTheDaily(payload);
  if (mine) noteDailyGame(daily.date, dailyPuzzle, payload.session);
  let result = mine ? dailyResult(daily.date, dailyPuzzle) : null;
  if (mine && payload.status.over && !(result?.session === payload.session && result.ended)) {
    const won = payload.status.kind === "won" && !helped(payload) &&
      (page.card.players === 1 || payload.seats[payload.status.winner] === PERSON);
    result = noteDailyEnd(daily.date, dailyPuzzle, payload, { won, ms, players: page.card.players });
  }
  const done = mine && result?.ended && result.session === payload.session;
  $("daily-done").hidden = !done;
  if (!done) return;
  $("daily-line").textContent = resultLine({ title: start.title, date: start.date, result,
    scoreUnit: page.card.score_unit, players: page.card.players,
    url: `${location.origin}${start.page}` });
}

function fillLevels() {
  const box = $("daily-levels");
  if (!daily.level || box.childElementCount) return;
  box.append("Difficulty: ");
  LEVELS.forEach((level, i) => {
    if (i) box.append(" · ");
    const link = document.createElement(level === daily.level ? "strong" : "a");
    link.textContent = level;
    if (level !== daily.level) link.href = dailyPath(daily.date, daily.game, level);
    box.append(link);
  });
}

// Copy: the Clipboard API, or, where the browser refuses it, the line selected for the
// person to copy, with a word saying so.
export async function copyResult() {
  const text = $("daily-line").textContent;
  const said = $("daily-copied");
  try {
    await navigator.clipboard.writeText(text);
    said.textContent = "Copied: paste it anywhere.";
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("daily-line"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    said.textContent = "The browser did not let this page copy: the line is selected, copy it with Ctrl+C (or long-press, Copy).";
  }
}
