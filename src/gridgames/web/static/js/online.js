// Online play on the game page: a seat's or a spectator's link (`?link=TOKEN`), the live
// connection that brings every new position, and the bar that says who is there and what
// is offered. No rule lives here: the server says whose turn it is, what is offered, and
// whether a claim is allowed (its countdown is only shown here).
import { api } from "./api.js";

const RETRY_MS = [500, 1000, 2000, 4000];  // then every 4 s

export class OnlineLink {
  constructor(token, { onState, onStatus }) {
    this.token = token;
    this.onState = onState;      // a payload to show
    this.onStatus = onStatus;    // "live", "reconnecting…"
    this.round = 0;
    this.version = -1;
    this.socket = null;
    this.tries = 0;
    this.closed = false;
    this.online = null;
    this.receivedAt = Date.now();
    // A handle for people debugging (and the browser tests): the live connection's state,
    // and a way to drop it as a network would.
    window.gridgamesLive = { state: () => this.socket?.readyState ?? -1, drop: () => this.socket?.close() };
  }

  // Count the clocks down on the bar until the next message (null: no clock).
  showClock(clock) {
    clearInterval(this.ticker);
    if (!clock) return;
    const at = Date.now();
    tickClocks(clock, at);
    this.ticker = setInterval(() => tickClocks(clock, at), 250);
  }

  path(action = "") {
    return `/api/v1/links/${encodeURIComponent(this.token)}${action ? `/${action}` : ""}`;
  }

  async load() {
    const payload = await api("GET", this.path());
    this.take(payload);
    this.connect();
    return payload;
  }

  // Whether a payload is news: a later round (a rematch), a later version, or what is said
  // of the players (presence, offers) changed. An older one is dropped: nothing is shown
  // twice, and nothing older after something newer.
  isNews(payload) {
    const round = payload.online?.round ?? 0;
    if (round !== this.round) return round > this.round;
    if (payload.version !== this.version) return payload.version > this.version;
    return JSON.stringify(payload.online) !== JSON.stringify(this.online);
  }

  isOlder(payload) {
    const round = payload.online?.round ?? 0;
    return round < this.round || (round === this.round && payload.version < this.version);
  }

