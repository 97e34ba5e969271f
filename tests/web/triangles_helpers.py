"""Helpers of the Triangles browser tests: starting a game through the New Game dialog, reading
the position as the server holds it, and drawing lines through the UI as a person would
(tapping two stars, dragging from star to star, typing star numbers, the Line box)."""

from __future__ import annotations

from typing import Any

from web_helpers import fill_seats, open_new_game, submit_new_game, token_of
from web_support import LiveServer

from triverse.games.triangles import Line, TrianglesState

HOW = ("tap", "drag", "keys", "type")
"""The four ways to draw a line, in the order the full game takes them."""


def start_triangles(page: Any, base: str, mode: str = "computer",
                    seats: list[str] | None = None, board: str = "phone-24",
                    again: bool = False, seed: int = 7, shot: str | None = None) -> str:
    """Create a Triangles game through the lobby's New Game dialog (board and "Play again after
    a triangle" chosen there); returns the match id once the table shows."""
    dialog = open_new_game(page, base, "triangles", mode, seed)
    fill_seats(dialog, seats or [], count=False)
    dialog.locator("#opt-board").select_option(board)
    if again:
        dialog.locator("#opt-again").check()
    return submit_new_game(page, dialog, shot)


def state_of(server: LiveServer, mid: str) -> TrianglesState:
    """The match's position now (the server's own)."""
    state = server.state(mid)
    assert isinstance(state, TrianglesState)
    return state


def closing_line(state: TrianglesState) -> Line | None:
    """A legal line that closes a triangle that scores, if there is one."""
    me = state.current_player
    assert me is not None
    for line in state.legal_actions():
        after = state.clone()
        after.apply(line)
        if after.scores[me] > state.scores[me]:
            return line
    return None


def choose_line(state: TrianglesState) -> Line:
    """The line the tests draw: one that scores if any, else the first legal line that gives
    the opponent no triangle to close, else the first legal line."""
    scoring = closing_line(state)
    if scoring is not None:
        return scoring
    first = None
    for line in state.legal_actions():
        first = first or line
        after = state.clone()
        after.apply(line)
        if after.is_terminal() or closing_line(after) is None:
            return line
    assert first is not None
    return first


def refused_pairs(state: TrianglesState) -> dict[str, tuple[int, int]]:
    """One pair of stars for each reason the engine refuses a line: 'crosses a line',
    'passes through a star', 'already drawn' (those that exist in this position)."""
    out: dict[str, tuple[int, int]] = {}
    n = len(state.board.stars)
    for a in range(n):
        for b in range(a + 1, n):
            reason = state.illegal_reason(Line(a, b)) or ""
            for phrase in ("crosses a line", "passes through a star", "already drawn"):
                if reason.startswith(phrase) and phrase not in out:
                    out[phrase] = (a, b)
    return out


def star_centre(page: Any, star: int) -> tuple[float, float]:
    core = page.locator(f".starfield [data-star='{star}'] .core")
    box = None
    for _ in range(20):  # the field may be drawn again (a view came) between wait and box
        core.wait_for(state="visible")
        box = core.bounding_box()
        if box is not None:
            break
    assert box is not None, f"star {star} has no box on the page"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def type_star(page: Any, star: int) -> None:
    """Type a star's number (it takes the focus) and press Enter (it is picked)."""
    for digit in str(star):
        page.keyboard.press(digit)
    focused = page.evaluate("() => document.activeElement?.dataset?.star ?? ''")
    assert focused == str(star), f"typing {star} focused star {focused!r}"
    page.keyboard.press("Enter")


def draw_line(page: Any, a: int, b: int, how: str) -> None:
    """Draw the line a-b through the UI, one of HOW (it is sent; the server judges it)."""
    if how == "tap":
        for star in (a, b):
            x, y = star_centre(page, star)
            page.mouse.click(x, y)
    elif how == "drag":
        x, y = star_centre(page, a)
        x2, y2 = star_centre(page, b)
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move((x + x2) / 2 + 7, (y + y2) / 2 + 7, steps=5)
        page.mouse.move(x2, y2, steps=4)
        page.mouse.up()
    elif how == "touch-tap":
        for star in (a, b):
            x, y = star_centre(page, star)
            page.touchscreen.tap(x, y)
    elif how == "touch-drag":
        # A finger from star to star: touch events as the device sends them (Chromium turns
        # them into pointer events of type "touch").
        x, y = star_centre(page, a)
        x2, y2 = star_centre(page, b)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent",
                 {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for k in range(1, 9):
            f = k / 8
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x + (x2 - x) * f, "y": y + (y2 - y) * f}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    elif how == "keys":
        # Into the star field as Tab would go (the star holding the roving tabindex).
        page.locator(".starfield [data-star][tabindex='0']").focus()
        type_star(page, a)
        assert page.locator("body").get_attribute("data-selected-star") == str(a)
        type_star(page, b)
    elif how == "type":
        page.fill("#line-input", f"{a}-{b}")
        page.press("#line-input", "Enter")
    else:
        raise ValueError(how)


