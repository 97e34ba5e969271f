// What the match, lobby and contest websockets share: the address of a path on this server,
// the wait before the next attempt (exponential backoff with jitter), closing without a fuss,
// and a feed kept live from a websocket with REST while it is closed (the lobby's, a contest's).

/** The websocket address of `path` on this page's server. */
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/** Milliseconds to wait before attempt `attempt` + 1: 0.5 s doubling up to `cap`, +-20 %. */
export function retryDelay(attempt, cap) {
  return Math.min(cap, 500 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
}

/** Close `ws` normally, if it is not closed already. */
export function closeQuietly(ws) {
  try { ws.close(1000); } catch { /* closed already */ }
}

/** A list or record kept live from a websocket that pushes it whole: `path`'s messages of
 * `type` go to `onData(pick(message))`. Each time the socket closes, `poll()` (a REST read of
 * the same thing) is asked once and the socket opened again with backoff (0.5 s doubling to
 * 15 s); a close with one of `refused` (codes) is final, the page keeping what it shows.
 * `body[data-<feed>]` says "live" or "polled", for tests and styles. */
export class LiveFeed {
  constructor({ path, type, pick, poll, feed, refused = [] }, onData, onError) {
    Object.assign(this, { path, type, pick, poll, feed, refused, onData, onError });
    Object.assign(this, { attempt: 0, closed: false, ws: null, timer: null });
    this.open();
  }

  open() {
    if (this.closed) return;
    const ws = new WebSocket(socketUrl(this.path));
    this.ws = ws;
    ws.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      const data = message.type === this.type ? this.pick(message) : undefined;
      if (data === undefined || data === null) return;
      this.attempt = 0;
      document.body.dataset[this.feed] = "live";
      this.onData(data);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws || this.closed) return;
      this.ws = null;
      if (this.refused.includes(event.code)) return;
      this.read();
      this.timer = setTimeout(() => this.open(), retryDelay(this.attempt++, 15000));
    });
  }

  async read() {
    try {
      const data = await this.poll();
      if (!this.closed) {
        document.body.dataset[this.feed] = "polled";
        this.onData(data);
      }
    } catch (err) {
      if (!this.closed) this.onError(err);
    }
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      closeQuietly(ws);
    }
  }
}
