// The REST API (docs/protocol.md). Every refusal becomes an ApiError with the server's code
// and message, which the UI shows as it is.
//
// The one place that fetches: it also keeps, in memory only, the CSRF token of the logged-in
// session (GET /api/session, sign-up, log-in) and sends it as X-CSRF-Token with every request
// that changes something (anything but GET), as the server asks of a request made on the
// session cookie.

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

let csrf = null;

/** Keep the session's CSRF token (null: logged out). */
export function setCsrf(token) {
  csrf = token || null;
}

async function call(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`; // a header: never in a URL or a log
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
  let answer;
  try {
    answer = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("network", t("The server cannot be reached."), 0);
  }
  let data = null;
  try {
    data = await answer.json();
  } catch {
    data = null;
  }
  if (!answer.ok) {
    const e = (data && data.error) || {};
    const error = new ApiError(e.code || "http_error", e.message || `HTTP ${answer.status}`, answer.status);
    if (e.reason) error.reason = e.reason;  // an engine's refusal as a message code
    throw error;
  }
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  createMatch: (body) => call("POST", "/api/matches", { body }),
  view: (id, token, log) =>
    call("GET", `/api/matches/${encodeURIComponent(id)}/view${log ? `?log=${log}` : ""}`, { token }),
  act: (id, token, action, move) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/actions?log=40`,
      { token, body: { action, move } }),
  pause: (id, token, paused) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/pause?log=40`,
      { token, body: { paused } }),
  preview: (id, token, action, move) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/preview`, { token, body: { action, move } }),
  hint: (id, token, move) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/hint`, { token, body: { move } }),
  review: (id, token) =>
    call("GET", `/api/matches/${encodeURIComponent(id)}/review`, { token }),
  myGames: (tokens) => call("POST", "/api/my-games", { body: { tokens } }),
  replay: (id, k) =>
    call("GET", `/api/matches/${encodeURIComponent(id)}/replay/${k}?log=1`),
  record: (id) => call("GET", `/api/matches/${encodeURIComponent(id)}/record`),

  // --- accounts and sessions ---
  session: () => call("GET", "/api/session"),
  signUp: (name, password) => call("POST", "/api/accounts", { body: { name, password } }),
  logIn: (name, password) => call("POST", "/api/session", { body: { name, password } }),
  logOut: () => call("DELETE", "/api/session"),
  changePassword: (password, newPassword) =>
    call("POST", "/api/session/password", { body: { password, new_password: newPassword } }),
  deleteAccount: (password) => call("DELETE", "/api/account", { body: { password } }),
  claim: (tokens) => call("POST", "/api/account/claim", { body: { tokens } }),
  accountGames: () => call("GET", "/api/account/games"),

  // --- open games ---
  lobby: () => call("GET", "/api/lobby"),
  join: (id, seat) => call("POST", `/api/matches/${encodeURIComponent(id)}/join`,
    { body: seat === undefined || seat === null ? {} : { seat } }),
  withdraw: (id, token) => call("DELETE", `/api/matches/${encodeURIComponent(id)}/open`, { token }),

  // --- ratings and players ---
  leaderboard: (game, players) =>
    call("GET", `/api/ratings/${encodeURIComponent(game)}${players ? `?players=${players}` : ""}`),
  matchRatings: (id) => call("GET", `/api/matches/${encodeURIComponent(id)}/ratings`),
  player: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),

  // --- contests (docs/contests.md) ---
  contests: () => call("GET", "/api/contests"),
  contest: (id) => call("GET", `/api/contests/${encodeURIComponent(id)}`),
  createContest: (body) => call("POST", "/api/contests", { body }),
  enterContest: (id, name) =>
    call("POST", `/api/contests/${encodeURIComponent(id)}/entries`, { body: name ? { name } : {} }),
  contestMe: (id, secret) => call("GET", `/api/contests/${encodeURIComponent(id)}/me`, { token: secret }),
  withdrawEntry: (id, secret) =>
    call("DELETE", `/api/contests/${encodeURIComponent(id)}/entries/me`, { token: secret }),
  addComputer: (id, kind) =>
    call("POST", `/api/contests/${encodeURIComponent(id)}/computers`, { body: { kind } }),
  closeSignup: (id) => call("POST", `/api/contests/${encodeURIComponent(id)}/close`),
  removeEntry: (id, entry) =>
    call("POST", `/api/contests/${encodeURIComponent(id)}/entries/${entry}/remove`),
  announce: (id, text) =>
    call("POST", `/api/contests/${encodeURIComponent(id)}/announcements`, { body: { text } }),
  cancelContest: (id) => call("DELETE", `/api/contests/${encodeURIComponent(id)}`),

  // --- push ---
  pushKey: () => call("GET", "/api/push/key"),
  subscribePush: (subscription) => call("POST", "/api/push/subscriptions", { body: subscription }),
  unsubscribePush: (endpoint) => call("DELETE", "/api/push/subscriptions", { body: { endpoint } }),
};

export const recordUrl = (id) => `/api/matches/${encodeURIComponent(id)}/record`;
