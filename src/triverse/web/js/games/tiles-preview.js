// The score preview of the tile games: while the selected tile is over a place where it fits
// (hovered, dragged over, or chosen with the keyboard), the server says what the play would
// score (POST /api/matches/{id}/preview, docs/protocol.md) and a box over the board's corner
// says it in words: "This play scores 49: tile 9 + Bridge 40". The server is authoritative:
// nothing is counted here. Answers are kept per move and placement, so hovering back and
// forth asks once.
import { api } from "../api.js";
import { formatNumber, t, tn } from "../i18n.js";
import { h } from "../ui.js";

const DELAY_MS = 90;

/** One part of the score in words, from its message code. */
export function partText(item) {
  const points = formatNumber(item.points);
  const params = item.params || {};
  switch (item.code) {
    case "tile_points": return t("tile {points}", { points });
    case "bonus.hexagon": return t("Hexagon {points}", { points });
    case "bonus.hexagons": return tn("{n} hexagon {points}", "{n} hexagons {points}", params.count || 1, { points });
    case "bonus.bridge": return t("Bridge {points}", { points });
    case "bonus.span": return t("Span {points}", { points });
    case "bonus.slide": return t("Slide {points}", { points });
    case "bonus.triple_start": return t("Triple start {points}", { points });
    case "bonus.zero_start": return t("Triple zero {points}", { points });
    default: return t("bonus {points}", { points });
  }
}

/** The whole preview in words: "This play scores 49: tile 9 + Bridge 40". */
export function previewText(preview) {
  const parts = preview.items.map(partText).join(" + ");
  return t("This play scores {points}: {parts}", { points: formatNumber(preview.points), parts });
}

export class ScorePreview {
  constructor(table, host) {
    this.table = table;
    this.cache = new Map();
    this.seq = 0;
    this.box = h("div", { class: "tiles-preview", hidden: true, role: "status", "aria-live": "polite" });
    host.append(this.box);
  }

  /** Ask for the preview of `notation` at the view's move (shown when the answer comes). */
  ask(view, notation) {
    if (!view || !view.game || !view.game.preview || !view.your_turn) { this.hide(); return; }
    const k = `${view.move}|${notation}`;
    const seq = ++this.seq;
    clearTimeout(this.timer);
    if (this.cache.has(k)) { this.show(this.cache.get(k), notation); return; }
    this.box.classList.add("stale");
    this.timer = setTimeout(() => this.fetch(view.move, notation, k, seq), DELAY_MS);
  }

  async fetch(move, notation, k, seq) {
    const token = this.table.tokens && this.table.tokens.get(this.table.identity);
    let data;
    try {
      data = await api.preview(this.table.matchId, token, notation, move);
    } catch {
      if (seq === this.seq) this.hide();
      return;
    }
    if (!data || !data.preview) return;
    if (this.cache.size > 200) this.cache.clear();
    this.cache.set(k, data.preview);
    if (seq === this.seq) this.show(data.preview, notation);
  }

  show(preview, notation) {
    if (!preview.legal) { this.hide(); return; }
    this.box.hidden = false;
    this.box.classList.remove("stale");
    this.box.dataset.points = String(preview.points);
    this.box.dataset.play = notation;
    this.box.textContent = previewText(preview);
  }

  hide() {
    this.seq += 1;
    clearTimeout(this.timer);
    this.box.hidden = true;
    this.box.textContent = "";
    delete this.box.dataset.points;
    delete this.box.dataset.play;
  }
}
