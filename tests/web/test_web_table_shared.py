"""What every table and the lobby share (issue 21): the players' names in the score panel
("You", "Computer (average)", never cut off), the options' words in the New Game dialog, the
cue of a human's turn in the title bar, the final standings of a finished online game for a
spectator and the seats, and the language chosen in Preferences."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import match_id, open_new_game, play_move, start_game, wait_turn
from web_support import DESKTOP, PHONE, LiveServer, screenshot


def _create(page: Any, base: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST /api/matches from the page (so that the page's origin holds the seats)."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='true']")
    created: dict[str, Any] = page.evaluate("""async (body) => {
        const r = await fetch('/api/matches', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
        return r.json(); }""", body)
    return created


def _pause(page: Any, mid: str, token: str) -> None:
    page.evaluate("""async ([id, token]) => fetch(`/api/matches/${id}/pause`, {method: 'POST',
        headers: {'X-Seat-Token': token, 'Content-Type': 'application/json'},
        body: JSON.stringify({paused: true})})""", [mid, token])


def _clipped(page: Any) -> list[str]:
    """The score panel's name cells whose text does not fit (wider than the cell)."""
    found: list[str] = page.evaluate("""() => [...document.querySelectorAll('.scores tbody th,'
        + ' .scores .name')].filter((e) => e.scrollWidth > e.clientWidth + 0.5
        || getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth)
        .map((e) => e.textContent)""")
    return found


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_names_say_you_and_the_computers_level_once_and_are_never_cut_off(
        viewport: dict[str, int], server: LiveServer, new_page: Any) -> None:
    page = new_page(viewport)
    created = _create(page, server.base, {
        "game": "trinity", "mode": "computer", "seed": 5, "options": {"rounds": 1},
        "seats": [{"kind": "human"}, {"kind": "average"}, {"kind": "average"},
                  {"kind": "novice"}]})
    mine = created["seats"][0]
    _pause(page, created["match_id"], mine["token"])
    page.goto(server.base + mine["link"])
    page.wait_for_selector("body[data-board-ready='true']")
    names = page.locator(".scores tbody .name").all_inner_texts()
    assert names == ["You", "Computer (average) 1", "Computer (average) 2", "Computer (novice)"]
    panel = page.locator(".scores").inner_text()
    assert "Average 2" not in panel and "(you)" not in panel
    # The level is said once: no second "average" after a computer's name.
    assert page.locator(".scores .kind").count() == 0
    assert not _clipped(page), _clipped(page)
    screenshot(page, f"table-names-{viewport['width']}x{viewport['height']}")

    # A spectator has no "You": the human seat keeps its name.
    watcher = new_page(viewport)
    watcher.goto(server.base + created["spectator_link"])
    watcher.wait_for_selector("body[data-board-ready='true']")
    assert watcher.locator(".scores tbody .name").all_inner_texts()[0] == "Player 1"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_long_names_wrap_in_the_score_panel(viewport: dict[str, int], server: LiveServer,
                                            new_page: Any) -> None:
    page = new_page(viewport)
    long_names = ["Maximiliana Bartholomew-Fitzwilliam", "Konstantynopolitańczykowianeczka",
                  "Ann", "Jean-Baptiste Poquelin de Molière"]
    created = _create(page, server.base, {
        "game": "trinity", "mode": "hotseat", "seed": 5, "options": {"rounds": 1},
        "seats": [{"kind": "human", "name": n} for n in long_names]})
    page.goto(server.base + created["spectator_link"])
    page.wait_for_selector("body[data-board-ready='true']")
    assert page.locator(".scores tbody .name").all_inner_texts() == long_names
    assert not _clipped(page), _clipped(page)
    # Every name is whole on the screen: the panel may scroll sideways on a phone, the names
    # themselves wrap.
    heights = page.evaluate("""() => [...document.querySelectorAll('.scores .name')]
        .map((e) => e.getClientRects().length)""")
    assert max(heights) >= 2 if viewport is PHONE else True


def test_options_have_labels_and_one_line_explanations(server: LiveServer,
                                                       new_page: Any) -> None:
    page = new_page()
    dialog = open_new_game(page, server.base, "triominoes")
    row = dialog.locator("[data-option='variant']")
    assert row.locator("label").inner_text() == "Rules"
    options = row.locator("select option").evaluate_all(
        "els => els.map(e => [e.value, e.textContent])")
    assert options == [["seed", "This app's rules"], ["pressman", "Official Pressman rules"]]
    explanation = row.locator("[data-explanation='variant']")
    assert explanation.inner_text().startswith("The rules of the original app")
    row.locator("select").select_option("pressman")
    assert "at most 3 draws a turn" in explanation.inner_text()
    described = row.locator("select").get_attribute("aria-describedby")
    assert described == explanation.get_attribute("id")
    assert dialog.locator("[data-option='target'] label").inner_text() == "Play to"
    # The computer levels read "Computer (average)" in the seats' choices.
    dialog.locator("input[name='mode'][value='computer']").check()
    kinds = dialog.locator("select[name='kind-1'] option").all_inner_texts()
    assert "Computer (average)" in kinds
    screenshot(page, "new-game-options-1280x800")

    # Triangles' yes/no option explains the choice made, and changes with it.
    page.keyboard.press("Escape")
    page.click("[data-new-game='triangles']")
    again = page.locator("dialog.new-game-dialog [data-option='again']")
    text = again.locator("[data-explanation='again']")
    assert text.inner_text() == "Turns alternate whatever a line closes."
    again.locator("input[type='checkbox']").check()
    assert text.inner_text() == "A player who closes a triangle draws another line at once."
    stars = page.locator("dialog.new-game-dialog")
    assert "24 stars" in stars.inner_text() or stars.locator("[data-option='stars']").count() == 0


def test_a_humans_turn_is_marked_in_the_title_bar(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_game(page, server.base, "triominoes", "computer", ["human", "average"])
    assert wait_turn(page) == "turn"
    assert page.title() == "Your turn · Tri-ominoes · Triverse"
    assert page.locator(".status[data-turn='true']").inner_text() == "Your turn"
    cues = int(page.evaluate("() => document.body.dataset.turnCues || '0'"))
    # The computer waits (paused) while this seat plays until the turn passes to it: a draw
    # keeps the turn and gives no new cue.
    page.click("[data-action='pause']")
    page.wait_for_selector("body[data-paused='true']")
    for _ in range(12):
        play_move(page, mid, 0, "keys")  # (it waits for the move's view)
        if page.evaluate("() => document.body.dataset.yourTurn") == "false":
            break
    assert page.evaluate("() => document.body.dataset.yourTurn") == "false"
    assert page.title() == "Tri-ominoes · Triverse"
    assert int(page.evaluate("() => document.body.dataset.turnCues || '0'")) == cues
    # The computer plays: the title bar, the badge and the sound say it is this seat's turn.
    page.click("[data-action='pause']")
    page.wait_for_selector("body[data-your-turn='true']")
    assert page.title() == "Your turn · Tri-ominoes · Triverse"
    assert page.locator(".status[data-turn='true']").inner_text() == "Your turn"
    assert int(page.evaluate("() => document.body.dataset.turnCues")) == cues + 1


def _play_out(page: Any, mid: str, tokens: list[str]) -> None:
    """Play an online Triangles game to its end through the REST API (the first legal line)."""
    page.evaluate("""async ([id, tokens]) => {
        for (let i = 0; i < 500; i++) {
            const views = await Promise.all(tokens.map((t) => fetch(`/api/matches/${id}/view`,
                {headers: {'X-Seat-Token': t}}).then((r) => r.json())));
            const v = views.find((x) => x.your_turn);
            if (!v || v.finished) return;
            await fetch(`/api/matches/${id}/actions`, {method: 'POST',
                headers: {'X-Seat-Token': tokens[v.seat], 'Content-Type': 'application/json'},
                body: JSON.stringify({action: v.legal_actions[0].notation, move: v.move})});
        } }""", [mid, tokens])


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_a_finished_online_game_shows_the_standings_to_spectators_and_seats(
        viewport: dict[str, int], server: LiveServer, new_page: Any) -> None:
    host = new_page(viewport)
    created = _create(host, server.base, {
        "game": "triangles", "mode": "online", "seed": 3, "options": {"stars": 24},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
    mid = created["match_id"]
    seat = created["seats"][1]
    host.goto(server.base + seat["link"])
    host.wait_for_selector("body[data-board-ready='true']")
    watcher = new_page(viewport)
    watcher.goto(server.base + created["spectator_link"])
    watcher.wait_for_selector("body[data-board-ready='true']")
    _play_out(host, mid, [s["token"] for s in created["seats"]])
    result = host.evaluate(
        "async (id) => (await fetch(`/api/matches/${id}/view`)).json()", mid)["result"]
    assert result is not None
    for page, me in ((watcher, None), (host, 1)):
        final = page.locator("dialog.final-dialog")
        final.wait_for()
        rows = final.locator("[data-standings] tbody tr")
        assert rows.count() == 2
        seats = [int(s) for s in rows.evaluate_all("els => els.map(e => e.dataset.seat)")]
        ranks = [result["ranks"][s] for s in seats]
        assert ranks == sorted(ranks)
        for k, s in enumerate(seats):
            text = rows.nth(k).inner_text()
            assert ["Ann", "Bob"][s] in text and str(result["scores"][s]) in text
            assert ("1st" if result["ranks"][s] == 1 else "2nd") in text
        # The score panel keeps the standings once the dialog is closed.
        final.locator("button[data-value='null'], button[data-value='lobby']").first.evaluate(
            "b => b.closest('dialog').close_(null)")
        places = page.locator(".scores tbody td.place").all_inner_texts()
        assert places[0] == "1st"
        assert me is None or page.locator(".scores tr.me").count() == 1
    screenshot(watcher, f"final-spectator-{viewport['width']}x{viewport['height']}")
    assert match_id(watcher) == mid


def test_the_language_chosen_in_preferences_is_kept_and_applied(server: LiveServer,
                                                                new_page: Any) -> None:
    page = new_page()
    # A catalogue of two words, so that the test does not hang on the translators' work.
    page.route("**/api/i18n/pl", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"language": "pl", "messages": {"Preferences": "Preferencje", '
             '"Five tri games, one table": "Pięć gier w trójkąty, jeden stół"}}'))
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    page.click("#prefs-button")   # Preferences' module is imported at the first press
    choice = page.locator("dialog.prefs-dialog #pref-language")
    choice.wait_for()
    assert choice.locator("option").evaluate_all("els => els.map(e => [e.value, e.textContent])") \
        == [["en", "English"], ["pl", "Polski"], ["fr", "Français"]]
    with page.expect_navigation():
        choice.select_option("pl")
    page.wait_for_selector("body[data-ready='true']")
    assert page.evaluate("() => localStorage.getItem('triverse.lang')") == "pl"
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("triverse_lang") == "pl"
    assert page.evaluate("() => document.documentElement.lang") == "pl"
    assert page.locator(".lobby-intro h1").inner_text() == "Pięć gier w trójkąty, jeden stół"
    page.click("#prefs-button")
    assert page.locator("dialog.prefs-dialog h2").first.inner_text() == "Preferencje"
    assert page.locator("#pref-language").input_value() == "pl"
