// How Ishido's tiles look: the colour palettes, the picture sets and the drawing of one tile,
// and the player's choice of them kept in the browser. The renderer (ishido.js) draws the rest.
import { el } from "/static/js/svg.js";

export const PALETTES = {
  // Paul Tol "bright" in the source's order (docs/rules/ishido.md): blue, cyan, green,
  // yellow, red, purple. The blue is a little lighter than Tol's, the closest colour that
  // stays at least 10 (CIEDE2000) from the green for a tritanope: tests/test_palettes.py.
  bright: { name: "Tol bright", colours: ["#3C77BE", "#66CCEE", "#228833", "#CCBB44", "#EE6677", "#AA3377"], ink: "whitesmoke", edge: "rgba(0,0,0,.25)" },
  // Okabe-Ito colours, strongly different in lightness, with black outlines and colour letters.
  contrast: { name: "High contrast", colours: ["#0072B2", "#56B4E9", "#009E73", "#F0E442", "#D55E00", "#CC79A7"], ink: "#000", edge: "#000", marks: true },
};
export const IMAGE_SETS = {
  // The source's six birds: peacock, parrot, flamingo, owl, duck, eagle.
  birds: { name: "Birds", glyphs: ["\u{1F99A}", "\u{1F99C}", "\u{1F9A9}", "\u{1F989}", "\u{1F986}", "\u{1F985}"], emoji: true },
  shapes: { name: "Shapes", shapes: true },
  letters: { name: "Letters", glyphs: ["A", "B", "C", "D", "E", "F"] },
};
const COLOUR_MARKS = ["b", "c", "g", "y", "r", "p"];
const PREFS = "gridgames-ishido-look";

// Draw a bird on a canvas: a colour emoji font leaves coloured pixels, a missing one not.
export function canDrawEmoji() {
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 32;
    const ctx = canvas.getContext("2d");
    ctx.font = "24px sans-serif";
    ctx.textBaseline = "top";
    ctx.fillText("\u{1F989}", 2, 2);
    const data = ctx.getImageData(0, 0, 32, 32).data;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 0 && (Math.abs(data[i] - data[i + 1]) > 20 || Math.abs(data[i + 1] - data[i + 2]) > 20)) return true;
    }
    return false;
  } catch { return false; }
}

export function loadLook() {
  try { return { palette: "bright", images: "birds", assist: false, ...JSON.parse(localStorage.getItem(PREFS)) }; } catch { return { palette: "bright", images: "birds", assist: false }; }
}

export function keepLook(look) {
  localStorage.setItem(PREFS, JSON.stringify(look));
}

// One tile (colour tile // 6, picture tile % 6) in a size x size square at (x, y).
export function drawTile(parent, tile, x, y, size, look, emojiOk) {
  const palette = PALETTES[look.palette] || PALETTES.bright;
  let images = IMAGE_SETS[look.images] || IMAGE_SETS.birds;
  if (images.emoji && !emojiOk) images = IMAGE_SETS.letters;
  const c = Math.floor(tile / 6), s = tile % 6;
  const g = el("g", { class: "tile", "data-tile": tile }, parent);
  el("rect", { x: x + size * 0.04, y: y + size * 0.04, width: size * 0.92, height: size * 0.92, rx: size * 0.12, fill: palette.colours[c], stroke: palette.edge, "stroke-width": size * (palette.marks ? 0.06 : 0.03) }, g);
  const cx = x + size / 2, cy = y + size / 2;
  if (images.shapes) {
    drawShape(g, s, cx, cy, size * 0.3, palette.ink);
  } else {
    const text = el("text", { x: cx, y: cy + size * 0.03, "text-anchor": "middle", "dominant-baseline": "central", "font-size": size * (images.emoji ? 0.58 : 0.5), fill: palette.ink, "font-weight": 700 }, g);
    text.textContent = images.glyphs[s];
  }
  if (palette.marks) {
    const mark = el("text", { x: x + size * 0.14, y: y + size * 0.26, "font-size": size * 0.2, fill: palette.ink, "font-weight": 700 }, g);
    mark.textContent = COLOUR_MARKS[c];
  }
  return g;
}

function drawShape(parent, index, cx, cy, r, ink) {
  const attrs = { fill: ink };
  switch (index) {
    case 0: el("circle", { cx, cy, r, ...attrs }, parent); break;
    case 1: el("rect", { x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8, ...attrs }, parent); break;
    case 2: el("polygon", { points: `${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}`, ...attrs }, parent); break;
    case 3: el("polygon", { points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`, ...attrs }, parent); break;
    case 4: {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5, rr = i % 2 ? r * 0.45 : r * 1.05;
        pts.push(`${cx + rr * Math.cos(a)},${cy + rr * Math.sin(a)}`);
      }
      el("polygon", { points: pts.join(" "), ...attrs }, parent);
      break;
    }
    default: {
      const w = r * 0.38;
      el("rect", { x: cx - r, y: cy - w, width: 2 * r, height: 2 * w, ...attrs }, parent);
      el("rect", { x: cx - w, y: cy - r, width: 2 * w, height: 2 * r, ...attrs }, parent);
    }
  }
}
