"""The lobby, the rules pages, the controls of the table (refused drops, rotation keys and the
Preferences dialog, panning and zooming, pause, Escape), and the page weight and time to
interactive written into test-artifacts/metrics.json for docs/web.md."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from web_helpers import (
    ORIENTATIONS,
    match_id,
    play_move,
    server_view,
    start_game,
    token_of,
    wait_turn,
)
from web_support import ARTIFACTS, DESKTOP, PHONE, LiveServer, screenshot

from triverse.core.plugins import plugins
from triverse.games import available_games, game_class

GAMES_WITH_A_UI = tuple(name for name, declared in plugins().items() if declared.view)
"""The games whose plugin names a browser module (``view`` in GET /api/games)."""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_lobby_lists_the_five_games(viewport: dict[str, int], server: LiveServer,
                                    new_page: Any) -> None:
    page = new_page(viewport)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    cards = page.locator("li.game-card")
    assert cards.count() == len(available_games()) == 5
    for name in available_games():
        card = page.locator(f"li.game-card[data-game='{name}']")
        has_ui = name in GAMES_WITH_A_UI
        assert card.locator(f"[data-new-game='{name}']").count() == (1 if has_ui else 0)
        assert ("coming soon" in card.inner_text().lower()) == (not has_ui)
        assert game_class(name).summary[:20] in card.inner_text()
        rules = card.locator("a", has_text="Rules").get_attribute("href")
        assert rules and page.request.get(server.base + rules).status == 200
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    screenshot(page, f"lobby-{viewport['width']}x{viewport['height']}")
    page.click("[data-new-game='triominoes']")
    page.wait_for_selector("dialog.new-game-dialog")
    dialog = page.locator("dialog.new-game-dialog")
    # The options come from the API's option specs; the levels only from the API's list.
    levels = page.evaluate("async () => (await (await fetch('/api/games')).json()).levels")
    kinds = dialog.locator("select[name='kind-1'] option").evaluate_all(
        "els => els.map(e => e.value)")
    assert kinds == levels
    dialog.locator("input[name='mode'][value='hotseat']").check()
    kinds = dialog.locator("select[name='kind-1'] option").evaluate_all(
        "els => els.map(e => e.value)")
    assert kinds == ["human"]
    dialog.locator("#ng-players").select_option("3")
    kinds = dialog.locator("select[name='kind-2'] option").evaluate_all(
        "els => els.map(e => e.value)")
    assert kinds == ["human", *levels]
    assert dialog.locator("#opt-variant option").count() == 2
    screenshot(page, f"new-game-{viewport['width']}x{viewport['height']}")


EXTRA_GAME = {
    "available": True, "min_players": 2, "max_players": 4, "default_players": 2,
    "options": [], "variants": {}, "think_default": 0.5, "rules": None,
}
"""The details of a game the tests add to GET /api/games (not one the server knows)."""

OWN_VIEW = """
export const ui = { trayLabel: "Your ladder" };
export const art = '<circle cx="30" cy="26" r="18" class="art-a" data-own-art=""/>';
export function createView() {
  return { render() {}, onKey: () => false, keyRows: () => [], destroy() {} };
}
"""
"""A game's browser module as small as the interface allows (docs/web.md)."""


def test_lobby_builds_its_cards_from_the_api(server: LiveServer, new_page: Any) -> None:
    """The lobby knows the games only from GET /api/games and the modules it names: three
    games added to the answer get their cards: one without a view (played in the terminal or
    through the API), one whose view module does not load, one with a module of its own (its
    art, New game); the five keep their New game."""
    page = new_page()
    added = [
        {**EXTRA_GAME, "name": "climb", "title": "Climb", "summary": "Climb to the top.",
         "view": None},
        {**EXTRA_GAME, "name": "broken", "title": "Broken", "summary": "A module that is not.",
         "view": "/test-games/broken.js"},
        {**EXTRA_GAME, "name": "ladder", "title": "Ladder", "summary": "Up the ladder.",
         "view": "/test-games/ladder.js", "rules": "/rules/"},
    ]

    def games(route: Any) -> None:
        response = route.fetch()
        answer = response.json()
        answer["games"] += added
        route.fulfill(response=response, json=answer)

    page.route("**/api/games", games)
    page.route("**/test-games/ladder.js", lambda route: route.fulfill(
        status=200, content_type="text/javascript", body=OWN_VIEW))
    page.route("**/test-games/broken.js", lambda route: route.fulfill(status=404, body=""))
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    order = page.locator("li.game-card").evaluate_all("els => els.map(e => e.dataset.game)")
    assert order == [*available_games(), "ladder", "climb", "broken"]
    for name in [*available_games(), "ladder"]:
        card = page.locator(f"li.game-card[data-game='{name}']")
        assert card.get_attribute("data-playable") == "true"
        assert card.locator(f"[data-new-game='{name}']").count() == 1
        assert card.locator(".badge").count() == 0
        assert card.locator(".game-card-art svg *").count() >= 1
    ladder = page.locator("li.game-card[data-game='ladder']")
    assert ladder.locator(".game-card-art [data-own-art]").count() == 1
    assert ladder.locator("a", has_text="Rules").get_attribute("href") == "/rules/"
    for name in ("climb", "broken"):
        card = page.locator(f"li.game-card[data-game='{name}']")
        text = card.inner_text()
        assert card.get_attribute("data-playable") == "false"
        assert card.locator("[data-new-game]").count() == 0
        assert card.locator(".badge").inner_text().lower() == "not in the browser"
        assert "play it in the terminal or through the API" in text
        assert "coming soon" not in text.lower()
        assert card.locator("a", has_text="Rules").count() == 0
    assert "has no table in the browser" in page.locator(
        "li.game-card[data-game='climb']").inner_text()
    assert "did not load" in page.locator("li.game-card[data-game='broken']").inner_text()
    page.click("[data-new-game='ladder']")
    dialog = page.locator("dialog.new-game-dialog")
    dialog.wait_for()
    assert "New game of Ladder" in dialog.inner_text()


