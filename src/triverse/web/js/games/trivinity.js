// Trivinity's entry in the browser, which the lobby and the table load through the server's
// GET /api/games (`view` of its plugin): its fields, its lobby art, and its view
// (games/trivinity-view.js, with the card table it fetches), loaded only at its tables.
// docs/web.md, "Adding a game's UI", describes the exports.
import { t, tn } from "../i18n.js";

/** The heading's turn: the engine's turn number, the one the feed's "Ann: turn 4" lines
 * carry (one count for the whole table), out of the turns the limit allows in all. */
export function turnText(obs) {
  if (!obs || !obs.turn) return "";
  const total = obs.turn_limit && obs.players ? obs.turn_limit * obs.players.length : 0;
  return total ? t("Turn {turn} of {total}", { turn: obs.turn, total }) : t("Turn {turn}", { turn: obs.turn });
}

/** Trivinity's view, imported when a table of Trivinity opens. */
export const loadView = () => import("./trivinity-view.js");

/** Trivinity's entry (docs/web.md, "Adding a game's UI"): a deck-building card game; hands
 * are hidden, so hot-seat hides the table between turns. */
export const ui = {
  kind: "trivinity",
  get secretWord() { return t("hand"); },
  get trayLabel() { return t("Your hand and actions"); },
  advancedOptions: ["turn_limit"],
  get optionLabels() {
    return {
      variant: t("Rules"), turn_limit: t("Turn limit (turns each)"), module_1: t("Player 1's module"),
      module_2: t("Player 2's module"), module_3: t("Player 3's module"), module_4: t("Player 4's module"),
    };
  },
  nameLabel: (text, names) => text.replace(/\b[Pp]layer (\d+)\b/g, (m, n) => names[Number(n) - 1] ?? m),
  plainKinds: ["game_end"],
  scoreColumn: { get title() { return t("Hand"); }, value: (view, i) => ((view.observation.players || [])[i] || {}).hand_size },
  roundText: turnText,
  targetText: (view) => (view.observation && view.observation.turn_limit
    ? tn("{n} turn each", "{n} turns each", view.observation.turn_limit) : ""),
};

/** The lobby card: two cards, one over the other. */
export const art = '<rect x="10" y="8" width="24" height="34" rx="3" class="art-b"/><rect x="24" y="12" width="24" height="34" rx="3" class="art-a"/>';
