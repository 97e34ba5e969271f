// What this browser remembers, in localStorage: its seats (tokens) and its preferences.

const SEATS = "triverse.seats";
const PREFS = "triverse.prefs";
const INVITES = "triverse.invites";
const CONTESTS = "triverse.contests";

function read(name, fallback) {
  try {
    const text = localStorage.getItem(name);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

function write(name, value) {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch {
    /* private mode or full: the game still works for this page */
  }
}

// --- seats -----------------------------------------------------------------------------------
/** Every seat this browser holds: {match_id, seat, token, game, mode, added}. */
export const seats = () => read(SEATS, []);

export function addSeat(entry) {
  const all = seats().filter((s) => s.token !== entry.token);
  all.push({ added: new Date().toISOString(), ...entry });
  write(SEATS, all);
}

export function seatsOf(matchId) {
  return seats().filter((s) => s.match_id === matchId).sort((a, b) => a.seat - b.seat);
}

export function updateSeats(matchId, fields) {
  write(SEATS, seats().map((s) => (s.match_id === matchId ? { ...s, ...fields } : s)));
}

export function forgetMatch(matchId) {
  write(SEATS, seats().filter((s) => s.match_id !== matchId));
  const inv = read(INVITES, {});
  delete inv[matchId];
  write(INVITES, inv);
}

// --- invite links of online games this browser created ----------------------------------------
export const invitesOf = (matchId) => read(INVITES, {})[matchId] || null;

export function saveInvites(matchId, invites) {
  const inv = read(INVITES, {});
  inv[matchId] = invites;
  write(INVITES, inv);
}

// --- contest entries: the personal secret of each contest this browser signed up to ----------
/** This browser's entry of contest `id`: {entry, name, secret, added}, or null. */
export const contestEntryOf = (id) => read(CONTESTS, {})[id] || null;

export function saveContestEntry(id, entry) {
  const all = read(CONTESTS, {});
  all[id] = { added: new Date().toISOString(), ...entry };
  write(CONTESTS, all);
}

export function forgetContestEntry(id) {
  const all = read(CONTESTS, {});
  delete all[id];
  write(CONTESTS, all);
}

// --- preferences -------------------------------------------------------------------------------
export const DEFAULT_PREFS = {
  rotateLeft: "z",    // KeyboardEvent.key, lower case for letters
  rotateRight: "x",
  sound: true,
  coordinates: false,
  starTheme: "nebula",  // Triangles' colours (themes.js)
  starNumbers: true,    // Triangles: the stars' numbers beside them
};

export const prefs = () => ({ ...DEFAULT_PREFS, ...read(PREFS, {}) });

export function setPrefs(changes) {
  const next = { ...prefs(), ...changes };
  write(PREFS, next);
  window.dispatchEvent(new CustomEvent("triverse:prefs", { detail: next }));
  return next;
}
