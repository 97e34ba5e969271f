// The view of Trident (issue 5): the 15x15 board with its premium squares, the own rack of
// three tiles, tentative tiles placed by dragging or with the keyboard until Submit sends the
// play's notation (`7:7=5,7:8=10`, a joker `7:9=*0`), the joker's value chosen in a dialog,
// exchange and pass when the legal actions hold them, the server's score preview of the
// tentative play (POST /api/matches/{id}/preview) and the turn's countdown (`deadline`).
// Everything else at the table is table.js's; this module follows docs/web.md's interface.
// Trident's entry (games/trident.js) imports it only when a table of Trident opens.
import { h } from "../ui.js";
import { t } from "../i18n.js";
import { SIZE, buildGrid, drawSquare, key, lastSquares, playNotation } from "./trident-board.js";
import { askJoker, buildTray, hidePreview, renderTray, schedulePreview, tick } from "./trident-tray.js";

export { playNotation };

let cssLinked = false;
function linkCss() {
  if (cssLinked || document.querySelector("link[href='/css/trident.css']")) return;
  cssLinked = true;
  document.head.append(h("link", { rel: "stylesheet", href: "/css/trident.css" }));
}

export function createView(table, host) {
  linkCss();
  return new TridentView(table, host);
}

class TridentView {
  constructor(table, host) {
    this.table = table;
    this.view = null;
    this.rack = [];            // the own rack's tiles as text ("5", "*")
    this.selected = null;      // the rack slot selected
    this.tentative = [];       // [{slot, r, c, value, joker}]
    this.cursor = [7, 7];
    this.exchanging = null;    // a Set of rack slots while choosing an exchange
    this.drag = null;
    this.previewSeq = 0;
    this.previewTimer = null;
    this.build(host);
    this.timer = setInterval(() => this.tick(), 500);
  }

  // --- building ---------------------------------------------------------------------------------
  build(host) {
    const { grid, cells } = buildGrid((r, c) => this.clickSquare(r, c), (r, c) => this.moveCursor(r, c, false));
    this.grid = grid;
    this.cells = cells;
    // The board's frame holds the grid, as the set's board has its border.
    const wrap = h("div", { class: "td-board-wrap" }, h("div", { class: "td-frame" }, grid));
    host.board.append(wrap);
    // The preview floats over the board's corner: it never moves the board or the rack.
    host.board.classList.add("td-host");
    this.resize = new ResizeObserver(() => this.fit(host.board));
    this.resize.observe(host.board);
    this.el = buildTray(this, host);
    document.addEventListener("pointermove", this.onMove = (ev) => this.dragMove(ev));
    document.addEventListener("pointerup", this.onUp = (ev) => this.dragEnd(ev));
  }

  fit(board) {
    const r = board.getBoundingClientRect();
    const room = Math.max(170, Math.floor(Math.min(r.width, r.height) - 8));
    const frame = Math.max(5, Math.round(room * 0.025));   // the board's wooden border
    board.style.setProperty("--td-frame", `${frame}px`);
    board.style.setProperty("--td-side", `${room - 2 * frame}px`);
  }

  destroy() {
    clearInterval(this.timer);
    clearTimeout(this.previewTimer);
    this.resize.disconnect();
    document.removeEventListener("pointermove", this.onMove);
    document.removeEventListener("pointerup", this.onUp);
  }

  lock() {
    this.tentative = [];
    this.selected = null;
    this.exchanging = null;
    this.rack = [];
  }

  // --- rendering --------------------------------------------------------------------------------
  render(view) {
    const moved = !this.view || this.view.move !== view.move || this.view.seat !== view.seat;
    this.view = view;
    const obs = view.observation;
    const rack = obs.rack || [];
    if (moved || rack.join() !== this.rack.join()) {
      this.tentative = [];
      this.selected = null;
      this.exchanging = null;
      hidePreview(this);
    }
    this.rack = rack;
    this.board = new Map(obs.board.map((x) => [key(x.row, x.col), x]));
    this.drawBoard();
    document.body.dataset.tiles = String(obs.board.length);
    document.body.dataset.bag = String(obs.bag_count);
    if (view.seat !== null && view.seat !== undefined) this.renderTray();
    this.tick();
  }

  drawBoard() {
    const tent = new Map(this.tentative.map((x) => [key(x.r, x.c), x]));
    const last = lastSquares(this.view);
    for (let r = 0; r < SIZE; r += 1) {
      for (let c = 0; c < SIZE; c += 1) {
        const k = key(r, c);
        drawSquare(this.cells[k], r, c, {
          placed: this.board.get(k), tent: tent.get(k), last: last.has(k),
          cursor: this.cursor[0] === r && this.cursor[1] === c,
        });
      }
    }
    const tiles = this.board.size, tentative = this.tentative.length;
    this.grid.setAttribute("aria-label", tentative
      ? t("Trident board, 15 by 15: {tiles} tiles, {tentative} tentative", { tiles, tentative })
      : t("Trident board, 15 by 15: {tiles} tiles", { tiles }));
  }

