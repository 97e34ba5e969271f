"""Trivinity's cards read in full at the table (issue 21): the side panel beside the stacks on
keyboard focus, hover and selection; the detail dialog from a card's "i" button, the I key and a
long press, giving the focus back when it closes; names never cut off; the legend of the cost
and worth notation with the named icons of Power, Mana and Tribute; the heading's turn equal to
the feed's; the layout at 1280x800 and 390x844 without horizontal scrolling."""

from __future__ import annotations

import re
from typing import Any

from test_web_a11y import violations
from web_helpers import wait_turn
from web_support import PHONE, LiveServer, screenshot
from web_trivinity_helpers import act, click_and_wait, start_trivinity

# The elements whose text does not fit their box (the screen readers' text and the drawn tier
# marks aside): a text cut off, or scrolled away.
CLIPPED = """els => els.filter(e => !e.closest('.sr-only, .tv-tier')
                       && (e.scrollWidth > e.clientWidth + 1
                           || e.scrollHeight > e.clientHeight + 1))
                   .map(e => e.textContent)"""
BESIDE_THE_GRID = """e => e.getBoundingClientRect().left
                      >= document.querySelector('.tv-grid').getBoundingClientRect().right"""


def cards_of(page: Any) -> list[dict[str, Any]]:
    """The engine's card table, as the server hands it to the view."""
    table: list[dict[str, Any]] = page.evaluate(
        "async () => (await (await fetch('/api/games/trivinity/data')).json()).cards")
    return table


def focused_info(page: Any) -> str | None:
    found: str | None = page.evaluate("() => document.activeElement?.dataset?.info ?? null")
    return found


def tab_to_info_of_stack(page: Any, stack: int) -> str:
    """Tab (the keyboard alone) to the "i" button of a stack's top card; its card id."""
    info = page.locator(f".tv-slot:has(.tv-stack[data-stack='{stack}']) .tv-info")
    wanted = info.get_attribute("data-info") or ""
    for _ in range(120):
        if focused_info(page) == wanted and page.evaluate(
                "() => !!document.activeElement.closest('.tv-grid')"):
            return wanted
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached the i button of stack {stack}")


