"""Browser tests of Trident (issues 5 and 21): a whole game against the computer played through
the UI (keyboard placement, dragging, the notation box, exchange and pass buttons) to the final
standings; a refused line of three not totalling 15 with the engine's reason; the joker's
dialog; the score preview; the rules page's diagrams; the heading's bag count and turn; the
premium labels' contrast; the tiles' faces; screenshots at 1280x800 and 390x844."""

from __future__ import annotations

import time
from typing import Any

from web_support import PHONE, LiveServer, screenshot
from web_trident_helpers import (
    PREMIUM_LABELS_JS,
    choose,
    contrast,
    pick_joker,
    place_by_drag,
    place_by_keys,
    play_through_ui,
    start_trident,
    state_of,
)

from triverse.core.messages import Reason, render


def wait_my_turn_or_end(page: Any) -> bool:
    """Wait until it is this page's turn (True) or the game is over (False)."""
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'"
                           " || document.body.dataset.finished === 'true'", timeout=30_000)
    finished: str | None = page.locator("body").get_attribute("data-finished")
    return finished != "true"


def test_trident_game_against_the_computer_to_the_end(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    started = time.monotonic()
    mid = start_trident(page, server.base, seed=7, shot="new-game-trident-1280x800")
    # The board: 225 squares, the premium squares coloured, the centre star; the own rack.
    assert page.locator(".td-sq").count() == 225
    assert page.locator(".td-sq.td-double").count() == 9
    assert page.locator(".td-sq.td-triple").count() == 8
    assert page.locator(".td-sq.td-bis").count() == 8
    assert page.locator(".td-sq.td-star[data-sq='7:7']").count() == 1
    assert " tiles in the bag" in page.locator(".match-heading .round").inner_text()
    moves = 0
    hows = ["keys", "drag"]
    while wait_my_turn_or_end(page):
        state = state_of(server, mid)
        action = choose(state)
        how = hows[moves] if moves < len(hows) else "type"
        before = int(page.locator("body").get_attribute("data-move") or 0)
        play_through_ui(page, action, how)
        if moves == 0:
            screenshot(page, "trident-board-1280x800")
        page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}"
                               " || document.body.dataset.finished === 'true'")
        moves += 1
        assert moves < 80, "the game should end"
    final = page.locator("dialog.final-dialog")
    final.wait_for()
    text = final.inner_text()
    assert "1st" in text and "2nd" in text
    state = state_of(server, mid)
    assert state.is_terminal()
    screenshot(page, "trident-final-1280x800")
    # The feed lists the plays with their scores.
    feed = page.locator(".match").inner_text()
    assert " played " in feed and (": pair " in feed or ": trio " in feed)
    assert time.monotonic() - started < 90


def test_trident_refused_line_joker_and_preview(server: LiveServer, new_page: Any) -> None:
    # Seed 93: the human moves first with the rack 5, 6 and a joker.
    page = new_page()
    mid = start_trident(page, server.base, seed=93)
    assert wait_my_turn_or_end(page)
    state = state_of(server, mid)
    expected = state.illegal_reason(state.game.parse_action("7:7=5,7:8=6,7:9=*0"))
    assert expected and "5 + 6 + 0 = 11" in expected
    tiles = page.eval_on_selector_all(".td-rack-tile", "els => els.map(e => e.dataset.tile)")
    assert tiles == ["5", "6", "*"], tiles
    place_by_keys(page, 0, 7, 7)
    place_by_drag(page, 1, 7, 8)
    # The joker: its dialog offers 0 to 15.
    place_by_drag(page, 2, 7, 9, wait=False)
    dialog = page.locator("dialog.td-joker-dialog")
    dialog.wait_for()
    assert dialog.locator("button[data-joker-value]").count() == 16
    screenshot(page, "trident-joker-1280x800")
    pick_joker(page, 0)
    page.wait_for_selector(".td-sq[data-sq='7:9'].td-tentative.td-joker")
    assert page.locator("body").get_attribute("data-tentative") == "7:7=5,7:8=6,7:9=*0"
    # The server's preview says why, before Submit.
    page.wait_for_selector(".td-preview.illegal")
    assert "total exactly 15" in page.locator(".td-preview").inner_text()
    page.click("button[data-action='submit']")
    page.wait_for_function("() => document.body.innerText.includes('Refused')")
    body = page.locator(".tray").inner_text()
    # The notice is written from the refusal's message code.
    assert isinstance(expected, Reason)
    assert f"Refused: {render(expected.code, expected.params, state.game.messages)}" in body, body
    assert "Refused: three tiles side by side total exactly 15, not 5 + 6 + 0 = 11" in body
    screenshot(page, "trident-refused-1280x800")
    assert page.locator("body").get_attribute("data-move") == "0"
    # Take the joker back with Backspace, put it back as 4: the preview shows the Trio.
    page.locator(".td-sq[data-sq='7:9']").focus()
    page.keyboard.press("Backspace")
    page.wait_for_selector(".td-sq[data-sq='7:9']:not(.td-tentative)")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    pick_joker(page, 4)
    page.wait_for_selector("body[data-preview='60']")
    preview = page.locator(".td-preview").inner_text()
    assert "This play scores" in preview and "Trio" in preview, preview
    screenshot(page, "trident-preview-1280x800")
    page.click("button[data-action='submit']")
    page.wait_for_function("() => Number(document.body.dataset.move) >= 1")
    assert page.locator(".td-sq[data-sq='7:9'].td-tile.td-joker").count() == 1


