// The keyboard of the Triangles view (triangles-view.js): a star's number typed gives it the
// focus, the arrow keys move to the nearest star that way, Enter or Space picks, Escape lets
// go; and the rows the table's keyboard help lists for this game.
import { t } from "../i18n.js";

const TYPE_MS = 1200;

/** The nearest star to `pos[from]` in direction (dx, dy) on the screen (within a wide cone),
 * or null. */
export function nearestToward(pos, from, dx, dy) {
  const [x0, y0] = pos[from];
  let best = null, bestScore = Infinity;
  pos.forEach(([x, y], i) => {
    if (i === from) return;
    const vx = x - x0, vy = y - y0;
    const along = vx * dx + vy * dy;
    if (along <= 0) return;
    const across = Math.abs(vx * dy - vy * dx);
    if (across > along * 2.5) return;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = i; }
  });
  return best;
}

/** The keys of a Triangles table, for the keyboard help: [key, what it does]. */
export function keyRows() {
  return [
    ["0-9", t("type a star's number: the star gets the focus (\"1\", \"7\": star 17)")],
    [t("Arrow keys"), t("move to the nearest star that way")],
    [t("Tab"), t("into the star field, then to the line box and the buttons")],
    [t("Enter or Space on a star"), t("pick it (the stars it can be joined to light up); on a second star, draw the line")],
    [t("Escape"), t("let go of the star picked (when one is; else end the game)")],
    [t("Line box"), t("type a line as two numbers, like 3-17, and Enter")],
  ];
}

/** A key at the table: the view's answer to the table's onKey (true: handled). */
export function onKey(view, e) {
  if (!view.obs || !view.starEls) return false;
  const target = e.target;
  const onStar = target && target.closest ? target.closest("[data-star]") : null;
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (/^[0-9]$/.test(e.key)) {
    typeDigit(view, e.key);
    return true;
  }
  if (dirs[e.key]) {
    e.preventDefault();
    const from = onStar ? Number(onStar.dataset.star) : null;
    if (from === null) { view.focusOn(view.focusStar); return true; }
    const next = nearestToward(view.pos, from, ...dirs[e.key]);
    if (next !== null) view.focusOn(next);
    return true;
  }
  if ((e.key === "Enter" || e.key === " ") && onStar) {
    e.preventDefault();
    view.typed = "";
    view.pick(Number(onStar.dataset.star));
    return true;
  }
  if (e.key === "Escape" && (view.selected !== null || view.typed)) {
    e.preventDefault();
    view.typed = "";
    view.select(null, { announce: true });
    return true;
  }
  if (e.key === "Backspace" && view.typed) {
    e.preventDefault();
    view.typed = view.typed.slice(0, -1);
    if (view.typed) view.focusOn(Number(view.typed));
    return true;
  }
  return false;
}

/** A digit typed: the star of the number typed so far gets the focus. */
function typeDigit(view, d) {
  const n = view.obs.stars.length;
  clearTimeout(view.typeTimer);
  let typed = view.typed + d;
  if (Number(typed) >= n) typed = d;   // a new number begins
  view.typed = typed;
  const star = Number(typed);
  if (star >= n) {
    view.table.hint(t("There is no star {star}: the stars are 0 to {last}.", { star, last: n - 1 }));
    view.typed = "";
    return;
  }
  view.focusOn(star);
  view.table.hint(view.selected === null ? t("Star {star}: Enter picks it.", { star })
    : t("Star {star} (line {line}): Enter picks it.", { star, line: `${view.selected}-${star}` }));
  // Done when no further digit can make a star's number; else wait for one a moment.
  if (star * 10 >= n || star === 0) view.typed = "";
  else view.typeTimer = setTimeout(() => { view.typed = ""; }, TYPE_MS);
}
