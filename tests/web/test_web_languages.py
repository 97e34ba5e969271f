"""Triverse in Polish and French in the browser: the language follows the browser's, a move's
feed line and the end screen come translated from the catalogues, every table is shown in each
language (screenshots under test-artifacts/screenshots/, named ``<game>-<lang>-1280x800``), and
the choice in Preferences wins over the browser's language."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from triangles_helpers import HOW, play_line, start_triangles
from web_helpers import start_game, wait_turn
from web_support import DESKTOP, LiveServer, screenshot

from triverse.core.plugins import available_games
from triverse.games.triangles.messages import MESSAGES as TRIANGLES
from triverse.i18n import _, game_message, language

LOCALES = {"pl": "pl-PL", "fr": "fr-FR"}


def localized_page(browser: Any, new_page: Callable[..., Any], lang: str) -> Any:
    """A page in a browser context whose language is ``lang`` (navigator.languages and
    Accept-Language)."""
    context = browser.new_context(viewport=DESKTOP, locale=LOCALES[lang])
    return new_page(context=context)


def fixed_part(template: str) -> str:
    """The longest piece of a template between its placeholders."""
    return max(re.split(r"\{\w+\}", template), key=len).strip()


@pytest.mark.parametrize("lang", ["pl", "fr"])
def test_a_game_of_triangles_in_each_language(server: LiveServer, browser: Any,
                                              new_page: Callable[..., Any], lang: str) -> None:
    page = localized_page(browser, new_page, lang)
    start_triangles(page, server.base, "computer", ["human", "novice"], board="phone-24", seed=5)
    assert page.locator("html").get_attribute("lang") == lang
    with language(lang):
        drew = game_message("triangles", "line", TRIANGLES["line"])
        nav = _("Rules")
    assert drew != TRIANGLES["line"]
    assert page.locator("nav a[href='/rules/']").inner_text() == nav
    moves = 0
    while wait_turn(page, timeout=60) == "turn":
        play_line(page, server, page.url.split("/play/")[1].split("?")[0], HOW[moves % len(HOW)])
        moves += 1
        if moves == 1:
            page.wait_for_function(
                "(part) => document.body.innerText.includes(part)", arg=fixed_part(drew))
        assert moves < 80, "the game does not end"
    final = page.locator("dialog.final-dialog")
    final.wait_for()
    headline = final.locator("[data-headline]").inner_text()
    with language(lang):
        endings = {_("You won!"), _("You lost!"), _("Draw!")}
    assert headline in endings and headline not in {"You won!", "You lost!", "Draw!"}
    if lang == "pl":
        assert headline in {"Wygrałeś!", "Przegrałeś!", "Remis!"}  # the seed's own words
    screenshot(page, f"triangles-final-{lang}-1280x800")


@pytest.mark.parametrize("lang", ["pl", "fr"])
def test_every_table_in_each_language(server: LiveServer, browser: Any,
                                      new_page: Callable[..., Any], lang: str) -> None:
    page = localized_page(browser, new_page, lang)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    with language(lang):
        games_word = _("Games")
    assert page.locator("nav a[href='/']").inner_text() == games_word
    screenshot(page, f"lobby-{lang}-1280x800")
    for game in available_games():
        start_game(page, server.base, game, "computer", ["human", "novice"])
        assert page.locator("html").get_attribute("lang") == lang
        screenshot(page, f"{game}-{lang}-1280x800")


def test_the_language_chosen_in_preferences_wins(server: LiveServer, browser: Any,
                                                 new_page: Callable[..., Any]) -> None:
    page = localized_page(browser, new_page, "pl")
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator("html").get_attribute("lang") == "pl"
    page.evaluate("""() => { localStorage.setItem('triverse.lang', 'fr');
                             document.cookie = 'triverse_lang=fr; path=/'; }""")
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator("html").get_attribute("lang") == "fr"
    with language("fr"):
        assert page.locator("nav a[href='/rules/']").inner_text() == _("Rules")
    page.goto(server.base + "/rules/triangles.html")
    assert page.locator("html").get_attribute("lang") == "fr"
