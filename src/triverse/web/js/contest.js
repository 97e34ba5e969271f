// The contest page (/contests/{id}; docs/contests.md): the contest live from the websocket
// /ws/contests/{id} (GET /api/contests/{id} whenever it is closed; it reconnects with backoff,
// 0.5 s doubling to 15 s), drawn by contest-boards.js; "you" in it (sign up, your personal
// link, your board); and the host's tools (contest-host.js).
//
// A guest's entry is known by its personal SECRET, which this browser keeps (store.js) and
// which the personal link /contests/{id}#me=SECRET carries to another device (the fragment
// is never sent to a server); it is also the seat token of the entrant's board, so the Play
// link is /play/{match}?seat=S#SECRET. An account's entry is known by the session.
import { api } from "./api.js";
import { loadCatalogue } from "./games.js";
import { t } from "./i18n.js";
import { LiveFeed } from "./sockets.js";
import { addSeat, contestEntryOf, forgetContestEntry, saveContestEntry, seatsOf } from "./store.js";
import { announce, h } from "./ui.js";
import { clockText, drawAnnouncements, drawBoards, drawDraw, drawEntrants, drawFacts, drawStandings, linkStyles, statusText } from "./contest-boards.js";
import { hostTools } from "./contest-host.js";
import { meSection } from "./contest-me.js";

/** The contest, live: the websocket's "contest" messages (GET /api/contests/{id} while it is
 * closed); refused for good (an unknown contest, a foreign origin), the page keeps what it
 * shows. */
const contestFeed = (id, onContest, onError) => new LiveFeed({
  path: `/ws/contests/${encodeURIComponent(id)}`, type: "contest", pick: (m) => m.contest,
  poll: () => api.contest(id), feed: "contestFeed", refused: [4400, 4403, 4404] }, onContest, onError);

