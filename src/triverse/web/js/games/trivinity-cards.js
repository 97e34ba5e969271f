// Trivinity's cards as the table draws them (issue 21): the card table (the server's GET
// /api/games/trivinity/data, the engine's card data, loaded once), a card's small face, its
// detail (name, module, tier, cost, worth and its whole text, never cut off) in a side panel or
// a dialog, and the legend that explains the cost and worth notation with the resources' icons.
// Card names and texts are the engine's: they are not translated here.
import { t, tn } from "../i18n.js";
import { h, openDialog } from "../ui.js";
import { moduleName, RESOURCES, resourceIcon, resourceName, tierMark } from "./trivinity-icons.js";

let CARDS = {};
let cardsLoading = null;

/** The card table, fetched once (again after a failure). */
export function loadCards() {
  if (!cardsLoading) {
    cardsLoading = (async () => {
      const answer = await fetch("/api/games/trivinity/data");
      if (!answer.ok) throw new Error(`the card table did not load (HTTP ${answer.status})`);
      CARDS = (await answer.json()).cards;
    })().catch((err) => {
      cardsLoading = null;
      throw err;
    });
  }
  return cardsLoading;
}

export const card = (id) => CARDS[id] || null;
export const cardName = (id) => (card(id) || {}).name || t("card {id}", { id });

/** "1 Power" in words, for titles and the detail view. */
function amountWords(r, n) {
  if (r === "power") return tn("{n} Power", "{n} Power", n);
  if (r === "mana") return tn("{n} Mana", "{n} Mana", n);
  if (r === "tribute") return tn("{n} Tribute", "{n} Tribute", n);
  return tn("{n} of any resource", "{n} of any resource", n);
}

/** A cost or worth in words: "1 Tribute, 2 of any resource"; "free" or "nothing" when empty. */
export function amountsText(amounts, empty) {
  const parts = [...RESOURCES, "any"].filter((r) => amounts && amounts[r]).map((r) => amountWords(r, amounts[r]));
  return parts.length ? parts.join(", ") : empty;
}

export const costText = (cost) => amountsText(cost, t("free"));
export const worthText = (worth) => amountsText(worth, t("nothing"));

/** An amount as a chip: the resource's icon and the number ("+2" for any resource). */
function chip(r, n, named) {
  const any = r === "any";
  return h("span", { class: `tv-res tv-${r}`, title: amountWords(r, n), "data-res": r },
    resourceIcon(r, named), any ? `+${n}` : String(n));
}

/** The chips of a cost or a worth; `named` gives the icons their resource's name. */
export function chips(amounts, { named = false, any = true } = {}) {
  const rs = any ? [...RESOURCES, "any"] : RESOURCES;
  return rs.filter((r) => amounts && amounts[r]).map((r) => chip(r, amounts[r], named));
}

/** A card in words, for a title or a label. */
export function cardLabel(c) {
  const tier = c.tier ? t("tier {tier}", { tier: c.tier }) : t("starting card");
  const parts = [c.name, moduleName(c.module), tier];
  if (c.tier) parts.push(t("cost {cost}", { cost: costText(c.cost) }));
  parts.push(t("worth {worth}", { worth: worthText(c.worth) }));
  return parts.join(", ") + (c.text ? `: ${c.text}` : "");
}

function badges(c, long) {
  return [
    c.until_next_turn ? h("span", { class: "tv-badge", title: t("Until your next turn") },
      long ? t("Waits until your next turn") : t("waits")) : null,
    c.reaction ? h("span", { class: "tv-badge", title: t("Reaction: blocks an attack") },
      long ? t("Reaction: blocks an attack") : t("reaction")) : null,
  ];
}

/** A card drawn as a small face: symbol and tier, name, cost, worth, text. */
export function cardFace(id, { compact = false, tag = "div", attrs = {} } = {}) {
  const c = card(id);
  if (!c) return h(tag, { class: "tv-card unknown", ...attrs }, t("card {id}", { id }));
  return h(tag, {
    class: `tv-card tier-${c.tier}${compact ? " compact" : ""}`, "data-card": id, "data-module": c.module,
    title: cardLabel(c), ...attrs,
  },
  h("span", { class: "tv-card-head" }, tierMark(c.tier, c.symbol),
    h("span", { class: "tv-card-name" }, c.name)),
  c.tier ? h("span", { class: "tv-card-cost" }, h("span", { class: "tv-cost-word" }, t("cost")), ...chips(c.cost)) : null,
  h("span", { class: "tv-card-worth" }, ...chips(c.worth, { any: false })),
  !compact && c.text ? h("span", { class: "tv-card-text" }, c.text) : null,
  ...badges(c, false));
}

/** A card's whole detail: what the side panel and the dialog show (the dialog names the card
 * in its title: `named` false leaves the name out). */
