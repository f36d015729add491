// Trilobite's renderer: the shared renderer of stone games (web/static/js/stones.js), which
// drops stones by column when the view says `gravity`.
export { createBoard, drawPreview } from "/static/js/stones.js";
