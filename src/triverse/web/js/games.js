// The games of the browser, as the server lists them (GET /api/games): each game's `view` is
// the URL of its own ES module (a module of js/games/ for Triverse's games), which this loader
// imports. This file names no game: what a game needs at the lobby and the table that is not
// the same for every game (its UI entry, its lobby art, its view) lives in its own module.
// docs/web.md ("Adding a game's UI") lists every field.
//
// A game's module exports
//   ui          its entry: the fields of `defaults` it changes, and `kind` (the view's family,
//               the table's data-kind: games sharing one view share it);
//   art         its lobby card's picture: SVG markup in a 60 x 52 viewBox;
//   loadView    loadView(): a promise of the module of its view (a dynamic import()), whose
//               createView(table, host) makes the view of the board and the tray (or a promise
//               of it), docs/web.md's interface; or, for a view small enough to come with the
//               entry,
//   createView  itself.
// The lobby loads every game's module, for its entry and art; the view's module (the bulk of a
// game's code) loads only at the game's tables (loadView here).
//
// The lobby offers "New game" for a game the server has an engine for (`available`) whose
// module loaded; a game without a `view` (null) is played in the terminal or through the API.
import { api } from "./api.js";

/** What every game gets unless its entry says otherwise. */
const defaults = {
  kind: null,                        // the table's data-kind (null: the game's name)
  // Hot-seat hides the table between turns ("pass the device"): games with hidden information.
  passScreen: true,
  trayLabel: null,                   // the tray's aria-label (null: "Your moves")
  // The New Game dialog.
  advancedOptions: [],               // options under "More options"
  optionLabels: {},
  optionHelp: {},                    // replaces an option spec's help text
  customOptions: [],                 // controls that set several options at once
  // The heading: "Round 2 of 3 · play to 60".
  roundText: () => "",
  targetText: () => "",
  // The score panel: one more column ({title, value(view, seat)}) and a line under it.
  scoreColumn: null,
  infoText: () => null,              // {text, title}
  // The event feed: who is named how in event labels, which events are written without
  // "Name: " in front, which score events are announced in big letters and with a chime.
  nameLabel: (text) => text,
  plainKinds: [],
  bigReasons: [],
  chimeReasons: [],
  // The end: the headline (default: "You won!", "You lost: X wins", "X wins!", "Draw: A and B").
  headline: null,
  // Statistics against the computer: the key a game is counted under (null: none kept), and
  // how a key is written.
  statsKey: () => null,
  statsLabel: (key) => key,
  // Why the game cannot be saved now (null: it can); shown in the Escape dialog.
  saveRefusal: () => null,
  // An action (a legal action's JSON: notation, kind, description, fields) in a few words, for
  // hints and the review.
  actionText: (action) => action.description,
};

/** The lobby card's picture of a game whose module gives none (or that has no module). */
export const DEFAULT_ART = '<polygon points="30,6 54,46 6,46" class="art-a"/>';

let catalogue = null;

/** GET /api/games, fetched once (again after a failure). */
export function loadCatalogue() {
  if (!catalogue) {
    catalogue = api.games().catch((err) => {
      catalogue = null;
      throw err;
    });
  }
  return catalogue;
}

const modules = new Map();   // view URL -> promise of the module
const entries = new Map();   // game name -> promise of its entry (null: no table here)
const ready = new Map();     // game name -> its entry, once loaded
const failed = new Map();    // game name -> why its module did not load
const views = new Map();     // game name -> promise of its view's createView
const loaded = new Map();    // game name -> its module, once loaded

/** The createView of a game's module: its own, or that of the module its loadView imports
 * (once; again after a failure). */
function viewOf(name, module) {
  if (typeof module.loadView !== "function") return Promise.resolve(module.createView);
  if (!views.has(name)) {
    views.set(name, Promise.resolve().then(() => module.loadView()).then((view) => {
      if (!view || typeof view.createView !== "function") {
        throw new Error(`the view of ${name} exports no createView`);
      }
      return view.createView;
    }).catch((err) => {
      views.delete(name);
      throw err;
    }));
  }
  return views.get(name);
}

/** The entry of a game from its GET /api/games description and its module. */
function entryOf(game, module) {
  if (!module.ui || (typeof module.createView !== "function"
                     && typeof module.loadView !== "function")) {
    throw new Error(`${game.view} exports no ui and createView or loadView`);
  }
  return {
    ...defaults, ...module.ui,
    name: game.name, title: game.title, rules: game.rules,
    kind: module.ui.kind || game.name,
    art: module.art || DEFAULT_ART,
    // The view's module is imported on the first call, unless loadView(name) did already.
    createView: async (table, host) => (await viewOf(game.name, module))(table, host),
  };
}

/** A game's entry (a promise; null for a game without a table in the browser). */
function loadGame(game) {
  if (!game.available || !game.view) return Promise.resolve(null);
  if (!entries.has(game.name)) {
    if (!modules.has(game.view)) modules.set(game.view, import(game.view));
    entries.set(game.name, modules.get(game.view).then((module) => {
      const entry = entryOf(game, module);
      loaded.set(game.name, module);
      return entry;
    }).then((entry) => {
      ready.set(game.name, entry);
      failed.delete(game.name);
      return entry;
    }, (err) => {
      failed.set(game.name, err.message);
      entries.delete(game.name);
      modules.delete(game.view);
      throw err;
    }));
  }
  return entries.get(game.name);
}

/** Load the module of every game of a GET /api/games answer (the lobby). Resolves when each
 * has loaded or failed; a game whose module failed is not playable here (loadFailure). */
export async function loadGames(answer) {
  await Promise.all(answer.games.map((game) => loadGame(game).catch(() => null)));
}

/** The entry of the game called `name` (a promise, for the table): its module and its view's
 * module loaded, the catalogue fetched first if need be; null if the game has no table in the
 * browser. */
export async function loadView(name) {
  const answer = await loadCatalogue();
  const game = answer.games.find((g) => g.name === name);
  if (!game) throw new Error(`the server lists no game ${name}`);
  const entry = await loadGame(game);
  if (entry) await viewOf(name, loaded.get(name));
  return entry;
}

/** The entry of a game whose module has loaded (null otherwise). */
export function uiFor(name) {
  return ready.get(name) || null;
}

/** Why a game's module did not load (null if it did, or was never tried). */
export function loadFailure(name) {
  return failed.get(name) || null;
}

/** Whether the lobby can start this game: an engine on the server and a table here. */
export const playable = (game) => Boolean(game.available && uiFor(game.name));

/** The address of a game's rules page (the server's `rules`), or null. */
export const rulesOf = (game) => game.rules || null;

/** A game's lobby art: SVG markup for a 60 x 52 viewBox. */
export const artOf = (name) => (uiFor(name) || { art: DEFAULT_ART }).art;
