// Trivinity's entry in the browser, which the lobby and the table load through the server's
// GET /api/games (`view` of its plugin): its fields, its lobby art, and its view
// (games/trivinity-view.js, with the card table it fetches), loaded only at its tables.
// docs/web.md, "Adding a game's UI", describes the exports.

/** Trivinity's view, imported when a table of Trivinity opens. */
export const loadView = () => import("./trivinity-view.js");

/** Trivinity's entry (docs/web.md, "Adding a game's UI"): a deck-building card game; hands
 * are hidden, so hot-seat hides the table between turns. */
export const ui = {
  kind: "trivinity",
  secretWord: "hand",
  trayLabel: "Your hand and actions",
  advancedOptions: ["turn_limit"],
  optionLabels: { variant: "Rules", turn_limit: "Turn limit (turns each)", module_1: "Player 1's module", module_2: "Player 2's module", module_3: "Player 3's module", module_4: "Player 4's module" },
  nameLabel: (text, names) => text.replace(/\b[Pp]layer (\d+)\b/g, (m, n) => names[Number(n) - 1] ?? m),
  plainKinds: ["game_end"],
  scoreColumn: { title: "Hand", value: (view, i) => ((view.observation.players || [])[i] || {}).hand_size },
  roundText: (obs) => (obs && obs.turn ? `Turn ${obs.turn}` : ""),
  targetText: (view) => (view.observation && view.observation.turn_limit ? `limit ${view.observation.turn_limit} turns each` : ""),
};

/** The lobby card: two cards, one over the other. */
export const art = '<rect x="10" y="8" width="24" height="34" rx="3" class="art-b"/><rect x="24" y="12" width="24" height="34" rx="3" class="art-a"/>';
