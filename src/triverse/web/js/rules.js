// The rules pages: draws each <figure class="diagram"> from its placements, with the same
// tile drawing and grid geometry as the board, so a diagram is exactly what the table shows.
//   data-tiles="1-4-5@0,0/0 0-1-5@-1,0/0 ..."  placements in the game's notation
//   data-new="last"        the tile played (highlighted); data-span="8": a Span tile
//   data-vertex="1,0"      a ring around that point (a hexagon's centre, a touching corner)
//   data-orientations="1-3-5"  the six orientations of one tile instead
// and each <figure class="star-diagram"> (Triangles) with the star field's own drawing code
// (games/starfield.js) in the theme of the Preferences:
//   data-stars="A:60,40 B:300,40 ..."   named stars at points of the figure
//   data-lines="A-C:0 A-B:1"             drawn lines and their players (0: Player 1)
//   data-triangles="A-B-C:0"             closed triangles and who closed them
//   data-refused="B-D:crosses a line"    a refused line and its reason
//   data-recent="A-C"                    the line just drawn
//   data-notes="180,120:no point"        words at a point
import { svg, tileGroup } from "./svg.js";
import { ORIENTATIONS, cellCentre, cellPoints, rotate, tileValues, vertexPoint } from "./trigrid.js";
import { openPreferences } from "./prefs.js";
import { prefs } from "./store.js";
import { applyStarTheme } from "./themes.js";
import { initI18n, t } from "./i18n.js";
import {
  el, lineShape, newPrefix, playerDefs, refusedShape, starShape, triangleShape,
} from "./games/starfield.js";

function parse(text) {
  const m = text.match(/^(\d-\d-\d)@(-?\d+),(-?\d+)(?:\/(\d))?$/);
  if (!m) throw new Error(`not a placement: ${text}`);
  const values = tileValues(m[1]);
  return { tile: m[1], cell: [Number(m[2]), Number(m[3])], corners: rotate(values, Number(m[4] || 0)) };
}

function frame(points, pad = 0.35) {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
  return [x0, y0, Math.max(...xs) + pad - x0, Math.max(...ys) + pad - y0];
}

function drawPlacements(fig) {
  const placements = fig.dataset.tiles.trim().split(/\s+/).map(parse);
  const fresh = fig.dataset.new === "last" ? placements.length - 1 : Number(fig.dataset.new ?? -1);
  const span = Number(fig.dataset.span ?? -1);
  const root = svg("svg", { role: "img", "aria-label": fig.querySelector("figcaption")?.textContent || "diagram" });
  const points = placements.flatMap((p) => cellPoints(p.cell));
  placements.forEach((p, i) => {
    const cls = i === fresh ? "new" : i === span ? "span-tile" : "";
    root.append(tileGroup(p.cell, p.corners, { tile: p.tile, cls }));
  });
  if (fig.dataset.vertex) {
    const [x, y] = vertexPoint(fig.dataset.vertex.split(",").map(Number));
    root.append(svg("circle", { cx: x, cy: y, r: 0.16, class: "mark-ring" }));
  }
  root.setAttribute("viewBox", frame(points).map((n) => n.toFixed(3)).join(" "));
  fig.prepend(root);
}

function drawOrientations(fig) {
  const values = tileValues(fig.dataset.orientations);
  const root = svg("svg", { role: "img", "aria-label": t("The six orientations of a tile") });
  const points = [];
  ORIENTATIONS.forEach(([up, r], i) => {
    const cell = [i * 3, 0];   // i even: x even, an up cell; i odd: a down cell
    root.append(tileGroup(cell, rotate(values, r), { tile: fig.dataset.orientations }));
    const label = svg("text", { x: cellCentre(cell)[0].toFixed(3), y: 1.25, class: "orient-label" });
    label.textContent = `${up ? "up" : "down"} /${r}`;
    root.append(label);
    points.push(...cellPoints(cell));
  });
  points.push([0, 1.4]);
  root.setAttribute("viewBox", frame(points, 0.2).map((n) => n.toFixed(3)).join(" "));
  fig.prepend(root);
}

function drawStars(fig) {
  const stars = {};
  for (const item of fig.dataset.stars.trim().split(/\s+/)) {
    const [name, xy] = item.split(":");
    stars[name] = xy.split(",").map(Number);
  }
  const list = (attr) => (fig.dataset[attr] || "").trim().split(/\s+/).filter(Boolean);
  const prefix = newPrefix();
  const root = el("svg", { role: "img", class: "starfield-figure",
    "aria-label": fig.querySelector("figcaption")?.textContent || "diagram" });
  root.append(playerDefs(prefix));
  const at = (name) => {
    if (!stars[name]) throw new Error(`no star ${name}`);
    return stars[name];
  };
  for (const item of list("triangles")) {
    const [names, player] = item.split(":");
    root.append(triangleShape(names.split("-").map(at), Number(player), prefix));
  }
  for (const item of list("lines")) {
    const [names, player] = item.split(":");
    const [a, b] = names.split("-");
    root.append(lineShape(at(a), at(b), Number(player), fig.dataset.recent === names ? "recent" : ""));
  }
  const refused = fig.dataset.refused;
  if (refused) {
    const [names, ...reason] = refused.split(":");
    const [a, b] = names.split("-");
    root.append(refusedShape(at(a), at(b), reason.join(":")));
  }
  for (const [name, p] of Object.entries(stars)) root.append(starShape(p, name, 6, {}, prefix));
  for (const item of (fig.dataset.notes || "").split(";").map((x) => x.trim()).filter(Boolean)) {
    const [xy, ...words] = item.split(":");
    const [x, y] = xy.split(",").map(Number);
    const t = el("text", { x, y, class: "sf-note" });
    t.textContent = words.join(":");
    root.append(t);
  }
  const points = Object.values(stars);
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const pad = 34;
  const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
  root.setAttribute("viewBox", [x0, y0, Math.max(...xs) + pad - x0, Math.max(...ys) + pad - y0].join(" "));
  applyStarTheme(fig, prefs().starTheme);
  fig.prepend(root);
}

function unavailable(fig, err) {
  fig.prepend(document.createTextNode(t("(diagram unavailable: {error})", { error: err.message })));
}

// The page's language first (the diagrams' labels and the Preferences dialog speak it).
await initI18n();

for (const fig of document.querySelectorAll("figure.star-diagram")) {
  try {
    drawStars(fig);
  } catch (err) {
    unavailable(fig, err);
  }
}
window.addEventListener("triverse:prefs", () => {
  for (const fig of document.querySelectorAll("figure.star-diagram")) applyStarTheme(fig, prefs().starTheme);
});

for (const fig of document.querySelectorAll("figure.diagram")) {
  try {
    if (fig.dataset.orientations) drawOrientations(fig);
    else drawPlacements(fig);
  } catch (err) {
    unavailable(fig, err);
  }
}

const prefsButton = document.getElementById("prefs-button");
if (prefsButton) prefsButton.addEventListener("click", () => openPreferences());
