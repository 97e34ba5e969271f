// The Preferences dialog: the language, rotation keys, sound, cell coordinates, Triangles'
// colour theme and star numbers (stored in localStorage; the language also in a cookie, for the
// server's pages, and applied by reloading the page).
// As in Trinity's seed, the arrow keys, Escape and Caps Lock cannot be rotation keys (they
// scroll the board, end the game and pause it); nor can the other keys the board uses.
import { h, openDialog } from "./ui.js";
import { LANGUAGES, language, storeLanguage, t } from "./i18n.js";
import { DEFAULT_PREFS, prefs, setPrefs } from "./store.js";
import { STAR_THEMES, applyStarTheme } from "./themes.js";

// What each key the table keeps does: why it cannot turn tiles.
const RESERVED = {
  ArrowUp: "scroll", ArrowDown: "scroll", ArrowLeft: "scroll", ArrowRight: "scroll",
  Escape: "end", CapsLock: "pause", Tab: "focus", Enter: "place", " ": "select",
  "+": "zoomIn", "=": "zoomIn", "-": "zoomOut", "0": "fit", p: "pause", d: "draw",
  "[": "previous", "]": "next", "?": "help",
  Shift: "modifier", Control: "modifier", Alt: "modifier", Meta: "modifier",
};

function reservedText(use, key) {
  switch (use) {
    case "scroll": return t("{key} scrolls the board, so it cannot rotate tiles.", { key });
    case "end": return t("{key} ends the game, so it cannot rotate tiles.", { key });
    case "pause": return t("{key} pauses the game, so it cannot rotate tiles.", { key });
    case "focus": return t("{key} moves the focus, so it cannot rotate tiles.", { key });
    case "place": return t("{key} places the tile, so it cannot rotate tiles.", { key });
    case "select": return t("{key} selects a tile, so it cannot rotate tiles.", { key });
    case "zoomIn": return t("{key} zooms in, so it cannot rotate tiles.", { key });
    case "zoomOut": return t("{key} zooms out, so it cannot rotate tiles.", { key });
    case "fit": return t("{key} fits the board, so it cannot rotate tiles.", { key });
    case "draw": return t("{key} draws a tile, so it cannot rotate tiles.", { key });
    case "previous": return t("{key} picks the previous place, so it cannot rotate tiles.", { key });
    case "next": return t("{key} picks the next place, so it cannot rotate tiles.", { key });
    case "help": return t("{key} opens the help, so it cannot rotate tiles.", { key });
    default: return t("{key} is a modifier, so it cannot rotate tiles.", { key });
  }
}

/** Why `key` cannot be a rotation key, or null. */
export function keyProblem(key) {
  const k = key.length === 1 ? key.toLowerCase() : key;
  if (RESERVED[k]) return reservedText(RESERVED[k], keyName(key));
  if (k.length > 1 && !/^F\d+$/.test(k) && !["Home", "End", "PageUp", "PageDown", "Insert",
    "Delete", "Backspace"].includes(k)) {
    return t("{key} cannot be a rotation key.", { key: keyName(key) });
  }
  return null;
}

export function keyName(key) {
  if (key === " ") return t("Space");
  if (key === "ArrowUp") return t("the up arrow");
  if (key === "ArrowDown") return t("the down arrow");
  if (key === "ArrowLeft") return t("the left arrow");
  if (key === "ArrowRight") return t("the right arrow");
  if (key === "CapsLock") return t("Caps Lock");
  return key.length === 1 ? key.toUpperCase() : key;
}

export const normKey = (key) => (key.length === 1 ? key.toLowerCase() : key);

