"""The tile games' table as a player expects it (issue 21): the board keeps itself in view as
it grows and keeps the player's own zoom until Fit; the server's score preview in words before
a tile is dropped; the finished round's board under the round's summary until it closes;
Trinity's own look."""

from __future__ import annotations

import re
from typing import Any

from tiles_table_helpers import (
    board_scale,
    full_log,
    play_by_api,
    round_tiles,
    shown_tiles,
    tiles_outside,
)
from web_helpers import (
    choose,
    dismiss_round_dialogs,
    orientation,
    play_move,
    select_tile,
    server_view,
    slot_centre,
    start_game,
    token_of,
    turn_to,
    wait_turn,
)
from web_support import PHONE, LiveServer, screenshot

FIT_MAX_SCALE = 64  # board.js: the largest edge a fit gives, in pixels


def test_the_board_fits_its_tiles_and_keeps_the_players_zoom_until_fit(
        server: LiveServer, new_page: Any) -> None:
    page = new_page(viewport=PHONE)
    mid = start_game(page, server.base, "triominoes", "computer", ["human", "novice"], seed=21)
    wait_turn(page)
    # Few tiles: a comfortable size, not giant.
    assert 0 < board_scale(page) <= FIT_MAX_SCALE
    assert page.locator(".board").get_attribute("data-view") == "fit"
    for _ in range(6):
        if wait_turn(page, timeout=60) != "turn":
            break
        play_by_api(page, mid)
        wait_turn(page, timeout=60)
        page.wait_for_timeout(100)
        assert tiles_outside(page) == [], "a tile runs off the board's edge"
    assert shown_tiles(page) >= 8
    screenshot(page, "tiles-fit-390x844")
    # The player's zoom wins over the next moves ...
    page.click(".zoom button[data-zoom='in']")
    page.click(".zoom button[data-zoom='in']")
    zoomed = board_scale(page)
    assert page.locator(".board").get_attribute("data-view") == "user"
    before = shown_tiles(page)
    for _ in range(10):  # a turn may be a draw: play until the board has grown
        play_by_api(page, mid)
        wait_turn(page, timeout=60)
        if shown_tiles(page) > before:
            break
    assert shown_tiles(page) > before
    assert board_scale(page) == zoomed
    # ... until Fit (the key 0), after which the board follows the game again.
    page.keyboard.press("0")
    assert page.locator(".board").get_attribute("data-view") == "fit"
    assert board_scale(page) < zoomed
    assert tiles_outside(page) == []