def play_line(page: Any, server: LiveServer, mid: str, how: str) -> Line:
    """Draw the line choose_line picks, and wait until the table shows the move."""
    line = choose_line(state_of(server, mid))
    before = int(page.locator("body").get_attribute("data-move") or 0)
    draw_line(page, line.a, line.b, how)
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}"
                           " || document.body.dataset.finished === 'true'")
    return line


def stats(page: Any) -> dict[str, Any]:
    """The statistics this browser keeps (localStorage triverse.stats)."""
    data: dict[str, Any] = page.evaluate(
        "() => JSON.parse(localStorage.getItem('triverse.stats') || '{}')")
    return data


def post_lines(page: Any, server: LiveServer, mid: str, plan: list[str]) -> None:
    """Play `plan` through the API, each line by the seat to move (quicker than the UI; the
    table shows each line live), and wait until the table shows the last one."""
    tokens = {seat: token_of(page, mid, seat) for seat in (0, 1)}
    for notation in plan:
        state = state_of(server, mid)
        seat = state.current_player
        assert seat is not None
        answer = page.evaluate("""async ([id, token, action, move]) => (await fetch(
            `/api/matches/${id}/actions`, {method: 'POST', headers: {'Content-Type':
            'application/json', 'X-Seat-Token': token},
            body: JSON.stringify({action, move})})).status""",
                               [mid, tokens[seat], notation, state.move_number])
        assert answer == 200
    page.wait_for_selector(f"body[data-move='{len(plan)}']")


def gained(state: TrianglesState, line: Line) -> int:
    """The triangles `line` would close (and score) now."""
    after = state.clone()
    after.apply(line)
    return sum(after.scores) - sum(state.scores)


def partners(state: TrianglesState, star: int) -> dict[int, int]:
    """The stars `star` may be joined to now (the engine's legal lines), each with the number of
    triangles its line would close."""
    return {line.b if line.a == star else line.a: gained(state, line)
            for line in state.legal_actions() if star in (line.a, line.b)}


def late_plan(state: TrianglesState, quiet: int) -> tuple[list[str], int]:
    """Up to `quiet` lines that close nothing (the middle one of the legal list each time), then
    a star of the position reached with two or more partners, one of whose lines closes a
    triangle and one of whose does not: the plan and that star."""
    state = state.clone()
    plan: list[str] = []
    for _ in range(quiet):
        calm = [line for line in state.legal_actions() if not gained(state, line)]
        if not calm:
            break
        line = calm[len(calm) // 2]
        plan.append(str(line))
        state.apply(line)
    for star in range(len(state.board.stars)):
        found = set(partners(state, star).values())
        if 0 in found and found - {0}:
            return plan, star
    raise AssertionError("no star with both kinds of partner: choose another seed")


def colour(text: str) -> tuple[float, float, float]:
    """A CSS colour as computed styles write it: '#rrggbb' or 'rgb(r, g, b)'."""
    text = text.strip()
    if text.startswith("#") and len(text) == 7:
        return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
    inside = text[text.index("(") + 1:text.index(")")].replace(",", " ").split()
    r, g, b = (float(x) for x in inside[:3])
    return (r, g, b)


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2's relative luminance."""
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG 2's contrast ratio of two colours."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def over(fg: tuple[float, float, float], alpha: float,
         bg: tuple[float, float, float]) -> tuple[float, float, float]:
    """`fg` at opacity `alpha` over `bg` (as the browser composites, in sRGB)."""
    r, g, b = (f * alpha + k * (1 - alpha) for f, k in zip(fg, bg, strict=True))
    return (r, g, b)
