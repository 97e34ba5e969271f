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
import { api, recordUrl } from "./api.js";
import { Connection } from "./connection.js";
import { loadCatalogue, loadView } from "./games.js";
import { groupEvents, renderMessage } from "./messages.js";
import { openPreferences } from "./prefs.js";
import { cheer, chime, click, yourTurn } from "./sound.js";
import { displayNames, levelName } from "./names.js";
import { formatNumber, language, t, tc, tn } from "./i18n.js";
import { outcomeOf, recordOutcome, statsText, tallyOf } from "./stats.js";
import { forgetMatch, invitesOf, prefs, seatsOf, setPrefs, addSeat, updateSeats } from "./store.js";
import { announce, dialogOpen, h, notice, openDialog, ordinal } from "./ui.js";
import { showInvites } from "./lobby.js";

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
   * one ("3-5 would cross 1-2"), else the server's message. */
  refusalText(answer) {
    const r = answer.reason;
    const names = this.names();
    return (r && renderMessage(this.messages, r.code, r.params, { names })) || answer.message;
  }

  /** An event in words, from its message code ("Ann drew 7 tiles (-35)"); its label when the
   * code has no template. */
  eventText(e, names) {
    const who = e.player === null || e.player === undefined ? "" : names[e.player];
    const text = renderMessage(this.messages, e.code, e.params, { who, points: e.points, names });
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
    el.quit = h("button", { type: "button", class: "tool", "data-action": "quit", title: t("End the game (Escape)"), onclick: () => this.quitDialog() }, t("End"));
    const bar = h("div", { class: "match-bar" },
      h("div", { class: "match-heading" }, el.title, el.round),
      el.status,
      h("div", { class: "match-tools" }, el.connection, el.hintButton, el.reviewButton, el.invite, el.pause, el.sound, el.keysHelp, el.rulesLink, el.quit));

    el.boardArea = h("div", { class: "board-area" });
    el.toasts = h("div", { class: "toasts", "aria-hidden": "true" });
    el.pausedBanner = h("div", { class: "paused-banner", hidden: true }, t("Paused: the computer players wait"));
    el.boardHost = h("div", { class: "view-board" });
    el.boardArea.append(el.boardHost, el.toasts, el.pausedBanner);

    el.scores = h("table", { class: "scores" });
    el.pool = h("p", { class: "pool" });
    el.feed = h("ol", { class: "feed", "aria-label": t("Events, newest last"), tabindex: "0" });
    el.reviewPanel = h("section", { class: "review-panel", hidden: true, "aria-label": t("The veteran's review") });
    const side = h("aside", { class: "side", "aria-label": t("Scores and events") },
      h("section", { class: "score-panel" }, h("h2", {}, t("Scores")), el.scores, el.pool),
      el.reviewPanel,
      h("section", { class: "feed-panel" }, h("h2", {}, t("Events")), el.feed));

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

  /** The status line: whose turn, or the end. */
  statusText(view, names) {
    if (view.finished) return t("Game over");
    if (view.your_turn) return this.hotseat ? t("Your turn, {name}", { name: names[view.seat] }) : t("Your turn");
    const name = names[view.to_move];
    if (this.hotseat && (this.identity === null || view.players[view.to_move].kind === "human")) {
      return t("{name} to play", { name });
    }
    if (view.players[view.to_move].kind === "human") return t("Waiting for {name}", { name });
    return view.paused ? t("{name} waits: paused", { name }) : t("{name} is thinking…", { name });
  }

  /** A human's turn begins: a sound (when enabled), the badge in the heading (the status line's
   * data-turn), and "Your turn" in the title bar for a background tab. Once per turn. */
  turnCue(view) {
    const mine = Boolean(view.your_turn && !view.finished && !this.replaying);
    const title = `${view.game.title} · Triverse`;
    document.title = mine ? t("Your turn · {title}", { title }) : title;
    if (mine) {
      // A new turn: the last view shown was not this seat's turn, or another player has moved
      // since (two views may arrive as one). Not on the page's first view, nor after a move
      // that keeps the turn (a draw).
      const since = this.cueSince ?? Infinity;
      const others = (view.log || []).some((e) => e.move >= since && e.player !== view.seat);
      if (this.wasMine === false || others) yourTurn();
      this.cueSince = view.move;
    }
    this.wasMine = mine;
  }

  renderScores(view) {
    const ui = this.ui;
    const extra = ui.scoreColumn;
    const names = this.names(view);
    const mark = (i) => (this.gameView && this.gameView.seatMark ? this.gameView.seatMark(i) : null);
    // Once the game is over the panel holds the final standings: places, best first.
    const ranks = view.finished && view.result ? view.result.ranks : null;
    const seats = view.players.map((p, i) => i);
    if (ranks) seats.sort((a, b) => ranks[a] - ranks[b] || a - b);
    this.el.scores.classList.toggle("final", Boolean(ranks));
    this.el.scores.replaceChildren(
      h("thead", {}, h("tr", {}, ranks ? h("th", { scope: "col" }, t("Place")) : null,
        h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Score")),
        extra ? h("th", { scope: "col" }, extra.title) : null)),
      h("tbody", {}, ...seats.map((i) => {
        const p = view.players[i];
        const value = extra ? extra.value(view, i) : undefined;
        return h("tr", {
          class: [i === view.to_move ? "to-move" : "", i === view.seat ? "me" : "", p.connected ? "" : "away",
            ranks && ranks[i] === 1 ? "winner" : ""].join(" ").trim(),
          "data-seat": i,
        },
        ranks ? h("td", { class: "place", "data-place": ranks[i] }, ordinal(ranks[i])) : null,
        h("th", { scope: "row" }, this.nameCell(view, names, i, mark(i))),
        h("td", { class: "score" }, formatNumber(view.scores[i])),
        extra ? h("td", { class: "count" }, value === undefined || value === null ? "" : String(value)) : null);
      })));
    const info = ui.infoText(view);
    this.el.pool.textContent = info ? info.text : "";
    this.el.pool.title = info ? info.title || "" : "";
  }

  /** A player's cell of the score panel: the connection dot, the game's mark, the name (it
   * wraps, never cut off), and "(you)" or the computer's level when the name does not say it. */
  nameCell(view, names, i, mark) {
    const p = view.players[i];
    const name = names[i];
    const own = i === view.seat && name !== t("You");
    const level = p.kind !== "human" && name === p.name;   // a computer with a name of its own
    const n = p.think ? formatNumber(p.think) : null;
    const kind = level && n ? t("({level}, {n} s)", { level: levelName(p.kind), n })
      : level ? t("({level})", { level: levelName(p.kind) }) : n ? t("({n} s)", { n }) : null;
    return [
      h("span", { class: "dot", title: p.connected ? t("connected") : t("not connected") }),
      mark,
      h("span", { class: "name", "data-name": "" }, name),
      own ? h("span", { class: "you" }, " ", t("(you)")) : null,
      kind ? h("span", { class: "kind", title: n ? t("thinks {n} s a move", { n }) : null }, " ", kind) : null,
    ];
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

  roundDialog(event, view, names) {
    const d = event.data || {};
    const scores = d.scores || view.scores;
    const rows = view.players.map((p, i) => h("tr", {},
      h("th", { scope: "row" }, names[i]),
      d.hand_totals ? h("td", {}, formatNumber(d.hand_totals[i])) : null,
      h("td", {}, formatNumber(scores[i]))));
    openDialog({
      title: d.round ? t("End of round {n}", { n: formatNumber(d.round) }) : t("End of the round"),
      body: h("div", {}, h("p", {}, this.eventText(event, names)),
        h("table", { class: "standings" }, h("thead", {}, h("tr", {}, h("th", {}, t("Player")),
          d.hand_totals ? h("th", {}, t("Left in hand")) : null, h("th", {}, t("Score")))), h("tbody", {}, ...rows))),
      className: "round-dialog",
      actions: [{ label: t("Next round"), value: "ok", primary: true }],
    });
  }

  // --- the end: standings and statistics ------------------------------------------------------------
  /** Whether this page counts the game in the statistics: against the computer, from the one
   * human seat this browser plays, and for a game that keeps statistics. */
  statsContext(view) {
    const key = this.ui.statsKey ? this.ui.statsKey(view) : null;
    if (!key || this.replaying || view.mode !== "computer") return null;
    if (this.identity === null || view.seat === null || view.seat === undefined) return null;
    return { game: view.game.name, key };
  }

  countResult(view) {
    const ctx = this.statsContext(view);
    if (!ctx || !view.result) return;
    // Counted once per match: recordOutcome remembers the match ids it has counted.
    recordOutcome(ctx.game, ctx.key, this.matchId, outcomeOf(view.result, view.seat));
  }

  headline(view, winners) {
    if (this.ui.headline) return this.ui.headline(view, { winners, identity: this.identity, hotseat: this.hotseat });
    const names = this.names(view);
    if (winners.length > 1) {
      const list = new Intl.ListFormat(language(), { type: "conjunction" }).format(winners.map((w) => names[w.i]));
      return t("Draw: {names}", { names: list });
    }
    if (this.identity !== null && winners[0].i === this.identity && !this.hotseat) return t("You won!");
    if (this.identity !== null && !this.hotseat && view.players.filter((p) => p.kind === "human").length === 1) {
      return t("You lost: {name} wins", { name: names[winners[0].i] });
    }
    return t("{name} wins!", { name: names[winners[0].i] });
  }

  finalDialog(view, celebrate) {
    const result = view.result || { scores: view.scores, ranks: view.scores.map(() => 1) };
    const order = view.players.map((p, i) => ({ p, i, score: result.scores[i], rank: result.ranks[i] }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i);
    const winners = order.filter((o) => o.rank === 1);
    const headline = this.headline(view, winners);
    if (celebrate) cheer();
    const names = this.names(view);
    const table = h("table", { class: "standings final", "data-standings": "" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col" }, t("Score")))),
      h("tbody", {}, ...order.map((o) => h("tr", { class: o.rank === 1 ? "winner" : "", "data-seat": o.i },
        h("td", { "data-place": o.rank }, ordinal(o.rank)), h("th", { scope: "row" }, names[o.i]),
        h("td", {}, formatNumber(o.score))))));
    const ctx = this.statsContext(view);
    const stats = ctx ? h("p", { class: "stats-line", "data-stats": ctx.key },
      t("{board} against the computer:", { board: this.ui.statsLabel(ctx.key) }), " ",
      h("strong", {}, statsText(tallyOf(ctx.game, ctx.key)))) : null;
    const extras = this.gameView && this.gameView.finalExtras ? this.gameView.finalExtras(view) : null;
    openDialog({
      title: this.ui.finalTitle || t("Final standings"), className: "final-dialog",
      body: h("div", {}, h("p", { class: "headline", "data-headline": "" }, headline), table, extras, stats),
      actions: [
        { label: t("Lobby"), value: "lobby" },
        { label: t("Download record"), value: "record" },
        { label: t("Review"), value: "review" },
        { label: t("Replay"), value: "replay", primary: true },
      ],
    }).then((v) => {
      if (v === "lobby") window.triverseNavigate("/");
      if (v === "review") this.openReview();
      if (v === "replay") window.triverseNavigate(`/watch/${this.matchId}?replay=0`);
      if (v === "record") {
        const a = h("a", { href: recordUrl(this.matchId), download: `${view.game.name}-${this.matchId}.json` });
        document.body.append(a);
        a.click();
        a.remove();
      }
    });
    announce(t("Game over. {headline}", { headline }));
  }

  // --- keyboard -----------------------------------------------------------------------------------
  key(e) {
    if (this.destroyed || dialogOpen() || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    // The game's view first: it may take any key but P, Caps Lock and ? (and takes Escape only
    // to cancel something half done, like a first star picked).
    if (this.gameView && this.gameView.onKey && this.gameView.onKey(e)) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (e.key === "Escape") {
      e.preventDefault();
      this.quitDialog();
    } else if (e.key === "CapsLock" || k === "p") {
      this.togglePause();
    } else if (k === "?") {
      this.keysDialog();
    } else if (k === "h") {
      this.askHint();
    }
  }

  keysDialog() {
    const rows = [
      ...(this.gameView && this.gameView.keyRows ? this.gameView.keyRows() : []),
      ["H", t("a hint: the veteran's move, shown on the board")],
      [t("P or Caps Lock"), t("pause or resume the computer players")],
      [t("Escape"), t("end the game (and save it)")],
      ["?", t("this list")],
    ];
    openDialog({
      title: t("Keyboard controls"),
      body: h("table", { class: "keys" }, h("tbody", {}, ...rows.map(([k, what]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, what))))),
      actions: [{ label: t("Preferences…"), value: "prefs" }, { label: t("Close"), value: null, primary: true }],
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
    else announce(want ? t("Paused: the computer players wait.") : t("Resumed."));
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
      title: t("End this game?"),
      body: h("div", {},
        h("p", {}, t("Every move is already stored on the server. Save keeps the game in My games on this browser, to continue later; ending without saving forgets your seat here.")),
        refusal ? h("p", { class: "refusal", "data-save-refusal": "" }, refusal) : null),
      actions: [
        { label: t("Keep playing"), value: null },
        { label: t("End without saving"), value: "forget", danger: true },
        { label: t("Save and leave"), value: "save", primary: true, disabled: Boolean(refusal), title: refusal || undefined },
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

  // --- hints -------------------------------------------------------------------------------------
  /** Ask the server for the veteran's move (POST /api/matches/{id}/hint) and show it. */
  async askHint() {
    const view = this.view;
    if (!view || !view.your_turn || this.identity === null || this.hinting || this.replaying) return;
    if (this.hintShown && this.hintShown.move === view.move) { this.showMark(); return; }
    this.hinting = true;
    this.render(view);
    document.body.dataset.hint = "thinking";
    try {
      const data = await api.hint(this.matchId, this.tokens.get(this.identity), view.move);
      if (this.view && this.view.move === data.move && this.view.your_turn) {
        this.hintShown = { move: data.move, action: data.hint };
        document.body.dataset.hint = data.hint.notation;
        announce(t("Hint: {move}", { move: this.ui.actionText(data.hint) }));
      } else {
        delete document.body.dataset.hint;
      }
    } catch (err) {
      delete document.body.dataset.hint;
      if (err.code !== "stale_move" && err.code !== "not_your_turn") this.refuse(err.message);
    } finally {
      this.hinting = false;
      if (this.view) this.render(this.view);
    }
  }

  clearHint() {
    this.hintShown = null;
    if (document.body.dataset.hint !== "thinking") delete document.body.dataset.hint;
  }

  /** The mark on the board: the hint on a live turn, the veteran's move on a reviewed replay step. */
  showMark() {
    if (!this.gameView || !this.gameView.showHint) return;
    let action = null;
    if (this.replaying && this.review && this.view) {
      const note = this.review.moves.find((m) => m.move === this.view.move);
      for (const b of this.el.reviewPanel.querySelectorAll("[data-review-move]")) {
        b.setAttribute("aria-current", note && Number(b.dataset.reviewMove) === note.move ? "true" : "false");
      }
      if (note) {
        action = note.suggestion;
        const name = this.names()[note.seat] ?? t("Seat {n}", { n: note.seat + 1 });
        const played = this.ui.actionText({ notation: note.played, description: note.played_description });
        this.el.status.textContent = tn("Move {move}, {name}: {played} · the veteran: {better} (about {n} point better)",
          "Move {move}, {name}: {played} · the veteran: {better} (about {n} points better)", note.points_lost,
          { move: formatNumber(note.move + 1), name, played, better: this.ui.actionText(note.suggestion) });
      }
    } else if (this.hintShown) {
      action = this.hintShown.action;
    }
    this.gameView.showHint(action);
  }

  // --- the review -----------------------------------------------------------------------------------
  /** The veteran's review of the finished game (GET /api/matches/{id}/review) in the side panel:
   * the seat's decisions (with a token), or every seat's. Entries jump the replay to the move. */
  async openReview(seat = this.identity) {
    const panel = this.el.reviewPanel;
    panel.hidden = false;
    this.section.classList.add("reviewing");
    if (this.review || this.reviewLoading) { panel.scrollIntoView({ block: "nearest" }); return; }
    this.reviewLoading = true;
    this.el.reviewButton.disabled = true;
    document.body.dataset.review = "loading";
    const token = seat === null || seat === undefined ? null : (this.tokens.get(seat) || seatsOf(this.matchId).find((s) => s.seat === seat)?.token || null);
    panel.replaceChildren(h("h2", {}, t("Review")),
      h("p", { class: "review-wait", role: "status" }, t("The veteran is going over the game: this takes a few seconds…")));
    try {
      this.review = await api.review(this.matchId, token);
      this.renderReview();
      document.body.dataset.review = String(this.review.moves.length);
      this.showMark();
    } catch (err) {
      panel.replaceChildren(h("h2", {}, t("Review")), h("p", { class: "refusal" }, err.message));
      delete document.body.dataset.review;
    } finally {
      this.reviewLoading = false;
      this.el.reviewButton.disabled = false;
    }
  }

  renderReview() {
    const r = this.review;
    const names = this.names();
    const who = (seat) => names[seat] ?? t("Seat {n}", { n: seat + 1 });
    const rounded = (x) => (x >= 10 ? Math.round(x) : Math.round(x * 10) / 10);
    const pts = (x) => tn("{n} point", "{n} points", rounded(x));
    const summary = r.seats.map((s) => {
      const n = r.moves.filter((m) => m.seat === s.seat).length;
      const text = n ? tn("{differ} of {n} decision differs, about {points} in all", "{differ} of {n} decisions differ, about {points} in all",
        s.decisions, { differ: formatNumber(n), points: pts(s.points_lost) })
        : tn("none of {n} decision differs", "none of {n} decisions differ", s.decisions);
      return h("li", { "data-review-seat": s.seat }, h("strong", {}, who(s.seat)), ": ", text);
    });
    const list = h("ol", { class: "review-list" }, ...r.moves.map((m) => h("li", {},
      h("button", { type: "button", class: "review-entry", "data-review-move": m.move,
        title: t("Show this position in the replay"), onclick: () => this.jumpToReview(m) },
      h("span", { class: "review-head" }, h("span", { class: "review-move" }, t("Move {n}", { n: formatNumber(m.move + 1) })),
        r.seats.length > 1 ? ` · ${who(m.seat)}` : "", h("span", { class: "review-lost" }, `−${pts(m.points_lost)}`)),
      h("span", { class: "review-played" }, t("Played: {move}", { move: this.ui.actionText({ notation: m.played, description: m.played_description }) })),
      h("span", { class: "review-better" }, t("Veteran: {move}", { move: this.ui.actionText(m.suggestion) }))))));
    const close = h("button", { type: "button", class: "tool review-close", "aria-label": t("Close the review"),
      onclick: () => { this.el.reviewPanel.hidden = true; this.section.classList.remove("reviewing"); } }, "×");
    this.el.reviewPanel.replaceChildren(
      h("div", { class: "review-title" }, h("h2", { title: t("Points are the veteran's estimate from a short search of each position") }, t("Review")), close),
      h("ul", { class: "review-summary" }, ...summary),
      r.moves.length ? list : h("p", { class: "review-none" }, t("The veteran found nothing to change: well played.")));
  }

  jumpToReview(m) {
    if (this.replaying) {
      this.replayTo(m.move);
      return;
    }
    const seat = this.review && this.review.seat !== null ? this.review.seat : "all";
    window.triverseNavigate(`/watch/${this.matchId}?replay=${m.move}&review=${seat}`);
  }

  // --- replay ---------------------------------------------------------------------------------
  async startReplay(step) {
    this.el.tray.hidden = true;
    this.section.classList.add("spectating", "replaying");
    this.el.pause.hidden = true;
    const bar = this.el.replay;
    bar.hidden = false;
    const pos = h("span", { class: "replay-pos", "aria-live": "polite" });
    const slider = h("input", { type: "range", min: 0, max: 0, value: 0, "aria-label": t("Move") });
    const btn = (label, aria, fn, action) => h("button", { type: "button", "aria-label": aria, title: aria, "data-replay-action": action, onclick: fn }, label);
    const play = btn(tc("replay", "Play"), t("Play the moves one after another"), () => this.autoplay(play), "play");
    bar.replaceChildren(
      btn(icon("M4 3h2v10H4zM13 3v10L6 8z"), t("Start"), () => this.replayTo(0), "start"),
      btn(icon("M12 3v10L5 8z"), t("Previous move"), () => this.replayTo(this.step - 1), "prev"),
      play,
      btn(icon("M4 3v10l7-5z"), t("Next move"), () => this.replayTo(this.step + 1), "next"),
      btn(icon("M3 3v10l7-5zM10 3h2v10h-2z"), tc("replay", "End"), () => this.replayTo(this.total), "end"),
      slider, pos,
      h("a", { class: "button-link", href: recordUrl(this.matchId), download: `record-${this.matchId}.json` }, t("Download record")));
    slider.addEventListener("input", () => this.replayTo(Number(slider.value)));
    this.replayEls = { pos, slider };
    this.shownFinal = true;
    await this.replayTo(step);
    const wanted = new URLSearchParams(location.search).get("review");
    if (wanted !== null) this.openReview(wanted === "all" || wanted === "" ? null : Number(wanted));
  }

  async replayTo(k) {
    if (this.total !== undefined) k = Math.max(0, Math.min(this.total, k));
    let data;
    try {
      data = await api.replay(this.matchId, k);
    } catch (err) {
      this.el.status.textContent = err.message;
      if (err.code === "not_finished") {
        this.el.replay.replaceChildren(h("p", {}, t("This game is not over yet: watch it live."), " ", h("a", { href: `/watch/${this.matchId}` }, t("Watch"))));
      }
      return;
    }
    this.step = data.move;
    this.total = data.total;
    const { pos, slider } = this.replayEls;
    slider.max = String(data.total);
    slider.value = String(data.move);
    pos.textContent = t("Move {n} of {total}", { n: formatNumber(data.move), total: formatNumber(data.total) });
    if (!this.gameView && !(await this.setUp(data.view))) return;
    this.view = data.view;
    this.lastSeen = null;
    this.render(data.view);
    document.body.dataset.replayStep = String(data.move);
    this.el.status.textContent = data.move === data.total ? t("Game over: replay") : t("Replay");
    this.showMark();
  }

  autoplay(button) {
    if (this.replayTimer) {
      clearInterval(this.replayTimer);
      this.replayTimer = null;
      button.textContent = tc("replay", "Play");
      return;
    }
    button.textContent = t("Stop");
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


/** The English templates of a game's message codes, from the lobby's catalogue ({} if it
 * cannot be had: the feed falls back on the events' labels). */
async function messagesOf(name) {
  try {
    const catalogue = await loadCatalogue();
    const info = catalogue.games.find((g) => g.name === name);
    return (info && info.messages) || {};
  } catch {
    return {};
  }
}