/** Take a personal link's secret (#me=SECRET) into this browser, and out of the address bar. */
function takeSecret(id) {
  const found = location.hash.match(/^#me=([^&]+)$/);
  if (!found) return;
  const secret = decodeURIComponent(found[1]);
  const known = contestEntryOf(id);
  if (!known || known.secret !== secret) saveContestEntry(id, { secret, entry: null });
  history.replaceState(null, "", location.pathname + location.search);
}

/** Which entry is this browser's: the account's (the session's `me`), else the stored
 * secret's (GET .../me); null if neither. A secret the server does not know is forgotten. */
async function findMe(id, contest) {
  if (contest.me) return contest.me.entry;
  const stored = contestEntryOf(id);
  if (!stored || !stored.secret) return null;
  try {
    const me = await api.contestMe(id, stored.secret);
    saveContestEntry(id, { ...stored, entry: me.entry, name: me.name });
    return me.entry;
  } catch (err) {
    if (["wrong_token", "not_entered", "unknown_contest"].includes(err.code)) forgetContestEntry(id);
    return null;
  }
}

/** Once your board started, keep its seat in this browser as any seat's token (the secret
 * is the seat's token): "My games" lists it, with its "your move". */
function keepSeat(id, contest, me) {
  const stored = contestEntryOf(id);
  const entry = contest.entries.find((e) => e.entry === me);
  if (!stored || stored.entry !== me || !entry || entry.removed || !entry.board) return;
  const board = contest.boards.find((b) => b.board === entry.board);
  if (!board || board.status !== "active" || seatsOf(board.match_id).some((s) => s.token === stored.secret)) return;
  addSeat({ match_id: board.match_id, seat: entry.seat, token: stored.secret, game: contest.game, mode: "online" });
}

/** Update every countdown of the page once a second. */
function startTicker(root) {
  return setInterval(() => {
    for (const el of root.querySelectorAll("[data-until]")) {
      el.textContent = clockText(new Date(el.dataset.until).getTime() - Date.now());
    }
  }, 1000);
}

/** The contest page of `id`. */
export async function renderContest(root, id) {
  linkStyles();
  takeSecret(id);
  document.title = t("Contest · Triverse");
  root.replaceChildren(h("section", { class: "contest-page" }, h("h1", {}, t("Contest")), h("p", { class: "muted" }, t("Loading…"))));
  let contest, catalogue;
  try {
    [contest, catalogue] = await Promise.all([api.contest(id), loadCatalogue().catch(() => ({ levels: [] }))]);
  } catch (err) {
    root.replaceChildren(h("section", { class: "contest-page" }, h("h1", {}, t("Contest")),
      h("p", { class: "error", "data-error": err.code || "" }, ["unknown_contest", "not_found"].includes(err.code) ? t("There is no such contest.") : err.message),
      h("p", {}, h("a", { href: "/contests" }, t("All contests")))));
    return;
  }
  const page = { id, contest, isHost: Boolean(contest.is_host), me: await findMe(id, contest) };
  const title = h("h1", {});
  const facts = h("dl", { class: "contest-facts" });
  const sections = {};
  for (const name of ["boards", "standings", "entrants", "draw"]) {
    sections[name] = h("section", { class: `contest-${name}`, "aria-labelledby": `contest-${name}-title` });
  }
  const annList = h("ol", { class: "announcement-list" });
  const noAnn = h("p", { class: "muted" }, t("No announcements yet."));
  const announcements = h("section", { class: "contest-announcements", "aria-labelledby": "contest-announcements-title" },
    h("h2", { id: "contest-announcements-title" }, t("Announcements")), noAnn,
    h("div", { role: "log", "aria-labelledby": "contest-announcements-title" }, annList));
  const me = meSection(id, (entry) => {
    page.me = entry;
    draw();
    api.contest(id).then(onContest, () => { /* the websocket tells */ });
  });
  const host = hostTools(id, catalogue.levels || [], (c) => onContest(c), () => {});
  const remove = (entry) => host.remove(entry);
  const playLink = (board, seat) => {
    const stored = contestEntryOf(id);
    const secret = stored && stored.entry === seat.entry ? stored.secret : null;
    return `/play/${encodeURIComponent(board.match_id)}?seat=${seat.seat}${secret ? `#${encodeURIComponent(secret)}` : ""}`;
  };

  function draw() {
    const c = page.contest;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    document.title = t("{title} · Triverse", { title: c.title });
    title.textContent = c.title;
    drawFacts(facts, c);
    me.draw(c, page.me, playLink);
    host.sync(c, page.isHost);
    announcements.dataset.host = page.isHost && c.status !== "cancelled" ? "true" : "";
    drawAnnouncements(announcements, annList, noAnn, c);
    drawBoards(sections.boards, c, page.me, playLink);
    drawStandings(sections.standings, c, page.me);
    drawEntrants(sections.entrants, c, page.me, page.isHost && c.status !== "finished" && c.status !== "cancelled" ? remove : null);
    drawDraw(sections.draw, c);
    if (page.me !== null) keepSeat(id, c, page.me);
    root.firstElementChild.dataset.status = c.status;
    root.firstElementChild.dataset.entrants = String(c.entries.length);
    root.firstElementChild.dataset.me = page.me === null ? "" : String(page.me);
    if (focused) {
      const again = root.querySelector(`[data-key="${focused}"]`);
      if (again && again !== document.activeElement) again.focus();
    }
  }

  function onContest(c) {
    const before = page.contest;
    // The websocket's contest is the public one: who is the host and "me" stay the GET's.
    page.contest = { ...c, is_host: page.isHost, me: before.me };
    if (before.status !== c.status) announce(t("The contest: {status}", { status: statusText(c.status) }));
    draw();
  }

  root.replaceChildren(h("section", { class: "contest-page", "data-contest": id },
    h("p", { class: "crumbs" }, h("a", { href: "/contests" }, t("All contests"))),
    title, facts, me.section, host.section, announcements, sections.boards, sections.standings,
    sections.entrants, sections.draw));
  draw();
  const ticker = startTicker(root);
  const feed = contestFeed(id, onContest, () => { /* the last contest stays shown */ });
  // Logging in or out changes who is the host and which entry is yours.
  window.addEventListener("triverse:account", async () => {
    try {
      const fresh = await api.contest(id);
      page.isHost = Boolean(fresh.is_host);
      page.contest = fresh;
      page.me = await findMe(id, fresh);
      draw();
    } catch { /* the page stays as it was */ }
  });
  window.addEventListener("pagehide", () => { feed.close(); clearInterval(ticker); });
}
