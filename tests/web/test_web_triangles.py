"""Triangles in the browser: a whole game against the computer on the 24-star board to the end
screen and its statistics, refused lines with the engine's reason, "Play again after a
triangle" in hot-seat (which has no pass screen), the colour themes at both sizes, and the rules
page's diagrams."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from triangles_helpers import (
    HOW,
    colour,
    contrast,
    draw_line,
    late_plan,
    over,
    partners,
    play_line,
    post_lines,
    refused_pairs,
    star_centre,
    start_triangles,
    state_of,
    stats,
    type_star,
)
from web_helpers import server_view, token_of, wait_turn
from web_support import DESKTOP, PHONE, LiveServer, screenshot

from triverse.core.messages import Reason, render
from triverse.games.triangles import Line
from triverse.games.triangles.engine import TrianglesState

THEMES = ("nebula", "okabe-ito", "daylight", "contrast")
"""The themes of src/triverse/web/js/themes.js, the default first."""


def body(page: Any, name: str) -> str:
    return page.locator("body").get_attribute(f"data-{name}") or ""


def test_full_game_on_24_stars_against_the_computer(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_triangles(page, server.base, "computer", ["human", "novice"], board="phone-24",
                          seed=31, shot="new-game-triangles-1280x800")
    assert page.locator(".match[data-kind='triangles'] .starfield").count() == 1
    assert page.locator(".starfield [data-star]").count() == 24
    assert "Phone · 24 stars" in page.locator(".round").inner_text()
    moves = 0
    while wait_turn(page, timeout=60) == "turn":
        play_line(page, server, mid, HOW[moves % len(HOW)])
        moves += 1
        if moves == 6:
            screenshot(page, "triangles-board-1280x800")
        assert moves < 80, "the game does not end"
    final = page.locator("dialog.final-dialog")
    final.wait_for()
    view = page.evaluate("async (id) => (await fetch(`/api/matches/${id}/view`)).json()", mid)
    result = view["result"]
    ranks = result["ranks"]
    outcome = "draw" if ranks == [1, 1] else "win" if ranks[0] == 1 else "loss"
    headline = final.locator("[data-headline]").inner_text()
    assert headline == {"win": "You won!", "loss": "You lost!", "draw": "Draw!"}[outcome]
    # The lines and triangles on the field are the server's.
    state = state_of(server, mid)
    assert state.is_terminal()
    drawn = ".starfield .sf-line:not(.preview):not(.pending):not(.halo)"
    assert page.locator(drawn).count() == len(state.lines())
    assert page.locator(".starfield .sf-tri").count() == len(state.closed_triangles())
    # Counted once, under its board: a draw is neither a win nor a loss.
    field = {"win": "wins", "loss": "losses", "draw": "draws"}[outcome]
    expected = {"wins": 0, "losses": 0, "draws": 0, field: 1}
    assert stats(page)["games"]["triangles"] == {"phone-24": expected}
    line = final.locator("[data-stats='phone-24']").inner_text()
    assert "Phone · 24 stars against the computer" in line
    assert f"1 {'win' if outcome == 'win' else 'loss' if outcome == 'loss' else 'draw'}" in line
    screenshot(page, "triangles-final-1280x800")
    # Reloading the end screen shows it again and does not count the game twice.
    page.reload()
    page.locator("dialog.final-dialog").wait_for()
    assert page.locator("dialog.final-dialog [data-headline]").inner_text() == headline
    assert stats(page)["games"]["triangles"] == {"phone-24": expected}
    # The lobby's card shows the statistics.
    page.locator("dialog.final-dialog button[data-value='lobby']").click()
    row = page.locator("li.game-card[data-game='triangles'] [data-stats-key='phone-24']")
    row.wait_for()
    assert row.locator("[data-wins]").inner_text() == str(expected["wins"])
    assert row.locator("[data-losses]").inner_text() == str(expected["losses"])
    assert row.locator("[data-draws]").inner_text() == str(expected["draws"])
    # Win, loss and draw each land in their own column and board; a match counts once.
    counted = page.evaluate("""async () => {
        const s = await import('/js/stats.js');
        return [s.recordOutcome('triangles', 'tablet-80', 'test-a', 'win'),
                s.recordOutcome('triangles', 'tablet-80', 'test-b', 'loss'),
                s.recordOutcome('triangles', 'tablet-80', 'test-c', 'draw'),
                s.recordOutcome('triangles', 'tablet-80', 'test-c', 'draw'),
                s.outcomeOf({scores: [3, 3], ranks: [1, 1]}, 0),
                s.outcomeOf({scores: [4, 3], ranks: [1, 2]}, 1)];
    }""")
    assert counted == [True, True, True, False, "draw", "loss"]
    assert stats(page)["games"]["triangles"]["tablet-80"] == {"wins": 1, "losses": 1, "draws": 1}
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    card = page.locator("li.game-card[data-game='triangles']")
    assert card.locator("[data-stats-key='tablet-80'] [data-draws]").inner_text() == "1"
    assert card.locator("[data-stats-key='phone-24']").count() == 1
    card.scroll_into_view_if_needed()
    screenshot(page, "lobby-triangles-stats-1280x800")


def test_refused_lines_flash_with_the_engines_reason(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    errors: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda p: errors.append(str(p)) if '"type":"error"' in str(p) else None))
    mid = start_triangles(page, server.base, "computer", ["human", "novice"], seed=12)
    for how in ("tap", "drag"):
        assert wait_turn(page) == "turn"
        state = state_of(server, mid)
        line = next(iter(state.legal_actions()))
        before = int(body(page, "move"))
        draw_line(page, line.a, line.b, how)
        page.wait_for_function(f"() => Number(document.body.dataset.move) > {before + 1}")
    assert wait_turn(page) == "turn"
    state = state_of(server, mid)
    pairs = refused_pairs(state)
    assert set(pairs) == {"crosses a line", "passes through a star", "already drawn"}, pairs
    move = body(page, "move")
    for (reason, (a, b)), how in zip(sorted(pairs.items()), ("keys", "tap", "drag"), strict=True):
        sent = len(errors)
        draw_line(page, a, b, how)
        flash = page.locator(f".starfield [data-refused='{a}-{b}']")
        flash.wait_for()
        assert flash.get_attribute("data-reason") == reason
        assert reason in flash.inner_html()
        page.wait_for_function("() => document.querySelector('[data-refusal]').textContent.length")
        text = page.locator("[data-refusal]").inner_text()
        assert len(errors) == sent + 1, "the intent was not sent to the server"
        error = json.loads(errors[-1])
        refusal = state.illegal_reason(Line(a, b))
        assert isinstance(refusal, Reason) and reason in refusal
        assert flash.get_attribute("data-code") == refusal.code
        assert error["message"] == f"{a}-{b}: {refusal}"
        # The notice is written from the refusal's message code, not from the English message.
        assert error["reason"] == {"code": refusal.code, "params": {"action": f"{a}-{b}",
                                                                    **refusal.params}}
        assert text == f"Refused: {render(refusal.code, refusal.params, state.game.messages)}"
        assert body(page, "move") == move, "a refused line changed the game"
        if reason == "crosses a line":
            # The line it would cross is outlined too.
            assert page.locator(".starfield .sf-culprit").count() == 1
            screenshot(page, "triangles-refused-1280x800")
    assert page.locator("body").get_attribute("data-your-turn") == "true"


def test_play_again_after_a_triangle_in_hotseat(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_triangles(page, server.base, "hotseat", ["human", "human"], again=True, seed=5)
    # The seed's example: Player 1 draws a-b, Player 2 b-c, Player 1 closes a-b-c with move 3
    # and draws move 4 too.
    state = state_of(server, mid)
    assert state.game.again
    a, b, c = next(t for t in state.board.triangles if all(
        state.is_legal(Line(*p)) for p in ((t[0], t[1]), (t[1], t[2]), (t[0], t[2]))))
    plays = [(0, a, b, "tap"), (1, b, c, "drag"), (0, a, c, "keys")]
    for move, (seat, x, y, how) in enumerate(plays):
        # Nothing is hidden: no pass screen, the table simply becomes the seat to move.
        page.wait_for_selector(f"body[data-identity='{seat}'][data-your-turn='true']")
        assert page.locator("dialog.pass-dialog").count() == 0
        assert body(page, "move") == str(move)
        draw_line(page, x, y, how)
        page.wait_for_selector(f"body[data-move='{move + 1}']")
    # Player 1 closed the triangle: still Player 1's turn (the table stays Ann's).
    page.locator(".feed li", has_text="Ann plays again").wait_for()
    assert body(page, "to-move") == "0" and body(page, "identity") == "0"
    assert body(page, "your-turn") == "true"
    assert page.locator(".starfield .sf-tri.p0").count() == 1
    assert page.locator(".scores tr[data-seat='0'] td.score").inner_text() == "1"
    assert "to play" in page.locator(".tri-chip[data-seat='0']").inner_text().lower()
    screenshot(page, "triangles-again-1280x800")
    # Move 4: a line that closes nothing passes the turn to Bob.
    after = state_of(server, mid)
    quiet = next(line for line in after.legal_actions() if not closes(after, line))
    draw_line(page, quiet.a, quiet.b, "type")
    page.wait_for_selector("body[data-identity='1'][data-your-turn='true'][data-move='4']")
    assert page.locator("dialog.pass-dialog").count() == 0


def closes(state: TrianglesState, line: Line) -> bool:
    after = state.clone()
    after.apply(line)
    return sum(after.scores) > sum(state.scores)


def test_themes_at_both_sizes_and_touch(server: LiveServer, browser: Any,
                                        new_page: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, has_touch=True)
    try:
        themes_and_touch(server, new_page(context=context))
    finally:
        context.close()


def themes_and_touch(server: LiveServer, page: Any) -> None:
    mid = start_triangles(page, server.base, "hotseat", ["human", "human"], seed=44)
    # A position with triangles of both players: lines sent through the API for speed (the
    # table shows them live), Player 1 closing one triangle and Player 2 another.
    post_lines(page, server, mid, triangle_plan(state_of(server, mid)))
    page.wait_for_function("() => document.querySelectorAll('.starfield .sf-tri.p0').length > 0"
                           " && document.querySelectorAll('.starfield .sf-tri.p1').length > 0")
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        size = f"{viewport['width']}x{viewport['height']}"
        for theme in THEMES:
            # The Preferences dialog, as a player would.
            page.click("#prefs-button")
            dialog = page.locator("dialog.prefs-dialog")
            dialog.locator(f"input[name='star-theme'][value='{theme}']").check()
            dialog.locator("button[data-value='save']").click()
            page.wait_for_selector(f".match[data-star-theme='{theme}']")
            # Colour is not the only cue: Player 1's lines solid, Player 2's dashed.
            dashes = page.evaluate("""() => ['p0', 'p1'].map((p) => getComputedStyle(
                document.querySelector(`.starfield .sf-line.${p}:not(.halo)`)).strokeDasharray)""")
            assert dashes[0] == "none" and dashes[1] not in ("", "none"), dashes
            colours = page.evaluate("""() => {
                const s = getComputedStyle(document.querySelector('.match'));
                return [s.getPropertyValue('--p1').trim(), s.getPropertyValue('--p2').trim()]; }""")
            assert colours[0] != colours[1]
            if theme == "nebula":
                assert colours == ["#ff5a2c", "#3b8cff"], "Nebula: red-orange and blue"
            if viewport == DESKTOP:
                assert_lines_show_over_fills(page, theme)
            # Every star on the screen, and nothing wider than the window.
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= viewport["width"]
            for star in (0, 23):
                box = page.locator(f".starfield [data-star='{star}'] .core").bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            screenshot(page, f"triangles-theme-{theme}-{size}")
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('triverse.prefs'))")
    assert stored["starTheme"] == THEMES[-1]
    # Touch, on the phone: a tap on one star then another, and a finger dragged between two.
    for how in ("touch-tap", "touch-drag"):
        state = state_of(server, mid)
        line = next(iter(state.legal_actions()))
        page.wait_for_selector(f"body[data-identity='{state.current_player}'][data-your-turn='true']")
        draw_line(page, line.a, line.b, how)
        page.wait_for_selector(f"body[data-move='{state.move_number + 1}']")
        assert page.locator(f".starfield [data-line='{line}']").count() == 1
    page.reload()
    page.wait_for_selector(f".match[data-star-theme='{THEMES[-1]}']")


def assert_lines_show_over_fills(page: Any, theme: str) -> None:
    """Every line, of either player, keeps a contrast of 3:1 or more (WCAG 1.4.11, non-text)
    against the tint of a closed triangle of either player, at both ends of the sky: the
    colours as the browser computed them for this theme."""
    styles = page.evaluate("""() => {
        const m = getComputedStyle(document.querySelector('.match'));
        const one = (sel) => getComputedStyle(document.querySelector(sel));
        const fill = (p) => { const s = one(`.starfield .sf-tri.${p} .fill`);
                              return [s.fill, s.fillOpacity]; };
        return {sky: [m.getPropertyValue('--sky'), m.getPropertyValue('--sky-2')],
                fills: [fill('p0'), fill('p1')],
                lines: ['p0', 'p1'].map((p) => one(`.starfield .sf-line.${p}:not(.halo)`).stroke)};
    }""")
    for fill, alpha in styles["fills"]:
        assert 0 < float(alpha) < 1, (theme, fill, alpha)
        for sky in styles["sky"]:
            tint = over(colour(fill), float(alpha), colour(sky))
            for line in styles["lines"]:
                ratio = contrast(colour(line), tint)
                where = f"{theme}: line {line} over fill {fill} x {alpha} on {sky}"
                assert ratio >= 3, f"{where}: {ratio:.2f}"


def triangle_plan(state: TrianglesState) -> list[str]:
    """Lines for a position where Player 1 closed a triangle and Player 2 another, with a few
    more lines around: P1 a-b, P2 b-c, P1 a-c (P1 closes), P2 d-e, P1 e-f, P2 d-f (P2 closes),
    then lines that close nothing."""
    state = state.clone()
    plan: list[str] = []

    def play(line: Line) -> None:
        plan.append(str(line))
        state.apply(line)

    def free_triangle() -> tuple[int, int, int]:
        return next(t for t in state.board.triangles if all(
            state.is_legal(Line(x, y)) for x, y in ((t[0], t[1]), (t[1], t[2]), (t[0], t[2]))))

    a, b, c = free_triangle()
    play(Line(a, b))
    play(Line(b, c))
    play(Line(a, c))
    d, e, f = free_triangle()
    play(Line(d, e))
    play(Line(e, f))
    play(Line(d, f))
    for _ in range(6):
        quiet = [line for line in state.legal_actions() if not closes(state, line)]
        if not quiet:
            break
        play(quiet[len(quiet) // 2])
    return plan


def test_triangles_rules_page_draws_the_seeds_figures(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    answer = page.goto(f"{server.base}/rules/triangles.html")
    assert answer is not None and answer.status == 200
    figures = page.locator("figure.star-diagram")
    assert figures.count() == 5
    for i in range(figures.count()):
        fig = figures.nth(i)
        fig.locator("svg").wait_for()
        assert "unavailable" not in fig.inner_text()
        named = len((fig.get_attribute("data-stars") or "").split())
        assert fig.locator("svg .sf-star").count() == named
    crossing = page.locator("#fig-crossing")
    assert "crosses a line" in crossing.locator(".sf-refused").inner_html()
    assert "passes through a star" in page.locator("#fig-through .sf-refused").inner_html()
    assert page.locator("#fig-inside .sf-tri").count() == 0  # D inside: no point
    assert page.locator("#fig-around .sf-tri").count() == 3
    assert page.locator("#fig-square .sf-tri.p0").count() == 2  # the diagonal scores 2
    page.locator("#fig-inside").scroll_into_view_if_needed()
    screenshot(page, "rules-triangles-1280x800")


def test_a_picked_star_shows_its_legal_partners_and_closing_lines(
        server: LiveServer, new_page: Any) -> None:
    page = new_page()
    mid = start_triangles(page, server.base, "hotseat", ["human", "human"], seed=9)
    # Late in a game: many lines that close nothing, through the API.
    plan, star = late_plan(state_of(server, mid), quiet=26)
    post_lines(page, server, mid, plan)
    state = state_of(server, mid)
    seat = state.current_player
    page.wait_for_selector(f"body[data-identity='{seat}'][data-your-turn='true']")
    expected = partners(state, star)
    closers = {other for other, n in expected.items() if n}
    assert closers and set(expected) - closers
    # Before a star is picked nothing is marked.
    assert page.locator(".starfield .sf-star.partner").count() == 0
    # The seat's view carries the legal lines the table marks from.
    view = server_view(page, mid, token_of(page, mid, seat))
    legal = {(a["fields"]["a"], a["fields"]["b"]) for a in view["legal_actions"]}
    assert legal == {(line.a, line.b) for line in state.legal_actions()}
    # For every star, the view's partners and the triangles each line closes are the engine's.
    every = page.evaluate("""async (view) => {
        const m = await import('/js/games/triangles-legal.js');
        return view.observation.stars.map((_, s) => Object.fromEntries([...m.partnersOf(
            view.observation, view.legal_actions, s)].map(([o, thirds]) => [o, thirds.length])));
    }""", view)
    assert [{int(k): v for k, v in p.items()} for p in every] == [
        partners(state, s) for s in range(len(state.board.stars))]
    # Picked with a tap: its partners are exactly the stars of the legal lines at it.
    x, y = star_centre(page, star)
    before = field_box(page)
    page.mouse.click(x, y)
    page.wait_for_selector(f".starfield [data-star='{star}'].selected")
    assert field_box(page) == before, "picking a star moved the stars"
    marked = marked_stars(page)
    assert marked["partner"] == set(expected), "the partners are not the legal lines' stars"
    assert marked["closer"] == closers, "the closing lines are not marked"
    lines = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '.starfield .sf-line.closing')].map((l) => [l.dataset.closing,
                                                    Number(l.dataset.triangles)]))""")
    assert lines == {str(Line(star, other)): expected[other] for other in closers}
    assert page.locator(".starfield .sf-would-close").count() == sum(expected[o] for o in closers)
    label = page.locator(f".starfield [data-star='{min(closers)}']").get_attribute("aria-label")
    assert label and "closes a triangle" in label
    assert page.locator(".tri-picked").inner_text() == f"Star {star} picked: now the second star."
    picked = page.locator(".tray-messages .hint").inner_text()
    n = len(closers)
    assert picked == (f"Star {star} picked: it can be joined to {len(expected)} stars. "
                      f"{n} of these lines {'closes' if n == 1 else 'close'} a triangle.")
    screenshot(page, "triangles-partners-1280x800")
    # Escape lets go; picked with the keyboard, another star shows its own partners.
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.starfield .sf-star.partner')")
    other = next(s for s in range(len(state.board.stars)) if s != star and partners(state, s))
    page.locator(".starfield [data-star][tabindex='0']").focus()
    type_star(page, other)
    page.wait_for_selector(f".starfield [data-star='{other}'].selected")
    assert marked_stars(page)["partner"] == set(partners(state, other))
    page.keyboard.press("Escape")
    # On a phone too, picking a star leaves the field where it is (the tray keeps its height).
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    before = field_box(page)
    x, y = star_centre(page, star)
    page.mouse.click(x, y)
    page.wait_for_selector(f".starfield [data-star='{star}'].selected")
    assert marked_stars(page)["closer"] == closers
    assert field_box(page) == before, "picking a star moved the stars"
    screenshot(page, "triangles-partners-390x844")
    page.keyboard.press("Escape")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(150)
    # Drawing a closing line scores, and the marks go with the pick.
    target = min(closers)
    draw_line(page, star, target, "tap")
    page.wait_for_selector(f"body[data-move='{len(plan) + 1}']")
    assert sum(state_of(server, mid).scores) == expected[target]
    assert page.locator(".starfield .sf-star.partner").count() == 0
    assert page.locator(".starfield .sf-line.closing").count() == 0


