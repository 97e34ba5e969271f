// Translations: the browser's words in English, Polish and French (docs/i18n.md).
//
// The catalogues are the gettext `.po` files of src/triverse/i18n/locale, which the server
// hands out as JSON (GET /api/i18n/{lang}): `messages` maps a msgid (with its context,
// "context\u0004msgid", as gettext keys them) to its text, or to its list of plural forms.
// English is the msgids themselves. Plural forms are chosen with Intl.PluralRules, numbers and
// dates formatted with Intl.NumberFormat and Intl.DateTimeFormat in the chosen language.
//
// Every string a player reads goes through one of these, with a literal msgid, so that
// `python -m triverse.i18n extract` finds it:
//   t("Your turn")                                   a text
//   t("{who} passed", { who })                        with named parameters
//   tn("{n} triangle", "{n} triangles", n)            a plural; {n} is the count
//   tc("button", "Play")                              with a context, for an ambiguous word
//   tnc("trident", "{n} tile", "{n} tiles", n)        both

/** The languages Triverse speaks: code and own name. */
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "pl", name: "Polski" },
  { code: "fr", name: "Français" },
];

const CODES = LANGUAGES.map((l) => l.code);
const STORAGE_KEY = "triverse.lang";
/** The cookie that tells the server the chosen language (it serves pages in it). */
const COOKIE = "triverse_lang";

/** The plural categories of Intl.PluralRules, in the order of each language's gettext forms
 * (the catalogues' Plural-Forms, which Babel takes from the same CLDR data). */
const FORM_ORDER = {
  en: ["one", "other"],
  fr: ["one", "many", "other"],
  pl: ["one", "few", "many"],
};

let current = "en";
let messages = {};
let rules = new Intl.PluralRules("en");

/** The language in use. */
export function language() { return current; }

/** The language a browser asks for: the stored choice, else the first of navigator.languages
 * that Triverse speaks (by its primary subtag), else English. */
export function preferredLanguage(stored = readStored(), asked = navigator.languages || [navigator.language]) {
  if (CODES.includes(stored)) return stored;
  for (const tag of asked) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (CODES.includes(primary)) return primary;
  }
  return "en";
}

function readStored() {
  try { return localStorage.getItem(STORAGE_KEY); } catch { return null; }
}

/** Loads the catalogue of `lang` (the preferred language by default) and makes it current.
 * English needs no catalogue; a catalogue that cannot be loaded leaves English in place. */
export async function initI18n(lang = preferredLanguage()) {
  current = CODES.includes(lang) ? lang : "en";
  messages = {};
  if (current !== "en") {
    try {
      const response = await fetch(`/api/i18n/${current}`);
      if (!response.ok) throw new Error(`catalogue ${current}: HTTP ${response.status}`);
      messages = (await response.json()).messages || {};
    } catch (err) {
      console.warn(err);
      current = "en";
    }
  }
  rules = new Intl.PluralRules(current);
  document.documentElement.lang = current;
  return current;
}

/** Keeps `lang` as this browser's language (localStorage, and a cookie for the server's pages). */
export function storeLanguage(lang) {
  if (!CODES.includes(lang)) throw new RangeError(`unknown language ${lang}`);
  try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* private mode: the cookie still tells */ }
  document.cookie = `${COOKIE}=${lang}; path=/; max-age=31536000; SameSite=Lax`;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, key) => (key in params ? String(params[key]) : m));
}

function pluralIndex(n) {
  const order = FORM_ORDER[current] || FORM_ORDER.en;
  const index = order.indexOf(rules.select(n));
  return index < 0 ? order.length - 1 : index;
}

function lookup(key) {
  const found = messages[key];
  return typeof found === "string" && found ? found : null;
}

function lookupPlural(key, singular, plural, n) {
  const forms = messages[key];
  if (Array.isArray(forms) && forms.every((f) => f)) return forms[Math.min(pluralIndex(n), forms.length - 1)];
  return n === 1 ? singular : plural;
}

/** `msgid` in the current language, its {parameters} filled in. */
export function t(msgid, params) {
  return fill(lookup(msgid) ?? msgid, params);
}

/** The plural form for the count `n` ({n} in the text), with parameters. */
export function tn(singular, plural, n, params) {
  return fill(lookupPlural(singular, singular, plural, n), { n: formatNumber(n), ...params });
}

/** `msgid` in `context` (gettext's msgctxt), for a word that reads differently by context. */
export function tc(context, msgid, params) {
  return fill(lookup(`${context}\u0004${msgid}`) ?? msgid, params);
}

/** A plural in a context. */
export function tnc(context, singular, plural, n, params) {
  return fill(lookupPlural(`${context}\u0004${singular}`, singular, plural, n),
    { n: formatNumber(n), ...params });
}

/** A text the server sends (a game's summary, an option's help, a card's text), in the current
 * language: the catalogues hold these under a context ("game", "option", "trivinity:card"),
 * taken from the games' own data (docs/i18n.md). Not for the browser's own texts, whose msgids
 * must be literals in t() calls. */
export function dataText(context, msgid) {
  return (context ? lookup(`${context}\u0004${msgid}`) : lookup(msgid)) ?? msgid;
}

/** A plural text the server sends (a message template "one|many"), for the count `n`. */
export function dataPlural(context, singular, plural, n) {
  return lookupPlural(context ? `${context}\u0004${singular}` : singular, singular, plural, n);
}

/** A number in the current language's notation (a minus sign and grouping as it writes them). */
export function formatNumber(n, options) {
  return new Intl.NumberFormat(current, options).format(n);
}

/** A date (a Date, or milliseconds or an ISO string) in the current language. */
export function formatDate(date, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(current, options).format(date instanceof Date ? date : new Date(date));
}