def test_the_detail_on_focus_click_key_and_long_press(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    start_trivinity(page, server.base, turn_limit=6, seed=5)
    assert wait_turn(page, timeout=60) == "turn"
    cards = cards_of(page)
    card_id = panel_on_keyboard_focus(page, cards)
    dialogs_give_the_focus_back(page, cards, card_id)
    hover_select_key_and_play(page, cards)


def panel_on_keyboard_focus(page: Any, cards: list[dict[str, Any]]) -> str:
    """Tab to stack 7's "i" button: the side panel beside the stacks shows the card whole."""
    panel = page.locator(".tv-detail")
    # Keyboard focus on a stack top's "i" button: the side panel shows the card, whole.
    page.locator(".tv-stack[data-stack='1']").focus()
    card_id = tab_to_info_of_stack(page, 7)
    wanted = cards[int(card_id)]
    panel.locator(f"[data-detail-card='{card_id}']").wait_for()
    assert panel.locator(".tv-detail-name strong").inner_text().strip() == wanted["name"]
    assert panel.locator(".tv-detail-text").inner_text().strip() == wanted["text"]
    assert f"Tier {wanted['tier']}" in panel.inner_text()
    assert panel.locator(".tv-detail-card [data-res] svg[role='img']").count() >= 2
    assert not panel.locator(".tv-detail-card, .tv-detail-card *").evaluate_all(CLIPPED)
    assert panel.is_visible() and panel.evaluate(BESIDE_THE_GRID)
    return card_id


def dialogs_give_the_focus_back(page: Any, cards: list[dict[str, Any]], card_id: str) -> None:
    """Enter on the focused "i" button, then a click on another: the dialog, closed by Escape
    and by its Close button, each time giving the focus back."""
    # Enter on the "i" button: the dialog with the whole card; Escape gives the focus back.
    page.keyboard.press("Enter")
    dialog = page.locator("dialog.tv-card-dialog")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text().strip() == cards[int(card_id)]["name"]
    assert dialog.locator(".tv-detail-text").inner_text().strip() == cards[int(card_id)]["text"]
    assert not dialog.locator(".tv-detail-card *").evaluate_all(CLIPPED)
    found = violations(page, "Trivinity card dialog")
    assert not found, "\n".join(found)
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert focused_info(page) == card_id
    # A click on the i button of stack 9, then Close: the focus is back on that button.
    info9 = page.locator(".tv-slot:has(.tv-stack[data-stack='9']) .tv-info")
    info9.click()
    dialog.wait_for()
    nine = info9.get_attribute("data-info") or ""
    assert dialog.locator("h2").inner_text().strip() == cards[int(nine)]["name"]
    dialog.locator("button[data-value='null']").click()
    dialog.wait_for(state="detached")
    assert focused_info(page) == nine


def hover_select_key_and_play(page: Any, cards: list[dict[str, Any]]) -> None:
    """Hover and selection fill the panel, I opens the selected card, and Play still plays."""
    panel = page.locator(".tv-detail")
    dialog = page.locator("dialog.tv-card-dialog")
    # Hovering a stack shows its top in the panel; selecting a hand card shows that card.
    page.locator(".tv-stack[data-stack='4']").hover()
    four = page.locator(".tv-stack[data-stack='4'] .tv-card").get_attribute("data-card")
    panel.locator(f"[data-detail-card='{four}']").wait_for()
    hand = page.locator(".tv-hand .tv-card").first
    hand.click()
    assert hand.get_attribute("aria-pressed") == "true"
    panel.locator(f"[data-detail-card='{hand.get_attribute('data-card')}']").wait_for()
    # The I key: the selected card's dialog (the focus on the board, not on a card).
    page.locator(".tv-grid").evaluate("e => e.closest('[role=region]').focus()")
    page.keyboard.press("i")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text().strip() == cards[
        int(hand.get_attribute("data-card") or -1)]["name"]
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    # Selecting for the detail does not get in the way of playing: Play plays the card.
    assert hand.get_attribute("aria-pressed") == "true"
    played = len(page.locator(".tv-mine [data-played] .tv-card").all())
    click_and_wait(page, page.locator("button[data-action='play']"))
    assert page.locator(".tv-mine [data-played] .tv-card").count() >= played + 1
    # A card that is only shown (played) opens its dialog on a click.
    shown = page.locator(".tv-mine [data-played] .tv-card").first
    shown.click()
    dialog.wait_for()
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")


def test_a_long_press_opens_the_detail_on_touch(server: LiveServer, new_page: Any) -> None:
    page = new_page(viewport=PHONE)
    start_trivinity(page, server.base, turn_limit=6, seed=3)
    assert wait_turn(page, timeout=60) == "turn"
    cards = cards_of(page)
    hand = page.locator(".tv-hand .tv-card").first
    card_id = hand.get_attribute("data-card") or ""
    hand.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    dialog = page.locator("dialog.tv-card-dialog")
    dialog.wait_for(timeout=3000)
    hand.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
    hand.dispatch_event("click")  # the click that ends the long press
    name = dialog.locator("h2").inner_text().strip()
    assert name == cards[int(card_id)]["name"]
    screenshot(page, "trivinity-card-dialog-390x844")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    # The click that ended the long press did not select the card; the next click selects it.
    assert hand.get_attribute("aria-pressed") == "false"
    hand.click()
    assert hand.get_attribute("aria-pressed") == "true"


def test_legend_turns_and_layout_at_both_sizes(server: LiveServer, new_page: Any) -> None:
    for viewport, seed in ((None, 5), (PHONE, 3)):
        page = new_page(viewport=viewport) if viewport else new_page()
        start_trivinity(page, server.base, turn_limit=6, seed=seed)
        legend_and_icons(page)
        heading_turn_is_the_feeds(page)
        layout_fits(page, viewport)


def legend_and_icons(page: Any) -> None:
    """The legend: the three resources' icons, each named, and the notation explained."""
    legend = page.locator(".tv-legend")
    names = legend.locator("[data-legend] svg[role='img']").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    assert names == ["Power", "Mana", "Tribute"]
    text = legend.inner_text()
    assert "Cost:" in text and "Worth:" in text and "two best resources" in text
    # Every stack top's cost shows an icon with its amount, and its "i" button is named.
    tops = page.locator(".tv-stack .tv-card")
    assert tops.count() == 9
    assert tops.first.locator(".tv-card-cost [data-res] svg").count() >= 1
    infos = page.locator(".tv-grid .tv-info").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(infos) == 9 and all(i.startswith("Details of ") for i in infos)


def heading_turn_is_the_feeds(page: Any) -> None:
    """After a few turns the heading's turn is the one of the feed's last "turn" line."""
    log: list[str] = []
    for _ in range(14):
        if wait_turn(page, timeout=60) != "turn":
            break
        act(page, log)
    assert wait_turn(page, timeout=60) == "turn"
    heading = page.locator(".round").inner_text()
    match = re.search(r"Turn (\d+) of (\d+)", heading)
    assert match, heading
    feed_turns = page.locator(".feed li[data-code='turn']").all_inner_texts()
    assert feed_turns and feed_turns[-1].endswith(f"turn {match.group(1)}")
    assert int(match.group(1)) >= 3 and match.group(2) == "12"
    assert page.locator("body").get_attribute("data-tv-turn") == match.group(1)


def layout_fits(page: Any, viewport: dict[str, int] | None) -> None:
    """Names are never cut off; nothing scrolls sideways; the panel and the legend are beside
    the stacks on a wide screen."""
    size = "390x844" if viewport else "1280x800"
    assert not page.locator(".tv-card-name").evaluate_all(CLIPPED)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= (viewport or {"width": 1280})["width"], f"horizontal scrolling: {width}"
    board = page.locator(".tv-host")
    assert board.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    screenshot(page, f"trivinity-legend-{size}")
    if not viewport:
        # Beside the stacks: the panel and the legend fill the right column.
        for part in (".tv-detail", ".tv-legend"):
            assert page.locator(part).evaluate(BESIDE_THE_GRID)
