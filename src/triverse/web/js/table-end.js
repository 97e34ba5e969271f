// The end of a game at the table (a part of table.js's Table): the statistics against the
// computer, the headline ("You won!") and the final standings, for every seat and spectator.
import { api, recordUrl } from "./api.js";
import { profileUrl } from "./session.js";
import { formatNumber, language, t } from "./i18n.js";
import { cheer } from "./sound.js";
import { outcomeOf, recordOutcome, statsText, tallyOf } from "./stats.js";
import { announce, h, openDialog, ordinal } from "./ui.js";

export class TableEnd {
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
    const ratings = view.rated ? this.ratingChanges(names) : null;
    openDialog({
      title: this.ui.finalTitle || t("Final standings"), className: "final-dialog",
      body: h("div", {}, h("p", { class: "headline", "data-headline": "" }, headline), table, extras, ratings, stats),
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

  /** The rating changes of a rated game (GET /api/matches/{id}/ratings), in a box that fills
   * once the server has rated the game (a moment after the last move: asked again a few
   * times). */
  ratingChanges(names) {
    const box = h("section", { class: "rating-changes", "data-rating-changes": "pending", "aria-live": "polite" },
      h("h3", {}, t("Rating changes")), h("p", { class: "muted" }, t("Rating the game…")));
    const fill = (answer) => {
      const rows = answer.changes.map((c) => {
        const up = c.delta > 0;
        return h("tr", { "data-seat": c.seat, "data-delta": c.delta },
          h("th", { scope: "row" }, h("a", { href: profileUrl(c.name), target: "_blank", rel: "noopener" }, names[c.seat] ?? c.name)),
          h("td", {}, formatNumber(Math.round(c.before))),
          h("td", {}, formatNumber(Math.round(c.after))),
          h("td", { class: up ? "gain" : c.delta < 0 ? "loss" : "" },
            formatNumber(Math.round(c.delta), { signDisplay: "exceptZero" })));
      });
      box.dataset.ratingChanges = "shown";
      box.replaceChildren(h("h3", {}, t("Rating changes")),
        h("table", { class: "standings ratings" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Before")),
            h("th", { scope: "col" }, t("After")), h("th", { scope: "col" }, t("Change")))),
          h("tbody", {}, ...rows)));
    };
    const ask = async (tries) => {
      let answer = null;
      try {
        answer = await api.matchRatings(this.matchId);
      } catch {
        answer = null;
      }
      if (this.destroyed) return;
      if (answer && answer.changes && answer.changes.length) { fill(answer); return; }
      if (answer && !answer.rated) {
        box.dataset.ratingChanges = "unrated";
        box.replaceChildren(h("h3", {}, t("Rating changes")), h("p", { class: "muted" }, t("This game does not count for ratings.")));
        return;
      }
      if (tries > 0) setTimeout(() => ask(tries - 1), 800);
      else box.replaceChildren(h("h3", {}, t("Rating changes")), h("p", { class: "muted" }, t("The rating changes are not known yet.")));
    };
    ask(10);
    return box;
  }
}