def field_box(page: Any) -> dict[str, float]:
    """Where the star field is on the page."""
    box: dict[str, float] = page.locator(".starfield").bounding_box()
    return box


def marked_stars(page: Any) -> dict[str, set[int]]:
    """The stars marked as partners of the picked star, and those whose line closes."""
    found: dict[str, list[int]] = page.evaluate("""() => Object.fromEntries(['partner', 'closer']
        .map((c) => [c, [...document.querySelectorAll(`.starfield .sf-star.${c}`)]
        .map((g) => Number(g.dataset.star))]))""")
    return {k: set(v) for k, v in found.items()}


TRIANGLES_JS = ("triangles.js", "triangles-view.js", "triangles-legal.js", "triangles-keys.js",
                "starfield.js")
"""The browser modules of Triangles (src/triverse/web/js/games/)."""


def test_no_triangles_module_reads_the_servers_english() -> None:
    """The modules render from message codes and parameters: they never read an event's
    `label`, an error's `message` or an action's `description`, and a regular expression
    only ever reads what the player types (digits and a separator)."""
    games = Path(__file__).resolve().parents[2] / "src/triverse/web/js/games"
    allowed = {r"/^\s*(\d+)\s*[-–,\s]\s*(\d+)\s*$/", r"/^[0-9]$/"}
    for name in TRIANGLES_JS:
        source = (games / name).read_text(encoding="utf-8")
        for field in ("label", "message", "description", "reason.text"):
            assert not re.search(rf"\.{re.escape(field)}\b", source), f"{name} reads .{field}"
        regexes = set(re.findall(r"/\^[^\n]*?\$/", source))
        assert regexes <= allowed, f"{name}: {regexes - allowed}"
        assert "/^(phone|tablet)" not in source
