// The contests' page (/contests; docs/contests.md): the contests whose sign-up is open, those
// being played and those finished (GET /api/contests), each leading to its page; and, for a
// logged-in account, the New contest form (contest-new.js, imported when shown).
import { account, logInDialog } from "./session.js";
import { api } from "./api.js";
import { loadCatalogue, loadGames } from "./games.js";
import { formatDate, t, tn } from "./i18n.js";
import { contestEntryOf } from "./store.js";
import { h } from "./ui.js";
import { linkStyles, statusBadge } from "./contest-boards.js";

const GROUPS = [
  ["signup", () => t("Sign-up open"), () => t("No contest is open for sign-up right now.")],
  ["running", () => t("Being played"), () => t("No contest is being played right now.")],
  ["finished", () => t("Finished"), () => t("No contest has finished yet.")],
  ["cancelled", () => t("Cancelled"), null],
];

function item(c) {
  const when = c.status === "signup" ? t("sign-up closes {when}", { when: formatDate(c.signup_closes) }) : null;
  const me = account();
  const hosting = me && me.name === c.host;
  const entered = Boolean(contestEntryOf(c.id));
  return h("li", { class: "match-item contest-item", "data-contest": c.id, "data-status": c.status },
    h("div", { class: "match-item-main" },
      h("strong", {}, h("a", { href: `/contests/${encodeURIComponent(c.id)}` }, c.title)), " ", statusBadge(c.status),
      hosting ? [" ", h("span", { class: "badge mine", "data-hosting": "" }, t("you host"))] : null,
      entered ? [" ", h("span", { class: "badge mine", "data-entered": "" }, t("signed up"))] : null,
      h("div", { class: "muted" }, [c.game_title, t("hosted by {host}", { host: c.host }),
        tn("{n} entrant", "{n} entrants", c.entrants), when].filter(Boolean).join(" · "))));
}

/** The lists, one per status. */
function drawLists(box, contests) {
  box.replaceChildren(...GROUPS.map(([status, title, empty]) => {
    const mine = contests.filter((c) => c.status === status);
    if (!mine.length && !empty) return null;
    return h("section", { class: "contest-group", "data-group": status, "aria-labelledby": `contests-${status}` },
      h("h2", { id: `contests-${status}` }, title()),
      mine.length ? h("ul", { class: "match-list" }, ...mine.map(item)) : h("p", { class: "muted" }, empty()));
  }).filter(Boolean));
}

/** The New contest form for an account, else an invitation to log in. */
async function drawHosting(box) {
  if (!account()) {
    box.replaceChildren(h("h2", {}, t("New contest")),
      h("p", {}, t("Any player with an account can host a contest."), " ",
        h("button", { type: "button", "data-login": "", onclick: () => logInDialog("login") }, t("Log in to host one"))));
    return;
  }
  try {
    const catalogue = await loadCatalogue();
    await loadGames(catalogue);  // each game's entry: how its options are drawn
    const { contestForm } = await import("./contest-new.js");
    box.replaceChildren(contestForm(catalogue));
  } catch (err) {
    box.replaceChildren(h("p", { class: "error" }, t("The games cannot be listed: {error}", { error: err.message })));
  }
}

export async function renderContests(root) {
  linkStyles();
  document.title = t("Contests · Triverse");
  const lists = h("div", { class: "contest-lists", "aria-busy": "true" }, h("p", { class: "muted" }, t("Loading…")));
  const hosting = h("section", { class: "contest-new", id: "new-contest" });
  root.replaceChildren(h("section", { class: "contests-page" },
    h("h1", {}, t("Contests")),
    h("p", { class: "muted" }, t("A host opens a contest; players sign up until it closes; then they are drawn at random to boards, and every board plays one game. Places on each board earn the host's rewards.")),
    lists, hosting));
  window.addEventListener("triverse:account", () => drawHosting(hosting));
  const listed = api.contests().then((answer) => drawLists(lists, answer.contests), (err) => {
    lists.replaceChildren(h("p", { class: "error" }, t("The contests cannot be listed: {error}", { error: err.message })));
  }).then(() => lists.removeAttribute("aria-busy"));
  await Promise.all([drawHosting(hosting), listed]);
}
