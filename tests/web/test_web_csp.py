"""The server's Content-Security-Policy (``triverse.server.guards``) allows no inline script or
style: no page of the UI, no game's table and not ``/docs`` may need one. Chromium reports each
blocked script, style or connection on the console, which these tests watch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from web_support import LiveServer

from triverse.games import available_games

PAGES = ["/", "/rules/", *(f"/rules/{name}.html" for name in available_games()),
         "/players/nobody_here", "/leaderboard/triangles?players=2", "/contests",
         "/contests/nobody_here"]


def _violations(page: Any) -> list[str]:
    found: list[str] = []
    page.on("console", lambda message: found.append(message.text)
            if "Content Security Policy" in message.text else None)
    return found


def test_no_page_breaks_the_content_security_policy(
        server: LiveServer, new_page: Callable[..., Any]) -> None:
    page = new_page()
    found = _violations(page)
    for path in PAGES:
        answer = page.goto(server.base + path)
        assert answer.status == 200 and "script-src 'self'" in answer.headers[
            "content-security-policy"], path
        page.wait_for_load_state("networkidle")
    page.goto(f"{server.base}/docs")
    page.locator(".opblock").first.wait_for()  # Swagger UI ran, from the server's own files
    for name in available_games():
        created = httpx.post(f"{server.base}/api/matches", json={
            "game": name, "seats": [{"kind": "human"}, {"kind": "novice"}]}).json()
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("body[data-connection='connected']")  # the websocket (connect-src)
        page.wait_for_selector("section[data-game]")  # the game's module drew its table
        page.wait_for_load_state("networkidle")
    assert found == []
