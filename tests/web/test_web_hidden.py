"""Hidden tiles in the browser: hot-seat shows one hand at a time, and online pages never
receive another seat's tiles, neither in their DOM nor over the network."""

from __future__ import annotations

from typing import Any

from web_helpers import (
    canon,
    hand_tiles,
    match_id,
    play_move,
    start_game,
    tiles_in,
    views_in,
)
from web_support import LiveServer, screenshot


def secret_tiles(server: LiveServer, mid: str, seat: int, move: int) -> set[str]:
    """The tiles of ``seat``'s hand after ``move`` moves that nobody else may know: its hand
    less the opening tiles the rules announce to everyone."""
    obs = server.observations(mid, seat)[move]
    announced = {canon(t) for t in obs.get("opening") or []}
    return {canon(t) for t in obs["hand"]} - announced


def body_move(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-move") or 0)


def test_hotseat_shows_only_the_hand_being_played(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_game(page, server.base, "triominoes", "hotseat", ["human", "human"], seed=21)
    for turn in range(4):
        dialog = page.locator("dialog.pass-dialog")
        dialog.wait_for()
        # Behind the pass screen: no hand at all in the page.
        move = body_move(page)
        assert page.locator(".hand button[data-tile]").count() == 0
        html = page.content()
        for seat in (0, 1):
            leaked = secret_tiles(server, mid, seat, move) & tiles_in(html)
            assert not leaked, f"seat {seat}'s tiles {leaked} are in the page (pass screen)"
        if turn == 0:
            screenshot(page, "hotseat-pass-1280x800")
        dialog.locator("button[data-value='reveal']").click()
        page.wait_for_selector("body[data-your-turn='true']")
        seat = int(page.locator("body").get_attribute("data-identity") or -1)
        assert seat in (0, 1)
        other = 1 - seat
        mine = {canon(t) for t in server.observations(mid, seat)[body_move(page)]["hand"]}
        assert {canon(t) for t in hand_tiles(page)} == mine
        html = page.content()
        leaked = secret_tiles(server, mid, other, body_move(page)) & tiles_in(html)
        assert not leaked, f"seat {other}'s tiles {leaked} are in the page while seat {seat} plays"
        play_move(page, mid, seat, "click")
        # Drawing keeps the same player at the table (no pass screen) until a tile is placed.
        while page.locator("body").get_attribute("data-your-turn") == "true":
            play_move(page, mid, seat, "drag")
    assert match_id(page) == mid


def test_online_pages_see_each_other_live_and_never_the_other_hand(
        server: LiveServer, new_page: Any) -> None:
    host = new_page()
    start_game(host, server.base, "triominoes", "online", ["human", "human"], seed=5)
    screenshot(host, "online-invite-1280x800")
    invite = host.locator("dialog.invite-dialog [data-invite-seat='1']").input_value()
    spectator = host.locator("dialog.invite-dialog [data-spectator-link]").input_value()
    assert "/play/" in invite and "#" in invite and "/watch/" in spectator
    host.locator("dialog.invite-dialog button[data-value='play']").click()
    host.wait_for_selector("body[data-board-ready='true']")
    guest = new_page()
    traffic: dict[int, list[str]] = {0: [], 1: []}
    responses: dict[int, list[Any]] = {0: [], 1: []}
    for seat, page in ((0, host), (1, guest)):
        page.on("websocket", lambda ws, seat=seat: ws.on(
            "framereceived", lambda payload, seat=seat: traffic[seat].append(str(payload))))
        page.on("response", lambda r, seat=seat: responses[seat].append(r)
                if "/api/" in r.url else None)
    host.reload()
    guest.goto(invite)
    pages = {0: host, 1: guest}
    for page in pages.values():
        page.wait_for_selector("body[data-board-ready='true']")
        page.wait_for_selector("body[data-connection='connected']")
    mid = match_id(host)
    assert match_id(guest) == mid

    def check_dom() -> None:
        for seat, page in pages.items():
            move = body_move(page)
            leaked = secret_tiles(server, mid, 1 - seat, move) & tiles_in(page.content())
            assert not leaked, f"seat {1 - seat}'s tiles {leaked} are in seat {seat}'s page"

    placed = 0
    for _ in range(40):
        if placed >= 5:
            break
        check_dom()
        to_move = int(host.locator("body").get_attribute("data-to-move") or 0)
        page = pages[to_move]
        page.wait_for_selector("body[data-your-turn='true']")
        action = play_move(page, mid, to_move, "drag" if placed % 2 else "click")
        move = body_move(page)
        # The other page sees the move live.
        pages[1 - to_move].wait_for_function(f"() => Number(document.body.dataset.move) >= {move}")
        if action.get("place"):
            placed += 1
            tile = action["place"]["tile"]
            pages[1 - to_move].wait_for_selector(f".board .layer-tiles [data-tile='{tile}']")
    check_dom()
    screenshot(guest, "online-guest-1280x800")

    # Nothing either page received held the other's hand at that moment.
    for seat in (0, 1):
        texts = list(traffic[seat])
        for r in responses[seat]:
            try:
                texts.append(r.text())
            except Exception:  # a response without a body (a redirect)
                continue
        checked = 0
        for text in texts:
            for view in views_in(text):
                secret = secret_tiles(server, mid, 1 - seat, view["move"])
                leaked = secret & tiles_in(text)
                assert not leaked, f"seat {seat} received seat {1 - seat}'s tiles {leaked}"
                checked += 1
        assert checked >= placed, f"only {checked} views recorded for seat {seat}"
