// The account's dialogs (imported by session.js when first needed): sign up, log in, the
// account panel (profile, Notify me, change the password, log out, delete the account). At
// sign-up and log-in the seats this browser holds as a guest (their tokens in localStorage)
// are claimed into the account, so that "My games" shows them on every device.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { disablePush, enablePush, pushState } from "./push.js";
import { account, announceAccount, profileUrl, setSession } from "./session.js";
import { seats } from "./store.js";
import { h, notice, openDialog } from "./ui.js";

/** Claim the seats this browser holds as a guest into the account (at most the 100 newest
 * tokens, as the server takes). Resolves with the number of seats claimed. */
async function claimGuestSeats() {
  const tokens = [...new Set(seats().map((s) => s.token))].slice(-100);
  if (!tokens.length) return 0;
  try {
    const answer = await api.claim(tokens);
    return answer.claimed.length;
  } catch (err) {
    console.warn("claim", err);
    return 0;
  }
}


// --- dialogs -------------------------------------------------------------------------------
/** A field of a form: a label and an input. */
function field(id, label, attrs) {
  const input = h("input", { id, name: id, required: true, ...attrs });
  return { input, row: h("div", { class: "option-row form-row" }, h("label", { for: id }, label), input) };
}

/**
 * A dialog around a form whose primary button sends it: `submit()` may throw an ApiError,
 * shown in the dialog (which stays open); otherwise the dialog closes with the value it
 * resolved. Enter in a field submits too.
 */
function formDialog({ title, className, body, submitLabel, danger = false, extra = [], submit }) {
  const error = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "account-form", novalidate: true }, ...body, error);
  return openDialog({
    title, body: form, className: `account-dialog ${className}`,
    actions: [...extra, { label: t("Cancel"), value: null },
      { label: submitLabel, value: "submit", primary: !danger, danger }],
    onOpen: (dlg, close) => {
      const old = dlg.querySelector('button[data-value="submit"]');
      const send = old.cloneNode(true);
      old.replaceWith(send);
      const go = async () => {
        if (send.disabled) return;
        error.textContent = "";
        send.disabled = true;
        try {
          close(await submit());
        } catch (err) {
          error.textContent = err.message;
          send.disabled = false;
        }
      };
      send.addEventListener("click", go);
      form.addEventListener("submit", (e) => { e.preventDefault(); go(); });
      // Enter in a field sends the form (a form of two fields and no submit button of its
      // own would not submit by itself).
      form.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && e.target.tagName === "INPUT") { e.preventDefault(); go(); }
      });
      const first = form.querySelector("input");
      if (first) first.focus();
    },
  });
}

/** Log in, or (`mode` "signup") sign up; each dialog leads to the other. */
export async function logInDialog(mode) {
  const signup = mode === "signup";
  const name = field("account-name", t("Name"), { type: "text", autocomplete: "username",
    maxlength: 24, autocapitalize: "none", spellcheck: "false" });
  const password = field("account-password", t("Password"), { type: "password",
    autocomplete: signup ? "new-password" : "current-password", maxlength: 1024 });
  const guests = seats().length;
  const note = signup
    ? t("An account keeps your games on every device and gives you a rating. You can still play without one.")
    : t("Log in to see your games on this device.");
  const claim = guests ? t("The games you play in this browser become your account's.") : null;
  const value = await formDialog({
    title: signup ? t("Sign up") : t("Log in"),
    className: signup ? "signup-dialog" : "login-dialog",
    body: [h("p", { class: "muted" }, note), name.row, password.row,
      claim ? h("p", { class: "muted small" }, claim) : null],
    submitLabel: signup ? t("Sign up") : t("Log in"),
    extra: [signup ? { label: t("I have an account"), value: "other" }
      : { label: t("Create an account"), value: "other" }],
    submit: async () => {
      const who = name.input.value.trim();
      const answer = signup ? await api.signUp(who, password.input.value)
        : await api.logIn(who, password.input.value);
      setSession(answer);
      const claimed = await claimGuestSeats();
      // The games just claimed are the account's now: tell the page again.
      if (claimed) announceAccount();
      return "done";
    },
  });
  if (value === "other") return logInDialog(signup ? "login" : "signup");
  if (value === "done") {
    const name = account().name;
    notice(signup ? t("Welcome, {name}!", { name }) : t("Logged in as {name}.", { name }));
  }
  return value;
}

/** The logged-in account: profile, notifications, password, log out, delete. */
export async function accountDialog() {
  const me = account();
  const push = pushState();
  const pushLine = h("p", { class: "push-line muted small", "data-push": push }, pushText(push));
  const body = h("div", { class: "account-panel" },
    h("p", {}, t("Logged in as {name}.", { name: me.name }), " ",
      h("a", { href: profileUrl(me.name), "data-profile-link": "" }, t("Your profile"))),
    pushLine);
  const actions = [
    { label: t("Delete account…"), value: "delete", danger: true },
    { label: t("Change password…"), value: "password" },
  ];
  if (push !== "unsupported") actions.push({ label: t("Notify me"), value: "notify" });
  actions.push({ label: t("Log out"), value: "logout" }, { label: t("Close"), value: null, primary: true });
  const value = await openDialog({ title: t("Account"), body, className: "account-dialog account-panel-dialog", actions });
  if (value === "logout") await logOut();
  if (value === "password") await passwordDialog();
  if (value === "delete") await deleteDialog();
  if (value === "notify") await notifyMe();
}

function pushText(state) {
  if (state === "unsupported") return t("This browser cannot show notifications from Triverse.");
  if (state === "denied") return t("Notifications are blocked for this site in the browser's settings.");
  return t("Notify me: a notification when it is your move in a correspondence game, even with Triverse closed.");
}

/** Ask for the browser's permission and subscribe to "your move" notifications (a click
 * started it, as browsers require). */
export async function notifyMe() {
  try {
    await enablePush();
    notice(t("Notifications are on: you will hear of your move in correspondence games."));
    return true;
  } catch (err) {
    notice(err.message, "error", 6000);
    return false;
  }
}

export async function logOut() {
  await disablePush();   // this browser's notifications were the account's
  try {
    await api.logOut();
  } catch (err) {
    if (err.status !== 401) {
      notice(err.message, "error");
      return;
    }
  }
  setSession(null);
  notice(t("Logged out."));
}

async function passwordDialog() {
  const old = field("account-old-password", t("Current password"), { type: "password",
    autocomplete: "current-password", maxlength: 1024 });
  const fresh = field("account-new-password", t("New password"), { type: "password",
    autocomplete: "new-password", maxlength: 1024 });
  const value = await formDialog({
    title: t("Change password"), className: "password-dialog",
    body: [h("p", { class: "muted" }, t("Every other device where you are logged in is logged out.")), old.row, fresh.row],
    submitLabel: t("Change password"),
    submit: async () => {
      setSession(await api.changePassword(old.input.value, fresh.input.value));
      return "done";
    },
  });
  if (value === "done") notice(t("Your password is changed."));
}

async function deleteDialog() {
  const password = field("account-delete-password", t("Password"), { type: "password",
    autocomplete: "current-password", maxlength: 1024 });
  const value = await formDialog({
    title: t("Delete account"), className: "delete-dialog",
    body: [h("p", {}, t("Your account, its ratings and its sessions are deleted. The games stay: your seats in them show “deleted player”. This cannot be undone.")),
      password.row],
    submitLabel: t("Delete my account"), danger: true,
    submit: async () => {
      await api.deleteAccount(password.input.value);
      return "deleted";
    },
  });
  if (value === "deleted") {
    setSession(null);
    notice(t("Your account is deleted."));
  }
}
