// The view of the tile games (Tri-ominoes, Trinity): the triangular board (board.js), the hand
// (hand.js), the rotate, draw and pass controls, and placing a tile by dragging it, clicking a
// place or with the keyboard. Everything else at the table (scores, events, the end, hot-seat)
// is table.js's; this module follows the interface of docs/web.md, "Adding a game's UI". The
// tile games' entries (games/trinity.js, games/triominoes.js, built on games/tiles.js) import
// it only when a table of theirs opens (`loadView`), so the lobby never loads it.
import { BoardView } from "../board.js";
import { HandView } from "../hand.js";
import { t, tc, tn } from "../i18n.js";
import { keyName, normKey } from "../prefs.js";
import { prefs } from "../store.js";
import { Board, isUp, isTriple, key, nearCells, parsePlacement, rotate, tileValues, vertexCells } from "../trigrid.js";
import { tileIcon } from "../svg.js";
import { h } from "../ui.js";
import { FLASH_REASONS } from "./tiles.js";
import { ScorePreview } from "./tiles-preview.js";
import { RoundHold } from "./tiles-round.js";

const PAN_STEP = 70;

/** The tile games' own styles (web/css/tiles.css: the preview box, Trinity's look), once. */
function linkCss() {
  if (document.querySelector("link[href='/css/tiles.css']")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/css/tiles.css" }));
}

export function createView(table, host) {
  linkCss();
  return new TilesView(table, host);
}

class TilesView {
  constructor(table, host) {
    this.table = table;
    this.ui = table.ui;
    this.view = null;
    this.keyCursor = -1;
    this.slots = [];
    this.placements = [];
    this.build(host);
    this.round = new RoundHold(table, () => { if (this.table.view) this.render(this.table.view); });
    this.onPrefs(prefs());
  }

  // --- the board area and the tray ------------------------------------------------------------------
  build(host) {
    const el = {};
    this.el = el;
    el.coords = h("div", { class: "coords", hidden: true });
    const zoomIn = t("Zoom in (+)"), zoomOut = t("Zoom out (-)"), fit = t("Fit the board (0)");
    const zoom = h("div", { class: "zoom", role: "group", "aria-label": t("Board view") },
      h("button", { type: "button", "data-zoom": "in", "aria-label": zoomIn, title: zoomIn, onclick: () => this.zoom(1.25) }, "+"),
      h("button", { type: "button", "data-zoom": "out", "aria-label": zoomOut, title: zoomOut, onclick: () => this.zoom(0.8) }, "−"),
      h("button", { type: "button", "data-zoom": "fit", "aria-label": fit, title: fit, onclick: () => this.board.fit() }, t("Fit")));
    const boardHost = h("div", { class: "board-host" });
    host.board.append(boardHost, zoom, el.coords);
    this.board = new BoardView(boardHost, { onCellClick: (cell, point) => this.boardClick(cell, point) });
    this.preview = new ScorePreview(this.table, host.board);
    this.board.root.addEventListener("pointermove", (e) => this.hover(e));
    this.board.root.addEventListener("pointerleave", () => {
      el.coords.hidden = true;
      if (!this.drag) this.clearPreview();
    });
    this.board.layers.slots.addEventListener("keydown", (e) => {
      const slot = e.target.closest("[data-slot]");
      if (slot && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        this.placeAt(slot.dataset.slot.split(",").map(Number));
      }
    });
    this.board.layers.slots.addEventListener("focusin", (e) => {
      const slot = e.target.closest("[data-slot]");
      if (slot) this.previewAt(slot.dataset.slot.split(",").map(Number));
    });

    el.hand = h("div", { class: "hand" });
    this.hand = new HandView(el.hand, {
      onSelect: (tile) => this.selected(tile),
      onPointerDown: (e, tile, button) => this.dragStart(e, tile, button),
    });
    el.rotL = h("button", { type: "button", class: "rotate", "data-action": "rotate-left", onclick: () => this.rotate(-1) }, "⟲");
    el.rotR = h("button", { type: "button", class: "rotate", "data-action": "rotate-right", onclick: () => this.rotate(1) }, "⟳");
    el.draw = h("button", { type: "button", class: "draw", "data-action": "draw", onclick: () => this.send("draw") }, tc("tile", "Draw"));
    el.pass = h("button", { type: "button", class: "pass", "data-action": "pass", hidden: true, onclick: () => this.send("pass") }, t("Pass"));
    host.tray.append(
      h("div", { class: "tray-tiles" }, el.hand),
      h("div", { class: "tray-controls" },
        h("div", { class: "rotation", role: "group", "aria-label": t("Rotate the selected tile") }, el.rotL, el.rotR),
        el.draw, el.pass));
  }

  onPrefs(p) {
    this.el.rotL.setAttribute("aria-label", t("Turn the selected tile counter-clockwise ({key})", { key: keyName(p.rotateLeft) }));
    this.el.rotL.title = this.el.rotL.getAttribute("aria-label");
    this.el.rotR.setAttribute("aria-label", t("Turn the selected tile clockwise ({key})", { key: keyName(p.rotateRight) }));
    this.el.rotR.title = this.el.rotR.getAttribute("aria-label");
  }

  destroy() {
    this.board.resizeObserver.disconnect();
    this.preview.hide();
  }

  /** The player's own zoom (buttons, keys): kept until Fit. */
  zoom(factor) {
    this.board.userMoved();
    this.board.zoomBy(factor);
  }

  clearPreview() {
    this.board.setPreview(null);
    this.preview.hide();
  }

  /** Hot-seat handover: the hand leaves the page. */
  lock() {
    this.hand.setTiles(null);
    this.hand.selected = null;
    this.board.setSlots([]);
    this.clearPreview();
  }

  // --- views ----------------------------------------------------------------------------------
  render(view) {
    if (this.round.open) return;   // the finished round's board stays under its summary
    const obs = view.observation;
    const placements = (obs.board || []).map((p) => ({ cell: p.cell, corners: p.corners, tile: p.tile }));
    const finished = this.round.finishedBoard(view, this.placements);
    if (finished) {
      this.showFinished(view, finished);
      return;
    }
    if (view.move !== (this.view && this.view.move)) this.preview.hide();
    this.view = view;
    this.board.root.classList.remove("round-over");
    this.placements = placements;
    this.board.setPlacements(placements, this.recentCells(view));
    this.localBoard = new Board(placements);
    const seated = view.seat !== null && view.seat !== undefined;
    if (seated) {
      this.hand.setTiles(obs.hand || []);
      const kinds = new Set(view.legal_actions.map((a) => a.kind));
      this.el.draw.hidden = false;
      this.el.draw.textContent = t("Draw −{points}", { points: this.ui.drawPenalty });
      this.el.draw.disabled = !kinds.has("draw") || this.table.busy;
      this.el.draw.title = kinds.has("draw") ? t("Draw a tile from the pool (D)")
        : view.your_turn ? t("You can play a tile, so you may not draw") : t("Wait for your turn");
      this.el.pass.hidden = !kinds.has("pass");
      this.selected(this.hand.selected);
    }
  }

  /** The round just ended: its finished board (the last tile in place) stays under the summary;
   * the hand and the places wait for the next round (tiles-round.js holds the later views). */
  showFinished(view, finished) {
    this.view = { ...view, your_turn: false, legal_actions: [] };
    this.placements = finished;
    const last = finished.length ? new Set([key(finished[finished.length - 1].cell)]) : new Set();
    this.board.setPlacements(finished, last);
    this.board.root.classList.add("round-over");
    this.localBoard = new Board(finished);
    this.hand.setTiles([]);
    this.hand.selected = null;
    this.board.setSlots([]);
    this.clearPreview();
    this.round.start();
  }

  /** The veteran's move (a hint, or a reviewed replay step): the tile outlined in the hand and
   * drawn at its place, or the Draw / Pass button outlined; null clears it. */
  showHint(action) {
    const shown = action ? action.notation : "";
    const place = action ? parsePlacement(action.notation) : null;
    if (place) {
      const corners = rotate(tileValues(place.tile), place.rotation);
      this.board.setHint(place.cell, corners, place.tile);
      if (shown !== this.hinted) this.board.reveal(place.cell);
    } else {
      this.board.setHint(null);
    }
    for (const b of this.el.hand.querySelectorAll("button[data-tile]")) {
      b.classList.toggle("hinted", Boolean(place) && b.dataset.tile === place.tile);
    }
    this.el.draw.classList.toggle("hinted", shown === "draw");
    this.el.pass.classList.toggle("hinted", shown === "pass");
    this.hinted = shown;
  }

  recentCells(view) {
    const out = new Set();
    const log = view.log || [];
    for (let i = log.length - 1; i >= 0; i--) {
      const entry = log[i];
      if (view.seat !== null && entry.player === view.seat && i < log.length - 1) break;
      for (const e of entry.events) if (e.kind === "place" && e.data.cell) out.add(key(e.data.cell));
      if (view.seat === null) break;
      if (entry.events.some((e) => e.kind === "round_start" || e.kind === "round_end")) break;
    }
    return out;
  }

  /** A new move: a click for a placed tile, the cells of a hexagon flashing. */
  onLogEntry(entry) {
    for (const e of entry.events) {
      if (e.kind === "score" && FLASH_REASONS.includes(e.data.reason)) {
        if (e.data.vertex) this.board.flashCells(vertexCells(e.data.vertex));
        for (const v of e.data.vertices || []) this.board.flashCells(vertexCells(v));
      }
    }
    if (entry.events.some((e) => e.kind === "place")) this.table.sound.click();
  }

  // --- selecting, turning, placing ---------------------------------------------------------------
  selected(tile) {
    const view = this.view;
    this.keyCursor = -1;
    if (!tile || !view || view.seat === null) {
      this.board.setSlots([]);
      this.table.hint(view && view.seat !== null && view.your_turn && !view.finished
        ? t("Select a tile, then drop it on the board (or click a cell).") : "");
      this.slots = [];
      this.el.rotL.disabled = this.el.rotR.disabled = !tile;
      return;
    }
    this.el.rotL.disabled = this.el.rotR.disabled = false;
    const [up, rotation, corners] = this.hand.placed(tile);
    const triple = isTriple(tileValues(tile));
    let cells = [], elsewhere = 0;
    if (view.your_turn) {
      // Read from the notation, which every tile game writes TILE@X,Y/R.
      const places = view.legal_actions.map((a) => parsePlacement(a.notation))
        .filter((p) => p && p.tile === tile);
      for (const p of places) {
        const here = isUp(p.cell) === up && (triple || p.rotation === rotation);
        if (here) cells.push(p.cell);
        else elsewhere += 1;
      }
    } else if (this.localBoard) {
      cells = this.localBoard.frontier().filter((c) => isUp(c) === up && !this.localBoard.misfit(c, corners));
    }
    this.slots = cells;
    this.board.setSlots(cells, {
      focusable: view.your_turn,
      label: (c) => t("Place {tile} on cell {cell}", { tile, cell: key(c) }),
    });
    let hint;
    if (view.your_turn) {
      hint = this.fitHint(tile, cells.length, elsewhere);
    } else {
      hint = tn("Planning: {tile} would fit {n} place turned this way.",
        "Planning: {tile} would fit {n} places turned this way.", cells.length, { tile });
    }
    this.table.hint(hint);
  }

  /** Where the selected tile fits, in words, on the player's turn. */
  fitHint(tile, count, elsewhere) {
    const how = t("Drop it, click a place, or press ] and Enter.");
    if (count && elsewhere) {
      return tn("{tile} fits {n} place turned this way, {more} more turned another way. {how}",
        "{tile} fits {n} places turned this way, {more} more turned another way. {how}", count,
        { tile, more: elsewhere, how });
    }
    if (count) {
      return tn("{tile} fits {n} place turned this way. {how}", "{tile} fits {n} places turned this way. {how}",
        count, { tile, how });
    }
    if (elsewhere) {
      return t("{tile} fits nowhere turned this way: turn it ({left} / {right}).",
        { tile, left: keyName(prefs().rotateLeft), right: keyName(prefs().rotateRight) });
    }
    return t("{tile} fits nowhere on the board now.", { tile });
  }

  rotate(steps) {
    if (!this.hand.selected) {
      this.table.hint(t("Select a tile first."));
      return;
    }
    this.hand.rotate(steps);
    if (this.lastPreviewCell) this.previewAt(this.lastPreviewCell);
  }

  /** The cell a drop or click at board point (bx, by) aims at, for the selected tile. */
  target(point) {
    const tile = this.hand.selected;
    if (!tile) return null;
    const [up] = this.hand.placed(tile);
    const near = nearCells(point[0], point[1], up, 4);
    const slotKeys = new Set((this.slots || []).map(key));
    const snap = near.find((n) => slotKeys.has(key(n.cell)) && n.dist < 0.75);
    const cell = snap ? snap.cell : near[0].cell;
    return { cell, ok: Boolean(snap) };
  }

  previewAt(cell) {
    const tile = this.hand.selected;
    if (!tile) return;
    this.lastPreviewCell = cell;
    const [up, , corners] = this.hand.placed(tile);
    if (isUp(cell) !== up) { this.clearPreview(); return; }
    const ok = (this.slots || []).some((c) => key(c) === key(cell));
    this.board.setPreview(cell, corners, ok, tile);
    if (ok) this.preview.ask(this.view, this.notation(tile, cell));
    else this.preview.hide();
  }

  /** The placement's notation TILE@X,Y/R, the tile turned as the hand shows it. */
  notation(tile, cell) {
    const [, rotation] = this.hand.placed(tile);
    const r = isTriple(tileValues(tile)) ? 0 : rotation;
    return `${tile}@${cell[0]},${cell[1]}/${r}`;
  }

  hover(e) {
    const p = this.board.toBoard(e.clientX, e.clientY);
    if (prefs().coordinates) {
      const near = nearCells(p[0], p[1], undefined, 1)[0];
      this.el.coords.hidden = false;
      this.el.coords.textContent = t("cell {cell}", { cell: key(near.cell) });
    }
    if (this.drag || !this.hand.selected || this.board.dragging?.moved) return;
    const aim = this.target(p);
    if (aim) this.previewAt(aim.cell);
  }

  boardClick(cell, point) {
    if (!this.view || this.view.seat === null) return;
    if (!this.hand.selected) {
      if (this.view.your_turn) this.table.hint(t("Select a tile in your hand first."));
      return;
    }
    const aim = this.target(point);
    if (aim) this.placeAt(aim.cell);
  }

  placeAt(cell) {
    const tile = this.hand.selected;
    if (!tile) return;
    const [up] = this.hand.placed(tile);
    if (isUp(cell) !== up) {
      this.table.refuse(up ? t("{tile} points up: it goes on a cell pointing up.", { tile })
        : t("{tile} points down: it goes on a cell pointing down.", { tile }));
      return;
    }
    this.send(this.notation(tile, cell), cell);
  }

  async send(notation, cell = null) {
    const answer = await this.table.send(notation);
    if (!answer) return;
    if (answer.type === "error") {
      const tile = this.hand.selected;
      if (cell && tile) {
        const [, , corners] = this.hand.placed(tile);
        this.board.setPreview(cell, corners, false, tile);
      }
    } else {
      this.clearPreview();
      this.lastPreviewCell = null;
      if (notation !== "draw" && notation !== "pass") this.hand.select(null);
    }
  }

  // --- dragging a tile from the hand ---------------------------------------------------------------
  dragStart(e, tile) {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    const start = { x: e.clientX, y: e.clientY, id: e.pointerId, tile, ghost: null, moved: false };
    const move = (ev) => {
      if (ev.pointerId !== start.id) return;
      if (!start.moved) {
        if (Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < 6) return;
        start.moved = true;
        this.drag = start;
        if (this.hand.selected !== tile) this.hand.select(tile);
        const [up, , corners] = this.hand.placed(tile);
        start.ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" }, tileIcon(corners, up));
        start.ghost.style.width = `${this.board.scale}px`;
        document.body.append(start.ghost);
        document.body.classList.add("dragging-tile");
      }
      ev.preventDefault();
      const over = this.board.contains(ev.clientX, ev.clientY);
      start.ghost.style.transform = `translate(${ev.clientX - this.board.scale / 2}px, ${ev.clientY - this.board.scale * 0.45}px)`;
      start.ghost.classList.toggle("over-board", over);
      if (over) {
        const aim = this.target(this.board.toBoard(ev.clientX, ev.clientY));
        if (aim) this.previewAt(aim.cell);
        start.target = aim;
      } else {
        this.clearPreview();
        start.target = null;
      }
    };
    const up = (ev) => {
      if (ev.pointerId !== start.id) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!start.moved) return;
      this.hand.suppressClick = true;
      setTimeout(() => { this.hand.suppressClick = false; }, 0);
      start.ghost.remove();
      document.body.classList.remove("dragging-tile");
      this.drag = null;
      if (ev.type === "pointerup" && start.target && this.board.contains(ev.clientX, ev.clientY)) {
        this.placeAt(start.target.cell);
      } else {
        this.clearPreview();
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  // --- keyboard -----------------------------------------------------------------------------------
  onKey(e) {
    const focus = e.target;
    const p = prefs();
    const k = normKey(e.key);
    const pans = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
    if (pans[e.key]) {
      e.preventDefault();
      this.board.userMoved();
      this.board.pan(...pans[e.key]);
    } else if (k === "+" || k === "=") {
      this.zoom(1.25);
    } else if (k === "-" || k === "_") {
      this.zoom(0.8);
    } else if (k === "0") {
      this.board.fit();
    } else if (k === p.rotateLeft || k === p.rotateRight) {
      e.preventDefault();
      this.rotate(k === p.rotateRight ? 1 : -1);
    } else if (k === "d") {
      if (this.view && this.view.legal_actions.some((a) => a.kind === "draw")) this.send("draw");
    } else if (k === "]" || k === "[") {
      this.cycleSlot(k === "]" ? 1 : -1);
    } else if (e.key === "Enter" && this.lastPreviewCell && this.hand.selected
      && !(focus && focus.closest && focus.closest("button, a, [data-slot]"))) {
      this.placeAt(this.lastPreviewCell);
    } else {
      return false;
    }
    return true;
  }

  cycleSlot(step) {
    if (!this.hand.selected) {
      const first = this.el.hand.querySelector("button[data-tile]");
      if (first) first.focus();
      this.table.hint(t("Select a tile first (Enter or Space on a tile)."));
      return;
    }
    const slots = this.slots || [];
    if (!slots.length) {
      this.table.hint(t("No place for this tile turned this way: turn it."));
      return;
    }
    this.keyCursor = ((this.keyCursor + step) % slots.length + slots.length) % slots.length;
    const cell = slots[this.keyCursor];
    this.board.reveal(cell);
    const slot = this.board.slotElement(cell);
    if (slot && slot.getAttribute("tabindex") === "0") slot.focus();
    this.previewAt(cell);
  }

  keyRows() {
    const p = prefs();
    return [
      [t("Tab / Shift+Tab"), t("move between tiles, places on the board and buttons")],
      [t("Enter or Space on a tile"), t("select it")],
      [`${keyName(p.rotateLeft)} / ${keyName(p.rotateRight)}`, t("turn the selected tile (Preferences changes these)")],
      [t("] and ["), t("next / previous place where the selected tile fits")],
      [t("Enter"), t("place the tile there")],
      ["D", t("draw a tile (when you cannot play)")],
      [t("Arrow keys"), t("scroll the board (or drag it)")],
      ["+ / − / 0", t("zoom in, zoom out, fit the board (or the mouse wheel)")],
    ];
  }
}
