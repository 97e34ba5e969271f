// The New Game dialog, built from each game's option specs (GET /api/games) and its entry:
// how to play (against the computer, hot-seat, online with invite links, or an open seat in
// the lobby), the seats, the options, rated and pace; and the invite links of an online game.
// Imported when a New game button is pressed (and by the table, for its Invite button).
import { account } from "./session.js";
import { api } from "./api.js";
import { uiFor } from "./games.js";
import { addSeat, saveInvites } from "./store.js";
import { h, openDialog, notice, copyText } from "./ui.js";
import { dataText, formatNumber, t, tn } from "./i18n.js";
import { computerName } from "./names.js";

// --- the New Game dialog ----------------------------------------------------------------------
const MODES = ["computer", "hotseat", "online", "open"];

function modeText(mode, hides) {
  if (mode === "computer") return [t("Against the computer"), t("You and computer players.")];
  if (mode === "online") return [t("Online"), t("Invite links for each seat, and a link for spectators.")];
  if (mode === "open") {
    return [t("Open a seat in the lobby"),
      t("The game is listed in the lobby's open games: anyone can take a free seat, and it starts when every seat is taken.")];
  }
  return [t("Hot-seat"), hides ? t("Several people on this screen; the tiles hide between turns.")
    : t("Take turns on this screen; nothing is hidden.")];
}

// A searching computer's thinking time per move: seconds or "" (the game's default). Only the
// choices within the server's range (`think` of GET /api/games) are offered.
const THINK_CHOICES = [0.3, "", 2, 5];

function thinkLabel(v, normal) {
  if (v === "") return t("Normal ({n} s)", { n: formatNumber(normal) });
  const n = formatNumber(v);
  return v < 1 ? t("Quick ({n} s)", { n }) : v < 5 ? t("Deep ({n} s)", { n }) : t("Deepest ({n} s)", { n });
}

function thinkChoices(game, data) {
  const range = data.think || { minimum: 0.2, maximum: 5 };
  const normal = game.think_default || 0.8;
  return THINK_CHOICES
    .filter((v) => v === "" || (v >= range.minimum && v <= range.maximum))
    .map((v) => [v, thinkLabel(v, normal)]);
}

