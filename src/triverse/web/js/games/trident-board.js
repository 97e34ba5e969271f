// Trident's board (issue 5, its look issue 21): the 15x15 squares of the Triolet layout with
// their premium colours and labels, the tiles on it drawn as the set's ivory tiles, and the
// notation of tentative tiles. Used by games/trident-view.js.
import { h } from "../ui.js";
import { t } from "../i18n.js";

export const SIZE = 15;
export const CENTRE = 7;
// The premium layout of src/triverse/games/trident/board.py (layout_json()).
const DOUBLE = [[3, 7], [4, 4], [4, 10], [7, 3], [7, 11], [10, 4], [10, 10], [11, 7], [7, 7]];
const TRIPLE = [[1, 4], [1, 10], [4, 1], [4, 13], [10, 1], [10, 13], [13, 4], [13, 10]];
const BIS = [[0, 7], [1, 1], [1, 13], [7, 0], [7, 14], [13, 1], [13, 13], [14, 7]];

export const key = (r, c) => r * SIZE + c;
export const isCentre = (r, c) => r === CENTRE && c === CENTRE;

/** The premium of each premium square: "double", "triple" or "bis". */
export const PREMIUM = new Map();
for (const [r, c] of DOUBLE) PREMIUM.set(key(r, c), "double");
for (const [r, c] of TRIPLE) PREMIUM.set(key(r, c), "triple");
for (const [r, c] of BIS) PREMIUM.set(key(r, c), "bis");

/** The label printed on an empty square: the multipliers and BIS as the board prints them. */
export function premiumMark(prem, centre) {
  if (centre) return "★";
  if (prem === "double") return "×2";
  if (prem === "triple") return "×3";
  if (prem === "bis") return t("BIS");
  return "";
}

/** What a screen reader hears for an empty square's premium. */
function premiumWords(prem, centre) {
  if (centre) return t("the centre star, doubles the tile");
  if (prem === "double") return t("double square");
  if (prem === "triple") return t("triple square");
  if (prem === "bis") return t("BIS square: play again");
  return t("empty");
}

/** The notation of tentative tiles: `r:c=v`, a joker `r:c=*v`, in square order. */
export function playNotation(tiles) {
  return [...tiles].sort((a, b) => key(a.r, a.c) - key(b.r, b.c))
    .map((x) => `${x.r}:${x.c}=${x.joker ? "*" : ""}${x.value}`).join(",");
}

/** A tile's face as the set has it: an ivory tile with its number (a joker's star in a corner). */
export function tileFace(value, joker) {
  return h("span", { class: `td-face${joker ? " td-face-joker" : ""}`, "aria-hidden": "true" },
    h("span", { class: "td-num" }, String(value)),
    joker ? h("span", { class: "td-star-mark" }, "★") : null);
}

/** The board's grid of square buttons; `onSquare(r, c)` on a click, `onFocus(r, c)` on focus. */
export function buildGrid(onSquare, onFocus) {
  const grid = h("div", { class: "td-board", role: "grid", "aria-label": t("Trident board, 15 by 15") });
  const cells = [];
  for (let r = 0; r < SIZE; r += 1) {
    const row = h("div", { class: "td-row", role: "row" });
    for (let c = 0; c < SIZE; c += 1) {
      const prem = PREMIUM.get(key(r, c));
      const centre = isCentre(r, c);
      const cell = h("button", {
        type: "button", role: "gridcell", tabindex: centre ? "0" : "-1",
        class: `td-sq${prem ? ` td-${prem}` : ""}${centre ? " td-star" : ""}`,
        "data-sq": `${r}:${c}`,
        onclick: () => onSquare(r, c),
        onfocus: () => onFocus(r, c),
      });
      cells.push(cell);
      row.append(cell);
    }
    grid.append(row);
  }
  return { grid, cells };
}

function squareLabel(r, c, placed, tent, prem) {
  const where = `${r}:${c}`;
  if (placed) {
    return placed.joker ? t("{where}, joker as {value}", { where, value: placed.value })
      : t("{where}, tile {value}", { where, value: placed.value });
  }
  if (tent) {
    return tent.joker ? t("{where}, tentative joker as {value}", { where, value: tent.value })
      : t("{where}, tentative tile {value}", { where, value: tent.value });
  }
  return t("{where}, {square}", { where, square: premiumWords(prem, isCentre(r, c)) });
}

/** Draws one square: a tile's face, a tentative tile's, or the square's premium label. */
export function drawSquare(cell, r, c, { placed, tent, last, cursor }) {
  const prem = PREMIUM.get(key(r, c));
  const tile = placed || tent;
  const shown = tile ? `t${tile.value}${tile.joker ? "*" : ""}${tent ? "?" : ""}` : "empty";
  if (cell.dataset.shown !== shown) {
    cell.dataset.shown = shown;
    const mark = premiumMark(prem, isCentre(r, c));
    if (tile) cell.replaceChildren(tileFace(tile.value, tile.joker));
    else cell.replaceChildren(...(mark ? [h("span", { class: "td-label", "aria-hidden": "true" }, mark)] : []));
    cell.setAttribute("aria-label", squareLabel(r, c, placed, tent, prem));
  }
  cell.classList.toggle("td-tile", Boolean(placed));
  cell.classList.toggle("td-tentative", Boolean(tent));
  cell.classList.toggle("td-joker", Boolean(tile && tile.joker));
  cell.classList.toggle("td-last", last);
  cell.classList.toggle("td-cursor", cursor);
}

/** The squares of the last play in the log (highlighted). */
export function lastSquares(view) {
  const out = new Set();
  const log = view && view.log;
  if (!log || !log.length) return out;
  for (const e of log[log.length - 1].events) {
    if (e.kind === "place" && e.data && Array.isArray(e.data.tiles)) {
      for (const x of e.data.tiles) out.add(key(x.row, x.col));
    }
  }
  return out;
}
