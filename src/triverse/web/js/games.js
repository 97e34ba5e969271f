// The games that have a browser UI, and everything game-specific the UI needs.
//
// The lobby offers "New game" only for a game listed here AND marked available by the
// server (GET /api/games); every other game shows "coming soon". Trinity and Tri-ominoes
// share one board component (kind "tiles"): Trinity plugs in with this configuration only.

const tileGameBase = {
  kind: "tiles",
  drawPenalty: 5,
  // Options shown under "More options" in the New Game dialog.
  advancedOptions: ["max_rounds"],
  optionLabels: { variant: "Rules", target: "Play to", max_rounds: "Round limit" },
  // Score events announced in big letters (data.reason of "score" events).
  bigReasons: ["hexagon", "bridge", "span", "slide", "out", "zero_start", "triple_start"],
  // Why the game cannot be saved now (null: it can); shown in the Escape dialog.
  saveRefusal: () => null,
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

export const GAME_UIS = {
  triominoes: {
    ...tileGameBase,
    title: "Tri-ominoes",
    rules: "/rules/triominoes.html",
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