export function newGameDialog(game, data) {
  const ui = uiFor(game.name);
  const modes = data.modes.filter((m) => MODES.includes(m));
  const state = { mode: modes[0], players: game.default_players };
  const form = h("form", { class: "new-game", novalidate: true, onsubmit: (e) => e.preventDefault() });

  // Hot-seat hides nothing in a game without hidden information (no pass screen).
  const hides = !ui || Boolean(ui.passScreen);
  const modeSet = h("fieldset", { class: "modes" }, h("legend", {}, t("How to play")),
    ...modes.map((m, i) => h("label", { class: "radio" },
      h("input", { type: "radio", name: "mode", value: m, checked: i === 0,
        onchange: () => { state.mode = m; drawSeats(); drawPlay(); } }),
      h("span", {}, h("strong", {}, modeText(m, hides)[0]), h("small", {}, modeText(m, hides)[1])))));

  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
  const countSelect = h("select", { id: "ng-players", name: "players",
    onchange: () => { state.players = Number(countSelect.value); drawSeats(); } },
  ...counts.map((n) => h("option", { value: n, selected: n === state.players }, tn("{n} player", "{n} players", n))));

  const seatsBox = h("div", { class: "seats" });
  const seatRows = [];
  const thinkers = data.think ? data.think.levels : ["veteran"];
  const thinks = thinkChoices(game, data);
  function drawSeats() {
    const old = seatRows.splice(0).map((r) => ({ kind: r.kind.value, name: r.name.value, think: r.think.value }));
    seatsBox.replaceChildren();
    for (let i = 0; i < state.players; i++) {
      const prev = old[i];
      const kinds = [["human", t("Human")], ...data.levels.map((l) => [l, computerName(l)])]
        .filter(([k]) => (state.mode === "computer" ? (i === 0) === (k === "human")
          : i >= 2 || k === "human"));
      // An open game's other human seats are free: whoever takes one brings their own name;
      // a logged-in creator's seat is named with the account's.
      const me = account();
      const named = !(state.mode === "open" && i > 0) && !(me && i === 0 && state.mode !== "hotseat");
      const allowed = kinds.map(([k]) => k);
      const kind = prev && allowed.includes(prev.kind) ? prev.kind
        : allowed.includes("human") ? "human" : allowed.at(-1);
      const kindSelect = h("select", { name: `kind-${i}`, "aria-label": t("Seat {n}: who plays", { n: i + 1 }),
        disabled: kinds.length === 1 },
      ...kinds.map(([k, label]) => h("option", { value: k, selected: k === kind }, label)));
      // Left empty, a human seat is "You" on its own screen against the computer (names.js).
      const nameInput = h("input", { type: "text", name: `name-${i}`, maxlength: 40,
        "aria-label": t("Seat {n}: name", { n: i + 1 }),
        placeholder: !named ? (i === 0 ? me.name : t("free seat"))
          : state.mode === "computer" ? t("You") : t("Player {n}", { n: i + 1 }),
        value: named && prev && prev.name ? prev.name : "" });
      nameInput.dataset.named = String(named);
      // A computer that searches (the veteran) may be given its thinking time per move.
      const thinkSelect = h("select", { id: `ng-think-${i}`, name: `think-${i}` },
        ...thinks.map(([v, label]) => h("option", { value: v, selected: String(v) === (prev ? prev.think : "") }, label)));
      const thinkLabel = h("label", { class: "think-label", for: `ng-think-${i}` }, t("Thinking time"),
        h("span", { class: "sr-only" }, " ", t("of seat {n}", { n: i + 1 })));
      const sync = () => {
        nameInput.disabled = kindSelect.value !== "human" || !named;
        const shown = thinkers.includes(kindSelect.value);
        thinkLabel.hidden = !shown;
        thinkSelect.hidden = !shown;
      };
      kindSelect.addEventListener("change", sync);
      sync();
      seatRows.push({ kind: kindSelect, name: nameInput, think: thinkSelect });
      seatsBox.append(h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, formatNumber(i + 1)), kindSelect, nameInput,
        thinkLabel, thinkSelect));
    }
  }
  drawSeats();

  const { main, advanced, inputs: optionInputs, read: readOptions } = optionControls(game);
  const seed = new URLSearchParams(location.search).get("seed");
  const play = playOptions(state, optionInputs);
  const drawPlay = play.draw;
  drawPlay();

  const error = h("p", { class: "form-error", role: "alert" });
  form.append(modeSet,
    h("fieldset", {}, h("legend", {}, t("Players")),
      h("div", { class: "option-row" }, h("label", { for: "ng-players" }, t("Number of players")), countSelect),
      seatsBox),
    h("fieldset", {}, h("legend", {}, t("Options")), ...main,
      advanced.length ? h("details", {}, h("summary", {}, t("More options")), ...advanced) : null),
    play.fieldset,
    error);

  openDialog({
    title: t("New game of {game}", { game: game.title }), body: form, className: "new-game-dialog",
    actions: [{ label: t("Cancel"), value: null }, { label: t("Start"), value: "start", primary: true }],
    onOpen: (dlg, close) => {
      const start = dlg.querySelector('button[data-value="start"]');
      // Replace the default close-on-click of "Start" with a submit that may fail.
      const clone = start.cloneNode(true);
      start.replaceWith(clone);
      clone.addEventListener("click", async () => {
        error.textContent = "";
        const body = {
          game: game.name, mode: state.mode,
          seats: seatRows.map((r) => {
            const kind = r.kind.value;
            const name = r.name.value.trim();
            if (kind === "human") return name ? { kind, name } : { kind };
            // "Normal" sends nothing: the server's default for the game.
            return thinkers.includes(kind) && r.think.value !== "" ? { kind, think: Number(r.think.value) } : { kind };
          }),
          options: readOptions(),
        };
        if (seed !== null && seed !== "") body.seed = Number(seed);
        Object.assign(body, play.read());
        clone.disabled = true;
        try {
          const created = await api.createMatch(body);
          close("created");
          afterCreate(created, game);
        } catch (err) {
          error.textContent = err.message;
          clone.disabled = false;
        }
      });
    },
  });
}

/** The controls of `game`'s options (GET /api/games), as the New Game dialog shows them: its
 * entry's controls that set several options at once (Triangles' Board: stars and device)
 * first, then a row per option spec not named in `skip`, those of the entry's
 * `advancedOptions` apart. Returns {main, advanced, inputs, read()}: the rows, the inputs by
 * option name, and the options chosen (the request's `options`). */
