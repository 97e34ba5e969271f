// The "New contest" form of the contests' page (a logged-in account hosts): the title, the game
// and its options (drawn as the New Game dialog draws them, new-game.js), the players per
// board (the game's range), the time per turn (for a game with a time-out rule: its
// time_limit option; the form says when the game has none), the close of sign-up (24 hours
// from now by default), the place rewards and their name. POST /api/contests, then the
// contest's page.
import { api } from "./api.js";
import { t, tn } from "./i18n.js";
import { optionControls } from "./new-game.js";
import { h } from "./ui.js";

const pad = (n) => String(n).padStart(2, "0");

/** A datetime-local input's value for `date` (local time, to the minute). */
const localValue = (date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

/** The rewards typed ("300, 250, 200, 150"): a list of whole numbers, or null if one is not. */
export function parseRewards(text) {
  const parts = text.split(/[,;\s]+/).filter(Boolean);
  const numbers = parts.map((p) => Number(p));
  return numbers.every((n) => Number.isInteger(n) && n >= 0) ? numbers : null;
}

function row(id, label, control, help) {
  if (help) control.setAttribute("aria-describedby", `${id}-help`);
  return h("div", { class: "option-row" }, h("label", { for: id }, label), control,
    help ? h("small", { class: "help", id: `${id}-help` }, help) : null);
}

/** The time per turn's fieldset: hours, minutes, seconds; or the note of a game without a
 * time-out rule. */
function turnFields() {
  const unit = (id, value, max) => h("input", { id, type: "number", min: 0, max, step: 1, value, inputmode: "numeric" });
  const hours = unit("ct-hours", 24, 24), minutes = unit("ct-minutes", 0, 59), seconds = unit("ct-seconds", 0, 59);
  const inputs = h("div", { class: "turn-inputs" },
    h("label", { for: "ct-hours" }, t("Hours")), hours, h("label", { for: "ct-minutes" }, t("Minutes")), minutes,
    h("label", { for: "ct-seconds" }, t("Seconds")), seconds);
  const none = h("p", { class: "muted", "data-no-timeout": "" }, t("This game has no time-out rule: its boards have no turn clock."));
  const fieldset = h("fieldset", { class: "turn-time" }, h("legend", {}, t("Time per turn")), inputs, none);
  const value = () => Number(hours.value || 0) * 3600 + Number(minutes.value || 0) * 60 + Number(seconds.value || 0);
  const sync = (timed) => { inputs.hidden = !timed; none.hidden = timed; };
  return { fieldset, value, sync };
}

/** The form, for the games of `catalogue` (GET /api/games) that the server can play. */
export function contestForm(catalogue) {
  const games = catalogue.games.filter((g) => g.available);
  const title = h("input", { id: "ct-title", type: "text", maxlength: 80, required: true });
  const game = h("select", { id: "ct-game" }, ...games.map((g) => h("option", { value: g.name }, g.title)));
  const board = h("select", { id: "ct-board" });
  const options = h("fieldset", { class: "contest-options" });
  const turn = turnFields();
  const closes = h("input", { id: "ct-closes", type: "datetime-local", value: localValue(new Date(Date.now() + 86400e3)) });
  const rewards = h("input", { id: "ct-rewards", type: "text", placeholder: "300, 250, 200, 150", inputmode: "numeric" });
  const rewardName = h("input", { id: "ct-reward-name", type: "text", maxlength: 16, placeholder: "WRZ$" });
  const error = h("p", { class: "form-error", role: "alert" });
  const send = h("button", { type: "submit", class: "primary", "data-create-contest": "" }, t("Create the contest"));
  let controls = null;

  const chosen = () => games.find((g) => g.name === game.value);
  const drawGame = () => {
    const g = chosen();
    if (!g) return;
    const counts = [];
    for (let n = Math.max(2, g.min_players); n <= g.max_players; n++) counts.push(n);
    const wanted = Math.min(4, g.max_players);
    board.replaceChildren(...counts.map((n) => h("option", { value: n, selected: n === wanted }, tn("{n} player", "{n} players", n))));
    controls = optionControls(g, ["time_limit"]);
    options.replaceChildren(h("legend", {}, t("Options of {game}", { game: g.title })), ...controls.main,
      ...(controls.advanced.length ? [h("details", {}, h("summary", {}, t("More options")), ...controls.advanced)] : []));
    options.hidden = !controls.main.length && !controls.advanced.length;
    turn.sync(g.options.some((o) => o.name === "time_limit"));
  };
  game.addEventListener("change", drawGame);

  const body = () => {
    const g = chosen();
    const prizes = parseRewards(rewards.value);
    if (prizes === null) throw new Error(t("Rewards: whole numbers separated by commas, such as 300, 250, 200, 150."));
    const when = new Date(closes.value);
    if (Number.isNaN(when.getTime())) throw new Error(t("Sign-up closes: choose a date and a time."));
    const out = { title: title.value.trim(), game: g.name, options: controls.read(), players_per_board: Number(board.value),
      signup_closes: when.toISOString(), rewards: prizes };
    if (g.options.some((o) => o.name === "time_limit")) out.turn_seconds = turn.value();
    if (rewardName.value.trim()) out.reward_name = rewardName.value.trim();
    return out;
  };

  const form = h("form", { class: "contest-form", novalidate: true, "aria-labelledby": "new-contest-title", onsubmit: async (e) => {
    e.preventDefault();
    error.textContent = "";
    let request;
    try { request = body(); } catch (err) { error.textContent = err.message; return; }
    send.disabled = true;
    try {
      const created = await api.createContest(request);
      window.triverseNavigate(created.link || `/contests/${encodeURIComponent(created.id)}`);
    } catch (err) {
      error.textContent = err.message;
      send.disabled = false;
    }
  } },
  h("h2", { id: "new-contest-title" }, t("New contest")),
  row("ct-title", t("Title"), title),
  row("ct-game", t("Game"), game),
  options,
  row("ct-board", t("Players per board"), board, t("Entrants are drawn at random to boards of this size; the remainder is spread, so that 7 players make boards of 4 and 3.")),
  turn.fieldset,
  row("ct-closes", t("Sign-up closes"), closes, t("In your time zone. You may also close it early from the contest's page.")),
  row("ct-rewards", t("Rewards by place"), rewards, t("Whole numbers separated by commas, for the 1st, 2nd, 3rd… place of each board.")),
  row("ct-reward-name", t("Name of the rewards"), rewardName, t("Such as WRZ$; points if left empty.")),
  error, send);
  drawGame();
  return form;
}
