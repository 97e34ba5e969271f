// The view of Triangles: the star field scaled to the window, lines drawn by tapping one star
// and then another, by dragging from star to star (pointer events: mouse, pen and touch), or
// with the keyboard (type a star's number or move between stars with the arrow keys, Enter
// picks). A picked star shows the stars it may still be joined to (from the server's legal
// actions) and which of those lines would close a triangle (triangles-legal.js). The intent
// is sent as it is; a refused line flashes in red with the reason of the refusal's message
// code ("crosses a line", "passes through a star", "already drawn"). Everything else at the
// table is table.js's; this module follows the interface of docs/web.md, "Adding a game's UI".
// Triangles' entry (games/triangles.js) imports it only when a table of Triangles opens.
import { t, tc, tn } from "../i18n.js";
import { prefs } from "../store.js";
import { applyStarTheme } from "../themes.js";
import { h } from "../ui.js";
import {
  el, fitBoard, lineShape, minSpacing, newPrefix, playerDefs, refusedShape, starRadius, starShape,
  triangleShape,
} from "./starfield.js";
import { closingShapes, partnersOf, reasonText } from "./triangles-legal.js";
import { keyRows, onKey } from "./triangles-keys.js";

const FLASH_MS = 2800;

let cssLinked = false;
/** Triangles' own styles (css/triangles.css: the picked star's partners and closing lines). */
function linkCss() {
  if (cssLinked || document.querySelector("link[data-triangles-css]")) return;
  cssLinked = true;
  document.head.append(h("link", { rel: "stylesheet", href: "/css/triangles.css", "data-triangles-css": "" }));
}

export function createView(table, host) {
  linkCss();
  return new TrianglesView(table, host);
}

/** The short phrase a refused line flashes with ("crosses a line"), from the refusal's
 * message code (the server's `reason`); "refused" for any other. */
export function reasonOf(reason) {
  return reasonText(reason && reason.code);
}

/** A line parameter, notation "c-d", as its two stars, or null. */
function starsOf(line) {
  const parts = String(line || "").split("-");
  if (parts.length !== 2) return null;
  const stars = parts.map(Number);
  return stars.every(Number.isInteger) ? stars : null;
}

class TrianglesView {
  constructor(table, host) {
    this.table = table;
    this.view = null;
    this.obs = null;
    this.pos = [];             // each star's position in the field, in pixels
    this.selected = null;      // the first star picked
    this.hover = null;
    this.press = null;         // a pointer held down
    this.pending = null;       // a line sent, until the view shows it: {a, b, move}
    this.typed = "";           // digits typed so far
    this.focusStar = 0;        // the star that takes the focus (roving tabindex)
    this.partners = new Map(); // the picked star's legal partners -> the triangles each closes
    this.animatedMove = -1;
    this.prefix = newPrefix();
    this.build(host);
    this.onPrefs(prefs());
  }

  // --- the field and the tray -------------------------------------------------------------------
  build(host) {
    const svg = el("svg", { class: "starfield", role: "group", "aria-label": t("Star field") });
    this.svg = svg;
    this.layers = {};
    svg.append(playerDefs(this.prefix));
    for (const name of ["frame", "triangles", "lines", "options", "pending", "hint", "flash", "preview", "stars"]) {
      this.layers[name] = el("g", { class: `sf-layer-${name}` });
      svg.append(this.layers[name]);
    }
    host.board.append(svg);
    host.board.classList.add("starfield-host");

    svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    svg.addEventListener("pointercancel", (e) => this.pointerUp(e));
    svg.addEventListener("pointerleave", () => { if (!this.press) { this.setHover(null); this.drawPreview(null); } });
    svg.addEventListener("focusin", (e) => {
      const star = e.target.closest && e.target.closest("[data-star]");
      if (star) this.roving(Number(star.dataset.star));
    });

    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(svg);

    // The tray: both players' counters (colour, line and hatching: a legend too), the star
    // picked, a line typed as two numbers, and Cancel.
    const el_ = {};
    this.el = el_;
    el_.chips = h("div", { class: "tri-chips", role: "group", "aria-label": t("Triangles closed") });
    el_.picked = h("p", { class: "tri-picked", "aria-live": "polite" });
    el_.input = h("input", { type: "text", id: "line-input", name: "line", inputmode: "numeric",
      autocomplete: "off", placeholder: "3-17", size: 7, "aria-describedby": "line-input-help" });
    el_.drawButton = h("button", { type: "submit", class: "primary", "data-action": "draw-line" }, tc("line", "Draw"));
    el_.cancel = h("button", { type: "button", "data-action": "cancel-star", disabled: true,
      title: t("Let go of the star picked (Escape)"), onclick: () => this.select(null, { announce: true }) },
    t("Cancel"));
    const form = h("form", { class: "line-form", onsubmit: (e) => { e.preventDefault(); this.typedLine(); } },
      h("label", { for: "line-input" }, t("Line")), el_.input, el_.drawButton,
      h("span", { class: "sr-only", id: "line-input-help" }, t("Two star numbers, like 3-17, then Enter")));
    host.tray.append(
      h("div", { class: "tri-status" }, el_.chips, el_.picked),
      h("div", { class: "tri-controls" }, form, el_.cancel));
  }

