// One match websocket (docs/protocol.md): hello with a seat token (or none, to watch), views
// pushed by the server, actions answered by "accepted" or "error". It reconnects by itself
// with exponential backoff (0.5 s doubling to 8 s, with jitter); nothing is lost meanwhile,
// since the server keeps every move. After the first view the server sends only what changed
// ("changes": the fields that differ and the new log entries), which this applies to the last
// view before handing the whole view on.

import { t } from "./i18n.js";
import { closeQuietly, retryDelay, socketUrl } from "./sockets.js";

const FATAL = new Set([4400, 4403, 4404]);

export class Connection {
  /**
   * @param {string} matchId
   * @param {string|null} token  the seat's token; null watches as a spectator
   * @param {{onView, onStatus, onFatal}} handlers
   */
  constructor(matchId, token, { onView, onStatus = () => {}, onFatal = () => {}, log = 40 }) {
    this.matchId = matchId;
    this.token = token;
    this.onView = onView;
    this.onStatus = onStatus;
    this.onFatal = onFatal;
    this.log = log;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.attempt = 0;
    this.closed = false;
    this.timer = null;
    this.lastError = null;
    this.view = null;
    this.open();
  }

  get connected() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.greeted;
  }

  open() {
    if (this.closed) return;
    const ws = new WebSocket(socketUrl(`/ws/matches/${encodeURIComponent(this.matchId)}`));
    this.ws = ws;
    this.greeted = false;
    this.view = null;
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, log: this.log, changes: true }));
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => this.closedBy(ws, event));
    ws.addEventListener("error", () => { /* "close" follows */ });
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "view") {
      if (!this.greeted) {
        this.greeted = true;
        this.attempt = 0;
        this.onStatus("connected");
      }
      this.view = message.view;
      this.onView(message.view);
    } else if (message.type === "changes") {
      if (!this.view) { this.sync(); return; }
      let log = this.view.log.concat(message.log);
      if (this.log !== null && this.log !== undefined && log.length > this.log) {
        log = log.slice(log.length - this.log);
      }
      this.view = { ...this.view, ...message.changes, log };
      this.onView(this.view);
    } else if (["accepted", "error", "pong", "preview_result"].includes(message.type)) {
      const waiting = this.pending.get(message.id);
      if (waiting) {
        this.pending.delete(message.id);
        waiting(message);
      } else if (message.type === "error") {
        this.lastError = message;
      }
    }
  }

  closedBy(ws, event) {
    if (ws !== this.ws) return;
    for (const [id, waiting] of this.pending) {
      waiting({ type: "error", code: "disconnected", message: t("The connection was lost."), id });
    }
    this.pending.clear();
    this.ws = null;
    if (this.closed) return;
    if (FATAL.has(event.code)) {
      this.closed = true;
      this.onStatus("refused");
      this.onFatal(event.code, event.reason);
      return;
    }
    const delay = retryDelay(this.attempt, 8000);
    this.attempt += 1;
    this.onStatus("reconnecting", delay);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Send a message and wait for its answer ("accepted", "error" or "pong"). */
  request(message, timeout = 15000) {
    return new Promise((resolve) => {
      if (!this.connected) {
        resolve({ type: "error", code: "disconnected", message: t("Not connected to the server.") });
        return;
      }
      const id = this.nextId++;
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) {
          resolve({ type: "error", code: "timeout", message: t("The server did not answer.") });
        }
      }, timeout);
      this.pending.set(id, (answer) => { clearTimeout(timer); resolve(answer); });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  act(action, move) {
    return this.request({ type: "action", action, move });
  }

  pause(paused) {
    return this.request({ type: "pause", paused });
  }

  sync() {
    if (this.connected) this.ws.send(JSON.stringify({ type: "sync" }));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      closeQuietly(ws);
    }
    this.pending.clear();
  }
}
