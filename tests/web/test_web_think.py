"""The New Game dialog's thinking time of a veteran seat: shown only for a level that searches,
labelled, sent with the seat, and stored on the match's seat."""

from __future__ import annotations

import re
from typing import Any

from web_helpers import match_id, server_view, token_of
from web_support import DESKTOP, PHONE, LiveServer, screenshot


def _open_dialog(page: Any, base: str) -> Any:
    page.goto(f"{base}/?seed=7")
    page.wait_for_selector("body[data-ready='true']")
    page.click("[data-new-game='triominoes']")
    dialog = page.locator("dialog.new-game-dialog")
    dialog.locator("input[name='mode'][value='computer']").check()
    dialog.locator("#ng-players").select_option("3")
    return dialog


def test_a_veterans_thinking_time_is_set_in_the_dialog(server: LiveServer,
                                                        new_page: Any) -> None:
    page = new_page(DESKTOP)
    dialog = _open_dialog(page, server.base)
    think = [dialog.locator(f"select[name='think-{i}']") for i in range(3)]
    # The control appears with a veteran only, and has a label of its own.
    dialog.locator("select[name='kind-1']").select_option("average")
    dialog.locator("select[name='kind-2']").select_option("novice")
    assert [t.is_visible() for t in think] == [False, False, False]
    dialog.locator("select[name='kind-1']").select_option("veteran")
    assert [t.is_visible() for t in think] == [False, True, False]
    labelled = dialog.get_by_label("Thinking time of seat 2")
    assert labelled.count() == 1 and labelled.get_attribute("name") == "think-1"
    options = think[1].locator("option").evaluate_all(
        "els => els.map(e => [e.value, e.textContent, e.selected])")
    assert options == [["0.3", "Quick (0.3 s)", False], ["", "Normal (0.8 s)", True],
                       ["2", "Deep (2 s)", False], ["5", "Deepest (5 s)", False]]
    think[1].select_option("2")
    # A second veteran left at Normal sends no thinking time; a change of player count keeps
    # the choices made.
    dialog.locator("select[name='kind-2']").select_option("veteran")
    assert think[2].is_visible() and think[2].input_value() == ""
    dialog.locator("#ng-players").select_option("2")
    dialog.locator("#ng-players").select_option("3")
    dialog.locator("select[name='kind-2']").select_option("veteran")
    assert think[1].input_value() == "2"
    dialog.locator("#opt-target").fill("60")
    screenshot(page, "new-game-think-1280x800")
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r.post_data_json)
            if r.url.endswith("/api/matches") and r.method == "POST" else None)
    dialog.locator("button[data-value='start']").click()
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("body[data-board-ready='true']")
    mid = match_id(page)
    token = token_of(page, mid, 0)
    # Stop the computers at once: this test is about the seats, not the game.
    page.evaluate("""async ([id, token]) => fetch(`/api/matches/${id}/pause`, {method: 'POST',
        headers: {'X-Seat-Token': token, 'Content-Type': 'application/json'},
        body: JSON.stringify({paused: true})})""", [mid, token])
    assert sent and sent[0]["seats"][1:] == [{"kind": "veteran", "think": 2},
                                            {"kind": "veteran"}]
    view = server_view(page, mid, token)
    assert [(p["kind"], p["think"]) for p in view["players"]] == [
        ("human", None), ("veteran", 2.0), ("veteran", None)]
    # The table names the thinking time next to the computer (named by its level once).
    kinds = page.locator(".kind").all_inner_texts()
    assert any("(2 s)" in k for k in kinds), kinds
    assert page.locator(".scores .name").all_inner_texts()[1:] == [
        "Computer (veteran) 1", "Computer (veteran) 2"]

    # On a phone the row wraps and stays on screen.
    phone = new_page(PHONE)
    small = _open_dialog(phone, server.base)
    small.locator("select[name='kind-1']").select_option("veteran")
    small.locator("select[name='think-1']").select_option("5")
    assert small.locator("select[name='think-1']").is_visible()
    width = phone.evaluate("() => document.querySelector('dialog.new-game-dialog').scrollWidth")
    client = phone.evaluate("() => document.querySelector('dialog.new-game-dialog').clientWidth")
    assert width <= client
    screenshot(phone, "new-game-think-390x844")
