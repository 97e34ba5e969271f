"""Browser tests of the veteran's hints and post-game reviews: Hint in each game's table
highlights the suggested move on the board (and says it in the status line) without playing
it; after a game, Review lists where the veteran would have played differently, and an entry
opens the replay at that move with the veteran's move marked."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest
from web_support import PHONE, LiveServer, screenshot

Json = dict[str, Any]
HINTED = "() => document.body.dataset.hint && document.body.dataset.hint !== 'thinking'"
REVIEWED = "() => document.body.dataset.review && document.body.dataset.review !== 'loading'"

SEATS: dict[str, tuple[Json, int]] = {
    # game: (options, seed)
    "triominoes": ({"target": 60}, 8),
    "trinity": ({}, 7),
    "triangles": ({"stars": 24}, 3),
    "trident": ({}, 7),
    "trivinity": ({}, 5),
}


def _call(base: str, method: str, path: str, body: Json | None = None,
          token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _against_novice(base: str, game: str, options: Json, seed: int) -> tuple[str, str]:
    """A match of the human seat 0 against the novice; its id and the human's token."""
    created = _call(base, "POST", "/api/matches", {
        "game": game, "options": options, "seed": seed, "mode": "computer",
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "novice"}]})
    return created["match_id"], created["seats"][0]["token"]


def _short(description: str) -> str:
    """An action's description as the UI writes it (the tile games leave out the corners)."""
    return description.split(", corners")[0]


def _open_seat(page: Any, base: str, mid: str, token: str) -> None:
    page.goto(f"{base}/play/{mid}?seat=0#{token}")
    page.wait_for_selector("body[data-board-ready='true']")


def _wait_my_turn(page: Any) -> None:
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'", timeout=30_000)


@pytest.mark.parametrize("game", list(SEATS))
def test_hint_highlights_the_veterans_move(server: LiveServer, new_page: Any, game: str) -> None:
    options, seed = SEATS[game]
    if game == "triangles":
        options = {}
    mid, token = _against_novice(server.base, game, options, seed)
    page = new_page()
    _open_seat(page, server.base, mid, token)
    _wait_my_turn(page)
    before = page.locator("body").get_attribute("data-move")
    button = page.locator("button[data-action='hint']")
    assert button.is_visible() and button.is_enabled()
    button.click()
    page.wait_for_function(HINTED)
    notation = page.locator("body").get_attribute("data-hint")
    view = _call(server.base, "GET", f"/api/matches/{mid}/view", token=token)
    legal = {a["notation"]: a for a in view["legal_actions"]}
    assert notation in legal                                   # a legal move of this seat
    assert page.locator("body").get_attribute("data-move") == before   # nothing played
    assert str(view["move"]) == before
    status = page.locator("#status").inner_text()
    assert f"Hint: {_short(legal[notation]['description'])}" in status
    assert button.is_disabled()                                 # shown already
    action = legal[notation]
    if game in ("triominoes", "trinity"):
        if action["kind"] == "place":
            tile = action["fields"]["tile"]
            assert page.locator(f".layer-hint [data-hint-tile='{tile}']").count() == 1
            assert page.locator(".hand-tile.hinted").get_attribute("data-tile") == tile
        else:
            assert page.locator(f"button[data-action='{notation}'].hinted").count() == 1
    elif game == "triangles":
        a, b = sorted((action["fields"]["a"], action["fields"]["b"]))
        assert page.locator(f".sf-layer-hint [data-hint='{a}-{b}']").count() == 1
    elif game == "trident":
        if action["kind"] == "play":
            squares = page.locator(".td-sq.td-hinted")
            assert squares.count() == len(action["fields"]["tiles"])
            r, c, value, _joker = action["fields"]["tiles"][0]
            assert page.locator(f".td-sq.td-hinted[data-sq='{r}:{c}']").get_attribute(
                "data-hint").endswith(str(value))
            assert page.locator(".td-rack-tile.hinted").count() == len(action["fields"]["tiles"])
        else:
            assert page.locator(f"button[data-action='{action['kind']}'].hinted").count() == 1
    else:
        assert page.locator(f"[data-hinted='{notation}']").count() >= 1
    screenshot(page, f"hint-{game}-1280x800")
    # The hint goes once the move is played (here: the hint itself, sent over REST).
    _call(server.base, "POST", f"/api/matches/{mid}/actions",
          {"action": notation, "move": int(before or 0)}, token=token)
    page.wait_for_function(f"() => document.body.dataset.move !== '{before}'")
    page.wait_for_function("() => !document.body.dataset.hint")
    assert "Hint:" not in page.locator("#status").inner_text()


