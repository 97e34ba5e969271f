// Triangles' entry in the browser, which the lobby and the table load through the server's
// GET /api/games (`view` of its plugin): its fields (the Board choice of the New Game dialog,
// statistics per board), its lobby art, and its view (games/triangles-view.js), loaded only at
// its tables. docs/web.md, "Adding a game's UI", describes the exports.
import { t, tn } from "../i18n.js";
import { h } from "../ui.js";

/** Triangles' view, imported when a table of Triangles opens. */
export const loadView = () => import("./triangles-view.js");

/** The seed's six boards: 24, 60 and 120 stars on a phone; 80, 120 and 180 on a tablet. */
export const BOARDS = [
  { name: "phone-24", device: "phone", stars: 24 },
  { name: "phone-60", device: "phone", stars: 60 },
  { name: "phone-120", device: "phone", stars: 120 },
  { name: "tablet-80", device: "tablet", stars: 80 },
  { name: "tablet-120", device: "tablet", stars: 120 },
  { name: "tablet-180", device: "tablet", stars: 180 },
];

/** "Phone · 24 stars" for "phone-24" (a board of BOARDS; any other name as it is). */
export function boardLabel(name) {
  const board = BOARDS.find((b) => b.name === name);
  if (!board) return name || "";
  return board.device === "phone"
    ? tn("Phone · {n} star", "Phone · {n} stars", board.stars)
    : tn("Tablet · {n} star", "Tablet · {n} stars", board.stars);
}

/** The Board choice of the New Game dialog: one select for the options stars and device. */
function boardChoice(game) {
  const specs = Object.fromEntries(game.options.map((s) => [s.name, s]));
  const starsDefault = specs.stars ? specs.stars.default : 24;
  const deviceDefault = specs.device ? specs.device.default : "auto";
  const device = deviceDefault === "auto" ? ([24, 60, 120].includes(starsDefault) ? "phone" : "tablet") : deviceDefault;
  const chosen = `${device}-${starsDefault}`;
  const group = (dev, label) => h("optgroup", { label },
    ...BOARDS.filter((b) => b.device === dev).map((b) => h("option", {
      value: b.name, selected: b.name === chosen,
    }, boardLabel(b.name))));
  const select = h("select", { id: "opt-board", name: "board", "aria-describedby": "opt-board-help" },
    group("phone", t("Phone boards (5:8)")), group("tablet", t("Tablet boards (3:4)")));
  const row = h("div", { class: "option-row" },
    h("label", { for: "opt-board" }, t("Board")), select,
    h("small", { class: "help", id: "opt-board-help" },
      t("The six boards: a phone with 24, 60 or 120 stars, a tablet with 80, 120 or 180.")));
  return {
    row,
    read() {
      const b = BOARDS.find((x) => x.name === select.value);
      return { stars: b.stars, device: b.device };
    },
  };
}

/** Triangles' entry (docs/web.md, "Adding a game's UI"). Its words are getters, so that they
 * are read in the language of the moment. */
export const ui = {
  kind: "triangles",
  passScreen: false,                 // nothing is hidden: hot-seat just hands over the turn
  get trayLabel() { return t("Your lines"); },
  optionLabels: { get again() { return t("Play again after a triangle"); } },
  optionHelp: { get again() { return t("A player who closes a triangle draws another line at once."); } },
  customOptions: [{ covers: ["stars", "device"], build: boardChoice }],
  roundText: (obs) => boardLabel(obs && obs.board),
  targetText: (view) => (view.game.options.again ? t("play again after a triangle") : ""),
  scoreColumn: {
    get title() { return t("Lines"); },
    value: (view, i) => (view.observation.lines || []).filter((l) => l.player === i).length,
  },
  infoText(view) {
    const obs = view.observation;
    if (!obs || !obs.stars) return null;
    return {
      text: t("{lines}, {triangles}", {
        lines: tn("{n} line", "{n} lines", obs.lines.length),
        triangles: tn("{n} triangle", "{n} triangles", obs.triangles.length),
      }),
      title: t("Drawn and closed so far"),
    };
  },
  headline(view, { winners, identity, hotseat }) {
    const draw = winners.length > 1;
    if (draw) return t("Draw!");
    if (view.mode === "computer" && identity !== null && !hotseat) {
      return winners[0].i === identity ? t("You won!") : t("You lost!");
    }
    return t("{name} wins!", { name: winners[0].p.name });
  },
  statsKey: (view) => (view.observation && !view.observation.custom ? view.observation.board : null),
  statsLabel: boardLabel,
  statsKeys: BOARDS.map((b) => b.name),
};

/** The lobby card: a closed triangle among stars and lines. */
export const art = '<polygon points="8,40 30,8 34,30" class="art-t"/><polyline points="34,30 8,40 30,8 34,30" class="art-l"/><line x1="30" y1="8" x2="52" y2="42" class="art-l2"/><line x1="34" y1="30" x2="52" y2="42" class="art-l2"/><circle cx="8" cy="40" r="3" class="art-s"/><circle cx="30" cy="8" r="3" class="art-s"/><circle cx="52" cy="42" r="3" class="art-s"/><circle cx="34" cy="30" r="2.6" class="art-s"/>';
