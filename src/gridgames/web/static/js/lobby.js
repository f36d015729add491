// The lobby, on the home page and on each two-player game's page: the open seeks (accept one
// to play), your own, and a form to seek a game or to be paired with anyone near your
// rating. A player is a name and a secret that this browser keeps (never in the statistics
// export); "Move to another device" shows it as a code to paste there. The page looks at
// the lobby every LOOK_MS: that keeps its seeks open, and finds the game one became.
import { api } from "./api.js";

export const PLAYER = "gridgames.player";  // not "gridgames-": the export leaves it out
const LOOK_MS = 2500;
// The clocks a seek offers: "kind:seconds" (the server's limits: web/clocks.py).
const CLOCKS = [["", "No clock"], ["game:180", "3 min a game"], ["game:300", "5 min a game"],
  ["game:600", "10 min a game"], ["game:1800", "30 min a game"], ["move:30", "30 s a move"],
  ["move:86400", "1 day a move"]];

function clockOf(value) {
  if (!value) return null;
  const [kind, seconds] = value.split(":");
  return { kind, seconds: Number(seconds) };
}

function clockWords(clock) {
  if (!clock) return "";
  const label = CLOCKS.find(([value]) => value === `${clock.kind}:${clock.seconds}`);
  return ` · ${label ? label[1] : `${clock.seconds} s a ${clock.kind}`}`;
}

export function savedPlayer() {
  try {
    const found = JSON.parse(localStorage.getItem(PLAYER));
    return found && typeof found.secret === "string" && typeof found.name === "string" ? found : null;
  } catch {
    return null;
  }
}

function auth(player) {
  return { Authorization: `Bearer ${player.secret}` };
}

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

// Mount the lobby in `root`. games: the two-player games' descriptions; only: a game name
// (a game page shows that game's seeks and seeks it), or null for every game; onCount:
// told after each look how many seeks and challenges there are for the player to take.
export function mountLobby(root, games, only = null, onCount = () => {}) {
  const lobby = new Lobby(root, games.filter((g) => g.players === 2 && (!only || g.name === only)), onCount);
  lobby.render();
  lobby.look();
  setInterval(() => { if (!document.hidden || lobby.mine.length) lobby.look(); }, LOOK_MS);
  return lobby;
}

class Lobby {
  constructor(root, games, onCount) {
    this.root = root;
    this.onCount = onCount;
    this.games = games;
    this.player = savedPlayer();
    this.seeks = [];
    this.challenges = [];
    this.mine = [];
    this.message = "";
  }

  async call(method, path, body) {
    return api(method, path, body, this.player ? auth(this.player) : {});
  }

  async look() {
    try {
      const answer = await this.call("GET", "/api/v1/lobby");
      if (answer.paired) {
        location.href = answer.paired.url;
        return;
      }
      const wanted = new Set(this.games.map((g) => g.name));
      this.seeks = answer.seeks.filter((s) => wanted.has(s.game));
      this.challenges = answer.challenges || [];
      this.mine = answer.mine || [];
      this.renderSeeks();
      this.onCount(this.seeks.length + this.challenges.length);
    } catch (error) {
      if (error.status === 401) this.forget("This browser's player is gone from the server: choose a name again.");
      else this.say(error.message);
    }
  }

  forget(why) {
    localStorage.removeItem(PLAYER);
    this.player = null;
    this.render();
    this.say(why);
  }

  say(text) {
    this.message = text;
    const line = this.root.querySelector(".lobby-message");
    if (line) line.textContent = text;
  }

  async act(work) {
    try {
      await work();
      this.say("");
    } catch (error) {
      this.say(error.message);
    }
    this.look();
  }

  render() {
    this.root.textContent = "";
    this.root.append(el("h2", { id: "lobby-heading", textContent: "Play someone" }));
    this.root.append(this.player ? this.youLine() : this.nameForm());
    this.list = el("ul", { className: "lobby-list", id: "lobby-seeks" });
    this.root.append(this.list);
    if (this.player && this.games.length) this.root.append(this.seekForm());
    this.root.append(el("p", { className: "lobby-message", role: "status", textContent: this.message }));
    this.renderSeeks();
  }