def test_hovering_or_choosing_a_place_previews_the_score_in_words(
        server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_game(page, server.base, "trinity", "computer", ["human", "novice"], seed=5)
    wait_turn(page)
    view = server_view(page, mid, token_of(page, mid, 0))
    assert view["game"]["preview"]
    action = choose(view)
    place = action["place"]
    tile, cell = place["tile"], place["cell"]
    select_tile(page, tile)
    turn_to(page, tile, orientation(cell, place["rotation"], len(set(tile.split("-"))) == 1))
    page.keyboard.press("0")
    box = page.locator(".tiles-preview")
    assert box.is_hidden()
    x, y = slot_centre(page, cell)
    page.mouse.move(x, y)
    page.wait_for_selector(".tiles-preview[data-points]")
    # The server's own preview of the same placement gives the total; the tile's part is the
    # sum of its numbers.
    expected = page.evaluate(
        """async ([id, token, action, move]) => (await (await fetch(`/api/matches/${id}/preview`, {
             method: 'POST', headers: {'Content-Type': 'application/json', 'X-Seat-Token': token},
             body: JSON.stringify({action, move})})).json()).preview""",
        [mid, token_of(page, mid, 0), box.get_attribute("data-play"), view["move"]])
    text = box.inner_text()
    numbers = sum(int(n) for n in tile.split("-"))
    assert text.startswith(f"This play scores {expected['points']}: tile {numbers}"), text
    assert len(re.findall(r" \+ ", text)) == len(expected["items"]) - 1
    assert box.get_attribute("data-play", timeout=1000).startswith(f"{tile}@{cell[0]},{cell[1]}")
    screenshot(page, "trinity-preview-1280x800")
    # Off the board, the preview goes; choosing a place with the keyboard brings it back.
    page.mouse.move(5, 5)
    page.wait_for_selector(".tiles-preview", state="hidden")
    page.keyboard.press("]")
    page.wait_for_selector(".tiles-preview[data-points]")
    assert box.inner_text().startswith("This play scores ")
    # Dragging the tile over its place shows it too, before the drop; dropped off the board,
    # nothing is played.
    page.mouse.move(x, y)
    page.mouse.move(5, 5)
    page.wait_for_selector(".tiles-preview", state="hidden")
    hand = page.locator(f".hand button[data-tile='{tile}']").bounding_box()
    page.mouse.move(hand["x"] + hand["width"] / 2, hand["y"] + hand["height"] / 2)
    page.mouse.down()
    page.mouse.move(x, y - 40, steps=6)
    page.mouse.move(x, y, steps=4)
    page.wait_for_selector(f".tiles-preview[data-play^='{tile}@{cell[0]},{cell[1]}']")
    assert box.inner_text() == text
    page.mouse.move(5, 5, steps=4)
    page.mouse.up()
    page.wait_for_selector(".tiles-preview", state="hidden")
    assert page.locator("body").get_attribute("data-move") == str(view["move"])
    # Each part in words, as the tile games' previews name them (their message codes).
    words = page.evaluate("""async () => {
        const { previewText } = await import('/js/games/tiles-preview.js');
        return [
          previewText({ points: 49, items: [
            { code: 'tile_points', points: 9, params: { tile: '2-3-4' } },
            { code: 'bonus.bridge', points: 40, params: {} }] }),
          previewText({ points: 116, items: [
            { code: 'tile_points', points: 6, params: {} },
            { code: 'bonus.hexagons', points: 60, params: { count: 2 } },
            { code: 'bonus.span', points: 50, params: {} }] }),
        ];
    }""")
    assert words == ["This play scores 49: tile 9 + Bridge 40",
                     "This play scores 116: tile 6 + 2 hexagons 60 + Span 50"]


def test_the_finished_round_stays_under_its_summary_until_closed(
        server: LiveServer, new_page: Any) -> None:
    page = new_page()
    # Seed 3: the player's own move ends the first round (the table redraws after its send).
    mid = start_game(page, server.base, "triominoes", "computer", ["human", "novice"], seed=3,
                     short=False)
    dialog = page.locator("dialog.round-dialog")
    for _ in range(300):
        page.wait_for_function("() => document.body.dataset.yourTurn === 'true'"
                               " || document.querySelector('dialog.round-dialog')")
        if dialog.count():
            break
        play_move(page, mid, 0, "click")  # through the table: its own redraw after a send
    else:
        raise AssertionError("no round ended")
    # Under the summary: the finished round's board, its last tile in place.
    assert page.locator(".board.round-over").count() == 1
    finished = shown_tiles(page)
    placed = round_tiles(full_log(page, mid))
    assert finished == placed and finished >= 10
    screenshot(page, "triominoes-round-summary-1280x800")
    # The computer's plays of the next round wait while the summary is open.
    page.wait_for_timeout(1500)
    assert shown_tiles(page) == finished and page.locator(".board.round-over").count() == 1
    dismiss_round_dialogs(page)
    page.wait_for_function(
        "() => !document.querySelector('.board.round-over')"
        f" && document.querySelectorAll('.board .layer-tiles .tile').length < {finished}")
    wait_turn(page, timeout=60)
    state = server_view(page, mid, token_of(page, mid, 0))
    page.wait_for_function(
        f"() => document.querySelectorAll('.board .layer-tiles .tile').length"
        f" === {len(state['observation']['board'])}")


def test_trinity_has_its_own_look(server: LiveServer, new_page: Any) -> None:
    looks = {}
    for game in ("trinity", "triominoes"):
        page = new_page()
        start_game(page, server.base, game, "computer", ["human", "novice"], seed=9)
        wait_turn(page)
        looks[game] = page.evaluate("""() => ({
            felt: getComputedStyle(document.querySelector('.board-area')).backgroundImage
                  + getComputedStyle(document.querySelector('.board-area')).backgroundColor,
            face: getComputedStyle(document.querySelector('.hand-tile .face')).fill,
            hand: getComputedStyle(document.querySelector('.hand-tile')).backgroundColor,
        })""")
        screenshot(page, f"look-{game}-1280x800")
    assert looks["trinity"]["felt"] != looks["triominoes"]["felt"]
    assert looks["trinity"]["face"] != looks["triominoes"]["face"]
    assert looks["trinity"]["hand"] != looks["triominoes"]["hand"]
