"""Trivinity in the browser: a short game against the computer (turn limit 6) played through
the UI to the final score breakdown, discard-all for a free tier-1 card, a purchase by clicking
a stack's top card, the phone layout, and the rules page with the module symbols."""

from __future__ import annotations

from typing import Any

from web_helpers import wait_turn
from web_support import PHONE, LiveServer, screenshot
from web_trivinity_helpers import (
    act,
    click_and_wait,
    observation,
    start_trivinity,
)


def test_the_view_reads_the_engines_card_table(server: LiveServer, new_page: Any) -> None:
    from triverse.games.trivinity.engine import TrivinityGame

    page = new_page()
    page.goto(server.base + "/")
    answer = page.request.get(server.base + "/api/games/trivinity/data")
    assert answer.ok and "max-age" in answer.headers["cache-control"]
    assert answer.json() == {"cards": TrivinityGame(2, {}).card_catalogue()}


def test_short_game_against_the_computer_to_the_score_breakdown(
        server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_trivinity(page, server.base, turn_limit=6, seed=5,
                          shot="new-game-trivinity-1280x800")
    assert page.locator(".match[data-kind='trivinity'] .tv-grid .tv-stack").count() == 9
    # Every stack top shows its card: name, symbol, cost.
    tops = page.locator(".tv-stack .tv-card")
    assert tops.count() == 9
    assert tops.first.locator(".tv-icon").count() >= 1
    assert "cost" in tops.first.inner_text()
    log: list[str] = []
    shot = False
    while wait_turn(page, timeout=90) == "turn":
        act(page, log)
        if not shot and "buy" in " ".join(log) and page.locator(".tv-mine .tv-card").count():
            screenshot(page, "board-trivinity-1280x800")
            shot = True
        assert len(log) < 400, "the game does not end"
    assert any(a.startswith("buy") for a in log), log
    final = page.locator("dialog.final-dialog")
    final.wait_for()
    view = page.evaluate("async (id) => (await fetch(`/api/matches/${id}/view`)).json()", mid)
    assert view["finished"]
    assert view["observation"]["end"]["reason"] in ("turn_limit", "line")
    # The breakdown: the two best resources plus the tier bonuses, as the engine scored it.
    table = final.locator("[data-breakdown]")
    for q, score in enumerate(view["scores"]):
        cell = table.locator(f"tr[data-seat='{q}'] [data-score]")
        assert cell.get_attribute("data-score") == str(score)
    screenshot(page, "final-trivinity-1280x800")
    # A spectator sees the stacks and the breakdown, and no hand.
    watch = new_page()
    watch.goto(f"{server.base}/watch/{mid}")
    watch.wait_for_selector("body[data-board-ready='true']")
    assert watch.locator(".tv-grid .tv-stack").count() == 9
    assert watch.locator(".tv-final [data-breakdown] tr[data-seat]").count() == 2
    assert watch.locator(".tv-hand .tv-card").count() == 0


def test_discard_all_for_a_free_card_then_buy_a_stack_top(
        server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_trivinity(page, server.base, turn_limit=10, seed=11)
    assert wait_turn(page, timeout=60) == "turn"
    seat = int(page.locator("body").get_attribute("data-identity") or 0)
    # Discard all: the question of the free tier-1 card, answered by clicking stack 1's top.
    discard_all = page.locator("button[data-action='discard-all']")
    assert discard_all.is_enabled()
    click_and_wait(page, discard_all)
    page.wait_for_selector("body[data-tv-pending='free']")
    offered = page.locator(".tv-stack.choose")
    assert sorted(offered.evaluate_all("els => els.map(e => e.dataset.stack)")) == ["1", "2", "3"]
    assert page.locator(".tv-choices [data-notation='pass']").count() == 1
    screenshot(page, "trivinity-free-1280x800")
    free = int(page.locator(".tv-stack[data-stack='1'] .tv-card").get_attribute("data-card") or -1)
    click_and_wait(page, page.locator(".tv-stack[data-stack='1']"))
    obs = observation(server, mid, seat)
    assert free in obs["players"][seat]["discard"]
    assert obs["free_card_used"]
    click_and_wait(page, page.locator("button[data-action='end']"))
    # The next turn: play every card, then buy a stack's top by clicking it.
    assert wait_turn(page, timeout=60) == "turn"
    for _ in range(10):
        playable = page.locator(".tv-hand .tv-card.playable")
        if page.locator(".tv-choices button").count() or page.locator(".tv-stack.choose").count():
            act(page, [])
            continue
        if not playable.count():
            break
        playable.first.click()
        click_and_wait(page, page.locator("button[data-action='play']"))
    buyable = page.locator(".tv-stack.buyable")
    assert buyable.count(), "nothing to buy after playing the whole hand"
    target = buyable.last
    stack = int(target.get_attribute("data-stack") or 0)
    bought = int(target.locator(".tv-card").get_attribute("data-card") or -1)
    assert page.locator(f".tv-stack[data-stack='{stack}']").is_enabled()
    click_and_wait(page, target)
    obs = observation(server, mid, seat)
    assert bought in obs["players"][seat]["discard"]
    # A stack whose purchase is not legal is disabled.
    for s in range(1, 10):
        box = page.locator(f".tv-stack[data-stack='{s}']")
        if not box.evaluate("e => e.matches('.buyable, .choose')"):
            assert box.is_disabled()


def test_phone_layout_and_rules_page(server: LiveServer, new_page: Any) -> None:
    page = new_page(viewport=PHONE)
    start_trivinity(page, server.base, turn_limit=6, seed=3)
    assert wait_turn(page, timeout=60) == "turn"
    page.locator(".tv-hand .tv-card").first.click()
    screenshot(page, "board-trivinity-390x844")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"horizontal scrolling: {width}"
    # The keyboard: a digit selects the card of that hand slot, Enter plays it.
    page.locator(".tv-hand .tv-card").first.click()  # unselect
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    before = int(page.locator("body").get_attribute("data-move") or 0)
    page.keyboard.press("1")
    assert page.locator(".tv-hand .tv-card[data-slot='1']").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}")
    # The Keys dialog lists the view's keys first; E ends the turn.
    page.keyboard.press("?")
    keys = page.locator("dialog table.keys")
    keys.wait_for()
    assert "discard all" in keys.inner_text().lower()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog table.keys", state="detached")
    before = int(page.locator("body").get_attribute("data-move") or 0)
    page.keyboard.press("e")
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}")
    rules = new_page()
    rules.goto(f"{server.base}/rules/trivinity.html")
    symbols = rules.locator("[data-tv-symbol] > .tv-icon")
    symbols.first.wait_for()
    assert sorted(symbols.evaluate_all("els => els.map(e => e.dataset.symbol)")) == sorted(
        ["line", "sword", "mace", "star", "bolt", "column", "fissure", "feather"])
    symbols.last.scroll_into_view_if_needed()
    screenshot(rules, "rules-trivinity-1280x800")


def test_hotseat_shows_only_the_hand_being_played(server: LiveServer, new_page: Any) -> None:
    from web_helpers import start_game

    page = new_page()
    mid = start_game(page, server.base, "trivinity", "hotseat", ["human", "human"], seed=8,
                     short=False)
    for _turn in range(3):
        dialog = page.locator("dialog.pass-dialog")
        dialog.wait_for()
        assert page.locator(".tv-hand .tv-card").count() == 0
        dialog.locator("button[data-value='reveal']").click()
        page.wait_for_selector("body[data-your-turn='true']")
        seat = int(page.locator("body").get_attribute("data-identity") or -1)
        hands = {q: observation(server, mid, q)["hand"] for q in (0, 1)}
        shown = page.locator(".tv-hand .tv-card").evaluate_all(
            "els => els.map(e => Number(e.dataset.card))")
        assert shown == hands[seat]
        in_page = set(page.locator("[data-card]").evaluate_all(
            "els => els.map(e => Number(e.dataset.card))"))
        assert not in_page & set(hands[1 - seat]), "the other hand is in the page"
        click_and_wait(page, page.locator("button[data-action='end']"))
