// The offline page: the unfinished games this browser keeps, to reopen when the network is
// back, and "Try again" (it loads the address asked for: this page is shown in its place).
import { ago, gameUrl, unfinishedGames } from "./unfinished.js";

const list = document.getElementById("unfinished");
for (const game of unfinishedGames()) {
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = gameUrl(game);
  link.textContent = `${game.title}, ${ago(game.at)}`;
  item.appendChild(link);
  list.appendChild(item);
}
document.getElementById("unfinished-box").hidden = list.children.length === 0;
document.getElementById("again").addEventListener("click", () => location.reload());
