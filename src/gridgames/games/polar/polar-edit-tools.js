// The level editor's questions to the server: what the draft still needs (checked after each
// change), where to start from, Play (the level as a game), "Can it be won?" (the solver, in
// the compute pool with the server's budget for a solution), Share and Download (a level file
// the server writes). The server's words are shown as they are.
import { api } from "/static/js/api.js";

const CHECK_WAIT = 120; // ms after the last change: a drag paints many cells
const FORMATS = { pack: "Level pack text", stge: "STGE record (binary)", "stge-hex": "STGE in hex words" };

export function createTools(root, start, { draft, load, notice }) {
  let checked = null;   // the server's answer for the draft as it is now, or null
  let asked = 0;        // bumps with each change: a late answer about an older draft is dropped
  let timer = null;
  let searching = null; // the session the solver is searching for, while it does
  const solved = new Map(); // desc -> the words of the solver's answer, asked once per level

  const select = element(start, "select", { id: "edit-start", "aria-label": "Start from" });
  select.appendChild(new Option("Start from…", ""));
  select.appendChild(new Option("Empty ice", "empty"));
  const status = element(root, "p", { id: "edit-status", class: "edit-status", role: "status" });
  const answer = element(root, "p", { id: "edit-answer", class: "edit-answer", role: "status", "aria-live": "polite" });
  const actions = element(root, "div", { class: "edit-actions" });
  const play = button(actions, "edit-play", "Play", "Play this level now (test-play)");
  const win = button(actions, "edit-win", "Can it be won?", "Ask the solver whether the level can be won, and in how few pushes");
  const share = button(actions, "edit-share", "Share", "Copy a link that plays this level");
  const name = element(actions, "input", { id: "edit-name", type: "text", value: "My level", maxlength: "60", "aria-label": "Level name", title: "The level's name in its file" });
  const format = element(actions, "select", { id: "edit-format", "aria-label": "File format" });
  for (const [value, words] of Object.entries(FORMATS)) format.appendChild(new Option(words, value));
  const download = button(actions, "edit-download", "Download", "Download the level as a file");
  const link = element(root, "input", { id: "edit-link", type: "text", readonly: "", "aria-label": "Link to play this level", hidden: "" });

  api("GET", "/api/v1/games/polar/levels").then((packs) => {
    for (const pack of packs) {
      const group = document.createElement("optgroup");
      group.label = pack.title;
      for (const lv of pack.levels) group.appendChild(new Option(`${lv.number}. ${lv.name}`, lv.desc));
      select.appendChild(group);
    }
  }).catch((error) => notice(`Cannot list the levels: ${error.message}`));

  select.addEventListener("change", async () => {
    const value = select.value;
    select.value = "";
    if (value === "empty") load({ cells: Array(draft().cells.length).fill(0), penguin: null });
    else if (value) {
      try { load(await api("POST", "/api/v1/games/polar/levels/draft", { draft: { desc: value } })); } catch (error) { notice(error.message); }
    }
  });
  play.addEventListener("click", () => { if (checked?.id) location.assign(playAddress()); });
  win.addEventListener("click", canItBeWon);
  share.addEventListener("click", shareLink);
  download.addEventListener("click", save);

  function element(parent, tag, attrs) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    parent.appendChild(node);
    return node;
  }

  function button(parent, id, words, title) {
    const b = element(parent, "button", { id, type: "button", title });
    b.textContent = words;
    return b;
  }

  function playAddress() {
    return `${location.origin}/play/polar?${new URLSearchParams({ id: checked.id })}`;
  }

  // After a change: the buttons wait for the server's word on the new draft.
  function changed() {
    asked += 1;
    // The level the solver searches is gone: free the compute pool for the next question.
    if (searching) api("POST", `/api/v1/sessions/${searching}/cancel`).catch(() => {});
    searching = null;
    checked = null;
    link.hidden = true;
    answer.textContent = "";
    answer.className = "edit-answer";
    enable(false);
    clearTimeout(timer);
    const mine = asked;
    timer = setTimeout(async () => {
      try {
        const found = await api("POST", "/api/v1/games/polar/levels/draft", { draft: draft() });
        if (mine === asked) show(found);
      } catch (error) {
        if (mine === asked) notice(`Cannot check the level: ${error.message}`);
      }
    }, CHECK_WAIT);
  }

  function show(found) {
    checked = found;
    notice("");
    status.textContent = "";
    status.className = "edit-status";
    if (found.problems.length) {
      status.classList.add("edit-problems");
      const list = element(status, "span", {});
      list.textContent = `Not a level yet: ${found.problems.join(". ")}.`;
    } else if (found.start?.over) {
      status.classList.add("edit-problems");
      status.textContent = `Proven unwinnable at the start: ${found.start.message}.`;
    } else {
      status.textContent = "Ready: play it, ask whether it can be won, share it or download it.";
    }
    enable(!found.problems.length);
    if (found.desc && solved.has(found.desc)) say(...solved.get(found.desc));
  }

  function enable(ready) {
    for (const b of [play, win, share, download]) b.disabled = !ready;
    status.dataset.ready = String(ready);
  }

  function say(words, kind = "info") {
    answer.textContent = words;
    answer.className = `edit-answer ${kind}`;
  }

  // The solver's answer for the level's start, through a session of its game ID and the
  // solution API (the compute pool, with the server's budget).
  async function canItBeWon() {
    if (!checked?.id) return;
    const { desc, id } = checked;
    const mine = asked;
    win.disabled = true;
    say("Searching…");
    let words;
    try {
      const session = await api("POST", "/api/v1/sessions", { id });
      if (mine !== asked) return;
      searching = session.session;
      try {
        const found = (await api("GET", `/api/v1/sessions/${session.session}/solution`)).result;
        words = found.proven ? [`Yes: proven, ${found.note}.`, "good"]
          : [`Yes: ${found.note} (best found within the budget; it may take fewer).`, "good"];
      } catch (error) {
        const result = error.data?.result;
        if (!result) throw error;
        words = result.proven ? ["No: proven unwinnable (the search tried every position).", "warn"]
          : [`Not shown winnable within the budget (${Math.round(result.seconds)} s): it may still be.`, "warn"];
      }
      solved.set(desc, words);
    } catch (error) {
      words = [`The solver could not answer: ${error.message}`, "warn"];
    }
    if (mine === asked) {
      searching = null;
      say(...words);
      win.disabled = false;
    }
  }

  async function shareLink() {
    if (!checked?.id) return;
    link.value = playAddress();
    link.hidden = false;
    try {
      await navigator.clipboard.writeText(link.value);
      say("Link copied: it plays this level.");
    } catch {
      link.select();
      say("Copy the link below: it plays this level.");
    }
  }

  // The server writes the file (and refuses a level with a problem, with the reason).
  async function save() {
    if (!checked?.desc) return;
    const query = new URLSearchParams({ desc: checked.desc, format: format.value, name: name.value.trim() || "My level" });
    const address = `/api/v1/games/polar/levels/file?${query}`;
    const response = await fetch(address);
    if (!response.ok) {
      let why = `server answered ${response.status}`;
      try { why = (await response.json()).error; } catch { /* not JSON */ }
      say(`Cannot download: ${why}`, "warn");
      return;
    }
    const file = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "")?.[1] || "level.txt";
    const url = URL.createObjectURL(await response.blob());
    const a = element(document.body, "a", { href: url, download: file, hidden: "" });
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    say(`Downloaded ${file}.`);
  }

  return { changed };
}
