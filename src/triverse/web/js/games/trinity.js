// Trinity's entry in the browser, which the lobby and the table load through the server's
// GET /api/games (`view` of its plugin): its fields on the tile games' (`tileEntry`), its
// lobby art, and the tile games' view (games/tiles-view.js), loaded only at its tables.
// docs/web.md, "Adding a game's UI", describes the exports.
import { t } from "../i18n.js";
import { tileEntry } from "./tiles.js";

/** The tile games' view, imported when a table of the game opens. */
export const loadView = () => import("./tiles-view.js");

export const ui = {
  ...tileEntry,
  optionLabels: { ...tileEntry.optionLabels, rounds: t("Number of rounds") },
  targetText: () => "",
  // The seed: "At any point during a game (except in a tiebreaker round) you can save your
  // game." The engine will expose the tiebreaker in its observation; both spellings are read.
  saveRefusal(view) {
    const obs = view.observation || {};
    if (obs.tiebreaker || obs.in_tiebreaker || obs.tiebreak) {
      return t("Saving is not allowed during a tiebreaker round.");
    }
    return null;
  },
};

/** The lobby card: four triangles of a hexagon's half. */
export const art = '<polygon points="16,6 44,6 30,30" class="art-b"/><polygon points="30,30 44,6 58,30" class="art-a"/><polygon points="2,30 16,6 30,30" class="art-a"/><polygon points="16,54 30,30 44,54" class="art-b" transform="translate(0,-4)"/>';
