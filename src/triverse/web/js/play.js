// The match page of the tile games (Tri-ominoes, Trinity): the board, the hand, scores and
// events, and the three ways to be at a table:
//  - one seat (against the computer, or an online invite link): one websocket for that seat;
//  - hot-seat (this browser holds several seats): one websocket at a time, as a spectator
//    while the "pass the device" screen shows, then as the seat that confirmed; so the page
//    never receives, let alone shows, a hand other than the one being played;
//  - spectator (/watch/{id}), with step-by-step replay of a finished game.
import { api, recordUrl } from "./api.js";
import { BoardView } from "./board.js";
import { Connection } from "./connection.js";
import { HandView } from "./hand.js";
import { uiFor } from "./games.js";
import { keyName, normKey, openPreferences } from "./prefs.js";
import { cheer, chime, click } from "./sound.js";
import { forgetMatch, invitesOf, prefs, seatsOf, setPrefs, addSeat, updateSeats } from "./store.js";
import {
  Board, isUp, isTriple, key, nearCells, parsePlacement, tileValues, vertexCells, ORIENTATIONS,
} from "./trigrid.js";
import { tileIcon } from "./svg.js";
import { announce, dialogOpen, h, notice, openDialog, ordinal } from "./ui.js";
import { showInvites } from "./lobby.js";

const PAN_STEP = 70;

export function renderMatch(root, { matchId, watch, replay }) {
  const page = new MatchPage(root, matchId, { watch, replay });
  page.start();
  return page;
}

class MatchPage {
  constructor(root, matchId, { watch, replay }) {
    this.root = root;
    this.matchId = matchId;
    this.watch = watch;
    this.replayStep = replay;
    this.view = null;
    this.ui = null;
    this.conn = null;
    this.identity = null;        // the seat whose socket is open (null: spectator)
    this.tokens = new Map();     // seat -> token held by this browser
    this.hotseat = false;
    this.lastSeen = null;        // highest log move shown in the feed
    this.shownFinal = false;
    this.keyCursor = -1;
    this.busy = false;
    this.destroyed = false;
    this.onKey = (e) => this.key(e);
    this.onPrefs = () => this.renderTools();
  }

  // --- start-up ----------------------------------------------------------------------------------
  start() {
    const params = new URLSearchParams(location.search);
    if (!this.watch) {
      const hashToken = decodeURIComponent(location.hash.slice(1));
      const seatParam = params.get("seat");
      if (hashToken && seatParam !== null) {
        addSeat({ match_id: this.matchId, seat: Number(seatParam), token: hashToken });
      }
      for (const s of seatsOf(this.matchId)) this.tokens.set(s.seat, s.token);
      const stored = seatsOf(this.matchId);
      this.hotseat = this.tokens.size > 1 && stored.some((s) => s.mode === "hotseat");
      if (!this.hotseat && this.tokens.size) {
        const wanted = seatParam !== null && this.tokens.has(Number(seatParam)) ? Number(seatParam)
          : [...this.tokens.keys()][0];
        this.mySeat = wanted;
      }
    }
    this.build();
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("triverse:prefs", this.onPrefs);
    if (this.watch && this.replayStep !== null) {
      this.startReplay(this.replayStep);
    } else if (this.hotseat) {
      this.connect(null);
    } else if (this.mySeat !== undefined) {
      this.connect(this.mySeat);
    } else {
      this.spectatorOnly = !this.watch;
      this.connect(null);
    }
  }

  destroy() {
    this.destroyed = true;
    if (this.conn) this.conn.close();
    clearInterval(this.replayTimer);
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("triverse:prefs", this.onPrefs);
    if (this.board) this.board.resizeObserver.disconnect();
  }

  connect(seat) {
    if (this.conn) this.conn.close();
    this.identity = seat;
    document.body.dataset.identity = seat === null ? "spectator" : String(seat);
    const token = seat === null ? null : this.tokens.get(seat);
    this.conn = new Connection(this.matchId, token, {
      onView: (view) => this.receive(view),
      onStatus: (status, delay) => this.connectionStatus(status, delay),
      onFatal: (code) => this.fatal(code),
    });
  }

  connectionStatus(status, delay) {
    document.body.dataset.connection = status;
    const el = this.el.connection;
    el.dataset.status = status;
    el.textContent = {
      connecting: "Connecting…", connected: "Connected",
      reconnecting: delay ? `Connection lost: retrying in ${Math.ceil(delay / 1000)} s` : "Reconnecting…",
      refused: "Refused",
    }[status] || status;
  }

