// "You" on the contest page: while sign-up is open, the sign-up form (a guest's name, or one
// click for a logged-in account); once signed up, the personal link (shown in full once, right
// after signing up, then folded away), withdrawing during sign-up, and, once the boards are
// drawn, your board with its Play link, then your place and reward.
import { account, logInDialog } from "./session.js";
import { api } from "./api.js";
import { formatNumber, t } from "./i18n.js";
import { contestEntryOf, forgetContestEntry, saveContestEntry } from "./store.js";
import { announce, copyText, h, notice, ordinal } from "./ui.js";
import { rewardText } from "./contest-boards.js";

/** The personal link's box: the address (read-only) and a Copy button. */
function linkBox(url, first) {
  const input = h("input", { type: "text", id: "ct-my-link", readonly: true, value: url, "data-personal-link": "" });
  const copy = h("button", { type: "button", "data-copy-link": "", "data-key": "copy-link", onclick: async () => {
    input.select();
    notice((await copyText(url)) ? t("Link copied.") : t("Select the link and copy it."));
  } }, t("Copy"));
  const row = h("div", { class: "invite-row" }, h("label", { for: "ct-my-link", class: "invite-label" }, t("Your personal link")), input, copy);
  const why = h("p", { class: first ? "personal-link-note" : "muted small" },
    t("Keep it to yourself: it brings you back to your entry and your board, on any device."));
  return first ? h("div", { class: "personal-link" }, h("strong", {}, t("You are signed up.")), " ", why, row)
    : h("details", { class: "personal-link" }, h("summary", {}, t("Your personal link")), why, row);
}

/** The section and its draw(contest, me, playLink); `onEntered(entry)` after a sign-up or a
 * withdrawal (null). */
export function meSection(id, onEntered) {
  const section = h("section", { class: "contest-me", "aria-labelledby": "contest-me-title" });
  const name = h("input", { type: "text", id: "ct-name", maxlength: 40, autocomplete: "nickname" });
  const error = h("p", { class: "form-error", role: "alert" });
  let fresh = null;     // a personal link just received: shown in full (later visits fold it)
  let pending = null;   // an entry just made that the contest does not list yet
  let shown = null;     // what the section shows (drawn again only when it changes)

  async function signUp(button) {
    error.textContent = "";
    const me = account();
    const typed = name.value.trim();
    if (!me && !typed) { error.textContent = t("Write the name you play under."); name.focus(); return; }
    button.disabled = true;
    try {
      const answer = await api.enterContest(id, me ? null : typed);
      saveContestEntry(id, { secret: answer.secret, entry: answer.entry, name: answer.name });
      fresh = new URL(answer.link, location.origin).href;
      pending = answer.entry;
      announce(t("You are signed up."));
      onEntered(answer.entry);
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  }

  async function withdraw(button) {
    const stored = contestEntryOf(id);
    button.disabled = true;
    try {
      await api.withdrawEntry(id, stored ? stored.secret : undefined);
      forgetContestEntry(id);
      fresh = null;
      pending = null;
      onEntered(null);
    } catch (err) {
      notice(err.message, "error");
      button.disabled = false;
    }
  }

  function form() {
    const me = account();
    const send = h("button", { type: "submit", class: "primary", "data-signup": "" }, me ? t("Sign up as {name}", { name: me.name }) : t("Sign up"));
    const body = me ? [h("p", {}, t("One click and you are in: your account's name is your name in the contest."))]
      : [h("div", { class: "option-row" }, h("label", { for: "ct-name" }, t("Your name")), name),
        h("p", { class: "muted small" }, t("As a guest you get a personal link to come back with."), " ",
          h("button", { type: "button", class: "quiet", "data-login": "", onclick: () => logInDialog("login") }, t("Log in to sign up with your account")))];
    return h("form", { class: "contest-signup", novalidate: true, onsubmit: (e) => { e.preventDefault(); signUp(send); } },
      ...body, send, error);
  }

  function yourBoard(contest, entry, playLink) {
    if (entry.removed) return h("p", { "data-my-state": "removed" }, t("The host removed you from the contest."));
    const board = contest.boards.find((b) => b.board === entry.board);
    if (!board) return null;
    const seat = board.seats.find((s) => s.entry === entry.entry);
    const where = t("Your board: board {n}, seat {seat} in the posting order.", { n: formatNumber(board.board), seat: formatNumber(entry.seat + 1) });
    if (board.status === "active") {
      return h("p", { "data-my-state": "playing" }, where, " ",
        h("a", { class: "button-link primary", href: playLink(board, seat), "data-my-play": "" }, t("Play your seat")));
    }
    const result = seat && seat.place ? t("Your place: {place} · your reward: {reward}", { place: ordinal(seat.place),
      reward: rewardText(seat.reward || 0, contest.reward_name) }) : t("Your board's game is over.");
    return h("p", { "data-my-state": "over" }, where, " ", result);
  }

  function draw(contest, me, playLink) {
    let entry = me === null ? null : contest.entries.find((e) => e.entry === me) || null;
    if (entry) pending = null;
    if (!entry && me !== null && pending === me) entry = { entry: me, name: (contestEntryOf(id) || {}).name, removed: false, board: null };
    const stored = contestEntryOf(id);
    const secret = stored && entry && stored.entry === entry.entry ? stored.secret : null;
    // Drawn again only when what it shows changed: a name being typed keeps its focus while
    // others sign up.
    const board = entry && contest.boards.find((b) => b.board === entry.board);
    const seat = board && board.seats.find((s) => s.entry === entry.entry);
    const key = JSON.stringify([contest.status, contest.reward_name, account() && account().name, entry, secret, Boolean(fresh),
      board && [board.match_id, board.status], seat && [seat.place, seat.reward]]);
    if (key === shown) return;
    shown = key;
    const out = [];
    if (!entry) {
      if (contest.status !== "signup") { section.hidden = true; return; }
      out.push(h("h2", { id: "contest-me-title" }, t("Sign up")), form());
    } else {
      out.push(h("h2", { id: "contest-me-title" }, t("Your entry")));
      if (secret) out.push(linkBox(`${location.origin}/contests/${encodeURIComponent(id)}#me=${encodeURIComponent(secret)}`, Boolean(fresh)));
      if (contest.status === "signup") {
        out.push(h("p", { "data-my-state": "signed-up" }, t("You are signed up as {name}. The boards are drawn when sign-up closes.", { name: entry.name || "" }), " ",
          h("button", { type: "button", class: "quiet", "data-withdraw": "", onclick: (e) => withdraw(e.currentTarget) }, t("Withdraw"))));
      } else if (contest.status === "cancelled") {
        out.push(h("p", { "data-my-state": "cancelled" }, t("The contest was cancelled.")));
      } else {
        out.push(yourBoard(contest, entry, playLink));
      }
    }
    section.hidden = false;
    section.replaceChildren(...out.filter(Boolean));
  }

  return { section, draw };
}
