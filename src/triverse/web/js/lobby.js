// The lobby: the games (from GET /api/games, each card drawn once its module has loaded), with
// their New game buttons (the dialog is new-game.js's, imported on the first press), the open
// games (lobby-open.js) and "My games" (lobby-mine.js).
import { artOf, loadCatalogue, loadFailure, loadGames, playable, rulesOf, uiFor } from "./games.js";
import { renderMyGames, watchMyGames } from "./lobby-mine.js";
import { renderOpenGames } from "./lobby-open.js";
import { statsOf, tallyOf } from "./stats.js";
import { h } from "./ui.js";
import { dataText, formatNumber, t, tc } from "./i18n.js";

export async function renderLobby(root) {
  document.title = "Triverse";
  const gamesList = h("ul", { class: "game-cards", "aria-busy": "true" });
  const mine = h("section", { class: "my-games", id: "my-games", "aria-labelledby": "my-games-title" },
    h("h2", { id: "my-games-title" }, t("My games")),
    h("p", { class: "muted" }, t("Loading…")));
  const openGames = h("section", { class: "open-games", id: "open-games", "aria-labelledby": "open-games-title" },
    h("h2", { id: "open-games-title" }, t("Open games")));
  root.replaceChildren(
    h("section", { class: "lobby-intro" },
      h("h1", {}, t("Five tri games, one table")),
      h("p", {}, t("Play against the computer, pass one screen around, invite friends with a link, or take a seat in an open game."))),
    h("section", { class: "games", "aria-labelledby": "games-title" },
      h("h2", { id: "games-title", class: "sr-only" }, t("Games")), gamesList),
    openGames,
    h("section", { class: "lobby-contests", "aria-labelledby": "contests-title" },
      h("h2", { id: "contests-title" }, t("Contests")),
      h("p", {}, t("Sign up to a contest, or host one: its players are drawn at random to boards, and every board plays for places and rewards."), " ",
        h("a", { href: "/contests", "data-contests-link": "" }, t("See the contests")))),
    mine);
  // Logging in or out (or claiming this browser's games) changes "My games".
  window.addEventListener("triverse:account", () => renderMyGames(mine));

  let data;
  try {
    data = await loadCatalogue();
  } catch (err) {
    gamesList.replaceChildren(h("li", { class: "error" }, t("The games cannot be listed: {error}", { error: err.message })));
    return;
  }
  // Each game's module (its entry and art) before any card is drawn.
  await loadGames(data);
  gamesList.removeAttribute("aria-busy");
  // The games with a table first, then the others (each in the catalogue's order).
  const games = [...data.games.filter(playable), ...data.games.filter((g) => !playable(g))];
  gamesList.replaceChildren(...games.map((g) => gameCard(g, data)));
  renderOpenGames(openGames, data);
  renderMyGames(mine);
  watchMyGames(mine);
}

/** Why a game listed by the server cannot be played in this browser: {badge, note}, or null
 * if it can. */
function notHere(game) {
  if (playable(game)) return null;
  if (!game.available) return { badge: t("coming soon"), note: null };
  const failure = loadFailure(game.name);
  return {
    badge: t("not in the browser"),
    note: failure
      ? t("Its table did not load ({error}): play it in the terminal or through the API.", { error: failure })
      : t("It has no table in the browser: play it in the terminal or through the API."),
  };
}

function gameCard(game, data) {
  const can = playable(game);
  const why = notHere(game);
  const rules = rulesOf(game);
  return h("li", { class: `game-card ${can ? "" : "soon"}`, "data-game": game.name, "data-playable": String(can) },
    h("div", { class: "game-card-art", "aria-hidden": "true" }, gameArt(artOf(game.name))),
    h("div", { class: "game-card-text" },
      h("h3", {}, game.title, why ? h("span", { class: "badge" }, why.badge) : null),
      h("p", {}, dataText("game", game.summary)),
      why && why.note ? h("p", { class: "card-note" }, why.note) : null,
      can ? cardStats(game) : null,
      h("div", { class: "game-card-actions" },
        can
          ? h("button", { type: "button", class: "primary", "data-new-game": game.name,
            "aria-label": t("New game of {game}", { game: game.title }), onclick: async () => (await import("./new-game.js")).newGameDialog(game, data) }, t("New game"))
          : null,
        rules ? h("a", { href: rules, class: "button-link", "aria-label": t("Rules of {game}", { game: game.title }) }, t("Rules")) : null,
        can ? h("a", { href: `/leaderboard/${encodeURIComponent(game.name)}`, class: "card-link", "data-leaderboard": game.name,
          "aria-label": t("Leaderboard of {game}", { game: game.title }) }, t("Leaderboard")) : null)));
}

/** The statistics against the computer kept in this browser, one row per board played. */
function cardStats(game) {
  const ui = uiFor(game.name);
  const all = statsOf(game.name);
  const keys = (ui.statsKeys || Object.keys(all)).filter((k) => all[k]);
  if (!keys.length) return null;
  return h("table", { class: "card-stats", "data-stats-game": game.name },
    h("caption", {}, t("Against the computer, in this browser")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Board")), h("th", { scope: "col", title: t("wins") }, t("Won")),
      h("th", { scope: "col", title: t("losses") }, t("Lost")), h("th", { scope: "col", title: t("draws") }, tc("result", "Draw")))),
    h("tbody", {}, ...keys.map((k) => {
      const tally = tallyOf(game.name, k);
      return h("tr", { "data-stats-key": k }, h("th", { scope: "row" }, ui.statsLabel(k)),
        h("td", { "data-wins": tally.wins }, formatNumber(tally.wins)),
        h("td", { "data-losses": tally.losses }, formatNumber(tally.losses)),
        h("td", { "data-draws": tally.draws }, formatNumber(tally.draws)));
    })));
}

/** A game card's picture from its module's SVG markup (games.js: artOf). */
function gameArt(markup) {
  const ns = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(ns, "svg");
  s.setAttribute("viewBox", "0 0 60 52");
  s.innerHTML = markup;
  return s;
}
