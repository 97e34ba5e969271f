// The view of the tile games (Tri-ominoes, Trinity): the triangular board (board.js), the hand
// (hand.js), the rotate, draw and pass controls, and placing a tile by dragging it, clicking a
// place or with the keyboard. Everything else at the table (scores, events, the end, hot-seat)
// is table.js's; this module follows the interface of docs/web.md, "Adding a game's UI". The
// tile games' entries (games/trinity.js, games/triominoes.js, built on games/tiles.js) import
// it only when a table of theirs opens (`loadView`), so the lobby never loads it.
import { BoardView } from "../board.js";
import { HandView } from "../hand.js";
import { keyName, normKey } from "../prefs.js";
import { prefs } from "../store.js";
import { Board, isUp, isTriple, key, nearCells, parsePlacement, rotate, tileValues, vertexCells } from "../trigrid.js";
import { tileIcon } from "../svg.js";
import { h } from "../ui.js";
import { FLASH_REASONS } from "./tiles.js";

const PAN_STEP = 70;

export function createView(table, host) {
  return new TilesView(table, host);
}

class TilesView {
  constructor(table, host) {
    this.table = table;
    this.ui = table.ui;
    this.view = null;
    this.keyCursor = -1;
    this.slots = [];
    this.build(host);
    this.onPrefs(prefs());
  }

  // --- the board area and the tray ------------------------------------------------------------------
  build(host) {
    const el = {};
    this.el = el;
    el.coords = h("div", { class: "coords", hidden: true });
    const zoom = h("div", { class: "zoom", role: "group", "aria-label": "Board view" },
      h("button", { type: "button", "aria-label": "Zoom in (+)", title: "Zoom in (+)", onclick: () => this.board.zoomBy(1.25) }, "+"),
      h("button", { type: "button", "aria-label": "Zoom out (-)", title: "Zoom out (-)", onclick: () => this.board.zoomBy(0.8) }, "−"),
      h("button", { type: "button", "aria-label": "Fit the board (0)", title: "Fit the board (0)", onclick: () => this.board.fit() }, "Fit"));
    const boardHost = h("div", { class: "board-host" });
    host.board.append(boardHost, zoom, el.coords);
    this.board = new BoardView(boardHost, { onCellClick: (cell, point) => this.boardClick(cell, point) });
    this.board.root.addEventListener("pointermove", (e) => this.hover(e));
    this.board.root.addEventListener("pointerleave", () => { el.coords.hidden = true; if (!this.drag) this.board.setPreview(null); });
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
    el.draw = h("button", { type: "button", class: "draw", "data-action": "draw", onclick: () => this.send("draw") }, "Draw −5");
    el.pass = h("button", { type: "button", class: "pass", "data-action": "pass", hidden: true, onclick: () => this.send("pass") }, "Pass");
    host.tray.append(
      h("div", { class: "tray-tiles" }, el.hand),
      h("div", { class: "tray-controls" },
        h("div", { class: "rotation", role: "group", "aria-label": "Rotate the selected tile" }, el.rotL, el.rotR),
        el.draw, el.pass));
  }

  onPrefs(p) {
    this.el.rotL.setAttribute("aria-label", `Turn the selected tile counter-clockwise (${keyName(p.rotateLeft)})`);
    this.el.rotL.title = this.el.rotL.getAttribute("aria-label");
    this.el.rotR.setAttribute("aria-label", `Turn the selected tile clockwise (${keyName(p.rotateRight)})`);
    this.el.rotR.title = this.el.rotR.getAttribute("aria-label");
  }

  destroy() {
    this.board.resizeObserver.disconnect();
  }

  /** Hot-seat handover: the hand leaves the page. */
  lock() {
    this.hand.setTiles(null);
    this.hand.selected = null;
    this.board.setSlots([]);
    this.board.setPreview(null);
  }

