// The lobby's "My games": the games of the logged-in account (GET /api/account/games, the ones
// where it is the account's move first, each with a link holding a token for this browser), or
// without an account the games whose seat tokens this browser keeps (POST /api/my-games), the
// ones where it is this browser's move first; each to continue, or once finished to replay,
// download or export.
import { account } from "./session.js";
import { api, recordUrl } from "./api.js";
import { formatDate, formatNumber, t } from "./i18n.js";
import { displayNames, levelName } from "./names.js";
import { paceBadge } from "./lobby-open.js";
import { forgetMatch, seats } from "./store.js";
import { copyText, download, h, markYourMove, notice, openDialog, ordinal } from "./ui.js";

/** A match's mode in words (the badge of My games). */
function modeName(mode) {
  if (mode === "computer") return t("against the computer");
  if (mode === "hotseat") return t("hot-seat");
  if (mode === "online") return t("online");
  if (mode === "open") return t("open game");
  return mode;
}

/** The games of the account, or of this browser's tokens: [{...match, mySeats, account}]
 * grouped by match, in the server's order (the account's move first) or, from tokens, the
 * ones where it is this browser's move first. */
async function myMatches() {
  const me = account();
  const data = me ? await api.accountGames() : await api.myGames(seats().map((s) => s.token));
  const byMatch = new Map();
  for (const m of data.matches) {
    if (!byMatch.has(m.match_id)) byMatch.set(m.match_id, { ...m, mySeats: [], account: Boolean(me) });
    byMatch.get(m.match_id).mySeats.push(m);
  }
  const matches = [...byMatch.values()];
  const turn = (m) => (m.mySeats.some((s) => s.your_turn) ? 0 : 1);
  if (!me) matches.sort((a, b) => turn(a) - turn(b));   // stable: the server's order otherwise
  return matches;
}

export async function renderMyGames(section) {
  const title = section.querySelector("h2");
  const me = account();
  if (!me && !seats().length) {
    section.replaceChildren(title, h("p", { class: "muted" }, t("Games you play in this browser appear here.")));
    section.dataset.source = "browser";
    return;
  }
  let matches;
  try {
    matches = await myMatches();
  } catch (err) {
    section.replaceChildren(title, h("p", { class: "error" }, t("Your games cannot be listed: {error}", { error: err.message })));
    return;
  }
  section.dataset.source = me ? "account" : "browser";
  const open = matches.filter((m) => !m.finished), done = matches.filter((m) => m.finished);
  const waiting = open.filter((m) => m.mySeats.some((s) => s.your_turn)).length;
  yourMoveTitle(waiting);
  section.replaceChildren(title,
    me ? h("p", { class: "muted" }, t("The games of {name}, on every device.", { name: me.name })) : null,
    h("h3", {}, t("Unfinished")),
    open.length ? h("ul", { class: "match-list" }, ...open.map(matchItem)) : h("p", { class: "muted" }, t("None.")),
    h("h3", {}, t("Finished")),
    done.length ? h("ul", { class: "match-list" }, ...done.map(matchItem)) : h("p", { class: "muted" }, t("None yet.")));
}

let waitingBefore = null;   // how many games waited for your move at the last listing

/** The lobby's title and favicon say how many games wait for this player's move; one more
 * than at the last listing plays the turn's notes (where sound is on). */
function yourMoveTitle(count) {
  document.title = count ? t("({n}) Your move · Triverse", { n: formatNumber(count) }) : "Triverse";
  markYourMove(count > 0);
  if (waitingBefore !== null && count > waitingBefore) import("./sound.js").then((m) => m.yourTurn());
  waitingBefore = count;
}

/** Keep My games current while the lobby is in a background tab (every minute), and at once
 * when it comes back, so that its title and favicon tell of a move made elsewhere. */
export function watchMyGames(section) {
  const again = () => { if (account() || seats().length) renderMyGames(section); };
  setInterval(() => { if (document.hidden) again(); }, 60_000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) again(); });
}

function playersText(m, names) {
  return m.players.map((p, i) => (p.kind !== "human" && p.name !== names[i]
    ? t("{name} ({level})", { name: names[i], level: levelName(p.kind) }) : names[i])).join(", ");
}

