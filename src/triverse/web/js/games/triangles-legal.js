// What a picked star may still be joined to, for the Triangles view (triangles-view.js): the
// partners come from the legal actions the server sends the seat to move (each a line with
// fields {a, b}); nothing here judges whether a line may be drawn. Which of those lines would
// close a triangle is read from the lines already drawn: a legal line a-b closes the triangle
// a-b-c when a-c and b-c are drawn and no star lies inside it (a side cannot pass a star: the
// three are candidates), the engine's "empty triangle" (games/triangles/board.py). The legal
// actions say nothing about scoring, so this one test is the client's.
import { t } from "../i18n.js";
import { el, lineShape } from "./starfield.js";

/** The refusals a line flashes with, by the engine's message code (docs/messages.md). */
export function reasonText(code) {
  switch (code) {
    case "refused.already_drawn": return t("already drawn");
    case "refused.passes_star": return t("passes through a star");
    case "refused.crosses": return t("crosses a line");
    case "refused.same_star": return t("one star twice");
    case "refused.no_such_star": return t("no such star");
    default: return t("refused");
  }
}

/** The stars of each legal line (the server's legal actions of kind "line"). */
export function legalPairs(actions) {
  const out = [];
  for (const action of actions || []) {
    const f = action && action.fields;
    if (action.kind === "line" && f && Number.isInteger(f.a) && Number.isInteger(f.b)) out.push([f.a, f.b]);
  }
  return out;
}

/** Twice the signed area of p, q, r (positive: counter-clockwise). Star positions are integers,
 * so the test is exact. */
const turn = (p, q, r) => (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);

/** Whether star `s` lies strictly inside the triangle p, q, r. */
function strictlyInside(s, p, q, r) {
  const d1 = turn(p, q, s), d2 = turn(q, r, s), d3 = turn(r, p, s);
  return (d1 > 0 && d2 > 0 && d3 > 0) || (d1 < 0 && d2 < 0 && d3 < 0);
}

/** The drawn lines at each star: neighbours[i] is the set of stars joined to star i. */
export function neighbours(obs) {
  const out = obs.stars.map(() => new Set());
  for (const l of obs.lines) { out[l.a].add(l.b); out[l.b].add(l.a); }
  return out;
}

/** The triangles a legal line a-b would close (each as its third star): a-c and b-c drawn,
 * and no star inside a-b-c. */
export function closedBy(obs, near, a, b) {
  const stars = obs.stars;
  const out = [];
  for (const c of near[a]) {
    if (c === b || !near[b].has(c)) continue;
    const [p, q, r] = [stars[a], stars[b], stars[c]];
    if (!stars.some((s, i) => i !== a && i !== b && i !== c && strictlyInside(s, p, q, r))) out.push(c);
  }
  return out;
}

/** The stars `star` may be joined to now, each with the third stars of the triangles its line
 * would close: a Map partner -> [c, ...], in the order of the legal actions. */
export function partnersOf(obs, actions, star) {
  const out = new Map();
  if (!obs || star === null || star === undefined) return out;
  const near = neighbours(obs);
  for (const [a, b] of legalPairs(actions)) {
    if (a !== star && b !== star) continue;
    const other = a === star ? b : a;
    out.set(other, closedBy(obs, near, star, other));
  }
  return out;
}

/** The marks of the lines from `star` that would close a triangle: the line itself, and the
 * triangle it would close outlined (data-closing "a-b" on each line, for tests and CSS). */
export function closingShapes(pos, star, partners, player) {
  const shapes = [];
  for (const [other, thirds] of partners) {
    if (!thirds.length || !pos[star] || !pos[other]) continue;
    for (const c of thirds) {
      const pts = [pos[star], pos[other], pos[c]].map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
      shapes.push(el("polygon", { points: pts, class: "sf-would-close" }));
    }
    const line = lineShape(pos[star], pos[other], player, "closing");
    line.dataset.closing = `${Math.min(star, other)}-${Math.max(star, other)}`;
    line.dataset.triangles = String(thirds.length);
    shapes.push(line);
  }
  return shapes;
}
