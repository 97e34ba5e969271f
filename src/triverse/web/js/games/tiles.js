// What the tile games' entries share (games/trinity.js, games/triominoes.js): their fields of
// docs/web.md's entry ("Adding a game's UI"). It imports only the translations (i18n.js): the
// lobby loads it with the two entries, and their view (games/tiles-view.js) only when a table
// of theirs opens.
import { formatNumber, t } from "../i18n.js";

/** The score events the view flashes on the board, announced in big letters. */
export const FLASH_REASONS = ["hexagon", "bridge", "span", "slide", "out", "zero_start", "triple_start"];

const seatNames = (text, names) => text.replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n)] ?? m);

/** What the tile games' entries share (docs/web.md, "Adding a game's UI"). */
export const tileEntry = {
  kind: "tiles",
  trayLabel: t("Your tiles and moves"),
  drawPenalty: 5,
  advancedOptions: ["max_rounds"],
  optionLabels: { variant: t("Rules"), target: t("Play to"), max_rounds: t("Round limit") },
  bigReasons: FLASH_REASONS,
  chimeReasons: ["hexagon", "bridge", "span", "slide"],
  nameLabel: seatNames,
  plainKinds: ["place", "start_draw"],
  // A move in words from its notation ("1-3-5@2,0/1": "play 1-3-5 at 2,0").
  actionText(action) {
    const m = /^(\d+-\d+-\d+)@(-?\d+,-?\d+)/.exec(action.notation || "");
    if (m) return t("play {tile} at {cell}", { tile: m[1], cell: m[2] });
    if (action.kind === "draw") return t("draw a tile");
    if (action.kind === "pass") return t("pass");
    return action.description.replace(/, corners .*$/, "");
  },
  scoreColumn: { title: t("Tiles"), value: (view, i) => (view.observation.hand_counts || [])[i] },
  infoText: (view) => (view.observation.pool_count === undefined ? null
    : { text: t("Pool: {count}", { count: formatNumber(view.observation.pool_count) }), title: t("Tiles left to draw") }),
  roundText(obs) {
    if (!obs || obs.round == null) return "";
    const of = obs.rounds ?? obs.num_rounds;
    return of ? t("Round {round} of {rounds}", { round: obs.round, rounds: of }) : t("Round {round}", { round: obs.round });
  },
  targetText(view) {
    const target = view.game.options.target;
    return target ? t("play to {points}", { points: formatNumber(target) }) : "";
  },
};
