// The table: everything about being at a match that is the same for every game. It holds the
// connection, the seats this browser holds, the heading and its tools (pause, sound, keys,
// rules, invite, end), the score panel and the event feed, the end-of-round and final
// screens, statistics against the computer, hot-seat and replay. What is drawn on the board
// and in the tray below it belongs to the game's *view*: the game's own module (the `view` its
// server names in GET /api/games, loaded by games.js), created with createView(table, host);
// docs/web.md, "Adding a game's UI", describes the interface.
//
// Three ways to be at a table:
//  - one seat (against the computer, or an online invite link): one websocket for that seat;
//  - hot-seat (this browser holds several seats): one websocket at a time. For a game with
//    hidden information (passScreen of its entry) the socket is a spectator's while the "pass
//    the device" screen shows, then the seat's that confirmed; so the page never receives, let
//    alone shows, a hand other than the one being played. A game without hidden information
//    simply switches to the seat to move;
//  - spectator (/watch/{id}), with step-by-step replay of a finished game.
import { account, notifyMe } from "./session.js";
import { api } from "./api.js";
import { Connection } from "./connection.js";
import { loadCatalogue, loadView } from "./games.js";
import { formatNumber, t } from "./i18n.js";
import { groupEvents, localTemplates, renderMessage, serverErrorText } from "./messages.js";
import { displayNames, hasDefaultName } from "./names.js";
import { pushState } from "./push.js";
import { cheer, chime, click } from "./sound.js";
import { addSeat, invitesOf, prefs, seatsOf, setPrefs, updateSeats } from "./store.js";
import { announce, h, openDialog } from "./ui.js";
import { TableEnd } from "./table-end.js";
import { TableScores } from "./table-scores.js";
import { TableReview } from "./table-review.js";
import { TableTools } from "./table-tools.js";

export function renderMatch(root, { matchId, watch, replay }) {
  const table = new Table(root, matchId, { watch, replay });
  table.start();
  return table;
}

export class Table {
  constructor(root, matchId, { watch, replay }) {
    this.root = root;
    this.matchId = matchId;
    this.watch = watch;
    this.replayStep = replay;
    this.replaying = replay !== null && replay !== undefined && watch;
    this.view = null;
    this.ui = null;              // the game's entry (its module's, loaded by games.js)
    this.gameView = null;        // the game's view (createView of its module)
    this.loading = null;         // the promise of the entry and the view (setUp)
    this.waiting = null;         // the newest view received while they load
    this.greeted = false;        // the first view after they loaded was seen
    this.conn = null;
    this.identity = null;        // the seat whose socket is open (null: spectator)
    this.tokens = new Map();     // seat -> token held by this browser
    this.hotseat = false;
    this.messages = {};          // the game's message templates, by code (messages.js)
    this.lastSeen = null;        // highest log move shown in the feed
    this.shownFinal = false;
    this.busy = false;
    this.destroyed = false;
    this.hintShown = null;       // {move, action}: the veteran's suggestion shown on the board
    this.hinting = false;        // a hint asked for, not answered yet
    this.review = null;          // the veteran's review of the finished game, once loaded
    this.onKey = (e) => this.key(e);
    this.onPrefs = () => this.prefsChanged();
  }

  // --- what a game's view may use (docs/web.md, "Adding a game's UI") ----------------------------
  /** The seat this page plays now (null: watching). */
  get seat() {
    return this.view && this.view.seat !== undefined ? this.view.seat : null;
  }

  /** The players' names, by seat, as this table shows them (names.js: "You", "Computer
   * (average)"). */
  names(view = this.view) {
    return view ? displayNames(view.players, this.hotseat ? null : view.seat ?? null) : [];
  }

  /** Whether `seat` is this screen's own seat, shown as "You" (names.js): its events are said
   * to it ("You drew a tile"). */
  isYou(seat) {
    const view = this.view;
    return Boolean(view && !this.hotseat && seat !== null && seat !== undefined && seat === view.seat
      && view.players[seat] && view.players[seat].kind === "human" && hasDefaultName(view.players[seat], seat));
  }

  /** A line of help under the view's controls. */
  hint(text) {
    this.el.hint.textContent = text || "";
  }

  /** Show (and announce) why something was refused: "Refused: …". */
  refuse(message) {
    const text = t("Refused: {reason}", { reason: message });
    this.el.refusal.textContent = text;
    announce(text);
  }

