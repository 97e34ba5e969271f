// The view of Trivinity (issue 7): the 3x3 grid of stacks with their face-up tops, Limbo, the
// other players' visible information (deck, discard and hand sizes, cards played and waiting
// "until your next turn"), your play area and resource pool; in the tray your hand, Play,
// Discard, Discard all, End turn, the effect questions (built from the legal actions'
// descriptions) and a notation box. A stack's top is bought by clicking it, when the view's
// legal actions hold that purchase. Everything is a <button>, so every control is reachable
// with the keyboard. Cards are ids; the server's GET /api/games/trivinity/data (the engine's
// card table) describes them, loaded once, before the first view is created. Trivinity's
// entry (games/trivinity.js) imports this module only when a table of Trivinity opens. The
// interface is docs/web.md's "Adding a game's UI".
import { t, tn } from "../i18n.js";
import { h } from "../ui.js";
import {
  breakdown, card, cardDetail, cardFace, cardName, infoButton, legend, loadCards, longPress, openCardDialog,
} from "./trivinity-cards.js";
import { MODULE_SYMBOLS, moduleName, RESOURCES as RES, resourceIcon, resourceName, symbolIcon } from "./trivinity-icons.js";

export { breakdown, card, cardFace, costText, worthText } from "./trivinity-cards.js";

/** The words of the actions the tray's main buttons do; every other legal action is a choice. */
const MAIN = new Set(["play", "discard", "discard-all", "buy", "end"]);

function ensureStyles() {
  if (document.querySelector("link[data-trivinity-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/css/trivinity.css", "data-trivinity-css": "" }));
}

/** The view, once the card table has loaded (a promise). */
export async function createView(table, host) {
  await loadCards();
  ensureStyles();
  return new TrivinityView(table, host);
}

/** The card an element shows: a card face, a stack's top, an "i" button. */
function cardOf(el) {
  const holder = el && el.closest && el.closest("[data-card], [data-info], .tv-stack");
  if (!holder) return null;
  if (holder.dataset.card !== undefined) return Number(holder.dataset.card);
  if (holder.dataset.info !== undefined) return Number(holder.dataset.info);
  const top = holder.querySelector("[data-card]");
  return top ? Number(top.dataset.card) : null;
}

const sizesText = (p) => t("deck {deck} · discard {discard} · hand {hand}",
  { deck: p.deck_size, discard: p.discard.length, hand: p.hand_size });

class TrivinityView {
  constructor(table, host) {
    this.table = table;
    this.view = null;
    this.selected = null;       // the hand slot (1-based) selected
    this.build(host);
  }