def _play_to_end(base: str, mid: str, token: str, timeout: float = 60.0) -> None:
    """Play the human seat over REST (its first legal action) until the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = _call(base, "GET", f"/api/matches/{mid}/view?log=0", token=token)
        if view["finished"]:
            return
        if view["your_turn"]:
            _call(base, "POST", f"/api/matches/{mid}/actions",
                  {"action": view["legal_actions"][0]["notation"], "move": view["move"]},
                  token=token)
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def test_review_after_a_game_and_its_replay(server: LiveServer, new_page: Any) -> None:
    mid, token = _against_novice(server.base, "triominoes", {"target": 1}, 7)
    _play_to_end(server.base, mid, token)
    page = new_page()
    _open_seat(page, server.base, mid, token)
    final = page.locator("dialog.final-dialog")
    final.wait_for()
    assert page.locator("button[data-action='hint']").is_hidden()
    final.locator("button[data-value='review']").click()
    page.wait_for_function(REVIEWED, timeout=60_000)
    review = _call(server.base, "GET", f"/api/matches/{mid}/review", token=token)
    assert review["seat"] == 0 and all(m["seat"] == 0 for m in review["moves"])
    panel = page.locator(".review-panel")
    assert panel.is_visible()
    entries = panel.locator("[data-review-move]")
    assert entries.count() == len(review["moves"])
    assert page.locator("body").get_attribute("data-review") == str(len(review["moves"]))
    summary = panel.locator("[data-review-seat='0']").inner_text()
    assert f"of {review['seats'][0]['decisions']} decision" in summary
    screenshot(page, "review-triominoes-1280x800")
    if not review["moves"]:
        assert "nothing to change" in panel.inner_text()
        return
    first = review["moves"][0]
    text = entries.first.inner_text()
    assert f"Move {first['move'] + 1}" in text
    assert _short(first["suggestion"]["description"]) in text
    # An entry opens the replay at that move, with the veteran's tile drawn at its place.
    entries.first.click()
    page.wait_for_url(f"**/watch/{mid}?replay={first['move']}&review=0")
    page.wait_for_selector(f"body[data-replay-step='{first['move']}']")
    page.wait_for_function(REVIEWED)
    current = page.locator(".review-panel [aria-current='true']")
    assert current.get_attribute("data-review-move") == str(first["move"])
    assert "the veteran:" in page.locator("#status").inner_text()
    if first["suggestion"]["kind"] == "place":
        tile = first["suggestion"]["fields"]["tile"]
        assert page.locator(f".layer-hint [data-hint-tile='{tile}']").count() == 1
    screenshot(page, "review-replay-triominoes-1280x800")
    # Another entry moves the replay without leaving the page.
    if len(review["moves"]) > 1:
        second = review["moves"][1]
        page.locator(f".review-panel [data-review-move='{second['move']}']").click()
        page.wait_for_selector(f"body[data-replay-step='{second['move']}']")
        assert page.url.endswith(f"replay={first['move']}&review=0")
    # On a phone the review shows above the board, without horizontal scrolling.
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    assert page.locator(".review-panel [data-review-move]").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "review-replay-triominoes-390x844")
