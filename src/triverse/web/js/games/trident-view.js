// The view of Trident (issue 5): the 15x15 board with its premium squares, the own rack of
// three tiles, tentative tiles placed by dragging or with the keyboard until Submit sends the
// play's notation (`7:7=5,7:8=10`, a joker `7:9=*0`), the joker's value chosen in a dialog,
// exchange and pass when the legal actions hold them, the server's score preview of the
// tentative play (POST /api/matches/{id}/preview) and the turn's countdown (`deadline`).
// Everything else at the table is table.js's; this module follows docs/web.md's interface.
// Trident's entry (games/trident.js) imports it only when a table of Trident opens.
import { h, openDialog } from "../ui.js";

const SIZE = 15;
// The premium layout of src/triverse/games/trident/board.py (layout_json()).
const DOUBLE = [[3, 7], [4, 4], [4, 10], [7, 3], [7, 11], [10, 4], [10, 10], [11, 7], [7, 7]];
const TRIPLE = [[1, 4], [1, 10], [4, 1], [4, 13], [10, 1], [10, 13], [13, 4], [13, 10]];
const BIS = [[0, 7], [1, 1], [1, 13], [7, 0], [7, 14], [13, 1], [13, 13], [14, 7]];
const key = (r, c) => r * SIZE + c;
const PREMIUM = new Map();
for (const [r, c] of DOUBLE) PREMIUM.set(key(r, c), "double");
for (const [r, c] of TRIPLE) PREMIUM.set(key(r, c), "triple");
for (const [r, c] of BIS) PREMIUM.set(key(r, c), "bis");

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

/** The notation of tentative tiles: `r:c=v`, a joker `r:c=*v`, in square order. */
export function playNotation(tiles) {
  return [...tiles].sort((a, b) => key(a.r, a.c) - key(b.r, b.c))
    .map((t) => `${t.r}:${t.c}=${t.joker ? "*" : ""}${t.value}`).join(",");
}