  /** Why the server refused (an answer or error): from the rules' message code when it has
   * one ("3-5 would cross 1-2"), else from the server's error code, else its message. */
  refusalText(answer) {
    const r = answer.reason;
    const names = this.names();
    return (r && renderMessage(this.messages, r.code, r.params, { names }))
      || serverErrorText(answer.code) || answer.message;
  }

  /** An event in words, from its message code ("Ann drew 7 tiles (-35)"); its label when the
   * code has no template. */
  eventText(e, names) {
    const who = e.player === null || e.player === undefined ? "" : names[e.player];
    const you = this.isYou(e.player);
    const text = renderMessage(this.messages, e.code, e.params, { who, points: e.points, names, you });
    if (text !== null) return text;
    const label = this.ui.nameLabel(e.label, names);
    const plain = this.ui.plainKinds.includes(e.kind) || e.kind.startsWith("round") || e.kind === "game_end";
    return plain || !who ? label : t("{who}: {event}", { who, event: label });
  }

  clearRefusal() {
    this.el.refusal.textContent = "";
  }

  announce(text) {
    announce(text);
  }

  /** A big banner over the board for a moment. */
  toast(text) {
    const t = h("div", { class: "toast" }, text);
    this.el.toasts.append(t);
    setTimeout(() => t.remove(), 2600);
  }

  get sound() {
    return { click, chime, cheer };
  }