def test_rules_pages_draw_their_diagrams(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    for name in ("triominoes", "trinity", "triangles", "trivinity", "trident"):
        answer = page.goto(f"{server.base}/rules/{name}.html")
        assert answer is not None and answer.status == 200
        for fig in page.locator("figure.diagram").all():
            fig.locator("svg").wait_for()
            assert fig.locator("svg .tile").count() >= 6
            assert "unavailable" not in fig.inner_text()
    page.goto(f"{server.base}/rules/trinity.html")
    page.locator("#slide").scroll_into_view_if_needed()
    screenshot(page, "rules-trinity-1280x800")
    assert page.goto(f"{server.base}/rules/").status == 200


def test_a_refused_drop_shows_the_engines_reason(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    errors: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda p: errors.append(str(p)) if '"type":"error"' in str(p) else None))
    mid = start_game(page, server.base, "triominoes", "computer", ["human", "average"], seed=9)
    assert wait_turn(page) == "turn"
    if page.locator(".board .layer-tiles .tile").count() == 0:
        play_move(page, mid, 0, "click")  # the opening tile: then the board has a tile
        assert wait_turn(page) == "turn"
    view = server_view(page, mid, token_of(page, mid, 0))
    # The table shows the match's shuffle commitment: the API view's, copyable.
    assert len(view["commitment"]) == 64
    assert page.locator("[data-commitment]").text_content() == view["commitment"]
    assert page.locator("button[data-action='copy-commitment']").count() == 1
    tile = view["observation"]["hand"][0]
    page.locator(f".hand button[data-tile='{tile}']").click()
    page.keyboard.press("0")
    # Drop it far from every tile: the nearest cell pointing its way shares no edge.
    board = page.locator(".board").bounding_box()
    hand = page.locator(f".hand button[data-tile='{tile}']").bounding_box()
    page.mouse.move(hand["x"] + 20, hand["y"] + 20)
    page.mouse.down()
    page.mouse.move(board["x"] + 40, board["y"] + 60, steps=8)
    assert page.locator(".preview.bad").count() == 1
    page.mouse.up()
    refusal = page.locator("[data-refusal]")
    page.wait_for_function("() => document.querySelector('[data-refusal]').textContent.length > 0")
    text = refusal.inner_text()
    assert text.startswith("Refused:")
    assert errors, "the intent was not sent to the server"
    error = json.loads(errors[-1])
    assert "no shared edge with a tile on the board" in error["message"]
    # The notice says it in the words of the refusal's message code.
    assert error["reason"]["code"] == "refused.no_shared_edge"
    assert text == "Refused: a tile must share an edge with a tile on the board"
    assert int(page.locator("body").get_attribute("data-move") or 0) == view["move"]
    screenshot(page, "refused-1280x800")