  onPrefs(p) {
    applyStarTheme(this.table.section, p.starTheme);
    this.svg.classList.toggle("no-numbers", !p.starNumbers);
  }

  destroy() {
    this.resizeObserver.disconnect();
    clearTimeout(this.flashTimer);
    clearTimeout(this.typeTimer);
  }

  lock() {
    this.select(null);
  }

  // --- views ----------------------------------------------------------------------------------
  render(view) {
    this.view = view;
    const obs = view.observation;
    const fresh = !this.obs || this.obs.stars.length !== obs.stars.length
      || this.obs.stars.some((p, i) => p[0] !== obs.stars[i][0] || p[1] !== obs.stars[i][1]);
    this.obs = obs;
    if (this.pending && view.move > this.pending.move) this.pending = null;
    if (fresh) this.makeStars();
    else this.draw();
    const seated = view.seat !== null && view.seat !== undefined;
    document.body.dataset.lines = String(obs.lines.length);
    document.body.dataset.triangles = String(obs.triangles.length);
    if (seated) this.renderTray(view);
  }

  /** The seat whose colour a line drawn now takes. */
  player() {
    const v = this.view;
    if (!v) return 0;
    return v.seat !== null && v.seat !== undefined ? v.seat : v.to_move ?? 0;
  }

  renderTray(view) {
    const names = this.table.names(view);
    this.el.chips.replaceChildren(...view.players.map((p, i) => h("div", {
      class: `tri-chip${view.to_move === i ? " to-move" : ""}`, "data-seat": i,
      "aria-current": view.to_move === i ? "true" : null,
    }, this.seatMark(i), h("span", { class: "tri-chip-name" }, names[i]),
    h("strong", { class: "tri-chip-score" }, String(view.scores[i])),
    view.to_move === i ? h("span", { class: "tri-chip-turn" }, t("to play")) : null)));
    const mine = view.your_turn && !view.finished;
    this.el.input.disabled = !mine;
    this.el.drawButton.disabled = !mine || this.table.busy;
    this.el.cancel.disabled = this.selected === null;
    // Short, so that picking a star never changes the tray's height (nor moves the stars).
    this.el.picked.textContent = this.selected === null ? ""
      : t("Star {star} picked: now the second star.", { star: this.selected });
    let hint = "";
    if (view.finished) hint = "";
    else if (mine) {
      hint = this.selected === null
        ? t("Your turn: tap a star, then another (or drag from star to star). Keys: type a star's number, Enter.")
        : this.pickedText(this.selected);
    } else {
      const p = view.players[view.to_move];
      if (p) hint = t("{name} draws now.", { name: this.table.names(view)[view.to_move] });
    }
    this.table.hint(hint);
  }

