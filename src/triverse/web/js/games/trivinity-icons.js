// Trivinity's module symbols as small inline SVG icons (the seed: "Core - Plain line, Heroes -
// Swords, Scoundrels - Maces, Zodiac - Lines of stars, Elements - Lightning bolts, World -
// Columns, Disasters - Blackened fissures, Divine Servants - Feathers"), and the tier marks (a
// single symbol, crossed symbols, a triangle), and the three resources' icons (Power: a fist's
// flame, Mana: a drop, Tribute: a coin). Shared by the table's view and the rules page.
import { t } from "../i18n.js";

const NS = "http://www.w3.org/2000/svg";

/** Each symbol's drawing in a 24x24 box: [element, attributes] pairs. */
const SHAPES = {
  line: [["path", { d: "M12 3V21" }]],
  sword: [["path", { d: "M5 19L17.5 6.5M17.5 6.5L20 4L19.5 7ZM7.5 13.5L10.5 16.5M3.5 20.5L5.5 18.5" }]],
  mace: [["path", { d: "M4 20L11.5 12.5" }], ["circle", { cx: "14.5", cy: "9.5", r: "4" }],
    ["path", { d: "M14.5 3.5V5.5M20.5 9.5H18.5M18.8 5.2L17.4 6.6M19 14L17.4 12.4M10 5L11.6 6.6" }]],
  star: [["path", { d: "M12 3L14.4 9.2L21 9.6L15.9 13.8L17.6 20.3L12 16.6L6.4 20.3L8.1 13.8L3 9.6L9.6 9.2Z" }]],
  bolt: [["path", { d: "M13.5 2.5L5.5 13.5H11L9.5 21.5L18.5 9.5H13Z" }]],
  column: [["path", { d: "M5 4.5H19M6.5 7.5H17.5M8 7.5V18M12 7.5V18M16 7.5V18M5 20.5H19M6.5 18H17.5" }]],
  fissure: [["path", { d: "M12.5 2L9.5 7.5L14 11.5L9.5 16L12.5 22", class: "fill-crack" }]],
  feather: [["path", { d: "M19.5 3.5C11 4.5 6 10 5.5 18.5L19.5 3.5M19.5 3.5C20 11 15 16.5 8 17M5.5 18.5L3.5 20.5" }]],
};

export const MODULE_SYMBOLS = {
  core: "line", heroes: "sword", scoundrels: "mace", zodiac: "star", elements: "bolt",
  world: "column", disasters: "fissure", servants: "feather",
};

/** A module's name in the current language (the name itself for a module it does not know). */
export function moduleName(module) {
  switch (module) {
    case "core": return t("Core");
    case "heroes": return t("Heroes");
    case "scoundrels": return t("Scoundrels");
    case "zodiac": return t("Zodiac");
    case "elements": return t("Elements");
    case "world": return t("World");
    case "disasters": return t("Disasters");
    case "servants": return t("Divine Servants");
    default: return module;
  }
}

/** The three resources, in the engine's order. */
export const RESOURCES = ["power", "mana", "tribute"];

/** A resource's name in the current language. */
export function resourceName(r) {
  if (r === "power") return t("Power");
  if (r === "mana") return t("Mana");
  if (r === "tribute") return t("Tribute");
  return t("any resource");
}

/** Each resource's icon in a 24x24 box: a flame (Power), a drop (Mana), a coin (Tribute), and
 * a circle holding a plus (any resource, in costs). */
const RESOURCE_SHAPES = {
  power: [["path", { d: "M12 2.5C13 7 18.5 9 18.5 14.5A6.5 6.5 0 0 1 5.5 14.5C5.5 11 8 9.5 8.5 7C10 8.5 10.5 10 10.5 11.5C12 9.5 12.5 6 12 2.5Z" }]],
  mana: [["path", { d: "M12 2.5C12 2.5 5.5 10.5 5.5 15A6.5 6.5 0 0 0 18.5 15C18.5 10.5 12 2.5 12 2.5Z" }]],
  tribute: [["circle", { cx: "12", cy: "12", r: "8.5" }], ["circle", { cx: "12", cy: "12", r: "4.5" }]],
  any: [["circle", { cx: "12", cy: "12", r: "8.5" }], ["path", { d: "M12 8V16M8 12H16" }]],
};

/** A resource's icon; with `named`, an image named by the resource (else hidden from readers). */
export function resourceIcon(r, named = false) {
  const svg = svgEl("svg", { viewBox: "0 0 24 24", class: `tv-icon tv-ricon tv-ricon-${r}`, "data-resource": r });
  if (named) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", resourceName(r)); }
  else svg.setAttribute("aria-hidden", "true");
  for (const [tag, attrs] of RESOURCE_SHAPES[r] || RESOURCE_SHAPES.any) svg.append(svgEl(tag, attrs));
  return svg;
}

const svgEl = (name, attrs = {}) => {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
};

/** One module symbol ("sword") as an <svg class="tv-icon">; `label` makes it an image. */
export function symbolIcon(symbol, label = null) {
  const svg = svgEl("svg", { viewBox: "0 0 24 24", class: `tv-icon tv-icon-${symbol}`, "data-symbol": symbol });
  if (label) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", label); }
  else svg.setAttribute("aria-hidden", "true");
  for (const [tag, attrs] of SHAPES[symbol] || SHAPES.line) svg.append(svgEl(tag, attrs));
  return svg;
}

/** The tier mark: one symbol (tier 1), two crossed (tier 2), a triangle (tier 3). */
export function tierMark(tier, symbol) {
  const span = document.createElement("span");
  span.className = `tv-tier tv-tier-${tier}`;
  span.title = tier ? t("Tier {tier}", { tier }) : t("Starting card");
  if (tier === 2) {
    const a = symbolIcon(symbol); const b = symbolIcon(symbol);
    b.classList.add("crossed");
    span.append(a, b);
  } else if (tier === 3) {
    const svg = svgEl("svg", { viewBox: "0 0 24 24", class: "tv-icon tv-tri", "aria-hidden": "true" });
    svg.append(svgEl("path", { d: "M12 3L21 20H3Z" }));
    const inner = symbolIcon(symbol);
    span.append(svg, inner);
  } else {
    span.append(symbolIcon(symbol));
  }
  const sr = document.createElement("span");
  sr.className = "sr-only";
  sr.textContent = tier ? ` ${t("Tier {tier}", { tier })}` : "";
  span.append(sr);
  return span;
}
