// The elapsed-time clock of a puzzle: it runs while the game is unfinished and the tab is
// in view, and the time is kept with the game on the server (PUT .../clock), so that it
// survives a reload and a restart. The server keeps the larger of two times: a save that
// arrives late never takes the clock back.
import { api } from "./api.js";

const SAVE_EVERY_MS = 15000;

export function formatTime(ms) {
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

export function createClock(element) {
  let session = null;
  let base = 0;          // ms counted before `since`
  let since = null;      // performance.now() when it last started, or null when stopped
  let wanted = false;    // the game is a puzzle, unfinished: the clock should run when in view
  let saved = 0;
  let ticker = null;

  const elapsed = () => base + (since === null ? 0 : performance.now() - since);

  function paint() {
    element.textContent = formatTime(elapsed());
    element.setAttribute("aria-label", `Time ${formatTime(elapsed())}`);
  }

  function run(on) {
    if (on && since === null) {
      since = performance.now();
      ticker = setInterval(tick, 1000);
    } else if (!on && since !== null) {
      base = elapsed();
      since = null;
      clearInterval(ticker);
      save();
    }
    paint();
  }

  function tick() {
    paint();
    if (elapsed() - saved >= SAVE_EVERY_MS) save();
  }

  // `leaving`: the page is going away; keepalive lets the request outlive it.
  function save(leaving = false) {
    if (!session) return;
    const ms = Math.round(elapsed());
    if (ms <= saved) return;
    saved = ms;
    const path = `/api/v1/sessions/${encodeURIComponent(session)}/clock`;
    if (leaving) {
      fetch(path, { method: "PUT", keepalive: true, headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ elapsed_ms: ms }) }).catch(() => {});
    } else {
      api("PUT", path, { elapsed_ms: ms }).catch(() => { saved = 0; });  // tried again later
    }
  }

  document.addEventListener("visibilitychange", () => run(wanted && !document.hidden));
  window.addEventListener("pagehide", () => save(true));

  return {
    // Every payload the page shows: a new session starts from the server's time.
    follow(payload, puzzle) {
      if (payload.session !== session) {
        run(false);
        session = payload.session ?? null;
        base = payload.clock_ms || 0;
        saved = base;
      }
      wanted = Boolean(puzzle && session && !payload.status.over);
      run(wanted && !document.hidden);
    },
    get ms() { return Math.round(elapsed()); },
  };
}
