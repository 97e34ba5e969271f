// The SVG board of the tile games: tiles, the cells where the selected tile fits ("slots"),
// a placement preview, and panning (drag, arrow keys) and zooming (wheel, buttons, keys).
// It knows nothing of the game's rules: the match page tells it what to show.
import { svg, tileGroup, cellPolygon } from "./svg.js";
import { Board, H, key, cellAt, cellPoints } from "./trigrid.js";
import { t, tn } from "./i18n.js";

const MIN_SCALE = 14;   // pixels per edge
const MAX_SCALE = 160;
/** The largest edge a fit gives (pixels): one to three tiles are not drawn giant. */
const FIT_MAX_SCALE = 64;
/** The margin a fit keeps around the tiles and their places, as a share of the smaller side. */
const FIT_MARGIN = 0.07;

export class BoardView {
  /**
   * @param {HTMLElement} host
   * @param {{onCellClick?: (cell, point) => void, label?: string}} options
   */
  constructor(host, { onCellClick = null, label = t("Game board") } = {}) {
    this.host = host;
    this.onCellClick = onCellClick;
    this.scale = 56;
    this.tx = 0;
    this.ty = 0;
    this.fitted = false;
    /** The player zoomed or panned: the view stays theirs until Fit (the key 0). */
    this.userView = false;
    this.board = new Board();
    this.placements = [];
    this.dragging = null;

    this.root = svg("svg", {
      class: "board", role: "img", "aria-label": label, tabindex: "0",
    });
    this.world = svg("g", { class: "world" });
    this.world.append(svg("path", { class: "lattice", d: latticePath(48) }));
    this.layers = {};
    for (const name of ["frontier", "tiles", "marks", "slots", "preview", "hint"]) {
      this.layers[name] = svg("g", { class: `layer-${name}` });
      this.world.append(this.layers[name]);
    }
    this.root.append(this.world);
    host.append(this.root);

    this.installPointer();
    this.resizeObserver = new ResizeObserver(() => this.resized());
    this.resizeObserver.observe(this.root);
  }

  // --- the view transform ---------------------------------------------------------------------
  apply() {
    this.world.setAttribute("transform",
      `translate(${this.tx.toFixed(2)} ${this.ty.toFixed(2)}) scale(${this.scale.toFixed(3)})`);
    this.root.style.setProperty("--px", String(1 / this.scale));
    this.root.dataset.scale = this.scale.toFixed(2);
    this.root.dataset.view = this.userView ? "user" : "fit";
  }

  /** The player's own zoom or pan: kept until fit() is asked for. */
  userMoved() {
    this.userView = true;
  }

  size() {
    const r = this.root.getBoundingClientRect();
    return [r.width || 1, r.height || 1];
  }

  resized() {
    const [w, h] = this.size();
    if (this.lastSize) {
      this.tx += (w - this.lastSize[0]) / 2;
      this.ty += (h - this.lastSize[1]) / 2;
    }
    this.lastSize = [w, h];
    if ((!this.fitted || !this.userView) && w > 1) this.fit();
    else this.apply();
  }

  /** Board units of a point on the screen. */
  toBoard(clientX, clientY) {
    const r = this.root.getBoundingClientRect();
    return [(clientX - r.left - this.tx) / this.scale, (clientY - r.top - this.ty) / this.scale];
  }

  /** Screen point (client coordinates) of a point in board units. */
  toScreen(bx, by) {
    const r = this.root.getBoundingClientRect();
    return [r.left + this.tx + bx * this.scale, r.top + this.ty + by * this.scale];
  }

  contains(clientX, clientY) {
    const r = this.root.getBoundingClientRect();
    return clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom;
  }

  pan(dx, dy) {
    this.tx += dx;
    this.ty += dy;
    this.apply();
  }

  zoomBy(factor, clientX, clientY) {
    const r = this.root.getBoundingClientRect();
    const cx = clientX === undefined ? r.width / 2 : clientX - r.left;
    const cy = clientY === undefined ? r.height / 2 : clientY - r.top;
    const next = Math.max(MIN_SCALE, Math.min(MAX_SCALE, this.scale * factor));
    const f = next / this.scale;
    this.tx = cx - (cx - this.tx) * f;
    this.ty = cy - (cy - this.ty) * f;
    this.scale = next;
    this.apply();
  }

  /** Show every tile and the cells next to them (the places a tile may go), centred with a
   * margin, at most FIT_MAX_SCALE; the view is the board's own again (it follows the game). */
  fit() {
    const [w, h] = this.size();
    if (w <= 1 || h <= 1) return;
    const [x0, y0, x1, y1] = this.board.extent();
    const margin = Math.max(16, Math.min(w, h) * FIT_MARGIN);
    const bw = Math.max(x1 - x0, 3), bh = Math.max(y1 - y0, 2.2);
    const room = Math.min((w - 2 * margin) / bw, (h - 2 * margin) / bh);
    this.scale = Math.max(MIN_SCALE, Math.min(FIT_MAX_SCALE, room));
    this.userView = false;
    this.tx = w / 2 - ((x0 + x1) / 2) * this.scale;
    this.ty = h / 2 - ((y0 + y1) / 2) * this.scale;
    this.fitted = true;
    this.apply();
  }

  /** Pan (never zoom) so that `cell` is on screen. */
  reveal(cell) {
    const [w, h] = this.size();
    const margin = Math.min(60, w / 6, h / 6);
    let dx = 0, dy = 0;
    for (const [bx, by] of cellPoints(cell)) {
      const sx = this.tx + bx * this.scale, sy = this.ty + by * this.scale;
      if (sx < margin) dx = Math.max(dx, margin - sx);
      if (sx > w - margin) dx = Math.min(dx, w - margin - sx);
      if (sy < margin) dy = Math.max(dy, margin - sy);
      if (sy > h - margin) dy = Math.min(dy, h - margin - sy);
    }
    if (dx || dy) this.pan(dx, dy);
  }

