// The games that have a browser UI, and everything game-specific the lobby and the table need
// that is not drawing: which *kind* of view plays the game (a module of js/games/), its rules
// page, option labels, texts of the heading and the score panel, the end screen's headline,
// statistics. docs/web.md ("Adding a game's UI") lists every field.
//
// The lobby offers "New game" only for a game listed here AND marked available by the server
// (GET /api/games); every other game shows "coming soon". Trinity and Tri-ominoes share one
// view (kind "tiles"); Triangles has its own (kind "triangles").
import { h } from "./ui.js";

/** The view module of each kind, loaded on demand: js/games/{kind}.js. */
const VIEW_MODULES = {
  tiles: () => import("./games/tiles.js"),
  triangles: () => import("./games/triangles.js"),
  trivinity: () => import("./games/trivinity.js"),
  trident: () => import("./games/trident.js"),
};

const loading = new Map();

/** The view module of a kind (a promise; each module is fetched once). */
export function loadView(kind) {
  if (!VIEW_MODULES[kind]) return Promise.reject(new Error(`no view for the kind ${kind}`));
  if (!loading.has(kind)) loading.set(kind, VIEW_MODULES[kind]());
  return loading.get(kind);
}

/** What every game gets unless its entry says otherwise. */
const defaults = {
  // Hot-seat hides the table between turns ("pass the device"): games with hidden information.
  passScreen: true,
  secretWord: "tiles",               // "Show Ann's tiles"
  // The New Game dialog.
  advancedOptions: [],               // options under "More options"
  optionLabels: {},
  optionHelp: {},                    // replaces an option spec's help text
  customOptions: [],                 // controls that set several options at once (see Triangles)
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

// --- the tile games ---------------------------------------------------------------------------------
const seatNames = (text, names) => text.replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n)] ?? m);

const tileGameBase = {
  ...defaults,
  kind: "tiles",
  trayLabel: "Your tiles and moves",
  drawPenalty: 5,
  advancedOptions: ["max_rounds"],
  optionLabels: { variant: "Rules", target: "Play to", max_rounds: "Round limit" },
  bigReasons: ["hexagon", "bridge", "span", "slide", "out", "zero_start", "triple_start"],
  chimeReasons: ["hexagon", "bridge", "span", "slide"],
  nameLabel: seatNames,
  plainKinds: ["place", "start_draw"],
  // "play 1-3-5 at 2,0, corners clockwise from the apex: 1 3 5" -> "play 1-3-5 at 2,0"
  actionText: (action) => action.description.replace(/, corners .*$/, ""),
  scoreColumn: { title: "Tiles", value: (view, i) => (view.observation.hand_counts || [])[i] },
  infoText: (view) => (view.observation.pool_count === undefined ? null
    : { text: `Pool: ${view.observation.pool_count}`, title: "Tiles left to draw" }),
  roundText(obs) {
    if (!obs || obs.round == null) return "";
    const of = obs.rounds ?? obs.num_rounds;
    return of ? `Round ${obs.round} of ${of}` : `Round ${obs.round}`;
  },
  targetText(view) {
    const t = view.game.options.target;
    return t ? `play to ${t}` : "";
  },
};

// --- Triangles ---------------------------------------------------------------------------------------
/** The seed's six boards: 24, 60 and 120 stars on a phone; 80, 120 and 180 on a tablet. */
export const TRIANGLES_BOARDS = [
  { name: "phone-24", device: "phone", stars: 24 },
  { name: "phone-60", device: "phone", stars: 60 },
  { name: "phone-120", device: "phone", stars: 120 },
  { name: "tablet-80", device: "tablet", stars: 80 },
  { name: "tablet-120", device: "tablet", stars: 120 },
  { name: "tablet-180", device: "tablet", stars: 180 },
];

/** "Phone · 24 stars" for "phone-24". */
export function boardLabel(name) {
  const m = /^(phone|tablet)-(\d+)$/.exec(name || "");
  if (!m) return name || "";
  return `${m[1] === "phone" ? "Phone" : "Tablet"} · ${m[2]} stars`;
}

/** The Board choice of the New Game dialog: one select for the options stars and device. */
function boardChoice(game) {
  const specs = Object.fromEntries(game.options.map((s) => [s.name, s]));
  const starsDefault = specs.stars ? specs.stars.default : 24;
  const deviceDefault = specs.device ? specs.device.default : "auto";
  const device = deviceDefault === "auto" ? ([24, 60, 120].includes(starsDefault) ? "phone" : "tablet") : deviceDefault;
  const chosen = `${device}-${starsDefault}`;
  const group = (dev, label) => h("optgroup", { label },
    ...TRIANGLES_BOARDS.filter((b) => b.device === dev).map((b) => h("option", {
      value: b.name, selected: b.name === chosen,
    }, boardLabel(b.name))));
  const select = h("select", { id: "opt-board", name: "board", "aria-describedby": "opt-board-help" },
    group("phone", "Phone boards (5:8)"), group("tablet", "Tablet boards (3:4)"));
  const row = h("div", { class: "option-row" },
    h("label", { for: "opt-board" }, "Board"), select,
    h("small", { class: "help", id: "opt-board-help" },
      "The six boards: a phone with 24, 60 or 120 stars, a tablet with 80, 120 or 180."));
  return {
    row,
    read() {
      const b = TRIANGLES_BOARDS.find((x) => x.name === select.value);
      return { stars: b.stars, device: b.device };
    },
  };
}

