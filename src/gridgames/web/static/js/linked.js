// Online play on the game page: opening a seat's or a spectator's link, its bar of offers
// and countdowns, the actions of this page's seat, and the links that start it (Play online,
// Share). The live connection itself is online.js's.
import { api } from "./api.js";
import { $, PERSON, page } from "./page.js";
import { OnlineTable, renderBar, showLinks } from "./online.js";
import { forgetGame } from "./unfinished.js";
import { show, showNotice } from "./show.js";
import { act } from "./actions.js";
import { buildHelp } from "./keys.js";

export async function openLink(token) {
  const link = new OnlineTable(token, {
    onState: (payload) => show(payload, { animate: true }),
    onStatus: (text) => { $("live").hidden = text === "live"; $("live").textContent = text; },
  });
  try {
    page.table = link;
    show(await link.load(), {});
    buildHelp();
    setInterval(() => { if (page.current?.online) renderOnline(); }, 1000);  // the countdowns
    return true;
  } catch (error) {
    page.table = null;
    link.closed = true;
    forgetGame(`link:${token}`);
    showNotice(`This link leads to no game (${error.message}). Here is a new game.`);
    return false;
  }
}

export function renderOnline() {
  const current = page.current;
  if (!current) return;
  renderBar($("online"), current, page.table, {
    names: current.player_names,
    actions: {
      claim: () => linkAction("claim"),
      withdraw: () => linkAction("withdraw"),
      reply: (kind, accept) => linkAction("reply", { kind, accept }),
    },
  });
}

// An action of this page's seat, through its link.
export function linkAction(action, body) {
  if (!page.table) return Promise.resolve(false);
  return act("POST", page.table.path(action), body, { animate: false });
}

// Play online: the game gets a link per seat and one for spectators; this page takes the
// seat of the person playing here (the first, when both are people).
export async function playOnline() {
  const current = page.current;
  if (page.table || !current || page.card.players !== 2 || current.status.over) return;
  const seat = Math.max(0, current.seats.indexOf(PERSON));
  try {
    const answer = await api("POST", `/api/v1/sessions/${current.session}/online`, { seat });
    const token = new URL(answer.links.you, location.href).searchParams.get("link");
    forgetGame(current.session);
    await openLink(token);
    $("links-title").textContent = "Play online";
    $("links-help").textContent = "Send the first link to your opponent: whoever opens it plays the other side. Anyone with the second link can watch.";
    showLinks($("links-dialog"), [["Opponent's link", answer.links.opponent], ["Spectators' link", answer.links.watch]]);
  } catch (error) {
    showNotice(error.message);
  }
}

// Share: a link to watch this game live (puzzles too); it changes nothing.
export async function shareWatch() {
  const current = page.current;
  if (page.table || !current) return;
  try {
    const answer = await api("POST", `/api/v1/sessions/${current.session}/watch`);
    $("links-title").textContent = "Share";
    $("links-help").textContent = "Anyone with this link sees every move you make, live. It cannot change the game.";
    showLinks($("links-dialog"), [["Spectators' link", answer.watch]]);
  } catch (error) {
    showNotice(error.message);
  }
}
