"""Helpers of the tile games' table tests (test_web_tiles_*.py): moves played through the API
from the page (so the board's own view is left as the player set it), and what the board
shows, measured on the page."""

from __future__ import annotations

from typing import Any

from web_helpers import choose, server_view, token_of


def act(page: Any, mid: str, seat: int, notation: str, move: int) -> int:
    """Play ``notation`` for the page's seat through the REST API; the HTTP status."""
    status: int = page.evaluate(
        """async ([id, token, action, move]) => (await fetch(`/api/matches/${id}/actions`, {
             method: 'POST', headers: {'Content-Type': 'application/json',
                                       Authorization: `Bearer ${token}`},
             body: JSON.stringify({action, move})})).status""",
        [mid, token_of(page, mid, seat), notation, move])
    return status


def play_by_api(page: Any, mid: str, seat: int = 0) -> dict[str, Any]:
    """The seat's chosen move (web_helpers.choose), played through the API once the page has
    drawn the view it is for; returns the action."""
    view = server_view(page, mid, token_of(page, mid, seat))
    action = choose(view)
    assert act(page, mid, seat, action["notation"], view["move"]) == 200
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {view['move']}"
                           " || document.body.dataset.finished === 'true'")
    return action


def full_log(page: Any, mid: str, seat: int = 0) -> list[dict[str, Any]]:
    """The seat's view's whole log (every entry of the game so far)."""
    log: list[dict[str, Any]] = page.evaluate(
        """async ([id, token]) => (await (await fetch(`/api/matches/${id}/view?log=100000`,
              {headers: {'X-Seat-Token': token}})).json()).log""",
        [mid, token_of(page, mid, seat)])
    return log


def round_tiles(log: list[dict[str, Any]]) -> int:
    """The tiles placed in the last round that ended, from its start to its end."""
    placed = 0
    for entry in log:
        for event in entry["events"]:
            if event["kind"] == "round_start":
                placed = 0
            elif event["kind"] == "round_end":
                return placed
            elif event["kind"] == "place":
                placed += 1
    raise AssertionError("no round ended in the log")


def tiles_outside(page: Any) -> list[str]:
    """The cells of the tiles drawn (partly) outside the board's box."""
    outside: list[str] = page.evaluate("""() => {
        const r = document.querySelector('.board').getBoundingClientRect();
        return [...document.querySelectorAll('.board .layer-tiles .tile')].filter((g) => {
          const b = g.getBoundingClientRect();
          return b.left < r.left || b.top < r.top || b.right > r.right || b.bottom > r.bottom;
        }).map((g) => g.dataset.cell);
    }""")
    return outside


def board_scale(page: Any) -> float:
    return float(page.locator(".board").get_attribute("data-scale") or 0)


def shown_tiles(page: Any) -> int:
    count: int = page.locator(".board .layer-tiles .tile").count()
    return count
