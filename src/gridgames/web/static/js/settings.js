// The settings dialog: the game's params and who plays each seat (from the game's card),
// and this page's own choices; a new game, or the seats applied to this one.
import { $, PERSON, isPuzzle, page, remember, saved } from "./page.js";
import { act, newGame } from "./actions.js";

export function openSettings() {
  const { card, current } = page;
  const params = Object.fromEntries((current?.params || "").split(",").filter(Boolean).map((p) => p.split("=")));
  const fields = $("params-fields");
  fields.querySelectorAll("label").forEach((l) => l.remove());
  fields.hidden = card.params.length === 0;
  for (const p of card.params) {
    const label = document.createElement("label");
    label.textContent = p.help ? `${p.name} (${p.help})` : p.name;
    let input;
    if (p.choices) {
      input = document.createElement("select");
      for (const choice of p.choices) input.add(new Option(choice, choice));
    } else {
      input = document.createElement("input");
      input.type = "number";
      if (p.lo !== undefined) input.min = p.lo;
      if (p.hi !== undefined) input.max = p.hi;
    }
    input.name = p.name;
    input.value = params[p.name] ?? p.default;
    label.appendChild(input);
    fields.appendChild(label);
  }
  const seats = $("seat-fields");
  seats.querySelectorAll("label").forEach((l) => l.remove());
  seats.hidden = card.players < 2 || card.ai_levels.length === 0;
  card.player_names.forEach((player, index) => {
    const label = document.createElement("label");
    label.textContent = `${player} is played by`;
    const select = document.createElement("select");
    select.name = `seat${index}`;
    select.add(new Option("a person", PERSON));
    for (const level of card.ai_levels) select.add(new Option(`the AI (${level})`, level));
    select.value = current?.seats[index] ?? PERSON;
    label.appendChild(select);
    seats.appendChild(label);
  });
  $("apply-seats").hidden = seats.hidden;
  $("page-fields").hidden = !isPuzzle() || Boolean(page.table);
  $("show-clock").checked = saved("clock") ?? true;
  $("settings-error").textContent = "";
  $("settings-dialog").showModal();
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