  /** What the hint says of a picked star: how many stars it may be joined to, and how many of
   * those lines close a triangle (when the server sent the legal lines). */
  pickedText(star) {
    if (!this.legalKnown()) return t("Star {star} picked: tap, or type and Enter, the star to join it to.", { star });
    const n = this.partners.size;
    if (!n) return t("No line can be drawn from star {star} any more: pick another star.", { star });
    const closing = [...this.partners.values()].filter((c) => c.length).length;
    const first = tn("Star {star} picked: it can be joined to {n} star.",
      "Star {star} picked: it can be joined to {n} stars.", n, { star });
    if (!closing) return `${first} ${t("None of these lines closes a triangle.")}`;
    return `${first} ${tn("{n} of these lines closes a triangle.", "{n} of these lines close a triangle.", closing)}`;
  }

  /** Whether the view holds the seat's legal lines (its turn, and a game still on). */
  legalKnown() {
    const v = this.view;
    return Boolean(v && v.your_turn && !v.finished && (v.legal_actions || []).length);
  }

  // --- geometry ---------------------------------------------------------------------------------
  layout() {
    if (!this.obs) return;
    const r = this.svg.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return;
    this.size = [r.width, r.height];
    this.fit = fitBoard(this.obs.width, this.obs.height, r.width, r.height);
    this.pos = this.obs.stars.map(this.fit.project);
    this.spacing = minSpacing(this.pos);
    this.radius = starRadius(this.spacing);
    this.hitRadius = Math.max(14, Math.min(30, this.spacing * 0.5));
    this.svg.classList.toggle("dense", this.spacing < 30);
    this.svg.dataset.rotated = String(this.fit.rotated);
    this.placeStars();
    this.draw();
  }

  /** The star under a screen point (within the hit radius), or null. */
  starAt(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const x = clientX - r.left, y = clientY - r.top;
    let best = null, bestD = Infinity;
    this.pos.forEach(([px, py], i) => {
      const d = Math.hypot(px - x, py - y);
      if (d < bestD) { bestD = d; best = i; }
    });
    return bestD <= this.hitRadius ? best : null;
  }

