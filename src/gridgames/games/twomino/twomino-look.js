// 2mino's look: the symbols' colours, a pair's value, and the orbiting digits of a win.
import { el } from "/static/js/svg.js";

export const TINTS = ["#4477AA", "#66CCEE", "#228833", "#CCBB44", "#EE6677", "#AA3377", "#BBBBBB",
  "#77AADD", "#99DDFF", "#44BB99", "#EEDD88", "#EE8866", "#FFAABB"];

// A pair's value (its counter's index), higher symbol first, as the server counts pairs.
export function pairValue(a, b) {
  const hi = Math.max(a, b), lo = Math.min(a, b);
  return (hi * (hi + 1)) / 2 + lo;
}

export function victory(parent, width, height, n) {
  const g = el("g", { class: "mino-victory", "data-victory": "1" }, parent);
  const cx = width / 2, cy = height / 2;
  for (let i = 0; i < 10; i++) {
    const orbit = el("g", {}, g);
    const t = el("text", { x: cx + Math.min(width, height) * 0.35, y: cy, "font-size": 0.6, "text-anchor": "middle", fill: TINTS[i % TINTS.length] }, orbit);
    t.textContent = i % n;
    el("animateTransform", { attributeName: "transform", type: "rotate", from: `${i * 36} ${cx} ${cy}`, to: `${i * 36 + 360} ${cx} ${cy}`, dur: "6s", repeatCount: "indefinite" }, orbit);
  }
}
