// Each game's renderer is a module the server serves from the game's own package
// (/games/<name>/renderer.js), with its stylesheet beside it (/games/<name>/renderer.css);
// docs/adding-a-game.md says what they hold. A renderer is ready once both have loaded, so
// that nothing is drawn unstyled.
const loaded = new Map();

export function loadRenderer(name) {
  if (!loaded.has(name)) {
    const path = `/games/${encodeURIComponent(name)}`;
    loaded.set(name, Promise.all([import(`${path}/renderer.js`), linkStylesheet(`${path}/renderer.css`)])
      .then(([module]) => module));
  }
  return loaded.get(name);
}

function linkStylesheet(href) {
  return new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.addEventListener("load", resolve);
    link.addEventListener("error", () => reject(new Error(`cannot load ${href}`)));
    document.head.appendChild(link);
  });
}
