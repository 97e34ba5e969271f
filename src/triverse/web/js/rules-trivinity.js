// The Trivinity rules page: its symbols and tier marks, drawn as the table draws them. (A file
// of its own, not an inline script: the server's Content-Security-Policy allows no inline script.)
import { symbolIcon, tierMark } from "/js/games/trivinity-icons.js";

for (const el of document.querySelectorAll("[data-tv-symbol]")) el.prepend(symbolIcon(el.dataset.tvSymbol));
for (const el of document.querySelectorAll("[data-tv-tier]")) {
  el.style.setProperty("--tv-mod", "#6a5a3a");
  el.prepend(tierMark(Number(el.dataset.tvTier), "sword"));
}
