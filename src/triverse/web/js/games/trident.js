// Trident's entry in the browser, which the lobby and the table load through the server's
// GET /api/games (`view` of its plugin): its fields, its lobby art, and its view
// (games/trident-view.js), loaded only at its tables. docs/web.md, "Adding a game's UI",
// describes the exports.
import { t, tn } from "../i18n.js";

/** Trident's view, imported when a table of Trident opens. */
export const loadView = () => import("./trident-view.js");

/** The bag's count as the heading shows it: "42 tiles in the bag". */
export function bagText(count) {
  return tn("{n} tile in the bag", "{n} tiles in the bag", count);
}

/** Whose turn it is, for the heading: "Your turn", "Ann to play", "Game over". */
export function turnText(view) {
  if (view.finished) return t("Game over");
  if (view.your_turn) return t("Your turn");
  const p = view.players[view.to_move];
  return p ? t("{name} to play", { name: p.name }) : "";
}

/** Trident's entry (docs/web.md, "Adding a game's UI"): hidden racks of three, so hot-seat
 * hides the table between turns. The heading holds the bag's count and whose turn it is. */
export const ui = {
  kind: "trident",
  secretWord: "rack",
  trayLabel: t("Your rack and moves"),
  optionLabels: { variant: t("Rules"), time_limit: t("Time a turn (seconds, 0: none)") },
  nameLabel: (text, names) => text.replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n)] ?? m),
  scoreColumn: { title: t("Rack"), value: (view, i) => (view.observation.rack_counts || [])[i] },
  roundText: (obs, view) => [obs.bag_count === undefined ? "" : bagText(obs.bag_count), turnText(view)]
    .filter(Boolean).join(" · "),
  plainKinds: ["bag", "game_over"],
};

/** The lobby card: a rack of three numbered tiles. */
export const art = '<rect x="4" y="18" width="16" height="16" class="art-a"/><rect x="22" y="18" width="16" height="16" class="art-a"/><rect x="40" y="18" width="16" height="16" class="art-a"/><text x="12" y="30" class="art-n">7</text><text x="30" y="30" class="art-n">3</text><text x="48" y="30" class="art-n">5</text>';
