// The table's keyboard and the tools of its heading (a part of table.js's Table): the keys
// dialog, pause, the end of a game (save or forget) and the invites.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { showInvites } from "./new-game.js";
import { openPreferences } from "./prefs.js";
import { forgetMatch, invitesOf } from "./store.js";
import { announce, dialogOpen, h, notice, openDialog } from "./ui.js";

export class TableTools {
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
}