  /** The veteran's move (a hint, or a reviewed replay step): its squares marked with the
   * values to lay there and the rack tiles it uses outlined, or the tiles to exchange, or
   * Pass; null clears it. */
  showHint(action) {
    const f = action && action.fields ? action.fields : {};
    const squares = new Map();
    const tiles = [];
    if (action && action.kind === "play") {
      for (const [r, c, value, joker] of f.tiles || []) {
        squares.set(key(r, c), `${joker ? "★" : ""}${value}`);
        tiles.push(joker ? "*" : String(value));
      }
    } else if (action && action.kind === "exchange") {
      // The notation names rack tiles as they show ("exchange 0,1,*"); the fields give a joker as 16.
      for (const t of action.notation.replace(/^exchange\s*/, "").split(",")) tiles.push(t.trim());
    }
    this.cells.forEach((cell, k) => {
      const mark = squares.get(k);
      cell.classList.toggle("td-hinted", mark !== undefined);
      if (mark !== undefined) cell.dataset.hint = mark;
      else delete cell.dataset.hint;
    });
    const left = [...tiles];
    for (const b of this.el.rack.querySelectorAll("[data-rack]")) {
      const i = left.indexOf(b.dataset.tile);
      b.classList.toggle("hinted", i >= 0);
      if (i >= 0) left.splice(i, 1);
    }
    this.el.exchange.classList.toggle("hinted", Boolean(action) && action.kind === "exchange");
    this.el.pass.classList.toggle("hinted", Boolean(action) && action.kind === "pass");
  }

  legalKinds() {
    return new Set((this.view && this.view.legal_actions || []).map((a) => a.kind));
  }

  mine() {
    const v = this.view;
    return Boolean(v && v.your_turn && !v.finished && !this.table.replaying);
  }

  renderTray() {
    renderTray(this);
  }

  tick() {
    tick(this);
  }

  // --- placing ----------------------------------------------------------------------------------
  clickRack(i) {
    if (this.drag && this.drag.moved) return;
    if (this.exchanging) {
      if (this.exchanging.has(i)) this.exchanging.delete(i); else this.exchanging.add(i);
    } else {
      this.selected = this.selected === i ? null : i;
      if (this.selected !== null) this.table.announce(t("Tile {value} selected: choose a square.", { value: this.rack[i] }));
    }
    this.renderTray();
  }

  clickSquare(r, c) {
    this.moveCursor(r, c, false);
    if (this.tentative.some((t) => t.r === r && t.c === c)) { this.takeBack(r, c); return; }
    if (this.selected !== null) this.place(this.selected, r, c);
  }

  firstFreeSlot() {
    const used = new Set(this.tentative.map((t) => t.slot));
    const i = this.rack.findIndex((_, k) => !used.has(k));
    return i < 0 ? null : i;
  }

  async place(slot, r, c) {
    if (!this.mine() || this.exchanging) return;
    const k = key(r, c);
    if (this.board.has(k) || this.tentative.some((t) => t.r === r && t.c === c)) return;
    if (this.tentative.some((t) => t.slot === slot)) return;
    const tile = this.rack[slot];
    if (tile === undefined) return;
    let value = Number(tile), joker = false;
    if (tile === "*") {
      const chosen = await askJoker(r, c);
      if (chosen === null) return;
      value = chosen;
      joker = true;
    }
    this.tentative.push({ slot, r, c, value, joker });
    this.selected = null;
    const next = this.firstFreeSlot();
    if (next !== null) this.selected = next;
    this.table.sound.click();
    this.changed();
  }

  takeBack(r, c) {
    const i = r === undefined ? this.tentative.length - 1
      : this.tentative.findIndex((t) => t.r === r && t.c === c);
    if (i < 0) return;
    const [t] = this.tentative.splice(i, 1);
    this.selected = t.slot;
    this.changed();
  }

  clear() {
    this.tentative = [];
    this.selected = null;
    this.exchanging = null;
    this.table.clearRefusal();
    this.changed();
  }

  changed() {
    this.table.clearRefusal();
    this.drawBoard();
    this.renderTray();
    schedulePreview(this);
  }

  moveCursor(r, c, focus = true) {
    const old = this.cells[key(this.cursor[0], this.cursor[1])];
    old.tabIndex = -1;
    old.classList.remove("td-cursor");
    this.cursor = [r, c];
    const cell = this.cells[key(r, c)];
    cell.tabIndex = 0;
    cell.classList.add("td-cursor");
    if (focus) cell.focus();
  }

  // --- dragging ---------------------------------------------------------------------------------
  dragStart(ev, slot) {
    if (!this.mine() || this.exchanging || ev.button > 0) return;
    this.drag = { slot, x: ev.clientX, y: ev.clientY, moved: false, ghost: null };
  }

