"""Browser test of Trident's score preview worded from message codes (issue 21): each line,
bonus and refusal is rendered from its code and parameters with the table's templates (those
the feed uses, in the player's language), not from the server's English label or reason."""

from __future__ import annotations

from typing import Any

from web_support import LiveServer
from web_trident_helpers import pick_joker, place_by_drag, place_by_keys, start_trident, state_of

from triverse.core.messages import render

# Templates as a catalogue would give them in another language: the preview must show these.
WORDED = {
    "preview.tile": "Pièce {sum} = {total}",
    "preview.pair": "Paire {sum} = {total}",
    "preview.trio_multiplied": "Trio {sum} = {subtotal}, prime +{bonus} = {base}, "
                               "×{multiplier} = {total}",
    "preview.triton_joker": "{name} avec un joker : pas de prime de {bonus}",
    "refused.trio_not_15": "trois pièces côte à côte font 15, pas {sum} = {total}",
}


def _reword_templates(route: Any) -> None:
    """GET /api/games with Trident's preview templates replaced by WORDED's."""
    response = route.fetch()
    body = response.json()
    for game in body["games"]:
        if game["name"] == "trident":
            game["messages"].update(WORDED)
    route.fulfill(response=response, json=body)


def _blur_english(route: Any) -> None:
    """The server's preview with its English labels and reason replaced, and one item of a code
    no template knows (shown by its label, as before codes)."""
    response = route.fetch()
    body = response.json()
    preview = body["preview"]
    for item in preview["items"]:
        item["label"] = "server label"
    if preview["reason"]:
        preview["reason"] = "server reason"
    if preview["items"]:
        preview["items"].append({"kind": "other", "points": 0, "label": "an older item",
                                 "code": "preview.unheard_of", "params": {}})
    route.fulfill(response=response, json=body)


def _lines(page: Any) -> list[tuple[str, str]]:
    return page.eval_on_selector_all(
        ".td-preview li", "els => els.map(e => [e.dataset.code, e.textContent])")


def test_trident_preview_is_worded_from_its_message_codes(server: LiveServer,
                                                         new_page: Any) -> None:
    page = new_page()
    page.route("**/api/games", _reword_templates)
    page.route("**/api/matches/*/preview", _blur_english)
    # Seed 93: the human moves first with the rack 5, 6 and a joker.
    mid = start_trident(page, server.base, seed=93)
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
    state = state_of(server, mid)
    # The 5 on the star: a lone tile, doubled.
    place_by_keys(page, 0, 7, 7)
    page.wait_for_selector("body[data-preview='10']")
    (item,) = state.preview("7:7=5").items
    assert item.code == "preview.tile"
    assert _lines(page) == [["preview.tile", render(item.code, item.params, WORDED)],
                            ["preview.unheard_of", "an older item"]]
    assert _lines(page)[0][1] == "Pièce 5×2 = 10"
    # The 6 beside it: a pair, the star doubling the 5.
    place_by_drag(page, 1, 7, 8)
    page.wait_for_selector("body[data-preview='16']")
    assert _lines(page)[0] == ["preview.pair", "Paire 5×2+6 = 16"]
    # The joker as 0: not a Trio of 15; the refusal is worded from its code.
    place_by_drag(page, 2, 7, 9, wait=False)
    pick_joker(page, 0)
    page.wait_for_selector(".td-preview.illegal")
    reason = page.locator(".td-preview-reason")
    assert reason.get_attribute("data-code") == "refused.trio_not_15"
    assert reason.inner_text() == "trois pièces côte à côte font 15, pas 5 + 6 + 0 = 11"
    # The joker as 4: the Trio, doubled, and no Triton bonus with a joker.
    page.locator(".td-sq[data-sq='7:9']").focus()
    page.keyboard.press("Backspace")
    page.wait_for_selector(".td-sq[data-sq='7:9']:not(.td-tentative)")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    pick_joker(page, 4)
    page.wait_for_selector("body[data-preview='60']")
    items = state.preview("7:7=5,7:8=6,7:9=*4").items
    assert [i.code for i in items] == ["preview.trio_multiplied", "preview.triton_joker"]
    assert _lines(page)[:2] == [[i.code, render(i.code, i.params, WORDED)] for i in items]
    assert _lines(page)[:2] == [
        ["preview.trio_multiplied", "Trio 5+6+*4 = 15, prime +15 = 30, ×2 = 60"],
        ["preview.triton_joker", "Triton avec un joker : pas de prime de 50"]]
    assert "server" not in page.locator(".td-preview").inner_text()
