"""A game survives a reload of the page, and a stop and restart of the server."""

from __future__ import annotations

from typing import Any

from web_helpers import canon, hand_tiles, play_move, start_game, wait_turn
from web_support import LiveServer


def test_reload_then_server_restart_mid_game(own_server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_game(page, own_server.base, "triominoes", "computer", ["human", "average"], seed=3)
    for how in ("drag", "click"):
        if wait_turn(page) == "turn":
            play_move(page, mid, 0, how)
    wait_turn(page)
    move = int(page.locator("body").get_attribute("data-move") or 0)
    before = sorted(hand_tiles(page))

    # A reload continues: same seat, same hand, same move (the token is in localStorage and in
    # the link's fragment).
    page.reload()
    page.wait_for_selector("body[data-connection='connected']")
    page.wait_for_selector(f"body[data-move='{move}']")
    assert sorted(hand_tiles(page)) == before
    # Without the fragment too: the token in localStorage is enough.
    page.goto(f"{own_server.base}/play/{mid}")
    page.wait_for_selector(f"body[data-move='{move}']")
    assert page.locator("body").get_attribute("data-identity") == "0"
    assert sorted(hand_tiles(page)) == before
    play_move(page, mid, 0, "keys")

    # Stop the server: the page says so and keeps trying; restart it on the same database.
    wait_turn(page)
    move = int(page.locator("body").get_attribute("data-move") or 0)
    own_server.stop()
    page.wait_for_selector("body[data-connection='reconnecting']")
    assert "retrying" in page.locator(".connection").inner_text().lower() or "reconnect" in (
        page.locator(".connection").inner_text().lower())
    own_server.start()
    page.wait_for_selector("body[data-connection='connected']", timeout=30_000)
    page.wait_for_selector(f"body[data-move='{move}']")
    hand = {canon(t) for t in own_server.observations(mid, 0)[move]["hand"]}
    assert {canon(t) for t in hand_tiles(page)} == hand
    assert wait_turn(page) == "turn"
    play_move(page, mid, 0, "drag")
    # The computer answers after the restart too.
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {move + 1}")