function matchItem(m) {
  const when = formatDate(m.updated_at);
  const names = displayNames(m.players);
  const mineNames = m.mySeats.map((s) => names[s.seat] ?? s.name).join(" & ");
  let status;
  if (m.finished && m.result) {
    const order = m.players.map((p, i) => ({ i, score: m.result.scores[i], rank: m.result.ranks[i] }))
      .sort((a, b) => a.rank - b.rank);
    status = order.map((o) => t("{place} {name} {score}", { place: ordinal(o.rank), name: names[o.i], score: formatNumber(o.score) })).join(" · ");
  } else {
    const turn = m.mySeats.some((s) => s.your_turn);
    const move = formatNumber(m.move);
    status = turn ? (m.paused ? t("Your turn · move {move} · paused", { move }) : t("Your turn · move {move}", { move }))
      : (m.paused ? t("Waiting · move {move} · paused", { move }) : t("Waiting · move {move}", { move }));
  }
  const link = m.mode === "hotseat" ? `/play/${m.match_id}` : m.mySeats[0].link;
  const actions = [];
  if (!m.finished) {
    actions.push(h("a", { href: link, class: "button-link primary", "data-continue": m.match_id }, t("Continue")));
  } else {
    actions.push(
      h("a", { href: `/watch/${m.match_id}?replay=0`, class: "button-link", "data-replay": m.match_id }, t("Replay")),
      h("a", { href: recordUrl(m.match_id), download: `${m.game}-${m.match_id}.json`, class: "button-link",
        "data-download": m.match_id }, t("Download record")),
      h("button", { type: "button", "data-export": m.match_id, onclick: () => exportRecord(m) }, t("Export")));
  }
  if (!m.account) actions.push(h("button", { type: "button", class: "quiet", onclick: async (e) => {
    const ok = await openDialog({
      title: t("Forget this game?"),
      body: h("p", {}, t("This browser forgets its seats in this game. The game itself stays on the server; an invite link opens it again.")),
      actions: [{ label: t("Keep"), value: null }, { label: t("Forget"), value: "forget", danger: true }],
    });
    if (ok) {
      forgetMatch(m.match_id);
      e.target.closest("li").remove();
    }
  } }, t("Forget")));
  const turn = !m.finished && m.mySeats.some((s) => s.your_turn);
  return h("li", { class: `match-item${turn ? " your-turn" : ""}`, "data-match": m.match_id, "data-your-turn": String(turn) },
    h("div", { class: "match-item-main" },
      h("strong", {}, m.title), " ", h("span", { class: "badge mode" }, modeName(m.mode)),
      m.pace && (m.mode === "online" || m.mode === "open") ? [" ", paceBadge(m.pace)] : null,
      h("div", { class: "muted" }, t("{players} — you: {mine}", { players: playersText(m, names), mine: mineNames })),
      h("div", { class: "match-status" }, status),
      h("div", { class: "muted small" }, t("Last played {when}", { when }))),
    h("div", { class: "match-item-actions" }, ...actions));
}

/** Export a finished game: the record as JSON, or the moves as plain text. */
async function exportRecord(m) {
  let record;
  try {
    record = await api.record(m.match_id);
  } catch (err) {
    notice(err.message, "error");
    return;
  }
  const text = recordText(record);
  const area = h("textarea", { readonly: true, rows: 12, class: "export-text", "aria-label": t("The game as text") }, text);
  const choice = await openDialog({
    title: t("Export: {game}", { game: m.title }), body: h("div", {}, h("p", {}, t("The moves in the game's notation, one a line. The JSON record replays with `triverse replay`.")), area),
    actions: [{ label: t("Close"), value: null }, { label: t("Copy text"), value: "copy" },
      { label: t("Save as text"), value: "txt" }, { label: t("Save JSON record"), value: "json", primary: true }],
  });
  if (choice === "copy") notice((await copyText(text)) ? t("Copied.") : t("Select the text and copy it."));
  if (choice === "txt") download(`${record.game}-${m.match_id}.txt`, text, "text/plain");
  if (choice === "json") download(`${record.game}-${m.match_id}.json`, JSON.stringify(record, null, 1));
}

export function recordText(record) {
  const lines = [
    `# ${record.game} (${Object.entries(record.options || {}).map(([k, v]) => `${k}=${v}`).join(", ")})`,
    `# players: ${record.players.map((p) => `${p.name} [${p.kind}]`).join(", ")}`,
    `# seed: ${record.seed}`,
  ];
  if (record.result) {
    lines.push(`# result: ${record.result.scores.join(" ")} (ranks ${record.result.ranks.join(" ")})`);
  }
  record.actions.forEach((a, i) => lines.push(`${i + 1}. ${a}`));
  return `${lines.join("\n")}\n`;
}
