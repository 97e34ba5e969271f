"""Each of the five games played from the lobby to the end screen with the keyboard alone:
Tab and Enter through the lobby and the New Game dialog (short options, a novice opponent),
then each table's own keys (docs/web.md, "Keyboard controls"). The test reads the position
from the server to choose its moves; every move is made with keys. The end screen is checked
by axe-core too."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from test_web_a11y import violations
from triangles_helpers import choose_line, type_star
from triangles_helpers import state_of as triangles_state
from web_helpers import choose, match_id, orientation, server_view, token_of
from web_support import DESKTOP, PHONE, LiveServer, screenshot
from web_trident_helpers import choose as trident_choose
from web_trident_helpers import rack_slot
from web_trident_helpers import state_of as trident_state

from triverse.games.trident.tiles import Exchange, Pass


def focused_matches(page: Any, selector: str) -> bool:
    return bool(page.evaluate("(s) => !!document.activeElement?.matches(s)", selector))


def tab_to(page: Any, selector: str, limit: int = 400) -> None:
    """Press Tab until the focus is on an element matching ``selector``."""
    for _ in range(limit):
        if focused_matches(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def press_until(page: Any, key: str, done: str, limit: int = 10) -> None:
    """Press ``key`` until the JavaScript expression ``done`` holds."""
    for _ in range(limit):
        if page.evaluate(f"() => {done}"):
            return
        page.keyboard.press(key)
    assert page.evaluate(f"() => {done}"), f"{key} never made {done}"


def type_into(page: Any, selector: str, text: str) -> None:
    tab_to(page, selector)
    page.keyboard.press("Control+a")
    page.keyboard.type(text)


def setup_triominoes(page: Any) -> None:
    type_into(page, "#opt-target", "60")


def setup_trinity(page: Any) -> None:
    # Every option about rounds at its minimum (as web_helpers.short_options does by mouse).
    fields = page.locator("dialog select[id^='opt-'], dialog input[id^='opt-']").evaluate_all(
        "els => els.map(e => [e.id, e.tagName, e.getAttribute('min') || ''])")
    for ident, tag, minimum in fields:
        if "round" not in ident or ident == "opt-max_rounds":
            continue
        if tag == "SELECT":
            tab_to(page, f"#{ident}")
            press_until(page, "ArrowUp", f"document.getElementById('{ident}').selectedIndex === 0")
        elif minimum:
            type_into(page, f"#{ident}", minimum)


def setup_trivinity(page: Any) -> None:
    tab_to(page, "dialog summary")
    page.keyboard.press("Enter")
    type_into(page, "#opt-turn_limit", "6")


SETUPS: dict[str, Callable[[Any], None]] = {
    "triominoes": setup_triominoes, "trinity": setup_trinity, "trivinity": setup_trivinity,
}


def start_by_keyboard(page: Any, base: str, game: str, seed: int) -> str:
    """From the lobby to the table with Tab, Enter and the arrows; returns the match id."""
    page.goto(f"{base}/?seed={seed}")
    page.wait_for_selector("body[data-ready='true']")
    tab_to(page, f"[data-new-game='{game}']")
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.new-game-dialog")
    assert page.evaluate("() => !!document.activeElement.closest('dialog.new-game-dialog')")
    assert page.locator("dialog input[name='mode']:checked").get_attribute("value") == "computer"
    tab_to(page, "select[name='kind-1']")
    press_until(page, "ArrowUp",
                "document.querySelector(\"select[name='kind-1']\").value === 'novice'")
    SETUPS.get(game, lambda p: None)(page)
    tab_to(page, "dialog button[data-value='start']")
    page.keyboard.press("Enter")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-board-ready='true']")
    return match_id(page)


def wait_turn_keys(page: Any, timeout: float = 60.0) -> str:
    """Wait for this page's turn ('turn') or the end ('over'); Enter closes a round's screen
    (its button holds the focus)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = page.locator("body")
        if body.get_attribute("data-finished") == "true":
            return "over"
        rounds = page.locator("dialog.round-dialog")
        if rounds.count() and rounds.first.is_visible():
            assert page.evaluate("() => !!document.activeElement.closest('dialog.round-dialog')")
            page.keyboard.press("Enter")
            page.wait_for_timeout(100)
            continue
        if body.get_attribute("data-your-turn") == "true":
            return "turn"
        page.wait_for_timeout(40)
    raise AssertionError("waited too long for a turn")


def move_of(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-move") or 0)


def wait_moved(page: Any, before: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}"
                           " || document.body.dataset.finished === 'true'"
                           " || !!document.querySelector('[data-refusal]')?.textContent")
    refusal = page.locator("[data-refusal]")
    assert not (refusal.count() and refusal.first.inner_text()), refusal.first.inner_text()