  local(e) {
    const r = this.svg.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  // --- drawing ----------------------------------------------------------------------------------
  makeStars() {
    const n = this.obs.stars.length;
    this.focusStar = Math.min(this.focusStar, n - 1);
    this.starEls = this.obs.stars.map((_, i) => {
      const g = el("g", { class: "sf-star", "data-star": i, role: "button",
        tabindex: i === this.focusStar ? "0" : "-1" });
      return g;
    });
    this.layers.stars.replaceChildren(...this.starEls);
    this.layout();
  }

  placeStars() {
    const r = this.radius;
    this.starEls.forEach((g, i) => {
      const shape = starShape(this.pos[i], String(i), r, {}, this.prefix);
      g.replaceChildren(...shape.childNodes);
    });
    this.updateStarStates();
  }

  updateStarStates() {
    if (!this.starEls || !this.obs) return;
    const degree = new Array(this.obs.stars.length).fill(0);
    for (const l of this.obs.lines) { degree[l.a] += 1; degree[l.b] += 1; }
    const from = this.selectedFrom();
    const partners = from === null ? new Map() : this.partners;
    this.svg.classList.toggle("picking", from !== null && this.legalKnown());
    this.starEls.forEach((g, i) => {
      const thirds = partners.get(i);
      g.classList.toggle("selected", i === this.selected);
      g.classList.toggle("hover", i === this.hover);
      g.classList.toggle("partner", thirds !== undefined);
      g.classList.toggle("closer", Boolean(thirds && thirds.length));
      g.setAttribute("aria-label", this.starLabel(i, degree[i], thirds));
      g.setAttribute("aria-pressed", i === this.selected ? "true" : "false");
    });
    document.body.dataset.selectedStar = this.selected === null ? "" : String(this.selected);
  }

  /** A star's name for screen readers: its number, its lines, and what it is to the picked star. */
  starLabel(star, n, thirds) {
    if (star === this.selected) return tn("Star {star}, picked, {n} line", "Star {star}, picked, {n} lines", n, { star });
    if (thirds && thirds.length) {
      return tn("Star {star}, {n} line: joining it to the picked star closes a triangle",
        "Star {star}, {n} lines: joining it to the picked star closes a triangle", n, { star });
    }
    if (thirds) {
      return tn("Star {star}, {n} line: it can be joined to the picked star",
        "Star {star}, {n} lines: it can be joined to the picked star", n, { star });
    }
    return tn("Star {star}, {n} line", "Star {star}, {n} lines", n, { star });
  }

  /** The picked star's legal partners, again (a new view, a new pick or a drag). */
  findPartners() {
    const from = this.selectedFrom();
    this.partners = from !== null && this.legalKnown()
      ? partnersOf(this.obs, this.view.legal_actions, from) : new Map();
    this.drawOptions();
  }

  /** The lines from the picked star that would close a triangle, with those triangles. */
  drawOptions() {
    const from = this.selectedFrom();
    if (!this.layers || from === null || !this.pos.length) {
      if (this.layers) this.layers.options.replaceChildren();
      return;
    }
    this.layers.options.replaceChildren(...closingShapes(this.pos, from, this.partners, this.player()));
  }

  draw() {
    if (!this.fit || !this.obs) return;
    const obs = this.obs, pos = this.pos, view = this.view;
    const [ox, oy, dw, dh] = this.fit.box;
    this.layers.frame.replaceChildren(el("rect", { x: ox.toFixed(1), y: oy.toFixed(1), width: dw.toFixed(1),
      height: dh.toFixed(1), rx: 14, class: "sf-frame" }));
    // What the last move did: its line glows, its triangles pulse once.
    const last = view && view.log && view.log.length ? view.log[view.log.length - 1] : null;
    const freshTris = new Set();
    if (last && view.move !== this.animatedMove) {
      for (const e of last.events) {
        const stars = e.code === "triangle" && e.params ? e.params.stars : null;
        if (Array.isArray(stars)) freshTris.add([...stars].sort((a, b) => a - b).join(","));
      }
      this.animatedMove = view.move;
    }
    this.layers.triangles.replaceChildren(...obs.triangles.map((tri) => {
      const k = [...tri.stars].sort((a, b) => a - b).join(",");
      const g = triangleShape(tri.stars.map((s) => pos[s]), tri.player, this.prefix, freshTris.has(k) ? "fresh" : "");
      g.dataset.triangle = k;
      return g;
    }));
    const lines = obs.lines.map((l, i) => {
      const line = lineShape(pos[l.a], pos[l.b], l.player, i === obs.lines.length - 1 ? "recent" : "");
      line.dataset.line = `${Math.min(l.a, l.b)}-${Math.max(l.a, l.b)}`;
      return line;
    });
    // The last line drawn: a soft band of its player's colour under it.
    const latest = obs.lines[obs.lines.length - 1];
    const halo = latest ? [lineShape(pos[latest.a], pos[latest.b], latest.player, "halo")] : [];
    this.layers.lines.replaceChildren(...halo, ...lines);
    this.layers.pending.replaceChildren(...(this.pending
      ? [lineShape(pos[this.pending.a], pos[this.pending.b], this.player(), "pending")] : []));
    this.svg.setAttribute("aria-label", t("Star field: {stars}, {lines}, {triangles}", {
      stars: tn("{n} star", "{n} stars", obs.stars.length),
      lines: tn("{n} line", "{n} lines", obs.lines.length),
      triangles: tn("{n} triangle closed", "{n} triangles closed", obs.triangles.length),
    }));
    this.drawHint();
    this.findPartners();
    this.updateStarStates();
    if (this.flash) this.drawFlash();
  }

  /** The veteran's line (a hint, or a reviewed replay step), drawn dashed with both stars
   * ringed; null clears it. */
  showHint(action) {
    const f = action && action.kind === "line" && action.fields ? action.fields : null;
    this.hintLine = f ? [f.a, f.b] : null;
    this.drawHint();
  }

  drawHint() {
    const line = this.hintLine;
    const pos = this.pos;
    if (!line || !pos[line[0]] || !pos[line[1]]) {
      this.layers.hint.replaceChildren();
      return;
    }
    const [a, b] = line;
    const shape = lineShape(pos[a], pos[b], this.player(), "hint");
    shape.dataset.hint = `${Math.min(a, b)}-${Math.max(a, b)}`;
    const ring = (p) => el("circle", { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 13, class: "sf-hint-ring" });
    this.layers.hint.replaceChildren(shape, ring(pos[a]), ring(pos[b]));
  }

  drawPreview(to) {
    if (to === null || this.selectedFrom() === null) {
      this.layers.preview.replaceChildren();
      return;
    }
    const from = this.pos[this.selectedFrom()];
    const end = typeof to === "number" ? this.pos[to] : to;
    this.layers.preview.replaceChildren(lineShape(from, end, this.player(), "preview"));
  }

  /** The star a line would start from: the one pressed while dragging, else the one picked. */
  selectedFrom() {
    if (this.press && this.press.moved && this.press.star !== null) return this.press.star;
    return this.selected;
  }

  setHover(star) {
    if (star === this.hover) return;
    this.hover = star;
    this.updateStarStates();
  }

  /** Flash a refused line with its reason, and what it collides with (from the refusal's
   * message code and parameters: the line it would cross, the star it passes). */
  flashRefused(a, b, refusal) {
    const params = (refusal && refusal.params) || {};
    const code = refusal && refusal.code;
    this.flash = { a, b, reason: reasonOf(refusal), code: code || "refused",
      cross: code === "refused.crosses" ? starsOf(params.other) : null,
      star: code === "refused.passes_star" && Number.isInteger(params.star) ? params.star : null };
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => { this.flash = null; this.layers.flash.replaceChildren(); }, FLASH_MS);
    this.drawFlash();
  }

