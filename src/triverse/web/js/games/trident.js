// Trident's entry in the browser, which the lobby and the table load through the server's
// GET /api/games (`view` of its plugin): its fields, its lobby art, and its view
// (games/trident-view.js), loaded only at its tables. docs/web.md, "Adding a game's UI",
// describes the exports.

/** Trident's view, imported when a table of Trident opens. */
export const loadView = () => import("./trident-view.js");

/** Trident's entry (docs/web.md, "Adding a game's UI"): hidden racks of three, so hot-seat
 * hides the table between turns. */
export const ui = {
  kind: "trident",
  secretWord: "rack",
  trayLabel: "Your rack and moves",
  optionLabels: { variant: "Rules", time_limit: "Time a turn (seconds, 0: none)" },
  nameLabel: (text, names) => text.replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n)] ?? m),
  scoreColumn: { title: "Rack", value: (view, i) => (view.observation.rack_counts || [])[i] },
  infoText: (view) => (view.observation.bag_count === undefined ? null
    : { text: `Bag: ${view.observation.bag_count}`, title: "Tiles left in the bag" }),
  plainKinds: ["bag", "game_over"],
};

/** The lobby card: a rack of three numbered tiles. */
export const art = '<rect x="4" y="18" width="16" height="16" class="art-a"/><rect x="22" y="18" width="16" height="16" class="art-a"/><rect x="40" y="18" width="16" height="16" class="art-a"/><text x="12" y="30" class="art-n">7</text><text x="30" y="30" class="art-n">3</text><text x="48" y="30" class="art-n">5</text>';
