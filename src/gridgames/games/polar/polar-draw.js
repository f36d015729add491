// Polar's drawings, one cell 1 x 1: the tiles by their codes (the view's `cells`) and the
// penguin facing a way. The board and the level editor draw with them.
import { el } from "/static/js/svg.js";

// The original game's tile codes, as the view's `cells` has them.
export const EMPTY = 0;
export const TREE = 1;
export const MOUNTAIN = 2;
export const HOUSE = 3;
export const ICE = 4;
export const HEART = 5;
export const BOMB = 6;

export function drawTile(svg, tile, x, y) {
  const g = el("g", { transform: `translate(${x} ${y})` }, svg);
  const inner = el("g", {}, g);
  switch (tile) {
    case TREE:
      el("rect", { x: 0.45, y: 0.68, width: 0.1, height: 0.22, fill: "#7a5230" }, inner);
      el("polygon", { points: "0.5,0.08 0.8,0.5 0.2,0.5", fill: "#228833" }, inner);
      el("polygon", { points: "0.5,0.28 0.86,0.74 0.14,0.74", fill: "#1b6e29" }, inner);
      break;
    case MOUNTAIN:
      el("polygon", { points: "0.06,0.9 0.5,0.1 0.94,0.9", fill: "#8a8f99" }, inner);
      el("polygon", { points: "0.5,0.1 0.64,0.36 0.55,0.32 0.47,0.4 0.38,0.33", fill: "#ffffff" }, inner);
      break;
    case HOUSE:
      el("rect", { x: 0.2, y: 0.45, width: 0.6, height: 0.45, fill: "#CCBB44", stroke: "#5a4a1a", "stroke-width": 0.03 }, inner);
      el("polygon", { points: "0.1,0.48 0.5,0.1 0.9,0.48", fill: "#AA3377" }, inner);
      el("rect", { x: 0.43, y: 0.64, width: 0.14, height: 0.26, fill: "#5a4a1a" }, inner);
      break;
    case ICE:
      el("rect", { x: 0.1, y: 0.1, width: 0.8, height: 0.8, rx: 0.08, fill: "#66CCEE", "fill-opacity": 0.75, stroke: "#2a7fa0", "stroke-width": 0.04 }, inner);
      el("path", { d: "M0.22 0.3 L0.45 0.2 M0.22 0.45 L0.6 0.28", stroke: "#ffffff", "stroke-width": 0.05, "stroke-linecap": "round" }, inner);
      break;
    case HEART:
      el("path", { d: "M0.5 0.85 C0.1 0.55 0.08 0.3 0.28 0.2 C0.4 0.15 0.48 0.22 0.5 0.3 C0.52 0.22 0.6 0.15 0.72 0.2 C0.92 0.3 0.9 0.55 0.5 0.85 Z", fill: "#EE6677", stroke: "#a33344", "stroke-width": 0.03 }, inner);
      break;
    case BOMB:
      el("circle", { cx: 0.47, cy: 0.56, r: 0.3, fill: "#222" }, inner);
      el("path", { d: "M0.62 0.3 Q0.7 0.12 0.84 0.14", stroke: "#7a5230", "stroke-width": 0.05, fill: "none" }, inner);
      el("circle", { cx: 0.86, cy: 0.13, r: 0.06, fill: "#EE7733" }, inner);
      el("circle", { cx: 0.38, cy: 0.46, r: 0.07, fill: "#ffffff", "fill-opacity": 0.5 }, inner);
      break;
    default:
      break;
  }
  return g;
}

export function drawPenguin(svg, x, y, facing) {
  const g = el("g", { class: "penguin", transform: `translate(${x} ${y})`, "data-facing": facing }, svg);
  el("ellipse", { cx: 0.5, cy: 0.55, rx: 0.3, ry: 0.38, fill: "#1e1e24" }, g);
  const side = facing === "L" ? -1 : facing === "R" ? 1 : 0;
  el("ellipse", { cx: 0.5 + side * 0.05, cy: 0.6, rx: facing === "U" ? 0.12 : 0.19, ry: 0.27, fill: facing === "U" ? "#1e1e24" : "#ffffff" }, g);
  el("ellipse", { cx: 0.38, cy: 0.93, rx: 0.09, ry: 0.04, fill: "#EE7733" }, g);
  el("ellipse", { cx: 0.62, cy: 0.93, rx: 0.09, ry: 0.04, fill: "#EE7733" }, g);
  if (facing !== "U") {
    const eyes = side === 0 ? [0.4, 0.6] : [0.5 + side * 0.12];
    for (const ex of eyes) el("circle", { cx: ex, cy: 0.32, r: 0.035, fill: "#fff" }, g);
    const bx = 0.5 + side * 0.28;
    const beak = side === 0 ? "0.44,0.38 0.56,0.38 0.5,0.48" : `${bx},0.36 ${bx + side * 0.16},0.41 ${bx},0.46`;
    el("polygon", { points: beak, fill: "#EE7733" }, g);
  }
  return g;
}
