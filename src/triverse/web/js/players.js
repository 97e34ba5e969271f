// The players' pages: a public profile (/players/{name}: GET /api/players/{name}) with the
// games played, the ratings and the recent finished games (their records and replays), and a
// game's leaderboard (/leaderboard/{game}?players=N: GET /api/ratings/{game}), the computer
// levels' fixed anchors among the players, marked.
import { profileUrl } from "./session.js";
import { api } from "./api.js";
import { loadCatalogue } from "./games.js";
import { formatDate, formatNumber, t, tn } from "./i18n.js";
import { computerName } from "./names.js";
import { h, ordinal } from "./ui.js";

const leaderboardUrl = (game, players) =>
  `/leaderboard/${encodeURIComponent(game)}${players ? `?players=${players}` : ""}`;

function failure(root, heading, err) {
  root.replaceChildren(h("section", { class: "players-page" }, h("h1", {}, heading),
    h("p", { class: "error", "data-error": err.code || "" }, err.code === "unknown_player"
      ? t("There is no player of that name.") : err.message),
    h("p", {}, h("a", { href: "/" }, t("Back to the lobby")))));
}

/** The profile page of `name`. */
export async function renderProfile(root, name) {
  document.title = t("{name} · Triverse", { name });
  root.replaceChildren(h("section", { class: "players-page" }, h("h1", {}, name), h("p", { class: "muted" }, t("Loading…"))));
  let p;
  try {
    p = await api.player(name);
  } catch (err) {
    failure(root, name, err);
    return;
  }
  const games = p.games.length
    ? h("table", { class: "standings profile-games" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Game")), h("th", { scope: "col" }, t("Games played")))),
      h("tbody", {}, ...p.games.map((g) => h("tr", { "data-game": g.game },
        h("th", { scope: "row" }, g.title), h("td", {}, formatNumber(g.played))))))
    : h("p", { class: "muted" }, t("No games played yet."));
  const ratings = p.ratings.length
    ? h("table", { class: "standings profile-ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Game")), h("th", { scope: "col" }, t("Players")),
        h("th", { scope: "col" }, t("Rating")), h("th", { scope: "col" }, t("Rated games")))),
      h("tbody", {}, ...p.ratings.map((r) => h("tr", { "data-game": r.game, "data-players": r.players },
        h("th", { scope: "row" }, h("a", { href: leaderboardUrl(r.game, r.players) }, r.title)),
        h("td", {}, formatNumber(r.players)),
        h("td", { "data-rating": r.rating }, formatNumber(Math.round(r.rating))),
        h("td", {}, formatNumber(r.games))))))
    : h("p", { class: "muted" }, t("No rated games yet."));
  const recent = p.recent.length
    ? h("ul", { class: "match-list profile-recent" }, ...p.recent.map(recentItem))
    : h("p", { class: "muted" }, t("No finished games yet."));
  root.replaceChildren(h("section", { class: "players-page profile", "data-profile": p.name },
    h("h1", {}, p.name),
    h("p", { class: "muted" }, t("Player since {date}", { date: formatDate(p.created, { dateStyle: "long" }) })),
    h("h2", {}, t("Ratings")), ratings,
    h("h2", {}, t("Games played")), games,
    h("h2", {}, t("Recent games")), recent));
}

/** A finished game of the profile: its players, its result, its replay and record. */
function recentItem(m) {
  const replay = typeof m.replay === "string" ? m.replay : `/watch/${encodeURIComponent(m.match_id)}?replay=0`;
  return h("li", { class: "match-item", "data-match": m.match_id },
    h("div", { class: "match-item-main" },
      h("strong", {}, m.title),
      h("div", { class: "muted" }, m.players.join(", ")),
      m.result ? h("div", { class: "match-status", "data-result": "" }, resultText(m.result, m.seats || [])) : null,
      m.finished_at ? h("div", { class: "muted small" }, t("Finished {when}", { when: formatDate(m.finished_at) })) : null),
    h("div", { class: "match-item-actions" },
      h("a", { class: "button-link", href: replay, "data-replay": m.match_id }, t("Replay")),
      h("a", { class: "button-link", href: m.record || `/api/matches/${encodeURIComponent(m.match_id)}/record`,
        download: `${m.game}-${m.match_id}.json`, "data-download": m.match_id }, t("Download record"))));
}

