// Events and refusals in words, from their message codes (docs/messages.md): the game's
// English templates come with the lobby's catalogue (GET /api/games, `messages`), and are put in
// the player's language by localTemplates (the catalogues keep them under the context
// "<game>:<code>", docs/i18n.md). No English text of the server is parsed: a template is filled
// in from the code's parameters.
import { dataPlural, dataText, formatNumber, t } from "./i18n.js";

/** The parameters that are seats (0-based), shown by the seat's name. */
const SEAT_PARAMS = ["winner", "opener", "owner", "seat", "from"];

/** A value in words: a string the templates name ("name:apollo": "Apollo") by its name, a list
 * joined with commas, a number in the language's notation. */
function shown(value, templates) {
  if (Array.isArray(value)) return value.map((v) => shown(v, templates)).join(", ");
  if (typeof value === "string" && typeof templates[`name:${value}`] === "string") return templates[`name:${value}`];
  if (typeof value === "number") return formatNumber(value);
  return String(value);
}

/** The English template of `code` said to its own player (core/messages.py second_person): the
 * game's "you:<code>", else "{who} drew ..." made "You drew ..."; null when {who} is not the
 * subject. */
export function secondPerson(code, templates) {
  if (typeof templates[`you:${code}`] === "string") return templates[`you:${code}`];
  const template = templates[code];
  if (typeof template !== "string" || !template) return null;
  const forms = template.split("|");
  if (!forms.every((f) => f.startsWith("{who} "))) return null;
  return forms.map((f) => `You ${f.slice(6)}`).join("|");
}

/**
 * A game's templates in the player's language: a plain template translated, a plural one
 * ("one|many") kept as its two English forms to be chosen, in the language, by its count; a
 * name ("name:apollo") translated in the context "<game>:name".
 */
export function localTemplates(game, templates = {}) {
  const out = {};
  const local = (code, template) => {
    if (!template.includes("|")) return template ? dataText(`${game}:${code}`, template) : "";
    const [one, many] = template.split("|");
    return { context: `${game}:${code}`, one, many };
  };
  for (const [code, template] of Object.entries(templates)) {
    if (code.startsWith("name:")) out[code] = dataText(`${game}:name`, template);
    else if (!code.startsWith("you:")) {
      out[code] = local(code, template);
      const you = secondPerson(code, templates);
      if (you) out[`you:${code}`] = local(code, you);
    }
  }
  return out;
}

/**
 * The text of a message, or null when its code has no template ("" when it needs no line). `who` is the event's player's
 * name, `points` its points, `names` the seats' names; `you`: said to that player, on their own
 * screen ("You drew a tile"). A template "one|many" picks by `count`.
 */
export function renderMessage(templates, code, params = {}, { who = "", points = 0, names = [], you = false } = {}) {
  let template = templates && code ? templates[code] : undefined;
  if (you && templates && templates[`you:${code}`] !== undefined) template = templates[`you:${code}`];
  if (template && typeof template === "object") {
    template = dataPlural(template.context, template.one, template.many, params.count ?? 1);
  } else if (typeof template === "string" && template.includes("|")) {  // English, untranslated
    const [one, many] = template.split("|");
    template = params.count === 1 ? one : many;
  }
  if (typeof template !== "string") return null;
  if (!template) return "";     // the event needs no line of its own
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

/** A refusal of the server's own (docs/protocol.md, "Errors") in words, by its code; null for
 * a code it does not know (the caller shows the server's message then). A refusal of the
 * game's rules carries a message code of the game's instead (`reason`). */
export function serverErrorText(code) {
  switch (code) {
    case "bad_json": case "bad_request": return t("The server could not read that request.");
    case "bad_notation": return t("That move is not written as the game writes moves.");
    case "illegal_action": return t("That move is not allowed here.");
    case "reserved_action": return t("That action is the server's own.");
    case "not_supported": return t("This game does not offer that.");
    case "missing_token": case "wrong_token": return t("This browser does not hold that seat.");
    case "bad_origin": return t("That request came from another site.");
    case "not_found": case "unknown_match": return t("There is no such game.");
    case "stale_move": return t("The game moved on meanwhile: here it is as it stands.");
    case "not_your_turn": return t("It is not your turn.");
    case "time_up": return t("Time is up for this turn.");
    case "game_over": return t("The game is over.");
    case "not_finished": return t("The game is not finished yet.");
    case "too_large": return t("That request is too large.");
    case "rate_limited": return t("Too many requests: wait a moment and try again.");
    case "too_many_computer_matches": return t("Too many games against the computer at once: finish one first.");
    case "too_many_sockets": return t("Too many open connections from this address.");
    case "server_busy": return t("The server is busy: try again in a moment.");
    case "server_error": return t("Something went wrong on the server.");
    default: return null;
  }
}