  dragMove(ev) {
    const d = this.drag;
    if (!d) return;
    if (!d.moved && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < 6) return;
    if (!d.moved) {
      d.moved = true;
      const tile = this.rack[d.slot];
      d.ghost = h("div", { class: "td-ghost", "aria-hidden": "true" },
        h("span", { class: `td-face${tile === "*" ? " td-face-joker" : ""}` }, h("span", { class: "td-num" }, tile === "*" ? "★" : tile)));
      document.body.append(d.ghost);
    }
    d.ghost.style.left = `${ev.clientX}px`;
    d.ghost.style.top = `${ev.clientY}px`;
    for (const c of this.grid.querySelectorAll(".td-drop")) c.classList.remove("td-drop");
    const target = this.squareAt(ev.clientX, ev.clientY);
    if (target) target.classList.add("td-drop");
  }

  squareAt(x, y) {
    const hit = document.elementsFromPoint(x, y).find((n) => n.dataset && n.dataset.sq);
    return hit || null;
  }

  dragEnd(ev) {
    const d = this.drag;
    if (!d) return;
    if (d.ghost) d.ghost.remove();
    for (const c of this.grid.querySelectorAll(".td-drop")) c.classList.remove("td-drop");
    if (d.moved) {
      const target = this.squareAt(ev.clientX, ev.clientY);
      if (target) {
        const [r, c] = target.dataset.sq.split(":").map(Number);
        this.moveCursor(r, c, false);
        this.place(d.slot, r, c);
      }
      setTimeout(() => { this.drag = null; }, 0);  // the click after a drag is not a selection
    } else {
      this.drag = null;
    }
  }

  // --- sending ----------------------------------------------------------------------------------
  async sendAction(notation) {
    const answer = await this.table.send(notation);
    if (answer && answer.type === "accepted") {
      this.tentative = [];
      this.exchanging = null;
      hidePreview(this);
    }
    if (this.view) this.renderTray();
    return answer;
  }

  submit() {
    if (!this.tentative.length) return;
    this.sendAction(playNotation(this.tentative));
  }

  typed() {
    const text = this.el.input.value.trim();
    if (!text) return;
    this.sendAction(text).then((a) => { if (a && a.type === "accepted") this.el.input.value = ""; });
  }

  exchangeButton() {
    if (!this.exchanging) {
      this.tentative = [];
      this.selected = null;
      this.exchanging = new Set();
      this.changed();
      return;
    }
    if (!this.exchanging.size) return;
    const tiles = [...this.exchanging].map((i) => this.rack[i]);
    this.sendAction(`exchange ${tiles.join(",")}`);
  }

  // --- keys -------------------------------------------------------------------------------------
  onKey(e) {
    if (!this.view || this.view.seat === null || this.view.seat === undefined) return false;
    const k = e.key;
    const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (arrows[k]) {
      const [dr, dc] = arrows[k];
      const r = Math.min(SIZE - 1, Math.max(0, this.cursor[0] + dr));
      const c = Math.min(SIZE - 1, Math.max(0, this.cursor[1] + dc));
      this.moveCursor(r, c, true);
      e.preventDefault();
      return true;
    }
    if (/^[1-3]$/.test(k) && this.rack.length >= Number(k)) {
      const i = Number(k) - 1;
      if (this.exchanging || this.selected !== i) this.clickRack(i);
      return true;
    }
    if (k === "Enter" && e.target && e.target.dataset && e.target.dataset.sq !== undefined) {
      e.preventDefault();
      const [r, c] = this.cursor;
      if (this.tentative.some((t) => t.r === r && t.c === c)) return true;
      const slot = this.selected !== null ? this.selected : this.firstFreeSlot();
      if (slot !== null) this.place(slot, r, c);
      return true;
    }
    if (k === "Backspace" || k === "Delete") {
      const [r, c] = this.cursor;
      if (this.tentative.some((t) => t.r === r && t.c === c)) this.takeBack(r, c);
      else this.takeBack();
      e.preventDefault();
      return true;
    }
    if (k === "s" || k === "S") { if (this.mine()) this.submit(); return true; }
    if (k === "Escape" && (this.tentative.length || this.exchanging)) { this.clear(); return true; }
    return false;
  }

  keyRows() {
    return [
      ["1 2 3", t("select a rack tile")],
      [t("Arrows"), t("move the cursor on the board")],
      [t("Enter"), t("place the selected tile at the cursor")],
      [t("Backspace"), t("take a tentative tile back")],
      ["S", t("submit the play")],
      [t("Escape"), t("clear the tentative tiles")],
    ];
  }

  onLogEntry(entry, ctx) {
    const words = (e) => (ctx && ctx.text ? ctx.text(e) : e.label) || e.label;
    for (const e of entry.events) {
      // The bag is announced in the feed after every draw from ten tiles; in big letters once.
      if (e.kind === "bag" && !this.bagToasted) { this.bagToasted = true; this.table.toast(words(e)); }
      if (e.data && e.data.line === "triton") { this.table.toast(words(e)); this.table.sound.chime(); }
    }
  }
}