  nameForm() {
    const input = el("input", { id: "lobby-name", maxLength: 20, placeholder: "Your name", autocomplete: "nickname" });
    input.setAttribute("aria-label", "Your name");
    const form = el("form", { className: "lobby-form" }, input, " ",
      el("button", { type: "submit", className: "primary", textContent: "Choose this name" }), " ",
      el("button", { type: "button", id: "lobby-import", className: "small", textContent: "I have a code", onclick: () => this.importCode() }));
    form.onsubmit = (event) => {
      event.preventDefault();
      this.act(async () => {
        const made = await api("POST", "/api/v1/players", { name: input.value.trim() });
        this.keep({ name: made.name, secret: made.secret });
      });
    };
    return el("div", {}, el("p", { textContent: "Choose a name to seek games and accept them. No account: this browser keeps who you are." }), form);
  }

  keep(player) {
    localStorage.setItem(PLAYER, JSON.stringify(player));
    this.player = player;
    this.render();
  }

  youLine() {
    const line = el("p", { className: "lobby-you", id: "lobby-you" }, "You are ", el("strong", { textContent: this.player.name }), " ");
    line.append(
      el("button", { type: "button", className: "small", textContent: "Rename", onclick: () => this.rename() }), " ",
      el("button", { type: "button", className: "small", textContent: "Move to another device", onclick: () => this.exportCode() }), " ",
      el("button", { type: "button", className: "small", textContent: "Delete me", onclick: () => this.remove() }), " ",
      el("button", { type: "button", className: "small", textContent: "New bot", title: "A player for a program: its API token", onclick: () => this.newBot() }));
    return line;
  }

  newBot() {
    const name = prompt("The bot's name (it plays through the API: see the JSON API's players and lobby)");
    if (!name) return;
    this.act(async () => {
      const made = await api("POST", "/api/v1/players", { name: name.trim(), bot: true });
      prompt(`${made.name}'s API token, shown once: send it as "Authorization: Bearer TOKEN" (examples/lobby_bot.py --secret TOKEN).`, made.secret);
    });
  }

  rename() {
    const name = prompt("Your new name", this.player.name);
    if (!name) return;
    this.act(async () => {
      const done = await this.call("PATCH", "/api/v1/players/me", { name: name.trim() });
      this.keep({ ...this.player, name: done.name });
    });
  }

  remove() {
    if (!confirm("Delete your player from the server: name, seeks and ratings? Your games stay.")) return;
    this.act(async () => {
      await this.call("DELETE", "/api/v1/players/me");
      this.forget("Your player is deleted.");
    });
  }

  exportCode() {
    const code = btoa(JSON.stringify(this.player));
    prompt("This code carries who you are: whoever has it plays as you. Paste it on your other device (\"I have a code\").", code);
  }

  importCode() {
    const code = prompt("Paste the code from your other device");
    if (!code) return;
    let player;
    try {
      player = JSON.parse(atob(code.trim()));
    } catch {
      player = null;
    }
    if (!player || typeof player.secret !== "string" || typeof player.name !== "string") {
      this.say("That is not a player's code: nothing was changed.");
      return;
    }
    this.player = player;
    this.act(async () => {
      const me = await this.call("GET", "/api/v1/players/me");
      this.keep({ name: me.name, secret: player.secret });
    });
  }