def test_keyboard_preferences_pan_zoom_pause_and_escape(server: LiveServer,
                                                        new_page: Any) -> None:
    page = new_page()
    mid = start_game(page, server.base, "triominoes", "computer", ["human", "novice"], seed=13)
    wait_turn(page)
    # Preferences: arrows, Escape and Caps Lock are refused as rotation keys; R is accepted.
    page.click("#prefs-button")
    dialog = page.locator("dialog.prefs-dialog")
    button = dialog.locator("button[data-pref='rotateRight']")
    for key, word in (("ArrowLeft", "arrow"), ("Escape", "Escape"), ("CapsLock", "Caps Lock")):
        button.click()
        page.keyboard.press(key)
        assert word in dialog.locator(".pref-message").inner_text()
        assert dialog.is_visible()
    button.click()
    page.keyboard.press("r")
    assert button.inner_text() == "R"
    dialog.locator("button[data-value='save']").click()
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('triverse.prefs'))")
    assert stored["rotateRight"] == "r"
    # Every control by keyboard: Tab to a tile, Space selects it, R turns it.
    first = page.locator(".hand button[data-tile]").first
    first.focus()
    page.keyboard.press("Space")
    assert first.get_attribute("aria-pressed") == "true"
    orientations = [first.get_attribute("data-orientation")]
    for _ in range(6):
        page.keyboard.press("r")
        orientations.append(first.get_attribute("data-orientation"))
    assert orientations == ["0", "1", "2", "3", "4", "5", "0"]
    assert len(ORIENTATIONS) == 6
    page.click("button[data-action='rotate-left']")
    assert first.get_attribute("data-orientation") == "5"
    # Pan with the arrow keys, zoom with + and -.
    world = page.locator(".board .world")
    start = world.get_attribute("transform")
    page.keyboard.press("ArrowLeft")
    panned = world.get_attribute("transform")
    assert panned != start
    page.keyboard.press("+")
    zoomed = world.get_attribute("transform")
    scale = lambda t: float(re.search(r"scale\(([\d.]+)\)", t).group(1))  # noqa: E731
    assert scale(zoomed) > scale(panned)
    page.mouse.move(400, 400)
    page.mouse.wheel(0, 300)
    assert scale(world.get_attribute("transform")) < scale(zoomed)
    # Pause with P: the computer waits, and the board still pans.
    play_move(page, mid, 0, "keys", rotate_key="r")
    page.keyboard.press("p")
    page.wait_for_selector("body[data-paused='true']")
    page.wait_for_selector(".paused-banner:not([hidden])")
    paused_at = page.locator("body").get_attribute("data-move")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(400)
    assert page.locator("body").get_attribute("data-move") == paused_at or (
        page.locator("body").get_attribute("data-your-turn") == "true")
    screenshot(page, "paused-1280x800")
    page.keyboard.press("p")
    page.wait_for_selector("body[data-paused='false']")
    # Escape asks whether to end, and offers to save.
    page.keyboard.press("Escape")
    end = page.locator("dialog", has_text="End this game?")
    end.wait_for()
    assert end.locator("button[data-value='save']").is_enabled()
    end.locator("button[data-value='null']").click()
    assert match_id(page) == mid


def test_page_weight_and_time_to_interactive(server: LiveServer, new_page: Any,
                                             browser: Any) -> None:
    """Measures what docs/web.md reports: bytes of every asset, and navigation start to the
    first board render (the Performance API's mark 'triverse:board-rendered'), also for a
    French browser, which loads its catalogue first."""
    page = new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    lobby = resource_bytes(page)
    lobby_paths = resource_paths(page)
    mid = start_game(page, server.base, "triominoes", "computer", ["human", "average"], seed=17)
    link = page.url
    page2 = new_page()
    page2.goto(server.base + "/")  # a fresh context: seats from the first page's link
    page2.goto(link)
    page2.wait_for_selector("body[data-board-ready='true']")
    board = resource_bytes(page2)
    tti = page2.evaluate(
        "() => performance.getEntriesByName('triverse:board-rendered')[0].startTime")
    page2.reload()
    page2.wait_for_selector("body[data-board-ready='true']")
    tti_reload = page2.evaluate(
        "() => performance.getEntriesByName('triverse:board-rendered')[0].startTime")
    french = new_page(context=browser.new_context(locale="fr-FR"))
    french.goto(server.base + "/")
    french.goto(link.replace("/play/", "/watch/").split("?")[0])
    french.wait_for_selector("body[data-board-ready='true']")
    assert french.locator("html").get_attribute("lang") == "fr"
    tti_fr = french.evaluate(
        "() => performance.getEntriesByName('triverse:board-rendered')[0].startTime")
    metrics = {"lobby_bytes": lobby, "board_bytes": board, "board_ms": round(tti, 1),
               "board_reload_ms": round(tti_reload, 1), "board_ms_fr": round(tti_fr, 1),
               "board_bytes_fr": resource_bytes(french),
               "match": mid}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "metrics.json").write_text(json.dumps(metrics, indent=1))
    # Issue 21's goal (docs/performance.md): a first load of at most 300 kB.
    assert board["assets"] < 300_000 and tti < 5_000
    # The lobby loads every game's module (its entry and art), and the tile games' view, the
    # bulk of their code, only at their tables.
    views = {declared.view for declared in plugins().values() if declared.view}
    assert views <= lobby_paths and lobby["assets"] < 120_000
    view = "/js/games/tiles-view.js"
    assert view not in lobby_paths and view in resource_paths(page2)


def resource_paths(page: Any) -> set[str]:
    """The paths of the files a page has loaded (the Performance API's resources)."""
    names = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    return {urlsplit(name).path for name in names}


def resource_bytes(page: Any) -> dict[str, int]:
    """Bytes of the page's own assets (HTML, CSS, JS, images), decoded, and of API answers (the
    translation catalogue among them); ``wire``: everything as it came over the network."""
    entries = page.evaluate("""() => [
        ...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')
      ].map(e => ({name: e.name, size: e.decodedBodySize, wire: e.encodedBodySize}))""")
    assets = sum(e["size"] for e in entries if "/api/" not in e["name"])
    api = sum(e["size"] for e in entries if "/api/" in e["name"])
    return {"assets": assets, "api": api,
            "files": sum(1 for e in entries if "/api/" not in e["name"]),
            "catalogue": sum(e["size"] for e in entries if "/api/i18n/" in e["name"]),
            "wire": sum(e["wire"] for e in entries)}