export function openPreferences() {
  const current = prefs();
  const chosen = { rotateLeft: current.rotateLeft, rotateRight: current.rotateRight };
  const message = h("p", { class: "pref-message", role: "status", "aria-live": "polite" });

  function keyButton(which, label) {
    const button = h("button", { type: "button", class: "keycap", "data-pref": which },
      keyName(chosen[which]));
    button.addEventListener("click", () => {
      button.textContent = t("press a key…");
      message.textContent = which === "rotateLeft" ? t("Press the key that should turn tiles counter-clockwise.")
        : t("Press the key that should turn tiles clockwise.");
      const listen = (e) => {
        e.preventDefault();
        e.stopPropagation();
        document.removeEventListener("keydown", listen, true);
        const problem = keyProblem(e.key);
        const other = which === "rotateLeft" ? "rotateRight" : "rotateLeft";
        if (problem) {
          message.textContent = problem;
        } else if (normKey(e.key) === chosen[other]) {
          message.textContent = t("{key} already turns tiles the other way.", { key: keyName(e.key) });
        } else {
          chosen[which] = normKey(e.key);
          message.textContent = t("{action}: {key}.", { action: label, key: keyName(e.key) });
        }
        button.textContent = keyName(chosen[which]);
        button.focus();
      };
      document.addEventListener("keydown", listen, true);
    });
    return h("div", { class: "pref-row" }, h("span", {}, label), button);
  }

  const sound = h("input", { type: "checkbox", id: "pref-sound", checked: current.sound });
  const coords = h("input", { type: "checkbox", id: "pref-coords", checked: current.coordinates });
  const numbers = h("input", { type: "checkbox", id: "pref-star-numbers", checked: current.starNumbers });
  const themes = STAR_THEMES.map((theme) => h("label", { class: "radio theme-choice" },
    h("input", { type: "radio", name: "star-theme", value: theme.id, checked: theme.id === current.starTheme }),
    themeSwatch(theme.id),
    h("span", {}, h("strong", {}, theme.name), h("small", {}, theme.description))));
  // Each language under its own name, as a speaker of it looks for it.
  const lang = h("select", { id: "pref-language", name: "language" },
    ...LANGUAGES.map((l) => h("option", { value: l.code, lang: l.code, selected: l.code === language() }, l.name)));
  // Choosing a language keeps it for this browser and reloads the page in it.
  lang.addEventListener("change", () => {
    storeLanguage(lang.value);
    location.reload();
  });
  const body = h("div", { class: "prefs" },
    h("fieldset", {}, h("legend", {}, t("Language")),
      h("div", { class: "pref-row" }, h("label", { for: "pref-language" }, t("Language of Triverse")), lang),
      h("p", { class: "hint" }, t("The page reloads at once in the language chosen; this browser keeps it."))),
    h("fieldset", {}, h("legend", {}, t("Rotation keys")),
      keyButton("rotateLeft", t("Turn counter-clockwise")),
      keyButton("rotateRight", t("Turn clockwise")),
      h("p", { class: "hint" }, t("The arrow keys, Escape and Caps Lock cannot be rotation keys.")),
      message),
    h("fieldset", {}, h("legend", {}, t("Display and sound")),
      h("label", { class: "check" }, sound, " ", t("Sound effects (the crowd cheers at the end)")),
      h("label", { class: "check" }, coords, " ", t("Show cell coordinates under the pointer"))),
    h("fieldset", { class: "themes" }, h("legend", {}, t("Triangles: colours")),
      ...themes,
      h("p", { class: "hint" }, t("In every theme Player 1's lines are solid and their triangles striped; Player 2's lines are dashed and their triangles dotted.")),
      h("label", { class: "check" }, numbers, " ", t("Show the stars' numbers"))));
  return openDialog({
    title: t("Preferences"), body, className: "prefs-dialog",
    actions: [
      { label: t("Defaults"), value: "defaults" },
      { label: t("Cancel"), value: null },
      { label: t("Save"), value: "save", primary: true },
    ],
  }).then((value) => {
    if (value === "save") {
      const theme = themes.map((l) => l.querySelector("input")).find((i) => i.checked);
      setPrefs({ ...chosen, sound: sound.checked, coordinates: coords.checked,
        starNumbers: numbers.checked, starTheme: theme ? theme.value : current.starTheme });
    } else if (value === "defaults") {
      setPrefs({ ...DEFAULT_PREFS });
    }
    return value;
  });
}

/** Two lines in a theme's colours on its sky: Player 1 solid, Player 2 dashed. */
export function themeSwatch(id) {
  const ns = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(ns, "svg");
  s.setAttribute("viewBox", "0 0 44 28");
  s.setAttribute("class", "theme-swatch");
  s.setAttribute("aria-hidden", "true");
  s.innerHTML = '<rect width="44" height="28" rx="5" class="sw-sky"/>'
    + '<line x1="6" y1="20" x2="22" y2="7" class="sw-p1"/><line x1="22" y1="7" x2="38" y2="21" class="sw-p2"/>'
    + '<circle cx="6" cy="20" r="2.4" class="sw-star"/><circle cx="22" cy="7" r="2.4" class="sw-star"/><circle cx="38" cy="21" r="2.4" class="sw-star"/>';
  applyStarTheme(s, id);
  return s;
}