def tiles_move(page: Any, server: LiveServer, mid: str) -> None:
    view = server_view(page, mid, token_of(page, mid, 0))
    action = choose(view)
    before = move_of(page)
    if action.get("place"):
        f = action["place"]
        tile, cell = f["tile"], f["cell"]
        button = f".hand button[data-tile='{tile}']"
        tab_to(page, button)
        if page.locator(button).get_attribute("aria-pressed") != "true":
            page.keyboard.press("Enter")
        assert page.locator(button).get_attribute("aria-pressed") == "true"
        wanted = orientation(cell, f["rotation"], len(set(tile.split("-"))) == 1)
        press_until(page, "x", f"{sorted(wanted)}.includes(Number(document.querySelector("
                    f"\"{button}\").dataset.orientation || 0))", 7)
        page.keyboard.press("0")
        press_until(page, "]", f"document.activeElement?.dataset?.slot === '{cell[0]},{cell[1]}'",
                    80)
        page.keyboard.press("Enter")
    elif action["kind"] == "draw":
        page.keyboard.press("d")
    else:
        tab_to(page, "button[data-action='pass']")
        page.keyboard.press("Enter")
    wait_moved(page, before)


def triangles_move(page: Any, server: LiveServer, mid: str) -> None:
    line = choose_line(triangles_state(server, mid))
    before = move_of(page)
    type_star(page, line.a)
    type_star(page, line.b)
    wait_moved(page, before)


def trident_move(page: Any, server: LiveServer, mid: str) -> None:
    action = trident_choose(trident_state(server, mid))
    before = move_of(page)
    if isinstance(action, Pass):
        tab_to(page, "button[data-action='pass']")
        page.keyboard.press("Enter")
    elif isinstance(action, Exchange):
        tab_to(page, "button[data-action='exchange']")
        page.keyboard.press("Enter")
        used: set[int] = set()
        for t in str(action).removeprefix("exchange ").split(","):
            tab_to(page, f".td-rack-tile[data-rack='{rack_slot(page, t.strip(), used)}']")
            page.keyboard.press("Enter")
        tab_to(page, "button[data-action='exchange']")
        page.keyboard.press("Enter")
    else:
        used = set()
        tab_to(page, ".td-sq[tabindex='0']")
        for p in action.tiles:
            slot = rack_slot(page, "*" if p.joker else str(p.value), used)
            page.keyboard.press(str(slot + 1))
            for key, want in (("ArrowDown", p.row), ("ArrowRight", p.col)):
                axis = 0 if key == "ArrowDown" else 1
                back = "ArrowUp" if key == "ArrowDown" else "ArrowLeft"
                for _ in range(16):
                    at = int(page.evaluate("() => document.activeElement.dataset.sq")
                             .split(":")[axis])
                    if at == want:
                        break
                    page.keyboard.press(key if want > at else back)
            assert page.evaluate("() => document.activeElement.dataset.sq") == f"{p.row}:{p.col}"
            page.keyboard.press("Enter")
            if p.joker:
                dialog = page.locator("dialog.td-joker-dialog")
                dialog.wait_for()
                tab_to(page, f"dialog button[data-joker-value='{p.value}']")
                page.keyboard.press("Enter")
                dialog.wait_for(state="detached")
            page.wait_for_selector(f".td-sq[data-sq='{p.row}:{p.col}'].td-tentative")
        page.keyboard.press("s")
    wait_moved(page, before)


def trivinity_move(page: Any, server: LiveServer, mid: str) -> None:
    """One action, as web_trivinity_helpers.act chooses it, with keys."""
    before = move_of(page)
    stack = page.locator(".tv-stack.choose")
    hand_choice = page.locator(".tv-hand .tv-card.choose")
    answers = page.locator(".tv-choices button")
    playable = page.locator(".tv-hand .tv-card.playable")
    buyable = page.locator(".tv-stack.buyable")
    if stack.count():
        tab_to(page, ".tv-stack.choose")
        page.keyboard.press("Enter")
    elif hand_choice.count():
        page.keyboard.press(hand_choice.first.get_attribute("data-slot") or "1")
    elif answers.count():
        tab_to(page, ".tv-choices button")
        page.keyboard.press("Enter")
    elif playable.count():
        page.keyboard.press(playable.first.get_attribute("data-slot") or "1")
        tab_to(page, "button[data-action='play']:not([disabled])")
        page.keyboard.press("Enter")
    elif buyable.count():
        stack_no = buyable.last.get_attribute("data-stack")
        tab_to(page, f".tv-stack.buyable[data-stack='{stack_no}']")
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("e")
    wait_moved(page, before)


GAMES: dict[str, tuple[int, Callable[[Any, LiveServer, str], None]]] = {
    "triominoes": (7, tiles_move), "trinity": (7, tiles_move), "triangles": (7, triangles_move),
    "trident": (7, trident_move), "trivinity": (5, trivinity_move),
}


@pytest.mark.parametrize("viewport", [pytest.param(DESKTOP, id="1280x800"),
                                      pytest.param(PHONE, id="390x844")])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_with_the_keyboard_alone(game: str, viewport: dict[str, int],
                                              server: LiveServer, new_page: Any) -> None:
    page = new_page(viewport)
    seed, move = GAMES[game]
    mid = start_by_keyboard(page, server.base, game, seed)
    moves = 0
    while wait_turn_keys(page) == "turn":
        move(page, server, mid)
        moves += 1
        assert moves < 500, "the game does not end"
    assert moves > 0
    final = page.locator("dialog.final-dialog")
    final.wait_for()
    assert page.evaluate("() => !!document.activeElement.closest('dialog.final-dialog')")
    screenshot(page, f"keyboard-final-{game}-{viewport['width']}x{viewport['height']}")
    found = violations(page, f"{game} end screen")
    assert not found, "\n".join(found)
