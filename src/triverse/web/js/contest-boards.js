// What the contest page shows of a contest (GET /api/contests/{id}, or the websocket's
// "contest"), drawn from it alone: the facts, the boards (their seats in posting order, whose
// turn and until when, places and rewards once over), the overall table, the entrants, the
// draw's commitment (its seed and salt once revealed) and the announcements. contest.js keeps
// the page and calls these at every change; `me` is this browser's entry number (or null).
import { profileUrl } from "./session.js";
import { formatDate, formatNumber, t, tn } from "./i18n.js";
import { computerName } from "./names.js";
import { turnTime } from "./lobby-open.js";
import { h, ordinal } from "./ui.js";

/** Link the contests' style sheet (once). */
export function linkStyles() {
  if (document.querySelector("link[href='/css/contests.css']")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/css/contests.css" }));
}

/** A contest's status in words. */
export function statusText(status) {
  switch (status) {
    case "signup": return t("Sign-up open");
    case "running": return t("Playing");
    case "finished": return t("Finished");
    case "cancelled": return t("Cancelled");
    default: return status;
  }
}

/** The status's badge. */
export const statusBadge = (status) =>
  h("span", { class: `badge contest-status status-${status}`, "data-status": status }, statusText(status));

/** A reward in words: "300 WRZ$". */
export const rewardText = (n, name) => t("{n} {reward}", { n: formatNumber(n), reward: name });

/** The time left until `until` (ms from now) as a clock: "1 day 02:03:04", "4:05", "0:00". */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const pad = (n) => String(n).padStart(2, "0");
  const rest = `${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  const clock = hours || days ? `${days ? pad(hours) : hours}:${rest}` : rest.replace(/^0/, "");
  return days ? `${tn("{n} day", "{n} days", days)} ${clock}` : clock;
}

/** An element counting down to `iso` (contest.js's ticker updates every [data-until]). */
export function countdown(iso) {
  const left = new Date(iso).getTime() - Date.now();
  return h("span", { class: "countdown", "data-until": iso, role: "timer", "aria-live": "off" },
    clockText(left));
}

/** A player's name: a link to an account's profile, a computer's level, a badge if removed. */
function who(entry) {
  const name = entry.kind === "human" && entry.account
    ? h("a", { href: profileUrl(entry.name), "data-player": entry.name }, entry.name) : entry.name;
  return [name,
    entry.kind !== "human" ? [" ", h("span", { class: "badge kind" }, computerName(entry.kind))] : null,
    entry.removed ? [" ", h("span", { class: "badge removed", "data-removed": "" }, t("removed"))] : null];
}

/** The facts list: game, host, status, board size, time per turn, sign-up close, rewards. */
export function drawFacts(dl, contest) {
  const rewards = contest.rewards.length
    ? contest.rewards.map((n, i) => t("{place}: {reward}", { place: ordinal(i + 1), reward: rewardText(n, contest.reward_name) })).join(" · ")
    : t("none");
  const closes = contest.status === "signup"
    ? [formatDate(contest.signup_closes), " · ", t("time left:"), " ", countdown(contest.signup_closes)]
    : [t("closed")];
  const row = (key, label, ...value) => [h("dt", {}, label), h("dd", { "data-fact": key }, ...value)];
  dl.replaceChildren(
    ...row("game", t("Game"), contest.game_title),
    ...row("host", t("Host"), contest.host),
    ...row("status", t("Status"), statusBadge(contest.status),
      contest.cancel_reason ? [" ", h("span", { "data-cancel-reason": "" }, contest.cancel_reason)] : null),
    ...row("board-size", t("Players per board"), formatNumber(contest.players_per_board)),
    ...row("turn", t("Time per turn"), contest.turn_seconds ? turnTime(contest.turn_seconds) : t("no turn clock")),
    ...row("closes", t("Sign-up closes"), ...closes),
    ...row("rewards", t("Rewards"), rewards),
    ...row("entrants", t("Entrants"), formatNumber(contest.entries.length)));
}

/** One board: its heading, whose turn, the seats in posting order (with their missed turns), its links. */
function boardItem(board, contest, me, playLink) {
  const titleId = `board-${board.board}-title`;
  const over = board.status !== "active";
  const turn = over ? t("Game over") : board.to_move_name === null ? t("Waiting")
    : [t("{name} to play", { name: board.to_move_name }),
      board.deadline ? [" · ", t("time left:"), " ", countdown(board.deadline)] : null];
  const rows = board.seats.map((s) => h("tr", {
    "data-seat": s.seat, "data-entry": s.entry, "data-name": s.name,
    class: [board.to_move === s.seat && !over ? "to-move" : "", s.entry === me ? "mine" : ""].join(" ").trim() || null },
  h("td", {}, formatNumber(s.seat + 1)),
  h("th", { scope: "row" }, who(s), s.entry === me ? [" ", h("span", { class: "badge mine" }, t("you"))] : null,
    s.missed ? [" ", h("span", { class: "badge missed", "data-missed": s.missed }, tn("missed {n} turn", "missed {n} turns", s.missed))] : null,
    board.to_move === s.seat && !over ? h("span", { class: "sr-only" }, " ", t("(to play)")) : null),
  h("td", { "data-score": s.score ?? "" }, s.score === null || s.score === undefined ? "–" : formatNumber(s.score)),
  h("td", { "data-place": s.place ?? "" }, s.place ? ordinal(s.place) : "–"),
  h("td", { "data-reward": s.reward ?? "" }, s.reward !== null && s.reward !== undefined ? rewardText(s.reward, contest.reward_name) : "–")));
  const mine = board.seats.find((s) => s.entry === me);
  return h("article", { class: "contest-board", "data-board": board.board, "data-status": board.status,
    "data-match": board.match_id, "data-to-move": board.to_move ?? "", "aria-labelledby": titleId },
  h("h3", { id: titleId }, t("Board {n}", { n: formatNumber(board.board) }), " ",
    h("span", { class: `badge board-${over ? "over" : "active"}` }, over ? t("over") : t("playing"))),
  h("p", { class: "board-turn", "data-turn": "" }, turn, " · ", t("move {n}", { n: formatNumber(board.move) })),
  h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-labelledby": titleId }, h("table", { class: "standings board-seats" },
    h("caption", { class: "sr-only" }, t("Board {n}: the players in posting order", { n: formatNumber(board.board) })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Order")), h("th", { scope: "col" }, t("Player")),
      h("th", { scope: "col" }, t("Score")), h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Reward")))),
    h("tbody", {}, ...rows))),
  h("div", { class: "board-actions" },
    mine && !over && !mine.removed ? h("a", { class: "button-link primary", href: playLink(board, mine), "data-play": board.board, "data-key": `play-${board.board}` },
      t("Play your seat")) : null,
    h("a", { class: "button-link", href: board.watch, "data-watch": board.board, "data-key": `watch-${board.board}`,
      "aria-label": t("Watch board {n}", { n: formatNumber(board.board) }) }, t("Watch"))));
}

/** Every board, or a word of why there are none yet. */
export function drawBoards(section, contest, me, playLink) {
  const items = contest.boards.map((b) => boardItem(b, contest, me, playLink));
  section.hidden = !items.length;
  section.replaceChildren(h("h2", { id: "contest-boards-title" }, t("Boards")), ...items);
}

/** The overall table once the contest is finished: rewards, then score. */
export function drawStandings(section, contest, me) {
  section.hidden = !contest.standings.length;
  if (section.hidden) { section.replaceChildren(); return; }
  section.replaceChildren(h("h2", { id: "contest-standings-title" }, t("Overall table")),
    h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-labelledby": "overall-caption" }, h("table", { class: "standings overall-table" },
      h("caption", { class: "sr-only", id: "overall-caption" }, t("Every player, by reward and then by score")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rank")), h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col" }, t("Board")), h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Score")),
        h("th", { scope: "col" }, t("Reward")))),
      h("tbody", {}, ...contest.standings.map((s, i) => h("tr", { "data-entry": s.entry, "data-name": s.name, class: s.entry === me ? "mine" : null },
        h("td", {}, formatNumber(i + 1)),
        h("th", { scope: "row" }, who({ ...s, kind: entryKind(contest, s.entry), account: entryAccount(contest, s.entry) })),
        h("td", {}, s.board === null ? "–" : formatNumber(s.board)),
        h("td", { "data-place": s.place ?? "" }, s.place ? ordinal(s.place) : "–"),
        h("td", { "data-score": s.score ?? "" }, s.score === null ? "–" : formatNumber(s.score)),
        h("td", { "data-reward": s.reward ?? "" }, s.reward === null ? "–" : rewardText(s.reward, contest.reward_name))))))));
}

const entryOf = (contest, n) => contest.entries.find((e) => e.entry === n) || {};
const entryKind = (contest, n) => entryOf(contest, n).kind || "human";
const entryAccount = (contest, n) => Boolean(entryOf(contest, n).account);

/** The entrants, in the order they signed up; the host's Remove button beside each (`remove`:
 * null for anyone else, or once the contest is over; a computer entrant stays once the boards
 * started, as the server rules). */
export function drawEntrants(section, contest, me, remove) {
  const list = contest.entries.length
    ? h("ol", { class: "entrant-list" }, ...contest.entries.map((e) => h("li", { "data-entry": e.entry, "data-name": e.name, "data-kind": e.kind },
      h("span", {}, who(e), e.entry === me ? [" ", h("span", { class: "badge mine" }, t("you"))] : null,
        e.board ? h("span", { class: "muted small" }, " · ", t("board {n}", { n: formatNumber(e.board) })) : null),
      remove && !e.removed && (contest.status === "signup" || e.kind === "human") ? h("button", { type: "button", class: "quiet danger", "data-remove": e.entry, "data-key": `remove-${e.entry}`,
        "aria-label": t("Remove {name}", { name: e.name }), onclick: () => remove(e) }, t("Remove")) : null)))
    : h("p", { class: "muted" }, t("Nobody has signed up yet."));
  section.replaceChildren(h("h2", { id: "contest-entrants-title" },
    t("Entrants"), " ", h("span", { class: "muted small" }, `(${formatNumber(contest.entries.length)})`)), list);
}

/** The draw: its commitment from the start, its seed and salt once the boards are drawn. */
export function drawDraw(section, contest) {
  const d = contest.draw || {};
  const revealed = d.seed !== null && d.seed !== undefined;
  section.replaceChildren(h("h2", { id: "contest-draw-title" }, t("The draw")),
    h("p", { class: "muted" }, revealed
      ? t("The boards and their posting orders were drawn from this seed. Its commitment was published when the contest was created: anyone can recompute both.")
      : t("The boards and posting orders will be drawn from a seed fixed now. Its commitment is published here; the seed and its salt are revealed when sign-up closes, so that anyone can check the draw.")),
    h("dl", { class: "draw-facts" },
      h("dt", {}, t("Commitment")), h("dd", {}, h("code", { "data-commitment": "" }, d.commitment || "–")),
      revealed ? [h("dt", {}, t("Seed")), h("dd", {}, h("code", { "data-seed": "" }, String(d.seed))),
        h("dt", {}, t("Salt")), h("dd", {}, h("code", { "data-salt": "" }, d.salt))] : null));
}

/** Append the announcements not shown yet (the list is a live log: only new ones are read);
 * `none`: the line shown while there are none (to the host, who may post one). */
export function drawAnnouncements(section, list, none, contest) {
  const shown = list.childElementCount;
  for (const a of contest.announcements.slice(shown)) {
    list.append(h("li", { "data-announcement": "" }, h("time", { datetime: a.at, class: "muted small" }, formatDate(a.at)), " ", a.text));
  }
  none.hidden = contest.announcements.length > 0;
  section.hidden = !contest.announcements.length && !section.dataset.host;
}
