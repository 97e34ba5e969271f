// Trident's tray (issue 5): the own rack as the set's ivory tiles, Submit / Clear / Exchange /
// Pass, the notation box, the turn's clock, the joker's dialog and the server's score preview
// of the tentative play (POST /api/matches/{id}/preview), each line and refusal worded from its
// message code with the table's templates. Used by games/trident-view.js, whose view object (`v`)
// each function takes.
import { api } from "../api.js";
import { h, openDialog } from "../ui.js";
import { t, tn } from "../i18n.js";
import { renderMessage } from "../messages.js";
import { playNotation, tileFace } from "./trident-board.js";

/** Builds the tray's elements into `host.tray` and the preview box over the board. */
export function buildTray(v, host) {
  const e = {};
  e.rack = h("div", { class: "td-rack", role: "group", "aria-label": t("Your rack") });
  e.preview = h("div", { class: "td-preview", hidden: true, "aria-live": "polite" });
  e.clock = h("p", { class: "td-clock", hidden: true, role: "timer", "aria-live": "off" });
  e.submit = h("button", { type: "button", class: "primary", "data-action": "submit", onclick: () => v.submit() }, t("Submit"));
  e.clear = h("button", { type: "button", "data-action": "clear", onclick: () => v.clear() }, t("Clear"));
  e.exchange = h("button", { type: "button", "data-action": "exchange", onclick: () => v.exchangeButton() }, t("Exchange…"));
  e.pass = h("button", { type: "button", "data-action": "pass", onclick: () => v.sendAction("pass") }, t("Pass"));
  e.input = h("input", { type: "text", id: "td-notation", name: "notation", autocomplete: "off",
    placeholder: "7:7=5,7:8=10", size: 14, "aria-label": t("Type a play in notation") });
  const form = h("form", { class: "td-form", onsubmit: (ev) => { ev.preventDefault(); v.typed(); } },
    h("label", { for: "td-notation" }, t("Type")), e.input,
    h("button", { type: "submit", "data-action": "send-typed" }, t("Send")));
  host.tray.append(
    h("div", { class: "td-main" }, h("div", { class: "td-rack-line" }, e.rack, e.clock)),
    h("div", { class: "tray-controls td-controls" }, e.submit, e.clear, e.exchange, e.pass, form));
  host.board.append(e.preview);
  return e;
}

function rackTile(v, tile, i, used, ex) {
  const joker = tile === "*";
  const onBoard = used.has(i);
  let label = joker ? t("Joker") : t("Tile {value}", { value: tile });
  if (onBoard) label = joker ? t("Joker, on the board") : t("Tile {value}, on the board", { value: tile });
  return h("button", {
    type: "button", class: `td-rack-tile${joker ? " td-joker" : ""}${onBoard ? " used" : ""}`,
    "data-rack": i, "data-tile": tile,
    "aria-pressed": String(ex ? ex.has(i) : v.selected === i),
    "aria-label": label,
    disabled: onBoard && !ex,
    onpointerdown: (ev) => v.dragStart(ev, i),
    onclick: () => v.clickRack(i),
  }, joker ? h("span", { class: "td-face td-face-joker", "aria-hidden": "true" }, h("span", { class: "td-num" }, "★"))
    : tileFace(tile, false));
}

/** The rack, the buttons' states and the hint under the controls. */
export function renderTray(v) {
  const used = new Set(v.tentative.map((x) => x.slot));
  const ex = v.exchanging;
  const el = v.el;
  el.rack.replaceChildren(...v.rack.map((tile, i) => rackTile(v, tile, i, used, ex)));
  if (!v.rack.length) el.rack.append(h("span", { class: "td-empty" }, t("Rack empty")));
  const mine = v.mine();
  const kinds = v.legalKinds();
  const busy = v.table.busy;
  el.submit.disabled = !mine || busy || !v.tentative.length || Boolean(ex);
  el.clear.disabled = !v.tentative.length && !ex && v.selected === null;
  el.exchange.hidden = !kinds.has("exchange") && !ex;
  el.exchange.disabled = !mine || busy || (ex && ex.size === 0);
  el.exchange.textContent = !ex ? t("Exchange…")
    : ex.size ? tn("Exchange {n}", "Exchange {n}", ex.size) : t("Exchange");
  el.exchange.classList.toggle("primary", Boolean(ex));
  el.pass.hidden = !kinds.has("pass");
  el.pass.disabled = !mine || busy;
  el.input.disabled = !mine;
  v.table.hint(trayHint(v, mine, ex));
  document.body.dataset.tentative = playNotation(v.tentative);
}

