// Who is logged in (docs/protocol.md, "Accounts"): the session and the header's account
// button, on every page. The session itself is an HttpOnly cookie the page never sees;
// GET /api/session tells who is logged in and hands the session's CSRF token, which api.js
// keeps in memory and sends with every change. Every change of session is told to the page as
// a "triverse:account" event. The dialogs (log in, sign up, the account panel, Notify me) are
// account.js's, imported when first needed.
import { api, setCsrf } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";

let current = null;     // the logged-in account {id, name, created}, or null
let loading = null;     // the promise of the first GET /api/session
let button = null;      // the header's account button

/** The logged-in account ({id, name, created}), or null; valid once loadSession resolved. */
export const account = () => current;

/** The profile page of a player's name. */
export const profileUrl = (name) => `/players/${encodeURIComponent(name)}`;

/** Ask the server who is logged in (once; `again` asks anew). Resolves with the account or
 * null. */
export function loadSession(again = false) {
  if (!loading || again) {
    loading = api.session().then((answer) => {
      setSession(answer);
      return current;
    }, () => {
      setSession(null);
      return null;
    });
  }
  return loading;
}

/** The session the server answered ({account, csrf}), or null once logged out. */
export function setSession(answer) {
  const before = current ? current.name : null;
  current = answer ? answer.account : null;
  setCsrf(answer ? answer.csrf : null);
  document.body.dataset.account = current ? current.name : "";
  if ((current ? current.name : null) !== before) announceAccount();
  drawButton();
}

/** Tell the page that the account (or its games) changed. */
export function announceAccount() {
  window.dispatchEvent(new CustomEvent("triverse:account", { detail: current }));
}

const dialogs = () => import("./account.js");

/** Log in, or (`mode` "signup") sign up: resolves "done" once logged in. */
export async function logInDialog(mode) {
  return (await dialogs()).logInDialog(mode);
}

/** "Notify me" (from a click): resolves whether notifications are on. */
export async function notifyMe() {
  return (await dialogs()).notifyMe();
}

/** Put the account button into the site header's navigation and ask who is logged in. */
export function mountAccount(nav) {
  button = h("button", { type: "button", id: "account-button", "aria-haspopup": "dialog",
    onclick: async () => {
      const m = await dialogs();
      if (current) m.accountDialog();
      else m.logInDialog("login");
    } });
  nav.append(button);
  drawButton();
  return loadSession();
}

function drawButton() {
  if (!button) return;
  button.textContent = current ? current.name : t("Log in");
  button.dataset.loggedIn = String(Boolean(current));
  if (current) button.setAttribute("aria-label", t("Account: {name}", { name: current.name }));
  else button.removeAttribute("aria-label");
}
