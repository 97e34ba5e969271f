// Events and refusals in words, from their message codes (docs/messages.md): the game's
// English templates come with the lobby's catalogue (GET /api/games, `messages`). No English
// text of the server is parsed: a template is filled in from the code's parameters.

/** The parameters that are seats (0-based), shown by the seat's name. */
const SEAT_PARAMS = ["winner", "opener", "owner", "seat", "from"];

/** A value in words: a string the templates name ("name:apollo": "Apollo") by its name, a list
 * joined with commas. */
function shown(value, templates) {
  if (Array.isArray(value)) return value.map((v) => shown(v, templates)).join(", ");
  if (typeof value === "string" && templates[`name:${value}`]) return templates[`name:${value}`];
  return String(value);
}

/**
 * The text of a message, or null when its code has no template ("" when it needs no line). `who` is the event's player's
 * name, `points` its points, `names` the seats' names. A template "one|many" picks by `count`.
 */
export function renderMessage(templates, code, params = {}, { who = "", points = 0, names = [] } = {}) {
  let template = templates && code ? templates[code] : undefined;
  if (typeof template !== "string") return null;
  if (!template) return "";     // the event needs no line of its own
  if (template.includes("|")) {
    const [one, many] = template.split("|");
    template = params.count === 1 ? one : many;
  }
  const values = { who, points, ...params };
  for (const key of SEAT_PARAMS) {
    if (Number.isInteger(values[key]) && names[values[key]] !== undefined) values[key] = names[values[key]];
  }
  return template.replace(/\{(\w+)\}/g, (m, key) => (key in values ? shown(values[key], templates) : m));
}

function sameButCount(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete("count");
  for (const k of keys) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return false;
  return true;
}

/** The events with each run of one player's same counted event (draws) made one: `count` and
 * `points` summed, so the feed says "Ann drew 7 tiles (-35)" once. */
export function groupEvents(events) {
  const out = [];
  for (const e of events) {
    const last = out[out.length - 1];
    const params = e.params || {};
    if (last && e.code && last.code === e.code && last.player === e.player
        && Number.isInteger(params.count) && sameButCount(last.params || {}, params)) {
      out[out.length - 1] = { ...last, points: last.points + e.points,
        params: { ...last.params, count: last.params.count + params.count } };
    } else {
      out.push(e);
    }
  }
  return out;
}
