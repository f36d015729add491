// Small helpers to build SVG without a framework.
const NS = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

// An SVG that scales to its box and keeps its aspect: one user unit per board cell.
export function boardSvg(container, width, height, label) {
  clear(container);
  return el("svg", {
    viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "xMidYMid meet",
    role: "img", "aria-label": label,
  }, container);
}

// The board cell (row, col) under a pointer event, or null outside the board.
export function cellAt(svg, event, rows, cols, margin = 0) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const local = point.matrixTransform(svg.getScreenCTM().inverse());
  const col = Math.floor(local.x - margin);
  const row = Math.floor(local.y - margin);
  if (col < 0 || col >= cols || row < 0 || row >= rows) return null;
  return { row, col };
}
