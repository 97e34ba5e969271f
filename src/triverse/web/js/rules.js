// The rules pages: draws each <figure class="diagram"> from its placements, with the same
// tile drawing and grid geometry as the board, so a diagram is exactly what the table shows.
//   data-tiles="1-4-5@0,0/0 0-1-5@-1,0/0 ..."  placements in the game's notation
//   data-new="last"        the tile played (highlighted); data-span="8": a Span tile
//   data-vertex="1,0"      a ring around that point (a hexagon's centre, a touching corner)
//   data-orientations="1-3-5"  the six orientations of one tile instead
import { svg, tileGroup } from "./svg.js";
import { ORIENTATIONS, cellCentre, cellPoints, rotate, tileValues, vertexPoint } from "./trigrid.js";
import { openPreferences } from "./prefs.js";

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
  const root = svg("svg", { role: "img", "aria-label": "The six orientations of a tile" });
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

for (const fig of document.querySelectorAll("figure.diagram")) {
  try {
    if (fig.dataset.orientations) drawOrientations(fig);
    else drawPlacements(fig);
  } catch (err) {
    fig.prepend(document.createTextNode(`(diagram unavailable: ${err.message})`));
  }
}

const prefsButton = document.getElementById("prefs-button");
if (prefsButton) prefsButton.addEventListener("click", () => openPreferences());
