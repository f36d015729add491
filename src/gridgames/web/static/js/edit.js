// The level editor's page, the same for every game that has one: the game's card, its
// renderer's stylesheet and its editor module (/games/<name>/<name>-edit.js), which draws the
// editor into the page. The game's server side checks levels and writes level files.
import { api } from "./api.js";
import { registerServiceWorker } from "./install.js";
import { loadRenderer } from "./renderers.js";
import { initTheme } from "./theme.js";

async function start() {
  initTheme(document.getElementById("theme"));
  registerServiceWorker();
  const parts = location.pathname.split("/").filter(Boolean);
  const name = decodeURIComponent(parts[parts.length - 2]);
  document.body.dataset.game = name;
  const back = document.getElementById("back");
  back.href = `/play/${encodeURIComponent(name)}`;
  try {
    const card = (await api("GET", "/api/v1/games")).find((c) => c.name === name);
    document.getElementById("title").textContent = `${card.title} level editor`;
    document.title = `${card.title} level editor · gridgames`;
    back.textContent = `Play ${card.title}`;
    await loadRenderer(name);
    const editor = await import(`/games/${encodeURIComponent(name)}/${encodeURIComponent(name)}-edit.js`);
    editor.createEditor(document.getElementById("editor"), { notice: showNotice });
  } catch (error) {
    showNotice(`Cannot load the editor: ${error.message}`);
  }
}

function showNotice(text, kind = "error") {
  const notice = document.getElementById("notice");
  notice.textContent = text;
  notice.className = kind === "info" ? "notice info" : "notice";
  notice.hidden = !text;
}

start();