  seekForm() {
    const game = el("select", { id: "lobby-game" });
    game.setAttribute("aria-label", "Game");
    for (const g of this.games) game.append(el("option", { value: g.name, textContent: g.title }));
    const shape = el("input", { id: "lobby-params", size: 22 });
    shape.setAttribute("aria-label", "Board");
    const opponent = el("input", { id: "lobby-opponent", maxLength: 20, placeholder: "Anyone, a name, an AI", size: 16 });
    opponent.setAttribute("aria-label", "Opponent (a name challenges that player only; an AI level plays at once)");
    const levels = el("datalist", { id: "lobby-ai-levels" });
    opponent.setAttribute("list", levels.id);
    const fill = () => {
      const g = this.games.find((x) => x.name === game.value);
      levels.replaceChildren(...g.ai_levels.map((level) => el("option", { value: level })));
      shape.value = g.params.filter((p) => p.type === "int").map((p) => `${p.name}=${p.default}`).join(",");
      shape.hidden = !g.params.length;
    };
    game.onchange = fill;
    fill();
    const rated = el("input", { type: "checkbox", id: "lobby-rated", checked: true });
    const clock = el("select", { id: "lobby-clock" });
    clock.setAttribute("aria-label", "Clock");
    for (const [value, label] of CLOCKS) clock.append(el("option", { value, textContent: label }));
    // A seek may be paired at once (quick pairing found someone; an AI level takes it).
    const seek = (quick) => this.act(async () => {
      const made = await this.call("POST", "/api/v1/seeks", {
        game: game.value, params: shape.value.trim(), rated: rated.checked, quick, clock: clockOf(clock.value),
        opponent: !quick && opponent.value.trim() ? opponent.value.trim() : null });
      if (made.paired) location.href = made.paired.url;
    });
    return el("p", { className: "lobby-form" }, game, " ", shape, " ", clock, " ", opponent, levels, " ",
      el("label", {}, rated, " rated"), " ",
      el("button", { type: "button", id: "lobby-seek", textContent: "Seek a game", onclick: () => seek(false) }), " ",
      el("button", { type: "button", id: "lobby-quick", className: "primary", textContent: "Play anyone", title: "Paired with the first player near your rating", onclick: () => seek(true) }));
  }

  // Block a player: their seeks and challenges are no longer shown, no game with them.
  blockButton(name) {
    return el("button", { type: "button", className: "small", textContent: "Block", title: `No games with ${name}`,
      onclick: () => {
        if (confirm(`Block ${name}? You will not see their seeks or challenges, nor play them.`)) {
          this.act(() => this.call("POST", "/api/v1/players/me/blocks", { name }));
        }
      } });
  }

  renderSeeks() {
    if (!this.list) return;
    this.list.textContent = "";
    const title = (name) => this.games.find((g) => g.name === name)?.title || name;
    const about = (s) => `${title(s.game)}${s.params ? ` (${s.params.replaceAll(",", ", ")})` : ""} · ${s.rated ? "rated" : "casual"}${clockWords(s.clock)}`;
    for (const s of this.challenges) {
      const item = el("li", { className: "lobby-seek challenge" }, el("span", {
        textContent: `${s.player}${s.bot ? " (bot)" : ""} ${s.rating} challenges you: ${about(s)}` }), " ",
      el("button", { type: "button", className: "small primary", textContent: "Play",
        onclick: () => this.act(async () => {
          location.href = (await this.call("POST", `/api/v1/seeks/${s.id}/accept`)).url;
        }) }), " ",
      el("button", { type: "button", className: "small", textContent: "Decline", onclick: () => this.act(() => this.call("DELETE", `/api/v1/seeks/${s.id}`)) }),
      " ", this.blockButton(s.player));
      this.list.append(item);
    }
    for (const s of this.mine) {
      const whom = s.to ? ` · challenging ${s.to}` : s.quick ? " · pairing with anyone near your rating" : "";
      const item = el("li", { className: "lobby-seek mine" }, el("span", {
        textContent: `You seek ${about(s)}${whom}…` }), " ",
      el("button", { type: "button", className: "small", textContent: "Cancel", onclick: () => this.act(() => this.call("DELETE", `/api/v1/seeks/${s.id}`)) }));
      this.list.append(item);
    }
    for (const s of this.seeks) {
      const item = el("li", { className: "lobby-seek" }, el("span", {
        textContent: `${s.player}${s.bot ? " (bot)" : ""} ${s.rating} · ${about(s)}` }));
      if (this.player) {
        item.append(" ", el("button", { type: "button", className: "small primary", textContent: "Play",
          onclick: () => this.act(async () => {
            const game = await this.call("POST", `/api/v1/seeks/${s.id}/accept`);
            location.href = game.url;
          }) }), " ", this.blockButton(s.player));
      }
      this.list.append(item);
    }
    if (!this.mine.length && !this.seeks.length && !this.challenges.length) {
      this.list.append(el("li", { className: "lobby-empty", textContent: "Nobody is seeking a game right now." }));
    }
  }
}
