// Tic-tac-toe's renderer: the shared renderer of stone games (web/static/js/stones.js).
export { createBoard, drawPreview } from "/static/js/stones.js";
