// Each game's renderer is a module the server serves from the game's own package
// (/games/<name>/renderer.js), with its stylesheet beside it (/games/<name>/renderer.css);
// docs/adding-a-game.md says what they hold. A renderer is ready once both have loaded, so
// that nothing is drawn unstyled. The browser keeps each module once; the stylesheet's
// <link> in the head, once linked, serves every later call.
export async function loadRenderer(name) {
  const path = `/games/${encodeURIComponent(name)}`;
  const [module] = await Promise.all([import(`${path}/renderer.js`), linkStylesheet(`${path}/renderer.css`)]);
  return module;
}

function linkStylesheet(href) {
  let link = document.head.querySelector(`link[rel="stylesheet"][href="${href}"]`);
  if (link?.dataset.state === "loaded") return Promise.resolve();
  if (!link) {
    link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.addEventListener("load", () => { link.dataset.state = "loaded"; });
    link.addEventListener("error", () => { link.dataset.state = "failed"; });
    document.head.appendChild(link);
  }
  if (link.dataset.state === "failed") return Promise.reject(new Error(`cannot load ${href}`));
  return new Promise((resolve, reject) => {
    link.addEventListener("load", resolve);
    link.addEventListener("error", () => reject(new Error(`cannot load ${href}`)));
  });
}