def test_trident_on_a_phone(server: LiveServer, new_page: Any) -> None:
    page = new_page(viewport=PHONE)
    mid = start_trident(page, server.base, seed=93, time_limit=300)
    assert wait_my_turn_or_end(page)
    # A timed game: the view's deadline counts down next to the rack.
    clock = page.locator(".td-clock")
    clock.wait_for()
    assert "left" in clock.inner_text()
    assert 250 <= int(clock.get_attribute("data-seconds") or 0) <= 300
    # The heading: the bag count and whose turn, within the screen.
    heading = page.locator(".match-heading .round")
    assert heading.inner_text() == f"{len(state_of(server, mid).bag)} tiles in the bag · Your turn"
    box = heading.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    for sq in ("0:0", "14:14"):
        box = page.locator(f".td-sq[data-sq='{sq}']").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.click(".td-rack-tile[data-rack='0']")
    page.click(".td-sq[data-sq='7:7']")
    page.wait_for_selector(".td-sq[data-sq='7:7'].td-tentative")
    page.wait_for_selector("body[data-preview='10']")  # 5 on the star, a double
    clock.wait_for()
    screenshot(page, "trident-board-390x844")
    # Exchange two tiles instead: Exchange…, pick them on the rack, Exchange 2.
    page.click("button[data-action='clear']")
    page.wait_for_selector(".td-sq[data-sq='7:7']:not(.td-tentative)")
    assert page.locator("button[data-action='pass']").is_visible()
    page.click("button[data-action='exchange']")
    page.click(".td-rack-tile[data-rack='0']")
    page.click(".td-rack-tile[data-rack='1']")
    assert page.locator("button[data-action='exchange']").inner_text() == "Exchange 2"
    page.click("button[data-action='exchange']")
    page.wait_for_function("() => Number(document.body.dataset.move) >= 1")
    service = server.app.state.service

    async def first_action() -> str:
        live = await service.live(mid, fresh=True)
        return str(live.log[0].action)

    assert server.call(first_action) == "exchange 5,6"


