// "Your move" by Web Push (docs/protocol.md, "Push"): the service worker (/sw.js) and the
// browser's push subscription, handed to the server with the page's language. Only a click may
// start it (enablePush), since the browser asks the person for permission then.
import { api } from "./api.js";
import { language, t } from "./i18n.js";

/** What this browser allows: "unsupported", "denied", "granted" or "default" (not asked). */
export function pushState() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "unsupported";
  }
  return Notification.permission;
}

/** The service worker of the whole site (scope "/"), registered once. */
export function serviceWorker() {
  return navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready);
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(base64);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/**
 * Ask for the permission to notify, subscribe this browser to the push service with the
 * server's key and store the subscription on the server (the logged-in account's). Throws an
 * Error whose message says what went wrong, in words.
 */
export async function enablePush() {
  const state = pushState();
  if (state === "unsupported") throw new Error(t("This browser cannot show notifications from Triverse."));
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new Error(t("Notifications are blocked for this site in the browser's settings."));
  }
  const registration = await serviceWorker();
  const { public_key: key } = await api.pushKey();
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    try {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    } catch (err) {
      throw new Error(t("The browser's push service did not answer: {error}", { error: err.message }));
    }
  }
  const { endpoint, keys } = subscription.toJSON();
  await api.subscribePush({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth }, lang: language() });
  document.body.dataset.push = "subscribed";
  return endpoint;
}

/** Stop this browser's notifications (at log-out: they are the account's): the server
 * forgets the subscription and the browser drops it. Never throws. */
export async function disablePush() {
  if (pushState() === "unsupported") return;
  try {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = registration && await registration.pushManager.getSubscription();
    if (!subscription) return;
    await api.unsubscribePush(subscription.endpoint).catch(() => {});
    await subscription.unsubscribe();
  } catch {
    /* nothing to stop */
  }
  delete document.body.dataset.push;
}

/** Whether `subscription` was made with the server key `key` (a new server key needs a new
 * subscription). */
function sameKey(subscription, key) {
  const own = subscription.options && subscription.options.applicationServerKey;
  if (!own) return true;
  const bytes = new Uint8Array(own);
  const wanted = keyBytes(key);
  return bytes.length === wanted.length && bytes.every((b, i) => b === wanted[i]);
}