function trayHint(v, mine, ex) {
  const view = v.view;
  if (view.finished) return "";
  if (ex) return t("Choose 1 to 3 tiles to return to the bag, then Exchange (Clear to cancel).");
  if (mine) {
    return v.tentative.length
      ? t("Submit the play, or add tiles in the same line; Backspace takes one back.")
      : t("Your turn: drag a tile to a square, or select it and press Enter on a square (arrows move).");
  }
  const p = view.players[view.to_move];
  if (!p) return "";
  return p.kind === "human" ? t("{name} plays now.", { name: p.name })
    : t("{name} (computer) plays now.", { name: p.name });
}

/** The turn's countdown next to the rack (`deadline` of the view). */
export function tick(v) {
  const view = v.view;
  const clock = v.el.clock;
  if (!view || !view.deadline || view.finished) { clock.hidden = true; return; }
  const left = Math.max(0, Math.round((Date.parse(view.deadline) - Date.now()) / 1000));
  const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  const name = (view.players[view.to_move] || {}).name;
  clock.hidden = false;
  clock.textContent = view.your_turn ? t("Your turn: {time} left", { time })
    : name ? t("{name}: {time} left", { name, time }) : t("Turn: {time} left", { time });
  clock.classList.toggle("urgent", left <= 10);
  clock.dataset.seconds = String(left);
}

/** The joker's dialog: its value, 0 to 15 (null: cancelled). */
export function askJoker(r, c) {
  const grid = h("div", { class: "td-joker-values", role: "group", "aria-label": t("The joker's value") });
  const dialog = openDialog({
    title: t("The joker at {where} counts as…", { where: `${r}:${c}` }),
    className: "td-joker-dialog",
    body: grid,
    actions: [{ label: t("Cancel"), value: null }],
    onOpen: (dlg, close) => {
      for (let n = 0; n <= 15; n += 1) {
        grid.append(h("button", { type: "button", class: "td-joker-value", "data-joker-value": n,
          onclick: () => close(n) }, String(n)));
      }
      grid.firstChild.focus();
    },
  });
  return dialog.then((n) => (n === null || n === "null" ? null : Number(n)));
}

/** Asks the server for the preview of the tentative tiles soon (a newer change wins). */
export function schedulePreview(v) {
  clearTimeout(v.previewTimer);
  if (!v.tentative.length || !v.view || !v.view.game.preview || !v.mine()) {
    hidePreview(v);
    return;
  }
  v.previewSeq += 1;              // an answer still on its way is for other tiles
  v.el.preview.classList.add("stale");
  document.body.dataset.preview = "pending";
  v.previewTimer = setTimeout(() => fetchPreview(v), 120);
}

export function hidePreview(v) {
  v.previewSeq += 1;
  v.el.preview.hidden = true;
  v.el.preview.replaceChildren();
  delete document.body.dataset.preview;
}

async function fetchPreview(v) {
  const seq = ++v.previewSeq;
  const token = v.table.tokens && v.table.tokens.get(v.table.identity);
  let data;
  try {
    data = await api.preview(v.table.matchId, token, playNotation(v.tentative), v.view.move);
  } catch {
    if (seq === v.previewSeq) hidePreview(v);
    return;
  }
  if (seq !== v.previewSeq || !data || !data.preview) return;
  showPreview(v.el.preview, data.preview, v.table.messages);
}

/** A preview item's or refusal's words from its message code (docs/messages.md) with the
 * table's templates, in the player's language; the server's English only for an unknown code. */
function said(templates, message, english) {
  return (message && message.code && renderMessage(templates, message.code, message.params)) || english || "";
}

function showPreview(box, p, templates) {
  box.hidden = false;
  if (!p.legal) {
    box.className = "td-preview illegal";
    box.replaceChildren(h("strong", {}, t("Not legal:")), " ",
      h("span", { class: "td-preview-reason", "data-code": (p.refusal && p.refusal.code) || "" },
        said(templates, p.refusal, p.reason)));
    document.body.dataset.preview = "illegal";
    return;
  }
  box.className = "td-preview";
  box.replaceChildren(
    h("strong", { class: "td-preview-total" }, t("This play scores {points}", { points: p.points })),
    h("ul", {}, ...p.items.map((it) => h("li", { "data-kind": it.kind, "data-code": it.code || "" },
      said(templates, it, it.label)))),
    p.bis ? h("p", { class: "td-preview-bis" }, t("BIS: you play again.")) : "");
  document.body.dataset.preview = String(p.points);
}
