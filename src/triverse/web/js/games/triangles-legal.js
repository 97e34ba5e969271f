// What a picked star may still be joined to, for the Triangles view (triangles-view.js): the
// partners and the triangles each line would close come from the legal actions the server sends
// the seat to move (each a line with fields {a, b} and notes {closes: [[a, b, c], ...]},
// docs/protocol.md); nothing here judges the rules.
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

/** The stars `star` may be joined to now, each with the third stars of the triangles its line
 * would close: a Map partner -> [c, ...], in the order of the legal actions. */
export function partnersOf(obs, actions, star) {
  const out = new Map();
  if (!obs || star === null || star === undefined) return out;
  for (const action of actions || []) {
    const f = action && action.fields;
    if (action.kind !== "line" || !f || (f.a !== star && f.b !== star)) continue;
    const other = f.a === star ? f.b : f.a;
    const closes = (action.notes && action.notes.closes) || [];
    out.set(other, closes.map((tri) => tri.find((s) => s !== star && s !== other)));
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