export function cardDetail(id, { named = true } = {}) {
  const c = card(id);
  if (!c) return h("div", { class: "tv-detail-card" }, t("card {id}", { id }));
  const tier = c.tier ? t("Tier {tier}", { tier: c.tier }) : t("Starting card");
  const row = (term, ...value) => [h("dt", {}, term), h("dd", {}, ...value)];
  return h("div", { class: "tv-detail-card", "data-detail-card": id, "data-module": c.module },
    named ? h("p", { class: "tv-detail-name" }, tierMark(c.tier, c.symbol), h("strong", {}, c.name)) : null,
    h("p", { class: "tv-detail-meta" }, named ? null : tierMark(c.tier, c.symbol), `${moduleName(c.module)} · ${tier}`),
    h("dl", {},
      ...(c.tier ? row(t("Cost"), ...chips(c.cost, { named: true }), h("span", { class: "tv-words" }, costText(c.cost))) : []),
      ...row(t("Worth"), ...chips(c.worth, { named: true, any: false }), h("span", { class: "tv-words" }, worthText(c.worth)))),
    c.text ? h("p", { class: "tv-detail-text" }, c.text) : h("p", { class: "tv-detail-text" }, t("No effect.")),
    h("p", { class: "tv-detail-badges" }, ...badges(c, true)));
}

/** The card's detail in a dialog; closing it gives the focus back to where it was. */
export function openCardDialog(id) {
  return openDialog({
    title: cardName(id), body: cardDetail(id, { named: false }), className: "tv-card-dialog",
    actions: [{ label: t("Close"), value: null, primary: true }],
  });
}

/** The small "i" button that opens a card's detail dialog. */
export function infoButton(id) {
  return h("button", {
    type: "button", class: "tv-info", "data-info": id,
    "aria-label": t("Details of {card}", { card: cardName(id) }), title: t("Details"),
    onclick: (ev) => { ev.stopPropagation(); openCardDialog(id); },
  }, "i");
}

/** A long press (touch) on `el` opens the detail of the card `id`; the click that ends it does
 * nothing else. */
export function longPress(el, id) {
  let timer = null;
  let opened = false;
  const stop = () => { clearTimeout(timer); timer = null; };
  el.addEventListener("pointerdown", (ev) => {
    opened = false;
    if (ev.pointerType === "mouse") return;
    timer = setTimeout(() => { opened = true; openCardDialog(id); }, 550);
  });
  for (const kind of ["pointerup", "pointercancel", "pointerleave"]) el.addEventListener(kind, stop);
  el.addEventListener("contextmenu", (ev) => { if (timer || opened) ev.preventDefault(); });
  el.addEventListener("click", (ev) => {
    if (opened) { ev.stopImmediatePropagation(); ev.preventDefault(); opened = false; }
  }, true);
}

/** The legend: the resources' icons with their names, and how to read a cost and a worth. */
export function legend() {
  const example = { tribute: 1, any: 2 };
  return h("section", { class: "tv-legend", "aria-labelledby": "tv-legend-title" },
    h("h2", { id: "tv-legend-title" }, t("How to read a card")),
    h("ul", { class: "tv-legend-res" }, ...RESOURCES.map((r) => h("li", { "data-legend": r },
      h("span", { class: `tv-res tv-${r}` }, resourceIcon(r, true)), resourceName(r)))),
    h("p", {}, h("span", { class: "tv-card-cost" }, t("cost"), ...chips(example)), " ",
      t("Cost: pay 1 Tribute and 2 more of any resource from your pool to buy the card.")),
    h("p", {}, h("span", { class: "tv-card-worth" }, ...chips({ power: 2 }, { any: false })), " ",
      t("Worth: a played card adds its worth to your pool. At the end your score is your two best resources, plus 1 point per tier-2 card and 3 per tier-3 card.")),
    h("p", { class: "tv-legend-tiers" }, ...[1, 2, 3].map((n) => h("span", {}, tierMark(n, "line"), " ", t("Tier {tier}", { tier: n }))),
      " ", t("Press i, or long-press a card, to read all of it.")));
}

/** The final score from a player's worth totals: the two best resources plus tier bonuses. */
export function breakdown(p) {
  const values = RESOURCES.map((r) => (p.worth || {})[r] || 0);
  const best = [0, 1, 2].sort((a, b) => values[b] - values[a] || a - b).slice(0, 2);
  const bestTwo = values[best[0]] + values[best[1]];
  return {
    power: values[0], mana: values[1], tribute: values[2], best: best.map((i) => RESOURCES[i]),
    best_two: bestTwo, tier2: p.tier2 || 0, tier3: p.tier3 || 0,
    score: bestTwo + (p.tier2 || 0) + 3 * (p.tier3 || 0),
  };
}
