// Tri-ominoes in the browser: the tile games' view (games/tiles.js) and Tri-ominoes' entry,
// which the lobby and the table load through the server's GET /api/games (`view` of its
// plugin). docs/web.md, "Adding a game's UI", describes the three exports.
import { tileEntry } from "./tiles.js";

export { createView } from "./tiles.js";

export const ui = {
  ...tileEntry,
  // rules_version 1 only replays games played before a blocked seed round kept the scores.
  advancedOptions: [...tileEntry.advancedOptions, "rules_version"],
  optionLabels: { ...tileEntry.optionLabels, rules_version: "Rules version" },
};

/** The lobby card: one tile with its three numbers. */
export const art = '<polygon points="30,4 56,48 4,48" class="art-a"/><text x="30" y="20" class="art-n">5</text><text x="17" y="43" class="art-n">3</text><text x="43" y="43" class="art-n">1</text>';
