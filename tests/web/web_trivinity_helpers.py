"""Helpers of the Trivinity browser tests: starting a game through the New Game dialog,
reading the position as the server holds it, and acting through the UI as a person would
(clicking cards, buttons, stacks)."""

from __future__ import annotations

from typing import Any

from web_helpers import open_new_game, submit_new_game


def start_trivinity(page: Any, base: str, turn_limit: int = 6, seed: int = 5,
                    shot: str | None = None) -> str:
    """Create a Trivinity game against the novice through the lobby's New Game dialog (the
    turn limit set under "More options"); returns the match id once the table shows."""
    dialog = open_new_game(page, base, "trivinity", "computer", seed)
    select = dialog.locator("select[name='kind-1']")
    if select.count() and select.is_enabled():
        select.select_option("novice")
    dialog.locator("summary").click()
    dialog.locator("#opt-turn_limit").fill(str(turn_limit))
    return submit_new_game(page, dialog, shot)


def observation(server: Any, mid: str, seat: int) -> dict[str, Any]:
    """The seat's observation now, replayed from the match's seed and stored moves."""
    obs: dict[str, Any] = server.observations(mid, seat)[-1]
    return obs


def move_of(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-move") or 0)


def click_and_wait(page: Any, locator: Any) -> None:
    """Click a control that sends an action, and wait until the server has taken it (the move
    number grows) or refused it."""
    before = move_of(page)
    locator.click()
    page.wait_for_function(
        f"""() => Number(document.body.dataset.move) > {before}
                 || document.querySelector('[data-refusal]')?.textContent.length""")
    refusal = page.locator("[data-refusal]").inner_text()
    assert not refusal, refusal


def act(page: Any, log: list[str]) -> None:
    """One action through the UI, as the test's player chooses it: answer a question (a
    highlighted stack, a highlighted hand card, else the first answer button); else play the
    first playable card (select it, then Play); else buy the last stack top on offer (by
    clicking it); else end the turn."""
    stack = page.locator(".tv-stack.choose")
    hand_choice = page.locator(".tv-hand .tv-card.choose")
    answers = page.locator(".tv-choices button")
    playable = page.locator(".tv-hand .tv-card.playable")
    buyable = page.locator(".tv-stack.buyable")
    if stack.count():
        log.append("choose-stack")
        click_and_wait(page, stack.first)
    elif hand_choice.count():
        log.append("choose-card")
        click_and_wait(page, hand_choice.first)
    elif answers.count():
        log.append("answer " + (answers.first.get_attribute("data-notation") or ""))
        click_and_wait(page, answers.first)
    elif playable.count():
        playable.first.click()
        play = page.locator("button[data-action='play']")
        assert play.is_enabled()
        log.append("play")
        click_and_wait(page, play)
    elif buyable.count():
        log.append("buy " + (buyable.last.get_attribute("data-stack") or ""))
        click_and_wait(page, buyable.last)
    else:
        end = page.locator("button[data-action='end']")
        assert end.is_enabled(), "no action on offer"
        log.append("end")
        click_and_wait(page, end)
