"""Helpers of the browser tests: starting games through the New Game dialog and playing moves
through the UI (dragging tiles, clicking places, the keyboard), as a person would."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from triverse.games import available_games

TILE = re.compile(r"(?<![0-9A-Za-z_-])([0-5]-[0-5]-[0-5])(?![0-9A-Za-z_-])")
"""A tile in any text (not inside a token, a date or an id)."""

# The six orientations, in the UI's clockwise order: (on an up cell?, rotation).
ORIENTATIONS = [(True, 0), (False, 2), (True, 2), (False, 1), (True, 1), (False, 0)]


def tile_game_available(name: str) -> bool:
    return name in available_games()


def short_options(page: Any, game: str) -> None:
    """Fill the New Game dialog's options for a short game."""
    if game == "triominoes":
        page.fill("#opt-target", "60")
        return
    # Trinity (and any later tile game): every option about rounds at its minimum.
    for select in page.locator("dialog select[id^='opt-'], dialog input[id^='opt-']").all():
        ident = select.get_attribute("id") or ""
        if "round" not in ident or ident == "opt-max_rounds":
            continue
        if select.evaluate("e => e.tagName") == "SELECT":
            first = select.locator("option").first.get_attribute("value")
            select.select_option(first)
        else:
            minimum = select.get_attribute("min")
            if minimum:
                select.fill(minimum)


def open_new_game(page: Any, base: str, game: str, mode: str = "computer",
                  seed: int = 7) -> Any:
    """Open the lobby's New Game dialog for ``game`` with ``mode`` chosen; returns the dialog."""
    page.goto(f"{base}/?seed={seed}")
    page.wait_for_selector("body[data-ready='true']")
    page.click(f"[data-new-game='{game}']")
    dialog = page.locator("dialog.new-game-dialog")
    dialog.locator(f"input[name='mode'][value='{mode}']").check()
    return dialog


def fill_seats(dialog: Any, seats: list[str], count: bool = True) -> None:
    """Choose each seat's kind (and name the human ones); ``count``: set the number of players
    first."""
    if count:
        dialog.locator("#ng-players").select_option(str(len(seats)))
    for i, kind in enumerate(seats):
        select = dialog.locator(f"select[name='kind-{i}']")
        if select.is_enabled():
            select.select_option(kind)
        name = dialog.locator(f"input[name='name-{i}']")
        if kind == "human" and name.is_enabled():
            name.fill(["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"][i])


def submit_new_game(page: Any, dialog: Any, shot: str | None = None) -> str:
    """Start the game of the New Game dialog (a screenshot of the dialog first, if named) and
    wait for its table; returns the match id."""
    if shot:
        from web_support import screenshot
        screenshot(page, shot)
    dialog.locator("button[data-value='start']").click()
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("body[data-board-ready='true']")
    return match_id(page)


def start_game(page: Any, base: str, game: str, mode: str = "computer", seats: list[str] | None
               = None, seed: int = 7, short: bool = True) -> str:
    """Create a game through the lobby's New Game dialog; returns the match id (after the
    navigation to the table, except for online games, which stay on the invite dialog)."""
    dialog = open_new_game(page, base, game, mode, seed)
    if seats is not None:
        fill_seats(dialog, seats)
    if short:
        short_options(page, game)
    if mode == "online":
        dialog.locator("button[data-value='start']").click()
        page.wait_for_selector("dialog.invite-dialog")
        return ""
    return submit_new_game(page, dialog)


def match_id(page: Any) -> str:
    found = re.search(r"/(?:play|watch)/([^/?#]+)", page.url)
    assert found, page.url
    return found.group(1)


def token_of(page: Any, mid: str, seat: int) -> str:
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('triverse.seats') || '[]')")
    for entry in stored:
        if entry["match_id"] == mid and entry["seat"] == seat:
            token: str = entry["token"]
            return token
    raise AssertionError(f"no token of seat {seat} in localStorage")


def server_view(page: Any, mid: str, token: str) -> dict[str, Any]:
    """The seat's view, fetched by the page (as the test's own look at the legal moves)."""
    view: dict[str, Any] = page.evaluate(
        """async ([id, token]) => (await fetch(`/api/matches/${id}/view?log=1`,
              {headers: {'X-Seat-Token': token}})).json()""", [mid, token])
    return view


def dismiss_round_dialogs(page: Any) -> None:
    for dlg in page.locator("dialog.round-dialog").all():
        if dlg.is_visible():
            dlg.locator("button.primary").click()


