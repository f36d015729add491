// This browser's unfinished games, newest first, kept in localStorage: the game page adds
// and updates an entry with every position it shows, and drops it when the game ends; the
// home page lists them, checked against the server (a game may have gone).
const KEY = "gridgames-unfinished";
const LIMIT = 12;

export function unfinishedGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY));
    return Array.isArray(list) ? list.filter((g) => g && typeof g.session === "string") : [];
  } catch { return []; }
}

function store(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, LIMIT))); } catch { /* full or off */ }
}

// A game is kept under its session ID, or under "link:TOKEN" when this page holds a link to
// an online game (a seat's or a spectator's).
export function gameKey(payload) {
  return payload.session ?? `link:${payload.link}`;
}

// Called with every payload the game page shows, and the page's path (a daily's page is
// where its game opens again).
export function noteGame(payload, path = "") {
  const key = gameKey(payload);
  const others = unfinishedGames().filter((g) => g.session !== key);
  if (payload.status.over || payload.moves.length === 0) {
    store(others);
    return;
  }
  const daily = path.startsWith("/daily/") ? { path } : {};
  store([{ session: key, game: payload.game, title: payload.title,
           at: Date.now(), ...daily }, ...others]);
}

// Two browsers' lists as one: each game once (the newer entry), newest first.
export function mergeUnfinished(mine, theirs) {
  const byKey = new Map();
  for (const entry of [...theirs, ...mine]) {
    const kept = byKey.get(entry.session);
    if (!kept || kept.at < entry.at) byKey.set(entry.session, entry);
  }
  return [...byKey.values()].sort((a, b) => b.at - a.at).slice(0, LIMIT);
}

// Where a kept game opens again.
export function gameUrl(entry) {
  const linked = entry.session.startsWith("link:");
  const query = linked ? `link=${encodeURIComponent(entry.session.slice(5))}` : `session=${encodeURIComponent(entry.session)}`;
  const path = typeof entry.path === "string" && /^\/daily\/[\w/-]+$/.test(entry.path) ? entry.path : `/play/${encodeURIComponent(entry.game)}`;
  return `${path}?${query}`;
}

export function forgetGame(session) {
  store(unfinishedGames().filter((g) => g.session !== session));
}

// "5 minutes ago", from a time in ms.
export function ago(at) {
  const seconds = Math.max(0, (Date.now() - at) / 1000);
  const units = [["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [name, size] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? "" : "s"} ago`;
  }
  return "just now";
}
