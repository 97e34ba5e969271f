// The entry point: one page, three kinds of address.
//   /                      the lobby (games, New Game, My games)
//   /play/{id}?seat=N#tok  a seat at a table (an invite link), or hot-seat
//   /watch/{id}[?replay=K] a spectator; with replay, step through a finished game
import { initI18n } from "./i18n.js";
import { openPreferences } from "./prefs.js";

window.triverseNavigate = (url) => { location.assign(url); };

document.getElementById("prefs-button").addEventListener("click", () => openPreferences());

async function route() {
  await initI18n();
  const app = document.getElementById("app");
  const path = location.pathname;
  const match = path.match(/^\/(play|watch)\/([^/]+)\/?$/);
  document.body.dataset.page = match ? match[1] : "lobby";
  if (match) {
    const params = new URLSearchParams(location.search);
    const replay = params.has("replay") ? Number(params.get("replay") || 0) : null;
    const { renderMatch } = await import("./table.js");
    renderMatch(app, { matchId: decodeURIComponent(match[2]), watch: match[1] === "watch", replay });
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