  take(payload) {
    this.round = payload.online?.round ?? 0;
    this.version = payload.version;
    this.online = payload.online;
    this.receivedAt = Date.now();
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.path("live")}`);
    this.socket = socket;
    socket.onopen = () => {
      this.tries = 0;
      this.onStatus("live");
      socket.send(JSON.stringify({ type: "hello", version: this.version }));
    };
    socket.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message.type === "state") {
        if (this.isNews(message.payload)) {
          this.take(message.payload);
          this.onState(message.payload);
        }
      } else if (message.type === "error") {
        this.onStatus(message.error);
      }
    };
    socket.onclose = () => {
      if (this.socket !== socket || this.closed) return;
      this.onStatus("reconnecting…");
      const wait = RETRY_MS[Math.min(this.tries, RETRY_MS.length - 1)];
      this.tries += 1;
      setTimeout(() => this.connect(), wait);
    };
  }

  // Seconds since the opponent's page went, as of now (the server said as of its message).
  goneFor(seat) {
    const player = this.online?.players?.[seat];
    if (!player || player.gone_for === null || player.gone_for === undefined) return null;
    return player.gone_for + (Date.now() - this.receivedAt) / 1000;
  }
}

// A lobby game's players: "Red Alice (1500?) · Yellow Bob (1620) · rated", and after a rated
// game each one's rating before and after.
function playersLine(online, names) {
  const line = document.createElement("span");
  line.className = "players-line";
  line.id = "players-line";
  const rating = (p) => p.rating_after !== undefined && p.rating_after !== null
    ? `${p.rating} → ${p.rating_after}` : `${p.rating}${p.provisional ? "?" : ""}`;
  online.players.forEach((p, seat) => {
    if (seat) line.append(" · ");
    line.append(`${names[seat]} ${p.name} (${rating(p)})`);
    if (online.clock) {
      const left = document.createElement("span");
      left.className = "clock-left";
      left.dataset.seat = seat;
      line.append(" ", left);
    }
  });
  line.append(online.rated ? " · rated" : " · casual");
  return line;
}

// The players' clocks: each side's time left as the server said (`clock`, received at
// `at`), the running one counted down here between its messages (the server decides a loss
// on time, not the page).
function tickClocks(clock, at) {
  for (const span of document.querySelectorAll(".clock-left")) {
    const seat = Number(span.dataset.seat);
    const running = clock.running === seat;
    const left = Math.max(0, clock.left[seat] - (running ? (Date.now() - at) / 1000 : 0));
    span.textContent = clockText(left);
    span.classList.toggle("running", running);
    span.classList.toggle("low", running && left < 10);
  }
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  if (whole >= 3600) return `${Math.floor(whole / 3600)}h${String(Math.floor(whole / 60) % 60).padStart(2, "0")}`;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// The bar under the status line: who you are, the opponent's presence, the open offer.
export function renderBar(bar, payload, link, { names, actions }) {
  const online = payload.online;
  bar.textContent = "";
  bar.hidden = !online;
  if (!online) return;
  const you = online.you;
  if (online.players.every((p) => p.name)) bar.appendChild(playersLine(online, names));
  link.showClock(online.clock);
  const line = document.createElement("span");
  line.className = "who";
  if (you === null) {
    line.textContent = "Watching";
  } else {
    const other = 1 - you;
    const player = online.players[other];
    const gone = link.goneFor(other);
    let presence;
    if (!player.joined) presence = "has not opened the link yet";
    else if (player.connected) presence = "is here";
    else presence = `has been gone for ${clock(gone)}`;
    line.textContent = `You play ${names[you]} · ${names[other]} ${presence}`;
    line.dataset.presence = player.connected ? "here" : player.joined ? "gone" : "not-joined";
    const claimIn = gone === null ? null : online.claim_seconds - gone;
    if (!payload.status.over && claimIn !== null) {
      const claim = button(claimIn <= 0 ? "Claim the win" : `Claim in ${clock(claimIn)}`, actions.claim);
      claim.id = "claim";
      claim.disabled = claimIn > 0;
      line.append(" ", claim);
    }
  }
  const others = online.watchers - (you === null ? 1 : 0);  // a spectator counts itself
  if (others > 0) line.append(you === null ? ` with ${others} other${others === 1 ? "" : "s"}` : ` · ${others} watching`);
  bar.appendChild(line);
  const offer = online.offer;
  if (offer) {
    const box = document.createElement("span");
    box.className = "offer";
    box.id = "offer";
    const what = { takeback: "a takeback", draw: "a draw", rematch: "a rematch (sides swapped)" }[offer.kind];
    if (offer.by === you) {
      box.append(`You offered ${what}. `, button("Withdraw", actions.withdraw));
    } else {
      box.append(`${names[offer.by]} offers ${what}${you === null ? "" : ":"} `);
      if (you !== null) {
        const yes = button("Accept", () => actions.reply(offer.kind, true));
        yes.id = "accept";
        const no = button("Decline", () => actions.reply(offer.kind, false));
        no.id = "decline";
        box.append(yes, " ", no);
      }
    }
    bar.appendChild(box);
  } else if (online.declined && online.declined.by !== you && you !== null) {
    const note = document.createElement("span");
    note.className = "offer";
    note.textContent = `Your ${online.declined.kind} offer was declined.`;
    bar.appendChild(note);
  }
}

function button(label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "small";
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

function clock(seconds) {
  const s = Math.max(0, Math.round(seconds ?? 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The links dialog: what to send to the opponent and to spectators.
export function showLinks(dialog, links) {
  const list = dialog.querySelector("#link-list");
  list.textContent = "";
  for (const [label, path] of links) {
    const row = document.createElement("p");
    const url = new URL(path, location.href).href;
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = url;
    input.setAttribute("aria-label", label);
    input.dataset.link = label;
    const copy = button("Copy", async () => {
      input.select();
      try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; } catch { document.execCommand?.("copy"); }
    });
    const name = document.createElement("span");
    name.textContent = label;
    row.append(name, input, copy);
    list.appendChild(row);
  }
  dialog.showModal();
}

export { api };
