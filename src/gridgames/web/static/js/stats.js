// Statistics of one game, kept in this browser (localStorage): games played and won, the
// current and best winning streak, the best time and score for each parameter set, and the
// recent results. A game counts once, when it first ends; a puzzle that ended stuck and was
// then undone and solved counts as won. A puzzle finished by the Solve button counts as
// played, not won, and the dialog says so. Against the AI a win is the person's; between
// two people, no one's.
import { formatTime } from "./clock.js";
import { helped } from "./page.js";

const RECENT = 40;      // results kept (the chart shows the last CHART of them)
const CHART = 20;
const SVG = "http://www.w3.org/2000/svg";

function key(game) { return `gridgames-stats-${game}`; }

function empty() {
  return { played: 0, won: 0, helped: 0, bestStreak: 0, best: {}, recent: [] };
}

export function loadStats(game) {
  try {
    const stats = JSON.parse(localStorage.getItem(key(game)));
    return stats && Array.isArray(stats.recent) ? stats : empty();
  } catch { return empty(); }
}

function store(game, stats) {
  try { localStorage.setItem(key(game), JSON.stringify(stats)); } catch { /* full or off */ }
}

export function resetStats(game) {
  try { localStorage.removeItem(key(game)); } catch { /* off */ }
}

// Whether this ended game is a win for the person at the page.
function isWin(payload, players) {
  const status = payload.status;
  if (players === 1) return status.kind === "won" && !helped(payload);
  const winner = status.winner;
  if (winner === null || winner === undefined) return false;
  const seats = payload.seats || [];
  return seats[winner] === "person" && seats.some((s) => s !== "person");
}

