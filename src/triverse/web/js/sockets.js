// What the match and lobby websockets share: the address of a path on this server, the wait
// before the next attempt (exponential backoff with jitter), and closing without a fuss.

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
