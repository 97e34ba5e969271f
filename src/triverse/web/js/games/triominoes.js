// Tri-ominoes' entry in the browser, which the lobby and the table load through the server's
// GET /api/games (`view` of its plugin): its fields on the tile games' (`tileEntry`), its
// lobby art, and the tile games' view (games/tiles-view.js), loaded only at its tables.
// docs/web.md, "Adding a game's UI", describes the exports.
import { t } from "../i18n.js";
import { tileEntry } from "./tiles.js";

/** The tile games' view, imported when a table of the game opens. */
export const loadView = () => import("./tiles-view.js");

export const ui = {
  ...tileEntry,
  // rules_version 1 only replays games played before a blocked seed round kept the scores.
  advancedOptions: [...tileEntry.advancedOptions, "rules_version"],
  optionLabels: { ...tileEntry.optionLabels, rules_version: t("Rules version") },
};

/** The lobby card: one tile with its three numbers. */
export const art = '<polygon points="30,4 56,48 4,48" class="art-a"/><text x="30" y="20" class="art-n">5</text><text x="17" y="43" class="art-n">3</text><text x="43" y="43" class="art-n">1</text>';
