// The settings dialog: the game's params and who plays each seat (from the game's card),
// and this page's own choices; a new game, or the seats applied to this one.
import { $, PERSON, applies, isPuzzle, page, paramLabel, remember, saved } from "./page.js";
import { act, newGame } from "./actions.js";
import { api } from "./api.js";

export function openSettings() {
  const { card, current } = page;
  const params = Object.fromEntries((current?.params || "").split(",").filter(Boolean).map((p) => p.split("=")));
  const fields = $("params-fields");
  fields.querySelectorAll("label").forEach((l) => l.remove());
  fields.hidden = card.params.length === 0;
  for (const p of card.params) {
    const label = document.createElement("label");
    label.textContent = paramLabel(p);
    label.dataset.param = p.name;
    let input;
    if (p.choices) {
      input = document.createElement("select");
      for (const choice of p.choices) input.add(new Option(p.choice_labels?.[choice] ?? choice, choice));
    } else {
      input = document.createElement("input");
      input.type = "number";
      if (p.lo !== undefined) input.min = p.lo;
      if (p.hi !== undefined) input.max = p.hi;
    }
    input.name = p.name;
    input.value = params[p.name] ?? p.default;
    input.addEventListener("change", offerLevels);
    input.addEventListener("change", showApplying);
    label.appendChild(input);
    fields.appendChild(label);
  }
  showApplying();
  const seats = $("seat-fields");
  seats.querySelectorAll("label").forEach((l) => l.remove());
  seats.hidden = card.players < 2 || card.ai_levels.length === 0;
  card.player_names.forEach((player, index) => {
    const label = document.createElement("label");
    label.textContent = `${player} is played by`;
    const select = document.createElement("select");
    select.name = `seat${index}`;
    select.add(new Option("a person", PERSON));
    fillLevels(select, current?.ai_levels ?? card.ai_levels, current?.seats[index] ?? PERSON);
    label.appendChild(select);
    seats.appendChild(label);
  });
  $("apply-seats").hidden = seats.hidden;
  $("page-fields").hidden = !isPuzzle() || Boolean(page.link);
  $("show-clock").checked = saved("clock") ?? true;
  $("settings-error").textContent = "";
  $("settings-dialog").showModal();
}

// A field that applies only with another's value (2mino's difficulty, for one-solution
// puzzles) is shown only then.
function showApplying() {
  const form = $("settings-form");
  const values = Object.fromEntries(page.card.params.map((p) => [p.name, form.elements[p.name].value]));
  for (const p of page.card.params) form.querySelector(`label[data-param="${p.name}"]`).hidden = !applies(p, values);
}

// The AI levels a board offers depend on its params (Trilobite's "perfect" only where it
// proves its moves in time): the seats' choices follow the params the dialog shows.
function fillLevels(select, levels, chosen) {
  select.querySelectorAll("option:not([value='" + PERSON + "'])").forEach((o) => o.remove());
  for (const level of levels) select.add(new Option(`the AI (${level})`, level));
  // A level this board does not offer: its strongest (the AI's seat stays the AI's).
  select.value = chosen === PERSON || levels.includes(chosen) ? chosen : levels[levels.length - 1];
}

async function offerLevels() {
  const { card } = page;
  if (card.players < 2 || card.ai_levels.length === 0) return;
  const { params } = settingsValues();
  let answer;
  try {
    answer = await api("GET", `/api/v1/games/${card.name}/ai-levels?params=${encodeURIComponent(params)}`);
  } catch {
    return;  // params the server refuses: starting the game will say why
  }
  for (const select of $("seat-fields").querySelectorAll("select")) fillLevels(select, answer.levels, select.value);
}

function settingsValues() {
  const card = page.card;
  const form = $("settings-form");
  const params = card.params.map((p) => `${p.name}=${form.elements[p.name].value}`).join(",");
  const seats = card.players > 1 && card.ai_levels.length ? card.player_names.map((_, i) => form.elements[`seat${i}`].value) : undefined;
  return { params, seats };
}

export async function startFromSettings() {
  const { params, seats } = settingsValues();
  try {
    await newGame(params, seats);
    remember("params", params);
    if (seats) remember("seats", seats);
    $("settings-dialog").close();
  } catch (error) {
    $("settings-error").textContent = error.message;
  }
}

export async function applySeats() {
  const { seats } = settingsValues();
  if (await act("PUT", `/api/v1/sessions/${page.current.session}/seats`, { seats }, {})) {
    remember("seats", seats);
    $("settings-dialog").close();
  }
}
