"""A whole game against the computer through the browser, for each tile game with an engine;
then My games, the replay and the record of the finished game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from web_helpers import (
    match_id,
    play_move,
    start_game,
    tile_game_available,
    wait_turn,
)
from web_support import PHONE, LiveServer, screenshot

TILE_GAMES = [
    pytest.param(name, marks=pytest.mark.skipif(
        not tile_game_available(name), reason=f"the {name} engine is not in the catalogue yet"))
    for name in ("triominoes", "trinity")
]


@pytest.mark.parametrize("game", TILE_GAMES)
def test_game_against_the_computer_to_the_final_standings(
        game: str, server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_game(page, server.base, game, "computer", ["human", "average"])
    assert page.locator("body").get_attribute("data-identity") == "0"
    ways = ["drag", "click", "keys"]
    moves = 0
    shot = False
    while wait_turn(page, timeout=60) == "turn":
        play_move(page, mid, 0, ways[moves % 3])
        moves += 1
        if moves == 4 and not shot:
            shot = True
            page.wait_for_timeout(300)
            screenshot(page, f"board-{game}-1280x800")
        assert moves < 400, "the game does not end"
    final = page.locator("dialog.final-dialog")
    final.wait_for()
    assert "Final standings" in final.inner_text()
    result = page.evaluate(
        "async (id) => (await fetch(`/api/matches/${id}/view`)).json()", mid)["result"]
    rows = final.locator("tbody tr")
    assert rows.count() == 2
    top = rows.nth(0).inner_text()
    assert str(max(result["scores"])) in top
    screenshot(page, f"final-{game}-1280x800")

    # My games lists it as finished, with the record and the replay.
    final.locator("button[data-value='lobby']").click()
    page.wait_for_selector(f"li.match-item[data-match='{mid}']")
    item = page.locator(f"li.match-item[data-match='{mid}']")
    item.scroll_into_view_if_needed()
    screenshot(page, f"my-games-{game}-1280x800")
    assert item.locator(f"[data-download='{mid}']").count() == 1
    with page.expect_download() as download:
        item.locator(f"[data-download='{mid}']").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == game and record["result"]["scores"] == result["scores"]
    item.locator(f"[data-export='{mid}']").click()
    export = page.locator("dialog", has_text="Export")
    text = export.locator("textarea").input_value()
    assert f"1. {record['actions'][0]}" in text and f"# seed: {record['seed']}" in text
    export.locator("button[data-value='null']").click()
    item.locator(f"[data-replay='{mid}']").click()
    page.wait_for_selector("body[data-replay-step='0']")
    page.click("[data-replay-action='next']")
    page.wait_for_selector("body[data-replay-step='1']")
    # Trinity turns the pool's top tile up on the board before the first move.
    assert page.locator(".board .layer-tiles .tile").count() == (2 if game == "trinity" else 1)
    page.click("[data-replay-action='end']")
    page.wait_for_selector(f"body[data-replay-step='{len(record['actions'])}']")
    screenshot(page, f"replay-{game}-1280x800")
    assert match_id(page) == mid


@pytest.mark.parametrize("game", TILE_GAMES)
def test_phone_layout(game: str, server: LiveServer, new_page: Any) -> None:
    page = new_page(PHONE)
    mid = start_game(page, server.base, game, "computer", ["human", "average"], seed=11)
    for i in range(3):
        if wait_turn(page) != "turn":
            break
        play_move(page, mid, 0, ["click", "drag", "keys"][i])
    wait_turn(page)
    # Everything fits the width: no horizontal scrolling.
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    hand = page.locator(".hand button[data-tile]")
    assert hand.count() > 0
    for i in range(hand.count()):
        box = hand.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.locator(".hand button[data-tile]").first.click()
    screenshot(page, f"board-{game}-390x844")