export function optionControls(game, skip = []) {
  const ui = uiFor(game.name);
  const inputs = {};
  const main = [], advanced = [];
  const custom = (ui ? ui.customOptions : []).map((c) => ({ ...c, control: c.build(game) }));
  const covered = new Set([...custom.flatMap((c) => c.covers), ...skip]);
  main.push(...custom.map((c) => c.control.row));
  for (const spec of game.options) {
    if (covered.has(spec.name)) continue;
    const input = optionInput(spec, game);
    inputs[spec.name] = input;
    (ui && ui.advancedOptions.includes(spec.name) ? advanced : main).push(optionRow(spec, input, game, ui));
  }
  const read = () => {
    const options = {};
    for (const spec of game.options) {
      if (covered.has(spec.name)) continue;
      const v = readOption(spec, inputs[spec.name]);
      if (v !== undefined) options[spec.name] = v;
    }
    for (const c of custom) Object.assign(options, c.control.read());
    return options;
  };
  return { main, advanced, inputs, read };
}

/** An option's row: its label (the server's, GET /api/games, in the player's language from the
 * catalogues' context "option"), its control, and one line of explanation: the chosen choice's
 * when the choices have words, else the option's help. */
function optionRow(spec, input, game, ui) {
  const label = spec.label ? dataText("option", spec.label)
    : (ui && ui.optionLabels[spec.name]) || spec.name.replace(/_/g, " ");
  const choices = spec.choice_labels || [];
  const chosen = () => {
    const value = spec.type === "bool" ? input.checked : input.value;
    return choices.find((c) => String(c.value) === String(value));
  };
  const helpText = () => {
    const c = chosen();
    if (c) return dataText("option", c.explanation);
    if (spec.name === "variant" && game.variants[input.value]) return dataText("variant", game.variants[input.value]);
    return (ui && ui.optionHelp[spec.name]) || dataText("option", spec.help);
  };
  const help = h("small", { class: "help", id: `${input.id}-help`, "data-explanation": spec.name }, helpText());
  input.addEventListener("change", () => { help.textContent = helpText(); });
  input.setAttribute("aria-describedby", `${input.id}-help`);
  return h("div", { class: `option-row${spec.type === "bool" ? " option-check" : ""}`, "data-option": spec.name },
    h("label", { for: input.id }, label), input, help);
}

function optionInput(spec, game) {
  const id = `opt-${spec.name}`;
  if (spec.choices && spec.choices.length) {
    const words = new Map((spec.choice_labels || []).map((c) => [String(c.value), dataText("option", c.label)]));
    return h("select", { id, name: spec.name },
      ...spec.choices.map((c) => h("option", { value: c, selected: c === spec.default },
        words.get(String(c)) ?? String(c))));
  }
  if (spec.type === "bool") {
    return h("input", { id, type: "checkbox", name: spec.name, checked: Boolean(spec.default) });
  }
  if (spec.type === "int") {
    const small = spec.minimum !== null && spec.maximum !== null && spec.maximum - spec.minimum <= 8;
    if (small) {
      const options = [];
      for (let n = spec.minimum; n <= spec.maximum; n++) {
        options.push(h("option", { value: n, selected: n === spec.default }, String(n)));
      }
      return h("select", { id, name: spec.name }, ...options);
    }
    return h("input", { id, type: "number", name: spec.name, value: spec.default,
      min: spec.minimum ?? undefined, max: spec.maximum ?? undefined, step: 1, inputmode: "numeric" });
  }
  return h("input", { id, type: "text", name: spec.name, value: spec.default ?? "" });
}

function readOption(spec, input) {
  if (spec.type === "bool") return input.checked;
  if (spec.type === "int") {
    if (input.value === "") return undefined;
    const n = Number(input.value);
    return Number.isInteger(n) ? n : input.value;   // the server names a bad value
  }
  return input.value;
}

/** The fieldset of how the game is played between people: rated (logged in, not hot-seat)
 * and its pace (live or correspondence; online and open games), whose choice follows the time
 * per turn until the player picks one. `draw()` shows what the mode allows; `read()` gives
 * the request's fields. */