/** POST /api/matches/{id}/preview (docs/protocol.md): what a tentative play would score. */
async function previewCall(id, token, action, move) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Seat-Token"] = token;
  const answer = await fetch(`/api/matches/${encodeURIComponent(id)}/preview`, {
    method: "POST", headers, body: JSON.stringify({ action, move }) });
  if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
  return answer.json();
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
    this.build(host);
    this.timer = setInterval(() => this.tick(), 500);
  }

  // --- building ---------------------------------------------------------------------------------
  build(host) {
    const grid = h("div", { class: "td-board", role: "grid", "aria-label": "Trident board, 15 by 15" });
    this.cells = [];
    for (let r = 0; r < SIZE; r += 1) {
      const row = h("div", { class: "td-row", role: "row" });
      for (let c = 0; c < SIZE; c += 1) {
        const prem = PREMIUM.get(key(r, c));
        const star = r === 7 && c === 7;
        const cell = h("button", {
          type: "button", role: "gridcell", tabindex: star ? "0" : "-1",
          class: `td-sq${prem ? ` td-${prem}` : ""}${star ? " td-star" : ""}`,
          "data-sq": `${r}:${c}`,
          onclick: () => this.clickSquare(r, c),
          onfocus: () => this.moveCursor(r, c, false),
        });
        this.cells.push(cell);
        row.append(cell);
      }
      grid.append(row);
    }
    this.grid = grid;
    const wrap = h("div", { class: "td-board-wrap" }, grid);
    host.board.append(wrap);
    // The preview floats over the board's corner: it never moves the board or the rack.
    host.board.classList.add("td-host");
    this.resize = new ResizeObserver(() => this.fit(host.board));
    this.resize.observe(host.board);

    const e = {};
    this.el = e;
    e.rack = h("div", { class: "td-rack", role: "group", "aria-label": "Your rack" });
    e.preview = h("div", { class: "td-preview", hidden: true, "aria-live": "polite" });
    e.clock = h("p", { class: "td-clock", hidden: true, role: "timer", "aria-live": "off" });
    e.submit = h("button", { type: "button", class: "primary", "data-action": "submit", onclick: () => this.submit() }, "Submit");
    e.clear = h("button", { type: "button", "data-action": "clear", onclick: () => this.clear() }, "Clear");
    e.exchange = h("button", { type: "button", "data-action": "exchange", onclick: () => this.exchangeButton() }, "Exchange…");
    e.pass = h("button", { type: "button", "data-action": "pass", onclick: () => this.sendAction("pass") }, "Pass");
    e.input = h("input", { type: "text", id: "td-notation", name: "notation", autocomplete: "off",
      placeholder: "7:7=5,7:8=10", size: 14, "aria-label": "Type a play in notation" });
    const form = h("form", { class: "td-form", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } },
      h("label", { for: "td-notation" }, "Type"), e.input,
      h("button", { type: "submit", "data-action": "send-typed" }, "Send"));
    host.tray.append(
      h("div", { class: "td-main" }, h("div", { class: "td-rack-line" }, e.rack, e.clock)),
      h("div", { class: "tray-controls td-controls" }, e.submit, e.clear, e.exchange, e.pass, form));

    host.board.append(e.preview);
    document.addEventListener("pointermove", this.onMove = (ev) => this.dragMove(ev));
    document.addEventListener("pointerup", this.onUp = (ev) => this.dragEnd(ev));
  }

  fit(board) {
    const r = board.getBoundingClientRect();
    const side = Math.max(150, Math.floor(Math.min(r.width, r.height) - 12));
    board.style.setProperty("--td-side", `${side}px`);
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
      this.hidePreview();
    }
    this.rack = rack;
    this.board = new Map(obs.board.map((t) => [key(t.row, t.col), t]));
    this.drawBoard();
    document.body.dataset.tiles = String(obs.board.length);
    document.body.dataset.bag = String(obs.bag_count);
    if (view.seat !== null && view.seat !== undefined) this.renderTray();
    this.tick();
  }

  drawBoard() {
    const tent = new Map(this.tentative.map((t) => [key(t.r, t.c), t]));
    const last = this.lastSquares();
    for (let r = 0; r < SIZE; r += 1) {
      for (let c = 0; c < SIZE; c += 1) {
        const k = key(r, c);
        const cell = this.cells[k];
        const placed = this.board.get(k);
        const t = tent.get(k);
        const prem = PREMIUM.get(k);
        let text = "";
        let label = `${r}:${c}`;
        if (placed) {
          text = String(placed.value);
          label += `, ${placed.joker ? "joker as " : ""}${placed.value}`;
        } else if (t) {
          text = String(t.value);
          label += `, tentative ${t.joker ? "joker as " : ""}${t.value}`;
        } else {
          text = r === 7 && c === 7 ? "★" : prem === "double" ? "×2" : prem === "triple" ? "×3" : prem === "bis" ? "BIS" : "";
          label += prem ? `, ${prem === "bis" ? "BIS: play again" : `${prem} square`}` : ", empty";
          if (r === 7 && c === 7) label += ", the centre star";
        }
        cell.textContent = text;
        cell.classList.toggle("td-tile", Boolean(placed));
        cell.classList.toggle("td-tentative", Boolean(t));
        cell.classList.toggle("td-joker", Boolean((placed && placed.joker) || (t && t.joker)));
        cell.classList.toggle("td-last", last.has(k));
        cell.classList.toggle("td-cursor", this.cursor[0] === r && this.cursor[1] === c);
        cell.setAttribute("aria-label", label);
      }
    }
    this.grid.setAttribute("aria-label", `Trident board, 15 by 15: ${this.board.size} tiles`
      + (this.tentative.length ? `, ${this.tentative.length} tentative` : ""));
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

  /** The squares of the last play in the log (highlighted). */
  lastSquares() {
    const out = new Set();
    const log = this.view && this.view.log;
    if (!log || !log.length) return out;
    for (const e of log[log.length - 1].events) {
      if (e.kind === "place" && e.data && Array.isArray(e.data.tiles)) {
        for (const t of e.data.tiles) out.add(key(t.row, t.col));
      }
    }
    return out;
  }

  legalKinds() {
    return new Set((this.view && this.view.legal_actions || []).map((a) => a.kind));
  }

  mine() {
    const v = this.view;
    return Boolean(v && v.your_turn && !v.finished && !this.table.replaying);
  }

  renderTray() {
    const used = new Set(this.tentative.map((t) => t.slot));
    const ex = this.exchanging;
    this.el.rack.replaceChildren(...this.rack.map((tile, i) => {
      const joker = tile === "*";
      const b = h("button", {
        type: "button", class: `td-rack-tile${joker ? " td-joker" : ""}${used.has(i) ? " used" : ""}`,
        "data-rack": i, "data-tile": tile,
        "aria-pressed": String(ex ? ex.has(i) : this.selected === i),
        "aria-label": `${joker ? "Joker" : `Tile ${tile}`}${used.has(i) ? ", on the board" : ""}`,
        disabled: used.has(i) && !ex,
        onpointerdown: (ev) => this.dragStart(ev, i),
        onclick: () => this.clickRack(i),
      }, joker ? "★" : tile);
      return b;
    }));
    if (!this.rack.length) this.el.rack.append(h("span", { class: "td-empty" }, "Rack empty"));
    const mine = this.mine();
    const kinds = this.legalKinds();
    const busy = this.table.busy;
    this.el.submit.disabled = !mine || busy || !this.tentative.length || Boolean(ex);
    this.el.clear.disabled = !this.tentative.length && !ex && this.selected === null;
    this.el.exchange.hidden = !kinds.has("exchange") && !ex;
    this.el.exchange.disabled = !mine || busy || (ex && ex.size === 0);
    this.el.exchange.textContent = ex ? `Exchange ${ex.size || ""}`.trim() : "Exchange…";
    this.el.exchange.classList.toggle("primary", Boolean(ex));
    this.el.pass.hidden = !kinds.has("pass");
    this.el.pass.disabled = !mine || busy;
    this.el.input.disabled = !mine;
    const v = this.view;
    let hint = "";
    if (v.finished) hint = "";
    else if (ex) hint = "Choose 1 to 3 tiles to return to the bag, then Exchange (Clear to cancel).";
    else if (mine) {
      hint = this.tentative.length
        ? "Submit the play, or add tiles in the same line; Backspace takes one back."
        : "Your turn: drag a tile to a square, or select it and press Enter on a square (arrows move).";
    } else {
      const p = v.players[v.to_move];
      hint = p ? `${p.kind === "human" ? p.name : `${p.name} (computer)`} plays now.` : "";
    }
    this.table.hint(hint);
    document.body.dataset.tentative = playNotation(this.tentative);
  }

  // --- the clock ------------------------------------------------------------------------------
  tick() {
    const v = this.view;
    const clock = this.el.clock;
    if (!v || !v.deadline || v.finished) { clock.hidden = true; return; }
    const left = Math.max(0, Math.round((Date.parse(v.deadline) - Date.now()) / 1000));
    const m = Math.floor(left / 60), s = left % 60;
    const who = v.your_turn ? "Your turn" : (v.players[v.to_move] || {}).name || "Turn";
    clock.hidden = false;
    clock.textContent = `${who}: ${m}:${String(s).padStart(2, "0")} left`;
    clock.classList.toggle("urgent", left <= 10);
    clock.dataset.seconds = String(left);
  }

  // --- placing ----------------------------------------------------------------------------------
  clickRack(i) {
    if (this.drag && this.drag.moved) return;
    if (this.exchanging) {
      if (this.exchanging.has(i)) this.exchanging.delete(i); else this.exchanging.add(i);
    } else {
      this.selected = this.selected === i ? null : i;
      if (this.selected !== null) this.table.announce(`Tile ${this.rack[i]} selected: choose a square.`);
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
      const chosen = await this.askJoker(r, c);
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

  askJoker(r, c) {
    const grid = h("div", { class: "td-joker-values", role: "group", "aria-label": "The joker's value" });
    const dialog = openDialog({
      title: `The joker at ${r}:${c} counts as…`,
      className: "td-joker-dialog",
      body: grid,
      actions: [{ label: "Cancel", value: null }],
      onOpen: (dlg, close) => {
        for (let v = 0; v <= 15; v += 1) {
          grid.append(h("button", { type: "button", class: "td-joker-value", "data-joker-value": v,
            onclick: () => close(v) }, String(v)));
        }
        grid.firstChild.focus();
      },
    });
    return dialog.then((v) => (v === null || v === "null" ? null : Number(v)));
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
    this.schedulePreview();
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
      d.ghost = h("div", { class: "td-ghost", "aria-hidden": "true" }, this.rack[d.slot] === "*" ? "★" : this.rack[d.slot]);
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
      this.hidePreview();
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

  // --- the preview ------------------------------------------------------------------------------
  schedulePreview() {
    clearTimeout(this.previewTimer);
    if (!this.tentative.length || !this.view || !this.view.game.preview || !this.mine()) {
      this.hidePreview();
      return;
    }
    this.previewSeq += 1;              // an answer still on its way is for other tiles
    this.el.preview.classList.add("stale");
    document.body.dataset.preview = "pending";
    this.previewTimer = setTimeout(() => this.fetchPreview(), 120);
  }

  hidePreview() {
    this.previewSeq += 1;
    this.el.preview.hidden = true;
    this.el.preview.replaceChildren();
    delete document.body.dataset.preview;
  }

  async fetchPreview() {
    const seq = ++this.previewSeq;
    const notation = playNotation(this.tentative);
    const token = this.table.tokens && this.table.tokens.get(this.table.identity);
    let data;
    try {
      data = await previewCall(this.table.matchId, token, notation, this.view.move);
    } catch {
      if (seq === this.previewSeq) this.hidePreview();
      return;
    }
    if (seq !== this.previewSeq || !data || !data.preview) return;
    const p = data.preview;
    const box = this.el.preview;
    box.hidden = false;
    if (!p.legal) {
      box.className = "td-preview illegal";
      box.replaceChildren(h("strong", {}, "Not legal: "), h("span", { class: "td-preview-reason" }, p.reason || ""));
      document.body.dataset.preview = "illegal";
      return;
    }
    box.className = "td-preview";
    box.replaceChildren(
      h("strong", { class: "td-preview-total" }, `This play scores ${p.points}`),
      h("ul", {}, ...p.items.map((it) => h("li", { "data-kind": it.kind }, it.label))),
      p.bis ? h("p", { class: "td-preview-bis" }, "BIS: you play again.") : "");
    document.body.dataset.preview = String(p.points);
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
      ["1 2 3", "select a rack tile"],
      ["Arrows", "move the cursor on the board"],
      ["Enter", "place the selected tile at the cursor"],
      ["Backspace", "take a tentative tile back"],
      ["S", "submit the play"],
      ["Escape", "clear the tentative tiles"],
    ];
  }

  onLogEntry(entry) {
    for (const e of entry.events) {
      // The bag is announced in the feed after every draw from ten tiles; in big letters once.
      if (e.kind === "bag" && !this.bagToasted) { this.bagToasted = true; this.table.toast(e.label); }
      if (e.data && e.data.line === "triton") { this.table.toast(e.label); this.table.sound.chime(); }
    }
  }
}
