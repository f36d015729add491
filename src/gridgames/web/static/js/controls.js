// The page's buttons and dialogs wired to what they do, and the statistics dialog.
import { $, gameName, page, paramsWords, remember } from "./page.js";
import { renderStats, resetStats } from "./stats.js";
import { downloadData, importData } from "./transfer.js";
import { api } from "./api.js";
import { showClock, showNotice } from "./show.js";
import { command, newGame } from "./actions.js";
import { aiMove, cancelThinking, runCheck, showHint, showSolution, togglePause } from "./machine.js";
import { linkAction, playOnline, shareWatch } from "./linked.js";
import { applySeats, openSettings, startFromSettings } from "./settings.js";
import { onKey, openHelp } from "./keys.js";
import { copyResult } from "./daily-page.js";
import { dailyStreak } from "./daily.js";

export function openStats() {
  fillStats();
  $("transfer-said").hidden = true;
  $("stats-dialog").showModal();
}

// Import: the file's data merged into this browser's; what was done, or why not, is said.
async function importFile() {
  const file = $("import-file").files[0];
  if (!file) return;
  const said = $("transfer-said");
  try {
    const cards = await api("GET", "/api/v1/games");
    const orders = Object.fromEntries(cards.map((card) => [card.name, card.score_order]));
    const count = importData(await file.text(), orders);
    said.textContent = `Imported ${count} ${count === 1 ? "entry" : "entries"}: statistics merged, unfinished games joined, settings taken from the file.`;
    fillStats();
  } catch (error) {
    said.textContent = error.message;
  }
  said.hidden = false;
  $("import-file").value = "";
}

function fillStats() {
  $("stats-confirm").hidden = true;
  const card = page.card;
  renderStats($("stats-body"), gameName, { players: card.players, scoreOrder: card.score_order, scoreUnit: card.score_unit, describe: (params) => paramsWords(card, params), daily: dailyStreak() });
}

export function wireControls() {
  $("cancel-thinking").addEventListener("click", cancelThinking);
  $("notice").addEventListener("click", () => { $("notice").hidden = true; });
  $("play-online").addEventListener("click", playOnline);
  $("share").addEventListener("click", shareWatch);
  $("draw").addEventListener("click", () => linkAction("offer", { kind: "draw" }));
  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) linkAction("resign"); });
  $("new").addEventListener("click", () => newGame().catch((e) => showNotice(e.message)));
  $("again").addEventListener("click", () => newGame().catch((e) => showNotice(e.message)));
  $("undo").addEventListener("click", () => command("undo"));
  $("redo").addEventListener("click", () => command("redo"));
  $("restart").addEventListener("click", () => command("restart"));
  $("hint").addEventListener("click", showHint);
  $("check").addEventListener("click", runCheck);
  $("aimove").addEventListener("click", () => aiMove(true));
  $("solve").addEventListener("click", showSolution);
  $("stats").addEventListener("click", openStats);
  $("daily-copy").addEventListener("click", copyResult);
  $("zoom-in").addEventListener("click", () => page.zoom.zoomIn());
  $("zoom-out").addEventListener("click", () => page.zoom.zoomOut());
  $("zoom-fit").addEventListener("click", () => page.zoom.fit());
  $("stats-export").addEventListener("click", downloadData);
  $("stats-import").addEventListener("click", () => $("import-file").click());
  $("import-file").addEventListener("change", importFile);
  $("stats-dialog").addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "e") downloadData();
    else if (event.key === "i") $("import-file").click();
  });
  $("stats-reset").addEventListener("click", () => { $("stats-confirm").hidden = false; $("stats-reset-no").focus(); });
  $("stats-reset-no").addEventListener("click", () => { $("stats-confirm").hidden = true; });
  $("stats-reset-yes").addEventListener("click", () => { resetStats(gameName); fillStats(); $("stats-reset").focus(); });
  $("show-clock").addEventListener("change", (event) => { remember("clock", event.target.checked); showClock(); });
  $("pause").addEventListener("click", togglePause);
  $("settings").addEventListener("click", openSettings);
  $("help").addEventListener("click", openHelp);
  // The close event comes a task later: by then the panel may have been opened again.
  $("help-dialog").addEventListener("close", () => {
    if (!$("help-dialog").open) $("help-picture").textContent = "";
  });
  $("start-new").addEventListener("click", startFromSettings);
  $("apply-seats").addEventListener("click", applySeats);
  document.addEventListener("keydown", onKey);
}
