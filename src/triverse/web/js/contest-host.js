// The host's tools on the contest page (docs/contests.md): during sign-up, add a computer
// player (its level), close sign-up now and cancel the contest (asked first); while it is not
// over, post an announcement; and removing a player (asked first), from the Remove buttons of
// the entrants' list. Each request answers with the contest or is followed by the websocket's;
// a refusal is shown in the server's words.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { computerName } from "./names.js";
import { h, notice, openDialog } from "./ui.js";

/** Ask before something that cannot be undone: resolves true if confirmed. */
async function confirmed(title, text, label) {
  const v = await openDialog({ title, body: h("p", {}, text), className: "confirm-dialog",
    actions: [{ label: t("Keep"), value: null }, { label, value: "yes", danger: true }] });
  return v === "yes";
}

/** Run `request` from `button` (disabled meanwhile); `update` takes a contest answered. */
async function run(button, request, update) {
  button.disabled = true;
  try {
    const answer = await request();
    if (answer && answer.id && answer.entries) update(answer);
    return true;
  } catch (err) {
    notice(err.message, "error");
    return false;
  } finally {
    button.disabled = false;
  }
}

/** The host's section (built once; `sync(contest)` shows what the contest's status allows)
 * and `remove(entry)`, for the entrants' list. `levels`: the computer levels of GET /api/games;
 * `update(contest)`: draw a contest answered; `cancelled()`: after the cancel. */
export function hostTools(id, levels, update, cancelled) {
  const level = h("select", { id: "ct-computer-level" },
    ...levels.map((l) => h("option", { value: l }, computerName(l))));
  const add = h("button", { type: "button", "data-host": "add-computer",
    onclick: () => run(add, () => api.addComputer(id, level.value), update) }, t("Add a computer player"));
  const close = h("button", { type: "button", class: "primary", "data-host": "close",
    onclick: () => run(close, () => api.closeSignup(id), update) }, t("Close sign-up now"));
  const cancel = h("button", { type: "button", class: "danger", "data-host": "cancel", onclick: async () => {
    if (!await confirmed(t("Cancel the contest?"), t("Nobody will play it. Everyone signed up sees that it was cancelled."), t("Cancel the contest"))) return;
    if (await run(cancel, () => api.cancelContest(id), update)) cancelled();
  } }, t("Cancel the contest"));
  const signup = h("div", { class: "host-signup" },
    h("div", { class: "option-row" }, h("label", { for: "ct-computer-level" }, t("Computer level")), level, add),
    h("div", { class: "host-buttons" }, close, cancel));

  const text = h("textarea", { id: "ct-announcement", maxlength: 500, rows: 2 });
  const post = h("button", { type: "button", "data-host": "announce", onclick: async () => {
    const said = text.value.trim();
    if (!said) { text.focus(); return; }
    if (await run(post, () => api.announce(id, said), update)) text.value = "";
  } }, t("Post the announcement"));
  const announcing = h("div", { class: "host-announce" },
    h("label", { for: "ct-announcement" }, t("Announcement to every player")), text, post);

  const section = h("section", { class: "contest-host", "aria-labelledby": "contest-host-title", hidden: true },
    h("h2", { id: "contest-host-title" }, t("Your contest: the host's tools")), signup, announcing);
  const sync = (contest, isHost) => {
    section.hidden = !isHost || contest.status === "cancelled" || contest.status === "finished";
    signup.hidden = contest.status !== "signup";
    announcing.hidden = contest.status === "finished";
  };
  const remove = async (entry) => {
    const sure = await confirmed(t("Remove {name}?", { name: entry.name }),
      t("{name} leaves the contest: during sign-up the entry goes; once playing, their seat is passed at each of their turns, and they get no place and no reward.", { name: entry.name }),
      t("Remove"));
    if (!sure) return;
    try {
      update(await api.removeEntry(id, entry.entry));
    } catch (err) {
      notice(err.message, "error");
    }
  };
  return { section, sync, remove };
}
