// The entry point: one page, five kinds of address.
//   /                      the lobby (games, New Game, open games, My games)
//   /play/{id}?seat=N#tok  a seat at a table (an invite link), or hot-seat
//   /watch/{id}[?replay=K] a spectator; with replay, step through a finished game
//   /players/{name}        a player's public profile
//   /leaderboard/{game}    a game's leaderboard (?players=N)
//   /contests              the contests, and the New contest form
//   /contests/{id}         a contest (#me=SECRET: an entrant's personal link)
// Every page has the account button in its header (session.js).
import { account, mountAccount } from "./session.js";
import { api } from "./api.js";
import { initI18n } from "./i18n.js";
import { addSeat, seatsOf } from "./store.js";

window.triverseNavigate = (url) => { location.assign(url); };

// Preferences' module (with Triangles' themes) only when the button is pressed.
document.getElementById("prefs-button").addEventListener("click", async () => {
  (await import("./prefs.js")).openPreferences();
});

/** A logged-in player opening a game of theirs on a device that holds no seat of it (a
 * notification's link): the seat's link for this browser, from the account's games. */
async function seatFromAccount(matchId) {
  if (!account() || seatsOf(matchId).length || location.hash.length > 1) return;
  try {
    const { matches } = await api.accountGames();
    for (const m of matches.filter((g) => g.match_id === matchId)) {
      const token = decodeURIComponent(new URL(m.link, location.origin).hash.slice(1));
      if (token) addSeat({ match_id: matchId, seat: m.seat, token, game: m.game, mode: m.mode });
    }
  } catch {
    /* a spectator's table, then */
  }
}

async function route() {
  await initI18n();
  await mountAccount(document.querySelector(".site-header nav"));
  const app = document.getElementById("app");
  const path = location.pathname;
  const match = path.match(/^\/(play|watch)\/([^/]+)\/?$/);
  const player = path.match(/^\/players\/([^/]+)\/?$/);
  const board = path.match(/^\/leaderboard\/([^/]+)\/?$/);
  const contest = path.match(/^\/contests(?:\/([^/]+))?\/?$/);
  document.body.dataset.page = match ? match[1] : player ? "player" : board ? "leaderboard"
    : contest ? (contest[1] ? "contest" : "contests") : "lobby";
  if (match) {
    const params = new URLSearchParams(location.search);
    const replay = params.has("replay") ? Number(params.get("replay") || 0) : null;
    const matchId = decodeURIComponent(match[2]);
    if (match[1] === "play") await seatFromAccount(matchId);
    const { renderMatch } = await import("./table.js");
    renderMatch(app, { matchId, watch: match[1] === "watch", replay });
  } else if (player) {
    const { renderProfile } = await import("./players.js");
    await renderProfile(app, decodeURIComponent(player[1]));
  } else if (board) {
    const { renderLeaderboard } = await import("./players.js");
    const players = new URLSearchParams(location.search).get("players");
    await renderLeaderboard(app, decodeURIComponent(board[1]), players ? Number(players) : null);
  } else if (contest && contest[1]) {
    const { renderContest } = await import("./contest.js");
    await renderContest(app, decodeURIComponent(contest[1]));
  } else if (contest) {
    const { renderContests } = await import("./contests.js");
    await renderContests(app);
  } else {
    const { renderLobby } = await import("./lobby.js");
    await renderLobby(app);
    if (location.hash === "#my-games") {
      const mine = document.querySelector(".my-games");
      if (mine) mine.scrollIntoView();
    }
  }
  document.body.dataset.ready = "true";
}

route();