  // --- views ----------------------------------------------------------------------------------
  render(view) {
    this.view = view;
    const obs = view.observation;
    const placements = (obs.board || []).map((p) => ({ cell: p.cell, corners: p.corners, tile: p.tile }));
    this.board.setPlacements(placements, this.recentCells(view));
    this.localBoard = new Board(placements);
    const seated = view.seat !== null && view.seat !== undefined;
    if (seated) {
      this.hand.setTiles(obs.hand || []);
      const kinds = new Set(view.legal_actions.map((a) => a.kind));
      this.el.draw.hidden = false;
      this.el.draw.textContent = `Draw −${this.ui.drawPenalty}`;
      this.el.draw.disabled = !kinds.has("draw") || this.table.busy;
      this.el.draw.title = kinds.has("draw") ? "Draw a tile from the pool (D)"
        : view.your_turn ? "You can play a tile, so you may not draw" : "Wait for your turn";
      this.el.pass.hidden = !kinds.has("pass");
      this.selected(this.hand.selected);
    }
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
        ? "Select a tile, then drop it on the board (or click a cell)." : "");
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
      label: (c) => `Place ${tile} on cell ${key(c)}`,
    });
    let hint;
    if (view.your_turn) {
      hint = cells.length
        ? `${tile} fits ${cells.length} place${cells.length === 1 ? "" : "s"} turned this way${elsewhere ? `, ${elsewhere} more turned another way` : ""}. Drop it, click a place, or press ] and Enter.`
        : elsewhere ? `${tile} fits nowhere turned this way: turn it (${keyName(prefs().rotateLeft)} / ${keyName(prefs().rotateRight)}).`
          : `${tile} fits nowhere on the board now.`;
    } else {
      hint = `Planning: ${tile} would fit ${cells.length} place${cells.length === 1 ? "" : "s"} turned this way.`;
    }
    this.table.hint(hint);
  }

  rotate(steps) {
    if (!this.hand.selected) {
      this.table.hint("Select a tile first.");
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
    if (isUp(cell) !== up) { this.board.setPreview(null); return; }
    const ok = (this.slots || []).some((c) => key(c) === key(cell));
    this.board.setPreview(cell, corners, ok, tile);
  }

  hover(e) {
    const p = this.board.toBoard(e.clientX, e.clientY);
    if (prefs().coordinates) {
      const t = nearCells(p[0], p[1], undefined, 1)[0];
      this.el.coords.hidden = false;
      this.el.coords.textContent = `cell ${key(t.cell)}`;
    }
    if (this.drag || !this.hand.selected || this.board.dragging?.moved) return;
    const t = this.target(p);
    if (t) this.previewAt(t.cell);
  }

  boardClick(cell, point) {
    if (!this.view || this.view.seat === null) return;
    if (!this.hand.selected) {
      if (this.view.your_turn) this.table.hint("Select a tile in your hand first.");
      return;
    }
    const t = this.target(point);
    if (t) this.placeAt(t.cell);
  }

  placeAt(cell) {
    const tile = this.hand.selected;
    if (!tile) return;
    const [up, rotation] = this.hand.placed(tile);
    if (isUp(cell) !== up) {
      this.table.refuse(`${tile} points ${up ? "up" : "down"}: it goes on a cell pointing ${up ? "up" : "down"}.`);
      return;
    }
    const r = isTriple(tileValues(tile)) ? 0 : rotation;
    this.send(`${tile}@${cell[0]},${cell[1]}/${r}`, cell);
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
      this.board.setPreview(null);
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
        const t = this.target(this.board.toBoard(ev.clientX, ev.clientY));
        if (t) this.previewAt(t.cell);
        start.target = t;
      } else {
        this.board.setPreview(null);
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
        this.board.setPreview(null);
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  // --- keyboard -----------------------------------------------------------------------------------
  onKey(e) {
    const t = e.target;
    const p = prefs();
    const k = normKey(e.key);
    const pans = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
    if (pans[e.key]) {
      e.preventDefault();
      this.board.pan(...pans[e.key]);
    } else if (k === "+" || k === "=") {
      this.board.zoomBy(1.25);
    } else if (k === "-" || k === "_") {
      this.board.zoomBy(0.8);
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
      && !(t && t.closest && t.closest("button, a, [data-slot]"))) {
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
      this.table.hint("Select a tile first (Enter or Space on a tile).");
      return;
    }
    const slots = this.slots || [];
    if (!slots.length) {
      this.table.hint("No place for this tile turned this way: turn it.");
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
      ["Tab / Shift+Tab", "move between tiles, places on the board and buttons"],
      ["Enter or Space on a tile", "select it"],
      [`${keyName(p.rotateLeft)} / ${keyName(p.rotateRight)}`, "turn the selected tile (Preferences changes these)"],
      ["] and [", "next / previous place where the selected tile fits"],
      ["Enter", "place the tile there"],
      ["D", "draw a tile (when you cannot play)"],
      ["Arrow keys", "scroll the board (or drag it)"],
      ["+ / − / 0", "zoom in, zoom out, fit the board (or the mouse wheel)"],
    ];
  }
}
