// Statistics against the computer, kept in this browser (localStorage "triverse.stats") until
// players have accounts: per game and per key (Triangles: per board, "phone-24"), the wins,
// losses and draws. A draw is neither a win nor a loss (Triangles' seed). Each match is counted
// once: the ids of the matches counted are kept with the tallies, so reloading an end screen,
// or opening it again from another tab, never counts the game twice.
//
//   {"version": 1,
//    "games": {"triangles": {"phone-24": {"wins": 2, "losses": 1, "draws": 0}}},
//    "counted": {"jpfwLkv43KZa": "triangles/phone-24/win"}}

import { t, tn } from "./i18n.js";

const STATS = "triverse.stats";
const MAX_COUNTED = 5000;   // match ids remembered (about 60 kB at most)

function read() {
  try {
    const data = JSON.parse(localStorage.getItem(STATS) || "null");
    if (data && data.version === 1 && data.games && data.counted) return data;
  } catch { /* unreadable: start again */ }
  return { version: 1, games: {}, counted: {} };
}

function write(data) {
  try {
    localStorage.setItem(STATS, JSON.stringify(data));
  } catch { /* private mode or full: nothing is counted */ }
}

const empty = () => ({ wins: 0, losses: 0, draws: 0 });

/** "win", "loss" or "draw" for `seat` from a view's result ({scores, ranks}, ranks from 1). */
export function outcomeOf(result, seat) {
  const firsts = result.ranks.filter((r) => r === 1).length;
  if (result.ranks[seat] !== 1) return "loss";
  return firsts > 1 ? "draw" : "win";
}

/**
 * Count `outcome` ("win", "loss", "draw") of match `matchId` for `game` / `key`, unless that
 * match is counted already. Returns true if it was counted now.
 */
export function recordOutcome(game, key, matchId, outcome) {
  const data = read();
  if (data.counted[matchId]) return false;
  const field = { win: "wins", loss: "losses", draw: "draws" }[outcome];
  if (!field) throw new Error(`not an outcome: ${outcome}`);
  const perGame = data.games[game] || (data.games[game] = {});
  const tally = perGame[key] || (perGame[key] = empty());
  tally[field] += 1;
  data.counted[matchId] = `${game}/${key}/${outcome}`;
  const ids = Object.keys(data.counted);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_COUNTED))) delete data.counted[id];
  write(data);
  window.dispatchEvent(new CustomEvent("triverse:stats", { detail: { game, key, outcome } }));
  return true;
}

/** The tallies of one game: {key: {wins, losses, draws}}. */
export const statsOf = (game) => read().games[game] || {};

export const tallyOf = (game, key) => ({ ...empty(), ...(statsOf(game)[key] || {}) });

/** "3 wins, 1 loss, 0 draws". */
export function statsText(tally) {
  return t("{wins}, {losses}, {draws}", {
    wins: tn("{n} win", "{n} wins", tally.wins),
    losses: tn("{n} loss", "{n} losses", tally.losses),
    draws: tn("{n} draw", "{n} draws", tally.draws),
  });
}
