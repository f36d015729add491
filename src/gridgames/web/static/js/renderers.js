// view.kind -> the module that draws it. Each game's page module is one entry here.
import * as ishido from "./games/ishido.js";
import * as polar from "./games/polar.js";
import * as stones from "./games/stones.js";
import * as twomino from "./games/twomino.js";

export const RENDERERS = { stones, ishido, polar, twomino };

export function rendererFor(view) {
  const module = RENDERERS[view.kind];
  if (!module) throw new Error(`no renderer for ${view.kind}`);
  return module;
}
