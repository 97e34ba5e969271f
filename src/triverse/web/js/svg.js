// SVG helpers and the drawing of one triangle tile, shared by the board, the hand and the
// rules pages' diagrams.
import { cellPoints, cellCentre, isUp, key } from "./trigrid.js";

export const NS = "http://www.w3.org/2000/svg";

export function svg(name, attrs = {}, children = []) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

const inset = (points, centre, f) =>
  points.map(([x, y]) => [centre[0] + (x - centre[0]) * f, centre[1] + (y - centre[1]) * f]);

const pointsAttr = (points) => points.map(([x, y]) => `${x.toFixed(4)},${y.toFixed(4)}`).join(" ");

/** The outline of a cell (board units), slightly inset. */
export function cellPolygon(cell, attrs = {}, f = 0.94) {
  const c = cellCentre(cell);
  return svg("polygon", { points: pointsAttr(inset(cellPoints(cell), c, f)), ...attrs });
}

/**
 * A tile on `cell` showing `corners` (the numbers at corners 0, 1, 2).
 * `tile` (its notation, "1-3-5") goes in data-tile so that tests can find it.
 */
export function tileGroup(cell, corners, { tile, cls = "", label } = {}) {
  const c = cellCentre(cell);
  const pts = cellPoints(cell);
  const g = svg("g", {
    class: `tile ${isUp(cell) ? "up" : "down"} ${cls}`.trim(),
    "data-cell": key(cell),
    "data-tile": tile,
    "aria-label": label,
  });
  g.append(svg("polygon", { class: "face", points: pointsAttr(inset(pts, c, 0.93)) }));
  pts.forEach(([x, y], i) => {
    const v = corners[i];
    const tx = x + (c[0] - x) * 0.43;
    const ty = y + (c[1] - y) * 0.43;
    const t = svg("text", { x: tx.toFixed(4), y: ty.toFixed(4), class: `num n${v}` });
    t.textContent = String(v);
    g.append(t);
  });
  return g;
}

/** A standalone <svg> of one tile (for the hand): up on cell 0,0, down on cell 1,0. */
export function tileIcon(corners, up, { tile, size } = {}) {
  const cell = up ? [0, 0] : [1, 0];
  const pts = cellPoints(cell);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const pad = 0.07;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad,
    Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const root = svg("svg", {
    viewBox: box.map((n) => n.toFixed(3)).join(" "), class: "tile-icon", "aria-hidden": "true",
    width: size, focusable: "false",
  });
  root.append(tileGroup(cell, corners, { tile }));
  return root;
}