def wait_turn(page: Any, timeout: float = 30.0) -> str:
    """Wait until it is this page's turn or the game is over: 'turn' or 'over'."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dismiss_round_dialogs(page)
        body = page.locator("body")
        if body.get_attribute("data-finished") == "true":
            return "over"
        if body.get_attribute("data-your-turn") == "true" and not page.locator(
                "dialog.round-dialog").count():
            return "turn"
        page.wait_for_timeout(40)
    raise AssertionError("waited too long for a turn")


PLACE = re.compile(r"^(\d+-\d+-\d+)@(-?\d+),(-?\d+)(?:/(\d))?$")


def placement(notation: str) -> dict[str, Any] | None:
    """The parts of a placement's notation ``TILE@X,Y/R`` (the tile games all write it so)."""
    m = PLACE.match(notation)
    if m is None:
        return None
    return {"tile": m[1], "cell": [int(m[2]), int(m[3])], "rotation": int(m[4] or 0)}


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The legal action to play: the placement of the highest tile, else draw or pass."""
    legal = view["legal_actions"]
    places = [dict(a, place=placement(a["notation"])) for a in legal]
    places = [a for a in places if a["place"] is not None]
    if places:
        best: dict[str, Any] = max(places, key=lambda a: sum(
            int(n) for n in a["place"]["tile"].split("-")))
        return best
    return legal[0]


def orientation(cell: list[int], rotation: int, triple: bool) -> set[int]:
    up = (cell[0] + cell[1]) % 2 == 0
    return {i for i, (u, r) in enumerate(ORIENTATIONS) if u == up and (triple or r == rotation)}


def select_tile(page: Any, tile: str) -> None:
    button = page.locator(f".hand button[data-tile='{tile}']")
    if button.get_attribute("aria-pressed") != "true":
        button.click()
    assert button.get_attribute("aria-pressed") == "true"


def turn_to(page: Any, tile: str, wanted: set[int], key: str = "x") -> None:
    """Turn the selected tile with the rotation key until its orientation is one wanted."""
    button = page.locator(f".hand button[data-tile='{tile}']")
    for _ in range(6):
        if int(button.get_attribute("data-orientation") or 0) in wanted:
            return
        page.keyboard.press(key)
    raise AssertionError(f"{tile} never reached orientation {wanted}")


def slot_centre(page: Any, cell: list[int]) -> tuple[float, float]:
    slot = page.locator(f"[data-slot='{cell[0]},{cell[1]}']")
    slot.wait_for(state="attached")
    box = slot.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def play_move(page: Any, mid: str, seat: int, how: str = "drag", rotate_key: str = "x"
              ) -> dict[str, Any]:
    """Play one legal move of the seat through the UI; returns the action played."""
    view = server_view(page, mid, token_of(page, mid, seat))
    action = choose(view)
    before = int(page.locator("body").get_attribute("data-move") or 0)
    if action.get("place"):
        f = action["place"]
        tile, cell = f["tile"], f["cell"]
        values = tile.split("-")
        select_tile(page, tile)
        turn_to(page, tile, orientation(cell, f["rotation"], len(set(values)) == 1), rotate_key)
        page.keyboard.press("0")  # fit the board: every place is on screen
        if how == "keys":
            for _ in range(60):
                page.keyboard.press("]")
                focused = page.evaluate("() => document.activeElement?.dataset?.slot || ''")
                if focused == f"{cell[0]},{cell[1]}":
                    break
            else:
                raise AssertionError(f"no slot {cell} reachable with ]")
            page.keyboard.press("Enter")
        else:
            x, y = slot_centre(page, cell)
            if how == "click":
                page.mouse.click(x, y)
            else:
                box = page.locator(f".hand button[data-tile='{tile}']").bounding_box()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.mouse.down()
                page.mouse.move(x, y - 40, steps=6)
                page.mouse.move(x, y, steps=4)
                page.mouse.up()
    elif action["kind"] == "draw":
        page.click("button[data-action='draw']")
    else:
        page.click("button[data-action='pass']")
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}"
                           " || document.body.dataset.finished === 'true'")
    return action


def hand_tiles(page: Any) -> list[str]:
    tiles: list[str] = page.locator(".hand button[data-tile]").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    return tiles


def tiles_in(text: str) -> set[str]:
    """Every tile written in ``text``, canonicalised by rotation (3-5-1 is 1-3-5)."""
    out = set()
    for t in TILE.findall(text):
        a, b, c = (int(x) for x in t.split("-"))
        out.add(min((a, b, c), (b, c, a), (c, a, b)))
    return {"-".join(str(n) for n in v) for v in out}


def canon(tile: str) -> str:
    return next(iter(tiles_in(tile)))


def views_in(text: str) -> list[dict[str, Any]]:
    """The views a websocket frame or a REST answer carries (a ``changes`` frame counts as
    the part of its move's view that it carries)."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    if isinstance(data.get("view"), dict):
        return [data["view"]]
    if data.get("type") == "changes" and isinstance(data.get("changes"), dict):
        return [{**data["changes"], "move": data["move"], "log": data["log"]}]
    if "observation" in data and "move" in data:
        return [data]
    return []
