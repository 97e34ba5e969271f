"""Helpers of the Trident browser tests: starting a game through the New Game dialog, reading
the position as the server holds it, and playing through the UI as a person would (keyboard
placement, dragging from the rack, the notation box, the Exchange and Pass buttons)."""

from __future__ import annotations

from typing import Any

from web_helpers import open_new_game, submit_new_game
from web_support import LiveServer

from triverse.games.trident.engine import TridentState
from triverse.games.trident.tiles import Exchange, Pass, Play


def start_trident(page: Any, base: str, seed: int = 7, shot: str | None = None,
                  time_limit: int | None = None) -> str:
    """Create a Trident game against the computer through the lobby (a turn's time limit in
    seconds, if given); returns the match id."""
    dialog = open_new_game(page, base, "trident", "computer", seed)
    if time_limit is not None:
        dialog.locator("#opt-time_limit").fill(str(time_limit))
    return submit_new_game(page, dialog, shot)


def state_of(server: LiveServer, mid: str) -> TridentState:
    """The match's position now (the server's own)."""
    state = server.state(mid)
    assert isinstance(state, TridentState)
    return state


def choose(state: TridentState) -> Any:
    """The action the tests play: the legal play with the most tiles (the game ends sooner),
    else an exchange of every tile, else pass."""
    actions = list(state.legal_actions())
    plays = [a for a in actions if isinstance(a, Play)]
    if plays:
        return max(plays, key=lambda p: len(p.tiles))
    exchanges = [a for a in actions if isinstance(a, Exchange)]
    if exchanges:
        return max(exchanges, key=lambda e: len(e.tiles))
    return next(a for a in actions if isinstance(a, Pass))


def rack_slot(page: Any, tile: str, used: set[int]) -> int:
    """The rack slot showing ``tile`` not used yet."""
    tiles = page.eval_on_selector_all(".td-rack-tile", "els => els.map(e => e.dataset.tile)")
    for i, t in enumerate(tiles):
        if t == tile and i not in used:
            used.add(i)
            return i
    raise AssertionError(f"no {tile} on the rack {tiles}")


def pick_joker(page: Any, value: int) -> None:
    dialog = page.locator("dialog.td-joker-dialog")
    dialog.wait_for()
    dialog.locator(f"button[data-joker-value='{value}']").click()
    dialog.wait_for(state="detached")


def place_by_keys(page: Any, slot: int, row: int, col: int, joker: int | None = None) -> None:
    """Select the rack tile with its number key, walk the cursor with the arrows, Enter."""
    page.locator(".td-sq[tabindex='0']").focus()
    page.keyboard.press(str(slot + 1))
    cur = page.locator(".td-sq[tabindex='0']").get_attribute("data-sq") or "7:7"
    r, c = (int(x) for x in cur.split(":"))
    for _ in range(abs(row - r)):
        page.keyboard.press("ArrowDown" if row > r else "ArrowUp")
    for _ in range(abs(col - c)):
        page.keyboard.press("ArrowRight" if col > c else "ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.sq") == f"{row}:{col}"
    page.keyboard.press("Enter")
    if joker is not None:
        pick_joker(page, joker)
    page.wait_for_selector(f".td-sq[data-sq='{row}:{col}'].td-tentative")


def place_by_drag(page: Any, slot: int, row: int, col: int, joker: int | None = None,
                  wait: bool = True) -> None:
    """Drag the rack tile to the square with the mouse (``wait=False``: return at the drop,
    a joker's dialog still open)."""
    src = page.locator(f".td-rack-tile[data-rack='{slot}']").bounding_box()
    dst = page.locator(f".td-sq[data-sq='{row}:{col}']").bounding_box()
    assert src and dst
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    x, y = dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2
    page.mouse.move(x + 20, y + 20, steps=6)
    page.mouse.move(x, y, steps=3)
    page.mouse.up()
    if not wait:
        return
    if joker is not None:
        pick_joker(page, joker)
    page.wait_for_selector(f".td-sq[data-sq='{row}:{col}'].td-tentative")


def play_through_ui(page: Any, action: Any, how: str) -> None:
    """Play ``action``: a play placed tile by tile ("keys" or "drag") or typed ("type"), an
    exchange chosen on the rack, or the Pass button."""
    if isinstance(action, Pass):
        page.click("button[data-action='pass']")
    elif isinstance(action, Exchange):
        page.click("button[data-action='exchange']")
        used: set[int] = set()
        for t in str(action).removeprefix("exchange ").split(","):
            page.click(f".td-rack-tile[data-rack='{rack_slot(page, t.strip(), used)}']")
        page.click("button[data-action='exchange']")
    elif how == "type":
        page.fill("#td-notation", str(action))
        page.press("#td-notation", "Enter")
    else:
        used = set()
        for p in action.tiles:
            slot = rack_slot(page, "*" if p.joker else str(p.value), used)
            place = place_by_keys if how == "keys" else place_by_drag
            place(page, slot, p.row, p.col, p.value if p.joker else None)
        page.click("button[data-action='submit']")


def _channel(value: float) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def parse_rgb(css: str) -> tuple[float, float, float, float]:
    """``rgb(r, g, b)`` or ``rgba(r, g, b, a)`` of a computed style as numbers (alpha 1 if none)."""
    inner = css[css.index("(") + 1:css.rindex(")")].replace("/", " ").replace(",", " ")
    parts = [float(p) for p in inner.split()]
    return parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0


def luminance(rgb: tuple[float, float, float, float]) -> float:
    """WCAG 2's relative luminance of an opaque sRGB colour."""
    r, g, b, _ = rgb
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(fg: str, bg: str) -> float:
    """WCAG 2's contrast ratio of two computed colours (both opaque)."""
    a, b = parse_rgb(fg), parse_rgb(bg)
    assert a[3] == 1 and b[3] == 1, (fg, bg)
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# The computed colours of every premium square's label and of the square under it.
PREMIUM_LABELS_JS = """() => [...document.querySelectorAll(
    '.td-sq:not(.td-tile):not(.td-tentative) .td-label')]
  .map(label => {
    const sq = label.closest('.td-sq');
    const ls = getComputedStyle(label), ss = getComputedStyle(sq);
    return { sq: sq.dataset.sq, cls: sq.className, text: label.textContent, color: ls.color,
             background: ss.backgroundColor, image: ss.backgroundImage,
             size: parseFloat(ls.fontSize), weight: Number(ls.fontWeight) };
  })"""
