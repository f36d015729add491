// Machine play on the page: the AI's moves (asked, or on their own for AI seats), hints,
// checks and solutions, with the thinking indicator and Cancel. Every answer comes from the
// server; one that arrives after the game moved on is dropped.
import { api } from "./api.js";
import { PERSON, can, page, seatToMove } from "./page.js";
import { countHint } from "./daily-page.js";
import { say, setThinking, show, showNotice, sureWords, unsay, updateButtons, whyNoHelp } from "./show.js";

const AI_PAUSE_MS = 450;      // between two AI moves, so that a person can follow

// Ask the server something about the position (a hint, a check) with the thinking
// indicator on.
async function ask(path, onAnswer) {
  const mine = page.token;
  setThinking(true, "Thinking…");
  try {
    const answer = await api("GET", `/api/v1/sessions/${page.current.session}/${path}`);
    if (mine !== page.token) return;
    setThinking(false);
    onAnswer(answer);
  } catch (error) {
    if (mine === page.token) setThinking(false);
    showNotice(error.message);
  }
}

export function showHint() {
  const current = page.current;
  if (!current || !can("hints")) return;
  if (current.status.over) {
    say(`No hint: ${whyNoHelp()}.`, "warn");
    return;
  }
  unsay();
  ask("hint", (answer) => {
    const hintMove = answer.hint;
    if (hintMove) countHint();
    page.hintMove = hintMove;
    page.board.render(page.current.view, { hintMove });
    // The move, and why where the game can say (2mino's deductions, Polar's plan...).
    if (hintMove) say(`Hint: ${answer.hint_words ?? hintMove}${answer.why ? ` — ${answer.why}` : ""} (${sureWords(answer.result)})`);
    else say(answer.why ? `No hint: ${answer.why}` : "No hint: there is no solution from here. Undo or restart.", "warn");
  });
}

// Check: the server lists the moves no solution agrees with; the board marks them.
export function runCheck() {
  const current = page.current;
  if (!current || !can("checker") || current.status.over) return;
  unsay();
  ask("check", (answer) => {
    page.board.render(page.current.view, { marks: answer.wrong });
    const wrong = answer.wrong.length;
    const bars = wrong === 1 ? "1 bar agrees" : `${wrong} bars agree`;
    say(wrong ? `${bars} with no solution (marked): ${answer.wrong.join(", ")}` : "No mistakes so far.", wrong ? "warn" : "info");
  });
}

// Solve: the server's solution, shown step by step (Next, Previous, Play); Apply plays it.
export function showSolution() {
  const current = page.current;
  if (!current || page.link || !can("solver")) return;
  if (current.status.over) {
    say(`No solution: ${whyNoHelp()}.`, "warn");
    return;
  }
  ask("solution", (answer) => page.replay.openSolution(answer));
}

// The AI's move comes from the server; the page stays live while it thinks.
export async function aiMove(asked = false) {
  const current = page.current;
  if (!current || current.status.over || page.thinking) return;
  const mine = ++page.token;
  page.hintMove = null;
  setThinking(true);
  if (asked && seatToMove() === PERSON) countHint();  // in a daily, the AI's move for you is help
  try {
    const payload = await api("POST", `/api/v1/sessions/${current.session}/ai`, {});
    if (mine !== page.token) return;
    setThinking(false);
    show(payload, { animate: true });
  } catch (error) {
    if (mine !== page.token) return;
    setThinking(false);
    if (asked || error.status !== 409) showNotice(error.message);
  }
}

// An AI seat to move plays on its own, after a pause.
export function scheduleAi() {
  clearTimeout(page.aiTimer);
  const current = page.current;
  const seat = seatToMove();
  if (!current || current.status.over || page.paused || seat === null || seat === PERSON) return;
  const allAi = current.seats.every((s) => s !== PERSON);
  const mine = page.token;
  page.aiTimer = setTimeout(() => { if (mine === page.token) aiMove(); }, allAi ? AI_PAUSE_MS : 150);
}

export function togglePause() {
  page.paused = !page.paused;
  updateButtons();
  if (!page.paused) scheduleAi();
}

// Cancel: the server stops the computation (its CPU is free within a second); the answer,
// if any arrives, is dropped.
export async function cancelThinking() {
  const current = page.current;
  if (!page.thinking || !current) return;
  page.token++;
  setThinking(false);
  // AI against AI: stay paused (Resume goes on); against a person, "AI move" asks again.
  if (current.seats.every((s) => s !== PERSON)) page.paused = true;
  clearTimeout(page.aiTimer);
  updateButtons();
  try {
    await api("POST", `/api/v1/sessions/${current.session}/cancel`);
    say("Stopped.");
  } catch (error) {
    showNotice(error.message);
  }
}
