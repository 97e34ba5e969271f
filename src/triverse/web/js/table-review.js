// The veteran at the table and the replay (a part of table.js's Table): a hint on a live turn,
// the review of a finished game in the side panel, and stepping through a finished game.
import { api, recordUrl } from "./api.js";
import { formatNumber, t, tc, tn } from "./i18n.js";
import { seatsOf } from "./store.js";
import { announce, h } from "./ui.js";

export class TableReview {
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
      btn(icon("M4 3h2v10H4zM13 3v10L6 8z"), tc("replay", "Start"), () => this.replayTo(0), "start"),
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
