// Moving what this browser keeps to another browser: Export writes one JSON file of every
// statistic, setting, unfinished game and solved mark (the localStorage keys that start
// with "gridgames-"); Import reads such a file back: statistics merged, the unfinished games
// and solved marks joined, settings taken from the file. A file that is not one, is
// broken, was made by a newer gridgames or was imported already changes nothing and says
// why. docs/playing.md ("Moving to another device") documents the format.
import { mergeStats, statsShape } from "./stats.js";
import { mergeUnfinished } from "./unfinished.js";
import { KEY as DAILY, dailyShape, mergeDaily } from "./daily.js";

export const FORMAT = "gridgames-browser-data";
export const VERSION = 1;  // files of this version and older are read
const PREFIX = "gridgames-";
const IMPORTED = "gridgames-imported";  // the ids of the files imported here
const MAX_BYTES = 2_000_000;

export function exportData() {
  const data = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key.startsWith(PREFIX) && key !== IMPORTED) data[key] = localStorage.getItem(key);
  }
  return { format: FORMAT, version: VERSION, id: crypto.randomUUID(), exported: new Date().toISOString(), data };
}

export function downloadData() {
  const file = new Blob([JSON.stringify(exportData(), null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(file);
  link.download = `gridgames-${new Date().toISOString().slice(0, 10)}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

function refuse(why) {
  throw new Error(`${why} Nothing was changed.`);
}

function parsed(text, key) {
  try { return JSON.parse(text); } catch { return refuse(`The file is broken: ${key} is not readable.`); }
}

// What this browser keeps under a key, or `empty` where it keeps nothing readable.
function own(text, empty) {
  try { return text === null ? empty : JSON.parse(text) ?? empty; } catch { return empty; }
}

// What importing `text` would store, key by key; an Error saying why when it cannot.
// `scoreOrders`: each game's score order ("higher", "lower"), for merging best scores.
export function importPlan(text, scoreOrders) {
  if (text.length > MAX_BYTES) refuse("The file is too large to be a gridgames export.");
  let file;
  try { file = JSON.parse(text); } catch { refuse("This is not a gridgames export (not JSON)."); }
  if (file?.format !== FORMAT) refuse("This is not a gridgames export.");
  if (!Number.isInteger(file.version) || file.version < 1 || typeof file.id !== "string"
      || typeof file.data !== "object" || file.data === null) refuse("The file is broken.");
  if (file.version > VERSION) {
    refuse(`The file comes from a newer gridgames (format ${file.version}); this page reads format ${VERSION} and older.`);
  }
  const imported = own(localStorage.getItem(IMPORTED), []);
  if (imported.includes(file.id)) refuse("This file was imported here already.");
  const plan = {};
  for (const [key, value] of Object.entries(file.data)) {
    if (!key.startsWith(PREFIX) || key === IMPORTED || typeof value !== "string") refuse(`The file is broken: ${key.slice(0, 40)}.`);
    plan[key] = merged(key, value, localStorage.getItem(key), scoreOrders);
  }
  plan[IMPORTED] = JSON.stringify([...imported, file.id]);
  return plan;
}

function merged(key, theirs, mine, scoreOrders) {
  if (key.startsWith(`${PREFIX}stats-`)) {
    const their = parsed(theirs, key);
    if (!statsShape(their)) refuse(`The file is broken: ${key}.`);
    const kept = own(mine, null);
    const order = scoreOrders[key.slice(`${PREFIX}stats-`.length)];
    return JSON.stringify(statsShape(kept) ? mergeStats(kept, their, order) : their);
  }
  if (key === `${PREFIX}unfinished`) {
    const their = parsed(theirs, key);
    if (!Array.isArray(their) || !their.every((g) => typeof g?.session === "string" && typeof g.at === "number")) refuse(`The file is broken: ${key}.`);
    const kept = own(mine, []);
    return JSON.stringify(mergeUnfinished(Array.isArray(kept) ? kept : [], their));
  }
  if (key === DAILY) {  // the daily puzzles' results (files made before them have none)
    const their = parsed(theirs, key);
    if (!dailyShape(their)) refuse(`The file is broken: ${key}.`);
    const kept = own(mine, {});
    return JSON.stringify(mergeDaily(dailyShape(kept) ? kept : {}, their));
  }
  if (key === `${PREFIX}polar-solved`) {
    const their = parsed(theirs, key);
    if (!Array.isArray(their)) refuse(`The file is broken: ${key}.`);
    const kept = own(mine, []);
    return JSON.stringify([...new Set([...(Array.isArray(kept) ? kept : []), ...their])]);
  }
  return theirs;  // a setting: the file's
}

// Import a file's text; the number of entries stored.
export function importData(text, scoreOrders) {
  const plan = importPlan(text, scoreOrders);
  for (const [key, value] of Object.entries(plan)) localStorage.setItem(key, value);
  return Object.keys(plan).length - 1;
}
