// Daily puzzles in the browser: what this browser did with each day's puzzles (kept in
// localStorage under "gridgames-daily": date -> puzzle -> result), the streak (days in a
// row with a daily solved on its own day, UTC), and the result line to share (no moves: no
// spoilers). docs/playing.md ("Daily puzzles") says how it looks to a player.
import { formatTime } from "./clock.js";

export const KEY = "gridgames-daily";
const DAYS_KEPT = 800;  // dates kept (a streak longer than two years still counts to there)

// Today's date in UTC, as the server names it (YYYY-MM-DD).
export function utcToday(now = new Date()) {
  return now.toISOString().slice(0, 10);
}

export function puzzleKey(game, level) {
  return level ? `${game}/${level}` : game;
}

export function loadDaily() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY));
    return dailyShape(data) ? data : {};
  } catch { return {}; }
}

function store(data) {
  const dates = Object.keys(data).sort();
  for (const old of dates.slice(0, Math.max(0, dates.length - DAYS_KEPT))) delete data[old];
  try { localStorage.setItem(KEY, JSON.stringify(data)); } catch { /* full or off */ }
}

// Whether a stored value is daily results this page can read.
export function dailyShape(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) return false;
  return Object.entries(data).every(([date, puzzles]) => /^\d{4}-\d{2}-\d{2}$/.test(date)
    && puzzles && typeof puzzles === "object" && !Array.isArray(puzzles)
    && Object.values(puzzles).every((r) => r && typeof r === "object" && typeof r.session === "string"));
}

function entry(data, date, puzzle, session) {
  data[date] ??= {};
  const found = data[date][puzzle];
  if (found && found.session === session) return found;
  if (found?.solved) return null;  // solved already in another game: that one counts
  const fresh = { session, hints: 0, solved: false };
  data[date][puzzle] = fresh;
  return fresh;
}

// The game this browser plays a date's puzzle in (its page opens it again); a game that ended
// solved stays the puzzle's.
export function noteDailyGame(date, puzzle, session) {
  const data = loadDaily();
  if (data[date]?.[puzzle]?.session === session) return;
  if (entry(data, date, puzzle, session)) store(data);
}

// A hint (or an analysis) asked for in a daily's game: counted in its result line.
export function noteHint(date, puzzle, session) {
  const data = loadDaily();
  const found = entry(data, date, puzzle, session);
  if (!found || found.solved) return;
  found.hints += 1;
  store(data);
}

// The daily's game has ended: solved (won, and not with Solve's help) or not. The first
// solve of a date's puzzle counts; `onDay` when it was solved on that date (UTC), which is
// what the streak counts.
export function noteDailyEnd(date, puzzle, payload, { won, ms, players = 1 }) {
  const data = loadDaily();
  const found = entry(data, date, puzzle, payload.session);
  if (!found || found.solved || found.ended) return found;
  // The moves of the line that ended it (after the last restart); against the AI, yours.
  const line = payload.moves.slice(0, payload.cursor);
  const played = line.slice(line.lastIndexOf("!restart") + 1).filter((m) => !m.startsWith("!")).length;
  const moves = players === 2 ? Math.ceil(played / 2) : played;
  Object.assign(found, { ended: true, solved: won, ms: ms || null, moves,
    score: payload.status.score ?? null, at: Date.now(), onDay: utcToday() === date });
  store(data);
  return found;
}

export function dailyResult(date, puzzle) {
  return loadDaily()[date]?.[puzzle] ?? null;
}

// Days in a row, ending today (or yesterday, while today's is still to do), with a daily
// solved on its own day; and the longest such run.
export function dailyStreak(data = loadDaily(), today = utcToday()) {
  const solvedDays = Object.keys(data).filter((date) => Object.values(data[date]).some((r) => r.solved && r.onDay)).sort();
  const next = (date) => {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return d.toISOString().slice(0, 10);
  };
  let best = 0, run = 0, last = null;
  for (const date of solvedDays) {
    run = last !== null && next(last) === date ? run + 1 : 1;
    best = Math.max(best, run);
    last = date;
  }
  const yesterday = (() => { const d = new Date(`${today}T00:00:00Z`); d.setUTCDate(d.getUTCDate() - 1); return d.toISOString().slice(0, 10); })();
  const current = last === today || last === yesterday ? run : 0;
  return { current, best };
}

// Two browsers' daily results as one (an imported file's): each date's puzzles joined, a
// solved result kept over an unsolved one, the earlier solve over a later one.
export function mergeDaily(mine, theirs) {
  const out = JSON.parse(JSON.stringify(mine));
  for (const [date, puzzles] of Object.entries(theirs)) {
    out[date] ??= {};
    for (const [puzzle, their] of Object.entries(puzzles)) {
      const kept = out[date][puzzle];
      const better = !kept || (their.solved && (!kept.solved || (their.at ?? Infinity) < (kept.at ?? Infinity)));
      if (better) out[date][puzzle] = their;
    }
  }
  return out;
}

// The line to share once a daily is done: game, date, time, moves or score, hints; never
// a move.
export function resultLine({ title, date, result, scoreUnit, url, players }) {
  const parts = [`gridgames daily ${date}`, title];
  if (players === 2) parts.push(result.solved ? "won against the perfect AI" : "not won");
  else parts.push(result.solved ? `solved${result.ms ? ` in ${formatTime(result.ms)}` : ""}` : "not solved");
  if (result.score !== null && result.score !== undefined && scoreUnit !== "moves") {
    parts.push(scoreUnit ? `${result.score} ${scoreUnit}` : `score ${result.score}`);
  }
  parts.push(`${result.moves}${players === 2 ? " own" : ""} move${result.moves === 1 ? "" : "s"}`);
  parts.push(result.hints ? `${result.hints} hint${result.hints === 1 ? "" : "s"}` : "no hints");
  return `${parts.join(" · ")}\n${url}`;
}