  build(host) {
    const e = {};
    this.el = e;
    e.opponents = h("section", { class: "tv-opponents", "aria-label": t("The other players") });
    e.grid = h("div", { class: "tv-grid", role: "group", "aria-label": t("The stacks: tier 1 on top, tier 3 at the bottom") });
    e.limbo = h("section", { class: "tv-limbo", "aria-label": t("Limbo") });
    e.mine = h("section", { class: "tv-mine", "aria-label": t("Your play area") });
    e.final = h("section", { class: "tv-final", "aria-label": t("Final scores"), hidden: true });
    // Beside the stacks: the card pointed at, focused or selected, read in full, and the legend.
    e.detail = h("div", { class: "tv-detail-body" });
    e.aside = h("section", { class: "tv-detail", "aria-labelledby": "tv-detail-title" },
      h("h2", { id: "tv-detail-title" }, t("Card")), e.detail);
    e.root = h("div", { class: "tv-board" },
      h("div", { class: "tv-left" }, e.grid),
      h("div", { class: "tv-right" }, e.final, e.mine, e.opponents, e.limbo, e.aside, legend()));
    this.showDetail(null);
    host.board.append(e.root);
    host.board.classList.add("tv-host");
    // The board scrolls when it does not fit: the keyboard can scroll it too.
    Object.assign(host.board, { tabIndex: 0 });
    host.board.setAttribute("role", "region");
    host.board.setAttribute("aria-label", t("The board"));
    for (const area of [host.board, host.tray]) {
      area.addEventListener("focusin", (ev) => this.showDetail(cardOf(ev.target)));
      area.addEventListener("mouseover", (ev) => { const id = cardOf(ev.target); if (id !== null) this.showDetail(id); });
    }
    e.grid.addEventListener("click", (ev) => {
      const b = ev.target.closest("[data-stack]");
      if (b && !b.disabled) this.clickStack(Number(b.dataset.stack));
    });

    // The tray: the question, the hand, the buttons, the choices and the notation box.
    e.question = h("p", { class: "tv-question", "aria-live": "polite" });
    e.hand = h("div", { class: "tv-hand", role: "group", "aria-label": t("Your hand") });
    e.hand.addEventListener("click", (ev) => {
      const b = ev.target.closest("[data-slot]");
      if (b) this.clickHand(Number(b.dataset.slot));
    });
    const btn = (action, text, title, onclick) => h("button", { type: "button", "data-action": action, title, onclick, disabled: true }, text);
    e.play = btn("play", t("Play"), t("Play the selected card (Enter)"), () => this.sendSlot("play"));
    e.discard = btn("discard", t("Discard"), t("Discard the selected card without playing it (X)"), () => this.sendSlot("discard"));
    e.discardAll = btn("discard-all", t("Discard all"), t("Discard your whole hand; with nothing played, take a tier-1 card free (A)"), () => this.sendNotation("discard-all"));
    e.end = btn("end", t("End turn"), t("End the turn and draw 5 (E)"), () => this.sendNotation("end"));
    e.end.classList.add("primary");
    e.choices = h("div", { class: "tv-choices", role: "group", "aria-label": t("Answers") });
    e.input = h("input", { type: "text", id: "tv-notation", name: "notation", autocomplete: "off",
      placeholder: "play 1", size: 10, "aria-label": t("Action in notation") });
    const form = h("form", { class: "tv-notation", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } },
      e.input, h("button", { type: "submit", "data-action": "notation" }, t("Send")));
    host.tray.append(
      h("div", { class: "tv-tray-main" }, e.question, e.hand, e.choices),
      h("div", { class: "tv-controls tray-controls" }, e.play, e.discard, e.discardAll, e.end, form));
  }

  destroy() {}

  /** The side panel shows the card `id` in full (a hint of how to fill it when null). */
  showDetail(id) {
    if (id === null || id === undefined || Number.isNaN(id)) {
      if (this.detailId !== undefined && this.detailId !== null) return;
      this.detailId = null;
      this.el.detail.replaceChildren(h("p", { class: "tv-small" }, t("Point at a card, focus it or select it to read it here in full.")));
      return;
    }
    if (id === this.detailId) return;
    this.detailId = id;
    this.el.detail.replaceChildren(cardDetail(id));
  }

  /** A click for a card bought or played, live. */
  onLogEntry(entry) {
    const kinds = (entry.events || []).map((e) => e.kind);
    if (kinds.includes("buy") || kinds.includes("play")) this.table.sound.click();
  }

  lock() {
    this.selected = null;
    this.el.hand.replaceChildren();
    this.el.choices.replaceChildren();
    this.el.mine.replaceChildren();
  }

  // --- what is legal ------------------------------------------------------------------------
  legal() {
    return (this.view && this.view.legal_actions) || [];
  }

  find(notation) {
    return this.legal().find((a) => a.notation === notation) || null;
  }

  // --- sending ------------------------------------------------------------------------------
  async sendNotation(notation) {
    if (!notation) return;
    this.table.clearRefusal();
    const answer = await this.table.send(notation);
    if (answer && answer.type === "accepted") this.selected = null;
  }

  sendSlot(word) {
    if (this.selected == null) return;
    this.sendNotation(`${word} ${this.selected}`);
  }

  typed() {
    const text = this.el.input.value.trim();
    if (!text) return;
    this.el.input.value = "";
    this.sendNotation(text.toLowerCase().replace(/\s+/g, " "));
  }

  clickStack(s) {
    if (this.find(`stack ${s}`)) this.sendNotation(`stack ${s}`);
    else if (this.find(`buy ${s}`)) this.sendNotation(`buy ${s}`);
  }

  clickHand(slot) {
    for (const word of ["card", "block"]) {
      if (this.find(`${word} ${slot}`)) { this.sendNotation(`${word} ${slot}`); return; }
    }
    this.selected = this.selected === slot ? null : slot;
    const hand = (this.view && this.view.observation.hand) || [];
    if (this.selected != null && hand[slot - 1] !== undefined) this.showDetail(hand[slot - 1]);
    this.renderHand();
    this.renderButtons();
  }

  // --- drawing ------------------------------------------------------------------------------
  render(view) {
    this.view = view;
    const obs = view.observation;
    const hand = obs.hand || [];
    if (this.selected != null && this.selected > hand.length) this.selected = null;
    document.body.dataset.tvPhase = obs.phase || "";
    document.body.dataset.tvPending = obs.pending ? obs.pending.kind : "";
    document.body.dataset.tvTurn = String(obs.turn ?? "");
    this.renderGrid();
    this.renderLimbo();
    this.renderMine();
    this.renderOpponents();
    this.renderFinal();
    this.renderHand();
    this.renderButtons();
    this.renderChoices();
  }

  renderGrid() {
    const stacks = this.view.observation.stacks || [];
    this.el.grid.replaceChildren(...stacks.map((st, i) => this.stackSlot(st, i + 1)));
  }

  /** A stack: a button (buy or choose it) holding its top card, and the top's "i" button. */
  stackSlot(st, s) {
    const pick = this.find(`stack ${s}`);
    const buy = this.find(`buy ${s}`);
    const tier = Math.floor((s - 1) / 3) + 1;
    const seen = (st.known || []).map((k) => cardName(k.card)).join(", ");
    const what = st.top == null ? t("empty") : cardName(st.top);
    const cards = tn("{n} card", "{n} cards", st.count);
    const extra = [st.face_down ? tn("{n} down", "{n} down", st.face_down) : "",
      st.buried && st.buried.length ? tn("{n} buried", "{n} buried", st.buried.length) : ""].filter(Boolean);
    const label = [t("Stack {stack}, tier {tier}: {card}, {cards}", { stack: s, tier, card: what, cards }),
      buy ? buy.description : "", pick ? pick.description : ""].filter(Boolean).join(". ");
    const button = h("button", {
      type: "button", class: `tv-stack tier-${tier}${pick ? " choose" : ""}${buy ? " buyable" : ""}`,
      "data-stack": s, disabled: !(pick || buy), "aria-label": label,
    },
    h("span", { class: "tv-stack-head" }, h("span", { class: "tv-stack-no" }, String(s)),
      h("span", { class: "tv-stack-count", "data-count": st.count }, cards,
        h("span", { class: "tv-stack-extra" }, extra.map((x) => ` · ${x}`).join("")))),
    st.top == null ? h("span", { class: "tv-empty" }, t("empty")) : cardFace(st.top),
    seen ? h("span", { class: "tv-known" }, t("seen: {cards}", { cards: seen })) : null,
    buy ? h("span", { class: "tv-buy-tag" }, t("Buy")) : null,
    pick ? h("span", { class: "tv-buy-tag choose" }, t("Choose")) : null);
    if (st.top != null) longPress(button, st.top);
    return h("div", { class: "tv-slot" }, button, st.top == null ? null : infoButton(st.top));
  }

  /** A card that is only shown (played, waiting, in Limbo): a button that opens its detail. */
  shownCard(id) {
    return cardFace(id, { compact: true, tag: "button", attrs: {
      type: "button", "data-shown": "", onclick: () => openCardDialog(id),
      "aria-label": t("{card}: details", { card: cardName(id) }),
    } });
  }

  renderLimbo() {
    const limbo = this.view.observation.limbo || { face_up: [], face_down: 0 };
    const items = limbo.face_up.map((id, i) => {
      const n = i + 1;
      if (!this.find(`limbo ${n}`)) return this.shownCard(id);
      const face = cardFace(id, { compact: true, tag: "button", attrs: { type: "button", class: "tv-card compact choose", "data-limbo": n, onclick: () => this.sendNotation(`limbo ${n}`) } });
      return h("span", { class: "tv-slot" }, face, infoButton(id));
    });
    // cardFace's class attribute from attrs replaces the default one: keep the module colours.
    const modules = ["core", ...(this.view.observation.modules || [])];
    this.el.limbo.replaceChildren(h("p", { class: "tv-small tv-modules", "data-modules": modules.join(" ") }, t("Modules:"), " ",
      ...modules.map((m) => h("span", { class: "tv-module", "data-module": m }, symbolIcon(MODULE_SYMBOLS[m] || "line"), ` ${moduleName(m)} `))),
    h("h2", {}, t("Limbo"), " ", h("small", {}, t("{up} face up, {down} face down", { up: limbo.face_up.length, down: limbo.face_down }))),
    h("div", { class: "tv-row" }, ...items));
  }

  pile(title, cards, attrs = {}) {
    return h("div", { class: "tv-pile", ...attrs }, h("h3", {}, title, " ", h("small", {}, String(cards.length))),
      h("div", { class: "tv-row" }, ...cards.map((id) => this.shownCard(id))));
  }

  renderMine() {
    const v = this.view;
    const obs = v.observation;
    const seat = v.seat;
    if (seat === null || seat === undefined) { this.el.mine.hidden = true; return; }
    this.el.mine.hidden = false;
    const me = obs.players[seat];
    const pool = obs.pool || {};
    this.el.mine.replaceChildren(...[
      h("h2", {}, t("You"), " ", h("small", {}, sizesText(me))),
      h("div", { class: "tv-pool", "data-pool": "", "aria-label": t("Your pool") }, ...RES.map((r) => h("span", { class: `tv-res tv-${r}`, "data-res": r },
        resourceIcon(r), `${resourceName(r)} `, h("strong", {}, String(pool[r] || 0)))),
      obs.discount ? h("span", { class: "tv-res" }, t("discount {n}", { n: obs.discount })) : null),
      this.pile(t("Played"), me.played, { "data-played": seat }),
      me.waiting.length ? this.pile(t("Waiting until your next turn"), me.waiting, { "data-waiting": seat }) : null,
    ].filter(Boolean));
  }

  renderOpponents() {
    const v = this.view;
    const obs = v.observation;
    const names = this.table.names(v);
    const others = obs.players.map((p, q) => [p, q]).filter(([, q]) => q !== v.seat);
    this.el.opponents.replaceChildren(...others.map(([p, q]) => h("div", {
      class: `tv-opponent${v.to_move === q ? " to-move" : ""}`, "data-seat": q,
    },
    h("h2", {}, names[q] || t("Player {n}", { n: q + 1 }), " ", h("small", { "data-sizes": "" }, sizesText(p))),
    this.find(`seat ${q + 1}`) ? h("button", { type: "button", class: "tv-choose-seat", "data-choose-seat": q + 1,
      onclick: () => this.sendNotation(`seat ${q + 1}`) }, t("Choose {name}", { name: names[q] || t("Player {n}", { n: q + 1 }) })) : null,
    p.discard.length ? h("p", { class: "tv-small" }, t("Discard top: {card}", { card: cardName(p.discard[p.discard.length - 1]) })) : null,
    p.played.length ? this.pile(t("Played"), p.played) : null,
    p.waiting.length ? this.pile(t("Waiting until their next turn"), p.waiting, { "data-waiting": q }) : null)));
  }

  /** Each player's score breakdown: from the final_score events when the log has them. */
  breakdowns() {
    const v = this.view;
    const found = {};
    for (const entry of v.log || []) {
      for (const ev of entry.events || []) {
        if (ev.kind === "score" && ev.data && ev.data.reason === "final_score" && ev.player != null) found[ev.player] = ev.data;
        if (ev.kind === "final_score" && ev.player != null) found[ev.player] = ev.data;
      }
    }
    return v.observation.players.map((p, q) => (found[q] && found[q].best_two !== undefined ? found[q] : breakdown(p)));
  }

  scoreTable() {
    const v = this.view;
    const names = this.table.names(v);
    return h("table", { class: "tv-score-table", "data-breakdown": "" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Player")), ...RES.map((r) => h("th", {}, resourceName(r))),
        h("th", { title: t("The two best resources") }, t("Best 2")), h("th", { title: t("1 point per tier-2 card") }, t("T2")),
        h("th", { title: t("3 points per tier-3 card") }, t("T3")), h("th", {}, t("Score")))),
      h("tbody", {}, ...this.breakdowns().map((b, q) => h("tr", { "data-seat": q },
        h("th", {}, names[q] || t("Player {n}", { n: q + 1 })),
        ...RES.map((r) => h("td", { class: b.best.includes(r) ? "best" : "" }, String(b[r]))),
        h("td", {}, String(b.best_two)), h("td", {}, String(b.tier2)), h("td", {}, String(3 * b.tier3)),
        h("td", { "data-score": b.score }, h("strong", {}, String(b.score)))))));
  }

  renderFinal() {
    const v = this.view;
    const e = this.el.final;
    e.hidden = !v.finished;
    if (!v.finished) { e.replaceChildren(); return; }
    const end = v.observation.end || {};
    const why = end.reason === "line" ? t("The game ended: three empty stacks in a line ({stacks}).", { stacks: (end.line || []).join(", ") })
      : end.reason === "turn_limit" ? tn("The game ended: every player has had {n} turn.", "The game ended: every player has had {n} turns.", end.turns) : "";
    e.replaceChildren(...[h("h2", {}, t("Final score")), why ? h("p", { class: "tv-small" }, why) : null,
      this.scoreTable()].filter(Boolean));
  }

  finalExtras(view) {
    this.view = view;
    return h("div", { class: "tv-final-extras" }, this.scoreTable());
  }

  renderHand() {
    const obs = this.view.observation;
    const hand = obs.hand || [];
    const choosing = this.legal().some((a) => /^(card|block) /.test(a.notation));
    this.el.hand.replaceChildren(...hand.map((id, i) => {
      const slot = i + 1;
      const answer = this.find(`card ${slot}`) || this.find(`block ${slot}`);
      const playable = this.find(`play ${slot}`);
      const face = cardFace(id, {
        tag: "button",
        attrs: {
          type: "button", "data-slot": slot,
          class: `tv-card tier-${(card(id) || {}).tier ?? 0}${answer ? " choose" : ""}${playable ? " playable" : ""}`,
          "aria-pressed": choosing ? null : String(this.selected === slot),
          "aria-label": [t("{slot}: {card}", { slot, card: cardName(id) }), answer ? answer.description : ""].filter(Boolean).join(". "),
        },
      });
      longPress(face, id);
      return h("span", { class: "tv-slot" }, face, infoButton(id));
    }));
    if (!hand.length && this.view.seat != null) this.el.hand.append(h("span", { class: "tv-small" }, t("No cards in hand")));
  }

  renderButtons() {
    const e = this.el;
    const s = this.selected;
    e.play.disabled = !(s != null && this.find(`play ${s}`));
    e.discard.disabled = !(s != null && this.find(`discard ${s}`));
    e.discardAll.disabled = !this.find("discard-all");
    e.end.disabled = !this.find("end");
    const all = this.find("discard-all");
    e.discardAll.title = all ? all.description : t("Discard your whole hand (not now)");
    const obs = this.view.observation;
    const seated = this.view.seat !== null && this.view.seat !== undefined;
    e.input.disabled = !seated || !this.view.your_turn;
    let q = "";
    if (obs.pending && obs.pending.player === this.view.seat) {
      const c = card(obs.pending.card);
      const ask = pendingQuestion(obs.pending.kind, obs.pending.optional);
      q = obs.pending.kind === "free" ? t("Take a tier-1 card for free: click a highlighted stack, or Pass.")
        : c ? t("{card}: {question}", { card: c.name, question: ask }) : ask;
    } else if (this.view.your_turn) {
      q = s != null ? t("{slot}: {card} selected: Play or Discard.", { slot: s, card: cardName(obs.hand[s - 1]) })
        : t("Select a card to play, buy a stack's top card, or end the turn.");
    }
    e.question.textContent = q;
  }

  renderChoices() {
    const others = this.legal().filter((a) => !MAIN.has(a.notation.split(" ")[0]));
    this.el.choices.replaceChildren(...others.map((a) => h("button", {
      type: "button", class: "tv-choice", "data-notation": a.notation, title: a.notation,
      onclick: () => this.sendNotation(a.notation),
    }, a.description)));
  }

  /** The veteran's move (a hint, or a reviewed replay step): the card, stack or button that
   * does it is outlined (data-hinted); null clears it. */
  showHint(action) {
    const e = this.el;
    for (const area of [e.root, e.hand, e.choices]) {
      for (const old of area.querySelectorAll("[data-hinted]")) old.removeAttribute("data-hinted");
    }
    for (const b of [e.play, e.discard, e.discardAll, e.end]) b.removeAttribute("data-hinted");
    if (!action) return;
    const f = action.fields || {};
    const marks = [];
    if (f.kind === "play" || f.kind === "discard") {
      marks.push(e.hand.querySelector(`[data-slot='${f.arg}']`), f.kind === "play" ? e.play : e.discard);
    } else if (f.kind === "card" || f.kind === "block") {
      marks.push(e.hand.querySelector(`[data-slot='${f.arg}']`));
    } else if (f.kind === "buy" || f.kind === "stack") {
      marks.push(e.grid.querySelector(`[data-stack='${f.arg}']`));
    } else if (f.kind === "discard-all") {
      marks.push(e.discardAll);
    } else if (f.kind === "end") {
      marks.push(e.end);
    }
    marks.push(e.choices.querySelector(`[data-notation='${CSS.escape(action.notation)}']`));
    for (const m of marks) if (m) m.setAttribute("data-hinted", action.notation);
  }

  // --- the keyboard -------------------------------------------------------------------------
  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const onButton = ev.target && ev.target.closest && ev.target.closest("button, a, input, select, textarea");
    const hand = (this.view && this.view.observation.hand) || [];
    if (/^[1-9]$/.test(ev.key) && Number(ev.key) <= hand.length) {
      const b = this.el.hand.querySelector(`[data-slot='${ev.key}']`);
      if (b) this.clickHand(Number(ev.key));
      return true;
    }
    const k = ev.key.toLowerCase();
    if (ev.key === "Enter" && !onButton && this.selected != null) { this.sendSlot("play"); return true; }
    if (k === "x" && this.selected != null) { this.sendSlot("discard"); return true; }
    if (k === "a" && this.find("discard-all")) { this.sendNotation("discard-all"); return true; }
    if (k === "e" && this.find("end")) { this.sendNotation("end"); return true; }
    if (k === "n") { this.el.input.focus(); return true; }
    if (k === "i") return this.detailKey();
    return false;
  }

  /** The I key: the focused card's detail dialog, else the selected hand card's. */
  detailKey() {
    let id = cardOf(document.activeElement);
    if (id === null && this.selected != null) id = ((this.view && this.view.observation.hand) || [])[this.selected - 1] ?? null;
    if (id === null) return false;
    openCardDialog(id);
    return true;
  }

  keyRows() {
    return [
      ["1-9", t("select the card in that hand slot (answers a question on your hand)")],
      ["Enter", t("play the selected card")],
      ["X", t("discard the selected card")],
      ["A", t("discard all (a free tier-1 card when nothing was played)")],
      ["E", t("end the turn")],
      ["N", t("the notation box (play 2, buy 7, stack 1, pass ...)")],
      ["I", t("the whole card: the focused card, else the selected one")],
      ["Tab", t("the stacks (Enter buys or chooses), the hand, the buttons and the answers; a focused card shows in full beside the stacks")],
    ];
  }
}

/** The question of a pending effect, as a sentence. */
function pendingQuestion(kind, optional) {
  switch (kind) {
    case "stack": return optional ? t("Choose a stack, or pass.") : t("Choose a stack.");
    case "card": return optional ? t("Choose a card of your hand, or pass.") : t("Choose a card of your hand.");
    case "seat": return optional ? t("Choose an opponent, or pass.") : t("Choose an opponent.");
    case "resource": case "gain_choice": return optional ? t("Choose a resource, or pass.") : t("Choose a resource.");
    case "limbo": case "revive": return optional ? t("Choose a card in Limbo, or pass.") : t("Choose a card in Limbo.");
    case "block": return t("Choose a reaction to block the attack, or pass.");
    default: return optional ? t("Choose an answer, or pass.") : t("Choose an answer.");
  }
}
