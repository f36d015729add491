// The game page, the same for every game: it asks the server for a session, draws the view
// with the game's renderer, and sends moves and commands. No game rule lives here.
//   page.js      the page's state, shared by the modules below
//   boot.js      starting, and the game the address names
//   show.js      the server's answer on the page: board, status line, buttons
//   actions.js   moves and commands sent in order, tried again while the server is away
//   machine.js   AI moves, hints, checks, solutions
//   linked.js    online play: links, offers, the seat's actions
//   settings.js  the settings dialog
//   keys.js      the keys and the help panel
//   controls.js  the buttons wired to what they do; the statistics dialog
//   install.js   the page as an app (its offline page)
import { start } from "./boot.js";
import { registerServiceWorker } from "./install.js";

start();
registerServiceWorker();
