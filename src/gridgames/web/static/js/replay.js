// The move list beside the board, and the stepper above it: a replay of the game's recorded
// positions (drawn by the server: GET .../positions/N), or a solution shown step by step
// before it is applied. The page knows no rule: every view it shows comes from the server.
import { api } from "./api.js";

const LIST_LIMIT = 500;  // moves listed (the newest); the stepper reaches every position

// How a recorded move reads in the list: the game's own notation, and words for the
// session's markers (restart, a solution, a jump back).
export function moveLabel(move) {
  const words = move.split(" ");
  if (move === "!restart") return "restart";
  if (words[0] === "!solve") return `solution (${words.length - 1} move${words.length === 2 ? "" : "s"})`;
  if (words[0] === "!jump") return words.length === 1 ? "back to the start" : `back to move ${words.length - 1}`;
  return move;
}

const $ = (id) => document.getElementById(id);

// draw(view, text): show a position that is not the current one; leave(): the current one
// again; act(method, path, body): a change through the page's action queue.
export function createReplay({ draw, leave, act, notice }) {
  let mode = null;       // null, or { kind: "replay" | "solution", index, count, ... }
  let game = null;       // the payload the list shows
  let timer = null;
  let asked = 0;         // the latest position asked for: older answers are dropped

  function renderList(payload) {
    game = payload;
    const list = $("move-list");
    list.textContent = "";
    const moves = payload.moves;
    const first = Math.max(0, moves.length - LIST_LIMIT);
    list.start = first + 1;
    moves.slice(first).forEach((move, i) => {
      const ply = first + i + 1;
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.ply = ply;
      button.textContent = moveLabel(move);
      button.title = `Show the position after move ${ply}`;
      button.addEventListener("click", () => openReplay(ply));
      item.appendChild(button);
      list.appendChild(item);
    });
    const undone = payload.positions - payload.cursor;
    $("moves-count").textContent = `(${moves.length}${undone > 0 ? `, ${undone} undone` : ""})`;
    $("moves-empty").hidden = moves.length > 0;
    mark();
    if (list.lastElementChild && !mode) scrollToEnd(list);
  }

  // The newest move in view: only the box that scrolls the list scrolls (the list itself on
  // a phone, the open box beside the board), never the page (scrollIntoView scrolled the
  // page too, and a long game's page then opened scrolled down, the board off the top).
  function scrollToEnd(list) {
    for (let box = list; box && box !== document.body; box = box.parentElement) {
      if (box.scrollHeight > box.clientHeight && getComputedStyle(box).overflowY !== "visible") {
        box.scrollTop = box.scrollHeight;
        return;
      }
    }
  }

  function mark() {
    const at = mode?.kind === "replay" ? mode.index : game?.cursor;
    for (const button of $("move-list").querySelectorAll("button.move")) {
      const here = Number(button.dataset.ply) === at;
      button.classList.toggle("here", here);
      if (here) button.setAttribute("aria-current", "step"); else button.removeAttribute("aria-current");
    }
  }

  // --- the stepper ---

  function openReplay(ply) {
    if (!game?.session) return;
    stop();
    mode = { kind: "replay", index: ply, count: game.positions, session: game.session };
    $("step-apply").textContent = "Continue from here";
    $("step-apply").title = "Make this position the current one (Undo comes back)";
    $("stepper").hidden = false;
    document.body.classList.add("stepping");
    go(ply);
  }

  // A solution from the server: steps[i] is the position after its first i + 1 moves.
  function openSolution(answer) {
    stop();
    mode = { kind: "solution", index: 0, count: answer.steps.length, answer };
    $("step-apply").textContent = "Apply the solution";
    $("step-apply").title = "Play the whole solution on the board (Undo takes it back)";
    $("stepper").hidden = false;
    document.body.classList.add("stepping");
    go(0);
  }

  async function go(index) {
    if (!mode) return;
    index = Math.max(0, Math.min(mode.count, index));
    mode.index = index;
    const mine = ++asked;
    $("step-prev").disabled = index === 0;
    $("step-first").disabled = index === 0;
    $("step-next").disabled = index === mode.count;
    $("step-last").disabled = index === mode.count;
    if (mode.kind === "solution") {
      const { answer } = mode;
      const step = index ? answer.steps[index - 1] : null;
      const total = answer.moves.length;
      // The result's words, and its note where the solver gives one (Polar: pushes, the fewest?).
      const sure = answer.result.words + (answer.result.note ? ` · ${answer.result.note}` : "");
      label(`Solution (${sure}): step ${index} of ${total}${step ? ` · ${step.move}` : ""}`);
      // A preview plays nothing: its end is not called solved (the server's words for that
      // position would say so), and the words say how to make it count.
      const words = !step ? "Preview: before the solution"
        : index === total ? "Preview: the solution's end (not played)"
          : `Preview: ${step.status}`;
      draw(step ? step.view : answer.start, words);
      if (index === mode.count && mode.count < total) label(`Solution: the first ${mode.count} of ${total} steps are shown`);
    } else {
      label(`Replay: position ${index} of ${mode.count}`);
      mark();
      try {
        const shown = await api("GET", `/api/v1/sessions/${encodeURIComponent(mode.session)}/positions/${index}`);
        if (mine !== asked || !mode) return;
        label(`Replay: position ${index} of ${shown.positions}${shown.move ? ` · after ${moveLabel(shown.move)}` : " · the start"}`);
        draw(shown.view, shown.status);
      } catch (error) {
        if (mine === asked) notice(error.message);
      }
    }
    if (index === mode?.count) stop();
  }

  function label(text) { $("stepper-label").textContent = text; }

  function play() {
    if (!mode) return;
    if (timer) { stop(); return; }
    if (mode.index === mode.count) go(0);
    $("step-play").textContent = "Pause";
    $("step-play").classList.add("active");
    timer = setInterval(() => go(mode.index + 1), Number($("step-speed").value));
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    $("step-play").textContent = "Play";
    $("step-play").classList.remove("active");
  }

  // redraw false: the page is about to show a new position anyway.
  function close(redraw = true) {
    if (!mode) return;
    stop();
    mode = null;
    asked++;
    $("stepper").hidden = true;
    document.body.classList.remove("stepping");
    mark();
    if (redraw) leave();
  }

  async function apply() {
    if (!mode) return;
    const now = mode;
    close();
    if (now.kind === "replay") {
      if (now.index !== game.cursor) await act("POST", `/api/v1/sessions/${now.session}/jump`, { ply: now.index });
    } else {
      await act("POST", `/api/v1/sessions/${game.session}/solve`, { moves: now.answer.moves });
    }
  }

  $("step-first").addEventListener("click", () => { stop(); go(0); });
  $("step-prev").addEventListener("click", () => { stop(); go(mode.index - 1); });
  $("step-next").addEventListener("click", () => { stop(); go(mode.index + 1); });
  $("step-last").addEventListener("click", () => { stop(); go(mode.count); });
  $("step-play").addEventListener("click", play);
  $("step-speed").addEventListener("change", () => { if (timer) { stop(); play(); } });
  $("step-apply").addEventListener("click", apply);
  $("step-close").addEventListener("click", () => close());

  // Keys while stepping: true when the key was the stepper's.
  function key(name) {
    if (!mode) return false;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    if (moves[name]) { stop(); go(mode.index + moves[name]); return true; }
    if (name === "Home") { stop(); go(0); return true; }
    if (name === "End") { stop(); go(mode.count); return true; }
    if (name === "Escape" || name === "m") { close(); return true; }
    if (name === " ") { play(); return true; }
    return false;
  }

  return {
    renderList,
    openReplay,
    openSolution,
    close,
    key,
    toggle() { if (mode) close(); else if (game?.session) openReplay(game.cursor); },
    get active() { return mode !== null; },
  };
}