  drawFlash() {
    const f = this.flash;
    if (!f || !this.pos[f.a] || !this.pos[f.b]) return;
    const parts = [];
    if (f.cross) {
      parts.push(el("line", { x1: this.pos[f.cross[0]][0], y1: this.pos[f.cross[0]][1],
        x2: this.pos[f.cross[1]][0], y2: this.pos[f.cross[1]][1], class: "sf-culprit" }));
    }
    if (f.star !== null && this.pos[f.star]) {
      parts.push(el("circle", { cx: this.pos[f.star][0], cy: this.pos[f.star][1], r: this.radius + 7, class: "sf-culprit-star" }));
    }
    const g = refusedShape(this.pos[f.a], this.pos[f.b], f.reason);
    g.dataset.refused = `${Math.min(f.a, f.b)}-${Math.max(f.a, f.b)}`;
    g.dataset.reason = f.reason;
    g.dataset.code = f.code;
    parts.push(g);
    this.layers.flash.replaceChildren(...parts);
  }

  // --- picking stars ------------------------------------------------------------------------------
  canPlay() {
    const v = this.view;
    return Boolean(v && v.seat !== null && v.seat !== undefined && !v.finished && !this.table.replaying);
  }

  select(star, { announce = false } = {}) {
    this.selected = star;
    this.drawPreview(null);
    this.findPartners();
    this.updateStarStates();
    if (this.view && this.view.seat !== null) this.renderTray(this.view);
    if (announce) this.table.announce(star === null ? t("No star picked.") : this.pickedText(star));
  }

  /** A star tapped, clicked or picked with Enter. */
  pick(star) {
    if (!this.canPlay()) return;
    if (this.selected === null) this.select(star, { announce: true });
    else if (this.selected === star) this.select(null, { announce: true });
    else this.tryLine(this.selected, star);
  }

  /** Send the line a-b (the server judges it); a refusal flashes with its reason. */
  async tryLine(a, b) {
    this.select(null);
    const view = this.view;
    if (!this.canPlay()) return;
    if (!view.your_turn) {
      const p = view.players[view.to_move];
      this.table.hint(p ? t("Not your turn: {name} draws now.", { name: this.table.names(view)[view.to_move] })
        : t("Not your turn: the other player draws now."));
      return;
    }
    const [lo, hi] = a < b ? [a, b] : [b, a];
    this.pending = { a, b, move: view.move };
    this.flash = null;
    this.layers.flash.replaceChildren();
    this.draw();
    const answer = await this.table.send(`${lo}-${hi}`);
    if (!answer || answer.type === "error") {
      this.pending = null;
      this.draw();
      if (answer) this.flashRefused(a, b, answer.reason);
    }
  }

