// Drawing Triangles' star field in SVG, shared by the table (games/triangles.js) and the rules
// page's diagrams (rules.js), so that a diagram looks exactly like the game. Everything is drawn
// in pixels of the field (the board's integer units projected by fitBoard), so line widths,
// dash patterns, hatching and star sizes stay the same on every board and screen.
//
// Colour is never the only cue (themes.js gives the colours): Player 1's lines are solid and
// their triangles striped; Player 2's lines are dashed and their triangles dotted.

export const NS = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

let patternIds = 0;

/** A fresh prefix for the ids of one SVG's patterns. */
export const newPrefix = () => `sf${++patternIds}`;

/** The two players' hatching patterns (stripes for Player 1, dots for Player 2) and the
 * stars' glow. */
export function playerDefs(prefix) {
  return el("defs", {}, [
    el("radialGradient", { id: `${prefix}-glow` }, [
      el("stop", { offset: "0%", class: "sf-glow-in" }),
      el("stop", { offset: "100%", class: "sf-glow-out" }),
    ]),
    el("pattern", { id: `${prefix}-hatch-0`, width: 7, height: 7, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)", class: "sf-hatch-0" }, [
      el("rect", { x: 0, y: 0, width: 2.4, height: 7 }),
    ]),
    el("pattern", { id: `${prefix}-hatch-1`, width: 7, height: 7, patternUnits: "userSpaceOnUse",
      class: "sf-hatch-1" }, [
      el("circle", { cx: 3.5, cy: 3.5, r: 1.5 }),
    ]),
  ]);
}

/**
 * How a board of `bw` x `bh` units fits a box of `w` x `h` pixels, `pad` pixels inside its
 * edges. A portrait board is turned a quarter (star 0, at the top of the board, goes to the
 * left) when that makes it clearly larger, as on a landscape desktop window; turning is an
 * isometry, so every line looks as near to every star as it is.
 */
export function fitBoard(bw, bh, w, h, { pad = 18, rotate = true } = {}) {
  const sPortrait = Math.min((w - 2 * pad) / bw, (h - 2 * pad) / bh);
  const sTurned = Math.min((w - 2 * pad) / bh, (h - 2 * pad) / bw);
  const rotated = rotate && bh > bw && sTurned > sPortrait * 1.08;
  const s = Math.max(rotated ? sTurned : sPortrait, 1e-6);
  const dw = (rotated ? bh : bw) * s, dh = (rotated ? bw : bh) * s;
  const ox = (w - dw) / 2, oy = (h - dh) / 2;
  const project = rotated
    ? ([x, y]) => [ox + y * s, oy + (bw - x) * s]
    : ([x, y]) => [ox + x * s, oy + y * s];
  return { scale: s, rotated, project, box: [ox, oy, dw, dh] };
}

const pts = (ps) => ps.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

/** A closed triangle of `player` (0 or 1): its colour, and its hatching over it. */
export function triangleShape(corners, player, prefix, cls = "") {
  return el("g", { class: `sf-tri p${player} ${cls}`.trim() }, [
    el("polygon", { points: pts(corners), class: "fill" }),
    el("polygon", { points: pts(corners), class: "hatch", fill: `url(#${prefix}-hatch-${player})` }),
  ]);
}

/** A drawn line of `player` between two points. */
export function lineShape(p, q, player, cls = "") {
  return el("line", { x1: p[0].toFixed(1), y1: p[1].toFixed(1), x2: q[0].toFixed(1), y2: q[1].toFixed(1),
    class: `sf-line p${player} ${cls}`.trim() });
}

/** A star at `p` with its label (a number, or a letter in the rules), radius `r`. */
export function starShape(p, label, r, attrs = {}, prefix = null) {
  const [x, y] = p;
  const text = el("text", { x: (x + r + 2.5).toFixed(1), y: (y - r - 1.5).toFixed(1), class: "sf-num" });
  text.textContent = label;
  return el("g", { class: "sf-star", ...attrs }, [
    el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: (r * 2.6).toFixed(1), class: "glow",
      fill: prefix ? `url(#${prefix}-glow)` : null }),
    el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: (r + 5).toFixed(1), class: "ring" }),
    el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: r.toFixed(1), class: "core" }),
    text,
  ]);
}

/** A refused line: red, dashed, with the reason in a label at its middle. */
export function refusedShape(p, q, reason) {
  const mx = (p[0] + q[0]) / 2, my = (p[1] + q[1]) / 2;
  const label = el("text", { x: mx.toFixed(1), y: (my + 4.5).toFixed(1), class: "sf-reason-text" });
  label.textContent = `✕ ${reason}`;
  const width = 16 + 7.2 * label.textContent.length;
  return el("g", { class: "sf-refused" }, [
    el("line", { x1: p[0].toFixed(1), y1: p[1].toFixed(1), x2: q[0].toFixed(1), y2: q[1].toFixed(1), class: "sf-refused-line" }),
    el("rect", { x: (mx - width / 2).toFixed(1), y: (my - 11).toFixed(1), width: width.toFixed(1), height: 22, rx: 6, class: "sf-reason-box" }),
    label,
  ]);
}

/** The radius of a star for stars at least `spacing` pixels apart. */
export const starRadius = (spacing) => Math.max(3.5, Math.min(7, spacing * 0.1));

/** The smallest distance between two of `points` (Infinity for fewer than two). */
export function minSpacing(points) {
  let best = Infinity;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const d = Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]);
      if (d < best) best = d;
    }
  }
  return best;
}