  // --- contents -------------------------------------------------------------------------------
  /**
   * @param {Array<{cell, corners, tile}>} placements  this round's tiles, in order
   * @param {Set<string>} recent  keys of cells placed since the viewer's last look
   */
  setPlacements(placements, recent = new Set()) {
    const newRound = placements.length < this.placements.length;
    this.placements = placements;
    this.board = new Board(placements);
    const tiles = this.layers.tiles;
    tiles.replaceChildren(...placements.map((p) => tileGroup(p.cell, p.corners, {
      tile: p.tile, cls: recent.has(key(p.cell)) ? "recent" : "",
    })));
    this.layers.frontier.replaceChildren(...this.board.frontier().map(
      (cell) => cellPolygon(cell, { class: "frontier" }, 0.9)));
    this.root.setAttribute("aria-label",
      tn("Game board: {n} tile", "Game board: {n} tiles", placements.length));
    if (newRound || !this.fitted || !this.userView) this.fit();
    else for (const p of placements) if (recent.has(key(p.cell))) this.reveal(p.cell);
  }

  /** Highlight `cells`; `focusable` slots are buttons (keyboard placement). */
  setSlots(cells, { focusable = false, label = () => "" } = {}) {
    this.layers.slots.replaceChildren(...cells.map((cell) => {
      const poly = cellPolygon(cell, {
        class: `slot${focusable ? "" : " plan"}`, "data-slot": key(cell),
        tabindex: focusable ? "0" : null, role: focusable ? "button" : null,
        "aria-label": focusable ? label(cell) : null,
      }, 0.86);
      return poly;
    }));
  }

  slotElement(cell) {
    return this.layers.slots.querySelector(`[data-slot="${key(cell)}"]`);
  }

  /** A tile drawn where it would go; `ok` false draws it as refused. */
  setPreview(cell, corners, ok, tile) {
    if (!cell) {
      this.layers.preview.replaceChildren();
      return;
    }
    const g = tileGroup(cell, corners, { cls: `preview ${ok ? "ok" : "bad"}` });
    g.removeAttribute("data-tile");
    g.setAttribute("data-preview", tile || "");
    this.layers.preview.replaceChildren(g);
  }

  /** The veteran's suggested placement: the tile drawn faintly at its place, outlined in
   * dashes (null removes it). */
  setHint(cell, corners, tile) {
    if (!cell) {
      this.layers.hint.replaceChildren();
      return;
    }
    const g = tileGroup(cell, corners, { cls: "hint-tile" });
    g.removeAttribute("data-tile");
    g.setAttribute("data-hint-tile", tile || "");
    g.append(cellPolygon(cell, { class: "hint-outline" }, 1.06));
    this.layers.hint.replaceChildren(g);
  }

  /** Marks for special plays: a ring around a hexagon's centre, say. */
  flashCells(cells, cls = "flash") {
    const marks = cells.map((cell) => cellPolygon(cell, { class: cls }, 0.98));
    this.layers.marks.append(...marks);
    setTimeout(() => marks.forEach((m) => m.remove()), 2400);
  }

  // --- pointer: drag to pan, click a cell, wheel to zoom ------------------------------------------
  installPointer() {
    const root = this.root;
    root.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 && e.pointerType === "mouse") return;
      this.dragging = { id: e.pointerId, x: e.clientX, y: e.clientY, moved: false };
      root.setPointerCapture(e.pointerId);
    });
    root.addEventListener("pointermove", (e) => {
      const d = this.dragging;
      if (!d || d.id !== e.pointerId) return;
      const dx = e.clientX - d.x, dy = e.clientY - d.y;
      if (!d.moved && Math.hypot(dx, dy) < 5) return;
      d.moved = true;
      this.userMoved();
      root.classList.add("panning");
      this.pan(dx, dy);
      d.x = e.clientX;
      d.y = e.clientY;
    });
    const end = (e) => {
      const d = this.dragging;
      if (!d || d.id !== e.pointerId) return;
      this.dragging = null;
      root.classList.remove("panning");
      if (!d.moved && e.type === "pointerup" && this.onCellClick) {
        const [bx, by] = this.toBoard(e.clientX, e.clientY);
        this.onCellClick(cellAt(bx, by), [bx, by]);
      }
    };
    root.addEventListener("pointerup", end);
    root.addEventListener("pointercancel", end);
    root.addEventListener("wheel", (e) => {
      e.preventDefault();
      const unit = e.deltaMode === 1 ? 16 : 1;
      this.userMoved();
      this.zoomBy(Math.exp(-e.deltaY * unit * 0.0015), e.clientX, e.clientY);
    }, { passive: false });
  }
}

/** The grid's lines for `n` rows above and below row 0 (one path: three families of lines). */
function latticePath(n) {
  const parts = [];
  const y0 = -n * H, y1 = n * H;
  for (let k = -n; k <= n; k++) parts.push(`M${-n},${(k * H).toFixed(4)}H${n}`);
  // Lines through the vertices (k + 0.5, 0), rising to the right and to the left.
  const dx = n / 2;
  for (let k = -2 * n; k <= 2 * n; k++) {
    const x = k + 0.5;
    parts.push(`M${(x - dx).toFixed(2)},${y0.toFixed(4)}L${(x + dx).toFixed(2)},${y1.toFixed(4)}`);
    parts.push(`M${(x + dx).toFixed(2)},${y0.toFixed(4)}L${(x - dx).toFixed(2)},${y1.toFixed(4)}`);
  }
  return parts.join("");
}
