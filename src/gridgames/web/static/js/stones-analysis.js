// The analysis of a gravity board (games with an `analyzer`): a toolbar button, and each
// column's exact score from the server's solver in the strip above the board.
import { el } from "./svg.js";
import { MARGIN } from "./stones-draw.js";

// redraw(): the board's overlay again (the scores are drawn in it).
export function createAnalysis({ toolbar, fetchAnalysis, redraw }) {
  let on = false;
  let button = null;
  let view = null;
  let scores = null;      // column name -> score (null: not solved) from the server's solver
  let words = "";         // "proven" or "best found in 2.1 s", as the server says
  let failure = "";       // why the analysis did not come (the server's reason)

  // A new position: its scores are asked for while the analysis is on.
  function forPosition(nextView) {
    view = nextView;
    if (!button && view.gravity && fetchAnalysis && toolbar) makeButton();
    scores = null;
    words = "";
    failure = "";
    if (on) { label(); request(); }
  }

  function makeButton() {
    button = document.createElement("button");
    button.type = "button";
    button.id = "analysis";
    button.title = "Show the exact score of every column (y)";
    button.addEventListener("click", toggle);
    toolbar.appendChild(button);
    label();
  }

  // The button says how sure the scores are; "?" marks a column not solved in the time.
  function label() {
    const unsolved = scores && Object.values(scores).includes(null);
    const said = words && unsolved ? `${words}; ? not solved` : words;
    button.textContent = on ? `Analysis: on${said ? ` (${said})` : ""}` : "Analysis: off";
    button.classList.toggle("active", on);
  }

  function toggle() {
    if (!button) return;
    on = !on;
    label();
    scores = null;
    words = "";
    failure = "";
    redraw();  // "analysing…" at once, or the scores gone
    if (on) request();
  }

  async function request() {
    const asked = view;
    try {
      const answer = await fetchAnalysis();
      if (asked !== view || !on) return;
      scores = answer.scores;
      words = answer.result.words;
    } catch (error) {
      if (asked !== view || !on) return;
      scores = null;
      words = "";
      failure = error.message;  // e.g. busy: the server's own reason, not a claim about the position
    }
    label();
    redraw();
  }

  // Each column's score in the strip above it: positive wins (sooner is larger), 0 draws,
  // negative loses; "?" where the server's search did not solve it in its time (a full column
  // has none).
  function draw(layer) {
    if (!on || !view.gravity || view.to_move === null) return;
    if (scores === null) {
      note(layer, failure || "analysing…");
      return;
    }
    view.column_names.forEach((name, col) => {
      if (!(name in scores)) return;
      const score = scores[name];
      const x = MARGIN + col + 0.5;
      const y = MARGIN + 0.5;
      if (score === null) {
        const t = el("text", { x, y, "text-anchor": "middle", "font-size": 0.42, class: "analysis-score unknown", "data-unknown": name }, layer);
        t.textContent = "?";
        el("title", {}, t).textContent = `column ${name}: not solved in the time allowed`;
        return;
      }
      const cls = score > 0 ? "win" : score < 0 ? "loss" : "draw";
      const t = el("text", { x, y, "text-anchor": "middle", "font-size": 0.42, class: `analysis-score ${cls}`, "data-score": score }, layer);
      t.textContent = score > 0 ? `+${score}` : `${score}`;
    });
  }

  // One line across the strip above the board, as large as the board's width allows.
  function note(layer, text) {
    const size = Math.min(0.45, (view.cols + 2 * MARGIN) / (0.6 * text.length));
    const t = el("text", { x: MARGIN + view.cols / 2, y: MARGIN + 0.5, "text-anchor": "middle", "font-size": size, class: "analysis-note" }, layer);
    t.textContent = text;
  }

  return {
    forPosition,
    toggle,
    draw,
    get on() { return on; },
    destroy() { button?.remove(); },
  };
}
