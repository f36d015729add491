// Zoom and pan on every board: two fingers pinch and pan, Ctrl+wheel zooms at the pointer,
// the zoom buttons (and + - f) zoom in, out and fit. The board is scaled and moved as a
// whole (a CSS transform), so a renderer's taps still land on the cell under the finger. A
// pinch or a pan never plays: once a second finger is down, the first one's press is
// cancelled and no pointer event reaches the board until every finger is up.
const MAX = 4;
const STEP = 1.5;

export function createZoom(wrap, layer) {
  let scale = 1, x = 0, y = 0;
  const fingers = new Map();     // pointerId -> { x, y }, while down
  let gesture = null;            // two fingers: { distance, middle, scale, x, y }
  let pressed = null;            // the first finger's target, to cancel its press

  function apply() {
    const limit = (size) => (scale - 1) * size;
    x = Math.min(0, Math.max(-limit(wrap.clientWidth), x));
    y = Math.min(0, Math.max(-limit(wrap.clientHeight), y));
    layer.style.transform = scale === 1 ? "" : `translate(${x}px, ${y}px) scale(${scale})`;
    document.body.classList.toggle("board-zoomed", scale > 1);
  }

  // Scale to `next` keeping the point (px, py) of the wrap where it is.
  function zoomAt(next, px, py) {
    const to = Math.min(MAX, Math.max(1, next));
    x = px - ((px - x) * to) / scale;
    y = py - ((py - y) * to) / scale;
    scale = to;
    apply();
  }

  function local(event) {
    const r = wrap.getBoundingClientRect();
    return { x: event.clientX - r.left, y: event.clientY - r.top };
  }

  function twoFingers() {
    const [a, b] = [...fingers.values()];
    return { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, middle: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  }

  function down(event) {
    if (event.pointerType !== "touch") return;
    fingers.set(event.pointerId, local(event));
    if (fingers.size === 1) {
      pressed = { target: event.target, id: event.pointerId };
      return;
    }
    if (!gesture) {  // the second finger: what the first began on the board is called off
      pressed?.target.dispatchEvent(new PointerEvent("pointercancel", { pointerId: pressed.id, pointerType: "touch", bubbles: true }));
      gesture = { ...twoFingers(), scale, x, y };
    }
    event.stopPropagation();
  }

  function move(event) {
    if (!fingers.has(event.pointerId)) return;
    fingers.set(event.pointerId, local(event));
    if (!gesture || fingers.size < 2) return;
    event.stopPropagation();
    const now = twoFingers();
    const to = Math.min(MAX, Math.max(1, (gesture.scale * now.distance) / gesture.distance));
    // The board point under the fingers' first middle follows their middle now.
    x = now.middle.x - ((gesture.middle.x - gesture.x) * to) / gesture.scale;
    y = now.middle.y - ((gesture.middle.y - gesture.y) * to) / gesture.scale;
    scale = to;
    apply();
  }

  function up(event) {
    if (!event.isTrusted) return;  // the cancel sent to the board below, not a finger lifted
    if (!fingers.delete(event.pointerId)) return;
    if (gesture) event.stopPropagation();
    if (fingers.size === 0) { gesture = null; pressed = null; }
  }

  wrap.addEventListener("pointerdown", down, { capture: true });
  wrap.addEventListener("pointermove", move, { capture: true });
  wrap.addEventListener("pointerup", up, { capture: true });
  wrap.addEventListener("pointercancel", up, { capture: true });
  wrap.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;  // a plain wheel scrolls the page
    event.preventDefault();
    const at = local(event);
    zoomAt(scale * Math.exp(-event.deltaY / 300), at.x, at.y);
  }, { passive: false });

  // Zoomed, the part of the board a renderer marks with data-focus (Polar's penguin) is
  // kept in view: the board moves under it when it comes near an edge.
  function follow() {
    const focus = scale > 1 && layer.querySelector("[data-focus]");
    if (!focus) return;
    const box = focus.getBoundingClientRect(), frame = wrap.getBoundingClientRect();
    const margin = Math.min(frame.width, frame.height) / 4;
    const dx = Math.max(0, frame.left + margin - box.left) - Math.max(0, box.right - (frame.right - margin));
    const dy = Math.max(0, frame.top + margin - box.top) - Math.max(0, box.bottom - (frame.bottom - margin));
    if (dx || dy) { x += dx; y += dy; apply(); }
  }

  const middle = () => ({ x: wrap.clientWidth / 2, y: wrap.clientHeight / 2 });
  return {
    follow,
    zoomIn() { const m = middle(); zoomAt(scale * STEP, m.x, m.y); follow(); },
    zoomOut() { const m = middle(); zoomAt(scale / STEP, m.x, m.y); follow(); },
    fit() { scale = 1; x = 0; y = 0; apply(); },
    get scale() { return scale; },
  };
}