  /**
   * Send the intent `notation` for this page's seat, with the move of the view it was made
   * on. Resolves with the server's answer: {type: "accepted", move} or {type: "error", code,
   * message}; a refusal is already shown under the controls ("Refused: " and the server's
   * words), and the view re-rendered. Resolves null if nothing was sent (no seat, or busy).
   */
  async send(notation) {
    const view = this.view;
    if (!view || view.seat === null || this.busy) return null;
    this.busy = true;
    this.clearRefusal();
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
        answer = { type: "error", code: err.code, message: err.message, reason: err.reason };
      }
    }
    this.busy = false;
    if (answer.type === "error") {
      this.refuse(this.refusalText(answer));
      if (answer.code === "stale_move" && this.conn) this.conn.sync();
    }
    if (this.view) this.render(this.view);
    return answer;
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
      const stored = seatsOf(this.matchId);
      for (const s of stored) this.tokens.set(s.seat, s.token);
      this.hotseat = this.tokens.size > 1 && stored.some((s) => s.mode === "hotseat");
      if (!this.hotseat && this.tokens.size) {
        const wanted = seatParam !== null && this.tokens.has(Number(seatParam)) ? Number(seatParam)
          : [...this.tokens.keys()][0];
        this.mySeat = wanted;
      }
      // Fetch the game's module while the socket opens (the seats remember the game).
      const game = stored.find((s) => s.game)?.game;
      if (game) loadView(game).catch(() => {});
    }
    this.build();
    document.addEventListener("keydown", this.onKey);
    window.addEventListener("triverse:prefs", this.onPrefs);
    if (this.replaying) {
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
    if (this.gameView) this.gameView.destroy();
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
      connecting: t("Connecting…"), connected: t("Connected"),
      reconnecting: delay ? t("Connection lost: retrying in {n} s", { n: formatNumber(Math.ceil(delay / 1000)) })
        : t("Reconnecting…"),
      refused: t("Refused"),
    }[status] || status;
  }

  fatal(code) {
    const why = code === 4404 ? t("There is no such game.") : code === 4403
      ? t("This link's seat token does not open a seat of this game.") : t("The server refused the connection.");
    this.showFatal(why);
  }

  showFatal(text) {
    this.el.boardArea.replaceChildren(h("div", { class: "fatal" }, h("p", {}, text),
      h("p", {}, h("a", { href: "/" }, t("Back to the lobby")))));
  }

  // --- the page -------------------------------------------------------------------------------
  build() {
    const el = {};
    this.el = el;
    el.title = h("h1", { class: "match-title" }, t("Loading…"));
    el.round = h("span", { class: "round" });
    el.status = h("p", { class: "status", id: "status" });
    el.connection = h("span", { class: "connection", "aria-live": "polite" });
    el.pause = h("button", { type: "button", class: "tool", "data-action": "pause", "aria-pressed": "false",
      title: t("Pause the computer players (P or Caps Lock)"), onclick: () => this.togglePause() }, t("Pause"));
    el.sound = h("button", { type: "button", class: "tool", "data-action": "sound", "aria-pressed": "true",
      onclick: () => { setPrefs({ sound: !prefs().sound }); } }, t("Sound"));
    el.rulesLink = h("a", { class: "tool button-link", href: "/", target: "_blank", rel: "noopener" }, t("Rules"));
    el.invite = h("button", { type: "button", class: "tool", hidden: true, onclick: () => this.showInvites() }, t("Invite"));
    el.keysHelp = h("button", { type: "button", class: "tool", title: t("Keyboard controls (?)"), "data-action": "keys", onclick: () => this.keysDialog() }, t("Keys"));
    el.hintButton = h("button", { type: "button", class: "tool", "data-action": "hint", hidden: true,
      title: t("Ask the veteran for a move (H)"), onclick: () => this.askHint() }, t("Hint"));
    el.reviewButton = h("button", { type: "button", class: "tool", "data-action": "review", hidden: true,
      title: t("Where the veteran would have played differently"), onclick: () => this.openReview() }, t("Review"));
    el.notify = h("button", { type: "button", class: "tool", "data-action": "notify", hidden: true,
      title: t("A notification when it is your move, even with Triverse closed"),
      onclick: async () => { if (await notifyMe()) el.notify.hidden = true; } }, t("Notify me"));
    el.quit = h("button", { type: "button", class: "tool", "data-action": "quit", title: t("End the game (Escape)"), onclick: () => this.quitDialog() }, t("End"));
    const bar = h("div", { class: "match-bar" },
      h("div", { class: "match-heading" }, el.title, el.round),
      el.status,
      h("div", { class: "match-tools" }, el.connection, el.hintButton, el.reviewButton, el.notify, el.invite, el.pause, el.sound, el.keysHelp, el.rulesLink, el.quit));

    el.boardArea = h("div", { class: "board-area" });
    el.toasts = h("div", { class: "toasts", "aria-hidden": "true" });
    el.pausedBanner = h("div", { class: "paused-banner", hidden: true }, t("Paused: the computer players wait"));
    el.boardHost = h("div", { class: "view-board" });
    el.boardArea.append(el.boardHost, el.toasts, el.pausedBanner);

    el.scores = h("table", { class: "scores" });
    el.pool = h("p", { class: "pool" });
    el.feed = h("ol", { class: "feed", "aria-label": t("Events, newest last"), tabindex: "0" });
    el.reviewPanel = h("section", { class: "review-panel", hidden: true, "aria-label": t("The veteran's review") });
    el.commitment = h("details", { class: "commitment-panel", hidden: true });
    const side = h("aside", { class: "side", "aria-label": t("Scores and events") },
      h("section", { class: "score-panel" }, h("h2", {}, t("Scores")), el.scores, el.pool),
      el.reviewPanel,
      h("section", { class: "feed-panel" }, h("h2", {}, t("Events")), el.feed), el.commitment);

    el.trayHost = h("div", { class: "view-tray" });
    el.hint = h("p", { class: "hint", id: "hand-hint" });
    el.refusal = h("p", { class: "refusal", role: "alert", "data-refusal": "" });
    el.tray = h("section", { class: "tray", "aria-label": t("Your moves") },
      el.trayHost, h("div", { class: "tray-messages" }, el.hint, el.refusal));
    el.replay = h("section", { class: "replay-bar", hidden: true, "aria-label": t("Replay") });

    this.section = h("section", { class: "match", "aria-label": t("Game") },
      bar, h("div", { class: "match-main" }, el.boardArea, side), el.tray, el.replay);
    this.root.replaceChildren(this.section);
    this.renderTools();
  }

  renderTools() {
    const p = prefs();
    this.el.sound.setAttribute("aria-pressed", p.sound ? "true" : "false");
    this.el.sound.textContent = p.sound ? t("Sound on") : t("Sound off");
  }

  prefsChanged() {
    this.renderTools();
    if (this.gameView && this.gameView.onPrefs) this.gameView.onPrefs(prefs());
  }

  /** The game's entry and view, once, from the first view of the match (a promise of the
   * entry; null if the game has no table here or its module did not load). Nothing is drawn
   * before they are ready. */
  setUp(view) {
    if (!this.loading) this.loading = this.load(view.game);
    return this.loading;
  }

  async load(game) {
    let ui;
    try {
      ui = await loadView(game.name);
      if (this.destroyed) return null;
      if (!ui) {
        this.showFatal(t("{game} cannot be played in the browser: play it in the terminal or through the API.", { game: game.title }));
        return null;
      }
      this.ui = ui;
      this.messages = await messagesOf(game.name);
      this.section.dataset.game = game.name;
      this.section.dataset.kind = ui.kind;
      if (ui.rules) this.el.rulesLink.href = ui.rules;
      else this.el.rulesLink.hidden = true;
      this.el.tray.setAttribute("aria-label", ui.trayLabel || t("Your moves"));
      this.gameView = await ui.createView(this, { board: this.el.boardHost, tray: this.el.trayHost });
    } catch (err) {
      this.ui = null;
      this.showFatal(t("The table of {game} did not load: {error}", { game: game.title, error: err.message }));
      return null;
    }
    if (this.destroyed) {
      this.gameView.destroy();
      return null;
    }
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) this.receive(waiting);
    return ui;
  }

  // --- views ----------------------------------------------------------------------------------
  receive(view) {
    if (this.destroyed || view.match_id !== this.matchId) return;
    if (view.seat !== this.identity) return;   // a late view of a socket being replaced
    if (!this.gameView) {
      // Kept until the game's module has loaded (setUp receives it then).
      this.waiting = view;
      this.setUp(view);
      return;
    }
    if (!this.greeted) {
      this.greeted = true;
      if (view.mode === "hotseat" && this.tokens.size > 1 && !this.hotseat) this.hotseat = true;
      if (this.tokens.size) updateSeats(this.matchId, { game: view.game.name, mode: view.mode });
      if (invitesOf(this.matchId)) this.el.invite.hidden = false;
    }
    if (this.hotseat) {
      const active = this.activeHuman(view);
      if (!this.ui.passScreen) {
        // Nothing is hidden: play as the seat to move (the next human while a computer moves).
        this.view = view;
        this.render(view);
        if (active !== null && active !== this.identity) this.connect(active);
        return;
      }
      if (this.identity !== null && active !== this.identity) {
        // The seat just played: forget its hand before anything shows, then watch until the
        // next player confirms.
        this.lock();
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

  /** The human seat whose turn the hot-seat table shows: the seat to move, or while a
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

  /** Hot-seat handover: the view forgets everything private to the seat that just played. */
  lock() {
    if (this.gameView && this.gameView.lock) this.gameView.lock();
    this.hint("");
    this.clearRefusal();
  }

  passScreen(seat) {
    if (this.passing === seat) return;
    this.passing = seat;
    const name = this.names()[seat];
    openDialog({
      title: t("Pass the device to {name}", { name }),
      body: h("p", {}, t("{name}, press the button when nobody else can see the screen: your hand will show.", { name })),
      className: "pass-dialog", dismissible: false,
      actions: [{ label: t("Back to the lobby"), value: "lobby" }, { label: t("Show {name}'s hand", { name }), value: "reveal", primary: true }],
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
    const names = this.names(view);
    this.turnCue(view);
    this.el.title.textContent = view.game.title;
    this.el.round.textContent = [ui.roundText(obs, view), ui.targetText(view)].filter(Boolean).join(" · ");
    const body = document.body.dataset;
    body.move = String(view.move);
    body.yourTurn = String(view.your_turn);
    body.finished = String(view.finished);
    body.paused = String(view.paused);
    body.toMove = view.to_move === null ? "" : String(view.to_move);
    body.freeSeats = String(view.players.filter((p) => p.free).length);

    // Status line.
    let status = this.statusText(view, names);
    if (this.spectatorOnly) status = t("Watching: this browser holds no seat here · {status}", { status });
    // Screen readers hear whose turn it is through the page's polite live region, once a turn.
    const turn = `${view.move}|${view.to_move}|${view.finished}`;
    if (turn !== this.announcedTurn && !view.finished && !this.replaying) announce(status);
    this.announcedTurn = turn;
    if (this.hintShown && (this.hintShown.move !== view.move || !view.your_turn || this.replaying)) this.clearHint();
    if (this.hintShown) status = t("{status} · Hint: {move}", { status, move: ui.actionText(this.hintShown.action) });
    this.el.status.textContent = status;
    this.el.status.dataset.turn = String(view.your_turn);

    this.renderScores(view);
    this.renderCommitment(view);

    // Pause.
    this.el.pause.setAttribute("aria-pressed", String(view.paused));
    this.el.pause.textContent = view.paused ? t("Resume") : t("Pause");
    this.el.pause.disabled = this.identity === null || view.finished;
    this.el.pausedBanner.hidden = !view.paused || view.finished;

    // Hint (the seat to move) and review (after the end).
    this.el.hintButton.hidden = this.identity === null || view.finished || this.replaying;
    this.el.hintButton.disabled = !view.your_turn || this.hinting || Boolean(this.hintShown);
    this.el.hintButton.textContent = this.hinting ? t("Thinking…") : t("Hint");
    this.el.reviewButton.hidden = !view.finished;

    // "Notify me": a correspondence game's seat of an account, against other people, in a
    // browser that can be told.
    const people = view.mode !== "hotseat" && view.players.filter((p) => p.kind === "human").length > 1;
    this.el.notify.hidden = view.finished || view.pace !== "correspondence" || this.identity === null || !people
      || !account() || ["unsupported", "denied"].includes(pushState()) || document.body.dataset.push === "subscribed";

    // The tray is for a seat; a spectator has the board alone.
    const seated = view.seat !== null && view.seat !== undefined;
    this.el.tray.hidden = !seated || this.replaying;
    this.section.classList.toggle("spectating", !seated);

    // The game's own view: board and controls.
    if (!this.gameView) return;
    this.gameView.render(view);
    this.showMark();
    if (!this.boardMarked) {
      this.boardMarked = true;
      performance.mark("triverse:board-rendered");
      body.boardReady = "true";
    }

    this.feed(view, names);
    if (view.finished) this.countResult(view);
    if (view.finished && !this.shownFinal) {
      this.shownFinal = true;
      this.finalDialog(view, this.lastSeenAtLoad !== undefined && this.lastSeenAtLoad < view.move - 1);
    }
  }

  // --- events -----------------------------------------------------------------------------------
  feed(view, names) {
    const log = view.log || [];
    const fresh = this.lastSeen === null;
    if (fresh) {
      this.lastSeenAtLoad = log.length ? log[log.length - 1].move : -1;
      this.el.feed.replaceChildren();
    }
    const label = (text) => this.ui.nameLabel(text, names);
    const newEntries = log.filter((entry) => this.lastSeen === null || entry.move > this.lastSeen);
    for (const entry of newEntries) {
      const shown = groupEvents(entry.events.filter((e) => e.label));
      for (const e of shown) {
        const text = this.eventText(e, names);
        if (!text) continue;   // said by another line (a placing line's total)
        this.el.feed.append(h("li", { class: `ev ev-${e.kind} ${e.data && e.data.reason ? `r-${e.data.reason}` : ""}`, "data-move": entry.move, "data-code": e.code || "" }, text));
        if (fresh) continue;
        if (e.kind === "score" && this.ui.bigReasons.includes(e.data.reason)) {
          this.toast(text);
          if (this.ui.chimeReasons.includes(e.data.reason)) chime();
        }
      }
      if (!fresh) {
        if (this.gameView.onLogEntry) this.gameView.onLogEntry(entry, { names, label, text: (e) => this.eventText(e, names) });
        const summary = shown.map((e) => this.eventText(e, names)).filter(Boolean).join(", ");
        if (summary) announce(summary);
        const roundEnd = entry.events.find((e) => e.kind === "round_end");
        if (roundEnd && !entry.events.some((e) => e.kind === "game_end")) this.roundDialog(roundEnd, view, names);
      }
    }
    while (this.el.feed.childElementCount > 120) this.el.feed.firstElementChild.remove();
    if (log.length) this.lastSeen = Math.max(this.lastSeen ?? -1, log[log.length - 1].move);
    else if (this.lastSeen === null) this.lastSeen = -1;
    this.el.feed.scrollTop = this.el.feed.scrollHeight;
  }

}



/** The English templates of a game's message codes, from the lobby's catalogue ({} if it
 * cannot be had: the feed falls back on the events' labels). */
async function messagesOf(name) {
  try {
    const catalogue = await loadCatalogue();
    const info = catalogue.games.find((g) => g.name === name);
    return localTemplates(name, (info && info.messages) || {});
  } catch {
    return {};
  }
}

// The parts of the table in their own modules: the status line and the score panel, the end of a game, the tools of the heading
// (keys, pause, quit, invites), and the veteran's hints, review and the replay.
for (const part of [TableScores, TableEnd, TableTools, TableReview]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== "constructor") Object.defineProperty(Table.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}
