// What the tile games' entries share (games/trinity.js, games/triominoes.js): their fields of
// docs/web.md's entry ("Adding a game's UI"). It imports nothing: the lobby loads it with the
// two entries, and their view (games/tiles-view.js) only when a table of theirs opens.

/** The score events the view flashes on the board, announced in big letters. */
export const FLASH_REASONS = ["hexagon", "bridge", "span", "slide", "out", "zero_start", "triple_start"];

const seatNames = (text, names) => text.replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n)] ?? m);

/** What the tile games' entries share (docs/web.md, "Adding a game's UI"). */
export const tileEntry = {
  kind: "tiles",
  trayLabel: "Your tiles and moves",
  drawPenalty: 5,
  advancedOptions: ["max_rounds"],
  optionLabels: { variant: "Rules", target: "Play to", max_rounds: "Round limit" },
  bigReasons: FLASH_REASONS,
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