function playOptions(state, optionInputs) {
  const rated = h("input", { type: "checkbox", id: "ng-rated", name: "rated" });
  const ratedRow = h("div", { class: "option-row option-check", "data-option": "rated" },
    h("label", { for: "ng-rated" }, t("Rated")), rated,
    h("small", { class: "help", id: "ng-rated-help" }, t("The game counts for the players' ratings: every human seat needs an account.")));
  rated.setAttribute("aria-describedby", "ng-rated-help");
  const loggedOut = h("p", { class: "muted small", "data-rated-note": "" }, t("Log in to play rated games."));
  const pace = h("select", { id: "ng-pace", name: "pace" },
    h("option", { value: "live" }, t("Live: minutes a turn")),
    h("option", { value: "correspondence" }, t("Correspondence: hours or days a turn")));
  const paceRow = h("div", { class: "option-row", "data-option": "pace" }, h("label", { for: "ng-pace" }, t("Pace")), pace);
  let chosen = false;
  pace.addEventListener("change", () => { chosen = true; });
  const limit = optionInputs.time_limit;
  // As the server would choose: live for a turn limit under an hour, else correspondence.
  const follow = () => {
    if (chosen) return;
    const seconds = limit ? Number(limit.value) : 0;
    pace.value = seconds > 0 && seconds < 3600 ? "live" : "correspondence";
  };
  if (limit) limit.addEventListener("input", follow);
  follow();
  const fieldset = h("fieldset", { class: "play-options" }, h("legend", {}, t("Between players")), ratedRow, loggedOut, paceRow);
  const people = () => state.mode === "online" || state.mode === "open";
  const draw = () => {
    const me = account();
    ratedRow.hidden = !me || state.mode === "hotseat";
    loggedOut.hidden = Boolean(me) || state.mode === "hotseat";
    paceRow.hidden = !people();
    fieldset.hidden = ratedRow.hidden && loggedOut.hidden && paceRow.hidden;
  };
  const read = () => {
    const out = {};
    if (!ratedRow.hidden && rated.checked) out.rated = true;
    if (people()) out.pace = pace.value;
    return out;
  };
  return { fieldset, draw, read };
}

function afterCreate(created, game) {
  const humans = created.seats.filter((s) => s.token);
  if (created.mode === "open") {
    // The creator's seat; the others wait in the lobby's list for whoever takes them.
    const mine = humans[0];
    addSeat({ match_id: created.match_id, seat: mine.seat, token: mine.token, game: game.name, mode: "open" });
    notice(t("Your game is open in the lobby: it starts when every seat is taken."));
    window.triverseNavigate(mine.link);
    return;
  }
  if (created.mode === "online") {
    const mine = humans[0];
    addSeat({ match_id: created.match_id, seat: mine.seat, token: mine.token, game: game.name, mode: "online" });
    const invites = humans.slice(1).map((s) => ({ seat: s.seat, name: s.name, url: s.url }));
    saveInvites(created.match_id, { seats: invites, spectator: created.spectator_url });
    showInvites(created.match_id, game.title, invites, created.spectator_url, mine.link);
    return;
  }
  for (const s of humans) {
    addSeat({ match_id: created.match_id, seat: s.seat, token: s.token, game: game.name, mode: created.mode });
  }
  const target = created.mode === "hotseat" ? `/play/${created.match_id}` : humans.length ? humans[0].link : created.spectator_link;
  window.triverseNavigate(target);
}

export function showInvites(matchId, title, invites, spectatorUrl, ownLink) {
  const row = (label, url, attrs) => {
    const input = h("input", { type: "text", readonly: true, value: url, "aria-label": t("{who}: link", { who: label }), ...attrs });
    return h("div", { class: "invite-row" },
      h("span", { class: "invite-label" }, label), input,
      h("button", { type: "button", onclick: async () => {
        input.select();
        notice((await copyText(url)) ? t("Link copied.") : t("Select the link and copy it."));
      } }, t("Copy")));
  };
  const body = h("div", { class: "invites" },
    h("p", {}, t("Send each player their own link: whoever opens it plays that seat. Keep your own seat's link to yourself.")),
    ...invites.map((s) => row(t("{name} (seat {n})", { name: s.name, n: s.seat + 1 }), s.url, { "data-invite-seat": s.seat })),
    row(t("Spectators"), spectatorUrl, { "data-spectator-link": "" }));
  return openDialog({
    title: t("Invite players: {game}", { game: title }), body, className: "invite-dialog",
    actions: ownLink ? [{ label: t("Later"), value: null }, { label: t("Play my seat"), value: "play", primary: true }]
      : [{ label: t("Close"), value: null, primary: true }],
  }).then((v) => {
    if (v === "play" && ownLink) window.triverseNavigate(ownLink);
  });
}

