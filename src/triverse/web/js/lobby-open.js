// The lobby's open games (docs/protocol.md, "Open games"): the games whose creators opened a
// seat for anyone, listed live from the /ws/lobby websocket (GET /api/lobby while it cannot
// connect), each with its game, options, time per turn, pace, free seats, who waits and
// whether it is rated; and "Take a seat" (POST /api/matches/{id}/join), which keeps the seat's
// token in this browser and opens the table.
import { account, logInDialog, profileUrl } from "./session.js";
import { api } from "./api.js";
import { dataText, formatNumber, t, tn } from "./i18n.js";
import { computerName } from "./names.js";
import { addSeat, forgetMatch, seatsOf } from "./store.js";
import { LiveFeed } from "./sockets.js";
import { h, notice } from "./ui.js";

/** The live list: the websocket's "open_games" messages (GET /api/lobby while it is closed). */
const openGamesFeed = (onGames, onError) => new LiveFeed({
  path: "/ws/lobby", type: "open_games", pick: (m) => m.games,
  poll: async () => (await api.lobby()).games, feed: "lobbyFeed" }, onGames, onError);

/** The open games' section of the lobby, live. `catalogue`: GET /api/games (the options'
 * labels). Returns the feed (to close). */
export function renderOpenGames(section, catalogue) {
  const title = h("h2", { id: "open-games-title" }, t("Open games"));
  const intro = h("p", { class: "muted" },
    t("Games waiting for players: take a free seat with one click. To open your own, choose “Open a seat in the lobby” in a game's New game."));
  const list = h("ul", { class: "open-list match-list", "aria-busy": "true" });
  const status = h("p", { class: "muted" }, t("Loading…"));
  section.replaceChildren(title, intro, status, list);
  let last = [];
  const draw = (games) => {
    last = games;
    list.removeAttribute("aria-busy");
    status.textContent = games.length ? "" : t("No open games right now.");
    status.hidden = games.length > 0;
    list.replaceChildren(...games.map((g) => openItem(g, catalogue)));
    section.dataset.count = String(games.length);
  };
  const feed = openGamesFeed(draw, (err) => {
    list.removeAttribute("aria-busy");
    status.hidden = false;
    status.textContent = t("The open games cannot be listed: {error}", { error: err.message });
  });
  // Logging in or out changes which games are "yours".
  window.addEventListener("triverse:account", () => draw(last));
  return feed;
}

/** A time per turn in words: "5 minutes", "24 hours", "3 days". */
export function turnTime(seconds) {
  if (seconds % 86400 === 0) return tn("{n} day", "{n} days", seconds / 86400);
  if (seconds % 3600 === 0) return tn("{n} hour", "{n} hours", seconds / 3600);
  if (seconds % 60 === 0) return tn("{n} minute", "{n} minutes", seconds / 60);
  return tn("{n} second", "{n} seconds", seconds);
}

/** The pace's badge: live or correspondence. */
export function paceBadge(pace) {
  if (!pace) return null;
  const label = pace === "correspondence" ? t("correspondence") : t("live");
  return h("span", { class: `badge pace pace-${pace}`, "data-pace": pace,
    title: pace === "correspondence" ? t("Hours or days a turn: play when you can") : t("Minutes a turn: both at the table") }, label);
}

/** The options that differ from the game's defaults, in words ("Board: large · Target: 300"). */
function optionsText(game, options, catalogue) {
  const info = catalogue.games.find((g) => g.name === game);
  if (!info) return "";
  const parts = [];
  for (const spec of info.options) {
    if (!(spec.name in options) || spec.name === "time_limit") continue;
    const value = options[spec.name];
    if (String(value) === String(spec.default)) continue;
    const label = spec.label ? dataText("option", spec.label) : spec.name.replace(/_/g, " ");
    const choice = (spec.choice_labels || []).find((c) => String(c.value) === String(value));
    const shown = choice ? dataText("option", choice.label)
      : typeof value === "boolean" ? (value ? t("yes") : t("no")) : typeof value === "number" ? formatNumber(value) : String(value);
    parts.push(t("{option}: {value}", { option: label, value: shown }));
  }
  return parts.length ? parts.join(" · ") : t("standard options");
}