// Consecutive wins at the end of the results, and the longest run among them.
function streaks(recent) {
  let run = 0, best = 0;
  for (const result of recent) {
    run = result.won ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return { current: run, best };
}

// Called with every payload the page shows; records the game when it has ended.
export function noteResult(game, payload, { players, scoreOrder, ms }) {
  if (!payload.status.over || !payload.session) return null;
  const stats = loadStats(game);
  const won = isWin(payload, players);
  const found = stats.recent.find((r) => r.id === payload.session);
  if (found && (found.won || !won)) return stats;  // counted already
  const timed = players === 1 && ms > 0 ? ms : null;
  const drawn = payload.status.kind === "draw";
  const result = { id: payload.session, won, drawn, ms: timed, score: payload.status.score,
    params: payload.params, at: Date.now(),
    helped: players === 1 && payload.status.kind === "won" && !won };
  if (found) {
    if (found.helped) stats.helped -= 1;  // solved with help, then undone and won
    Object.assign(found, result);
  } else {
    stats.played += 1;
    stats.helped = (stats.helped || 0) + (result.helped ? 1 : 0);
    stats.recent.push(result);
    stats.recent = stats.recent.slice(-RECENT);
  }
  if (won) {
    stats.won += 1;
    const best = stats.best[payload.params] || {};
    if (timed !== null && (best.ms === undefined || timed < best.ms)) best.ms = timed;
    const score = payload.status.score;
    if (scoreOrder && score !== null && score !== undefined &&
        (best.score === undefined || (scoreOrder === "lower" ? score < best.score : score > best.score))) {
      best.score = score;
    }
    stats.best[payload.params] = best;
  }
  stats.bestStreak = Math.max(stats.bestStreak, streaks(stats.recent).best);
  store(game, stats);
  return stats;
}

// Two browsers' statistics of one game as one (an imported file's): counts added, the best
// of each best, the recent results of both by time (a game in both counted once there).
export function mergeStats(mine, theirs, scoreOrder) {
  const best = { ...mine.best };
  for (const [params, their] of Object.entries(theirs.best)) {
    const kept = { ...best[params] };
    if (their.ms !== undefined && !(kept.ms <= their.ms)) kept.ms = their.ms;
    if (their.score !== undefined && (kept.score === undefined ||
        (scoreOrder === "lower" ? their.score < kept.score : their.score > kept.score))) kept.score = their.score;
    best[params] = kept;
  }
  const ids = new Set(mine.recent.map((r) => r.id));
  const recent = [...mine.recent, ...theirs.recent.filter((r) => !ids.has(r.id))]
    .sort((a, b) => a.at - b.at).slice(-RECENT);
  return { played: mine.played + theirs.played, won: mine.won + theirs.won,
    helped: (mine.helped || 0) + (theirs.helped || 0), recent, best,
    bestStreak: Math.max(mine.bestStreak, theirs.bestStreak, streaks(recent).best) };
}

// Whether a stored value is statistics this page can read.
export function statsShape(stats) {
  const count = (n) => Number.isInteger(n) && n >= 0;
  return Boolean(stats) && count(stats.played) && count(stats.won) && count(stats.bestStreak)
    && Array.isArray(stats.recent) && stats.recent.every((r) => r && typeof r.at === "number")
    && typeof stats.best === "object" && stats.best !== null;
}

// The Statistics dialog's content: the counts, the best per parameter set, a chart.
// `daily`: the daily puzzles' streak (daily.js), the same on every game's page.
export function renderStats(container, game, { players, scoreOrder, scoreUnit = "", describe = (params) => params, daily = null }) {
  const stats = loadStats(game);
  const { current } = streaks(stats.recent);
  container.textContent = "";
  const counts = document.createElement("dl");
  counts.className = "stats-counts";
  const rate = stats.played ? Math.round((100 * stats.won) / stats.played) : 0;
  const withHelp = stats.helped || 0;  // finished with Solve's help: played, not won
  const rows = [["Played", stats.played], ["Won", `${stats.won} (${rate}%)`],
    ["Current streak", current], ["Best streak", stats.bestStreak]];
  if (withHelp) rows.push(["Solved with help", withHelp]);
  if (daily?.best) {  // once a daily was solved on its day
    const days = (n) => `${n} day${n === 1 ? "" : "s"}`;
    rows.push(["Daily streak", days(daily.current)], ["Best daily streak", days(daily.best)]);
  }
  for (const [label, value] of rows) {
    const item = document.createElement("div");
    item.innerHTML = "<dt></dt><dd></dd>";
    item.querySelector("dt").textContent = label;
    item.querySelector("dd").textContent = value;
    counts.appendChild(item);
  }
  container.appendChild(counts);
  if (withHelp) {
    const note = document.createElement("p");
    note.className = "stats-help";
    note.textContent = `${withHelp === 1 ? "One game was" : `${withHelp} games were`} finished with Solve: counted as played, not won.`;
    container.appendChild(note);
  }
  const bests = Object.entries(stats.best).filter(([, b]) => b.ms !== undefined || b.score !== undefined);
  if (bests.length) {
    const table = document.createElement("table");
    table.className = "stats-best";
    const head = table.createTHead().insertRow();
    for (const title of ["Settings", players === 1 ? "Best time" : null, scoreOrder ? "Best score" : null]) {
      if (title === null) continue;
      const th = document.createElement("th");
      th.textContent = title;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const [params, best] of bests) {
      const row = body.insertRow();
      row.insertCell().textContent = describe(params) || "default";
      if (players === 1) row.insertCell().textContent = best.ms === undefined ? "–" : formatTime(best.ms);
      if (scoreOrder) row.insertCell().textContent = best.score === undefined ? "–" : (scoreUnit ? `${best.score} ${scoreUnit}` : best.score);
    }
    container.appendChild(table);
  }
  container.appendChild(chart(stats.recent.slice(-CHART), players, scoreUnit));
}

// The last results as bars: a win is a tall filled bar (for a timed puzzle, its height is
// the time against the slowest shown), a draw a hollow half-height bar with a bar across,
// anything else a short hollow bar with a cross, so that the shape tells them apart and not
// only the colour.
function chart(results, players, scoreUnit) {
  const width = 200, height = 60, gap = 2;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height + 12}`);
  svg.setAttribute("class", "stats-chart");
  svg.setAttribute("role", "img");
  const wins = results.filter((r) => r.won).length;
  const draws = results.filter((r) => r.drawn).length;
  svg.setAttribute("aria-label", results.length
    ? `The last ${results.length} games: ${wins} won, ${draws ? `${draws} drawn, ` : ""}${results.length - wins - draws} not won`
    : "No games finished yet");
  const make = (name, attrs) => {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.appendChild(node);
    return node;
  };
  make("line", { x1: 0, y1: height, x2: width, y2: height, class: "stats-axis" });
  if (!results.length) {
    make("text", { x: width / 2, y: height / 2, "text-anchor": "middle", class: "stats-empty" }).textContent = "No games finished yet";
    return svg;
  }
  const slowest = Math.max(1, ...results.filter((r) => r.won && r.ms).map((r) => r.ms));
  const bar = (width - gap * (CHART - 1)) / CHART;
  results.forEach((result, i) => {
    const x = i * (bar + gap);
    const tall = players === 1 && result.ms ? Math.max(0.15, result.ms / slowest) : 1;
    const outcome = result.won ? "won" : result.drawn ? "drawn" : "lost";
    const h = result.won ? tall * (height - 4) : result.drawn ? 24 : 10;
    const node = make("rect", { x, y: height - h, width: bar, height: h, rx: 1,
      class: `stats-bar ${outcome}`, "data-won": String(result.won), "data-outcome": outcome });
    const title = document.createElementNS(SVG, "title");
    const said = result.helped ? "solved with help" : { won: "won", drawn: "a draw", lost: "not won" }[outcome];
    title.textContent = `${said}${result.ms ? ` in ${formatTime(result.ms)}` : ""}${result.score !== null && result.score !== undefined ? `, ${scoreUnit ? `${result.score} ${scoreUnit}` : `score ${result.score}`}` : ""}`;
    node.appendChild(title);
    if (result.drawn) {
      make("path", { d: `M${x + 1} ${height - 12}h${bar - 2}`, class: "stats-cross" });
    } else if (!result.won) {
      make("path", { d: `M${x + 1} ${height - 9}l${bar - 2} 8m0 -8l${-(bar - 2)} 8`, class: "stats-cross" });
    }
  });
  make("text", { x: 0, y: height + 10, class: "stats-label" }).textContent = "older";
  make("text", { x: width, y: height + 10, "text-anchor": "end", class: "stats-label" }).textContent = "latest";
  return svg;
}
