// The game page's state, in one object the page's modules share (the only module-level
// state they have), and the small questions every module asks of it.

export const $ = (id) => document.getElementById(id);
const pathParts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
// A daily puzzle's page (/daily/DATE/GAME, 2mino's /daily/DATE/twomino/LEVEL), else null.
export const daily = pathParts[0] === "daily"
  ? { date: pathParts[1], game: pathParts[2], level: pathParts[3] ?? null } : null;
export const gameName = daily ? daily.game : pathParts[pathParts.length - 1];
export const PERSON = "person";

export const page = {
  card: null,        // the game's description from /api/v1/games
  renderer: null,    // the game's renderer module (docs/adding-a-game.md)
  current: null,     // the last payload from the server
  board: null,       // the renderer's board object
  boardKind: null,   // the view kind the board was made for
  hintMove: null,    // the move the last hint points at, until the next action
  paused: false,     // AI against AI: paused by the person
  token: 0,          // bumps on every action, so that late AI answers are dropped
  thinking: false,   // the server computes for this page (an AI move, a hint...)
  link: null,        // online: the link this page holds (online.js), else null
  clock: null,       // the puzzle's elapsed-time clock (clock.js)
  replay: null,      // the move list and the stepper (replay.js)
  actions: Promise.resolve(),  // the queue of changes sent to the server (actions.js)
  noticeTimer: null, // hides the notice
  aiTimer: null,     // the next AI move's wait
  zoom: null,        // the board's zoom and pan (zoom.js)
  daily: null,       // on a daily's page: its start from the API (daily.js)
};

// What the game can do besides its rules: "ai", "solver", "hints", "checker", "analyzer"...
export function can(capability) {
  return page.card.capabilities.includes(capability);
}

export function isPuzzle() {
  return page.card.players === 1;
}

// Who plays the move now: PERSON, an AI level, or null (nobody: the game is over, or online
// it is the other seat's turn).
export function seatToMove() {
  const current = page.current;
  if (page.link) {
    const you = current?.online?.you;
    return you !== null && you !== undefined && current.to_move === you && !current.status.over ? PERSON : null;
  }
  if (!current || current.to_move === null || current.to_move === undefined) return current && !current.status.over ? PERSON : null;
  return current.seats[current.to_move];
}

// A game's params in a player's words, from its card: each field's label ("Columns"), and a
// choice's words ("Exactly one solution"); only the fields that apply.
export function paramLabel(p) {
  return p.label ?? (p.help ? `${p.name} (${p.help})` : p.name);
}

export function applies(p, values) {
  return !p.when || Object.entries(p.when).every(([name, wanted]) => values[name] === wanted);
}

export function paramsWords(card, text) {
  const given = Object.fromEntries((text || "").split(",").filter(Boolean).map((p) => p.split("=")));
  const values = Object.fromEntries(card.params.map((p) => [p.name, given[p.name] ?? String(p.default)]));
  return card.params.filter((p) => applies(p, values))
    .map((p) => `${paramLabel(p)}: ${p.choice_labels?.[values[p.name]] ?? values[p.name]}`).join(" · ");
}

// This browser's choices for this game (its params, seats, the clock shown).
export function saved(key) {
  try { return JSON.parse(localStorage.getItem(`gridgames-${gameName}-${key}`)); } catch { return null; }
}

export function remember(key, value) {
  localStorage.setItem(`gridgames-${gameName}-${key}`, JSON.stringify(value));
}

// Whether a Solve played some of the moves that lead to the current position (the server
// says: a restart forgets it, a jump keeps it). Such a game is "solved with help": no
// celebration, and it counts as played, not won.
export function helped(payload) {
  return Boolean(payload?.helped);
}