/** Whether this browser (its stored seats, or the logged-in account) plays in `game`. */
function isMine(game) {
  if (seatsOf(game.match_id).length) return true;
  const me = account();
  return Boolean(me && game.seats.some((s) => s.account && !s.free && s.name === me.name));
}

function openItem(game, catalogue) {
  const waiting = game.seats.filter((s) => !s.free && s.kind === "human");
  const computers = game.seats.filter((s) => s.kind !== "human");
  const who = waiting.length ? waiting.flatMap((s, i) => [i ? ", " : "",
    s.account ? h("a", { href: profileUrl(s.name), "data-player": s.name }, s.name) : s.name]) : [t("nobody yet")];
  const mine = isMine(game);
  const details = [
    optionsText(game.game, game.options || {}, catalogue),
    game.time_limit ? t("{time} a turn", { time: turnTime(game.time_limit) }) : t("no time limit"),
    computers.length ? t("with {computers}", { computers: computers.map((s) => computerName(s.kind)).join(", ") }) : null,
  ].filter(Boolean).join(" · ");
  const actions = mine ? ownActions(game) : [h("button", {
    type: "button", class: "primary", "data-join": game.match_id,
    "aria-label": t("Take a seat: {game}, with {names}", { game: game.title, names: waiting.map((s) => s.name).join(", ") || t("nobody yet") }),
    onclick: (e) => takeSeat(game, e.currentTarget),
  }, t("Take a seat"))];
  return h("li", { class: "match-item open-item", "data-open": game.match_id, "data-game": game.game },
    h("div", { class: "match-item-main" },
      h("strong", {}, game.title), " ", paceBadge(game.pace), " ",
      game.rated ? h("span", { class: "badge rated", "data-rated": "" }, t("rated")) : null, " ",
      mine ? h("span", { class: "badge mine" }, t("your game")) : null,
      h("div", { class: "muted" }, details),
      h("div", { class: "match-status" },
        tn("{n} seat free of {total}", "{n} seats free of {total}", game.free, { total: formatNumber(game.seats.length) }),
        " · ", t("Waiting:"), " ", ...who)),
    h("div", { class: "match-item-actions" }, ...actions));
}

/** An open game of this browser's: its table, and "Withdraw" while nobody else joined. */
function ownActions(game) {
  const held = seatsOf(game.match_id);
  const out = [];
  if (held.length) {
    out.push(h("a", { class: "button-link", href: `/play/${encodeURIComponent(game.match_id)}?seat=${held[0].seat}` }, t("Open")));
    const others = game.seats.filter((s) => !s.free && s.kind === "human").length > 1;
    if (!others) {
      out.push(h("button", { type: "button", class: "quiet", "data-withdraw": game.match_id, onclick: async (e) => {
        const button = e.currentTarget;
        button.disabled = true;
        try {
          await api.withdraw(game.match_id, held[0].token);
          forgetMatch(game.match_id);
          notice(t("Your open game is withdrawn."));
        } catch (err) {
          notice(err.message, "error");
          button.disabled = false;
        }
      } }, t("Withdraw")));
    }
  }
  return out;
}

/** Take a free seat of `game` (logging in first for a rated game), keep its token and open
 * the table. */
async function takeSeat(game, button) {
  if (game.rated && !account()) {
    notice(t("A rated game needs an account: log in or sign up first."));
    if (await logInDialog("login") !== "done") return;
  }
  button.disabled = true;
  try {
    const joined = await api.join(game.match_id);
    if (joined.token) {
      addSeat({ match_id: joined.match_id, seat: joined.seat, token: joined.token, game: game.game, mode: "open" });
    }
    window.triverseNavigate(joined.link || `/play/${encodeURIComponent(joined.match_id)}?seat=${joined.seat}`);
  } catch (err) {
    notice(err.message, "error");
    button.disabled = false;
  }
}
