// The Preferences dialog: rotation keys, sound, cell coordinates, Triangles' colour theme and
// star numbers (stored in localStorage).
// As in Trinity's seed, the arrow keys, Escape and Caps Lock cannot be rotation keys (they
// scroll the board, end the game and pause it); nor can the other keys the board uses.
import { h, openDialog } from "./ui.js";
import { DEFAULT_PREFS, prefs, setPrefs } from "./store.js";
import { STAR_THEMES, applyStarTheme } from "./themes.js";

const RESERVED = {
  ArrowUp: "scrolls the board", ArrowDown: "scrolls the board",
  ArrowLeft: "scrolls the board", ArrowRight: "scrolls the board",
  Escape: "ends the game", CapsLock: "pauses the game",
  Tab: "moves the focus", Enter: "places the tile", " ": "selects a tile",
  "+": "zooms in", "=": "zooms in", "-": "zooms out", "0": "fits the board",
  p: "pauses the game", d: "draws a tile", "[": "picks the previous place",
  "]": "picks the next place", "?": "opens the help",
  Shift: "is a modifier", Control: "is a modifier", Alt: "is a modifier", Meta: "is a modifier",
};

/** Why `key` cannot be a rotation key, or null. */
export function keyProblem(key) {
  const k = key.length === 1 ? key.toLowerCase() : key;
  if (RESERVED[k]) return `${keyName(key)} ${RESERVED[k]}, so it cannot rotate tiles.`;
  if (k.length > 1 && !/^F\d+$/.test(k) && !["Home", "End", "PageUp", "PageDown", "Insert",
    "Delete", "Backspace"].includes(k)) {
    return `${keyName(key)} cannot be a rotation key.`;
  }
  return null;
}

export function keyName(key) {
  if (key === " ") return "Space";
  if (key.startsWith("Arrow")) return `the ${key.slice(5).toLowerCase()} arrow`;
  if (key === "CapsLock") return "Caps Lock";
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
      button.textContent = "press a key…";
      message.textContent = `Press the key that should ${label.toLowerCase()}.`;
      const listen = (e) => {
        e.preventDefault();
        e.stopPropagation();
        document.removeEventListener("keydown", listen, true);
        const problem = keyProblem(e.key);
        const other = which === "rotateLeft" ? "rotateRight" : "rotateLeft";
        if (problem) {
          message.textContent = problem;
        } else if (normKey(e.key) === chosen[other]) {
          message.textContent = `${keyName(e.key)} already turns tiles the other way.`;
        } else {
          chosen[which] = normKey(e.key);
          message.textContent = `${label}: ${keyName(e.key)}.`;
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
  const themes = STAR_THEMES.map((t) => h("label", { class: "radio theme-choice" },
    h("input", { type: "radio", name: "star-theme", value: t.id, checked: t.id === current.starTheme }),
    themeSwatch(t.id),
    h("span", {}, h("strong", {}, t.name), h("small", {}, t.description))));
  const body = h("div", { class: "prefs" },
    h("fieldset", {}, h("legend", {}, "Rotation keys"),
      keyButton("rotateLeft", "Turn counter-clockwise"),
      keyButton("rotateRight", "Turn clockwise"),
      h("p", { class: "hint" }, "The arrow keys, Escape and Caps Lock cannot be rotation keys."),
      message),
    h("fieldset", {}, h("legend", {}, "Display and sound"),
      h("label", { class: "check" }, sound, " Sound effects (the crowd cheers at the end)"),
      h("label", { class: "check" }, coords, " Show cell coordinates under the pointer")),
    h("fieldset", { class: "themes" }, h("legend", {}, "Triangles: colours"),
      ...themes,
      h("p", { class: "hint" }, "In every theme Player 1's lines are solid and their triangles striped; Player 2's lines are dashed and their triangles dotted."),
      h("label", { class: "check" }, numbers, " Show the stars' numbers")));
  return openDialog({
    title: "Preferences", body, className: "prefs-dialog",
    actions: [
      { label: "Defaults", value: "defaults" },
      { label: "Cancel", value: null },
      { label: "Save", value: "save", primary: true },
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
