// The end of a round at a tile game's table: the finished round's board stays on screen under
// the end-of-round summary until the player closes it; the next round's board, and every move
// made in it meanwhile (the computer's first plays), show after that, one by one.
//
// How: the view the round ended in already holds the next round's board, so the finished one
// is rebuilt from the board shown before plus the tiles placed in the new log entries up to
// the round's end. From then until the summary dialog (dialog.round-dialog, opened by
// table.js) closes, the views the table receives are held here (the table's `receive` is
// wrapped); when it closes, the newest view the table has is drawn again and the held ones are
// handed to the table in order, a short pause apart, so each move is seen with its feed line.

const RELEASE_GAP_MS = 450;
const DIALOG = "dialog.round-dialog";

/** The placements of `events` before a round's end (the tile that finished the round). */
function placesBeforeEnd(events) {
  const out = [];
  for (const e of events) {
    if (e.kind === "round_end") return { out, ended: true };
    if (e.kind === "place" && e.data && e.data.cell) {
      out.push({ cell: e.data.cell, corners: e.data.corners, tile: e.data.tile });
    }
  }
  return { out, ended: false };
}

export class RoundHold {
  /**
   * @param {object} table  the table (table.js): its `receive` is wrapped
   * @param {() => void} redraw  draws the table's newest view again
   */
  constructor(table, redraw) {
    this.table = table;
    this.redraw = redraw;
    this.holding = false;
    /** The summary is open: the finished board stays, whatever the table redraws. */
    this.open = false;
    this.held = [];
    this.seenMove = null;
    const receive = table.receive.bind(table);
    this.receive = receive;
    table.receive = (view) => {
      if (this.holding) this.held.push(view);
      else receive(view);
    };
  }

  /**
   * The finished round's placements if `view` ends a round the page saw being played (not on
   * a first view, in a replay, or at the game's end), else null. `shown` is the board drawn
   * before this view.
   */
  finishedBoard(view, shown) {
    const log = view.log || [];
    const last = log.length ? log[log.length - 1].move : -1;
    const seen = this.seenMove;
    this.seenMove = Math.max(seen ?? -1, last);
    if (seen === null || this.table.replaying || view.finished) return null;
    let board = shown.slice();
    for (const entry of log) {
      if (entry.move <= seen) continue;
      if (entry.events.some((e) => e.kind === "game_end")) return null;
      const { out, ended } = placesBeforeEnd(entry.events);
      board = board.concat(out);
      if (ended) return board;
    }
    return null;
  }

  /** Hold every later view until the summary (opened just after this render) closes. */
  start() {
    this.holding = true;
    this.open = true;
    setTimeout(() => {
      const dialog = document.querySelector(DIALOG);
      if (dialog && dialog.open) dialog.addEventListener("close", () => this.release(), { once: true });
      else this.release();
    }, 0);
  }

  /** The summary closed: the newest view again, then the held ones in order. */
  release() {
    this.open = false;
    this.redraw();
    const next = () => {
      if (!this.held.length) { this.holding = false; return; }
      const view = this.held.shift();
      this.receive(view);
      if (document.querySelector(DIALOG)) return;   // another round ended: it holds again
      setTimeout(next, RELEASE_GAP_MS);
    };
    if (this.held.length) setTimeout(next, RELEASE_GAP_MS);
    else this.holding = false;
  }
}
