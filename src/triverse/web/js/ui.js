// Small DOM helpers: element building, modal dialogs, notices and the aria-live announcer.
import { language, t, tc } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let dialogDepth = 0;
export const dialogOpen = () => dialogDepth > 0;

/**
 * A modal dialog. `actions`: [{label, value, primary, disabled, title}]. Resolves with the
 * value of the button pressed, or null when dismissed (Escape). Focus returns where it was.
 */
export function openDialog({ title, body, actions = [{ label: t("Close"), value: null }],
  className = "", dismissible = true, onOpen = null }) {
  return new Promise((resolve) => {
    const before = document.activeElement;
    const titleId = `dlg-${Math.random().toString(36).slice(2, 8)}`;
    const buttons = actions.map((a) => h("button", {
      type: "button", class: a.primary ? "primary" : a.danger ? "danger" : "",
      disabled: a.disabled, title: a.title, "data-value": String(a.value),
      onclick: () => close(a.value),
    }, a.label));
    const bodyBox = h("div", { class: "dialog-body" }, body);
    const dlg = h("dialog", { class: `dialog ${className}`, "aria-labelledby": titleId },
      h("h2", { id: titleId }, title),
      bodyBox,
      h("div", { class: "dialog-actions" }, buttons));
    let done = false;
    function close(value) {
      if (done) return;
      done = true;
      dialogDepth -= 1;
      watch.disconnect();
      dlg.close();
      dlg.remove();
      if (before && before.focus && document.contains(before)) before.focus();
      resolve(value);
    }
    dlg.addEventListener("cancel", (e) => {
      e.preventDefault();
      if (dismissible) close(null);
    });
    dlg.addEventListener("keydown", (e) => trapTab(dlg, e));
    dlg.close_ = close;
    document.body.append(dlg);
    dialogDepth += 1;
    dlg.showModal();
    // A body that scrolls (a long end screen on a phone) can be scrolled with the keyboard.
    const scrolls = () => {
      if (bodyBox.scrollHeight > bodyBox.clientHeight + 1
        || bodyBox.scrollWidth > bodyBox.clientWidth + 1) bodyBox.tabIndex = 0;
      else bodyBox.removeAttribute("tabindex");
    };
    const watch = new ResizeObserver(scrolls);
    watch.observe(bodyBox);
    for (const child of bodyBox.children) watch.observe(child);
    scrolls();
    const auto = document.activeElement;
    if (onOpen) onOpen(dlg, close);
    // Focus inside the dialog, after onOpen (which may replace its buttons, or focus a control
    // of its own): the primary button, else the first enabled one, else the dialog itself.
    if (document.activeElement === auto || !dlg.contains(document.activeElement)) {
      const enabled = [...dlg.querySelectorAll(".dialog-actions button")].filter((b) => !b.disabled);
      const primary = enabled.find((b) => b.classList.contains("primary"));
      (primary || enabled[0] || dlg).focus();
    }
  });
}

const FOCUSABLE = "button, [href], input, select, textarea, summary, [tabindex]:not([tabindex='-1'])";

/** Keep Tab and Shift+Tab inside the dialog: from its last control to its first and back. */
function trapTab(dlg, e) {
  if (e.key !== "Tab" || e.altKey || e.ctrlKey || e.metaKey) return;
  const items = [...dlg.querySelectorAll(FOCUSABLE)].filter((el) => !el.disabled
    && !el.closest("[hidden], [inert]") && el.getClientRects().length > 0);
  if (!items.length) { e.preventDefault(); return; }
  const first = items[0];
  const last = items[items.length - 1];
  const at = document.activeElement;
  if (e.shiftKey && (at === first || !dlg.contains(at))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === last || !dlg.contains(at))) {
    e.preventDefault();
    first.focus();
  }
}

/** Close every open dialog (leaving a page). */
export function closeDialogs() {
  for (const dlg of document.querySelectorAll("dialog.dialog")) {
    if (dlg.close_) dlg.close_(null);
  }
}

const live = () => document.getElementById("live");

/** Say something to screen readers (the page's aria-live region). */
export function announce(text) {
  const region = live();
  if (!region) return;
  const item = h("p", {}, text);
  region.append(item);
  while (region.childElementCount > 6) region.firstElementChild.remove();
}

/** A short notice over the page (errors, "copied"). */
export function notice(text, kind = "info", ms = 4000) {
  let box = document.getElementById("notices");
  if (!box) {
    box = h("div", { id: "notices", class: "notices" });
    document.body.append(box);
  }
  const item = h("div", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  setTimeout(() => item.remove(), ms);
  return item;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "offscreen" }, text);
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

export function download(name, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { href: url, download: name, class: "offscreen" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A place in words of the page's language: "1st", "2nd" (English), "1er", "2e" (French), "1."
 * (Polish): the form by Intl.PluralRules' ordinal category. */
export function ordinal(n) {
  switch (new Intl.PluralRules(language(), { type: "ordinal" }).select(n)) {
    case "one": return tc("ordinal", "{n}st", { n });
    case "two": return tc("ordinal", "{n}nd", { n });
    case "few": return tc("ordinal", "{n}rd", { n });
    default: return tc("ordinal", "{n}th", { n });
  }
}

/** The tab's "your move" mark: the favicon with a red dot (favicon-turn.svg) while `on`, the
 * plain one otherwise (the title's words are the page's own). body[data-your-move] says it. */
export function markYourMove(on) {
  const link = document.querySelector('link[rel="icon"]');
  const href = on ? "/favicon-turn.svg" : "/favicon.svg";
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  document.body.dataset.yourMove = String(Boolean(on));
}
