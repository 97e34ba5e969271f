// The status line, the cue of a human's turn and the score panel (a part of table.js's Table).
import { formatNumber, t, tn } from "./i18n.js";
import { levelName } from "./names.js";
import { yourTurn } from "./sound.js";
import { profileUrl } from "./session.js";
import { copyText, h, markYourMove, notice, ordinal } from "./ui.js";

export class TableScores {
  /** The status line: whose turn, or the end. */
  statusText(view, names) {
    if (view.finished) return t("Game over");
    if (waitingForPlayers(view)) {
      const free = view.players.filter((p) => p.free).length;
      return tn("Waiting for players: {n} free seat", "Waiting for players: {n} free seats", free);
    }
    if (view.your_turn) return this.hotseat ? t("Your turn, {name}", { name: names[view.seat] }) : t("Your turn");
    const name = names[view.to_move];
    if (this.hotseat && (this.identity === null || view.players[view.to_move].kind === "human")) {
      return t("{name} to play", { name });
    }
    if (view.players[view.to_move].kind === "human") return t("Waiting for {name}", { name });
    return view.paused ? t("{name} waits: paused", { name }) : t("{name} is thinking…", { name });
  }

  /** A human's turn begins: a sound (when enabled), the badge in the heading (the status line's
   * data-turn), and "Your turn" in the title bar and a red dot on the favicon, for a
   * background tab. Once per turn. Not while an open game waits for its players. */
  turnCue(view) {
    const mine = Boolean(view.your_turn && !view.finished && !this.replaying && !waitingForPlayers(view));
    const title = `${view.game.title} · Triverse`;
    document.title = mine ? t("Your turn · {title}", { title }) : title;
    markYourMove(mine);
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

  /** The match's shuffle commitment (the digest of its seed and deal, fixed before the first
   * move; the record reveals what it binds at the end), copyable; nothing for a match made
   * before commitments. Drawn once: it never changes. */
  renderCommitment(view) {
    const panel = this.el.commitment;
    const digest = view.commitment || null;
    if (panel.dataset.digest === (digest || "")) return;
    panel.dataset.digest = digest || "";
    panel.hidden = !digest;
    if (!digest) { panel.replaceChildren(); return; }
    const copy = h("button", { type: "button", class: "tool", "data-action": "copy-commitment",
      onclick: async () => notice((await copyText(digest)) ? t("Copied.") : t("Select the text and copy it.")) }, t("Copy"));
    panel.replaceChildren(
      h("summary", {}, t("Shuffle commitment")),
      h("p", {}, t("Fixed before the first move: the SHA-256 of this game's seed and the order of its tiles or cards. The record shows them when the game is over, and anyone can check them with triverse verify.")),
      h("p", { class: "commitment-digest" }, h("code", { "data-commitment": "", translate: "no" }, digest), " ", copy));
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
      p.account && !p.deleted && !p.free
        ? h("a", { class: "name", "data-name": "", href: profileUrl(p.name), target: "_blank", rel: "noopener",
          title: t("{name}'s profile", { name: p.name }) }, name)
        : h("span", { class: `name${p.deleted ? " deleted" : ""}${p.free ? " free" : ""}`, "data-name": "" }, name),
      own ? h("span", { class: "you" }, " ", t("(you)")) : null,
      kind ? h("span", { class: "kind", title: n ? t("thinks {n} s a move", { n }) : null }, " ", kind) : null,
    ];
  }
}

/** Whether an open game (from the lobby's list) still waits for players to take its free
 * seats: nobody moves until every seat is taken. */
export function waitingForPlayers(view) {
  return !view.finished && view.players.some((p) => p.free);
}
