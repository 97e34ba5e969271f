// The triangular grid of the tile games: a port of src/triverse/games/_tiles/trigrid.py.
//
// A cell (x, y) is one triangle; y is the row (downwards), x steps half an edge to the right.
// A cell points up when x + y is even. A vertex (X, Y) is a lattice point (X + Y odd).
// Corners are numbered clockwise: up cell 0 = apex (x+1, y), 1 = bottom right (x+2, y+1),
// 2 = bottom left (x, y+1); down cell 0 = top left (x, y), 1 = top right (x+2, y),
// 2 = bottom apex (x+1, y+1). Placed with rotation r, corner i shows the tile's number at
// position (i + r) mod 3 of its clockwise reading.

export const H = Math.sqrt(3) / 2;   // the height of a row, the edge being 1

export const isUp = ([x, y]) => ((x + y) % 2 + 2) % 2 === 0;

export function cellVertices([x, y]) {
  return isUp([x, y])
    ? [[x + 1, y], [x + 2, y + 1], [x, y + 1]]
    : [[x, y], [x + 2, y], [x + 1, y + 1]];
}

export function edgeNeighbours([x, y]) {
  return isUp([x, y])
    ? [[x + 1, y], [x, y + 1], [x - 1, y]]
    : [[x, y - 1], [x + 1, y], [x - 1, y]];
}

export function vertexCells([x, y]) {
  return [[x - 1, y - 1], [x, y - 1], [x, y], [x - 1, y], [x - 2, y], [x - 2, y - 1]];
}

/** The tile's numbers (clockwise) at corners 0, 1, 2 of a cell with `rotation`. */
export function rotate(values, rotation) {
  const r = ((rotation % 3) + 3) % 3;
  return [values[r], values[(r + 1) % 3], values[(r + 2) % 3]];
}

/** A vertex in board units (edge 1). */
export const vertexPoint = ([X, Y]) => [X * 0.5, Y * H];

export function cellPoints(cell) {
  return cellVertices(cell).map(vertexPoint);
}

export function cellCentre(cell) {
  const p = cellPoints(cell);
  return [(p[0][0] + p[1][0] + p[2][0]) / 3, (p[0][1] + p[1][1] + p[2][1]) / 3];
}

export const key = ([x, y]) => `${x},${y}`;
export const parseKey = (text) => text.split(",").map(Number);

/** The cell under a point in board units. */
export function cellAt(px, py) {
  const y = Math.floor(py / H);
  const base = Math.floor(px / 0.5);
  for (let x = base - 2; x <= base + 1; x++) {
    if (inside([x, y], px, py)) return [x, y];
  }
  return [base, y];
}

function inside(cell, px, py) {
  const [a, b, c] = cellPoints(cell);
  const s = (p, q) => (px - q[0]) * (p[1] - q[1]) - (p[0] - q[0]) * (py - q[1]);
  const d1 = s(a, b), d2 = s(b, c), d3 = s(c, a);
  const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

/** The cells of parity `up` whose centres are nearest the point, nearest first. */
export function nearCells(px, py, up, count = 6) {
  const y0 = Math.floor(py / H);
  const x0 = Math.floor(px / 0.5);
  const out = [];
  for (let y = y0 - 2; y <= y0 + 2; y++) {
    for (let x = x0 - 4; x <= x0 + 4; x++) {
      if (up !== undefined && isUp([x, y]) !== up) continue;
      const [cx, cy] = cellCentre([x, y]);
      out.push({ cell: [x, y], dist: Math.hypot(cx - px, cy - py) });
    }
  }
  out.sort((a, b) => a.dist - b.dist);
  return out.slice(0, count);
}

// --- orientations --------------------------------------------------------------------------
// The six orientations of a tile, in the order a clockwise turn of 60 degrees gives them:
// a turn takes an up triangle to a down one and back. Each is [onUpCell, rotation]; the
// rotation is the notation's /R for a cell of that parity.
export const ORIENTATIONS = [[true, 0], [false, 2], [true, 2], [false, 1], [true, 1], [false, 0]];

export function orientationOf(up, rotation) {
  return ORIENTATIONS.findIndex(([u, r]) => u === up && r === rotation);
}

/** The tile's numbers clockwise, from "1-3-5". */
export const tileValues = (text) => text.split("-").map(Number);

export const isTriple = (values) => values[0] === values[1] && values[1] === values[2];

/** A placement's parts from its notation "1-3-5@2,0/1" (null for draw, pass ...). */
export function parsePlacement(notation) {
  const m = /^(\d+-\d+-\d+)@(-?\d+),(-?\d+)(?:\/(\d))?$/.exec(notation.trim());
  if (!m) return null;
  return { tile: m[1], cell: [Number(m[2]), Number(m[3])], rotation: Number(m[4] || 0) };
}

// --- a board ---------------------------------------------------------------------------------
/** Placed tiles (cell -> corner values), the corner at each touched vertex, the frontier. */
export class Board {
  constructor(placements = []) {
    this.cells = new Map();
    this.corners = new Map();
    this.order = [];
    for (const p of placements) this.place(p.cell, p.corners);
  }

  place(cell, corners) {
    this.cells.set(key(cell), corners);
    this.order.push(cell);
    cellVertices(cell).forEach((v, i) => {
      if (!this.corners.has(key(v))) this.corners.set(key(v), corners[i]);
    });
  }

  has(cell) { return this.cells.has(key(cell)); }

  /** Empty cells sharing an edge with a tile (the cell 0,0 on an empty board). */
  frontier() {
    if (!this.cells.size) return [[0, 0]];
    const seen = new Set(), out = [];
    for (const cell of this.order) {
      for (const n of edgeNeighbours(cell)) {
        const k = key(n);
        if (!this.cells.has(k) && !seen.has(k)) { seen.add(k); out.push(n); }
      }
    }
    return out;
  }

  /** Why `corners` cannot go on `cell` (null: they fit), as trigrid.Board.misfit says it. */
  misfit(cell, corners) {
    if (this.has(cell)) return `cell ${key(cell)} is occupied`;
    if (!this.cells.size) return null;
    if (!edgeNeighbours(cell).some((n) => this.has(n))) {
      return "no shared edge with a tile on the board";
    }
    const vs = cellVertices(cell);
    for (let i = 0; i < 3; i++) {
      const there = this.corners.get(key(vs[i]));
      if (there !== undefined && there !== corners[i]) {
        return `corner ${corners[i]} vs ${there} at vertex ${key(vs[i])}`;
      }
    }
    return null;
  }

  /** [minX, minY, maxX, maxY] in board units of the tiles and the frontier. */
  extent() {
    const cells = [...this.order, ...this.frontier()];
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const c of cells) {
      for (const [px, py] of cellPoints(c)) {
        x0 = Math.min(x0, px); y0 = Math.min(y0, py);
        x1 = Math.max(x1, px); y1 = Math.max(y1, py);
      }
    }
    return [x0, y0, x1, y1];
  }
}