/** A finished game's result on a profile: the player's place ("1st of 3", its seats'), and
 * the scores of every seat. */
function resultText(result, seats) {
  if (!Array.isArray(result.ranks)) return "";
  const n = formatNumber(result.ranks.length);
  const places = seats.map((s) => t("{place} of {n}", { place: ordinal(result.ranks[s]), n }));
  const scores = (result.scores || []).map((score) => formatNumber(score)).join(" – ");
  return [...places, scores].filter(Boolean).join(" · ");
}

/** The leaderboard page of `game` for `players` players (null: the server's default). */
export async function renderLeaderboard(root, game, players) {
  document.title = t("Leaderboard · Triverse");
  const section = h("section", { class: "players-page leaderboard" }, h("h1", {}, t("Leaderboard")), h("p", { class: "muted" }, t("Loading…")));
  root.replaceChildren(section);
  let catalogue = { games: [] };
  try { catalogue = await loadCatalogue(); } catch { /* the board alone, without its choices */ }
  let board;
  try {
    board = await api.leaderboard(game, players);
  } catch (err) {
    failure(root, t("Leaderboard"), err);
    return;
  }
  document.title = t("Leaderboard: {game} · Triverse", { game: board.title });
  section.dataset.game = board.game;
  section.dataset.players = String(board.players);
  const rows = board.entries.map((e) => h("tr", { "data-name": e.name, "data-computer": String(Boolean(e.computer)), class: e.computer ? "anchor" : "" },
    h("td", { "data-rank": e.rank }, ordinal(e.rank)),
    h("th", { scope: "row" }, e.computer
      ? [e.level ? computerName(e.level) : e.name, " ", h("span", { class: "badge", title: t("A computer level's fixed rating, from the arena") }, t("anchor"))]
      : h("a", { href: profileUrl(e.name) }, e.name)),
    h("td", { "data-rating": e.rating }, formatNumber(Math.round(e.rating))),
    h("td", {}, formatNumber(e.games))));
  section.replaceChildren(...[
    h("h1", {}, t("Leaderboard: {game}", { game: board.title })),
    choices(catalogue, board),
    h("p", { class: "muted" }, t("Ratings of rated games between accounts ({players}). The computer levels keep fixed ratings, so that a rating means something from the first game.",
      { players: tn("{n} player", "{n} players", board.players) })),
    rows.length
      ? h("table", { class: "standings leaderboard-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col" }, t("Rating")), h("th", { scope: "col" }, t("Rated games")))),
        h("tbody", {}, ...rows))
      : h("p", { class: "muted" }, t("Nobody is rated yet."))].filter(Boolean));
}

/** The game and the number of players of the board, to choose another. */
function choices(catalogue, board) {
  const games = catalogue.games.filter((g) => g.available);
  const info = games.find((g) => g.name === board.game);
  if (!info) return null;
  const go = () => window.triverseNavigate(leaderboardUrl(gameSelect.value, countSelect.value));
  const gameSelect = h("select", { id: "lb-game", onchange: () => { countSelect.value = ""; go(); } },
    ...games.map((g) => h("option", { value: g.name, selected: g.name === board.game }, g.title)));
  const counts = [];
  for (let n = info.min_players; n <= info.max_players; n++) counts.push(n);
  const countSelect = h("select", { id: "lb-players", onchange: go },
    ...counts.map((n) => h("option", { value: n, selected: n === board.players }, tn("{n} player", "{n} players", n))));
  return h("div", { class: "leaderboard-choices" },
    h("label", { for: "lb-game" }, t("Game")), gameSelect,
    h("label", { for: "lb-players" }, t("Players")), countSelect);
}
