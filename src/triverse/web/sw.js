// Triverse's service worker (scope "/"): it shows the "your move" notifications the server
// sends by Web Push, and opens the game when one is clicked. The payload is the server's
// (docs/protocol.md, "Push"): {type, title, body, url, match_id, game, move}, already written in
// the language of the subscription. It caches nothing: every page still comes from the server.

self.addEventListener("install", () => { self.skipWaiting(); });
self.addEventListener("activate", (event) => { event.waitUntil(self.clients.claim()); });

/** A same-origin address from the payload (anything else opens the lobby). */
function ownUrl(url) {
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  if (event.data) {
    try {
      data = event.data.json();
    } catch {
      data = { body: event.data.text() };
    }
  }
  const options = {
    body: data.body || "",
    icon: "/favicon-turn.svg",
    badge: "/favicon-turn.svg",
    data: { url: ownUrl(data.url) },
  };
  if (data.match_id) {
    options.tag = `triverse-${data.match_id}`;   // one notification a game: the newest replaces it
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(data.title || "Triverse", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = ownUrl(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