const playerNames = (text, names) => text.replace(/\bPlayer (\d+)\b/g, (m, n) => names[Number(n) - 1] ?? m);

const triangles = {
  ...defaults,
  kind: "triangles",
  title: "Triangles",
  rules: "/rules/triangles.html",
  passScreen: false,                 // nothing is hidden: hot-seat just hands over the turn
  trayLabel: "Your lines",
  optionLabels: { again: "Play again after a triangle" },
  optionHelp: { again: "A player who closes a triangle draws another line at once." },
  customOptions: [{ covers: ["stars", "device"], build: boardChoice }],
  roundText: (obs) => boardLabel(obs && obs.board),
  targetText: (view) => (view.game.options.again ? "play again after a triangle" : ""),
  scoreColumn: { title: "Lines", value: (view, i) => (view.observation.lines || []).filter((l) => l.player === i).length },
  infoText(view) {
    const obs = view.observation;
    if (!obs || !obs.stars) return null;
    const n = (k, one) => `${k} ${one}${k === 1 ? "" : "s"}`;
    return { text: `${n(obs.lines.length, "line")}, ${n(obs.triangles.length, "triangle")}`, title: "Drawn and closed so far" };
  },
  nameLabel: playerNames,
  bigReasons: [],
  headline(view, { winners, identity, hotseat }) {
    const draw = winners.length > 1;
    if (view.mode === "computer" && identity !== null && !hotseat) {
      return draw ? "Draw!" : winners[0].i === identity ? "You won!" : "You lost!";
    }
    return draw ? "Draw!" : `${winners[0].p.name} wins!`;
  },
  statsKey: (view) => (view.observation && !view.observation.custom ? view.observation.board : null),
  statsLabel: boardLabel,
  statsKeys: TRIANGLES_BOARDS.map((b) => b.name),
};

export const GAME_UIS = {
  triominoes: {
    ...tileGameBase,
    title: "Tri-ominoes",
    rules: "/rules/triominoes.html",
    // rules_version 1 only replays games played before a blocked seed round kept the scores.
    advancedOptions: [...tileGameBase.advancedOptions, "rules_version"],
    optionLabels: { ...tileGameBase.optionLabels, rules_version: "Rules version" },
  },
  trinity: {
    ...tileGameBase,
    title: "Trinity",
    rules: "/rules/trinity.html",
    optionLabels: { ...tileGameBase.optionLabels, rounds: "Number of rounds" },
    targetText: () => "",
    // The seed: "At any point during a game (except in a tiebreaker round) you can save your
    // game." The engine will expose the tiebreaker in its observation; both spellings are read.
    saveRefusal(view) {
      const obs = view.observation || {};
      if (obs.tiebreaker || obs.in_tiebreaker || obs.tiebreak) {
        return "Saving is not allowed during a tiebreaker round.";
      }
      return null;
    },
  },
  triangles,
  // Trident (issue 5): hidden racks of three, so hot-seat hides the table between turns.
  trident: {
    ...defaults,
    kind: "trident",
    title: "Trident",
    rules: "/rules/trident.html",
    secretWord: "rack",
    trayLabel: "Your rack and moves",
    optionLabels: { variant: "Rules", time_limit: "Time a turn (seconds, 0: none)" },
    nameLabel: seatNames,
    scoreColumn: { title: "Rack", value: (view, i) => (view.observation.rack_counts || [])[i] },
    infoText: (view) => (view.observation.bag_count === undefined ? null
      : { text: `Bag: ${view.observation.bag_count}`, title: "Tiles left in the bag" }),
    plainKinds: ["bag", "game_over"],
  },
  // Trivinity (issue 7): a deck-building card game; hands are hidden (js/games/trivinity.js).
  trivinity: {
    ...defaults,
    kind: "trivinity",
    title: "Trivinity",
    rules: "/rules/trivinity.html",
    secretWord: "hand",
    trayLabel: "Your hand and actions",
    advancedOptions: ["turn_limit"],
    optionLabels: { variant: "Rules", turn_limit: "Turn limit (turns each)", module_1: "Player 1's module", module_2: "Player 2's module", module_3: "Player 3's module", module_4: "Player 4's module" },
    nameLabel: (text, names) => text.replace(/\b[Pp]layer (\d+)\b/g, (m, n) => names[Number(n) - 1] ?? m),
    plainKinds: ["game_end"],
    scoreColumn: { title: "Hand", value: (view, i) => ((view.observation.players || [])[i] || {}).hand_size },
    roundText: (obs) => (obs && obs.turn ? `Turn ${obs.turn}` : ""),
    targetText: (view) => (view.observation && view.observation.turn_limit ? `limit ${view.observation.turn_limit} turns each` : ""),
  },
};

/** Rules pages of every game (the ones without a UI summarise and point to the docs). */
export const RULES_PAGES = {
  triominoes: "/rules/triominoes.html",
  trinity: "/rules/trinity.html",
  triangles: "/rules/triangles.html",
  trivinity: "/rules/trivinity.html",
  trident: "/rules/trident.html",
};

export function uiFor(name) {
  return GAME_UIS[name] || null;
}

/** Whether the lobby can start this game: a UI here and an engine on the server. */
export const playable = (game) => Boolean(GAME_UIS[game.name] && game.available);
