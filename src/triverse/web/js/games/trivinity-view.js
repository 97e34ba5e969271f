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
import { h } from "../ui.js";
import { MODULE_NAMES, MODULE_SYMBOLS, symbolIcon, tierMark } from "./trivinity-icons.js";

let CARDS = {};
let cardsLoading = null;

/** The card table, fetched once (again after a failure). */
function loadCards() {
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

const RES = ["power", "mana", "tribute"];
const RES_NAME = { power: "Power", mana: "Mana", tribute: "Tribute" };
const RES_LETTER = { power: "P", mana: "M", tribute: "T" };
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

export const card = (id) => CARDS[id] || null;

/** "2P 1M +3" (typed costs, then any resource). */
export function costText(cost) {
  if (!cost) return "";
  const parts = RES.filter((r) => cost[r]).map((r) => `${cost[r]}${RES_LETTER[r]}`);
  if (cost.any) parts.push(parts.length ? `+${cost.any}` : `${cost.any}`);
  return parts.join(" ") || "free";
}

export function worthText(worth) {
  if (!worth) return "";
  return RES.filter((r) => worth[r]).map((r) => `${worth[r]}${RES_LETTER[r]}`).join(" ") || "0";
}

/** The final score from a player's worth totals: the two best resources plus tier bonuses. */
export function breakdown(p) {
  const values = RES.map((r) => (p.worth || {})[r] || 0);
  const best = [0, 1, 2].sort((a, b) => values[b] - values[a] || a - b).slice(0, 2);
  const bestTwo = values[best[0]] + values[best[1]];
  return {
    power: values[0], mana: values[1], tribute: values[2], best: best.map((i) => RES[i]),
    best_two: bestTwo, tier2: p.tier2 || 0, tier3: p.tier3 || 0,
    score: bestTwo + (p.tier2 || 0) + 3 * (p.tier3 || 0),
  };
}

/** A card drawn as a small face: symbol and tier, name, cost, worth, text. */
export function cardFace(id, { compact = false, tag = "div", attrs = {} } = {}) {
  const c = card(id);
  if (!c) return h(tag, { class: "tv-card unknown", ...attrs }, `card ${id}`);
  const module = MODULE_NAMES[c.module] || c.module;
  const label = `${c.name}, ${module}${c.tier ? `, tier ${c.tier}, cost ${costText(c.cost)}` : ""}, worth ${worthText(c.worth)}`
    + (c.text ? `: ${c.text}` : "");
  return h(tag, {
    class: `tv-card tier-${c.tier}${compact ? " compact" : ""}`, "data-card": id, "data-module": c.module,
    title: label, ...attrs,
  },
  h("span", { class: "tv-card-head" }, tierMark(c.tier, c.symbol),
    h("span", { class: "tv-card-name" }, c.name)),
  c.tier ? h("span", { class: "tv-card-cost", title: "Cost" }, `cost ${costText(c.cost)}`) : null,
  h("span", { class: "tv-card-worth", title: "Worth" }, ...RES.filter((r) => c.worth[r]).map((r) =>
    h("span", { class: `tv-res tv-${r}` }, `${c.worth[r]}${RES_LETTER[r]}`))),
  !compact && c.text ? h("span", { class: "tv-card-text" }, c.text) : null,
  c.until_next_turn ? h("span", { class: "tv-badge", title: "Until your next turn" }, "waits") : null,
  c.reaction ? h("span", { class: "tv-badge", title: "Reaction: blocks an attack" }, "reaction") : null);
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

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
    e.opponents = h("section", { class: "tv-opponents", "aria-label": "The other players" });
    e.grid = h("div", { class: "tv-grid", role: "group", "aria-label": "The stacks: tier 1 on top, tier 3 at the bottom" });
    e.limbo = h("section", { class: "tv-limbo", "aria-label": "Limbo" });
    e.mine = h("section", { class: "tv-mine", "aria-label": "Your play area" });
    e.final = h("section", { class: "tv-final", "aria-label": "Final scores", hidden: true });
    e.root = h("div", { class: "tv-board" },
      h("div", { class: "tv-left" }, e.grid),
      h("div", { class: "tv-right" }, e.final, e.mine, e.opponents, e.limbo));
    host.board.append(e.root);
    host.board.classList.add("tv-host");
    // The board scrolls when it does not fit: the keyboard can scroll it too.
    Object.assign(host.board, { tabIndex: 0 });
    host.board.setAttribute("role", "region");
    host.board.setAttribute("aria-label", "The board");
    e.grid.addEventListener("click", (ev) => {
      const b = ev.target.closest("[data-stack]");
      if (b && !b.disabled) this.clickStack(Number(b.dataset.stack));
    });

    // The tray: the question, the hand, the buttons, the choices and the notation box.
    e.question = h("p", { class: "tv-question", "aria-live": "polite" });
    e.hand = h("div", { class: "tv-hand", role: "group", "aria-label": "Your hand" });
    e.hand.addEventListener("click", (ev) => {
      const b = ev.target.closest("[data-slot]");
      if (b) this.clickHand(Number(b.dataset.slot));
    });
    const btn = (action, text, title, onclick) => h("button", { type: "button", "data-action": action, title, onclick, disabled: true }, text);
    e.play = btn("play", "Play", "Play the selected card (Enter)", () => this.sendSlot("play"));
    e.discard = btn("discard", "Discard", "Discard the selected card without playing it (X)", () => this.sendSlot("discard"));
    e.discardAll = btn("discard-all", "Discard all", "Discard your whole hand; with nothing played, take a tier-1 card free (A)", () => this.sendNotation("discard-all"));
    e.end = btn("end", "End turn", "End the turn and draw 5 (E)", () => this.sendNotation("end"));
    e.end.classList.add("primary");
    e.choices = h("div", { class: "tv-choices", role: "group", "aria-label": "Answers" });
    e.input = h("input", { type: "text", id: "tv-notation", name: "notation", autocomplete: "off",
      placeholder: "play 1", size: 10, "aria-label": "Action in notation" });
    const form = h("form", { class: "tv-notation", onsubmit: (ev) => { ev.preventDefault(); this.typed(); } },
      e.input, h("button", { type: "submit", "data-action": "notation" }, "Send"));
    host.tray.append(
      h("div", { class: "tv-tray-main" }, e.question, e.hand, e.choices),
      h("div", { class: "tv-controls tray-controls" }, e.play, e.discard, e.discardAll, e.end, form));
  }

  destroy() {}

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
    const obs = this.view.observation;
    const stacks = obs.stacks || [];
    this.el.grid.replaceChildren(...stacks.map((st, i) => {
      const s = i + 1;
      const pick = this.find(`stack ${s}`);
      const buy = this.find(`buy ${s}`);
      const tier = Math.floor(i / 3) + 1;
      const known = (st.known || []).length ? ` · seen: ${st.known.map((k) => (card(k.card) || {}).name).join(", ")}` : "";
      const what = st.top == null ? "empty" : (card(st.top) || {}).name;
      return h("button", {
        type: "button", class: `tv-stack tier-${tier}${pick ? " choose" : ""}${buy ? " buyable" : ""}`,
        "data-stack": s, disabled: !(pick || buy),
        "aria-label": `Stack ${s}, tier ${tier}: ${what}, ${plural(st.count, "card")}${buy ? `. ${buy.description}` : ""}${pick ? `. ${pick.description}` : ""}`,
      },
      h("span", { class: "tv-stack-head" }, h("span", { class: "tv-stack-no" }, String(s)),
        h("span", { class: "tv-stack-count", "data-count": st.count }, plural(st.count, "card"),
          h("span", { class: "tv-stack-extra" }, `${st.face_down ? ` · ${st.face_down} down` : ""}${st.buried && st.buried.length ? ` · ${st.buried.length} buried` : ""}`))),
      st.top == null ? h("span", { class: "tv-empty" }, "empty") : cardFace(st.top),
      known ? h("span", { class: "tv-known" }, known.slice(3)) : null,
      buy ? h("span", { class: "tv-buy-tag" }, "Buy") : null,
      pick ? h("span", { class: "tv-buy-tag choose" }, "Choose") : null);
    }));
  }

  renderLimbo() {
    const limbo = this.view.observation.limbo || { face_up: [], face_down: 0 };
    const items = limbo.face_up.map((id, i) => {
      const n = i + 1;
      const a = this.find(`limbo ${n}`);
      return a ? cardFace(id, { compact: true, tag: "button", attrs: { type: "button", class: "tv-card compact choose", "data-limbo": n, onclick: () => this.sendNotation(`limbo ${n}`) } })
        : cardFace(id, { compact: true });
    });
    // cardFace's class attribute from attrs replaces the default one: keep the module colours.
    const modules = ["core", ...(this.view.observation.modules || [])];
    this.el.limbo.replaceChildren(h("p", { class: "tv-small tv-modules", "data-modules": modules.join(" ") }, "Modules: ",
      ...modules.map((m) => h("span", { class: "tv-module", "data-module": m }, symbolIcon(MODULE_SYMBOLS[m] || "line"), ` ${MODULE_NAMES[m] || m} `))),
    h("h2", {}, "Limbo ", h("small", {}, `${limbo.face_up.length} face up, ${limbo.face_down} face down`)),
      h("div", { class: "tv-row" }, ...items));
  }

  pile(title, cards, attrs = {}) {
    return h("div", { class: "tv-pile", ...attrs }, h("h3", {}, title, " ", h("small", {}, String(cards.length))),
      h("div", { class: "tv-row" }, ...cards.map((id) => cardFace(id, { compact: true }))));
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
      h("h2", {}, "You ", h("small", {}, `deck ${me.deck_size} · discard ${me.discard.length} · hand ${me.hand_size}`)),
      h("div", { class: "tv-pool", "data-pool": "" }, ...RES.map((r) => h("span", { class: `tv-res tv-${r}`, "data-res": r },
        symbolResource(r), `${RES_NAME[r]} `, h("strong", {}, String(pool[r] || 0)))),
      obs.discount ? h("span", { class: "tv-res" }, `discount ${obs.discount}`) : null),
      this.pile("Played", me.played, { "data-played": seat }),
      me.waiting.length ? this.pile("Waiting until your next turn", me.waiting, { "data-waiting": seat }) : null,
    ].filter(Boolean));
  }

  renderOpponents() {
    const v = this.view;
    const obs = v.observation;
    const names = v.players.map((p) => p.name);
    const others = obs.players.map((p, q) => [p, q]).filter(([, q]) => q !== v.seat);
    this.el.opponents.replaceChildren(...others.map(([p, q]) => h("div", {
      class: `tv-opponent${v.to_move === q ? " to-move" : ""}`, "data-seat": q,
    },
    h("h2", {}, names[q] || `Player ${q + 1}`, " ", h("small", { "data-sizes": "" },
      `deck ${p.deck_size} · discard ${p.discard.length} · hand ${p.hand_size}`)),
    this.find(`seat ${q + 1}`) ? h("button", { type: "button", class: "tv-choose-seat", "data-choose-seat": q + 1,
      onclick: () => this.sendNotation(`seat ${q + 1}`) }, `Choose ${names[q] || `Player ${q + 1}`}`) : null,
    p.discard.length ? h("p", { class: "tv-small" }, "Discard top: ", (card(p.discard[p.discard.length - 1]) || {}).name) : null,
    p.played.length ? this.pile("Played", p.played) : null,
    p.waiting.length ? this.pile("Waiting until their next turn", p.waiting, { "data-waiting": q }) : null)));
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
    const names = v.players.map((p) => p.name);
    return h("table", { class: "tv-score-table", "data-breakdown": "" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), ...RES.map((r) => h("th", {}, RES_NAME[r])),
        h("th", { title: "The two best resources" }, "Best 2"), h("th", { title: "1 point per tier-2 card" }, "T2"), h("th", { title: "3 points per tier-3 card" }, "T3"), h("th", {}, "Score"))),
      h("tbody", {}, ...this.breakdowns().map((b, q) => h("tr", { "data-seat": q },
        h("th", {}, names[q] || `Player ${q + 1}`),
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
    const why = end.reason === "line" ? `three empty stacks in a line (${(end.line || []).join(", ")})`
      : end.reason === "turn_limit" ? `every player has had ${end.turns} turns` : "";
    e.replaceChildren(...[h("h2", {}, "Final score"), why ? h("p", { class: "tv-small" }, `The game ended: ${why}.`) : null,
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
      return cardFace(id, {
        tag: "button",
        attrs: {
          type: "button", "data-slot": slot,
          class: `tv-card tier-${(card(id) || {}).tier ?? 0}${answer ? " choose" : ""}${playable ? " playable" : ""}`,
          "aria-pressed": choosing ? null : String(this.selected === slot),
          "aria-label": `${slot}: ${(card(id) || {}).name}${answer ? `. ${answer.description}` : ""}`,
        },
      });
    }));
    if (!hand.length && this.view.seat != null) this.el.hand.append(h("span", { class: "tv-small" }, "No cards in hand"));
  }

  renderButtons() {
    const e = this.el;
    const s = this.selected;
    e.play.disabled = !(s != null && this.find(`play ${s}`));
    e.discard.disabled = !(s != null && this.find(`discard ${s}`));
    e.discardAll.disabled = !this.find("discard-all");
    e.end.disabled = !this.find("end");
    const all = this.find("discard-all");
    e.discardAll.title = all ? all.description : "Discard your whole hand (not now)";
    const obs = this.view.observation;
    const seated = this.view.seat !== null && this.view.seat !== undefined;
    e.input.disabled = !seated || !this.view.your_turn;
    let q = "";
    if (obs.pending && obs.pending.player === this.view.seat) {
      const c = card(obs.pending.card);
      q = obs.pending.kind === "free" ? "Take a tier-1 card for free: click a highlighted stack, or Pass."
        : `${c ? `${c.name}: ` : ""}choose ${pendingWord(obs.pending.kind)}${obs.pending.optional ? " (or pass)" : ""}.`;
    } else if (this.view.your_turn) {
      q = s != null ? `${s}: ${(card(obs.hand[s - 1]) || {}).name} selected: Play or Discard.` : "Select a card to play, buy a stack's top card, or end the turn.";
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
    return false;
  }

  keyRows() {
    return [
      ["1-9", "select the card in that hand slot (answers a question on your hand)"],
      ["Enter", "play the selected card"],
      ["X", "discard the selected card"],
      ["A", "discard all (a free tier-1 card when nothing was played)"],
      ["E", "end the turn"],
      ["N", "the notation box (play 2, buy 7, stack 1, pass ...)"],
      ["Tab", "the stacks (Enter buys or chooses), the hand, the buttons and the answers"],
    ];
  }
}

function pendingWord(kind) {
  return {
    stack: "a stack", card: "a card of your hand", seat: "an opponent", resource: "a resource",
    limbo: "a card in Limbo", block: "a reaction to block, or pass", gain_choice: "a resource",
    revive: "a card in Limbo",
  }[kind] || "an answer";
}

function symbolResource(r) {
  return h("span", { class: `tv-dot tv-${r}`, "aria-hidden": "true" });
}
