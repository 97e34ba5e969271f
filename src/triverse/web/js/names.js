// The players' names as a table shows them (issue 21): the names a player chose stay as they
// are; the server's default names are put in words of the page's language. On its own screen
// a human seat left unnamed ("Player 2") is "You"; a computer seat left unnamed ("Average 3")
// is "Computer (average)", numbered only when several computers of one level play
// ("Computer (average) 2").
import { t } from "./i18n.js";

/** A computer level in words (the levels of GET /api/games). */
export function levelName(level) {
  switch (level) {
    case "novice": return t("novice");
    case "average": return t("average");
    case "veteran": return t("veteran");
    default: return level;
  }
}

/** "Computer (average)": how the New Game dialog and the tables name a computer level. */
export function computerName(level) {
  return t("Computer ({level})", { level: levelName(level) });
}

const capitalised = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** Whether `player` (of `seat`) still has the server's default name. */
export function hasDefaultName(player, seat) {
  const prefix = player.kind === "human" ? "Player" : capitalised(player.kind);
  return player.name === `${prefix} ${seat + 1}`;
}

/**
 * The names a table shows, by seat. `players`: [{name, kind, free, deleted}] of a view;
 * `mine`: the seat this screen plays alone (null for a spectator or a hot-seat table, where
 * "You" would be every player). A seat of a deleted account is "deleted player"; a seat of an
 * open game nobody took yet, "free seat".
 */
export function displayNames(players, mine = null) {
  const defaultComputers = players.map((p, i) => p.kind !== "human" && hasDefaultName(p, i));
  return players.map((p, i) => {
    if (p.deleted) return t("deleted player");
    if (p.free) return t("free seat");
    if (p.kind === "human") {
      return i === mine && hasDefaultName(p, i) ? t("You") : p.name;
    }
    if (!defaultComputers[i]) return p.name;
    const same = players.filter((q, j) => q.kind === p.kind && defaultComputers[j]);
    if (same.length < 2) return computerName(p.kind);
    const nth = players.slice(0, i + 1).filter((q, j) => q.kind === p.kind && defaultComputers[j]).length;
    return t("Computer ({level}) {n}", { level: levelName(p.kind), n: nth });
  });
}