  typedLine() {
    const text = this.el.input.value;
    const m = /^\s*(\d+)\s*[-–,\s]\s*(\d+)\s*$/.exec(text);
    if (!m) {
      this.table.refuse(t("write a line as two star numbers, like 3-17 (not \"{text}\")", { text: text.trim() }));
      return;
    }
    const [a, b] = [Number(m[1]), Number(m[2])];
    this.el.input.value = "";
    if (this.obs && (a >= this.obs.stars.length || b >= this.obs.stars.length)) {
      // The server would say the same; the flash needs both stars on the field.
      this.table.send(`${a}-${b}`);
      return;
    }
    this.tryLine(a, b);
  }

  // --- pointer: tap a star then another, or drag from star to star -----------------------------------
  pointerDown(e) {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    if (!this.canPlay()) return;
    const star = this.starAt(e.clientX, e.clientY);
    try { this.svg.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer */ }
    this.press = { id: e.pointerId, star, x: e.clientX, y: e.clientY, moved: false, before: this.selected };
    if (star !== null && this.selected === null) this.select(star);
    if (star !== null) e.preventDefault();
  }

  pointerMove(e) {
    if (!this.canPlay()) return;
    const star = this.starAt(e.clientX, e.clientY);
    this.setHover(star);
    const press = this.press;
    if (press && press.id === e.pointerId) {
      if (!press.moved && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 8) {
        press.moved = true;
        this.findPartners();        // a drag starts from the star pressed
        this.updateStarStates();
      }
      if (press.moved && press.star !== null) this.drawPreview(star !== null && star !== press.star ? star : this.local(e));
    } else if (this.selected !== null && e.pointerType === "mouse") {
      this.drawPreview(star !== null && star !== this.selected ? star : this.local(e));
    }
  }

  pointerUp(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    this.press = null;
    if (e.type === "pointercancel") { this.select(press.before); return; }
    const star = this.starAt(e.clientX, e.clientY);
    if (press.moved && press.star !== null) {
      if (star !== null && star !== press.star) this.tryLine(press.star, star);
      else if (star === press.star) this.select(press.star);
      else this.select(null);
      return;
    }
    // A tap (or a click).
    if (press.star === null) { if (!press.moved) this.select(null); return; }
    if (press.before === null) { this.select(press.star, { announce: true }); return; }
    if (press.before === press.star) { this.select(null, { announce: true }); return; }
    this.tryLine(press.before, press.star);
  }

  // --- keyboard -----------------------------------------------------------------------------------
  roving(i) {
    if (!this.starEls || !this.starEls[i]) return;
    if (this.starEls[this.focusStar]) this.starEls[this.focusStar].setAttribute("tabindex", "-1");
    this.focusStar = i;
    this.starEls[i].setAttribute("tabindex", "0");
  }

  focusOn(i) {
    this.roving(i);
    this.starEls[i].focus({ preventScroll: true });
    this.setHover(i);
    if (this.selected !== null && i !== this.selected) this.drawPreview(i);
  }

  onKey(e) {
    return onKey(this, e);
  }

  keyRows() {
    return keyRows();
  }

  // --- the table's other hooks ---------------------------------------------------------------------
  /** A swatch before a player's name: their colour, line style and hatching. */
  seatMark(seat) {
    const s = el("svg", { viewBox: "0 0 30 16", class: "seat-mark", "aria-hidden": "true" }, [
      triangleShape([[17, 14], [29, 14], [23, 3]], seat, this.prefix),
      lineShape([2, 13], [15, 3], seat),
    ]);
    return s;
  }

  /** A line's click, and a toast for two triangles at once and for playing again (from the
   * events' message codes). */
  onLogEntry(entry, { names }) {
    if (!entry.events.some((e) => e.code === "line")) return;
    this.table.sound.click();
    const scored = entry.events.filter((e) => e.code === "triangle").length;
    const who = names[entry.player] ?? "";
    if (scored >= 2) {
      this.table.toast(t("{who}: two triangles at once!", { who }));
      this.table.sound.chime();
    }
    if (entry.events.some((e) => e.code === "again")) this.table.toast(t("{who} plays again", { who }));
  }
}