def test_trident_rules_page_diagrams(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    answer = page.goto(f"{server.base}/rules/trident.html")
    assert answer is not None and answer.status == 200
    figs = page.locator("figure.td-diagram")
    assert figs.count() == 3
    texts = [figs.nth(i).inner_text() for i in range(3)]
    assert "= 6" in texts[0] and "= 24" in texts[1] and "= 30" in texts[2]
    figs.nth(0).scroll_into_view_if_needed()
    screenshot(page, "rules-trident-1280x800")


def heading_of(page: Any) -> str:
    return str(page.locator(".match-heading .round").inner_text())


def seat_names(server: LiveServer, mid: str) -> list[str]:
    """The players' names as the server holds them."""

    async def names() -> list[str]:
        live = await server.app.state.service.live(mid, fresh=True)
        return [s.name for s in live.seats]

    return list(server.call(names))


def expected_heading(server: LiveServer, mid: str, me: int) -> str:
    """The heading's words from the server's position: the bag, then whose turn it is."""
    state = state_of(server, mid)
    to_move = state.current_player
    turn = ("Game over" if state.is_terminal() else "Your turn" if to_move == me
            else f"{seat_names(server, mid)[to_move or 0]} to play")
    return f"{len(state.bag)} tiles in the bag · {turn}"


def test_trident_heading_shows_the_bag_and_whose_turn(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_trident(page, server.base, seed=93)   # the human (seat 0) moves first
    assert wait_my_turn_or_end(page)
    state = state_of(server, mid)
    bag = len(state.bag)
    assert bag > 1
    assert heading_of(page) == f"{bag} tiles in the bag · Your turn"
    assert page.locator("body").get_attribute("data-bag") == str(bag)
    # Pause the computer, play: the heading names the computer to play, with the new bag count.
    page.click("button[data-action='pause']")
    page.wait_for_selector("button[data-action='pause'][aria-pressed='true']")
    action = choose(state)
    play_through_ui(page, action, "type")
    page.wait_for_function("() => Number(document.body.dataset.move) >= 1")
    expected = expected_heading(server, mid, 0)
    assert len(state_of(server, mid).bag) == bag - len(action.tiles)
    assert state_of(server, mid).current_player == 1     # no BIS square in this play
    assert expected.endswith(f"· {seat_names(server, mid)[1]} to play"), expected
    page.wait_for_function("t => document.querySelector('.match-heading .round').textContent === t",
                           arg=expected)
    screenshot(page, "trident-heading-1280x800")
    # The plural follows the count (i18n's tn): one tile, several tiles.
    words = page.evaluate("() => import('/js/games/trident.js')"
                          ".then(m => [m.bagText(1), m.bagText(2), m.bagText(1234)])")
    assert words == ["1 tile in the bag", "2 tiles in the bag", "1,234 tiles in the bag"]


def test_trident_premium_labels_meet_wcag_aa(server: LiveServer, new_page: Any) -> None:
    for viewport, label in ((None, "1280x800"), (PHONE, "390x844")):
        page = new_page(viewport=viewport) if viewport else new_page()
        start_trident(page, server.base, seed=93)
        assert wait_my_turn_or_end(page)
        labels = page.evaluate(PREMIUM_LABELS_JS)
        kinds = {"td-double": 0, "td-triple": 0, "td-bis": 0, "td-star": 0}
        for item in labels:
            for kind in kinds:
                if kind in item["cls"].split():
                    kinds[kind] += 1
            # A solid square under the label (no gradient that the ratio would not see).
            assert item["image"] == "none", item
            ratio = contrast(item["color"], item["background"])
            # WCAG AA: 4.5:1 for text of normal size (these labels are small, bold text).
            assert ratio >= 4.5, (item, ratio)
            assert item["size"] >= 8.5 and item["weight"] >= 700, item
        assert kinds == {"td-double": 9, "td-triple": 8, "td-bis": 8, "td-star": 1}, kinds
        texts = {item["text"] for item in labels}
        assert texts == {"×2", "×3", "BIS", "★"}, texts
        # Hovered, a premium square keeps its colour and its label's contrast.
        if viewport is None:
            for sq in ("1:1", "1:4", "3:7", "7:7"):
                page.hover(f".td-sq[data-sq='{sq}']")
                item = next(i for i in page.evaluate(PREMIUM_LABELS_JS) if i["sq"] == sq)
                assert contrast(item["color"], item["background"]) >= 4.5, item
        screenshot(page, f"trident-premium-{label}")
        page.close()


def test_trident_tiles_have_the_sets_faces(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    start_trident(page, server.base, seed=93)
    assert wait_my_turn_or_end(page)
    place_by_keys(page, 0, 7, 7)
    face_js = """sel => { const f = document.querySelector(sel); const s = getComputedStyle(f);
      const n = getComputedStyle(f.querySelector('.td-num'));
      return { image: s.backgroundImage, shadow: s.boxShadow,
               radius: parseFloat(s.borderTopLeftRadius),
               weight: Number(n.fontWeight), text: f.textContent, size: parseFloat(n.fontSize),
               cell: f.closest('.td-sq, .td-rack-tile').getBoundingClientRect().height }; }"""
    for sel in (".td-rack-tile[data-rack='1'] .td-face", ".td-sq[data-sq='7:7'] .td-face"):
        face = page.evaluate(face_js, sel)
        assert "gradient" in face["image"], face          # the ivory's sheen
        assert face["shadow"].count("inset") >= 2, face   # the bevel
        assert "rgba(0, 0, 0" in face["shadow"], face     # the drop shadow
        assert face["radius"] > 0 and face["weight"] >= 700, face
        assert face["size"] >= 0.4 * face["cell"], face   # a bold number filling the tile
    assert page.evaluate(face_js, ".td-sq[data-sq='7:7'] .td-face")["text"] == "5"
    frame = page.evaluate("() => getComputedStyle(document.querySelector('.td-frame'))"
                          ".backgroundImage")
    assert "gradient" in frame
    page.click("button[data-action='submit']")
    page.wait_for_selector(".td-sq[data-sq='7:7'].td-tile .td-face")
    screenshot(page, "trident-tiles-1280x800")
