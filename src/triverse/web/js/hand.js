// The hand: the seat's tiles as toggle buttons, each shown in its own orientation. A tile is
// selected by a click (or Enter/Space); the selected one turns through its six orientations.
import { t } from "./i18n.js";
import { tileIcon } from "./svg.js";
import { ORIENTATIONS, rotate, tileValues } from "./trigrid.js";

export class HandView {
  constructor(host, { onSelect = () => {}, onPointerDown = () => {} } = {}) {
    this.host = host;
    this.onSelect = onSelect;
    this.onPointerDown = onPointerDown;
    this.tiles = [];
    this.orientations = new Map();   // tile -> orientation index, kept while it is in hand
    this.selected = null;
    host.setAttribute("role", "group");
    host.setAttribute("aria-label", t("Your tiles"));
    host.addEventListener("click", (e) => {
      const button = e.target.closest("button[data-tile]");
      if (!button) return;
      if (this.suppressClick) { this.suppressClick = false; return; }
      this.select(this.selected === button.dataset.tile ? null : button.dataset.tile);
    });
    host.addEventListener("pointerdown", (e) => {
      const button = e.target.closest("button[data-tile]");
      if (button) this.onPointerDown(e, button.dataset.tile, button);
    });
  }

  /** Show `tiles` (notation strings); null hides the hand (a spectator, a locked seat). */
  setTiles(tiles) {
    const list = tiles || [];
    const same = list.length === this.tiles.length && list.every((t, i) => t === this.tiles[i]);
    this.tiles = list;
    for (const t of [...this.orientations.keys()]) if (!list.includes(t)) this.orientations.delete(t);
    if (this.selected && !list.includes(this.selected)) this.selected = null;
    if (!same || this.host.childElementCount !== list.length) this.render();
  }

  orientation(tile) {
    return this.orientations.get(tile) ?? 0;
  }

  /** [onUpCell, rotation, cornerValues] of a tile as it is turned now. */
  placed(tile) {
    const [up, rotation] = ORIENTATIONS[this.orientation(tile)];
    return [up, rotation, rotate(tileValues(tile), rotation)];
  }

  select(tile, { focus = false } = {}) {
    this.selected = tile;
    for (const b of this.host.querySelectorAll("button[data-tile]")) {
      const on = b.dataset.tile === tile;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      if (on && focus) b.focus();
    }
    this.onSelect(tile);
  }

  /** Turn the selected tile by `steps` sixths of a turn (positive: clockwise). */
  rotate(steps) {
    const tile = this.selected;
    if (!tile) return false;
    const next = (((this.orientation(tile) + steps) % 6) + 6) % 6;
    this.orientations.set(tile, next);
    this.renderTile(tile);
    this.onSelect(tile);
    return true;
  }

  setOrientation(tile, index) {
    this.orientations.set(tile, index);
    this.renderTile(tile);
  }

  button(tile) {
    return this.host.querySelector(`button[data-tile="${tile}"]`);
  }

  render() {
    const focused = document.activeElement && this.host.contains(document.activeElement)
      ? document.activeElement.dataset.tile : null;
    this.host.replaceChildren(...this.tiles.map((tile) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "hand-tile";
      b.dataset.tile = tile;
      b.setAttribute("aria-pressed", tile === this.selected ? "true" : "false");
      this.fill(b, tile);
      return b;
    }));
    if (focused && this.button(focused)) this.button(focused).focus();
  }

  renderTile(tile) {
    const b = this.button(tile);
    if (b) this.fill(b, tile);
  }

  fill(button, tile) {
    const o = this.orientation(tile);
    const [up, , corners] = this.placed(tile);
    button.dataset.orientation = String(o);
    button.setAttribute("aria-label", up
      ? t("Tile {tile}, pointing up, turned {degrees} degrees", { tile, degrees: o * 60 })
      : t("Tile {tile}, pointing down, turned {degrees} degrees", { tile, degrees: o * 60 }));
    button.replaceChildren(tileIcon(corners, up, { tile }));
  }
}
