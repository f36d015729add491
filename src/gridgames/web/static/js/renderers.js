// Each game's renderer is a module the server serves from the game's own package
// (/games/<name>/renderer.js); docs/adding-a-game.md says what it exports.
const loaded = new Map();

export function loadRenderer(name) {
  if (!loaded.has(name)) loaded.set(name, import(`/games/${encodeURIComponent(name)}/renderer.js`));
  return loaded.get(name);
}
