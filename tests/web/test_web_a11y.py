"""Accessibility: axe-core finds nothing on the lobby, the New Game dialog, Preferences, the
rules pages and each game's table (with its Keys and Escape dialogs), at both sizes; the New
Game dialog takes and traps the focus; the cards' buttons name their game; the tables announce
through a polite live region."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from web_helpers import match_id, play_move, start_game, wait_turn
from web_support import DESKTOP, PHONE, LiveServer

from triverse.games import available_games

VIEWPORTS = [pytest.param(DESKTOP, id="1280x800"), pytest.param(PHONE, id="390x844")]
RULES = ["/rules/", *(f"/rules/{name}.html" for name in available_games())]


def axe_source() -> str:
    """axe-core's script, as the ``axe-playwright-python`` package ships it."""
    spec = importlib.util.find_spec("axe_playwright_python")
    assert spec is not None and spec.origin, "pip install axe-playwright-python (the test extra)"
    return (Path(spec.origin).parent / "axe.min.js").read_text()


def violations(page: Any, where: str) -> list[str]:
    """Every axe-core violation on the page now (any impact), one line each."""
    page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [f"{where}: {v['id']} ({v['impact']}): "
            + "; ".join(str(n["target"]) + " " + n["failureSummary"].replace("\n", " ")
                        for n in v["nodes"][:4])
            for v in found]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_axe_finds_nothing_on_the_lobby_dialogs_and_rules(
        viewport: dict[str, int], server: LiveServer, new_page: Any) -> None:
    page = new_page(viewport)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    found = violations(page, "lobby")
    page.click("[data-new-game='triominoes']")
    page.wait_for_selector("dialog.new-game-dialog")
    found += violations(page, "new game")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.new-game-dialog", state="detached")
    page.click("#prefs-button")
    page.wait_for_selector("dialog.prefs-dialog, dialog:has-text('Preferences')")
    found += violations(page, "preferences")
    page.keyboard.press("Escape")
    for path in RULES:
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        found += violations(page, path)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("game", available_games())
def test_axe_finds_nothing_on_the_tables(game: str, viewport: dict[str, int],
                                         server: LiveServer, new_page: Any) -> None:
    page = new_page(viewport)
    start_game(page, server.base, game, "computer", ["human", "novice"])
    page.wait_for_timeout(300)
    found = violations(page, f"{game} table")
    # The Keys dialog (?) and the Escape dialog of the table.
    page.keyboard.press("?")
    page.wait_for_selector("dialog.dialog")
    found += violations(page, f"{game} keys dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.dialog", state="detached")
    page.locator("body").press("Escape")
    page.wait_for_selector("dialog.dialog")
    found += violations(page, f"{game} escape dialog")
    assert not found, "\n".join(found)


def test_dialog_focus_card_labels_and_the_live_region(server: LiveServer,
                                                      new_page: Any) -> None:
    page = new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    # Each card's buttons name their game for screen readers.
    for name in available_games():
        card = page.locator(f"li.game-card[data-game='{name}']")
        title = card.locator("h3").evaluate("e => e.firstChild.textContent").strip()
        assert page.get_by_role("button", name=f"New game of {title}", exact=True).count() == 1
        assert card.get_by_role("link", name=f"Rules of {title}", exact=True).count() == 1
    # The New Game dialog takes the focus and keeps it: Tab and Shift+Tab go round inside it.
    page.get_by_role("button", name="New game of Trident").focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog.new-game-dialog")
    dialog.wait_for()
    inside = "() => !!document.activeElement?.closest('dialog.new-game-dialog')"
    assert page.evaluate(inside)
    seen = set()
    for key in ["Tab"] * 40 + ["Shift+Tab"] * 40:
        page.keyboard.press(key)
        assert page.evaluate(inside), f"{key} left the dialog"
        seen.add(page.evaluate("() => document.activeElement.outerHTML.slice(0, 60)"))
    assert len(seen) > 5
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    # Focus returns to the button that opened it.
    assert page.evaluate("() => document.activeElement.dataset.newGame") == "trident"
    # A table announces turns and events through the page's polite live region.
    start_game(page, server.base, "triominoes", "computer", ["human", "novice"])
    live = page.locator("#live")
    assert live.get_attribute("aria-live") == "polite"
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
    assert "Your turn" in live.inner_text()
    page.evaluate("""() => { window.said = [];
        new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(
            (n) => window.said.push(n.textContent)))).observe(
            document.getElementById('live'), {childList: true}); }""")
    mid = match_id(page)
    for _ in range(6):  # a draw keeps the turn: play until the computer has had one
        assert wait_turn(page) == "turn"
        play_move(page, mid, 0, "keys")
        if page.evaluate("() => window.said.some((t) => t.includes('Computer (novice)'))"):
            break
    page.wait_for_function("() => window.said.filter((t) => t === 'Your turn').length > 0"
                           " && window.said.some((t) => t.includes('Computer (novice)'))")
    said: list[str] = page.evaluate("() => window.said")
    # The turns ("Computer (novice) is thinking…", "Your turn") and the moves' events, in between.
    assert any(t.startswith("Computer (novice) is thinking") for t in said), said
    assert len(set(said)) >= 3, said