  fatal(code) {
    const why = code === 4404 ? "There is no such game." : code === 4403
      ? "This link's seat token does not open a seat of this game." : "The server refused the connection.";
    this.el.boardArea.replaceChildren(h("div", { class: "fatal" }, h("p", {}, why), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
  }

  // --- the page -------------------------------------------------------------------------------
  build() {
    const el = {};
    this.el = el;
    el.title = h("h1", { class: "match-title" }, "Loading…");
    el.round = h("span", { class: "round" });
    el.status = h("p", { class: "status", id: "status", role: "status" });
    el.connection = h("span", { class: "connection", "aria-live": "polite" });
    el.pause = h("button", { type: "button", class: "tool", "data-action": "pause", "aria-pressed": "false",
      title: "Pause the computer players (P or Caps Lock)", onclick: () => this.togglePause() }, "Pause");
    el.sound = h("button", { type: "button", class: "tool", "data-action": "sound", "aria-pressed": "true",
      onclick: () => { setPrefs({ sound: !prefs().sound }); } }, "Sound");
    el.rulesLink = h("a", { class: "tool button-link", href: "/", target: "_blank", rel: "noopener" }, "Rules");
    el.invite = h("button", { type: "button", class: "tool", hidden: true, onclick: () => this.showInvites() }, "Invite");
    el.keysHelp = h("button", { type: "button", class: "tool", title: "Keyboard controls (?)", onclick: () => this.keysDialog() }, "Keys");
    el.quit = h("button", { type: "button", class: "tool", "data-action": "quit", title: "End the game (Escape)", onclick: () => this.quitDialog() }, "End");
    const bar = h("div", { class: "match-bar" },
      h("div", { class: "match-heading" }, el.title, el.round),
      el.status,
      h("div", { class: "match-tools" }, el.connection, el.invite, el.pause, el.sound, el.keysHelp, el.rulesLink, el.quit));

    el.boardArea = h("div", { class: "board-area" });
    el.toasts = h("div", { class: "toasts", "aria-hidden": "true" });
    el.pausedBanner = h("div", { class: "paused-banner", hidden: true }, "Paused: the computer players wait");
    el.coords = h("div", { class: "coords", hidden: true });
    const zoom = h("div", { class: "zoom", role: "group", "aria-label": "Board view" },
      h("button", { type: "button", "aria-label": "Zoom in (+)", title: "Zoom in (+)", onclick: () => this.board.zoomBy(1.25) }, "+"),
      h("button", { type: "button", "aria-label": "Zoom out (-)", title: "Zoom out (-)", onclick: () => this.board.zoomBy(0.8) }, "−"),
      h("button", { type: "button", "aria-label": "Fit the board (0)", title: "Fit the board (0)", onclick: () => this.board.fit() }, "Fit"));
    const boardHost = h("div", { class: "board-host" });
    el.boardArea.append(boardHost, zoom, el.toasts, el.pausedBanner, el.coords);
    this.board = new BoardView(boardHost, { onCellClick: (cell, point) => this.boardClick(cell, point) });
    this.board.root.addEventListener("pointermove", (e) => this.hover(e));
    this.board.root.addEventListener("pointerleave", () => { el.coords.hidden = true; if (!this.drag) this.board.setPreview(null); });
    this.board.layers.slots.addEventListener("keydown", (e) => {
      const slot = e.target.closest("[data-slot]");
      if (slot && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        this.placeAt(slot.dataset.slot.split(",").map(Number));
      }
    });
    this.board.layers.slots.addEventListener("focusin", (e) => {
      const slot = e.target.closest("[data-slot]");
      if (slot) this.previewAt(slot.dataset.slot.split(",").map(Number));
    });

    el.scores = h("table", { class: "scores" });
    el.pool = h("p", { class: "pool" });
    el.feed = h("ol", { class: "feed", "aria-label": "Events, newest last" });
    const side = h("aside", { class: "side", "aria-label": "Scores and events" },
      h("section", { class: "score-panel" }, h("h2", {}, "Scores"), el.scores, el.pool),
      h("section", { class: "feed-panel" }, h("h2", {}, "Events"), el.feed));

    el.hand = h("div", { class: "hand" });
    this.hand = new HandView(el.hand, {
      onSelect: (tile) => this.selected(tile),
      onPointerDown: (e, tile, button) => this.dragStart(e, tile, button),
    });
    el.rotL = h("button", { type: "button", class: "rotate", "data-action": "rotate-left", onclick: () => this.rotate(-1) }, "⟲");
    el.rotR = h("button", { type: "button", class: "rotate", "data-action": "rotate-right", onclick: () => this.rotate(1) }, "⟳");
    el.draw = h("button", { type: "button", class: "draw", "data-action": "draw", onclick: () => this.send("draw") }, "Draw −5");
    el.pass = h("button", { type: "button", class: "pass", "data-action": "pass", hidden: true, onclick: () => this.send("pass") }, "Pass");
    el.hint = h("p", { class: "hint", id: "hand-hint" });
    el.refusal = h("p", { class: "refusal", role: "alert", "data-refusal": "" });
    el.tray = h("section", { class: "tray", "aria-label": "Your tiles and moves" },
      h("div", { class: "tray-tiles" }, el.hand),
      h("div", { class: "tray-controls" },
        h("div", { class: "rotation", role: "group", "aria-label": "Rotate the selected tile" }, el.rotL, el.rotR),
        el.draw, el.pass),
      h("div", { class: "tray-messages" }, el.hint, el.refusal));
    el.replay = h("section", { class: "replay-bar", hidden: true, "aria-label": "Replay" });

    this.section = h("section", { class: "match", "aria-label": "Game" },
      bar, h("div", { class: "match-main" }, el.boardArea, side), el.tray, el.replay);
    this.root.replaceChildren(this.section);
    this.renderTools();
  }

  renderTools() {
    const p = prefs();
    this.el.sound.setAttribute("aria-pressed", p.sound ? "true" : "false");
    this.el.sound.textContent = p.sound ? "Sound on" : "Sound off";
    this.el.rotL.setAttribute("aria-label", `Turn the selected tile counter-clockwise (${keyName(p.rotateLeft)})`);
    this.el.rotL.title = this.el.rotL.getAttribute("aria-label");
    this.el.rotR.setAttribute("aria-label", `Turn the selected tile clockwise (${keyName(p.rotateRight)})`);
    this.el.rotR.title = this.el.rotR.getAttribute("aria-label");
  }

  // --- views ----------------------------------------------------------------------------------
  receive(view) {
    if (this.destroyed || view.match_id !== this.matchId) return;
    if (view.seat !== this.identity) return;   // a late view of a socket being replaced
    if (!this.ui) {
      this.ui = uiFor(view.game.name);
      if (!this.ui) {
        this.el.boardArea.replaceChildren(h("div", { class: "fatal" },
          h("p", {}, `${view.game.title} cannot be played in the browser yet.`), h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
        return;
      }
      this.el.rulesLink.href = this.ui.rules;
      if (view.mode === "hotseat" && this.tokens.size > 1 && !this.hotseat) {
        this.hotseat = true;
      }
      if (this.tokens.size) updateSeats(this.matchId, { game: view.game.name, mode: view.mode });
      if (invitesOf(this.matchId)) this.el.invite.hidden = false;
    }
    if (this.hotseat) {
      const active = this.activeHuman(view);
      if (this.identity !== null && active !== this.identity) {
        // The seat just played: forget its hand before anything shows, then watch until the
        // next player confirms.
        this.lockHand();
        this.connect(null);
        view = { ...view, seat: null, your_turn: false, legal_actions: [],
          observation: { ...view.observation, hand: null } };
      }
      this.view = view;
      this.render(view);
      if (this.identity === null && active !== null && !view.finished) this.passScreen(active);
      return;
    }
    this.view = view;
    this.render(view);
  }

  /** The human seat whose tiles the hot-seat screen should show: the seat to move, or while a
   * computer moves, the next human seat (as Trinity's seed says). */
  activeHuman(view) {
    if (view.finished || view.to_move === null) return null;
    const n = view.players.length;
    for (let k = 0; k < n; k++) {
      const seat = (view.to_move + k) % n;
      if (view.players[seat].kind === "human" && this.tokens.has(seat)) return seat;
    }
    return null;
  }

  lockHand() {
    this.hand.setTiles(null);
    this.hand.selected = null;
    this.board.setSlots([]);
    this.board.setPreview(null);
    this.el.hint.textContent = "";
    this.el.refusal.textContent = "";
  }

  passScreen(seat) {
    if (this.passing === seat) return;
    this.passing = seat;
    const name = this.view.players[seat].name;
    openDialog({
      title: `Pass the device to ${name}`,
      body: h("p", {}, `${name}, press the button when nobody else can see the screen: your tiles will show.`),
      className: "pass-dialog", dismissible: false,
      actions: [{ label: "Back to the lobby", value: "lobby" }, { label: `Show ${name}'s tiles`, value: "reveal", primary: true }],
    }).then((v) => {
      this.passing = undefined;
      if (this.destroyed) return;
      if (v === "lobby") { window.triverseNavigate("/"); return; }
      if (this.view && this.activeHuman(this.view) === seat) this.connect(seat);
    });
  }

  render(view) {
    const ui = this.ui;
    if (!ui) return;
    const obs = view.observation;
    const names = view.players.map((p) => p.name);
    document.title = `${view.game.title} · Triverse`;
    this.el.title.textContent = view.game.title;
    this.el.round.textContent = [ui.roundText(obs), ui.targetText(view)].filter(Boolean).join(" · ");
    const body = document.body.dataset;
    body.move = String(view.move);
    body.yourTurn = String(view.your_turn);
    body.finished = String(view.finished);
    body.paused = String(view.paused);
    body.toMove = view.to_move === null ? "" : String(view.to_move);

    // Status line.
    let status;
    if (view.finished) status = "Game over";
    else if (view.your_turn) status = "Your turn";
    else if (this.hotseat && this.identity === null) status = `${names[view.to_move]} to play`;
    else {
      const p = view.players[view.to_move];
      status = p.kind === "human" ? `Waiting for ${p.name}` : `${p.name} is thinking…`;
      if (view.paused && p.kind !== "human") status = `${p.name} waits: paused`;
    }
    if (this.spectatorOnly) status = `Watching: this browser holds no seat here · ${status}`;
    this.el.status.textContent = status;
    this.el.status.dataset.turn = String(view.your_turn);

    // Scores.
    const counts = obs.hand_counts || [];
    this.el.scores.replaceChildren(
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Tiles"))),
      h("tbody", {}, ...view.players.map((p, i) => h("tr", {
        class: [i === view.to_move ? "to-move" : "", i === view.seat ? "me" : "", p.connected ? "" : "away"].join(" ").trim(),
        "data-seat": i,
      },
      h("th", { scope: "row" },
        h("span", { class: "dot", title: p.connected ? "connected" : "not connected" }),
        p.name, i === view.seat ? h("span", { class: "you" }, " (you)") : null,
        p.kind !== "human" ? h("span", { class: "kind" }, ` ${p.kind}`) : null),
      h("td", { class: "score" }, String(view.scores[i])),
      h("td", { class: "count" }, counts[i] === undefined ? "" : String(counts[i]))))));
    this.el.pool.textContent = obs.pool_count === undefined ? "" : `Pool: ${obs.pool_count}`;
    this.el.pool.title = "Tiles left to draw";

    // Pause.
    this.el.pause.setAttribute("aria-pressed", String(view.paused));
    this.el.pause.textContent = view.paused ? "Resume" : "Pause";
    this.el.pause.disabled = this.identity === null || view.finished;
    this.el.pausedBanner.hidden = !view.paused || view.finished;

    // Board.
    const placements = (obs.board || []).map((p) => ({ cell: p.cell, corners: p.corners, tile: p.tile }));
    this.board.setPlacements(placements, this.recentCells(view));
    this.localBoard = new Board(placements);
    if (!this.boardMarked) {
      this.boardMarked = true;
      performance.mark("triverse:board-rendered");
      body.boardReady = "true";
    }

    // Hand and buttons.
    const seated = view.seat !== null && view.seat !== undefined;
    this.el.tray.hidden = !seated;
    this.section.classList.toggle("spectating", !seated);
    if (seated) {
      this.hand.setTiles(obs.hand || []);
      const kinds = new Set(view.legal_actions.map((a) => a.kind));
      this.el.draw.hidden = false;
      this.el.draw.textContent = `Draw −${ui.drawPenalty}`;
      this.el.draw.disabled = !kinds.has("draw") || this.busy;
      this.el.draw.title = kinds.has("draw") ? "Draw a tile from the pool (D)"
        : view.your_turn ? "You can play a tile, so you may not draw" : "Wait for your turn";
      this.el.pass.hidden = !kinds.has("pass");
      this.selected(this.hand.selected);
    }

    this.feed(view, names);
    if (view.finished && !this.shownFinal) {
      this.shownFinal = true;
      this.finalDialog(view, this.lastSeenAtLoad !== undefined && this.lastSeenAtLoad < view.move - 1);
    }
  }

  recentCells(view) {
    const out = new Set();
    const log = view.log || [];
    for (let i = log.length - 1; i >= 0; i--) {
      const entry = log[i];
      if (view.seat !== null && entry.player === view.seat && i < log.length - 1) break;
      for (const e of entry.events) if (e.kind === "place" && e.data.cell) out.add(key(e.data.cell));
      if (view.seat === null) break;
      if (entry.events.some((e) => e.kind === "round_start" || e.kind === "round_end")) break;
    }
    return out;
  }

  // --- events -----------------------------------------------------------------------------------
  feed(view, names) {
    const log = view.log || [];
    const fresh = this.lastSeen === null;
    if (fresh) {
      this.lastSeenAtLoad = log.length ? log[log.length - 1].move : -1;
      this.el.feed.replaceChildren();
    }
    const label = (text) => text.replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n)] ?? m);
    const newEntries = log.filter((entry) => this.lastSeen === null || entry.move > this.lastSeen);
    for (const entry of newEntries) {
      for (const e of entry.events) {
        if (!e.label) continue;
        const who = e.player === null || e.player === undefined ? "" : names[e.player];
        const text = e.kind === "place" || e.kind.startsWith("round") || e.kind === "game_end" || e.kind === "start_draw"
          ? label(e.label) : `${who}: ${label(e.label)}`;
        this.el.feed.append(h("li", { class: `ev ev-${e.kind} ${e.data && e.data.reason ? `r-${e.data.reason}` : ""}`, "data-move": entry.move }, text));
        if (fresh) continue;
        if (e.kind === "score" && this.ui.bigReasons.includes(e.data.reason)) {
          this.toast(`${who}: ${label(e.label)}`);
          if (["hexagon", "bridge", "span", "slide"].includes(e.data.reason)) chime();
          if (e.data.vertex) this.board.flashCells(vertexCells(e.data.vertex));
          for (const v of e.data.vertices || []) this.board.flashCells(vertexCells(v));
        }
      }
      if (!fresh) {
        const summary = entry.events.filter((e) => e.label).map((e) => label(e.label)).join(", ");
        if (summary) announce(summary);
        if (entry.events.some((e) => e.kind === "place")) click();
        const roundEnd = entry.events.find((e) => e.kind === "round_end");
        if (roundEnd && !entry.events.some((e) => e.kind === "game_end")) this.roundDialog(roundEnd, view, names);
      }
    }
    while (this.el.feed.childElementCount > 120) this.el.feed.firstElementChild.remove();
    if (log.length) this.lastSeen = Math.max(this.lastSeen ?? -1, log[log.length - 1].move);
    else if (this.lastSeen === null) this.lastSeen = -1;
    this.el.feed.scrollTop = this.el.feed.scrollHeight;
  }

  toast(text) {
    const t = h("div", { class: "toast" }, text);
    this.el.toasts.append(t);
    setTimeout(() => t.remove(), 2600);
  }

  roundDialog(event, view, names) {
    const d = event.data || {};
    const scores = d.scores || view.scores;
    const rows = view.players.map((p, i) => h("tr", {},
      h("th", { scope: "row" }, p.name),
      d.hand_totals ? h("td", {}, String(d.hand_totals[i])) : null,
      h("td", {}, String(scores[i]))));
    openDialog({
      title: d.round ? `End of round ${d.round}` : "End of the round",
      body: h("div", {}, h("p", {}, event.label.replace(/\bSeat (\d+)\b/g, (m, n) => names[Number(n)] ?? m)),
        h("table", { class: "standings" }, h("thead", {}, h("tr", {}, h("th", {}, "Player"),
          d.hand_totals ? h("th", {}, "Left in hand") : null, h("th", {}, "Score"))), h("tbody", {}, ...rows))),
      className: "round-dialog",
      actions: [{ label: "Next round", value: "ok", primary: true }],
    });
  }

  finalDialog(view, celebrate) {
    const result = view.result || { scores: view.scores, ranks: view.scores.map(() => 1) };
    const order = view.players.map((p, i) => ({ p, i, score: result.scores[i], rank: result.ranks[i] }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i);
    const winners = order.filter((o) => o.rank === 1);
    let headline;
    if (winners.length > 1) headline = `Draw: ${winners.map((w) => w.p.name).join(" and ")}`;
    else if (this.identity !== null && winners[0].i === this.identity && !this.hotseat) headline = "You won!";
    else if (this.identity !== null && !this.hotseat && view.players.filter((p) => p.kind === "human").length === 1) headline = `You lost: ${winners[0].p.name} wins`;
    else headline = `${winners[0].p.name} wins!`;
    if (celebrate) cheer();
    const table = h("table", { class: "standings final" },
      h("thead", {}, h("tr", {}, h("th", {}, "Place"), h("th", {}, "Player"), h("th", {}, "Score"))),
      h("tbody", {}, ...order.map((o) => h("tr", { class: o.rank === 1 ? "winner" : "" },
        h("td", {}, ordinal(o.rank)), h("th", { scope: "row" }, o.p.name), h("td", {}, String(o.score))))));
    openDialog({
      title: "Final standings", className: "final-dialog",
      body: h("div", {}, h("p", { class: "headline", "data-headline": "" }, headline), table),
      actions: [
        { label: "Lobby", value: "lobby" },
        { label: "Download record", value: "record" },
        { label: "Replay", value: "replay", primary: true },
      ],
    }).then((v) => {
      if (v === "lobby") window.triverseNavigate("/");
      if (v === "replay") window.triverseNavigate(`/watch/${this.matchId}?replay=0`);
      if (v === "record") {
        const a = h("a", { href: recordUrl(this.matchId), download: `${view.game.name}-${this.matchId}.json` });
        document.body.append(a);
        a.click();
        a.remove();
      }
    });
    announce(`Game over. ${headline}`);
  }

  // --- selecting, turning, placing ---------------------------------------------------------------
  selected(tile) {
    const view = this.view;
    this.keyCursor = -1;
    if (!tile || !view || view.seat === null) {
      this.board.setSlots([]);
      this.el.hint.textContent = view && view.seat !== null && view.your_turn && !view.finished
        ? "Select a tile, then drop it on the board (or click a cell)." : "";
      this.slots = [];
      this.el.rotL.disabled = this.el.rotR.disabled = !tile;
      return;
    }
    this.el.rotL.disabled = this.el.rotR.disabled = false;
    const [up, rotation, corners] = this.hand.placed(tile);
    const triple = isTriple(tileValues(tile));
    let cells = [], elsewhere = 0;
    if (view.your_turn) {
      // Read from the notation, which every tile game writes TILE@X,Y/R.
      const places = view.legal_actions.map((a) => parsePlacement(a.notation))
        .filter((p) => p && p.tile === tile);
      for (const p of places) {
        const here = isUp(p.cell) === up && (triple || p.rotation === rotation);
        if (here) cells.push(p.cell);
        else elsewhere += 1;
      }
    } else if (this.localBoard) {
      cells = this.localBoard.frontier().filter((c) => isUp(c) === up && !this.localBoard.misfit(c, corners));
    }
    this.slots = cells;
    this.board.setSlots(cells, {
      focusable: view.your_turn,
      label: (c) => `Place ${tile} on cell ${key(c)}`,
    });
    let hint;
    if (view.your_turn) {
      hint = cells.length
        ? `${tile} fits ${cells.length} place${cells.length === 1 ? "" : "s"} turned this way${elsewhere ? `, ${elsewhere} more turned another way` : ""}. Drop it, click a place, or press ] and Enter.`
        : elsewhere ? `${tile} fits nowhere turned this way: turn it (${keyName(prefs().rotateLeft)} / ${keyName(prefs().rotateRight)}).`
          : `${tile} fits nowhere on the board now.`;
    } else {
      hint = `Planning: ${tile} would fit ${cells.length} place${cells.length === 1 ? "" : "s"} turned this way.`;
    }
    this.el.hint.textContent = hint;
  }

  rotate(steps) {
    if (!this.hand.selected) {
      this.el.hint.textContent = "Select a tile first.";
      return;
    }
    this.hand.rotate(steps);
    if (this.lastPreviewCell) this.previewAt(this.lastPreviewCell);
  }

  /** The cell a drop or click at board point (bx, by) aims at, for the selected tile. */
  target(point) {
    const tile = this.hand.selected;
    if (!tile) return null;
    const [up] = this.hand.placed(tile);
    const near = nearCells(point[0], point[1], up, 4);
    const slotKeys = new Set((this.slots || []).map(key));
    const snap = near.find((n) => slotKeys.has(key(n.cell)) && n.dist < 0.75);
    const cell = snap ? snap.cell : near[0].cell;
    return { cell, ok: Boolean(snap) };
  }

  previewAt(cell) {
    const tile = this.hand.selected;
    if (!tile) return;
    this.lastPreviewCell = cell;
    const [up, , corners] = this.hand.placed(tile);
    if (isUp(cell) !== up) { this.board.setPreview(null); return; }
    const ok = (this.slots || []).some((c) => key(c) === key(cell));
    this.board.setPreview(cell, corners, ok, tile);
  }

  hover(e) {
    const p = this.board.toBoard(e.clientX, e.clientY);
    if (prefs().coordinates) {
      const t = nearCells(p[0], p[1], undefined, 1)[0];
      this.el.coords.hidden = false;
      this.el.coords.textContent = `cell ${key(t.cell)}`;
    }
    if (this.drag || !this.hand.selected || this.board.dragging?.moved) return;
    const t = this.target(p);
    if (t) this.previewAt(t.cell);
  }

  boardClick(cell, point) {
    if (!this.view || this.view.seat === null) return;
    if (!this.hand.selected) {
      if (this.view.your_turn) this.el.hint.textContent = "Select a tile in your hand first.";
      return;
    }
    const t = this.target(point);
    if (t) this.placeAt(t.cell);
  }

  placeAt(cell) {
    const tile = this.hand.selected;
    if (!tile) return;
    const [up, rotation] = this.hand.placed(tile);
    if (isUp(cell) !== up) {
      this.refuse(`${tile} points ${up ? "up" : "down"}: it goes on a cell pointing ${up ? "up" : "down"}.`);
      return;
    }
    const r = isTriple(tileValues(tile)) ? 0 : rotation;
    this.send(`${tile}@${cell[0]},${cell[1]}/${r}`, cell);
  }

  async send(notation, cell = null) {
    const view = this.view;
    if (!view || view.seat === null || this.busy) return;
    this.busy = true;
    this.el.refusal.textContent = "";
    let answer;
    if (this.conn && this.conn.connected) {
      answer = await this.conn.act(notation, view.move);
    } else {
      try {
        const r = await api.act(this.matchId, this.tokens.get(this.identity), notation, view.move);
        answer = { type: "accepted", move: r.move };
        this.busy = false;
        this.receive(r.view);
      } catch (err) {
        answer = { type: "error", code: err.code, message: err.message };
      }
    }
    this.busy = false;
    if (answer.type === "error") {
      this.refuse(answer.message, cell);
      if (answer.code === "stale_move" && this.conn) this.conn.sync();
    } else {
      this.board.setPreview(null);
      this.lastPreviewCell = null;
      if (notation !== "draw" && notation !== "pass") this.hand.select(null);
    }
    if (this.view) this.render(this.view);
  }

  refuse(message, cell) {
    const text = `Refused: ${message}`;
    this.el.refusal.textContent = text;
    announce(text);
    if (cell) {
      const tile = this.hand.selected;
      if (tile) {
        const [, , corners] = this.hand.placed(tile);
        this.board.setPreview(cell, corners, false, tile);
      }
    }
  }

  // --- dragging a tile from the hand ---------------------------------------------------------------
  dragStart(e, tile, button) {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    const start = { x: e.clientX, y: e.clientY, id: e.pointerId, tile, button, ghost: null, moved: false };
    const move = (ev) => {
      if (ev.pointerId !== start.id) return;
      if (!start.moved) {
        if (Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < 6) return;
        start.moved = true;
        this.drag = start;
        if (this.hand.selected !== tile) this.hand.select(tile);
        const [up, , corners] = this.hand.placed(tile);
        start.ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" }, tileIcon(corners, up));
        start.ghost.style.width = `${this.board.scale}px`;
        document.body.append(start.ghost);
        document.body.classList.add("dragging-tile");
      }
      ev.preventDefault();
      const over = this.board.contains(ev.clientX, ev.clientY);
      start.ghost.style.transform = `translate(${ev.clientX - this.board.scale / 2}px, ${ev.clientY - this.board.scale * 0.45}px)`;
      start.ghost.classList.toggle("over-board", over);
      if (over) {
        const t = this.target(this.board.toBoard(ev.clientX, ev.clientY));
        if (t) this.previewAt(t.cell);
        start.target = t;
      } else {
        this.board.setPreview(null);
        start.target = null;
      }
    };
    const up = (ev) => {
      if (ev.pointerId !== start.id) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!start.moved) return;
      this.hand.suppressClick = true;
      setTimeout(() => { this.hand.suppressClick = false; }, 0);
      start.ghost.remove();
      document.body.classList.remove("dragging-tile");
      this.drag = null;
      if (ev.type === "pointerup" && start.target && this.board.contains(ev.clientX, ev.clientY)) {
        this.placeAt(start.target.cell);
      } else {
        this.board.setPreview(null);
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  // --- keyboard -----------------------------------------------------------------------------------
  key(e) {
    if (this.destroyed || dialogOpen() || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    const p = prefs();
    const k = normKey(e.key);
    const pans = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
    if (pans[e.key]) {
      e.preventDefault();
      this.board.pan(...pans[e.key]);
    } else if (k === "+" || k === "=") {
      this.board.zoomBy(1.25);
    } else if (k === "-" || k === "_") {
      this.board.zoomBy(0.8);
    } else if (k === "0") {
      this.board.fit();
    } else if (e.key === "Escape") {
      e.preventDefault();
      this.quitDialog();
    } else if (e.key === "CapsLock" || k === "p") {
      this.togglePause();
    } else if (k === p.rotateLeft || k === p.rotateRight) {
      e.preventDefault();
      this.rotate(k === p.rotateRight ? 1 : -1);
    } else if (k === "d") {
      if (this.view && this.view.legal_actions.some((a) => a.kind === "draw")) this.send("draw");
    } else if (k === "]" || k === "[") {
      this.cycleSlot(k === "]" ? 1 : -1);
    } else if (k === "?") {
      this.keysDialog();
    } else if (e.key === "Enter" && this.lastPreviewCell && this.hand.selected
      && !(t && t.closest && t.closest("button, a, [data-slot]"))) {
      this.placeAt(this.lastPreviewCell);
    }
  }

  cycleSlot(step) {
    if (!this.hand.selected) {
      const first = this.el.hand.querySelector("button[data-tile]");
      if (first) first.focus();
      this.el.hint.textContent = "Select a tile first (Enter or Space on a tile).";
      return;
    }
    const slots = this.slots || [];
    if (!slots.length) {
      this.el.hint.textContent = "No place for this tile turned this way: turn it.";
      return;
    }
    this.keyCursor = ((this.keyCursor + step) % slots.length + slots.length) % slots.length;
    const cell = slots[this.keyCursor];
    this.board.reveal(cell);
    const slot = this.board.slotElement(cell);
    if (slot && slot.getAttribute("tabindex") === "0") slot.focus();
    this.previewAt(cell);
  }

  keysDialog() {
    const p = prefs();
    const rows = [
      ["Tab / Shift+Tab", "move between tiles, places on the board and buttons"],
      ["Enter or Space on a tile", "select it"],
      [`${keyName(p.rotateLeft)} / ${keyName(p.rotateRight)}`, "turn the selected tile (Preferences changes these)"],
      ["] and [", "next / previous place where the selected tile fits"],
      ["Enter", "place the tile there"],
      ["D", "draw a tile (when you cannot play)"],
      ["Arrow keys", "scroll the board (or drag it)"],
      ["+ / − / 0", "zoom in, zoom out, fit the board (or the mouse wheel)"],
      ["P or Caps Lock", "pause or resume the computer players"],
      ["Escape", "end the game (and save it)"],
    ];
    openDialog({
      title: "Keyboard controls",
      body: h("table", { class: "keys" }, h("tbody", {}, ...rows.map(([k, what]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, what))))),
      actions: [{ label: "Preferences…", value: "prefs" }, { label: "Close", value: null, primary: true }],
    }).then((v) => { if (v === "prefs") openPreferences(); });
  }

  // --- pause, quit, invites -----------------------------------------------------------------------
  async togglePause() {
    const view = this.view;
    if (!view || this.identity === null || view.finished) return;
    const want = !view.paused;
    let answer;
    if (this.conn && this.conn.connected) answer = await this.conn.pause(want);
    else {
      try {
        this.receive(await api.pause(this.matchId, this.tokens.get(this.identity), want));
      } catch (err) {
        answer = { type: "error", message: err.message };
      }
    }
    if (answer && answer.type === "error") notice(answer.message, "error");
    else announce(want ? "Paused: the computer players wait." : "Resumed.");
  }

  quitDialog() {
    const view = this.view;
    if (!view) { window.triverseNavigate("/"); return; }
    if (view.finished || this.identity === null && !this.hotseat) {
      window.triverseNavigate("/");
      return;
    }
    const refusal = this.ui ? this.ui.saveRefusal(view) : null;
    openDialog({
      title: "End this game?",
      body: h("div", {},
        h("p", {}, "Every move is already stored on the server. Save keeps the game in My games on this browser, to continue later; ending without saving forgets your seat here."),
        refusal ? h("p", { class: "refusal", "data-save-refusal": "" }, refusal) : null),
      actions: [
        { label: "Keep playing", value: null },
        { label: "End without saving", value: "forget", danger: true },
        { label: "Save and leave", value: "save", primary: true, disabled: Boolean(refusal), title: refusal || undefined },
      ],
    }).then((v) => {
      if (v === "forget") {
        forgetMatch(this.matchId);
        window.triverseNavigate("/");
      } else if (v === "save") {
        window.triverseNavigate("/");
      }
    });
  }

  showInvites() {
    const inv = invitesOf(this.matchId);
    if (inv) showInvites(this.matchId, this.view ? this.view.game.title : "", inv.seats, inv.spectator, null);
  }

  // --- replay ---------------------------------------------------------------------------------
  async startReplay(step) {
    this.el.tray.hidden = true;
    this.section.classList.add("spectating", "replaying");
    this.el.pause.hidden = true;
    const bar = this.el.replay;
    bar.hidden = false;
    const pos = h("span", { class: "replay-pos", "aria-live": "polite" });
    const slider = h("input", { type: "range", min: 0, max: 0, value: 0, "aria-label": "Move" });
    const btn = (label, aria, fn, action) => h("button", { type: "button", "aria-label": aria, title: aria, "data-replay-action": action, onclick: fn }, label);
    const play = btn("Play", "Play the moves one after another", () => this.autoplay(play), "play");
    bar.replaceChildren(
      btn(icon("M4 3h2v10H4zM13 3v10L6 8z"), "Start", () => this.replayTo(0), "start"),
      btn(icon("M12 3v10L5 8z"), "Previous move", () => this.replayTo(this.step - 1), "prev"),
      play,
      btn(icon("M4 3v10l7-5z"), "Next move", () => this.replayTo(this.step + 1), "next"),
      btn(icon("M3 3v10l7-5zM10 3h2v10h-2z"), "End", () => this.replayTo(this.total), "end"),
      slider, pos,
      h("a", { class: "button-link", href: recordUrl(this.matchId), download: `record-${this.matchId}.json` }, "Download record"));
    slider.addEventListener("input", () => this.replayTo(Number(slider.value)));
    this.replayEls = { pos, slider };
    this.shownFinal = true;
    await this.replayTo(step);
  }

  async replayTo(k) {
    if (this.total !== undefined) k = Math.max(0, Math.min(this.total, k));
    let data;
    try {
      data = await api.replay(this.matchId, k);
    } catch (err) {
      this.el.status.textContent = err.message;
      if (err.code === "not_finished") {
        this.el.replay.replaceChildren(h("p", {}, "This game is not over yet: watch it live. ", h("a", { href: `/watch/${this.matchId}` }, "Watch")));
      }
      return;
    }
    this.step = data.move;
    this.total = data.total;
    const { pos, slider } = this.replayEls;
    slider.max = String(data.total);
    slider.value = String(data.move);
    pos.textContent = `Move ${data.move} of ${data.total}`;
    document.body.dataset.replayStep = String(data.move);
    if (!this.ui) {
      this.ui = uiFor(data.view.game.name);
      if (!this.ui) return;
      this.el.rulesLink.href = this.ui.rules;
    }
    this.view = data.view;
    this.lastSeen = null;
    this.render(data.view);
    if (data.move === data.total) this.el.status.textContent = "Game over: replay";
    else this.el.status.textContent = "Replay";
  }

  autoplay(button) {
    if (this.replayTimer) {
      clearInterval(this.replayTimer);
      this.replayTimer = null;
      button.textContent = "Play";
      return;
    }
    button.textContent = "Stop";
    this.replayTimer = setInterval(() => {
      if (this.step >= this.total) { this.autoplay(button); return; }
      this.replayTo(this.step + 1);
    }, 700);
  }
}

/** A small SVG icon (16 x 16) from a path. */
function icon(d) {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "0 0 16 16");
  s.setAttribute("class", "icon");
  s.setAttribute("aria-hidden", "true");
  const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
  p.setAttribute("d", d);
  s.append(p);
  return s;
}

export { ORIENTATIONS };
